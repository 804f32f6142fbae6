//! The Proof page's part of the URL: which example and step a link opens, and what the URL
//! says as the reader steps. Pure (the page reads and writes the URL and drafts around it).

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

#[cfg(test)]
mod tests {
    use super::*;

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
