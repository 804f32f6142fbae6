//! The Fitch proof as a LaTeX document for `fitch.sty` (P. Selinger's macros, the ones the
//! *forall x* books use; CTAN package `fitch`) and as Markdown. Both write the accepted
//! derivation only (`FitchOptions::accepted_only`), numbered as a textbook would.
//!
//! `fitch.sty`: `\begin{nd}`, `\hypo{n}{A}` for a premise or an assumption, `\open`/`\close`
//! around a subproof, `\have{n}{A} \by{rule}{lines}` for a derived line.

use super::fitch::{layout, tex_text, Fitch, FitchOptions, Line};
use super::world::WorldState;

/// The accepted derivation of `state`.
pub fn proof_lines(state: &WorldState) -> Fitch {
    layout(
        state,
        &FitchOptions {
            accepted_only: true,
            ..Default::default()
        },
    )
}

fn bare(latex: &str) -> &str {
    latex.trim().trim_matches('$').trim()
}

fn goals_text(state: &WorldState, tex: bool) -> Vec<String> {
    state
        .goals
        .iter()
        .map(|g| {
            let status = match &g.proved_by {
                Some(by) => format!("proved by {by}"),
                None => "open".to_string(),
            };
            if tex {
                format!(
                    "{}: ${}$ ({})",
                    tex_text(&g.id),
                    bare(&g.latex),
                    tex_text(&status)
                )
            } else {
                format!("{}: ${}$ ({status})", g.id, bare(&g.latex))
            }
        })
        .collect()
}

/// Subproofs to close before `line` and whether it opens one: the writer's view of depth.
fn closes_before(depth_now: usize, line: &Line) -> usize {
    let target = if line.opens {
        line.depth.saturating_sub(1)
    } else {
        line.depth
    };
    depth_now.saturating_sub(target)
}

/// A standalone LaTeX document (`pdflatex` with `fitch.sty` installed).
pub fn to_latex(state: &WorldState) -> String {
    let proof = proof_lines(state);
    let title = if state.problem.title.is_empty() {
        state.problem.id.as_str()
    } else {
        state.problem.title.as_str()
    };
    let mut out = String::from(
        "% Fitch-style proof written by VerifyFast for fitch.sty (P. Selinger; CTAN package `fitch`).\n\
         \\documentclass{article}\n\\usepackage{amssymb}\n\\usepackage{fitch}\n\\begin{document}\n",
    );
    if !title.is_empty() {
        out.push_str(&format!("\\section*{{{}}}\n", tex_text(title)));
    }
    for g in goals_text(state, true) {
        out.push_str(&format!("Goal {g}.\n\n"));
    }
    out.push_str("\\begin{nd}\n");
    let mut depth = 0usize;
    for line in &proof.lines {
        for _ in 0..closes_before(depth, line) {
            depth -= 1;
            out.push_str(&format!("{}\\close\n", "  ".repeat(depth + 1)));
        }
        if line.opens {
            out.push_str(&format!("{}\\open\n", "  ".repeat(depth + 1)));
            depth += 1;
        }
        let indent = "  ".repeat(depth + 1);
        let formula = bare(&line.latex);
        if line.opens || line.rule == "PR" {
            out.push_str(&format!("{indent}\\hypo{{{}}}{{{formula}}}\n", line.number));
        } else {
            out.push_str(&format!(
                "{indent}\\have{{{}}}{{{formula}}} \\by{{{}}}{{{}}}\n",
                line.number,
                line.rule_tex,
                line.cites.replace('–', "-").replace(' ', "")
            ));
        }
    }
    while depth > 0 {
        depth -= 1;
        out.push_str(&format!("{}\\close\n", "  ".repeat(depth + 1)));
    }
    out.push_str("\\end{nd}\n\\end{document}\n");
    out
}

