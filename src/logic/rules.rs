//! Rule checking: one proposed step (rule, cited premises, conclusion) against the catalogue in
//! `rules.json` (forall x: Calgary natural deduction, CC BY 4.0, see `RULES_LICENSE.md`).
//!
//! Formulas are compared up to bound-variable renaming, never up to logical equivalence.

use super::arith::{self, ArithError, Constraint, Rat};
use super::formula::{mentions, term_alpha_eq, term_names, Env, Formula, Quantifier, RelOp, Term};

/// One cited premise, in the order of the rule's citation slots.
#[derive(Clone, Copy, Debug)]
pub struct Premise<'a> {
    pub id: &'a str,
    pub formula: &'a Formula,
    /// True when the cited id is an assumption (`A-k`), needed for subproof slots.
    pub is_assumption: bool,
}

/// What the checker needs to know about the world beyond the cited premises.
#[derive(Clone, Copy, Debug)]
pub struct CheckContext<'a> {
    pub hypotheses: &'a [Formula],
    /// Formulas of the open assumptions the cited premises depend on (for ∀I / ∃E freshness).
    /// May include the assumptions this step discharges; the checker ignores those.
    pub open_assumptions: &'a [Formula],
}

crate::names::named_enum! {
    /// Why a step was refused, in the refute vocabulary. Written and read as its `as_str` name.
    pub enum RejectCode {
        InvalidDerivation = "invalid_derivation",
        MissingPremise = "missing_premise",
        Circular = "circular",
        Unauthorized = "unauthorized",
        Malformed = "malformed",
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    pub code: RejectCode,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Accepted {
    /// Assumption ids removed from the dependency set.
    pub discharged: Vec<String>,
}

// ---------------------------------------------------------------- the rule table

/// How many citations a rule takes (after `extend` has put its base conclusion first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arity {
    pub min: usize,
    /// `None`: any number.
    pub max: Option<usize>,
}

impl Arity {
    pub fn allows(self, n: usize) -> bool {
        n >= self.min && self.max.is_none_or(|max| n <= max)
    }

    /// "2", "0 to 1", "any number of"; for messages and help.
    pub fn describe(self) -> String {
        match self.max {
            Some(max) if max == self.min => max.to_string(),
            Some(max) => format!("{} to {max}", self.min),
            None if self.min == 0 => "any number of".to_string(),
            None => format!("at least {}", self.min),
        }
    }
}

/// How a rule's check is run.
#[derive(Clone, Copy)]
enum Check {
    /// Plain premises, cited in any order: the check sees one choice of `arity.min` of them.
    Plain(PlainCheck),
    /// Fixed citation slots (the data README's order); the `discharges` slots must cite
    /// assumptions, and those are discharged when the check passes.
    Slots(SlotCheck),
    /// Rules that handle their citations themselves (optional premises, certificates).
    Own(OwnCheck),
}

/// What a plain rule checks: the chosen premises, the conclusion and the context.
type PlainCheck = fn(&[&Formula], &Formula, &CheckContext) -> Result<(), String>;
/// What a subproof rule checks, given its slots (already counted and typed).
type SlotCheck = fn(&[Premise], &Formula, &CheckContext) -> Result<(), String>;
type OwnCheck = fn(&Step) -> Result<Accepted, Rejection>;

/// One rule: the single source of its names, citation count, subproof slots, the help text
/// that forms and docs show (`docs/logic-rules.md`'s rule table is checked against it), and
/// its check. The engine's arity check reads the same entry.
#[derive(Clone, Copy)]
pub struct RuleSpec {
    pub id: &'static str,
    pub aliases: &'static [&'static str],
    pub arity: Arity,
    /// Citation slots (0-based) that open a subproof; their assumptions are discharged.
    pub discharges: &'static [usize],
    /// Premises ⊢ conclusion and side conditions, as people read them.
    pub help: &'static str,
    check: Check,
}

impl std::fmt::Debug for RuleSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.debug_struct("RuleSpec")
            .field("id", &self.id)
            .field("aliases", &self.aliases)
            .field("arity", &self.arity)
            .field("discharges", &self.discharges)
            .finish()
    }
}

/// The catalogue entry type under its older name.
pub type RuleInfo = RuleSpec;

