//! The words the Proof page's world panels show for an item, a goal and a refutation. Pure
//! (no browser), so they are tested natively; `ui::proof::panels` only places them.

use crate::logic::rules::RejectCode;
use crate::logic::world::GoalState;
use crate::logic::world::Refutation;

/// How an item came about: its rule, and the premises it used ("" for none).
pub fn item_how(rule: &str, premises: &[String]) -> String {
    if rule.is_empty() {
        String::new()
    } else if premises.is_empty() {
        rule.to_string()
    } else {
        format!("{rule} from {}", premises.join(", "))
    }
}

/// The open assumptions an item rests on ("" for none).
pub fn item_deps(depends_on: &[String]) -> String {
    if depends_on.is_empty() {
        String::new()
    } else {
        format!("rests on {}", depends_on.join(", "))
    }
}

/// Why an item was refused: the engine's code and message ("" when it gave none).
pub fn item_why(code: Option<RejectCode>, message: Option<&str>) -> String {
    match (code, message) {
        (Some(code), Some(m)) => format!("{}: {m}", code.as_str()),
        (None, Some(m)) => m.to_string(),
        _ => String::new(),
    }
}

/// A goal's badge: its class and words.
pub fn goal_badge(g: &GoalState) -> (&'static str, String) {
    match &g.proved_by {
        Some(by) => ("badge ok goal-proved", format!("proved by {by}")),
        None => ("badge goal-open", "open".to_string()),
    }
}

/// A refutation's line, before its reason.
pub fn refutation_head(r: &Refutation) -> String {
    format!(" {} refutes {} ({}): ", r.by, r.target_id, r.kind)
}

/// A refutation's verdict badge: its class and words.
pub fn refutation_verdict(upheld: bool) -> (&'static str, &'static str) {
    if upheld {
        ("badge error", " upheld")
    } else {
        ("badge", " dismissed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn how_names_rule_and_premises() {
        assert_eq!(item_how("", &ids(&["h1"])), "");
        assert_eq!(item_how("assume", &[]), "assume");
        assert_eq!(item_how("mp", &ids(&["h1", "s2"])), "mp from h1, s2");
    }

    #[test]
    fn deps_only_when_resting_on_assumptions() {
        assert_eq!(item_deps(&[]), "");
        assert_eq!(item_deps(&ids(&["a1", "a2"])), "rests on a1, a2");
    }

    #[test]
    fn why_prefixes_the_code_when_there_is_one() {
        let code = RejectCode::MissingPremise;
        assert_eq!(item_why(Some(code), None), "");
        assert_eq!(item_why(None, Some("bad")), "bad");
        assert_eq!(
            item_why(Some(code), Some("bad")),
            format!("{}: bad", code.as_str())
        );
    }

    #[test]
    fn goal_badge_says_who_proved_it() {
        let mut g = GoalState {
            id: "g1".into(),
            latex: "q".into(),
            proved_by: None,
        };
        assert_eq!(goal_badge(&g), ("badge goal-open", "open".to_string()));
        g.proved_by = Some("s4".into());
        assert_eq!(goal_badge(&g).1, "proved by s4");
    }

    #[test]
    fn refutation_words() {
        let r = Refutation {
            id: "r1".into(),
            target_id: "s2".into(),
            kind: "counterexample".into(),
            reason: "x".into(),
            by: "bob".into(),
            upheld: true,
            note: String::new(),
        };
        assert_eq!(refutation_head(&r), " bob refutes s2 (counterexample): ");
        assert_eq!(refutation_verdict(true), ("badge error", " upheld"));
        assert_eq!(refutation_verdict(false).1, " dismissed");
    }
}
