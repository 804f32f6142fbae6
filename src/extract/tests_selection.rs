//! Which text is the final answer: one test per selection rule found on Math-Verify's suite
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

// A statement that names itself the final answer, written after the last box, is the answer:
// the boxes were intermediate results. A plain "the answer is" after a box keeps the box.
#[test]
fn final_answer_statement_after_the_boxes() {
    let text = "The interest is $0.04 \\cdot 10,000 \\cdot \\frac{1}{2} = \\boxed{200}$, then \
                $0.05 \\cdot 10,200 \\cdot \\frac{1}{2} = \\boxed{255}$ So she has $10,455. \
                Final Answer: The final answer is $10,455$. I hope it is correct.";
    assert_eq!(ans(text), ("10455".into(), Method::FinalAnswerMarker));
    assert_eq!(
        ans("So $x = \\boxed{4}$. The answer is 5."),
        ("4".into(), Method::Boxed)
    );
    // The box inside the statement is the statement's own answer.
    assert_eq!(
        ans("Step: \\boxed{3}. Final Answer: $\\boxed{7}$"),
        ("7".into(), Method::Boxed)
    );
}

// A marker's capture that lists math values ("$12$ and $13$", quoted or not) is the list.
#[test]
fn marker_capture_listing_math_values_is_a_list() {
    assert_eq!(
        ans("Final Answer: The final answer is \"$12 $ and $13 $\". I hope it is correct."),
        ("12,13".into(), Method::FinalAnswerMarker)
    );
}

// A whole text that is one math span of `\text{…}` is a text answer on purpose; the same
// sentence as plain prose is still no answer.
#[test]
fn displayed_text_conclusion_is_a_text_answer() {
    let shown = "$$\\text{The midpoints form a regular hexagon}$$";
    let e = extract(shown, None).expect("a text answer");
    assert_eq!(e.method, Method::WholeText);
    assert_eq!(e.answer, "The midpoints form a regular hexagon");
    assert!(grade(shown, shown, None, Preset::Lenient).equivalent);
    assert!(
        !grade(
            shown,
            "$$\\text{They form a square}$$",
            None,
            Preset::Lenient
        )
        .equivalent
    );
    assert!(extract("The midpoints form a regular hexagon", None).is_none());
    // `\text{a} + \text{b}` is not one `\text{…}` group.
    assert!(extract("$\\text{one way} + \\text{another way}$", None).is_none());
}

// "Answer" opening a line right before a math span labels it, without a colon; the last side
// of an equation chain in it is the value (the comparison reads it so).
#[test]
fn answer_label_before_math() {
    let marker = Method::FinalAnswerMarker;
    assert_eq!(
        ans("Answer \\( (9+1) \\)"),
        ("(9+1)".into(), marker.clone())
    );
    assert!(grade("Answer \\( (9+1) \\)", "$10$", None, Preset::Lenient).equivalent);
    assert!(
        grade(
            "Answer $ \\frac{1}{2} \\$ = \\frac{10}{9} $",
            "$10/9$",
            None,
            Preset::Lenient
        )
        .equivalent
    );
    assert_eq!(ans("Work.\n**Answer** $12$"), ("12".into(), marker));
    // Mid-sentence it is no label.
    assert_ne!(
        ans("The answer $x$ we found is wrong; it is 7").1,
        Method::FinalAnswerMarker
    );
}

// A paragraph written as one line concludes in its last sentence ("Therefore, there are 12
// …"), not at its last `=`; a closing remark after it ("I hope it is correct.") is skipped,
// and a stop just inside closing math (`2.$$ Therefore`) ends a sentence too.
#[test]
fn concluding_sentence_of_a_paragraph_line() {
    let text = "So there is an integer $n$ with $1+nd = 91$. Solving, $d = \\frac{90}{n}$. \
                The divisors of 90 are 1, 2, 3, 5, 6, 9, 10, 15, 18, 30, 45, and 90. \
                Therefore, there are 12 distinct sequences. I hope it is correct.";
    assert_eq!(ans(text), ("12".into(), Method::MainClause));
    let text = "Dividing, we get: $$\\frac{x'}{x} \\geq \\frac{2}{1}.$$ Therefore, the error \
                increases by 100%.";
    assert_eq!(ans(text).0, "100");
    assert!(grade(text, "$100%$", None, Preset::Lenient).equivalent);
    // A last sentence that does not open a conclusion keeps the final equation.
    assert_eq!(
        ans("He drinks 24 - 18 = 6 sodas. It takes Jerry 3 weeks."),
        ("6".into(), Method::FinalEquation)
    );
    // A concluding sentence with its own equation is the final equation's business.
    assert_eq!(
        ans("We have 2 + 3 = 5 apples. So 5 + 1 = 6 in all."),
        ("6".into(), Method::FinalEquation)
    );
}

// A last sentence cut off inside its math concludes nothing: the final equation before it
// stays the answer.
#[test]
fn a_concluding_sentence_cut_off_inside_math_is_not_read() {
    let text = "Using the distance formula, $d = \\sqrt{25} = 5$. Therefore the distance is 5, \
                and the midpoint is $\\left(\\frac{5}{2}, ";
    assert_eq!(ans(text), ("5".into(), Method::FinalEquation));
}