/// The rules of `rules.json`, in its order. Written out rather than read from the file at run
/// time so that the wasm carries neither the JSON text nor a decoder for it; the test
/// `catalogue_matches_rules_json` keeps ids and aliases in step with the file.
const CATALOGUE: &[RuleSpec] = &[
    RuleSpec {
        id: "reit",
        aliases: &[],
        arity: Arity { min: 1, max: Some(1) },
        discharges: &[],
        help: "conclusion = premise",
        check: Check::Plain(|p, c, _| if same(p[0], c) { Ok(()) } else { Err("R repeats its premise unchanged".into()) }),
    },
    RuleSpec {
        id: "and_intro",
        aliases: &[],
        arity: Arity { min: 2, max: Some(2) },
        discharges: &[],
        help: "`A, B ⊢ A ∧ B` (same line twice gives `A ∧ A`)",
        check: Check::Plain(and_intro),
    },
    RuleSpec {
        id: "and_elim",
        aliases: &[],
        arity: Arity { min: 1, max: Some(1) },
        discharges: &[],
        help: "`A ∧ B ⊢ A` or `B`",
        check: Check::Plain(and_elim),
    },
    RuleSpec {
        id: "or_intro",
        aliases: &[],
        arity: Arity { min: 1, max: Some(1) },
        discharges: &[],
        help: "`A ⊢ A ∨ B` or `B ∨ A`",
        check: Check::Plain(or_intro),
    },
    RuleSpec {
        id: "or_elim",
        aliases: &[],
        arity: Arity { min: 5, max: Some(5) },
        discharges: &[1, 3],
        help: "`[A ∨ B, A-i: A, C-j: C, A-k: B, C-l: C] ⊢ C`, discharges A-i, A-k",
        check: Check::Slots(or_elim),
    },
    RuleSpec {
        id: "imp_intro",
        aliases: &[],
        arity: Arity { min: 2, max: Some(2) },
        discharges: &[0],
        help: "`[A-k: A, C-m: B] ⊢ A → B`, discharges A-k",
        check: Check::Slots(imp_intro),
    },
    RuleSpec {
        id: "imp_elim",
        aliases: &["modus_ponens", "mp"],
        arity: Arity { min: 2, max: Some(2) },
        discharges: &[],
        help: "`A → B, A ⊢ B`; also `∀x̄ (A(x̄) → B(x̄)), A(t̄) ⊢ B(t̄)` (∀E and →E in one step, as in the bundled `a + b > 0` example, proof-seed-a-plus-b)",
        check: Check::Own(imp_elim),
    },
    RuleSpec {
        id: "not_elim",
        aliases: &[],
        arity: Arity { min: 2, max: Some(2) },
        discharges: &[],
        help: "`A, ¬A ⊢ ⊥`",
        check: Check::Plain(not_elim),
    },
    RuleSpec {
        id: "not_intro",
        aliases: &[],
        arity: Arity { min: 2, max: Some(2) },
        discharges: &[0],
        help: "`[A-k: A, C-m: ⊥] ⊢ ¬A`",
        check: Check::Slots(not_intro),
    },
    RuleSpec {
        id: "explosion",
        aliases: &[],
        arity: Arity { min: 1, max: Some(1) },
        discharges: &[],
        help: "`⊥ ⊢ B`",
        check: Check::Plain(explosion),
    },
    RuleSpec {
        id: "ip",
        aliases: &[],
        arity: Arity { min: 2, max: Some(2) },
        discharges: &[0],
        help: "`[A-k: ¬A, C-m: ⊥] ⊢ A`",
        check: Check::Slots(ip),
    },
    RuleSpec {
        id: "iff_intro",
        aliases: &[],
        arity: Arity { min: 4, max: Some(4) },
        discharges: &[0, 2],
        help: "`[A-i: A, C-j: B, A-k: B, C-l: A] ⊢ A ↔ B`",
        check: Check::Slots(iff_intro),
    },
    RuleSpec {
        id: "iff_elim",
        aliases: &[],
        arity: Arity { min: 2, max: Some(2) },
        discharges: &[],
        help: "`A ↔ B, A ⊢ B` and `A ↔ B, B ⊢ A`",
        check: Check::Plain(iff_elim),
    },
    RuleSpec {
        id: "forall_elim",
        aliases: &[],
        arity: Arity { min: 1, max: Some(1) },
        discharges: &[],
        help: "`∀x A(x) ⊢ A(t)`: every free `x` replaced by the same term, no capture",
        check: Check::Plain(|p, c, _| forall_elim(p[0], c)),
    },
    RuleSpec {
        id: "forall_intro",
        aliases: &[],
        arity: Arity { min: 1, max: Some(1) },
        discharges: &[],
        help: "`A(c) ⊢ ∀x A(x)`: every `c` replaced, `c` in no hypothesis and no open assumption the premise depends on, `x` free at those positions",
        check: Check::Plain(|p, c, ctx| forall_intro(p[0], c, ctx)),
    },
    RuleSpec {
        id: "exists_intro",
        aliases: &[],
        arity: Arity { min: 1, max: Some(1) },
        discharges: &[],
        help: "`A(t) ⊢ ∃x A(x)`: some occurrences of `t` replaced, no capture",
        check: Check::Plain(|p, c, _| exists_intro(p[0], c)),
    },
    RuleSpec {
        id: "exists_elim",
        aliases: &[],
        arity: Arity { min: 3, max: Some(3) },
        discharges: &[1],
        help: "`[∃x A(x), A-k: A(c), C-m: B] ⊢ B`: `c` a name not in `∃x A(x)`, not in `B`, no hypothesis, no other open assumption",
        check: Check::Slots(exists_elim),
    },
    RuleSpec {
        id: "eq_intro",
        aliases: &[],
        arity: Arity { min: 0, max: Some(0) },
        discharges: &[],
        help: "`⊢ t = t`",
        check: Check::Own(eq_intro),
    },
    RuleSpec {
        id: "eq_elim",
        aliases: &[],
        arity: Arity { min: 2, max: Some(2) },
        discharges: &[],
        help: "`a = b, A ⊢ A'` where `A'` is `A` with some occurrences of `a` replaced by `b` or of `b` by `a` (only where they are free)",
        check: Check::Plain(|p, c, _| eq_elim(p[0], p[1], c)),
    },
    RuleSpec {
        id: "ds",
        aliases: &[],
        arity: Arity { min: 2, max: Some(2) },
        discharges: &[],
        help: "`A ∨ B, ¬A ⊢ B`; `A ∨ B, ¬B ⊢ A`",
        check: Check::Plain(ds),
    },
    RuleSpec {
        id: "mt",
        aliases: &[],
        arity: Arity { min: 2, max: Some(2) },
        discharges: &[],
        help: "`A → B, ¬B ⊢ ¬A`",
        check: Check::Plain(mt),
    },
    RuleSpec {
        id: "dne",
        aliases: &[],
        arity: Arity { min: 1, max: Some(1) },
        discharges: &[],
        help: "`¬¬A ⊢ A`",
        check: Check::Plain(dne),
    },
    RuleSpec {
        id: "lem",
        aliases: &[],
        arity: Arity { min: 4, max: Some(4) },
        discharges: &[0, 2],
        help: "`[A-i: A, C-j: B, A-k: ¬A, C-l: B] ⊢ B` (the two assumptions in either order)",
        check: Check::Slots(lem),
    },
    RuleSpec {
        id: "dem",
        aliases: &[],
        arity: Arity { min: 1, max: Some(1) },
        discharges: &[],
        help: "`¬(A ∨ B) ⊣⊢ ¬A ∧ ¬B`, `¬(A ∧ B) ⊣⊢ ¬A ∨ ¬B`",
        check: Check::Plain(dem),
    },
    RuleSpec {
        id: "hs",
        aliases: &[],
        arity: Arity { min: 2, max: Some(2) },
        discharges: &[],
        help: "`A → B, B → C ⊢ A → C`",
        check: Check::Plain(hs),
    },
    RuleSpec {
        id: "cq",
        aliases: &[],
        arity: Arity { min: 1, max: Some(1) },
        discharges: &[],
        help: "`¬∀x A ⊣⊢ ∃x ¬A`, `¬∃x A ⊣⊢ ∀x ¬A`",
        check: Check::Plain(cq),
    },
    RuleSpec {
        id: "algebra",
        aliases: &[],
        arity: Arity { min: 0, max: Some(1) },
        discharges: &[],
        help: "`⊢ L ⋈ R` an identity, or `L ⋈ R ⊢ L' ⋈ R'` with `L' − R' = k·(L − R)`, `k > 0` for inequalities (see Arithmetic)",
        check: Check::Own(algebra_rule),
    },
    RuleSpec {
        id: "linarith",
        aliases: &[],
        arity: Arity { min: 0, max: None },
        discharges: &[],
        help: "comparisons `⊢` a comparison or `⊥` by linear arithmetic over the rationals; optional `params.certificate` (see Arithmetic)",
        check: Check::Own(linarith_rule),
    },
];

