//! The Fitch-style layout of a derivation at one step of the log: numbered lines, hypotheses
//! first, then every proposal in the order it was made; an assumption opens an indented
//! subproof, which closes once nothing after it rests on the assumption any more (or where a
//! rule discharges it, or where the next assumption names another parent). Citations become
//! line numbers, a discharged subproof `i–j`, as in *forall x* and Carnap.
//!
//! Pure: the Proof page's Fitch view and the LaTeX/Markdown exports (`fitch_export`) read it.

use std::collections::HashMap;

use super::events::{code_str, Event};
use super::rules::{rule_id, rule_spec};
use super::world::{Item, ItemStatus, WorldState};

crate::names::named_enum! {
    /// What became of a line.
    pub enum LineStatus {
        Hypothesis = "hypothesis",
        Accepted = "accepted",
        Pending = "pending",
        Rejected = "rejected",
        Blocked = "blocked",
        Retracted = "retracted",
    }
}

impl LineStatus {
    fn of(status: ItemStatus) -> Self {
        match status {
            ItemStatus::Pending => LineStatus::Pending,
            ItemStatus::Accepted => LineStatus::Accepted,
            ItemStatus::Rejected => LineStatus::Rejected,
            ItemStatus::Blocked => LineStatus::Blocked,
            ItemStatus::Retracted => LineStatus::Retracted,
        }
    }
}

/// One numbered line of the proof.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// 1-based line number.
    pub number: usize,
    /// The hypothesis or item id (`H-1`, `A-2`, `C-003`).
    pub id: String,
    pub latex: String,
    /// Subproofs this line is inside (0: the main proof).
    pub depth: usize,
    /// An assumption: it opens the subproof at `depth`.
    pub opens: bool,
    /// The Fitch bar goes under this line (the last hypothesis, every assumption).
    pub bar_below: bool,
    /// The rule as *forall x* writes it (`→E`, `∀I`; `PR` a premise, `AS` an assumption).
    pub rule: String,
    /// The rule's LaTeX form for `fitch.sty`'s `\by` (`$\to$E`).
    pub rule_tex: String,
    /// Cited lines: `1, 3`, a discharged subproof `2–4`; an id that is no line stays an id.
    pub cites: String,
    pub status: LineStatus,
    /// Why a refused or retracted line was refused (`code: message`).
    pub reason: Option<String>,
    /// Open assumptions this line rests on that are not open here (the engine allows citing
    /// an assumption after a rule discharged it elsewhere; the view says so).
    pub stray: Vec<String>,
    /// The line of the current event.
    pub current: bool,
}

/// The lines to draw, with how many were left out on each side (see [`FitchOptions::window`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fitch {
    pub lines: Vec<Line>,
    pub before: usize,
    pub after: usize,
}

#[derive(Clone, Copy, Debug)]
pub struct FitchOptions<'a> {
    /// The id the current event is about (highlighted, and the window is centred on it).
    pub focus: Option<&'a str>,
    /// Only accepted lines (the proof as a textbook prints it; the exports use this).
    pub accepted_only: bool,
    /// Lines drawn at most; a log of 100,000 events has ~50,000 lines.
    pub window: usize,
}

impl Default for FitchOptions<'_> {
    fn default() -> Self {
        FitchOptions {
            focus: None,
            accepted_only: false,
            window: usize::MAX,
        }
    }
}

