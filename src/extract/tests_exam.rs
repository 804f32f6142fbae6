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

/// A gold listing equal forms of its answer with `\# \#` (GAOKAO-Bench's `$\frac{3}{10} \# \#
/// 0.3$`) accepts each form; an answer matching none stays different, and the same separator in
/// an output gives it no second chance (only the gold's list counts).
#[test]
fn gold_alternatives_after_double_hash() {
    for preset in [Preset::Strict, Preset::Lenient] {
        for out in [
            "【答案】3/10<eoa>",
            "【答案】0.3<eoa>",
            "【答案】$\\frac{3}{10}$",
        ] {
            let v = grade(out, "$\\frac{3}{10} \\# \\# 0.3$", None, preset);
            assert!(v.equivalent, "{preset:?} {out}: {}", v.reason);
        }
        let v = grade(
            "【答案】0.4<eoa>",
            "$\\frac{3}{10} \\# \\# 0.3$",
            None,
            preset,
        );
        assert_eq!(v.outcome, Outcome::Different, "{}", v.reason);
        let v = grade("【答案】$0.4 \\# \\# 0.3$", "0.3", None, preset);
        assert!(!v.equivalent, "{}", v.reason);
    }
    assert_eq!(
        gold_alternatives("$-\\frac{3}{4} \\# \\#-0.75$").map(|v| v.len()),
        Some(2)
    );
    assert_eq!(gold_alternatives("3"), None);
}

/// "The option is" with the letter in font commands, and one bracketed letter followed by its
/// option's text, commit to that letter.
#[test]
fn option_is_and_bracketed_letter_with_text() {
    let q = Some("1. 求值 ( )\nA. $1$\nB. $2$\nC. $3$\nD. $4$\n");
    let out = "所以 $x=\\frac{1+2\\sqrt{5}}{5}$\n因此，选项为 $\\mathrm{\\mathbf{(B)}}$。";
    assert!(ans(out).0.contains('B'), "{:?}", ans(out));
    assert!(grade_choices(out, "B", q, Preset::Strict, &AnswerPatterns::NONE).equivalent);
    assert!(!grade_choices(out, "C", q, Preset::Strict, &AnswerPatterns::NONE).equivalent);
    assert_eq!(
        choice::letter_set("(D)\\frac{1}{\\cos 50^{\\circ}}"),
        Some(std::collections::BTreeSet::from(['D']))
    );
    assert_eq!(
        choice::letter_set("（B）42"),
        Some(std::collections::BTreeSet::from(['B']))
    );
    // `选项 A 中` discusses an option: no marker.
    assert_eq!(ans("选项 A 中的值为 5，所以答案是 7").0, "7");
}

#[test]
fn only_an_escaped_double_hash_lists_gold_forms() {
    // GAOKAO-Bench writes equal forms of one gold as `\# \#`; GSM8K's `####` is its marker.
    assert_eq!(
        super::gold_alternatives("$\\frac{3}{10} \\# \\# 0.3$").map(|f| f.len()),
        Some(2)
    );
    assert_eq!(super::gold_alternatives("The answer is #### 42"), None);
    assert_eq!(super::gold_alternatives("#### 1,000"), None);
}