/// The rule catalogue.
pub fn catalogue() -> &'static [RuleSpec] {
    CATALOGUE
}

/// The table entry for a rule id or alias (`modus_ponens` → `imp_elim`'s entry).
pub fn rule_spec(rule: &str) -> Option<&'static RuleSpec> {
    let rule = rule.trim();
    // The bundled example (docs/logic.md) names its rules in words.
    let rule = match rule {
        "conjunction" => "and_intro",
        "algebraic" => "algebra",
        other => other,
    };
    CATALOGUE
        .iter()
        .find(|r| r.id == rule || r.aliases.contains(&rule))
}

/// What a form or a doc shows about a rule: its entry in the table.
pub fn rule_help(rule: &str) -> Option<&'static RuleSpec> {
    rule_spec(rule)
}

/// The catalogue id for a rule id or alias (`modus_ponens` → `imp_elim`).
pub fn rule_id(rule: &str) -> Option<&'static str> {
    rule_spec(rule).map(|r| r.id)
}

/// True for rule ids and their aliases (`modus_ponens`, `mp` → `imp_elim`).
pub fn known_rule(rule: &str) -> bool {
    rule_spec(rule).is_some()
}

// ---------------------------------------------------------------- entry point

fn reject(code: RejectCode, message: impl Into<String>) -> Rejection {
    Rejection {
        code,
        message: message.into(),
    }
}

fn invalid(message: impl Into<String>) -> Rejection {
    reject(RejectCode::InvalidDerivation, message)
}

fn same(a: &Formula, b: &Formula) -> bool {
    a.same_up_to_bound_renaming(b)
}

/// What a step asks of the checker beyond rule, premises and conclusion, read once from an
/// action's params (the engine builds it from its typed actions; no JSON reaches the checks).
#[derive(Clone, Copy, Debug, Default)]
pub struct StepOptions<'a> {
    /// An `extend` step: it may cite more premises than the rule needs, and `modus_ponens`
    /// with only the base cited may use an uncited hypothesis as the conditional.
    pub extend: bool,
    /// `linarith` multipliers as written (`"1/2"`, `"3"`).
    pub certificate: Option<&'a [String]>,
}

