//! The report's exports (Markdown, JSON, CSV) and the filtered cases as JSONL.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::band::render::{self, By};
use crate::ui::browser_file::file_stem;
use crate::ui::download::download_text;

use super::read::read_case_line;
use super::state::ReportState;

/// Cases read back for a JSONL export of the filtered list.
const EXPORT_LIMIT: usize = 20_000;

pub fn export_report(s: ReportState, kind: &'static str) {
    let Some(r) = s.report.get_untracked() else {
        return;
    };
    let stem = file_stem(&s.file_name.get_untracked(), "results");
    let (name, mime, text) = match kind {
        "json" => (
            format!("{stem}-band.json"),
            "application/json",
            render::json(&r, By::default()),
        ),
        "csv" => (
            format!("{stem}-band.csv"),
            "text/csv",
            render::csv(&r, By::default()),
        ),
        _ => (
            format!("{stem}-band.md"),
            "text/markdown",
            render::markdown(&r, By::default()),
        ),
    };
    if let Err(e) = download_text(&name, mime, &text) {
        s.error.set(Some(e));
    }
}

/// The cases the filters keep, in the list's order, as the file's own lines.
pub fn export_cases(s: ReportState) {
    let (Some(r), Some(f)) = (s.report.get_untracked(), s.file.get_value()) else {
        return;
    };
    let order = s.order.get_untracked();
    let b = s.bom.get_value();
    let stem = file_stem(&s.file_name.get_untracked(), "results");
    spawn_local(async move {
        let mut out = String::new();
        for &i in order.iter().take(EXPORT_LIMIT) {
            match read_case_line(&f, b, &r.cases[i]).await {
                Ok(line) => {
                    out.push_str(&line);
                    out.push('\n');
                }
                Err(e) => return s.error.set(Some(e)),
            }
        }
        if let Err(e) = download_text(&format!("{stem}-cases.jsonl"), "application/x-ndjson", &out)
        {
            s.error.set(Some(e));
        }
    });
}

/// `run`: the kept run shown (named in the Compare link); `demo`: the demo is shown.
pub fn export_buttons(
    s: ReportState,
    run: RwSignal<Option<String>>,
    demo: RwSignal<bool>,
) -> AnyView {
    let href = move || crate::view::compare::side::compare_href(run.get().as_deref(), demo.get());
    view! {
        <div class="row">
            <button data-testid="report-export-md" on:click=move |_| export_report(s, "md")>"Export Markdown"</button>
            <button data-testid="report-export-json" on:click=move |_| export_report(s, "json")>"Export JSON"</button>
            <button data-testid="report-export-csv" on:click=move |_| export_report(s, "csv")>"Export CSV"</button>
            <a
                class="button"
                href=href
                data-testid="report-compare"
                // The demo opens on Compare as the demo (its link says so): handing its file
                // over would show it as an unknown file, without the demo's two profiles.
                on:click=move |_| {
                    if !demo.get_untracked() {
                        crate::ui::compare::handoff::set(s.file.get_value())
                    }
                }
            >
                "Compare with…"
            </a>
        </div>
    }
    .into_any()
}
