//! A `grade`-format JSONL: summary, filterable table, exports.

use super::batch_load::BatchState;
use super::controls::bool_box;
use super::fallback_batch::BatchFallback;
use super::fallback_batch::BatchFallbackPanel;
use super::grade_table::GradeTable;
use crate::extract::batch::{GradeBatch, Show};
use crate::extract::AnswerPatterns;
use crate::ui::boxed::part;
use crate::ui::boxed::{flag, on_change, on_click};
use crate::ui::browser_file::picked_file;
use crate::ui::search_box::{query_memo, SearchBox};
use crate::view::extract::table_url::TableView;
use leptos::prelude::*;
use std::sync::Arc;

#[component]
pub fn BatchGrade(patterns: Memo<AnswerPatterns>) -> impl IntoView {
    let batch = RwSignal::new(None::<Arc<GradeBatch>>);
    // The table's search, filter and sort start as the URL says, and the URL follows them.
    let linked = TableView::from_view(&crate::ui::query::current());
    let search = RwSignal::new(linked.search);
    let regex = RwSignal::new(linked.regex);
    let sort = RwSignal::new(linked.sort);
    let st = BatchState {
        patterns,
        batch,
        file_name: RwSignal::new(String::new()),
        progress: RwSignal::new(None),
        timing: RwSignal::new(None),
        error: RwSignal::new(None),
        loading: RwSignal::new(false),
        strict: RwSignal::new(false),
        show: RwSignal::new(linked.show),
        query: query_memo(search, regex),
        fallback: BatchFallback::new(batch),
        file: StoredValue::new_local(None),
        bom: StoredValue::new(0u64),
        kept: RwSignal::new(None),
    };
    st.open_from_url();
    let show = st.show;
    crate::ui::boxed::effect(move || {
        let t = TableView {
            search: search.get(),
            regex: regex.get(),
            show: show.get(),
            sort: sort.get(),
        };
        let mut v = crate::ui::query::current();
        t.to_view(&mut v);
        // Replaced, not pushed: typing a search does not fill the history.
        if v != crate::ui::query::current() {
            crate::ui::query::set(&v, false);
        }
    });

    view! {
        <div class="card stack">
            <h2>"Grade a JSONL"</h2>
            <p class="muted">
                "One object per line: "
                <code>"{\"id\"?, \"output\", \"ground_truth\", \"question\"?}"</code>
                " (the "<code>"verifyfast grade"</code>" format). Everything stays in this browser."
            </p>
            <div class="row">
                <input type="file" accept=".jsonl,.json,.txt" data-testid="extract-file"
                    on:change=on_change(move |ev| {
                        if let Some(f) = picked_file(&ev) {
                            st.load(f);
                        }
                    })/>
                {bool_box(st.strict, None, "Strict preset")}
            </div>
            <BatchFallbackPanel fb=st.fallback/>
            {part(move || st.loading.get().then(|| {
                let (done, total) = st.progress.get().unwrap_or((0.0, 0.0));
                view! { <progress max=total.to_string() value=done.to_string()></progress> }.into_any()
            }))}
            {part(move || st.error.get().map(|e| view! { <p class="error" data-testid="extract-error">{e}</p> }.into_any()))}
            {part(move || st.kept.get().map(|k| view! { <p class="muted" data-testid="extract-kept">{k}</p> }.into_any()))}
            {part(move || batch.get().map(|b| {
                view! {
                    {summary_view(&b)}
                    {timing_view(st.timing.get())}
                    <div class="row">
                        <label>
                            "Show "
                            <select
                                data-testid="extract-filter"
                                on:change=on_change(move |ev| show.set(Show::from_key(&event_target_value(&ev))))
                            >
                                {Show::ALL.into_iter().map(|s| view! {
                                    <option value=s.as_str() selected=flag(move || show.get() == s)>{s.label()}</option>
                                }.into_any()).collect_view()}
                            </select>
                        </label>
                        <SearchBox
                            testid="extract-search"
                            placeholder="search answers, ids, rules, reasons"
                            text=search
                            regex=regex
                            set_text=Callback::new(move |t| search.set(t))
                            set_regex=Callback::new(move |r| regex.set(r))
                        />
                        <button data-testid="extract-download-jsonl" on:click=on_click(move |_| st.export(false))>"Download JSONL"</button>
                        <button data-testid="extract-download-csv" on:click=on_click(move |_| st.export(true))>"Download CSV"</button>
                    </div>
                    <GradeTable batch=b.clone() show query=st.query sort file=st.file bom=st.bom/>
                }
                .into_any()
            }))}
        </div>
    }
}

// The graded file's summary (accuracy, bad lines) and how long grading took.

/// Bad lines listed in the summary.
const BAD_LIST_LIMIT: usize = 50;

pub fn summary_view(b: &GradeBatch) -> AnyView {
    let s = b.summary;
    let bad: Vec<AnyView> = b
        .bad_rows()
        .take(BAD_LIST_LIMIT)
        .map(|(line, e)| view! { <li data-line=line.to_string()>{e.to_string()}</li> }.into_any())
        .collect();
    view! {
        <div class="stack" data-testid="extract-summary">
            <p>
                <strong data-testid="extract-accuracy">{format!("{:.2} %", 100.0 * s.accuracy())}</strong>
                {format!(
                    " accuracy: {} of {} graded lines equivalent; {} with no answer; {} bad lines; {} could not be decided",
                    s.equivalent, s.n, s.no_answer, s.bad_lines, s.undecided
                )}
            </p>
            {(!bad.is_empty()).then(|| view! {
                <ul class="error" data-testid="extract-bad-lines">{bad}</ul>
            }.into_any())}
        </div>
    }
    .into_any()
}

/// "N lines graded in M ms (K items/s in this browser)" from (lines, milliseconds).
pub fn timing_view(timing: Option<(f64, f64)>) -> Option<AnyView> {
    let (n, ms) = timing?;
    let per_s = if ms > 0.0 { n * 1000.0 / ms } else { 0.0 };
    let text = format!(
        "{} lines graded in {:.0} ms ({:.0} items/s in this browser)",
        n as usize, ms, per_s
    );
    Some(
        view! {
            <p class="muted" data-testid="extract-timing" data-items-per-second=format!("{:.0}", per_s)>{text}</p>
        }
        .into_any(),
    )
}