/// A linarith certificate read from JSON params: numbers become their decimal text.
pub fn certificate_of(params: &serde_json::Value) -> Result<Option<Vec<String>>, String> {
    let Some(cert) = params.get("certificate").filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let Some(items) = cert.as_array() else {
        return Err("linarith: params.certificate must be a list of multipliers".into());
    };
    items
        .iter()
        .map(|item| match item {
            serde_json::Value::String(s) => Ok(s.clone()),
            serde_json::Value::Number(n) => Ok(n.to_string()),
            _ => Err("linarith: each multiplier is a number or a string like \"1/2\"".into()),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Checks one step; premises follow the rule's citation slots. For `extend` pass the action's
/// params unchanged (they carry `baseConclusionId`) and the base conclusion as the first premise:
/// extra premises are then allowed, and modus ponens may use an uncited hypothesis.
///
/// The JSON edge of [`check_step_with`]: the params are read once into [`StepOptions`].
pub fn check_step(
    rule: &str,
    premises: &[Premise],
    conclusion: &Formula,
    params: &serde_json::Value,
    ctx: &CheckContext,
) -> Result<Accepted, Rejection> {
    let certificate = match certificate_of(params) {
        Ok(c) => c,
        // Only linarith reads a certificate; for it a malformed one is a wrong step.
        Err(message) if rule_id(rule) == Some("linarith") => return Err(invalid(message)),
        Err(_) => None,
    };
    let options = StepOptions {
        extend: params.get("baseConclusionId").is_some_and(|v| !v.is_null()),
        certificate: certificate.as_deref(),
    };
    check_step_with(rule, premises, conclusion, &options, ctx)
}

/// One step as the rule checks see it.
pub struct Step<'s, 'a> {
    spec: &'static RuleSpec,
    options: &'s StepOptions<'s>,
    premises: &'s [Premise<'a>],
    conclusion: &'s Formula,
    ctx: &'s CheckContext<'s>,
}

/// Checks one step against the rule table (see [`check_step`]).
pub fn check_step_with(
    rule: &str,
    premises: &[Premise],
    conclusion: &Formula,
    options: &StepOptions,
    ctx: &CheckContext,
) -> Result<Accepted, Rejection> {
    let Some(spec) = rule_spec(rule) else {
        return Err(reject(
            RejectCode::Malformed,
            format!("unknown rule '{rule}'"),
        ));
    };
    let step = Step {
        spec,
        options,
        premises,
        conclusion,
        ctx,
    };
    match spec.check {
        Check::Plain(check) => fixed(&step, check),
        Check::Slots(check) => {
            let s = slots(spec, premises)?;
            check(s, conclusion, ctx).map_err(invalid)?;
            discharged(s, spec.discharges)
        }
        Check::Own(check) => check(&step),
    }
}

// ---------------------------------------------------------------- the checks, one per rule

fn and_intro(p: &[&Formula], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match c {
        Formula::And(a, b) if same(a, p[0]) && same(b, p[1]) => Ok(()),
        Formula::And(..) => Err("∧I: the conjuncts must be the cited premises".into()),
        _ => Err("∧I concludes a conjunction".into()),
    }
}

fn and_elim(p: &[&Formula], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match p[0] {
        Formula::And(a, b) if same(a, c) || same(b, c) => Ok(()),
        Formula::And(..) => Err("∧E concludes one of the premise's two conjuncts".into()),
        _ => Err("∧E needs a conjunction as premise".into()),
    }
}

fn or_intro(p: &[&Formula], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match c {
        Formula::Or(a, b) if same(a, p[0]) || same(b, p[0]) => Ok(()),
        Formula::Or(..) => Err("∨I: one disjunct must be the premise".into()),
        _ => Err("∨I concludes a disjunction".into()),
    }
}

fn imp_elim(step: &Step) -> Result<Accepted, Rejection> {
    if step.options.extend && step.premises.len() == 1 {
        return extend_with_hypothesis(step.premises, step.conclusion, step.ctx);
    }
    fixed(step, |p, c, _| modus_ponens(p[0], p[1], c))
}

fn not_elim(p: &[&Formula], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match (p[1], c) {
        (Formula::Not(x), Formula::Bottom) if same(x, p[0]) => Ok(()),
        (_, Formula::Bottom) => Err("¬E needs a formula and its negation".into()),
        _ => Err("¬E concludes ⊥".into()),
    }
}

fn explosion(p: &[&Formula], _: &Formula, _: &CheckContext) -> Result<(), String> {
    if matches!(p[0], Formula::Bottom) {
        Ok(())
    } else {
        Err("X (ex falso) needs ⊥ as premise".into())
    }
}

fn iff_elim(p: &[&Formula], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match p[0] {
        Formula::Iff(a, b) if (same(a, p[1]) && same(b, c)) || (same(b, p[1]) && same(a, c)) => {
            Ok(())
        }
        Formula::Iff(..) => {
            Err("↔E: cite one side of the biconditional and conclude the other".into())
        }
        _ => Err("↔E needs a biconditional".into()),
    }
}

fn ds(p: &[&Formula], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match (p[0], p[1]) {
        (Formula::Or(a, b), Formula::Not(n))
            if (same(n, a) && same(b, c)) || (same(n, b) && same(a, c)) =>
        {
            Ok(())
        }
        _ => Err("DS: from A ∨ B and ¬A conclude B (or from ¬B conclude A)".into()),
    }
}

fn mt(p: &[&Formula], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match (p[0], p[1], c) {
        (Formula::Implies(a, b), Formula::Not(nb), Formula::Not(na))
            if same(b, nb) && same(a, na) =>
        {
            Ok(())
        }
        _ => Err("MT: from A → B and ¬B conclude ¬A".into()),
    }
}

fn dne(p: &[&Formula], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match p[0] {
        Formula::Not(inner) => match inner.as_ref() {
            Formula::Not(a) if same(a, c) => Ok(()),
            _ => Err("DNE: from ¬¬A conclude A".into()),
        },
        _ => Err("DNE: from ¬¬A conclude A".into()),
    }
}

fn hs(p: &[&Formula], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match (p[0], p[1], c) {
        (Formula::Implies(a, b), Formula::Implies(b2, c2), Formula::Implies(a3, c3))
            if same(b, b2) && same(a, a3) && same(c2, c3) =>
        {
            Ok(())
        }
        _ => Err("HS: from A → B and B → C conclude A → C".into()),
    }
}

fn dem(p: &[&Formula], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match de_morgan(p[0]) {
        Some(d) if same(&d, c) => Ok(()),
        Some(_) => Err("DeM: the conclusion is not the De Morgan dual of the premise".into()),
        None => Err("DeM applies to ¬(A ∨ B), ¬A ∧ ¬B, ¬(A ∧ B) or ¬A ∨ ¬B".into()),
    }
}

fn cq(p: &[&Formula], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match convert_quantifier(p[0]) {
        Some(d) if same(&d, c) => Ok(()),
        Some(_) => {
            Err("CQ: the conclusion is not the converted quantifier form of the premise".into())
        }
        None => Err("CQ applies to ¬∀x A, ∃x ¬A, ¬∃x A or ∀x ¬A".into()),
    }
}

fn eq_intro(step: &Step) -> Result<Accepted, Rejection> {
    if !step.premises.is_empty() && !step.options.extend {
        return Err(reject(
            RejectCode::MissingPremise,
            format!("eq_intro needs 0 premises, {} cited", step.premises.len()),
        ));
    }
    match step.conclusion {
        Formula::Rel(RelOp::Eq, a, b) if term_alpha_eq(a, b, &Vec::new()) => {
            Ok(Accepted::default())
        }
        _ => Err(invalid(
            "=I concludes t = t with the same term on both sides",
        )),
    }
}

fn imp_intro(s: &[Premise], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match c {
        Formula::Implies(a, b) if same(a, s[0].formula) && same(b, s[1].formula) => Ok(()),
        _ => Err(format!(
            "→I: from a subproof {} … {} conclude assumption → last line",
            s[0].id, s[1].id
        )),
    }
}

fn not_intro(s: &[Premise], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match c {
        Formula::Not(a) if same(a, s[0].formula) && matches!(s[1].formula, Formula::Bottom) => {
            Ok(())
        }
        _ => Err("¬I: from a subproof assuming A and ending in ⊥ conclude ¬A".into()),
    }
}

fn ip(s: &[Premise], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match s[0].formula {
        Formula::Not(a) if same(a, c) && matches!(s[1].formula, Formula::Bottom) => Ok(()),
        _ => Err("IP: from a subproof assuming ¬A and ending in ⊥ conclude A".into()),
    }
}

fn or_elim(s: &[Premise], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match s[0].formula {
        Formula::Or(a, b)
            if same(a, s[1].formula)
                && same(b, s[3].formula)
                && same(s[2].formula, c)
                && same(s[4].formula, c) =>
        {
            Ok(())
        }
        Formula::Or(..) => Err(
            "∨E: the subproofs must assume the two disjuncts (in order) and both end in the conclusion"
                .into(),
        ),
        _ => Err("∨E: the first citation must be a disjunction".into()),
    }
}

fn iff_intro(s: &[Premise], c: &Formula, _: &CheckContext) -> Result<(), String> {
    match c {
        Formula::Iff(a, b)
            if same(a, s[0].formula)
                && same(b, s[1].formula)
                && same(b, s[2].formula)
                && same(a, s[3].formula) =>
        {
            Ok(())
        }
        _ => Err("↔I: subproofs A … B and B … A conclude A ↔ B".into()),
    }
}

fn lem(s: &[Premise], c: &Formula, _: &CheckContext) -> Result<(), String> {
    let (a, na) = (s[0].formula, s[2].formula);
    let complementary =
        matches!(na, Formula::Not(x) if same(x, a)) || matches!(a, Formula::Not(x) if same(x, na));
    if complementary && same(s[1].formula, c) && same(s[3].formula, c) {
        Ok(())
    } else {
        Err("LEM: subproofs assuming A and ¬A must both end in the conclusion".into())
    }
}

fn algebra_rule(step: &Step) -> Result<Accepted, Rejection> {
    algebra(step.premises, step.conclusion)
        .map(|_| Accepted::default())
        .map_err(invalid)
}

fn linarith_rule(step: &Step) -> Result<Accepted, Rejection> {
    linarith(step.premises, step.conclusion, step.options.certificate)
        .map(|_| Accepted::default())
        .map_err(invalid)
}

/// Rules with plain premises: the cited premises in any order may fit the pattern (so
/// `modus_ponens` takes its premises either way round); a citation count other than the rule's
/// arity is a missing/wrong premise, except that `extend` may cite extras.
///
/// `check` is a plain `fn` (the closures capture nothing) rather than `impl Fn`: about twenty
/// rules call this, and a generic parameter would compile the whole search below once per rule
/// (wasm size).
fn fixed(step: &Step, check: PlainCheck) -> Result<Accepted, Rejection> {
    let premises = step.premises;
    let n = step.spec.arity.min;
    if premises.len() < n || (premises.len() > n && !step.options.extend) {
        return Err(reject(
            RejectCode::MissingPremise,
            format!(
                "{} needs {n} premise(s), {} cited",
                step.spec.id,
                premises.len()
            ),
        ));
    }
    let (c, ctx) = (step.conclusion, step.ctx);
    let usable = &premises[..premises.len().min(8)];
    let given: Vec<&Formula> = usable.iter().take(n).map(|p| p.formula).collect();
    let first_error = match check(&given, c, ctx) {
        Ok(()) => return Ok(Accepted::default()),
        Err(e) => e,
    };
    let mut found = false;
    for_each_selection(usable.len(), n, &mut |idx| {
        if !found {
            let pick: Vec<&Formula> = idx
                .iter()
                .filter_map(|&i| usable.get(i).map(|p| p.formula))
                .collect();
            found = check(&pick, c, ctx).is_ok();
        }
    });
    if found {
        Ok(Accepted::default())
    } else {
        Err(invalid(first_error))
    }
}

/// Every ordered selection of `n` distinct indices below `len`.
fn for_each_selection(len: usize, n: usize, f: &mut dyn FnMut(&[usize])) {
    fn go(len: usize, n: usize, cur: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if cur.len() == n {
            f(cur);
            return;
        }
        for i in 0..len {
            if !cur.contains(&i) {
                cur.push(i);
                go(len, n, cur, f);
                cur.pop();
            }
        }
    }
    go(len, n, &mut Vec::new(), f);
}

/// Subproof rules cite fixed slots (the table's arity); the `discharges` slots must be
/// assumptions.
fn slots<'p, 'a>(
    spec: &RuleSpec,
    premises: &'p [Premise<'a>],
) -> Result<&'p [Premise<'a>], Rejection> {
    let (rule, n) = (spec.id, spec.arity.min);
    if premises.len() < n {
        return Err(reject(
            RejectCode::MissingPremise,
            format!(
                "{rule} cites {n} lines (see the citation slots), {} given",
                premises.len()
            ),
        ));
    }
    if premises.len() > n {
        return Err(reject(
            RejectCode::MissingPremise,
            format!(
                "{rule} cites exactly {n} lines (see the citation slots), {} given",
                premises.len()
            ),
        ));
    }
    for &i in spec.discharges {
        if let Some(p) = premises.get(i) {
            if !p.is_assumption {
                return Err(invalid(format!(
                    "{rule}: citation {} ({}) must be the assumption opening a subproof",
                    i + 1,
                    p.id
                )));
            }
        }
    }
    Ok(premises)
}

