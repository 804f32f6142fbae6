//! docs/logic-rules.md's rule table is the code's rule table: same rules in the same order,
//! the same aliases, and each row's text is the rule's `help`.

use verifyfast::logic::rules::{catalogue, rule_help};

const DOC: &str = include_str!("../docs/logic-rules.md");

#[test]
fn the_documented_rule_table_is_the_code_table() {
    let rows: Vec<&str> = DOC
        .lines()
        .skip_while(|l| !l.starts_with("| Rule (aliases) | Check |"))
        .skip(2)
        .take_while(|l| l.starts_with("| `"))
        .collect();
    let expected: Vec<String> = catalogue()
        .iter()
        .map(|r| {
            let aliases: Vec<String> = r.aliases.iter().map(|a| format!("`{a}`")).collect();
            let name = if aliases.is_empty() {
                format!("`{}`", r.id)
            } else {
                format!("`{}` ({})", r.id, aliases.join(", "))
            };
            format!("| {name} | {} |", r.help)
        })
        .collect();
    assert_eq!(rows, expected);
}

#[test]
fn rule_help_answers_for_ids_and_aliases() {
    let mp = rule_help("modus_ponens").expect("an alias");
    assert_eq!(mp.id, "imp_elim");
    assert!(mp.arity.allows(2) && !mp.arity.allows(1));
    let or_elim = rule_help("or_elim").expect("a rule");
    assert_eq!(or_elim.discharges, &[1, 3]);
    assert_eq!(or_elim.arity.describe(), "5");
    assert_eq!(
        rule_help("algebra").map(|r| r.arity.describe()).as_deref(),
        Some("0 to 1")
    );
    assert_eq!(
        rule_help("linarith").map(|r| r.arity.describe()).as_deref(),
        Some("any number of")
    );
    assert!(rule_help("magic").is_none());
}
