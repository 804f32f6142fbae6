//! The number and direction checks (docs/audit.md, "Deterministic findings") against an
//! adversarial probe set written here (`tests/fixtures/audit_probes.jsonl`): 642 news-style
//! context/output pairs in English and Chinese, each labelled `flag` (the output invents a
//! number or reverses a direction, in every form absent from the context: an evasion when no
//! finding counts) or `clean` (the output restates the context in another notation: a false
//! alarm when a finding counts).
//!
//! Hand-written cases pin behaviour; they do not measure accuracy on real data (that is
//! `tests/audit_real.rs`). The floors are the counts when the set was added (84 evasions and 68
//! false alarms with the reader of the round before); some `flag` pairs
//! stay evasions by design (a round figure within the deviation threshold is the rubric's Low,
//! fractions and multiples in words are soft readings) and are listed by `AUDIT_PROBES_SHOW=1`.

use serde_json::Value;
use verifyfast::audit::deterministic::{direction_findings, unsupported_number_findings};
use verifyfast::audit::grounding::ground_numbers;
use verifyfast::config::AuditParams;

const FILE: &str = "tests/fixtures/audit_probes.jsonl";
/// At most this many `flag` pairs pass without a counted finding (of 295).
const MAX_EVASIONS: usize = 37;
/// At most this many `clean` pairs get a counted finding (of 347).
const MAX_FALSE_ALARMS: usize = 21;

fn counted(context: &str, output: &str) -> bool {
    let threshold = AuditParams::default().numeric_deviation_threshold;
    !unsupported_number_findings(context, output, &ground_numbers(context, output), threshold)
        .is_empty()
        || !direction_findings(context, output).is_empty()
}

#[test]
fn adversarial_probes_stay_within_their_floors() {
    let show = std::env::var("AUDIT_PROBES_SHOW").is_ok_and(|v| v == "1");
    let text = std::fs::read_to_string(FILE).expect("the probe fixture is in the repository");
    let (mut flag, mut clean, mut evasions, mut false_alarms) = (0, 0, 0, 0);
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let case: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{FILE}:{}: {e}", n + 1));
        let field = |k: &str| case[k].as_str().unwrap_or_default();
        let found = counted(field("context_input"), field("model_output"));
        let want = match field("expect") {
            "flag" => true,
            "clean" => false,
            other => panic!("{FILE}:{}: expect is {other:?}, not flag or clean", n + 1),
        };
        if want {
            flag += 1;
        } else {
            clean += 1;
        }
        if found != want {
            if want {
                evasions += 1;
            } else {
                false_alarms += 1;
            }
            if show {
                let kind = if want { "evasion" } else { "false alarm" };
                println!(
                    "{kind:<12} {}: {:?} => {:?}",
                    field("id"),
                    field("context_input"),
                    field("model_output")
                );
            }
        }
    }
    println!("evasions {evasions}/{flag}, false alarms {false_alarms}/{clean}");
    assert!(
        flag > 250 && clean > 300,
        "the fixture lost cases: {flag} flag, {clean} clean"
    );
    assert!(
        evasions <= MAX_EVASIONS && false_alarms <= MAX_FALSE_ALARMS,
        "evasions {evasions} (floor {MAX_EVASIONS}), false alarms {false_alarms} (floor {MAX_FALSE_ALARMS})"
    );
}
