//! One paired case opened: its texts and both sides' findings side by side (stacked on a
//! phone), previous / next changed case, close. Each side's line is read again from its file
//! when the case opens; what a side shows is `view::compare::case`'s decision, the findings
//! are drawn by the Audit page's widgets.

use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::audit::Phase;
use crate::band::compare::{Comparison, PairedCase, Selection};
use crate::ui::boxed::{effect, on_click, part};
use crate::ui::browser_file::read_slice;
use crate::ui::finding_group::{finding_group, finding_view};
use crate::view::compare::case::{
    change_class, find_line, neighbour_changed, no_text, shared, side_case, unreadable, Findings,
    OpenCase, SideCase,
};

use super::side::Side;

/// The panel's element id (focused when a case opens).
pub const PANEL_ID: &str = "compare-case";

fn selection(profile: String) -> Selection {
    Selection {
        profile: (!profile.is_empty()).then_some(profile),
    }
}

/// Read side `side`'s line for `case` (B without a file of its own reads A's).
async fn read_side_case(
    side: Side,
    fallback: Option<Side>,
    case: &OpenCase,
    label: &str,
) -> SideCase {
    let file = side
        .file
        .get_value()
        .or_else(|| fallback.and_then(|f| f.file.get_value()));
    let Some(file) = file else {
        return side_case(None, label);
    };
    let sel = selection(side.profile.get_untracked());
    match read_slice(&file, 0.0, file.size()).await {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            side_case(find_line(&text, case, &sel), label)
        }
        Err(e) => unreadable(label, &e),
    }
}

fn band_chip(band: &str) -> String {
    format!("chip band-{band}")
}

fn text_block(testid: &'static str, title: String, text: Option<String>, what: &str) -> AnyView {
    match text {
        Some(t) => view! { <h3>{title}</h3><pre data-testid=testid>{t}</pre> }.into_any(),
        None => view! { <h3>{title}</h3><p class="muted">{no_text(what)}</p> }.into_any(),
    }
}

fn rules_view(rules: Vec<String>) -> AnyView {
    let empty = rules.is_empty();
    let items: Vec<AnyView> = rules
        .into_iter()
        .map(|r| view! { <li data-testid="audit-rule">{r}</li> }.into_any())
        .collect();
    view! {
        <section class="card">
            <h3>"Deterministic findings"</h3>
            {empty.then(|| view! { <p class="muted">"None."</p> }.into_any())}
            <ul>{items}</ul>
        </section>
    }
    .into_any()
}

fn findings_view(findings: Findings, audit_href: Option<String>) -> AnyView {
    match findings {
        Findings::Kept(report) => view! {
            {audit_href.map(|href| view! {
                <a class="button" href=href data-testid="compare-case-audit">"Open its audit: claims, transcript (no new calls)"</a>
            }.into_any())}
            {finding_group(&report, Phase::FactCheck)}
            {finding_group(&report, Phase::LogicCheck)}
            {rules_view(report.rules.clone())}
        }
        .into_any(),
        Findings::FromLine {
            findings,
            rules,
            note,
        } => {
            let none = findings
                .is_empty()
                .then(|| view! { <p class="muted">"No errors in the line."</p> }.into_any());
            let items: Vec<AnyView> = findings.iter().map(finding_view).collect();
            view! {
                <p class="muted" data-testid="compare-case-from-line">{note}</p>
                <section class="card">
                    <h3>{format!("Errors found ({})", items.len())}</h3>
                    {none}
                    <ul class="stack">{items}</ul>
                </section>
                {rules_view(rules)}
            }
            .into_any()
        }
        Findings::NotKept(why) => {
            view! { <p class="notice" data-testid="compare-case-not-kept">{why}</p> }.into_any()
        }
    }
}

/// One side's column: its run, score, own texts (when they differ from the other side's),
/// why it could not be audited, and its findings.
#[allow(clippy::too_many_arguments)]
fn side_view(
    name: &'static str,
    label: String,
    score: u8,
    band: &'static str,
    s: SideCase,
    own_context: bool,
    own_output: bool,
    audit_href: Option<String>,
) -> AnyView {
    let testid = format!("compare-case-{}", name.to_lowercase());
    view! {
        <div class="stack" data-testid=testid>
            <h3>{format!("{name}: {label}")}</h3>
            <div class="row"><span class=band_chip(band)>{format!("judged {score} {band}")}</span></div>
            {own_context.then(|| text_block("compare-case-side-context", "Context".into(), s.context.clone(), "context_input"))}
            {own_output.then(|| text_block("compare-case-side-output", "Model output".into(), s.output.clone(), "model_output"))}
            {s.error.map(|e| view! { <div class="error">"Could not be audited: "{e}</div> }.into_any())}
            {findings_view(s.findings, audit_href)}
        </div>
    }
    .into_any()
}

