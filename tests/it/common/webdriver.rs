//! Just enough of the W3C WebDriver protocol to drive headless Chromium through
//! ChromeDriver: open a page, click, run a script, read the console, take a screenshot.
//! Plain HTTP/1.1 over a loopback socket, one request a connection.

use serde_json::{json, Value};
use std::io::{BufRead, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A ChromeDriver process with one browser session; both end when this is dropped.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Starts ChromeDriver and a headless Chromium with a fresh profile.
    pub fn start() -> Browser {
        let port = free_port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let profile = tempfile::tempdir().unwrap();
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            _profile: profile,
        };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--window-size=1280,900",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([format!(
            "--user-data-dir={}",
            browser._profile.path().display()
        )])
        .collect::<Vec<_>>();
        let reply = browser.call(
            "POST",
            "/session",
            json!({"capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {"binary": chromium(), "args": args},
                "goog:loggingPrefs": {"browser": "ALL"},
            }}}),
        );
        browser.session = reply["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {reply}"))
            .to_string();
        browser
    }

    /// Loads a file from disk.
    pub fn open(&self, file: &Path) {
        let url = format!("file://{}", file.canonicalize().unwrap().display());
        self.session_call("POST", "/url", json!({ "url": url }));
    }

    /// Clicks the element with this CSS selector.
    pub fn click(&self, selector: &str) {
        let found = self.session_call(
            "POST",
            "/element",
            json!({"using": "css selector", "value": selector}),
        );
        let id = found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {selector}: {found}"))
            .to_string();
        self.session_call("POST", &format!("/element/{id}/click"), json!({}));
    }

    /// Presses one key (a WebDriver key code such as "\u{E014}" for the right arrow).
    pub fn press(&self, key: &str) {
        self.session_call(
            "POST",
            "/actions",
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
                {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]}),
        );
    }

    /// Runs a script in the page and returns its value.
    pub fn eval(&self, script: &str) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": []}),
        )
    }

    /// Console messages at level SEVERE (errors) since the last call.
    pub fn console_errors(&self) -> Vec<String> {
        let logs = self.session_call("POST", "/se/log", json!({"type": "browser"}));
        logs.as_array()
            .into_iter()
            .flatten()
            .filter(|l| l["level"] == "SEVERE")
            .map(|l| l["message"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// A PNG of the window.
    pub fn screenshot(&self, out: &Path) {
        let encoded = self.session_call("GET", "/screenshot", Value::Null);
        let png = decode_base64(encoded.as_str().expect("base64 text"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
        std::fs::write(out, png).unwrap();
    }

    fn session_call(&self, method: &str, path: &str, body: Value) -> Value {
        let path = format!("/session/{}{path}", self.session);
        self.call(method, &path, body)
    }

    /// One request; the reply's `value`, or a panic with the driver's error.
    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let body = if body.is_null() {
            String::new()
        } else {
            body.to_string()
        };
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("reach chromedriver");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let payload = read_reply(&mut stream);
        let value: Value = serde_json::from_str(&payload)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}: {payload}"));
        if value["value"]["error"].is_string() {
            panic!("{method} {path}: {}", value["value"]);
        }
        value["value"].clone()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.call("DELETE", &path, Value::Null)
            }));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Where Chromium is: Debian's package puts it at /usr/bin/chromium.
fn chromium() -> String {
    std::env::var("SUDOKU_BANK_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The body of an HTTP reply: by its Content-Length, or chunk by chunk.
fn read_reply(stream: &mut TcpStream) -> String {
    let mut reader = std::io::BufReader::new(stream);
    let mut head = String::new();
    let (mut length, mut chunked) = (None, false);
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("an HTTP reply");
        if line == "\r\n" || line.is_empty() {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse::<usize>().ok();
        }
        chunked |= lower.starts_with("transfer-encoding:") && lower.contains("chunked");
        head.push_str(&line);
    }
    if let Some(n) = length {
        let mut body = vec![0; n];
        reader.read_exact(&mut body).unwrap();
        return String::from_utf8(body).unwrap();
    }
    assert!(chunked, "a reply without a length: {head}");
    let mut body = String::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size).unwrap();
        let n = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if n == 0 {
            return body;
        }
        let mut chunk = vec![0; n + 2];
        reader.read_exact(&mut chunk).unwrap();
        body.push_str(std::str::from_utf8(&chunk[..n]).unwrap());
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            acc |= value(c) << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((acc >> (16 - 8 * i)) as u8);
        }
    }
    out
}
