//! Helpers shared by the integration tests (each test file that needs one says `mod common;`).
// Each test file is its own crate and uses only part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// xorshift64*: small, deterministic, good enough to pick moves in property tests.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The scripted OpenAI-compatible server (tests/mock_llm/server.mjs) on a free port, and its
/// base URL (`http://127.0.0.1:PORT/v1`). Killed when dropped; its stdin is a pipe, so it also
/// exits when the test process dies.
pub struct MockLlm(pub Child, pub String);

impl Drop for MockLlm {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the scripted server with `script` (its `--script-json`) and `extra` arguments.
pub fn start_mock_llm(script: &serde_json::Value, extra: &[&str]) -> MockLlm {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mock_llm/server.mjs");
    let mut child = Command::new("node")
        .arg(path)
        .args(["--port", "0", "--script-json", &script.to_string()])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node must be installed to run the mock LLM server");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("piped stdout");
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("port line");
    let port = line
        .trim()
        .strip_prefix("LISTENING ")
        .expect("LISTENING <port>")
        .to_string();
    MockLlm(child, format!("http://127.0.0.1:{port}/v1"))
}

pub mod confidence;
pub mod math_verify;
pub mod real;
pub use real::fnv;
pub mod restate;
