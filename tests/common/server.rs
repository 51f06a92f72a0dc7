//! A `seams serve` process for tests: started on a free port, its address
//! read from its first line, killed when dropped or, if never dropped,
//! when the test binary exits (`reap`); and a small HTTP/1.1
//! client over `TcpStream`, so requests can carry any header a browser or
//! an attacker's page might send.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// Starts `seams serve` with `args` and waits for its address line.
    pub fn start(args: &[&str]) -> Server {
        let mut child = super::reap::spawn(
            Command::new(env!("CARGO_BIN_EXE_seams"))
                .arg("serve")
                .args(args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .expect("seams serve starts");
        // For the test that no server outlives a failing test: a panic
        // here leaves the started server owned by nobody.
        if std::env::var_os("SEAMS_TEST_PANIC_AFTER_SERVER_STARTS").is_some() {
            panic!("SEAMS_TEST_PANIC_AFTER_SERVER_STARTS is set");
        }
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("seams serve prints its address");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Sends one request with `headers` (a `Host` naming the server is
    /// added unless one is given) and returns the status and body.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).expect("connects");
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        s.write_all(head.as_bytes()).expect("writes");
        // The server may answer (413) before reading a huge body; a write
        // error then is expected, the answer is what counts.
        let _ = s.write_all(body);
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = text
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }

    /// A same-origin JSON `POST`, as the page sends it.
    pub fn post(&self, path: &str, json: &serde_json::Value) -> (u16, serde_json::Value) {
        let origin = format!("http://{}", self.addr);
        let (status, body) = self.request(
            "POST",
            path,
            &[("Content-Type", "application/json"), ("Origin", &origin)],
            json.to_string().as_bytes(),
        );
        let value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("answer to {path} is not JSON ({e}): {body}"));
        (status, value)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        super::reap::kill(&mut self.child);
    }
}