/// `(catalogue id, as forall x prints it, LaTeX for fitch.sty's \by)`.
const LABELS: &[(&str, &str, &str)] = &[
    ("reit", "R", "R"),
    ("and_intro", "∧I", "$\\wedge$I"),
    ("and_elim", "∧E", "$\\wedge$E"),
    ("or_intro", "∨I", "$\\vee$I"),
    ("or_elim", "∨E", "$\\vee$E"),
    ("imp_intro", "→I", "$\\to$I"),
    ("imp_elim", "→E", "$\\to$E"),
    ("not_elim", "¬E", "$\\neg$E"),
    ("not_intro", "¬I", "$\\neg$I"),
    ("explosion", "X", "X"),
    ("ip", "IP", "IP"),
    ("iff_intro", "↔I", "$\\leftrightarrow$I"),
    ("iff_elim", "↔E", "$\\leftrightarrow$E"),
    ("forall_elim", "∀E", "$\\forall$E"),
    ("forall_intro", "∀I", "$\\forall$I"),
    ("exists_intro", "∃I", "$\\exists$I"),
    ("exists_elim", "∃E", "$\\exists$E"),
    ("eq_intro", "=I", "$=$I"),
    ("eq_elim", "=E", "$=$E"),
    ("ds", "DS", "DS"),
    ("mt", "MT", "MT"),
    ("dne", "DNE", "DNE"),
    ("lem", "LEM", "LEM"),
    ("dem", "DeM", "DeM"),
    ("hs", "HS", "HS"),
    ("cq", "CQ", "CQ"),
];

/// A rule as *forall x* names it, and its LaTeX form; an unknown rule as written.
pub fn rule_label(rule: &str) -> (String, String) {
    let id = rule_id(rule).unwrap_or(rule);
    match LABELS.iter().find(|(k, _, _)| *k == id) {
        Some((_, text, tex)) => (text.to_string(), tex.to_string()),
        None => (id.to_string(), tex_text(id)),
    }
}

/// Plain text safe inside a LaTeX text argument (one escaper for every LaTeX export).
pub use crate::tex::escape_text as tex_text;

/// Whether `item` cites an assumption at all: only then can its rule discharge one (subproof
/// slots must cite assumptions, and assumption ids are the engine's `A-n`). Saves a rule-table
/// lookup per line on long logs.
fn cites_assumption(item: &Item) -> bool {
    item.premises.iter().any(|p| p.starts_with("A-"))
}

/// Subproof slots of `item`'s rule (none when it cites no assumption).
fn subproof_slots(item: &Item) -> &'static [usize] {
    if !cites_assumption(item) {
        return &[];
    }
    rule_spec(&item.rule).map_or(&[], |s| s.discharges)
}

/// What the rule of `item` discharges: the engine's record once accepted, else its slots.
fn discharged_by(item: &Item) -> Vec<&str> {
    if item.status == ItemStatus::Accepted {
        return item.discharged.iter().map(String::as_str).collect();
    }
    subproof_slots(item)
        .iter()
        .filter_map(|&s| item.premises.get(s).map(String::as_str))
        .collect()
}