fn discharged(s: &[Premise], which: &[usize]) -> Result<Accepted, Rejection> {
    let mut ids: Vec<String> = which
        .iter()
        .filter_map(|&i| s.get(i).map(|p| p.id.to_string()))
        .collect();
    ids.dedup();
    Ok(Accepted { discharged: ids })
}

// ---------------------------------------------------------------- propositional helpers

fn de_morgan(f: &Formula) -> Option<Formula> {
    let not = |x: &Formula| Formula::Not(Box::new(x.clone()));
    match f {
        Formula::Not(inner) => match inner.as_ref() {
            Formula::Or(a, b) => Some(Formula::And(Box::new(not(a)), Box::new(not(b)))),
            Formula::And(a, b) => Some(Formula::Or(Box::new(not(a)), Box::new(not(b)))),
            _ => None,
        },
        Formula::And(a, b) | Formula::Or(a, b) => match (a.as_ref(), b.as_ref()) {
            (Formula::Not(x), Formula::Not(y)) => {
                let (x, y) = (Box::new(x.as_ref().clone()), Box::new(y.as_ref().clone()));
                Some(not(&if matches!(f, Formula::And(..)) {
                    Formula::Or(x, y)
                } else {
                    Formula::And(x, y)
                }))
            }
            _ => None,
        },
        _ => None,
    }
}

