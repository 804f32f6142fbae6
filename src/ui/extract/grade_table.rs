//! The Extract page's table of a graded JSONL upload: paged rows, search, filters, exports;
//! each row's cells and keys (`row_view`) below.

use super::answer_math::answer_math;
use super::grade_row_detail::GradeRowDetail;
use super::grade_row_detail::Opened;
use crate::extract::batch::Row;
use crate::extract::batch::{GradeBatch, Show};
use crate::search::SearchQuery;
use crate::table::{Direction, Query};
use crate::ui::boxed::part;
use crate::ui::boxed::{effect, on_click};
use crate::ui::boxed::{on_key, text};
use crate::ui::browser_file::read_slice;
use crate::ui::sort_header::sort_header;
use crate::view::extract::grade_columns;
use crate::view::extract::grade_columns::Kept;
use crate::view::extract::grade_columns::COLUMNS;
use crate::view::extract::grade_columns::{answer_note, answer_type, verdict_label};
use crate::view::extract::row_detail::open_row;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;

/// Rows per page (all rows are kept, searched and exported): KaTeX lays out only these.
const PAGE_ROWS: usize = 100;

/// The uploaded file, to read a row's line back when it is opened.
pub type SourceFile = StoredValue<Option<web_sys::File>, LocalStorage>;

/// The graded rows kept by the filter and search, a page at a time. A graded row opens (click,
/// or Enter on the focused row) into a detail row right under it (`grade_row_detail.rs`).
#[component]
pub fn GradeTable(
    batch: Arc<GradeBatch>,
    show: RwSignal<Show>,
    query: Memo<SearchQuery>,
    /// The column sorted by and its direction (the page keeps it in the URL).
    sort: RwSignal<Option<(usize, Direction)>>,
    file: SourceFile,
    bom: StoredValue<u64>,
) -> impl IntoView {
    let page = RwSignal::new(0usize);
    let open = RwSignal::new(None::<usize>);
    let opened: RwSignal<Opened> = RwSignal::new(None);
    // Another filter or search starts again at the first page.
    effect(move || {
        show.track();
        query.track();
        page.set(0);
    });
    let b = batch.clone();
    let toggle = Callback::new(move |line: usize| {
        if open.get_untracked() == Some(line) {
            open.set(None);
            return;
        }
        open.set(Some(line));
        opened.set(None);
        let (Some(f), Some(src)) = (file.get_value(), b.source_of(line)) else {
            let why = if file.get_value().is_none() {
                "this is a kept run, which keeps verdicts, not texts: pick the file again to see it"
            } else {
                "it is not in the file as it was read"
            };
            opened.set(Some((
                line,
                Err(format!("line {line} cannot be read back: {why}")),
            )));
            return;
        };
        let b = b.clone();
        let start = (src.offset + bom.get_value()) as f64;
        spawn_local(async move {
            let read = read_slice(&f, start, start + src.len as f64).await;
            let detail = read.and_then(|bytes| {
                let text = String::from_utf8(bytes)
                    .map_err(|_| format!("line {line}: not valid UTF-8 any more"))?;
                open_row(&text, line, b.preset, &b.patterns, b.record_of(line))
                    .map_err(|e| e.to_string())
            });
            // Closed, or another row opened, meanwhile: that wins.
            if open.get_untracked() == Some(line) {
                opened.set(Some((line, detail)));
            }
        });
    });
    let close = Callback::new(move |()| {
        let line = open.get_untracked();
        open.set(None);
        // Back to the row that was opened, so the keyboard user keeps their place.
        let row = line.and_then(|l| {
            let doc = web_sys::window()?.document()?;
            doc.query_selector(&format!("tr[data-line=\"{l}\"]")).ok()?
        });
        if let Some(el) =
            row.and_then(|r| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(r).ok())
        {
            let _ = el.focus();
        }
    });

    part(move || {
        query.with(|q| {
            let kept: Vec<Kept> = batch
                .filtered(show.get(), q)
                .map(|r| Kept(r, batch.is_choice(r)))
                .collect();
            let v = sort.with(|&sort| {
                let q = Query {
                    sort,
                    page: page.get(),
                    page_size: PAGE_ROWS,
                    ..Query::default()
                };
                grade_columns::page(&kept, &q)
            });
            let (p, pages) = (v.page, v.pages);
            let shown: Vec<AnyView> = v
                .rows
                .iter()
                .filter_map(|&i| kept.get(i))
                .map(|k| row_view(k.0.clone(), k.1, open, opened, toggle, close))
                .collect();
            let matching = if v.matching == 1 {
                String::from("1 row matches")
            } else {
                format!("{} rows match", v.matching)
            };
            let count = if pages > 1 {
                format!("{matching}; page {} of {pages} (downloads include all). Keys: j / k move, Enter opens, Esc closes.", p + 1)
            } else {
                format!("{matching}. Keys: j / k move, Enter opens, Esc closes.")
            };
            view! {
                <div class="row">
                    <p class="muted" data-testid="extract-row-count">{count}</p>
                    {(pages > 1).then(|| view! {
                        <button data-testid="extract-page-prev" disabled={p == 0}
                            on:click=on_click(move |_| page.set(p.saturating_sub(1)))>"Previous"</button>
                        <button data-testid="extract-page-next" disabled={p + 1 >= pages}
                            on:click=on_click(move |_| page.set(p + 1))>"Next"</button>
                    }.into_any())}
                </div>
                <div class="table-wrap grade-table-wrap">
                    <table data-testid="extract-table">
                        <thead>
                            <tr>{COLUMNS.iter().enumerate().map(|(c, name)| sort_header("extract-sort", name, c, false, sort, page)).collect_view()}</tr>
                        </thead>
                        <tbody>{shown}</tbody>
                    </table>
                </div>
            }
            .into_any()
            .into()
        })
    })
}

