//! `verifyfast extract` / `verifyfast grade` run as a user would: JSONL through stdin or a
//! file, one output line per input line, bad lines reported with their number, exit codes.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_verifyfast"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("stdin accepts input");
    child.wait_with_output().expect("binary finishes")
}

fn records(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every output line is JSON"))
        .collect()
}

#[test]
fn extract_writes_one_record_per_line() {
    let input = concat!(
        r#"{"id":"a","text":"So he bought 80-26=54 more"}"#,
        "\n",
        r#"{"text":"The answer is $\\boxed{\\frac{5}{324}}$."}"#,
        "\n\n",
        r#"{"id":3,"text":"I do not know"}"#,
        "\n"
    );
    let out = run(&["extract"], input);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = records(&out);
    assert_eq!(r.len(), 3);
    assert_eq!(r[0]["id"], "a");
    assert_eq!(r[0]["answer"], "54");
    assert_eq!(r[0]["method"], "final_equation");
    assert_eq!(r[0]["span"], serde_json::json!([19, 21]));
    assert!(r[0]["candidates"].is_array());
    assert_eq!(r[1]["id"], 2, "id defaults to the line number");
    assert_eq!(r[1]["answer"], "\\frac{5}{324}");
    assert_eq!(r[1]["method"], "boxed");
    assert_eq!(r[2]["answer"], Value::Null);
    assert_eq!(r[2]["method"], "none");
}

#[test]
fn extract_bad_line_is_reported_and_the_run_continues() {
    let input = "{\"text\":\"#### 41\"}\n{not json\n{\"id\":9}\n{\"text\":\"Answer: 7\"}\n";
    let out = run(&["extract", "-"], input);
    assert_eq!(out.status.code(), Some(2));
    let r = records(&out);
    assert_eq!(r.len(), 4);
    assert_eq!(r[0]["answer"], "41");
    assert_eq!(r[1]["line"], 2);
    assert!(r[1]["error"].as_str().unwrap_or("").contains("line 2"));
    assert_eq!(r[2]["line"], 3);
    assert_eq!(r[2]["id"], 9);
    assert!(r[2]["error"]
        .as_str()
        .unwrap_or("")
        .contains("missing field `text`"));
    assert_eq!(r[3]["answer"], "7");
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
}