/// Lay out the derivation of `state` (see the module comment).
pub fn layout(state: &WorldState, opts: &FitchOptions) -> Fitch {
    let items: Vec<&Item> = state
        .items
        .iter()
        .map(|i| &**i)
        .filter(|i| !opts.accepted_only || i.status == ItemStatus::Accepted)
        .collect();
    let hyps = state.problem.hypotheses.len();
    // Row of an id (hypotheses first). Every item is a row unless only accepted ones are:
    // then the rows are renumbered through a map; otherwise the world's own index serves (a
    // long log's 50,000 items are not hashed again at every step).
    let renumbered: Option<HashMap<&str, usize>> = opts.accepted_only.then(|| {
        items
            .iter()
            .enumerate()
            .map(|(i, item)| (item.id.as_str(), hyps + i))
            .collect()
    });
    let row_of = |id: &str| -> Option<usize> {
        if let Some(r) = state.problem.hypotheses.iter().position(|h| h.id == id) {
            return Some(r);
        }
        match &renumbered {
            Some(map) => map.get(id).copied(),
            None => state.item_position(id).map(|p| hyps + p),
        }
    };
    let mut depth = vec![0usize; hyps + items.len()];
    let mut stray: Vec<Vec<&str>> = vec![Vec::new(); items.len()];
    // Without assumptions every line is in the main proof.
    if items.iter().any(|i| i.is_assumption()) {
        nest(&items, hyps, &row_of, &mut depth, &mut stray);
    }
    // The window: centred on the focus, else the latest rows.
    let total = hyps + items.len();
    let focus_row = opts.focus.and_then(row_of);
    let (from, to) = if total <= opts.window {
        (0, total)
    } else {
        let centre = focus_row.unwrap_or(total - 1);
        let from = centre
            .saturating_sub(opts.window / 2)
            .min(total - opts.window);
        (from, from + opts.window)
    };
    let number = |id: &str| row_of(id).map(|r| r + 1);
    let mut lines = Vec::with_capacity(to - from);
    for r in from..to {
        if r < hyps {
            let h = &state.problem.hypotheses[r];
            lines.push(Line {
                number: r + 1,
                id: h.id.clone(),
                latex: h.latex.clone(),
                depth: 0,
                opens: false,
                bar_below: r + 1 == hyps,
                rule: "PR".into(),
                rule_tex: "PR".into(),
                cites: String::new(),
                status: LineStatus::Hypothesis,
                reason: None,
                stray: Vec::new(),
                current: focus_row == Some(r),
            });
            continue;
        }
        let item = items[r - hyps];
        let (rule, rule_tex) = if item.is_assumption() {
            ("AS".to_string(), "AS".to_string())
        } else {
            rule_label(&item.rule)
        };
        let reason = match (&item.code, &item.message) {
            (Some(code), Some(m)) => Some(format!("{}: {m}", code_str(*code))),
            (None, Some(m)) => Some(m.clone()),
            _ => None,
        };
        lines.push(Line {
            number: r + 1,
            id: item.id.clone(),
            latex: item.latex.clone(),
            depth: depth[r],
            opens: item.is_assumption(),
            bar_below: item.is_assumption(),
            rule,
            rule_tex,
            cites: cites(item, &number),
            status: LineStatus::of(item.status),
            reason,
            stray: stray[r - hyps].iter().map(|s| s.to_string()).collect(),
            current: focus_row == Some(r),
        });
    }
    Fitch {
        lines,
        before: from,
        after: total - to,
    }
}

