//! Whether a derivation the fact check offers for an unsupported number is one the rules can
//! recompute (docs/audit.md, "Deterministic findings"). A model may not talk a finding away: the
//! explanation must name context numbers from which one arithmetic step gives the number, with
//! operands of the same kind and unit (a year only with a number of years, never a percentage
//! added to a count, never money with anything else), and the result within the number's stated
//! precision: the number check's own policy (`grounding::plausible_derivation`,
//! `grounding::precision`), so it lives once. Otherwise the finding stays counted and the report
//! says why.

use super::grounding::{
    plausible_derivation, precision, same, scan, year_like, Num, Operation, Vouch,
};

/// How many numbers of an explanation are tried as operands (a derivation names a few; a reply
/// listing thousands is not one).
const MAX_OPERANDS: usize = 12;
/// How many places of the context one named value is read at (the same value may be written
/// with different units: "30 students", "30 %").
const MAX_PLACES: usize = 4;

/// The recomputed step (`1470 / 4200 = 0.35`) when `explanation` derives `number` (the
/// output's text of it) from numbers of `context`; otherwise why not. What a step may combine
/// (kinds, units, years) and how close its result must be are the number check's own rules
/// (`grounding::plausible_derivation` with [`Vouch::Named`], `grounding::precision`): one
/// policy for every derivation.
pub fn recompute(number: &str, explanation: &str, context: &str) -> Result<String, String> {
    let Some(target) = scan(number).into_iter().next() else {
        return Err("the number could not be read".into());
    };
    let ctx = scan(context);
    // The operands are read where the context writes them (its kind and unit), not as the
    // explanation describes them.
    let mut named: Vec<&Num> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    for n in scan(explanation) {
        if names.len() >= MAX_OPERANDS {
            break;
        }
        let places = ctx
            .iter()
            .filter(|c| {
                (c.kind == n.kind || (year_like(c) && year_like(&n))) && same(c.value, n.value)
            })
            .take(MAX_PLACES);
        let before = named.len();
        for c in places {
            if !named.iter().any(|x| std::ptr::eq(*x, c)) {
                named.push(c);
            }
        }
        if named.len() > before {
            names.push(n.text);
        }
    }
    if named.is_empty() {
        return Err("it names no number of the context".into());
    }
    let tolerance = precision(&target);
    for (i, a) in named.iter().enumerate() {
        for (j, b) in named.iter().enumerate() {
            if i != j {
                if let Some(step) = one_step(a, b, &target, tolerance) {
                    return Ok(step);
                }
            }
        }
    }
    Err(format!(
        "no single step (sum, difference, product, ratio, percent change) of the context numbers \
it names ({}) gives {} within its stated precision with operands of the same kind and unit \
(a year only with a number of years)",
        names.join(", "),
        target.text
    ))
}

/// One arithmetic step from `a` and `b` that gives `target`, in words.
fn one_step(a: &Num, b: &Num, target: &Num, tolerance: f64) -> Option<String> {
    let close = |v: f64| v.is_finite() && (v - target.value).abs() <= tolerance;
    let allowed = |op| plausible_derivation(op, a, b, target, Vouch::Named);
    let (x, y) = (a.value, b.value);
    let (at, bt, tt) = (a.text, b.text, target.text);
    if close(x + y) && allowed(Operation::Sum) {
        return Some(format!("{at} + {bt} = {tt}"));
    }
    if close(x - y) && allowed(Operation::Difference) {
        return Some(format!("{at} − {bt} = {tt}"));
    }
    if y != 0.0 && close(x / y) && allowed(Operation::Ratio) {
        return Some(format!("{at} / {bt} = {tt}"));
    }
    if x != 0.0 && (close((y - x) / x) || close((x - y) / x)) && allowed(Operation::PercentChange) {
        return Some(format!("the change from {at} to {bt} is {tt}"));
    }
    if close(x * y) && allowed(Operation::Product) {
        return Some(format!("{at} × {bt} = {tt}"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_the_rules_recompute_is_accepted() {
        let ctx = "今年招生4200人，录取1470人，分30个班。";
        assert!(recompute("35%", "录取1470人 / 招生4200人 = 0.35", ctx).is_ok());
        assert!(recompute("49", "录取1470人分30个班: 1470 / 30 = 49", ctx).is_ok());
        let ctx = "Sales rose from 3900 units to 4200 units.";
        assert!(recompute("7.7%", "(4200 - 3900) / 3900 = 7.7%", ctx).is_ok());
        assert!(recompute("126000", "4200 × 30 = 126000", "4200人，30个班").is_ok());
    }

    /// A derivation that only names a context number (the year, here) never explains a
    /// fabricated amount, whoever wrote it.
    #[test]
    fn naming_a_context_number_is_not_a_derivation() {
        let ctx = "In 2023 the company hired 120 engineers.";
        for explanation in [
            "plausibly derived from 2023 in the context",
            "derived from 120 engineers",
            "120 + 2023 = 2143",
        ] {
            let why = recompute("5 million", explanation, ctx).unwrap_err();
            assert!(!why.is_empty(), "{explanation}");
        }
        // A year is never an operand, and a date is never a result.
        assert!(recompute("2143", "120 + 2023 = 2143", ctx).is_err());
        assert!(recompute("2016", "11 + 2005 = 2016", "Founded in 2005, 11 teams").is_err());
        // A wrong sum is not accepted, nor one outside the stated precision.
        let ctx = "15 men and 17 women took part.";
        assert!(recompute("32", "15 + 17 = 32", ctx).is_ok());
        assert!(recompute("33", "15 + 17 = 33", ctx).is_err());
    }

    /// The policy is the number check's own (`grounding::plausible_derivation`): what it
    /// refuses for chance it refuses when named, and the named step only drops the
    /// "stated together" condition.
    #[test]
    fn a_named_step_follows_the_number_checks_policy() {
        // Percentages never divide into money, money never adds to a count.
        let ctx = "去年营收增长3%，存款利率0.12%，股价240元。";
        assert!(recompute("25元", "3% / 0.12% = 25", ctx).is_err());
        let ctx = "The firm had $120 in cash and 5 staff.";
        assert!(recompute("125", "$120 + 5 staff = 125", ctx).is_err());
        // A year and a number of years give a year, as in the number check.
        assert!(recompute("1865年", "2015 − 150 = 1865", "2015年是他诞辰150周年。").is_ok());
        // Operands far apart: the rules' search does not pair them, a named step may.
        let ctx = "The club had 15 members in May. It met twice. The hall was rented. \
                   A second club had 17 members.";
        let g = super::super::grounding::ground_numbers(ctx, "They had 32 members.");
        assert_eq!(g.not_found().count(), 1, "{g:?}");
        assert!(recompute("32", "15 + 17 = 32", ctx).is_ok());
        // The precision is the number check's: strictly inside half a unit.
        let ctx = "The cut-off was 565.5 points and she scored 598 points.";
        assert!(recompute("32", "598 − 565.5 = 32", ctx).is_err());
        assert!(recompute("32.5", "598 − 565.5 = 32.5", ctx).is_ok());
    }
}