fn convert_quantifier(f: &Formula) -> Option<Formula> {
    let flip = |q: &Quantifier| {
        if *q == Quantifier::Forall {
            Quantifier::Exists
        } else {
            Quantifier::Forall
        }
    };
    match f {
        Formula::Not(inner) => match inner.as_ref() {
            Formula::Quant(q, v, body) => Some(Formula::Quant(
                flip(q),
                v.clone(),
                Box::new(Formula::Not(body.clone())),
            )),
            _ => None,
        },
        Formula::Quant(q, v, body) => match body.as_ref() {
            Formula::Not(b) => Some(Formula::Not(Box::new(Formula::Quant(
                flip(q),
                v.clone(),
                b.clone(),
            )))),
            _ => None,
        },
        _ => None,
    }
}

/// The bundled example's `extend` (docs/logic.md) applies an axiom without citing it: C-001 `a > 0 ∧ b > 0` extended
/// to `a + b > 0` by modus ponens with H-3. Only hypotheses (which carry no assumptions) are tried.
fn extend_with_hypothesis(
    premises: &[Premise],
    c: &Formula,
    ctx: &CheckContext,
) -> Result<Accepted, Rejection> {
    let Some(base) = premises.first() else {
        return Err(reject(
            RejectCode::MissingPremise,
            "imp_elim needs 2 premises, 0 cited",
        ));
    };
    let fits = |major: &Formula| {
        modus_ponens(major, base.formula, c).is_ok() || modus_ponens(base.formula, major, c).is_ok()
    };
    if modus_ponens(base.formula, base.formula, c).is_ok() || ctx.hypotheses.iter().any(fits) {
        Ok(Accepted::default())
    } else {
        Err(reject(
            RejectCode::MissingPremise,
            "imp_elim needs 2 premises: cite the conditional (no hypothesis fits the extension)",
        ))
    }
}

/// →E, also through universal quantifiers: from `∀x̄ (A(x̄) → B(x̄))` and `A(t̄)` conclude `B(t̄)`
/// (∀E then →E in one step, as the bundled example applies its axiom).
fn modus_ponens(major: &Formula, minor: &Formula, c: &Formula) -> Result<(), String> {
    let mut vars = Vec::new();
    let mut body = major;
    while let Formula::Quant(Quantifier::Forall, v, inner) = body {
        vars.push(v.clone());
        body = inner;
    }
    let Formula::Implies(a, b) = body else {
        return Err("→E needs a conditional A → B and its antecedent A".into());
    };
    if vars.is_empty() {
        return if !same(a, minor) {
            Err("→E: the other premise is not the antecedent of the conditional".into())
        } else if !same(b, c) {
            Err("→E concludes the consequent of the conditional".into())
        } else {
            Ok(())
        };
    }
    let mut m = Matcher::new(vars);
    if m.formula(a, minor) && m.formula(b, c) {
        Ok(())
    } else {
        Err(
            "→E: no instance of the quantified conditional fits the premise and the conclusion"
                .into(),
        )
    }
}

// ---------------------------------------------------------------- quantifier rules

/// Finds terms for pattern variables so that pattern[x̄ := t̄] equals the instance, refusing
/// any term that would be captured by a binder of the instance.
struct Matcher {
    vars: Vec<String>,
    /// Pattern variable → the term it stands for. A pattern has a handful of variables, so a
    /// list searched front to back is enough (and is smaller in wasm than another BTreeMap).
    found: Vec<(String, Term)>,
    env: Env,
}

impl Matcher {
    fn new(vars: Vec<String>) -> Self {
        Matcher {
            vars,
            found: Vec::new(),
            env: Vec::new(),
        }
    }

    fn formula(&mut self, p: &Formula, i: &Formula) -> bool {
        match (p, i) {
            (Formula::Bottom, Formula::Bottom) | (Formula::Top, Formula::Top) => true,
            (Formula::Atom(a), Formula::Atom(b)) => a == b,
            (Formula::Pred(f, xs), Formula::Pred(g, ys)) => {
                f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| self.term(x, y))
            }
            (Formula::Rel(o, x1, x2), Formula::Rel(q, y1, y2)) => {
                o == q && self.term(x1, y1) && self.term(x2, y2)
            }
            (Formula::Not(x), Formula::Not(y)) => self.formula(x, y),
            (Formula::And(x1, x2), Formula::And(y1, y2))
            | (Formula::Or(x1, x2), Formula::Or(y1, y2))
            | (Formula::Implies(x1, x2), Formula::Implies(y1, y2))
            | (Formula::Iff(x1, x2), Formula::Iff(y1, y2)) => {
                self.formula(x1, y1) && self.formula(x2, y2)
            }
            (Formula::Quant(q, v, x), Formula::Quant(r, w, y)) => {
                if q != r {
                    return false;
                }
                self.env.push((v.clone(), w.clone()));
                let ok = self.formula(x, y);
                self.env.pop();
                ok
            }
            _ => false,
        }
    }

    /// The term found so far for pattern variable `name`.
    fn bound(&self, name: &str) -> Option<&Term> {
        self.found.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    fn is_pattern_var(&self, name: &str) -> bool {
        self.vars.iter().any(|v| v == name) && !self.env.iter().any(|(l, _)| l == name)
    }

    fn term(&mut self, p: &Term, i: &Term) -> bool {
        if let Term::Name(x) = p {
            if self.is_pattern_var(x) {
                // Capture: the instance term may not use a variable bound at this position.
                let mut names = Vec::new();
                term_names(i, &[], &mut names);
                if names.iter().any(|n| self.env.iter().any(|(_, r)| r == n)) {
                    return false;
                }
                return match self.bound(x) {
                    Some(t) => t == i,
                    None => {
                        self.found.push((x.clone(), i.clone()));
                        true
                    }
                };
            }
        }
        match (p, i) {
            (Term::Name(_), _) | (Term::Number(_), _) => term_alpha_eq(p, i, &self.env),
            (Term::App(f, xs), Term::App(g, ys)) => {
                f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| self.term(x, y))
            }
            (Term::Neg(x), Term::Neg(y)) => self.term(x, y),
            (Term::Arith(o, x1, x2), Term::Arith(q, y1, y2)) => {
                o == q && self.term(x1, y1) && self.term(x2, y2)
            }
            _ => false,
        }
    }
}

