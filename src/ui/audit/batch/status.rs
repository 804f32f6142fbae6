//! The batch panel's progress bar and line, its error and notice, and the per-case table
//! (status and failure reason of every (case, profile) pair, failed ones first).

use leptos::prelude::*;

use super::state::BatchState;
use crate::view::audit::batch_panel::case_rows;

#[component]
pub fn BatchStatus(state: BatchState) -> impl IntoView {
    let BatchState {
        progress,
        done_count,
        total_count,
        error,
        notice,
        results,
        run_id,
        ..
    } = state;
    view! {
        {move || {
            progress
                .get()
                .map(|summary| {
                    view! {
                        <div class="stack">
                            <progress
                                data-testid="batch-progress"
                                max=total_count.get().to_string()
                                value=done_count.get().to_string()
                            ></progress>
                            <span data-testid="batch-progress-text">{summary}</span>
                        </div>
                    }
                    .into_any()
                })
        }}
        {move || error.get().map(|e| view! { <div class="error" role="alert" data-testid="batch-error">{e}</div> }.into_any())}
        {move || notice.get().map(|n| view! { <div class="notice" data-testid="batch-notice">{n}</div> }.into_any())}
        {move || results.with(|r| case_table(r, run_id.get()))}
    }
}

/// Follow a link to this same page with another query: the router routes on the path only,
/// so the entry is pushed here and announced as a history move, which the Audit page answers
/// by showing the run the URL names (as for Back and Forward).
fn open_here(ev: web_sys::MouseEvent, href: &str) {
    if ev.button() != 0 || ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key() {
        return; // a new tab or window: the browser's own
    }
    ev.prevent_default();
    let w = window();
    let pushed = w
        .history()
        .and_then(|h| h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(href)));
    if pushed.is_ok() {
        if let Ok(moved) = web_sys::Event::new("popstate") {
            let _ = w.dispatch_event(&moved);
        }
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// Rows shown: a table of 50,000 rows would stall the page; the results download has them all.
const SHOWN_ROWS: usize = 200;

/// The table; with the run's id each case's id opens it on the Audit page (its claims,
/// findings and transcript, kept with the run: no new calls).
fn case_table(lines: &[String], run: Option<String>) -> Option<AnyView> {
    let rows = case_rows(lines);
    if rows.is_empty() {
        return None;
    }
    let failed = rows.iter().filter(|r| r.failure.is_some()).count();
    let caption = if rows.len() > SHOWN_ROWS {
        format!(
            "{} results, {failed} could not be audited (failed first; the first {SHOWN_ROWS} shown, the download has all)",
            rows.len()
        )
    } else {
        format!(
            "{} results, {failed} could not be audited (failed first)",
            rows.len()
        )
    };
    let body: Vec<AnyView> = rows
        .into_iter()
        .take(SHOWN_ROWS)
        .map(|r| {
            let failed = r.failure.is_some();
            let status = r.status();
            let id = match &run {
                Some(run) => {
                    let href = crate::ui::links::case_href(run, &r.id, &r.profile);
                    let title = format!(
                        "Open case {} ({}) like a single audit: claims, findings, transcript",
                        r.id, r.profile
                    );
                    let to = href.clone();
                    view! {
                        <a href=href title=title data-testid="batch-case-open" on:click=move |ev| open_here(ev, &to)>
                            {r.id}
                        </a>
                    }
                    .into_any()
                }
                None => r.id.into_any(),
            };
            view! {
                <tr data-testid="batch-case-row" data-status=status class:error=failed>
                    <td>{id}</td>
                    <td>{r.profile}</td>
                    <td>{status}</td>
                    <td class="num">{r.score.map(|s| s.to_string()).unwrap_or_default()}</td>
                    <td>{r.band.unwrap_or_default()}</td>
                    <td data-testid="batch-case-reason">{r.failure.unwrap_or_default()}</td>
                </tr>
            }
            .into_any()
        })
        .collect();
    Some(
        view! {
            <details class="batch-cases" data-testid="batch-cases-table" open={failed > 0}>
                <summary>{caption}</summary>
                <div class="table-wrap">
                    <table>
                        <thead><tr><th>"id"</th><th>"profile"</th><th>"status"</th><th>"score"</th><th>"band"</th><th>"why it could not be audited"</th></tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
            </details>
        }
        .into_any(),
    )
}
