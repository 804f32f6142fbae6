//! Exam-style formats (docs/extract.md, "Exam outputs"): one test per rule, each on a short
//! text written here in the shape real exam outputs have; tests/extract_exam.rs measures them
//! on real outputs.

use super::*;

fn ans(text: &str) -> (String, Method) {
    let e = extract(text, None).unwrap_or_else(|| panic!("no answer in {text:?}"));
    (e.answer, e.method)
}

fn equal(output: &str, gold: &str) -> Verdict {
    grade(output, gold, None, Preset::Lenient)
}

#[test]
fn answer_section_and_closing_tokens() {
    let m = Method::FinalAnswerMarker;
    assert_eq!(
        ans("【解析】… 所以 $x=0$。<eoe>\n【答案】: A <eoa>"),
        ("A".into(), m.clone())
    );
    assert_eq!(
        ans("【解析】…\n【答案】14π<eoa>"),
        ("14\\pi".into(), m.clone())
    );
    assert_eq!(ans("【答案】分层抽样。"), ("分层抽样".into(), m.clone()));
    assert_eq!(
        ans("所以答案是 $12$</s><s>[INST] 下一题"),
        ("12".into(), m.clone())
    );
    assert_eq!(ans("故答案为：2．"), ("2".into(), m.clone()));
    assert_eq!(ans("故选：$ D $．"), ("D".into(), m.clone()));
    assert_eq!(ans("由上可知，故选 B"), ("B".into(), m.clone()));
    assert_eq!(
        ans("Hence, the correct option is $B$."),
        ("B".into(), m.clone())
    );
    // A verb of choosing without a letter after it is no marker.
    assert_ne!(ans("所以选择 2 个人，共 10 种").0, "A");
}

#[test]
fn equation_after_a_marker_is_the_answer() {
    let e = extract("【答案】切线方程为 $y=5x+2$", None).unwrap();
    assert_eq!(e.answer, "y=5x+2");
    assert!(equal("【答案】切线方程为 $y=5x+2$<eoa>", "5x-y+2=0").equivalent);
    assert!(!equal("【答案】切线方程为 $y=5x+3$<eoa>", "5x-y+2=0").equivalent);
    // A computation's result still follows its `=`.
    assert_eq!(ans("答案为：共有 $2+3=5$ 种").0, "5");
}

#[test]
fn truth_values_and_notation() {
    assert_eq!(ans("the answer is True: the function is convex").0, "True");
    // A statement that opens with the word is not the truth value.
    assert!(extract("The answer is: No real solution", None).is_none_or(|e| e.answer != "No"));
    assert!(equal("Therefore the answer is 1.28 x 10^-6 V/K.", "1.28e-6").equivalent);
    assert!(equal("The value of 6.5 kilograms in grams is 6500 grams.", "6500").equivalent);
    assert!(equal("【答案】1和3<eoa>", "1 和 3").equivalent);
}

// A gold that gives one of many accepted answers: its example matches, another value is not
// called different.
#[test]
fn gold_that_accepts_other_answers() {
    let gold = "2 (满足 $1<e \\leq \\sqrt{5}$ 皆可)";
    assert!(equal("【答案】2<eoa>", gold).equivalent);
    let v = equal("【答案】1.5<eoa>", gold);
    assert_eq!(v.outcome, Outcome::Undecided, "{}", v.reason);
    assert!(v.reason.contains("accepts other answers"), "{}", v.reason);
    // A remark that accepts nothing stays part of the gold's text.
    assert_eq!(one_of_many("3 (cm)"), ("3 (cm)", None));
}

// `[INST]` after the answer opens the next user turn; inside a thought it is quoted text.
#[test]
fn next_turn_after_the_answer_is_hidden() {
    assert_eq!(
        ans("The answer is 7.</s>[INST] Now solve 2+2 = 4 [/INST]").0,
        "7"
    );
    assert_eq!(
        ans("<think>the template uses [INST] tags; 3</think>\nThe answer is 5.").0,
        "5"
    );
}