/// Markdown: a table of numbered lines, `│` marking each subproof level, formulas as `$…$`.
pub fn to_markdown(state: &WorldState) -> String {
    let proof = proof_lines(state);
    let mut out = String::new();
    let title = if state.problem.title.is_empty() {
        &state.problem.id
    } else {
        &state.problem.title
    };
    if !title.is_empty() {
        out.push_str(&format!("# {title}\n\n"));
    }
    for g in goals_text(state, false) {
        out.push_str(&format!("- Goal {g}\n"));
    }
    out.push_str("\n| # | formula | rule |\n| ---: | --- | --- |\n");
    for line in &proof.lines {
        let bars = "│ ".repeat(line.depth);
        let under = if line.bar_below { " ‾" } else { "" };
        let rule = if line.cites.is_empty() {
            line.rule.clone()
        } else {
            format!("{} {}", line.rule, line.cites)
        };
        out.push_str(&format!(
            "| {} | {bars}${}${under} | {rule} |\n",
            line.number,
            bare(&line.latex).replace('|', "\\|")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::engine::{Action, Engine, EngineConfig};
    use crate::logic::world::{GoalSpec, Hypothesis, Problem};

    /// `P ∨ Q, P → R, Q → R ⊢ R` by cases, plus a refused step left out of the exports.
    fn by_cases() -> Engine {
        let problem = Problem {
            id: "cases".into(),
            title: "By cases & more_".into(),
            hypotheses: [
                ("H-1", "P \\lor Q"),
                ("H-2", "P \\to R"),
                ("H-3", "Q \\to R"),
            ]
            .iter()
            .map(|(id, l)| Hypothesis {
                id: id.to_string(),
                latex: l.to_string(),
                kind: None,
            })
            .collect(),
            goals: vec![GoalSpec {
                id: "G-1".into(),
                latex: "R".into(),
            }],
            agents: vec!["r".into()],
            ..Default::default()
        };
        let mut e = Engine::new(problem, EngineConfig::auto_accept()).expect("problem");
        let mut act = |kind: &str, params: serde_json::Value| {
            e_submit(&mut e, kind, params);
        };
        act("assume", serde_json::json!({"formula": "P"}));
        act(
            "derive",
            serde_json::json!({"conclusion": "R", "premises": ["H-2", "A-1"], "rule": "imp_elim"}),
        );
        act(
            "derive",
            serde_json::json!({"conclusion": "Q", "premises": ["H-2", "A-1"], "rule": "imp_elim"}),
        );
        act("assume", serde_json::json!({"formula": "Q"}));
        act(
            "derive",
            serde_json::json!({"conclusion": "R", "premises": ["H-3", "A-2"], "rule": "imp_elim"}),
        );
        act(
            "derive",
            serde_json::json!({"conclusion": "R", "premises": ["H-1", "A-1", "C-001", "A-2", "C-003"], "rule": "or_elim"}),
        );
        e
    }

    fn e_submit(e: &mut Engine, kind: &str, params: serde_json::Value) {
        e.submit(&Action::new("r", kind, params));
    }

    fn count(hay: &str, needle: &str) -> usize {
        hay.matches(needle).count()
    }

    #[test]
    fn latex_has_balanced_environments_one_macro_per_line_and_citations() {
        let e = by_cases();
        let tex = to_latex(e.state());
        assert_eq!(count(&tex, "\\begin{nd}"), 1);
        assert_eq!(count(&tex, "\\end{nd}"), 1);
        assert_eq!(
            count(&tex, "\\begin{document}"),
            count(&tex, "\\end{document}")
        );
        assert_eq!(count(&tex, "\\open"), 2);
        assert_eq!(count(&tex, "\\close"), 2);
        // Every \close follows an \open (never more closed than opened at any point).
        let mut depth: i32 = 0;
        for l in tex.lines() {
            if l.trim() == "\\open" {
                depth += 1;
            } else if l.trim() == "\\close" {
                depth -= 1;
                assert!(depth >= 0, "{tex}");
            }
        }
        assert_eq!(depth, 0);
        // One \hypo or \have per accepted line: 3 premises, 2 assumptions, 3 derived (the
        // refused `Q` is left out), numbered 1..=8 in order.
        let numbered: Vec<&str> = tex
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("\\hypo") || l.starts_with("\\have"))
            .collect();
        assert_eq!(numbered.len(), 8, "{tex}");
        for (i, l) in numbered.iter().enumerate() {
            assert!(l.contains(&format!("{{{}}}", i + 1)), "{l}");
        }
        assert!(
            numbered[4].starts_with("\\have{5}{R} \\by{$\\to$E}{2,4}"),
            "{}",
            numbered[4]
        );
        assert_eq!(numbered[7], "\\have{8}{R} \\by{$\\vee$E}{1,4-5,6-7}");
        assert!(tex.contains("\\section*{By cases \\& more\\_}"));
        // Braces balance.
        assert_eq!(
            count(&tex, "{") - count(&tex, "\\{"),
            count(&tex, "}") - count(&tex, "\\}")
        );
    }

    #[test]
    fn markdown_has_one_row_per_line_with_bars_and_citations() {
        let e = by_cases();
        let md = to_markdown(e.state());
        let rows: Vec<&str> = md
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| #") && !l.starts_with("| -"))
            .collect();
        assert_eq!(rows.len(), 8, "{md}");
        assert_eq!(rows[3], "| 4 | │ $P$ ‾ | AS |");
        assert_eq!(rows[7], "| 8 | $R$ | ∨E 1, 4–5, 6–7 |");
        assert!(md.contains("- Goal G-1: $R$ (proved by C-004)"), "{md}");
    }
}
