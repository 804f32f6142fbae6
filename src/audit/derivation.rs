//! Whether a derivation the fact check offers for an unsupported number is one the rules can
//! recompute (docs/audit.md, "Deterministic findings"). A model may not talk a finding away: the
//! explanation must name context numbers from which one arithmetic step gives the number, with
//! operands of the same kind (never a year or a date in arithmetic, never a percentage added to
//! a count), and the result within the number's stated precision. Otherwise the finding stays
//! counted and the report says why.

use super::grounding::{same, scan, Num, NumberKind};

/// How many numbers of an explanation are tried as operands (a derivation names a few; a reply
/// listing thousands is not one).
const MAX_OPERANDS: usize = 12;

/// The recomputed step (`1470 / 4200 = 0.35`) when `explanation` derives `number` (the
/// output's text of it) from numbers of `context`; otherwise why not.
pub fn recompute(number: &str, explanation: &str, context: &str) -> Result<String, String> {
    let Some(target) = scan(number).into_iter().next() else {
        return Err("the number could not be read".into());
    };
    if year_like(&target) {
        return Err("a date or year is never derived by arithmetic".into());
    }
    let ctx = scan(context);
    let in_context = |n: &Num| {
        ctx.iter()
            .any(|c| c.kind == n.kind && same(c.value, n.value))
    };
    let named: Vec<Num> = scan(explanation)
        .into_iter()
        .filter(|n| !year_like(n) && in_context(n))
        .take(MAX_OPERANDS)
        .collect();
    if named.is_empty() {
        return Err("it names no number of the context (a date or year does not count)".into());
    }
    // Half a unit of the number's last written digit, and a little for the operands' rounding.
    let tolerance = target.half_step.max(1e-9 * target.value.abs());
    for (i, a) in named.iter().enumerate() {
        for b in named.iter().skip(i + 1).chain(named.iter().take(i)) {
            if let Some(step) = one_step(a, b, &target, tolerance) {
                return Ok(step);
            }
        }
    }
    Err(format!(
        "no single step (sum, difference, product, ratio, percent change) of the context numbers \
it names ({}) gives {} within its stated precision with operands of the same kind",
        named.iter().map(|n| n.text).collect::<Vec<_>>().join(", "),
        target.text
    ))
}

/// A date, or a bare four-digit whole number a year could be (`2023`): never an operand or a
/// result of arithmetic here (adding a year to a count explains nothing).
fn year_like(n: &Num) -> bool {
    n.kind == NumberKind::Date
        || (n.kind == NumberKind::Number
            && n.text.trim().len() == 4
            && n.text.trim().bytes().all(|b| b.is_ascii_digit())
            && (1800.0..=2100.0).contains(&n.value))
}

/// One arithmetic step from `a` and `b` that gives `target`, in words.
fn one_step(a: &Num, b: &Num, target: &Num, tolerance: f64) -> Option<String> {
    use NumberKind::{Number, Percent, Quantity};
    let amount = |k: NumberKind| matches!(k, Number | Quantity);
    let close = |v: f64| v.is_finite() && (v - target.value).abs() <= tolerance;
    let (x, y) = (a.value, b.value);
    // A sum or a difference of two amounts is an amount; of two percentages, a percentage.
    let additive = (amount(a.kind) && amount(b.kind) && amount(target.kind))
        || (a.kind == Percent && b.kind == Percent && target.kind == Percent);
    if additive {
        if close(x + y) {
            return Some(format!("{} + {} = {}", a.text, b.text, target.text));
        }
        if close(x - y) {
            return Some(format!("{} − {} = {}", a.text, b.text, target.text));
        }
    }
    // A ratio of two amounts is an amount (per unit) or a percentage.
    if amount(a.kind) && amount(b.kind) && y != 0.0 && close(x / y) {
        return Some(format!("{} / {} = {}", a.text, b.text, target.text));
    }
    // A percentage of an amount is an amount.
    if a.kind == Percent && amount(b.kind) && amount(target.kind) && close(x * y) {
        return Some(format!("{} × {} = {}", a.text, b.text, target.text));
    }
    // The percent change between two amounts.
    if amount(a.kind)
        && amount(b.kind)
        && target.kind == Percent
        && x != 0.0
        && (close((y - x) / x) || close((x - y) / x))
    {
        return Some(format!(
            "the change from {} to {} is {}",
            a.text, b.text, target.text
        ));
    }
    // A product of two amounts.
    if amount(a.kind) && amount(b.kind) && amount(target.kind) && close(x * y) {
        return Some(format!("{} × {} = {}", a.text, b.text, target.text));
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
}
