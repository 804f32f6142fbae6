//! The Extract page's table of a graded JSONL upload: paged rows, search, filters, exports.
use std::sync::Arc;

use leptos::prelude::*;

use crate::ui::boxed::{effect, on_click};
use leptos::task::spawn_local;

use super::grade_row::row_view;
use super::grade_row_detail::Opened;
use crate::extract::batch::{GradeBatch, Show};
use crate::search::SearchQuery;
use crate::table::{Direction, Query};
use crate::ui::boxed::part;
use crate::ui::browser_file::read_slice;
use crate::ui::sort_header::sort_header;
use crate::view::extract::grade_columns;
use crate::view::extract::grade_columns::Kept;
use crate::view::extract::grade_columns::COLUMNS;
use crate::view::extract::row_detail::open_row;

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
                <div class="table-wrap">
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