/// The link to a side's case on the Audit page, when the side is a kept run whose line keeps
/// the report.
fn audit_href(side: Side, case: &OpenCase, s: &SideCase) -> Option<String> {
    let run = side.kept.get_untracked();
    match (&s.findings, s.profile.as_deref()) {
        (Findings::Kept(_), Some(p)) if !run.is_empty() => {
            Some(crate::ui::links::case_href(&run, &case.id, p))
        }
        _ => None,
    }
}

fn loaded_view(
    c: &Comparison,
    p: &PairedCase,
    a: SideCase,
    b: SideCase,
    sides: [Side; 2],
) -> AnyView {
    let open = OpenCase::of(p);
    let (href_a, href_b) = (
        audit_href(sides[0], &open, &a),
        audit_href(sides[1], &open, &b),
    );
    let same_context = shared(&a.context, &b.context);
    let same_output = shared(&a.output, &b.output);
    let context = same_context.then(|| {
        text_block(
            "compare-case-context",
            "Context (the same in A and B)".into(),
            a.context.clone(),
            "context_input",
        )
    });
    let output = same_output.then(|| {
        text_block(
            "compare-case-output",
            "Model output (the same in A and B)".into(),
            a.output.clone(),
            "model_output",
        )
    });
    view! {
        {context}
        {output}
        <div class="grid compare-sides">
            {side_view("A", c.label_a.clone(), p.score_a, p.band_a, a, !same_context, !same_output, href_a)}
            {side_view("B", c.label_b.clone(), p.score_b, p.band_b, b, !same_context, !same_output, href_b)}
        </div>
    }
    .into_any()
}

/// The open case's panel (nothing while no case is open). `a` and `b` are the sides whose
/// files hold the lines; `open` is the page's open case (in the URL).
pub fn case_panel(
    c: Arc<Comparison>,
    open: RwSignal<Option<OpenCase>>,
    a: Side,
    b: Side,
) -> AnyView {
    // The two sides of the open case once read: (case, A, B).
    let loaded = RwSignal::new(None::<(OpenCase, SideCase, SideCase)>);
    let (label_a, label_b) = (c.label_a.clone(), c.label_b.clone());
    effect(move || {
        let Some(o) = open.get() else {
            return loaded.set(None);
        };
        let (la, lb) = (label_a.clone(), label_b.clone());
        spawn_local(async move {
            let sa = read_side_case(a, None, &o, &la).await;
            let sb = read_side_case(b, Some(a), &o, &lb).await;
            // A case opened since wins over this one.
            if open.try_get_untracked().flatten().as_ref() == Some(&o) {
                loaded.set(Some((o, sa, sb)));
            }
        });
    });
    let panel = move || {
        let o = open.get()?;
        let Some(at) = o.index_in(&c.cases) else {
            return Some(view! {
                <section class="card" id=PANEL_ID data-testid="compare-case">
                    <p class="notice">{format!("Case {} is not among this comparison's paired cases.", o.id)}</p>
                    <button data-testid="compare-case-close" on:click=on_click(move |_| open.set(None))>"Close"</button>
                </section>
            }.into_any());
        };
        let p = c.cases[at].clone();
        let (prev, next) = (
            neighbour_changed(&c.cases, at, false),
            neighbour_changed(&c.cases, at, true),
        );
        let (c_prev, c_next) = (c.clone(), c.clone());
        let go = move |to: Option<usize>, cases: &Arc<Comparison>| {
            if let Some(i) = to {
                open.set(Some(OpenCase::of(&cases.cases[i])));
            }
        };
        let body = loaded.with(|l| match l {
            Some((lo, sa, sb)) if *lo == o => loaded_view(&c, &p, sa.clone(), sb.clone(), [a, b]),
            _ => view! { <p class="muted">"Reading both sides' lines…"</p> }.into_any(),
        });
        let title = match &p.profile {
            Some(pr) => format!("Case {} · {pr}", p.id),
            None => format!("Case {}", p.id),
        };
        Some(view! {
            <section class="card stack compare-case" id=PANEL_ID tabindex="-1" data-testid="compare-case" aria-label="Case">
                <div class="row">
                    <button data-testid="compare-case-prev" disabled=prev.is_none() on:click=on_click(move |_| go(prev, &c_prev))>"‹ Previous changed"</button>
                    <button data-testid="compare-case-next" disabled=next.is_none() on:click=on_click(move |_| go(next, &c_next))>"Next changed ›"</button>
                    <button data-testid="compare-case-close" on:click=on_click(move |_| open.set(None))>"Close"</button>
                </div>
                <h2>{title}</h2>
                <div class="row">
                    <span class=band_chip(crate::audit::Band::of(p.expected).as_str())>{format!("expected {}", p.expected)}</span>
                    <span class=band_chip(p.band_a)>{format!("A {} {}", p.score_a, p.band_a)}</span>
                    <span class=band_chip(p.band_b)>{format!("B {} {}", p.score_b, p.band_b)}</span>
                    <span class=change_class(p.change)>{p.change.label()}</span>
                </div>
                {body}
            </section>
        }.into_any())
    };
    view! { {part(panel)} }.into_any()
}