fn forall_elim(premise: &Formula, c: &Formula) -> Result<(), String> {
    let Formula::Quant(Quantifier::Forall, x, body) = premise else {
        return Err("∀E needs a universally quantified premise".into());
    };
    let mut m = Matcher::new(vec![x.clone()]);
    if m.formula(body, c) {
        Ok(())
    } else {
        Err(format!(
            "∀E: the conclusion is not the premise's body with every free {x} replaced by one and the same term"
        ))
    }
}

fn exists_intro(premise: &Formula, c: &Formula) -> Result<(), String> {
    let Formula::Quant(Quantifier::Exists, x, body) = c else {
        return Err("∃I concludes an existentially quantified formula".into());
    };
    let mut m = Matcher::new(vec![x.clone()]);
    if m.formula(body, premise) {
        Ok(())
    } else {
        Err(format!(
            "∃I: the premise is not the conclusion's body with {x} replaced by a term"
        ))
    }
}

fn forall_intro(premise: &Formula, c: &Formula, ctx: &CheckContext) -> Result<(), String> {
    let Formula::Quant(Quantifier::Forall, x, body) = c else {
        return Err("∀I concludes a universally quantified formula".into());
    };
    let mut m = Matcher::new(vec![x.clone()]);
    if !m.formula(body, premise) {
        return Err(format!(
            "∀I: the premise is not the conclusion's body with {x} replaced by a name"
        ));
    }
    let Some(t) = m.bound(x) else {
        return Ok(()); // x does not occur: ∀x A from A
    };
    let Term::Name(name) = t else {
        return Err(format!(
            "∀I generalises a name, not the term {}",
            t.canonical()
        ));
    };
    if mentions(c, name) {
        return Err(format!(
            "∀I: every occurrence of {name} must be replaced by {x}"
        ));
    }
    if ctx.hypotheses.iter().any(|h| mentions(h, name)) {
        return Err(format!(
            "∀I: {name} occurs in a hypothesis, so it is not arbitrary"
        ));
    }
    if ctx.open_assumptions.iter().any(|a| mentions(a, name)) {
        return Err(format!(
            "∀I: {name} occurs in an open assumption the premise depends on"
        ));
    }
    Ok(())
}

/// ∃E slots: [∃x A(x), assumption A(c), last line B]; conclusion B.
fn exists_elim(s: &[Premise], c: &Formula, ctx: &CheckContext) -> Result<(), String> {
    let (Some(e), Some(assumption), Some(last)) = (s.first(), s.get(1), s.get(2)) else {
        return Err("∃E cites [∃x A(x), assumption A(c), last line]".into());
    };
    let Formula::Quant(Quantifier::Exists, x, body) = e.formula else {
        return Err("∃E: the first citation must be an existential formula".into());
    };
    if !same(last.formula, c) {
        return Err("∃E concludes the last line of the subproof".into());
    }
    let mut m = Matcher::new(vec![x.clone()]);
    if !m.formula(body, assumption.formula) {
        return Err(format!(
            "∃E: the assumption is not the body of {} with {x} replaced by a name",
            e.id
        ));
    }
    let Some(t) = m.bound(x) else {
        return Ok(());
    };
    let Term::Name(name) = t else {
        return Err(format!(
            "∃E: the instance must be a new name, not the term {}",
            t.canonical()
        ));
    };
    if mentions(e.formula, name) {
        return Err(format!("∃E: {name} occurs in {}, so it is not new", e.id));
    }
    if mentions(c, name) {
        return Err(format!("∃E: {name} occurs in the conclusion"));
    }
    if ctx.hypotheses.iter().any(|h| mentions(h, name)) {
        return Err(format!(
            "∃E: {name} occurs in a hypothesis, so it is not new"
        ));
    }
    let others = ctx
        .open_assumptions
        .iter()
        .filter(|a| !same(a, assumption.formula));
    if others.clone().any(|a| mentions(a, name)) {
        return Err(format!("∃E: {name} occurs in another open assumption"));
    }
    Ok(())
}

/// =E: the conclusion is the second premise with some occurrences of a replaced by b (or b by a).
fn eq_elim(eq: &Formula, base: &Formula, c: &Formula) -> Result<(), String> {
    let Formula::Rel(RelOp::Eq, a, b) = eq else {
        return Err("=E needs an identity a = b".into());
    };
    let mut r = Rewriter {
        a,
        b,
        env: Vec::new(),
    };
    if r.formula(base, c) {
        Ok(())
    } else {
        Err(format!(
            "=E: the conclusion is not the premise with occurrences of {} and {} exchanged",
            a.canonical(),
            b.canonical()
        ))
    }
}

struct Rewriter<'t> {
    a: &'t Term,
    b: &'t Term,
    env: Env,
}

impl Rewriter<'_> {
    fn formula(&mut self, x: &Formula, y: &Formula) -> bool {
        match (x, y) {
            (Formula::Bottom, Formula::Bottom) | (Formula::Top, Formula::Top) => true,
            (Formula::Atom(p), Formula::Atom(q)) => p == q,
            (Formula::Pred(f, xs), Formula::Pred(g, ys)) => {
                f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(s, t)| self.term(s, t))
            }
            (Formula::Rel(o, x1, x2), Formula::Rel(q, y1, y2)) => {
                o == q && self.term(x1, y1) && self.term(x2, y2)
            }
            (Formula::Not(p), Formula::Not(q)) => self.formula(p, q),
            (Formula::And(x1, x2), Formula::And(y1, y2))
            | (Formula::Or(x1, x2), Formula::Or(y1, y2))
            | (Formula::Implies(x1, x2), Formula::Implies(y1, y2))
            | (Formula::Iff(x1, x2), Formula::Iff(y1, y2)) => {
                self.formula(x1, y1) && self.formula(x2, y2)
            }
            (Formula::Quant(q, v, p), Formula::Quant(r, w, t)) => {
                if q != r {
                    return false;
                }
                self.env.push((v.clone(), w.clone()));
                let ok = self.formula(p, t);
                self.env.pop();
                ok
            }
            _ => false,
        }
    }

    /// Free of variables bound at this position (on the given side).
    fn free_here(&self, t: &Term, left: bool) -> bool {
        let mut names = Vec::new();
        term_names(t, &[], &mut names);
        !names.iter().any(|n| {
            self.env
                .iter()
                .any(|(l, r)| if left { l == n } else { r == n })
        })
    }

    fn term(&mut self, x: &Term, y: &Term) -> bool {
        if term_alpha_eq(x, y, &self.env) {
            return true;
        }
        let none = Vec::new();
        let swapped = (term_alpha_eq(x, self.a, &none) && term_alpha_eq(y, self.b, &none))
            || (term_alpha_eq(x, self.b, &none) && term_alpha_eq(y, self.a, &none));
        if swapped && self.free_here(x, true) && self.free_here(y, false) {
            return true;
        }
        match (x, y) {
            (Term::App(f, xs), Term::App(g, ys)) => {
                f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(s, t)| self.term(s, t))
            }
            (Term::Neg(p), Term::Neg(q)) => self.term(p, q),
            (Term::Arith(o, x1, x2), Term::Arith(q, y1, y2)) => {
                o == q && self.term(x1, y1) && self.term(x2, y2)
            }
            _ => false,
        }
    }
}

