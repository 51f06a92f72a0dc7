//! Children that must not outlive the test binary: a server shared by many
//! tests, a browser and its driver. Each is started in a process group of
//! its own and registered; when the test binary exits (libtest ends with
//! `exit`, also when tests failed) every registered group is killed, so a
//! test that panics while holding one, or a child kept in a `static` that
//! is never dropped, leaves nothing running.
//!
//! `SEAMS_TEST_TOKEN` marks the processes of one test run: a child inherits
//! it, so `processes_with_token` can tell, after a run, whether any child
//! of that run is left.

use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::sync::{Mutex, Once};

/// Process groups to kill at exit (each registered child leads its own).
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Starts `command` in a process group of its own, killed with the whole
/// group when the test binary exits.
pub fn spawn(command: &mut Command) -> std::io::Result<Child> {
    static AT_EXIT: Once = Once::new();
    AT_EXIT.call_once(|| {
        // SAFETY: registers a plain function with the C runtime; it runs
        // once, at exit, and only sends signals.
        unsafe {
            libc::atexit(kill_groups);
        }
    });
    let child = command.process_group(0).spawn()?;
    if let Ok(mut groups) = GROUPS.lock() {
        groups.push(child.id() as i32);
    }
    Ok(child)
}

/// Kills a child's whole group now (a browser's driver takes the browser
/// with it) and waits for the child.
pub fn kill(child: &mut Child) {
    // SAFETY: sends a signal to the group this module made for the child.
    unsafe {
        libc::kill(-(child.id() as i32), libc::SIGKILL);
    }
    let _ = child.wait();
}

extern "C" fn kill_groups() {
    // `try_lock`: at exit no other thread may still hold the list, but if
    // one did, exiting must not hang on it.
    if let Ok(groups) = GROUPS.try_lock() {
        for &g in groups.iter() {
            // SAFETY: signals only; a group already gone is ESRCH.
            unsafe {
                libc::kill(-g, libc::SIGKILL);
            }
        }
    }
}

/// The running processes whose environment holds `SEAMS_TEST_TOKEN=token`,
/// each as its command line.
pub fn processes_with_token(token: &str) -> Vec<String> {
    let needle = format!("SEAMS_TEST_TOKEN={token}");
    processes(|proc_dir| {
        std::fs::read(proc_dir.join("environ"))
            .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == needle.as_bytes()))
    })
}

/// The running processes whose command line contains `needle`, each as
/// its command line.
pub fn processes_with(needle: &str) -> Vec<String> {
    processes(|_| true)
        .into_iter()
        .filter(|c| c.contains(needle))
        .collect()
}

/// The command lines of the running processes whose `/proc` folder passes
/// `keep`.
fn processes(keep: impl Fn(&std::path::Path) -> bool) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return vec![];
    };
    dir.flatten()
        .map(|e| e.path())
        .filter(|p| keep(p))
        .filter_map(|p| std::fs::read(p.join("cmdline")).ok())
        .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
        .collect()
}
