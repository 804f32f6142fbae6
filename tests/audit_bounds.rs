//! Inputs that cannot exhaust the CLI and outputs that cannot destroy its inputs (docs/audit.md,
//! "Size limits" and "Where results go"): the built binary against
//! over-limit and 2 GiB files (exit 3 with the size and the limit, never an abort), `batch -o`
//! pointed at files that are not its results, duplicate `--profiles`, keys in any part of a
//! base URL, and duplicated band lines.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::start_mock_llm;
use serde_json::json;

const GIB2: u64 = 2 * 1024 * 1024 * 1024;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verifyfast"))
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("vf-bounds-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A file of `size` bytes that takes no disk space (a hole): the CLI must refuse it from its
/// size, or read no further than its limit.
fn sparse(path: &Path, size: u64) {
    let f = std::fs::File::create(path).unwrap();
    f.set_len(size).unwrap();
}

fn settings(d: &Path, base_url: &str) -> PathBuf {
    let path = d.join("settings.yaml");
    std::fs::write(
        &path,
        format!("llms:\n  m:\n    base_url: \"{base_url}\"\n    model: mock-model\nprofiles:\n  p1:\n    run: m\n    verify: m\n  p2:\n    run: m\n    verify: m\n"),
    )
    .unwrap();
    path
}

fn cases(d: &Path, n: usize) -> PathBuf {
    let text: String = (0..n)
        .map(|i| format!("{{\"id\":{i},\"context_input\":\"context {i}\",\"model_output\":\"output {i}\",\"expected_credit_score\":5}}\n"))
        .collect();
    let path = d.join("cases.jsonl");
    std::fs::write(&path, text).unwrap();
    path
}

fn audit(d: &Path, settings: &Path, context: &Path, output: &Path) -> Output {
    bin()
        .args(["audit", "--profile", "p1", "--settings"])
        .arg(settings)
        .arg("--context")
        .arg(context)
        .arg("--output")
        .arg(output)
        .current_dir(d)
        .output()
        .unwrap()
}

fn batch(cases: &Path, settings: &Path, out: &Path, extra: &[&str]) -> Output {
    bin()
        .arg("batch")
        .arg(cases)
        .arg("--settings")
        .arg(settings)
        .args([
            "--profiles",
            "p1",
            "--concurrency",
            "2",
            "--timeout-s",
            "10",
        ])
        .args(extra)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap()
}

// --- Size limits (item 2) ---

#[test]
fn an_audit_text_over_its_limit_is_exit_3_naming_field_size_and_limit() {
    let d = dir("audit-limit");
    let s = settings(&d, "http://127.0.0.1:9/v1");
    let small = d.join("small.txt");
    std::fs::write(&small, "Revenue rose 5%.").unwrap();
    let big_context = d.join("context.txt");
    std::fs::write(&big_context, "a".repeat(1024 * 1024 + 1)).unwrap();
    let o = audit(&d, &s, &big_context, &small);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("context_input file is 1048577 bytes, over the limit of 1048576 bytes (1 MiB)"),
        "{e}"
    );
    let big_output = d.join("output.txt");
    std::fs::write(&big_output, "b".repeat(512 * 1024 + 1)).unwrap();
    let o = audit(&d, &s, &small, &big_output);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "model_output file is 524289 bytes, over the limit of 524288 bytes (512 KiB)"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_2_gib_context_settings_strategy_or_event_log_is_a_clear_error_not_an_abort() {
    let d = dir("2gib");
    let s = settings(&d, "http://127.0.0.1:9/v1");
    let small = d.join("small.txt");
    std::fs::write(&small, "Revenue rose 5%.").unwrap();
    let huge = d.join("huge");
    sparse(&huge, GIB2);

    let o = audit(&d, &s, &huge, &small);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is 2147483648 bytes, over the limit of 1048576 bytes"),
        "{}",
        stderr(&o)
    );

    let o = audit(&d, &huge, &small, &small);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("settings file is 2147483648 bytes, over the limit of 1048576 bytes (1 MiB)"),
        "{}",
        stderr(&o)
    );

    let o = bin()
        .args(["audit", "--profile", "p1", "--settings"])
        .arg(&s)
        .arg("--strategy")
        .arg(&huge)
        .arg("--context")
        .arg(&small)
        .arg("--output")
        .arg(&small)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("strategy file is 2147483648 bytes"),
        "{}",
        stderr(&o)
    );

    let o = bin().arg("replay").arg(&huge).output().unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o)
            .contains("event log is 2147483648 bytes, over the limit of 67108864 bytes (64 MiB)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_settings_stream_without_a_size_is_read_no_further_than_the_limit() {
    // /dev/zero has no size and no end: only a capped read stops.
    let d = dir("devzero");
    let small = d.join("small.txt");
    std::fs::write(&small, "x").unwrap();
    let o = audit(&d, Path::new("/dev/zero"), &small, &small);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("settings file is more than 1048576 bytes"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_batch_case_over_a_limit_is_a_bad_line_and_the_others_run() {
    // Every call is refused with 401 (no key sent), so each pair ends at once as "could not
    // audit": what matters here is which pairs run.
    let node = start_mock_llm(&json!({}), &["--api-key", "k-required"]);
    let d = dir("batch-limit");
    let s = settings(&d, &node.1);
    let c = d.join("cases.jsonl");
    let line = |id: u32, context: &str| {
        format!("{{\"id\":{id},\"context_input\":\"{context}\",\"model_output\":\"o\",\"expected_credit_score\":5}}\n")
    };
    std::fs::write(
        &c,
        [
            line(1, "c"),
            line(2, &"c".repeat(1024 * 1024 + 1)),
            line(3, "c"),
        ]
        .concat(),
    )
    .unwrap();
    let out = d.join("r.jsonl");
    let o = batch(&c, &s, &out, &[]);
    let e = stderr(&o);
    assert!(
        e.contains(
            "cases.jsonl:2: context_input is 1048577 bytes, over the limit of 1048576 bytes"
        ),
        "{e}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let ids: Vec<i64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["id"]
                .as_i64()
                .unwrap()
        })
        .collect();
    assert_eq!(ids, vec![1, 3], "the rest ran");
    // Pairs unscored (401) win over the bad line: exit 4.
    assert_eq!(o.status.code(), Some(4), "{e}");
}

// --- batch -o (item 3) ---

#[test]
fn batch_o_never_writes_over_the_cases_settings_or_strategy_file() {
    let d = dir("o-inputs");
    let s = settings(&d, "http://127.0.0.1:9/v1");
    let c = cases(&d, 2);
    let strategy = d.join("strategy.yaml");
    std::fs::write(&strategy, "defaults:\n  params:\n    max_claims: 5\n").unwrap();
    let link = d.join("link-to-cases.jsonl");
    std::os::unix::fs::symlink(&c, &link).unwrap();
    let hard = d.join("hard-link-to-settings.yaml");
    std::fs::hard_link(&s, &hard).unwrap();
    let before: Vec<Vec<u8>> = [&c, &s, &strategy]
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    for (out, what) in [
        (c.clone(), "the cases file"),
        (link.clone(), "the cases file"),
        (d.join(".").join("cases.jsonl"), "the cases file"),
        (s.clone(), "the settings file"),
        (hard.clone(), "the settings file"),
        (strategy.clone(), "the strategy file"),
    ] {
        for force in [false, true] {
            let extra: &[&str] = if force {
                &["--force", "--strategy"]
            } else {
                &["--strategy"]
            };
            let o = bin()
                .arg("batch")
                .arg(&c)
                .arg("--settings")
                .arg(&s)
                .args(["--profiles", "p1"])
                .args(extra)
                .arg(&strategy)
                .arg("-o")
                .arg(&out)
                .output()
                .unwrap();
            assert_eq!(
                o.status.code(),
                Some(3),
                "{}: {}",
                out.display(),
                stderr(&o)
            );
            assert!(
                stderr(&o).contains(&format!("-o is {what}")),
                "{}",
                stderr(&o)
            );
        }
    }
    let after: Vec<Vec<u8>> = [&c, &s, &strategy]
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert_eq!(before, after, "no input touched");
}

#[test]
fn batch_o_refuses_a_file_that_is_not_a_results_file_and_says_what_it_found() {
    let d = dir("o-foreign");
    let s = settings(&d, "http://127.0.0.1:9/v1");
    let c = cases(&d, 2);
    let yaml = d.join("notes.yaml");
    std::fs::write(&yaml, "defaults:\n  max_tokens: 10\n").unwrap();
    let binary = d.join("image.bin");
    std::fs::write(
        &binary,
        [0x89u8, b'P', b'N', b'G', 0xFF, 0xFE, b'\n', 0, 1, 2],
    )
    .unwrap();
    let one_line = d.join("one-line.txt");
    std::fs::write(&one_line, "just some text without a newline").unwrap();
    let other_batch = d.join("other.jsonl");
    std::fs::write(
        &other_batch,
        "{\"id\":99,\"profile\":\"p1\",\"credit_score\":5,\"error\":null}\n",
    )
    .unwrap();
    let case_lines = d.join("cases-copy.jsonl");
    std::fs::copy(&c, &case_lines).unwrap();
    for (out, found) in [
        (&yaml, "line 1 is not a JSON object (it starts `defaults:`)"),
        (&binary, "not valid UTF-8"),
        (&one_line, "line 1 is not a JSON object"),
        (
            &other_batch,
            "line 1 is for id 99, which is not a case of this cases file",
        ),
        (&case_lines, "line 1 (id 0) has no `profile`"),
    ] {
        let before = std::fs::read(out).unwrap();
        let o = batch(&c, &s, out, &[]);
        assert_eq!(
            o.status.code(),
            Some(3),
            "{}: {}",
            out.display(),
            stderr(&o)
        );
        let e = stderr(&o);
        assert!(
            e.contains("is not a results file of this batch") && e.contains(found),
            "{e}"
        );
        assert!(e.contains("--force"), "{e}");
        assert_eq!(
            std::fs::read(out).unwrap(),
            before,
            "{} untouched",
            out.display()
        );
    }
    let o = bin()
        .arg("batch")
        .arg(&c)
        .arg("--settings")
        .arg(&s)
        .arg("-o")
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
}

#[test]
fn batch_o_resumes_its_own_results_and_force_replaces_a_foreign_file() {
    let node = start_mock_llm(&json!({}), &["--api-key", "k-required"]);
    let d = dir("o-force");
    let s = settings(&d, &node.1);
    let c = cases(&d, 2);
    let out = d.join("results.jsonl");
    std::fs::write(&out, "defaults:\n  max_tokens: 10\n").unwrap();
    let o = batch(&c, &s, &out, &["--force"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("replacing"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("defaults"), "{text}");
    assert_eq!(text.lines().count(), 2, "{text}");
    // Its own results file is resumed without --force (a torn last line too).
    std::fs::write(&out, format!("{text}{{\"id\":1,\"prof")).unwrap();
    let o = batch(&c, &s, &out, &[]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("resuming: 2 (id, profile) pairs already in"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn duplicate_profiles_are_refused() {
    let d = dir("dup-profiles");
    let s = settings(&d, "http://127.0.0.1:9/v1");
    let c = cases(&d, 1);
    let o = bin()
        .arg("batch")
        .arg(&c)
        .arg("--settings")
        .arg(&s)
        .args(["--profiles", "p1", "p2", "p1", "-o"])
        .arg(d.join("r.jsonl"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--profiles names `p1` more than once"),
        "{}",
        stderr(&o)
    );
    assert!(!d.join("r.jsonl").exists());
}

// --- Keys in URLs (item 4) ---

#[test]
fn a_key_in_a_base_url_query_fragment_or_userinfo_is_never_printed() {
    const KEY: &str = "sk-gateway-0123456789abcdef";
    let d = dir("url-key");
    let small = d.join("small.txt");
    std::fs::write(&small, "x").unwrap();
    for url in [
        format!("https://gw.example/v1?api-key={KEY}"),
        format!("https://gw.example/v1#key={KEY}"),
        format!("gw.example/v1?api-key={KEY}"),
        format!("htps://user:{KEY}@gw.example/v1"),
        format!("https://user:{KEY}@gw.example/v1"),
        format!("https://user:{KEY}@/v1"),
    ] {
        let s = settings(&d, &url);
        let o = audit(&d, &s, &small, &small);
        assert_eq!(o.status.code(), Some(3), "{url}: {}", stderr(&o));
        let all = format!("{}{}", stderr(&o), String::from_utf8_lossy(&o.stdout));
        assert!(!all.contains(&KEY[..10]), "{url}: {all}");
        assert!(all.contains("base_url"), "{all}");
    }
}

// --- band duplicates (item 5) ---

#[test]
fn band_reports_a_duplicated_id_and_profile_with_both_lines_and_counts_it_once() {
    let d = dir("band-dup");
    let results = d.join("r.jsonl");
    std::fs::write(
        &results,
        concat!(
            "{\"id\":1,\"profile\":\"a\",\"expected_credit_score\":5,\"credit_score\":5}\n",
            "{\"id\":2,\"profile\":\"a\",\"expected_credit_score\":1,\"credit_score\":1}\n",
            "{\"id\":1,\"profile\":\"a\",\"expected_credit_score\":5,\"credit_score\":1}\n",
        ),
    )
    .unwrap();
    let o = bin()
        .args(["band", "--format", "json"])
        .arg(&results)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("line 3: duplicate of line 1 (id 1, profile a): lines 1 and 3"),
        "{e}"
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["overall"]["n"], 2, "{v}");
    assert_eq!(
        v["overall"]["cross_band"], 0,
        "the duplicate's flip is not counted: {v}"
    );
}
