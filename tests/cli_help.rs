//! The CLI's help and version: what a new user types first.

use std::process::Command;

fn verifyfast(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_verifyfast"))
        .args(args)
        .output()
        .expect("the verifyfast binary runs")
}

#[test]
fn help_lists_every_subcommand() {
    let out = verifyfast(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for sub in [
        "extract", "grade", "audit", "batch", "band", "prove", "replay",
    ] {
        assert!(text.contains(sub), "--help should list `{sub}`:\n{text}");
    }
    assert!(
        text.contains("Exit codes"),
        "--help explains exit codes:\n{text}"
    );
}

#[test]
fn version_matches_the_crate() {
    let out = verifyfast(&["--version"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("verifyfast {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn unknown_subcommand_is_a_usage_error() {
    let out = verifyfast(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("frobnicate"));
}
