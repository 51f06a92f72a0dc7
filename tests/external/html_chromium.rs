//! The HTML conformance report in a real browser: headless Chromium turns
//! a mutant run's report into a screenshot that must not be blank and must
//! show the red FAIL badge.
//!
//! A machine without Chromium reports the trial as *ignored* in the `cargo
//! test` summary, with the reason in its name, instead of passing it.
//! `--include-ignored` runs it anyway, and it then fails for want of a
//! browser. `.ci/run` installs Debian's chromium package.

use std::path::PathBuf;
use std::process::Command;

use crate::common::html::{mutant_report, scratch};
use libtest_mimic::{Failed, Trial};

const NAME: &str = "the_report_renders_in_headless_chromium";

/// The trial, ignored with the reason in its name without Chromium.
pub fn trials() -> Vec<Trial> {
    let trial = match chromium() {
        Some(_) => Trial::test(NAME, screenshot),
        None => Trial::test(
            format!("{NAME} (needs /usr/bin/chromium or SEAMS_CHROMIUM; .ci/run installs it)"),
            screenshot,
        )
        .with_ignored_flag(true),
    };
    vec![trial]
}

/// Where Debian's Chromium lives; `SEAMS_CHROMIUM` overrides.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SEAMS_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
}

/// Renders the cone-diagonals mutant's report and checks the screenshot.
fn screenshot() -> Result<(), Failed> {
    let browser = chromium().ok_or("no Chromium at /usr/bin/chromium (set SEAMS_CHROMIUM)")?;
    let dir = scratch("html-chromium");
    let (page, _) = mutant_report(&dir);
    let shot = dir.join("shot.png");
    let profile = dir.join("profile");
    let run = Command::new(&browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--window-size=1200,1600",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .map_err(|e| format!("{} does not start: {e}", browser.display()))?;
    if !shot.is_file() {
        return Err(format!(
            "chromium wrote no screenshot; status {:?}, stderr: {}",
            run.status,
            String::from_utf8_lossy(&run.stderr)
        )
        .into());
    }
    let png = resvg::tiny_skia::Pixmap::load_png(&shot)
        .map_err(|e| format!("the screenshot is not a PNG: {e}"))?;
    let pixels = png.pixels();
    let background = pixels[0];
    let differing = pixels.iter().filter(|p| **p != background).count();
    if differing * 100 <= pixels.len() {
        return Err(format!(
            "the screenshot is blank: only {differing} of {} pixels differ from the corner",
            pixels.len()
        )
        .into());
    }
    // The red of the FAIL badge shows that the page's styles were applied.
    let red = pixels
        .iter()
        .filter(|p| p.red() > 150 && p.green() < 80 && p.blue() < 80)
        .count();
    if red <= 50 {
        return Err(format!("no red FAIL badge in the screenshot ({red} red pixels)").into());
    }
    Ok(())
}