/// Subproof depth of every row and the assumptions a line rests on that are closed above it.
fn nest<'a>(
    items: &[&'a Item],
    hyps: usize,
    row_of: &dyn Fn(&str) -> Option<usize>,
    depth: &mut [usize],
    stray: &mut [Vec<&'a str>],
) {
    // Each item's open assumptions: an assumption rests on itself; an accepted item on what the
    // engine recorded; anything else on its premises' assumptions minus its subproof slots'.
    let mut deps: Vec<Vec<&str>> = Vec::with_capacity(items.len());
    for item in items {
        let d: Vec<&str> = if item.is_assumption() {
            vec![item.id.as_str()]
        } else if item.status == ItemStatus::Accepted {
            item.depends_on.iter().map(String::as_str).collect()
        } else {
            let closed = discharged_by(item);
            let mut out: Vec<&str> = Vec::new();
            for p in &item.premises {
                let Some(k) = row_of(p)
                    .and_then(|r| r.checked_sub(hyps))
                    .filter(|&k| k < deps.len())
                else {
                    continue;
                };
                for &a in &deps[k] {
                    if !closed.contains(&a) && !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
            out
        };
        deps.push(d);
    }
    // Where each assumption's scope ends: the last row resting on it…
    let mut end: HashMap<&str, usize> = HashMap::new();
    for (i, d) in deps.iter().enumerate() {
        for &a in d {
            end.insert(a, hyps + i);
        }
    }
    // …and at least the last line of a subproof a rule cites (`A-k, C-m`), even when `C-m`
    // does not rest on `A-k` (`[Q, P] ⊢ Q → P` by reiteration).
    for item in items {
        for &s in subproof_slots(item) {
            let (Some(a), Some(last)) = (item.premises.get(s), item.premises.get(s + 1)) else {
                continue;
            };
            if let (Some(e), Some(r)) = (end.get_mut(a.as_str()), row_of(last)) {
                *e = (*e).max(r);
            }
        }
    }
    // Depth of every row, from a stack of open assumptions.
    let mut stack: Vec<&str> = Vec::new();
    let scope_end = |a: &str| end.get(a).copied().unwrap_or(0);
    for (i, item) in items.iter().enumerate() {
        let r = hyps + i;
        let parent = item.parent.as_deref().filter(|p| stack.contains(p));
        if let Some(parent) = parent.filter(|_| item.is_assumption()) {
            while stack.last().is_some_and(|top| *top != parent) {
                stack.pop();
            }
        } else {
            let closed = discharged_by(item);
            if let Some(pos) = stack.iter().position(|a| closed.contains(a)) {
                stack.truncate(pos);
            }
            while stack.last().is_some_and(|top| scope_end(top) < r) {
                stack.pop();
            }
        }
        if item.is_assumption() {
            stack.push(&item.id);
        } else {
            stray[i] = deps[i]
                .iter()
                .copied()
                .filter(|d| !stack.contains(d))
                .collect();
        }
        depth[r] = stack.len();
    }
}

/// An item's citations as line numbers; a subproof slot and the next one as a range `i–j`.
fn cites(item: &Item, number: &dyn Fn(&str) -> Option<usize>) -> String {
    let slots = subproof_slots(item);
    let name = |p: &str| number(p).map_or_else(|| p.to_string(), |n| n.to_string());
    let mut parts: Vec<String> = Vec::new();
    let mut s = 0;
    while s < item.premises.len() {
        let p = &item.premises[s];
        match item.premises.get(s + 1).filter(|_| slots.contains(&s)) {
            Some(last) => {
                parts.push(format!("{}–{}", name(p), name(last)));
                s += 2;
            }
            None => {
                parts.push(name(p));
                s += 1;
            }
        }
    }
    parts.join(", ")
}

/// The step (number of events applied) at which `id` was proposed: where a click on its line
/// or node takes the stepper. Hypotheses and unknown ids: `None`.
pub fn creating_step(events: &[Event], id: &str) -> Option<usize> {
    events
        .iter()
        .position(|e| matches!(e, Event::Proposal { content, .. } if content.proposal_id == id))
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::engine::{Action, Engine, EngineConfig};
    use crate::logic::world::{GoalSpec, Hypothesis, Problem};

    fn hyp(id: &str, latex: &str) -> Hypothesis {
        Hypothesis {
            id: id.into(),
            latex: latex.into(),
            kind: None,
        }
    }

    fn engine(hyps: &[(&str, &str)], goal: &str) -> Engine {
        let problem = Problem {
            hypotheses: hyps.iter().map(|(i, l)| hyp(i, l)).collect(),
            goals: vec![GoalSpec {
                id: "G-1".into(),
                latex: goal.into(),
            }],
            agents: vec!["r".into()],
            ..Default::default()
        };
        Engine::new(problem, EngineConfig::auto_accept()).expect("valid problem")
    }

    fn derive(e: &mut Engine, latex: &str, premises: &[&str], rule: &str) -> String {
        let o = e.submit(&Action::new(
            "r",
            "derive",
            serde_json::json!({"conclusion": latex, "premises": premises, "rule": rule}),
        ));
        match o.result {
            Ok(id) => id,
            Err(r) => format!("refused: {}", r.message),
        }
    }

    fn assume(e: &mut Engine, latex: &str) -> String {
        let o = e.submit(&Action::new(
            "r",
            "assume",
            serde_json::json!({"formula": latex}),
        ));
        o.result.expect("assumptions are accepted")
    }

    /// `P ∨ Q, P → R, Q → R ⊢ R` by cases: two sibling subproofs closed by ∨E.
    fn by_cases() -> Engine {
        let mut e = engine(
            &[
                ("H-1", "P \\lor Q"),
                ("H-2", "P \\to R"),
                ("H-3", "Q \\to R"),
            ],
            "R",
        );
        let a1 = assume(&mut e, "P");
        let c1 = derive(&mut e, "R", &["H-2", &a1], "imp_elim");
        let a2 = assume(&mut e, "Q");
        let c2 = derive(&mut e, "R", &["H-3", &a2], "imp_elim");
        let c3 = derive(&mut e, "R", &["H-1", &a1, &c1, &a2, &c2], "or_elim");
        assert!(c3.starts_with("C-"), "{c3}");
        e
    }

    #[test]
    fn sibling_subproofs_open_at_assumptions_and_close_where_or_elim_discharges_them() {
        let e = by_cases();
        let f = layout(e.state(), &FitchOptions::default());
        let shape: Vec<(usize, usize, bool, &str, &str)> = f
            .lines
            .iter()
            .map(|l| {
                (
                    l.number,
                    l.depth,
                    l.opens,
                    l.rule.as_str(),
                    l.cites.as_str(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                (1, 0, false, "PR", ""),
                (2, 0, false, "PR", ""),
                (3, 0, false, "PR", ""),
                (4, 1, true, "AS", ""),
                (5, 1, false, "→E", "2, 4"),
                (6, 1, true, "AS", ""),
                (7, 1, false, "→E", "3, 6"),
                (8, 0, false, "∨E", "1, 4–5, 6–7"),
            ]
        );
        assert!(f.lines[2].bar_below && !f.lines[1].bar_below);
        assert_eq!((f.before, f.after), (0, 0));
    }

    #[test]
    fn nested_subproofs_and_imp_intro_discharge() {
        // ⊢ P → (Q → P)
        let mut e = engine(&[], "P \\to (Q \\to P)");
        let a1 = assume(&mut e, "P");
        let a2 = assume(&mut e, "Q");
        let c1 = derive(&mut e, "P", &[&a1], "reit");
        let c2 = derive(&mut e, "Q \\to P", &[&a2, &c1], "imp_intro");
        let c3 = derive(&mut e, "P \\to (Q \\to P)", &[&a1, &c2], "imp_intro");
        assert!(c3.starts_with("C-"), "{c3}");
        let f = layout(e.state(), &FitchOptions::default());
        let depths: Vec<usize> = f.lines.iter().map(|l| l.depth).collect();
        // c1 rests on A-1 only but stays inside A-2's subproof (nested scopes close in order).
        assert_eq!(depths, vec![1, 2, 2, 1, 0]);
        assert_eq!(f.lines[3].cites, "2–3");
        assert_eq!(f.lines[4].cites, "1–4");
        assert_eq!(f.lines[4].rule_tex, "$\\to$I");
        assert!(f.lines.iter().all(|l| l.stray.is_empty()));
    }

    #[test]
    fn refused_lines_stay_in_place_with_their_reason_and_the_focus_is_marked() {
        let mut e = engine(&[("H-1", "P"), ("H-2", "P \\to Q")], "Q");
        let bad = derive(&mut e, "R", &["H-1", "H-2"], "imp_elim");
        assert!(bad.starts_with("refused"), "{bad}");
        let good = derive(&mut e, "Q", &["H-1", "H-2"], "imp_elim");
        let f = layout(
            e.state(),
            &FitchOptions {
                focus: Some(&good),
                ..Default::default()
            },
        );
        assert_eq!(f.lines.len(), 4);
        assert_eq!(f.lines[2].status, LineStatus::Rejected);
        assert!(f.lines[2]
            .reason
            .as_deref()
            .is_some_and(|r| r.starts_with("invalid_derivation")));
        assert!(f.lines[3].current && !f.lines[2].current);
        // The textbook view leaves the refused line out and renumbers.
        let proof = layout(
            e.state(),
            &FitchOptions {
                accepted_only: true,
                ..Default::default()
            },
        );
        assert_eq!(proof.lines.len(), 3);
        assert_eq!(
            (proof.lines[2].number, proof.lines[2].cites.as_str()),
            (3, "1, 2")
        );
    }

    #[test]
    fn a_long_derivation_is_windowed_around_the_focus() {
        let mut e = engine(&[("H-1", "P")], "Q");
        let mut last = "H-1".to_string();
        for _ in 0..300 {
            last = derive(&mut e, "P", &[&last], "reit");
        }
        let f = layout(
            e.state(),
            &FitchOptions {
                focus: Some("C-100"),
                window: 41,
                ..Default::default()
            },
        );
        assert_eq!(f.lines.len(), 41);
        assert_eq!(f.before + f.lines.len() + f.after, 301);
        let current: Vec<&str> = f
            .lines
            .iter()
            .filter(|l| l.current)
            .map(|l| l.id.as_str())
            .collect();
        assert_eq!(current, vec!["C-100"]);
        assert_eq!(f.lines[20].id, "C-100");
        // No focus: the latest lines.
        let tail = layout(
            e.state(),
            &FitchOptions {
                window: 10,
                ..Default::default()
            },
        );
        assert_eq!(tail.lines.last().map(|l| l.id.as_str()), Some("C-300"));
        assert_eq!(tail.after, 0);
    }

    #[test]
    fn a_click_lands_on_the_proposal_step() {
        let e = by_cases();
        let events = e.events();
        let step = creating_step(events, "C-001").expect("proposed");
        assert!(
            matches!(&events[step - 1], Event::Proposal { content, .. } if content.proposal_id == "C-001")
        );
        assert_eq!(creating_step(events, "H-1"), None);
    }

    #[test]
    fn labels_cover_aliases_and_unknown_rules() {
        assert_eq!(rule_label("modus_ponens").0, "→E");
        assert_eq!(
            rule_label("my_rule"),
            ("my_rule".into(), "my\\_rule".into())
        );
        assert_eq!(tex_text("a_b & c%"), "a\\_b \\& c\\%");
    }
}

#[cfg(test)]
mod example_tests {
    use super::*;
    use crate::logic::document::load;
    use crate::logic::replay::Replayer;

    fn final_state(file: &str) -> WorldState {
        let path = format!("{}/public/examples/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("bundled example");
        let loaded = load(&text).expect("loads");
        let r = Replayer::new(loaded.problem, loaded.events);
        r.state_at(r.len())
    }

    #[test]
    fn the_nested_example_lays_out_as_the_textbook_does() {
        // ∃E over A-1, with ↔I's two subproofs A-2 and A-3 nested inside it.
        let st = final_state("proof-exists-unique.json");
        let f = layout(&st, &FitchOptions::default());
        let shape: Vec<(usize, &str, &str)> = f
            .lines
            .iter()
            .map(|l| (l.depth, l.rule.as_str(), l.cites.as_str()))
            .collect();
        assert_eq!(
            shape,
            vec![
                (0, "PR", ""),
                (1, "AS", ""),
                (1, "∧E", "2"),
                (1, "∧E", "2"),
                (2, "AS", ""),
                (2, "∀E", "4"),
                (2, "→E", "6, 5"),
                (2, "AS", ""),
                (2, "=E", "8, 3"),
                (1, "↔I", "5–7, 8–9"),
                (1, "∀I", "10"),
                (1, "∃I", "11"),
                (0, "∃E", "1, 2–12"),
            ]
        );
        assert!(f.lines.iter().all(|l| l.stray.is_empty()));
    }

    #[test]
    fn every_bundled_example_lays_out_without_stray_assumptions() {
        for file in crate::logic::document::BUNDLED_EXAMPLES {
            let st = final_state(file);
            let f = layout(&st, &FitchOptions::default());
            assert_eq!(f.lines.len(), st.problem.hypotheses.len() + st.items.len());
            assert!(f.lines.iter().all(|l| l.stray.is_empty()), "{file}");
            assert_eq!(f.lines.last().map(|l| l.depth), Some(0), "{file}");
        }
    }
}