// "which is N" right after the stated value, ending there (a unit at most), restates it in its
// final form; "which is 2 more than …" goes on and is a comparison.
#[test]
fn which_is_restates_the_value() {
    assert_eq!(
        ans("so the number is 10 which is 1,000.99m²"),
        ("1000.99".into(), Method::MainClause)
    );
    assert_eq!(ans("She waited half an hour, which is 30 minutes.").0, "30");
    assert_eq!(
        ans("He has 12 apples, which is 2 more than Tom has.").0,
        "12"
    );
    assert_eq!(ans("He has 12 apples, which is about 3 dozen.").0, "12");
    // The doubt stays: the line states another value.
    assert!(
        extract("the number is not 10 which is 1,000.99€", None)
            .expect("an answer")
            .low_confidence
    );
}

// A price written with a decimal comma (`2,74 $`, `1000,99€`) is one number; other `a,bc`
// stay two (a pair, a list, math).
#[test]
fn decimal_comma_prices() {
    assert_eq!(ans("Soucis : 2,74 $ a..").0, "2,74");
    assert!(grade("Soucis : 2,74 $ a..", "2.74", None, Preset::Lenient).equivalent);
    assert!(grade("Le total est 1000,99€", "1000.99", None, Preset::Lenient).equivalent);
    assert_eq!(ans("The rows are 6,12 and the total is 18 apples").0, "18");
    assert_eq!(ans("So the pair is 1,22").0, "22");
    // `$1,10$` closes math after the digits: a list, not a price.
    assert_ne!(ans("The values are $1,10$ here").0, "1,10");
}

// A number that names a part of the work ("subproblem 1", "step 3") is a label, not a value:
// the guessing rules read past it (a multi-part answer ended "In subproblem 1, I solved for
// \(w\)." was read as 1).
#[test]
fn a_part_label_is_not_a_value() {
    let text = "For subproblem 1, the particular solution is:\n\n\\[x_p = \\frac{1}{3} e^{t}\\]\n\n\
                In subproblem 1, I solved for \\(w\\). That seems right.\n\nI think it is accurate.";
    assert_ne!(ans(text).0, "1");
    let g = grade(text, "e^{t}/3", None, Preset::Lenient);
    assert!(g.equivalent, "{:?} {:?}", ans(text), g.reason);
    // A line whose only number is a label states no value: the number before it is read.
    assert_eq!(ans("There were 7 cats.\nSee step 2").0, "7");
    assert_eq!(ans("Case 2 gives 9 ways.").0, "9");
    // The same words before a value that is not a label keep it: the number goes on into its
    // clause ("case 5 apples"), or the word follows it.
    assert_eq!(ans("In that case 5 apples remain").0, "5");
    assert_eq!(ans("She ate 3 parts of it").0, "3");
}

// LaTeX's display math `\[…\]` is a math span like `$$…$$`: its value is the whole right-hand
// side, not a number inside it.
#[test]
fn display_math_is_one_value() {
    assert_eq!(
        ans("We get:\n\\[x = -\\frac{9}{4}\\]"),
        ("-\\frac{9}{4}".into(), Method::FinalEquation)
    );
}

// A long chain of thought that ends with its result in a display, checks of it in prose, and
// a remark naming it again: the display is the answer, not a number of the checks ("… as r
// grows, ω(r) approaches 0").
#[test]
fn a_display_the_closing_remark_names_is_the_answer() {
    let concluded = "Combining the fractions, that is simpler. So, the expression for ω(r) is:\n\n\
                     \\[ \\omega(r) = \\frac{v_0}{r_0 (1 + r/r_0)^{3/2}} \\]\n\n\
                     The units are 1/time. As r grows, ω(r) approaches 0, which is reasonable.\n\n\
                     I think this is the expression for ω(r).";
    let (answer, method) = ans(concluded);
    assert_eq!(method, Method::ConcludingDisplay, "{answer}");
    let g = grade(
        concluded,
        "\\frac{v_0}{r_0}(1+r/r_0)^{-3/2}",
        None,
        Preset::Lenient,
    );
    assert!(g.equivalent, "{:?}", g.reason);
    // `$$…$$` too, and a display with no number at all.
    let no_digit = "Therefore, the differential equation would be:\n$$\\frac{dx}{dt} = kx - a$$\n\
                    Let me check the units: both sides are oryxes per year.\n\
                    I have arrived at the correct differential equation.";
    assert_eq!(
        ans(no_digit),
        ("\\frac{dx}{dt}=kx-a".into(), Method::ConcludingDisplay)
    );

    // Each condition, taken away, leaves the guesses (each text below differs in one place).
    let not_this = |text: &str| {
        let found = extract(text, None).map(|e| e.method);
        assert_ne!(found, Some(Method::ConcludingDisplay), "{text}");
    };
    // The closing remark does not name the subject.
    not_this(&concluded.replace("this is the expression for ω(r)", "that is all"));
    // Something after the display computes anew.
    not_this(&concluded.replace("approaches 0,", "approaches 0 = v_0 - v_0,"));
    // The introduction is not a conclusion ("So", "Thus", "Therefore", "Hence"…).
    not_this(&concluded.replace("So, the expression", "Now the expression"));
    // The introduction does not say what the display is ("… is:").
    not_this(&concluded.replace("for ω(r) is:", "for ω(r) follows:"));
    // The last line states a value: it is no closing remark.
    not_this(&concluded.replace("I think this is", "So 2 is"));
    // A later display is the one read (it is not introduced as the conclusion: no answer
    // from this rule).
    not_this(&concluded.replace("The units are", "\\[ \\omega(0) \\]\n\nThe units are"));
    // An answer the text states wins.
    let boxed = concluded.replace("I think this", "The answer is \\boxed{7}. I think this");
    assert_eq!(ans(&boxed), ("7".into(), Method::Boxed));
}