// One row of the grade table, with keyboard movement between rows.

/// `j` / `k` on a row: focus the next / previous graded row of the page (as on the Report's
/// case table), past bad lines and an open detail.
fn focus_row(ev: &web_sys::KeyboardEvent, next: bool) {
    use wasm_bindgen::JsCast;
    let mut at = ev
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    while let Some(el) = at {
        let sibling = if next {
            el.next_element_sibling()
        } else {
            el.previous_element_sibling()
        };
        if let Some(row) = sibling
            .as_ref()
            .filter(|s| s.matches("tr.grade-row").unwrap_or(false))
        {
            if let Some(row) = row.dyn_ref::<web_sys::HtmlElement>() {
                let _ = row.focus();
            }
            return;
        }
        at = sibling;
    }
}

/// One row of the grade table. A graded row is focusable and opens (click, or Enter) into
/// a detail row right under it while `open` holds its line; a bad line shows its error.
/// `choice`: the row was graded as multiple choice (the answer-type column).
pub fn row_view(
    r: Row,
    choice: bool,
    open: RwSignal<Option<usize>>,
    opened: RwSignal<Opened>,
    toggle: Callback<usize>,
    close: Callback<()>,
) -> AnyView {
    let (line, record) = match r {
        Row::Graded { line, record } => (line, record),
        Row::Bad { line, error } => {
            return view! {
                <tr class="error">
                    <td class="num">{line}</td>
                    <td colspan="9">{error}</td>
                </tr>
            }
            .into_any()
        }
    };
    let id = crate::jsonl::text_of(&record.id);
    let verdict = verdict_label(&record);
    let note = answer_note(&record);
    let on_enter = move |ev: web_sys::KeyboardEvent| {
        if ev.ctrl_key() || ev.alt_key() || ev.meta_key() {
            return;
        }
        match ev.key().as_str() {
            "Enter" => {
                ev.prevent_default();
                toggle.run(line);
            }
            "j" | "k" => {
                ev.prevent_default();
                focus_row(&ev, ev.key() == "j");
            }
            _ => {}
        }
    };
    view! {
        <tr class="grade-row" class:ok=record.equivalent tabindex="0" data-testid="extract-row"
            data-line=line.to_string() aria-expanded=text(move || (open.get() == Some(line)).to_string())
            title="Open the full solution (Enter); j / k: next / previous row"
            on:click=on_click(move |_| toggle.run(line)) on:keydown=on_key(on_enter)>
            <td class="num">{line}</td>
            <td>{id}</td>
            <td data-testid="extract-row-predicted">{answer_math(record.predicted_answer.clone())}</td>
            <td><span class="chip" data-testid="extract-row-rule">{record.predicted_method.clone()}</span></td>
            <td data-testid="extract-row-before">{before_model(&record)}</td>
            <td data-testid="extract-row-gold">{answer_math(record.ground_truth_answer.clone())}</td>
            <td>{verdict}</td>
            <td><span class="chip">{record.method}</span></td>
            <td data-testid="extract-row-type">
                <span data-testid="extract-row-answer-type">{answer_type(choice)}</span>
                {note.map(|n| view! { <span class="chip sev-High answer-note" data-testid="extract-row-answer-note">{n}</span> }.into_any())}
            </td>
            <td class="muted">{record.reason.clone()}</td>
        </tr>
        {part(move || (open.get() == Some(line)).then(|| view! {
            <tr class="grade-detail-row">
                <td colspan="10"><GradeRowDetail line opened close/></td>
            </tr>
        }.into_any()))}
    }
    .into_any()
}

/// The "before the model" cell: what the rules answered, for a row the verify model was asked
/// about (empty otherwise), so the two answers sit side by side.
fn before_model(record: &crate::extract::records::GradeRecord) -> AnyView {
    let Some(n) = record.llm_fallback.as_ref() else {
        return ().into_any();
    };
    let changed = crate::extract::batch::changed_by_model(record);
    let said = if n.error.is_some() {
        " (the call failed: rule answer kept)"
    } else if !n.used {
        " (no readable answer: rule answer kept)"
    } else if changed {
        " (changed by the model)"
    } else {
        ""
    };
    view! {
        <span data-changed=changed.to_string()>
            {answer_math(n.rule_answer.clone())}
            " "
            <span class="chip">{n.rule_method.clone()}</span>
            <span class="muted">{said}</span>
        </span>
    }
    .into_any()
}