// ---------------------------------------------------------------- arithmetic rules

/// A comparison as (left − right, kind), with `>`/`≥` turned round.
fn signed_difference(f: &Formula) -> Option<(Term, RelOp)> {
    match f {
        Formula::Rel(op, l, r) => Some(match op {
            RelOp::Gt => (arith::difference(r, l), RelOp::Lt),
            RelOp::Ge => (arith::difference(r, l), RelOp::Le),
            _ => (arith::difference(l, r), *op),
        }),
        _ => None,
    }
}

fn algebra(premises: &[Premise], c: &Formula) -> Result<(), String> {
    let Some((d, op)) = signed_difference(c) else {
        return Err("algebra concludes an equation or a comparison".into());
    };
    let rows = arith::sample(&[&d]).map_err(|e| format!("algebra: could not evaluate: {e}"))?;
    let identity = rows.iter().all(|r| r.iter().all(|v| v.is_zero()));
    if identity && matches!(op, RelOp::Eq | RelOp::Le) {
        return Ok(());
    }
    let mut last = if premises.is_empty() {
        "algebra: the two sides differ (checked by exact evaluation at fixed pseudo-random points)"
            .to_string()
    } else {
        "algebra: the conclusion is not a constant multiple of a cited equation or comparison"
            .to_string()
    };
    for p in premises {
        match scaled_from(p.formula, &d, op) {
            Ok(()) => return Ok(()),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// One premise `L ⋈ R`: the conclusion's difference must be `k·(L − R)`, k ≠ 0, with k > 0 for
/// inequalities so the direction is kept.
fn scaled_from(premise: &Formula, d: &Term, op: RelOp) -> Result<(), String> {
    let Some((pd, pop)) = signed_difference(premise) else {
        return Err("algebra: the premise is not an equation or comparison".into());
    };
    if pop != op {
        return Err(
            "algebra: the premise and the conclusion are different kinds of comparison".into(),
        );
    }
    let rows = arith::sample(&[&pd, d]).map_err(|e| format!("algebra: could not evaluate: {e}"))?;
    let mut k: Option<Rat> = None;
    for row in &rows {
        let (Some(p), Some(q)) = (row.first(), row.get(1)) else {
            continue;
        };
        if p.is_zero() {
            if !q.is_zero() {
                return Err("algebra: the conclusion is not a multiple of the premise".into());
            }
            continue;
        }
        let ratio = q.div(*p).map_err(|e| e.to_string())?;
        match k {
            None => k = Some(ratio),
            Some(k0) if k0 == ratio => {}
            Some(_) => {
                return Err(
                    "algebra: the conclusion is not a constant multiple of the premise".into(),
                )
            }
        }
    }
    match k {
        Some(k) if k.is_zero() => {
            Err("algebra: the conclusion is trivial, not a multiple of the premise".into())
        }
        Some(k) if k.is_negative() && matches!(op, RelOp::Lt | RelOp::Le) => {
            Err("algebra: multiplying by a negative number reverses the inequality".into())
        }
        Some(_) => Ok(()),
        None => Err("algebra: the premise is an identity and says nothing".into()),
    }
}

fn linarith(
    premises: &[Premise],
    c: &Formula,
    certificate: Option<&[String]>,
) -> Result<(), String> {
    let describe = |e: ArithError| format!("linarith: {e}");
    let mut facts: Vec<Constraint> = Vec::new();
    for p in premises {
        if let Some(cs) = arith::constraints_of(p.formula).map_err(describe)? {
            facts.extend(cs);
        }
    }
    let Some(alternatives) = arith::negations_of(c).map_err(describe)? else {
        return Err("linarith concludes a comparison (=, ≠, <, ≤, >, ≥) or ⊥".into());
    };
    if let Some(cert) = certificate {
        return check_certificate(cert, &facts, &alternatives);
    }
    for alt in &alternatives {
        let mut system = facts.clone();
        system.extend(alt.iter().cloned());
        match arith::infeasible(&system) {
            Ok(true) => {}
            Ok(false) => {
                return Err("linarith: the conclusion does not follow from the cited comparisons by linear arithmetic".into())
            }
            Err(e) => return Err(format!("linarith could not decide: {e}")),
        }
    }
    Ok(())
}

fn check_certificate(
    cert: &[String],
    facts: &[Constraint],
    alternatives: &[Vec<Constraint>],
) -> Result<(), String> {
    let [alt] = alternatives else {
        return Err(
            "linarith: a certificate needs a conclusion with a single negation (not '=')".into(),
        );
    };
    let mut multipliers = Vec::with_capacity(cert.len());
    for text in cert {
        multipliers
            .push(Rat::parse(text).map_err(|e| format!("linarith: multiplier '{text}': {e}"))?);
    }
    let mut system = facts.to_vec();
    system.extend(alt.iter().cloned());
    match arith::certificate_refutes(&system, &multipliers) {
        Ok(true) => Ok(()),
        Ok(false) => Err("linarith: the certificate's combination is not a contradiction".into()),
        Err(e) => Err(format!("linarith: {e}")),
    }
}

#[cfg(test)]
mod tests;
