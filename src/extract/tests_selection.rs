//! Which text is the final answer: one test per selection rule of issue 27's Math-Verify work
//! (docs/extract.md, "What counts as the final answer"). Each pins a rule on a short text
//! written here; the real outputs of tests/extract_real.rs are the yardstick.

use super::*;

fn ans(text: &str) -> (String, Method) {
    let e = extract(text, None).unwrap_or_else(|| panic!("no answer in {text:?}"));
    (e.answer, e.method)
}

// A sentence after a marker states its value after the verb; the math before the verb names
// the subject.
#[test]
fn marker_sentence_value_follows_its_verb() {
    let marker = Method::FinalAnswerMarker;
    assert_eq!(
        ans("Final Answer: The largest $n$ is 34."),
        ("34".into(), marker.clone())
    );
    assert_eq!(
        ans("Final Answer: The volume of $ABCDEFGH$ is 120. I hope it is correct."),
        ("120".into(), marker.clone())
    );
    assert_eq!(
        ans("Final Answer: the values of $x$ are $\\frac{1}{2}$."),
        ("\\frac{1}{2}".into(), marker.clone())
    );
    // No value after the verb: the value before it, as before.
    assert_eq!(
        ans("Final Answer: $x = 5$ is the solution."),
        ("5".into(), marker.clone())
    );
    assert_eq!(
        ans("Answer: 12 apples is what she has."),
        ("12".into(), marker)
    );
}