#[test]
fn grade_from_file_with_summary() {
    let dir = std::env::temp_dir().join(format!("vf-extract-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("grade.jsonl");
    let lines = [
        r#"{"id":1,"output":"So he bought 80-26=54 more","ground_truth":"54.0"}"#,
        r#"{"id":2,"output":"The answer is 120006","ground_truth":"\\boxed{120000}"}"#,
        r#"{"id":3,"output":"$20\\%$","ground_truth":"20","question":"What percent of them are red?"}"#,
        r#"{"id":4,"output":"no idea","ground_truth":5}"#,
        r#"{"id":5,"output":"(2,5)","ground_truth":"[2,5)"}"#,
    ];
    std::fs::write(&path, lines.join("\n")).expect("write fixture");
    let out = run(&["grade", path.to_str().unwrap_or_default()], "");
    assert_eq!(out.status.code(), Some(0));
    let r = records(&out);
    let eq: Vec<bool> = r
        .iter()
        .map(|x| x["equivalent"].as_bool().unwrap_or(false))
        .collect();
    assert_eq!(eq, [true, false, true, false, false]);
    assert_eq!(r[0]["predicted_answer"], "54");
    assert_eq!(r[0]["ground_truth_answer"], "54.0");
    assert_eq!(r[0]["method"], "exact_rational");
    assert!(r[1]["reason"].as_str().unwrap_or("").contains("120006"));
    assert_eq!(r[2]["method"], "percent");
    assert_eq!(r[3]["method"], "no_answer");
    assert_eq!(r[3]["predicted_answer"], Value::Null);
    assert_eq!(r[4]["method"], "interval");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("graded 5 lines: 2 equivalent (40.00%), 1 with no answer, 0 bad lines"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn grade_bad_line_exit_2_and_strict_preset() {
    let input = "{\"output\":\"0.33\",\"ground_truth\":\"\\\\frac{1}{3}\"}\n[1,2]\n";
    let out = run(&["grade", "--preset", "strict"], input);
    assert_eq!(out.status.code(), Some(2));
    let r = records(&out);
    assert_eq!(r[0]["equivalent"], false);
    assert_eq!(r[1]["line"], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 bad lines"));
    let lenient = run(&["grade"], input);
    assert_eq!(records(&lenient)[0]["equivalent"], true);
}

#[test]
fn missing_file_is_a_usage_error_and_help_documents_formats() {
    let out = run(&["grade", "/nonexistent/file.jsonl"], "");
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot open"));
    for sub in ["extract", "grade"] {
        let help = run(&[sub, "--help"], "");
        let text = String::from_utf8_lossy(&help.stdout);
        assert_eq!(help.status.code(), Some(0));
        assert!(
            text.contains("Exit codes") && text.contains("line number"),
            "{text}"
        );
    }
}

#[test]
fn answer_pattern_is_reported_by_name_at_its_last_match() {
    let input = concat!(
        r#"{"id":1,"text":"FINAL: 3 ... FINAL: 12 and the last number is 99"}"#,
        "\n"
    );
    let out = run(
        &["extract", "--answer-pattern", "mine=FINAL: (\\d+)"],
        input,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = records(&out);
    assert_eq!(r[0]["answer"], "12");
    assert_eq!(r[0]["method"], "mine");
    assert_eq!(r[0]["raw"], "12");
    assert_eq!(r[0]["span"], serde_json::json!([20, 22]));
    // The built-in rules' answer is kept as a runner-up.
    assert_eq!(r[0]["candidates"][0]["answer"], "99");
}

#[test]
fn answer_patterns_are_tried_in_order_and_fall_through_to_the_rules() {
    let input = concat!(
        r#"{"id":"both","text":"A=1 B=2"}"#,
        "\n",
        r#"{"id":"second","text":"only B=7 here"}"#,
        "\n",
        r#"{"id":"neither","text":"So 80-26=54"}"#,
        "\n"
    );
    let args = |first: &str, second: &str| {
        let out = run(
            &[
                "extract",
                "--answer-pattern",
                first,
                "--answer-pattern",
                second,
            ],
            input,
        );
        assert_eq!(out.status.code(), Some(0));
        records(&out)
            .iter()
            .map(|r| {
                format!(
                    "{}:{}",
                    r["method"].as_str().unwrap_or(""),
                    r["answer"].as_str().unwrap_or("")
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        args("a=A=(\\d)", "b=B=(\\d)"),
        ["a:1", "b:7", "final_equation:54"]
    );
    assert_eq!(
        args("b=B=(\\d)", "a=A=(\\d)"),
        ["b:2", "b:7", "final_equation:54"]
    );
}

#[test]
fn bad_answer_patterns_are_refused_with_their_name() {
    for (flag, says) in [
        ("broken=(\\d+", "answer pattern `broken`: not a valid regex"),
        (
            "nogroup=\\d+",
            "answer pattern `nogroup`: needs exactly one capture group (the answer), found 0",
        ),
        (
            "two=(a)(b)",
            "answer pattern `two`: needs exactly one capture group",
        ),
        (
            "huge=\\w{1000}{1000}(x)",
            "answer pattern `huge`: not a valid regex",
        ),
        ("no-equals-sign", "expected NAME=REGEX"),
    ] {
        let out = run(&["extract", "--answer-pattern", flag], "");
        assert_eq!(out.status.code(), Some(3), "{flag}");
        assert!(out.stdout.is_empty(), "{flag}: nothing is extracted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{flag}: {err}");
    }
    let out = run(&["grade", "--answer-pattern", "x=("], "");
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("answer pattern `x`"));
}

#[test]
fn grade_uses_flag_patterns_then_settings_patterns() {
    let dir = std::env::temp_dir().join(format!("vf-extract-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let settings = dir.join("settings.yaml");
    std::fs::write(
        &settings,
        "answer_patterns:\n  - name: gsm8k\n    regex: \"#### (\\\\-?[0-9.,]+)\"\n",
    )
    .expect("write settings");
    let input = concat!(
        "{\"id\":1,\"output\":\"#### 72 but I also said 75\",\"ground_truth\":\"72\"}",
        "\n",
        "{\"id\":2,\"output\":\"RESULT 5 #### 6\",\"ground_truth\":\"5\"}",
        "\n"
    );
    let path = settings.to_str().unwrap_or_default();
    let out = run(&["grade", "--settings", path], input);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = records(&out);
    assert_eq!(r[0]["predicted_method"], "gsm8k");
    assert_eq!(r[0]["predicted_answer"], "72");
    assert_eq!(r[0]["equivalent"], true);
    assert_eq!(r[1]["predicted_method"], "gsm8k");
    assert_eq!(r[1]["equivalent"], false);
    // A flag's pattern comes first.
    let out = run(
        &[
            "grade",
            "--answer-pattern",
            "result=RESULT (\\d+)",
            "--settings",
            path,
        ],
        input,
    );
    let r = records(&out);
    assert_eq!(r[0]["predicted_method"], "gsm8k");
    assert_eq!(r[1]["predicted_method"], "result");
    assert_eq!(r[1]["equivalent"], true);
    // A bad pattern in the settings is refused like a bad flag.
    std::fs::write(
        &settings,
        "answer_patterns:\n  - {name: bad, regex: \"[\"}\n",
    )
    .expect("write settings");
    let out = run(&["extract", "--settings", path], "");
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("answer pattern `bad`"));
    let _ = std::fs::remove_dir_all(&dir);
}

// Multiple choice: a value is not a letter unless the user asks for choices (`--choices` or
// the line's `"answer_type": "choice"`); asked, the one option whose text it is gives the
// letter. Letter sets compare as sets; two letters never earn a single-choice point.
#[test]
fn grade_multiple_choice_mode() {
    let q = r#""question":"X 的期望为（ ）\nA. -\\frac{1}{21}\nB. -\\frac{1}{63}\nC. 0\nD. \\frac{1}{7}""#;
    let lines = [
        format!(
            r#"{{"id":1,"output":"故 $E=-\\frac{{1}}{{21}}$。\n\n\\boxed{{-\\frac{{1}}{{21}}}}","ground_truth":"A",{q}}}"#
        ),
        format!(
            r#"{{"id":2,"output":"\\boxed{{-\\frac{{1}}{{21}}}}","ground_truth":"A",{q},"answer_type":"choice"}}"#
        ),
        format!(r#"{{"id":3,"output":"【答案】: A, B <eoa>","ground_truth":"A",{q}}}"#),
        format!(
            r#"{{"id":4,"output":"综上，正确选项为 A、C。\n\n\\boxed{{A, C}}","ground_truth":"AC",{q}}}"#
        ),
        format!(r#"{{"id":5,"output":"故选：$ A $．","ground_truth":"A",{q}}}"#),
    ];
    let input = lines.join("\n") + "\n";
    let out = run(&["grade"], &input);
    let r = records(&out);
    let verdicts: Vec<&str> = r
        .iter()
        .map(|v| v["verdict"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        verdicts,
        ["different", "equal", "different", "equal", "equal"],
        "{r:?}"
    );
    assert!(
        r[2]["reason"]
            .as_str()
            .unwrap_or("")
            .contains("single-choice"),
        "{}",
        r[2]
    );
    let out = run(&["grade", "--choices"], &input);
    let r = records(&out);
    assert_eq!(r[0]["verdict"], "equal", "{}", r[0]);
    assert!(
        r[0]["reason"]
            .as_str()
            .unwrap_or("")
            .contains("option A's text"),
        "{}",
        r[0]
    );
}
