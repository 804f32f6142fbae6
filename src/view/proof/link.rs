//! The Proof page's part of the URL: which example and step a link opens, the actions typed
//! into the example's form, and what the URL says as the reader steps. Pure (the page reads
//! and writes the URL and drafts around it).

use crate::route::state::ViewState;

/// The example to open and the step to show: a link (`proof?example=…&step=12`) wins over
/// the kept draft (`draft_example`, `draft_step` as stored); neither: nothing.
pub fn start_at(
    linked: &ViewState,
    draft_example: Option<String>,
    draft_step: Option<String>,
) -> Option<(String, Option<usize>)> {
    if let Some(key) = linked.example.clone() {
        return Some((key, linked.step.map(|s| s as usize)));
    }
    let key = draft_example.filter(|k| !k.is_empty())?;
    Some((key, draft_step.and_then(|s| s.parse().ok())))
}

/// The URL's state showing example `key` at step `at` (no example: neither is in the URL);
/// every other key is kept.
pub fn at_step(mut v: ViewState, key: String, at: usize) -> ViewState {
    if key.is_empty() {
        v.example = None;
        v.step = None;
    } else {
        v.example = Some(key);
        v.step = u32::try_from(at).ok();
    }
    v
}

/// One action typed into the form: agent, kind and parameters, as the engine takes them.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedAction {
    pub agent: String,
    pub kind: String,
    pub params: serde_json::Value,
}

/// The actions as the URL and the draft keep them: a JSON list of `[agent, kind, params]`;
/// `None` for no actions (the key leaves the URL).
pub fn encode_actions(actions: &[TypedAction]) -> Option<String> {
    if actions.is_empty() {
        return None;
    }
    let list: Vec<serde_json::Value> = actions
        .iter()
        .map(|a| serde_json::json!([a.agent, a.kind, a.params]))
        .collect();
    serde_json::to_string(&list).ok()
}

/// The actions a link or draft carries, or why they cannot be read (a link is user input:
/// it is read, never trusted; the engine still checks every action).
pub fn decode_actions(text: &str) -> Result<Vec<TypedAction>, String> {
    let bad = |why: &str| format!("the link's actions cannot be read: {why}");
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
    let serde_json::Value::Array(items) = value else {
        return Err(bad("not a list"));
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| match item {
            serde_json::Value::Array(parts) => match parts.as_slice() {
                [serde_json::Value::String(agent), serde_json::Value::String(kind), params] => {
                    Ok(TypedAction {
                        agent: agent.clone(),
                        kind: kind.clone(),
                        params: params.clone(),
                    })
                }
                _ => Err(bad(&format!(
                    "action {} is not [agent, kind, params]",
                    i + 1
                ))),
            },
            _ => Err(bad(&format!(
                "action {} is not [agent, kind, params]",
                i + 1
            ))),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_actions_round_trip_through_the_url() {
        let actions = vec![
            TypedAction {
                agent: "R1".into(),
                kind: "propose".into(),
                params: serde_json::json!({"formula": "a > 0 \\land b > 0", "premises": ["H-1"]}),
            },
            TypedAction {
                agent: "R2".into(),
                kind: "accept".into(),
                params: serde_json::json!({"proposal": "C-001"}),
            },
        ];
        let text = encode_actions(&actions).unwrap();
        let v = ViewState {
            actions: Some(text),
            ..Default::default()
        };
        let back = ViewState::decode(&v.encode());
        assert_eq!(
            decode_actions(back.actions.as_deref().unwrap()),
            Ok(actions)
        );
        assert_eq!(encode_actions(&[]), None);
    }

    #[test]
    fn unreadable_actions_say_why() {
        for bad in ["", "{}", "[1]", "[[\"a\",\"b\"]]", "[[\"a\",2,{}]]"] {
            let e = decode_actions(bad).unwrap_err();
            assert!(
                e.starts_with("the link's actions cannot be read"),
                "{bad}: {e}"
            );
        }
        assert_eq!(decode_actions("[]"), Ok(vec![]));
    }

    #[test]
    fn a_link_wins_over_the_draft() {
        let linked = ViewState {
            example: Some("modus".into()),
            step: Some(3),
            ..Default::default()
        };
        let draft = || (Some("other".to_string()), Some("9".to_string()));
        let (e, s) = draft();
        assert_eq!(start_at(&linked, e, s), Some(("modus".into(), Some(3))));
        let (e, s) = draft();
        assert_eq!(
            start_at(&ViewState::default(), e, s),
            Some(("other".into(), Some(9)))
        );
    }

    #[test]
    fn an_empty_or_missing_draft_opens_nothing() {
        let none = ViewState::default();
        assert_eq!(start_at(&none, Some(String::new()), Some("2".into())), None);
        assert_eq!(start_at(&none, None, None), None);
        assert_eq!(
            start_at(&none, Some("a".into()), Some("x".into())),
            Some(("a".into(), None))
        );
    }

    #[test]
    fn stepping_keeps_other_keys() {
        let v = ViewState {
            run: Some("r1".into()),
            ..Default::default()
        };
        let v = at_step(v, "modus".into(), 7);
        assert_eq!((v.example.as_deref(), v.step), (Some("modus"), Some(7)));
        assert_eq!(v.run.as_deref(), Some("r1"));
        let v = at_step(v, String::new(), 7);
        assert_eq!((v.example, v.step), (None, None));
    }
}
