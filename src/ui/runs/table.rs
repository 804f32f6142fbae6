//! The Runs table: a header per column that sorts (the one every table uses), one row per run
//! of the page shown, how many match, and the pager. What is listed is
//! `crate::view::runs::listing`; the page owns the query.

use crate::runs::{self, RunMeta};
use crate::table::Direction;
use crate::ui::download::download_text;
use crate::ui::dynamic::memo_count;
use crate::ui::keyed::keyed_rows;
use crate::ui::local_time::local_time;
use crate::ui::pager::pager;
use crate::ui::run_store;
use crate::ui::sort_header::sort_header;
use crate::view::runs::listing::numeric;
use crate::view::runs::listing::Listing;
use crate::view::runs::listing::COLUMNS;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;

#[component]
pub fn RunsTable(
    /// The page of runs the query asks for (tracked).
    shown: Arc<dyn Fn() -> Listing + Send + Sync>,
    searching: Signal<bool>,
    sort: RwSignal<Option<(usize, Direction)>>,
    page: RwSignal<usize>,
    loaded: RwSignal<bool>,
    on_change: Callback<()>,
) -> impl IntoView {
    let (s1, s2, s3) = (shown.clone(), shown.clone(), shown.clone());
    let pages = memo_count(Box::new(move || s1().pages));
    // One message when nothing is listed: none kept of this kind, or none match the search.
    let empty = move || {
        if !loaded.get() {
            return None;
        }
        let l = s2();
        let text = if l.of_kind == 0 {
            "No runs kept yet."
        } else if l.matching == 0 {
            "No run matches the search."
        } else {
            return None;
        };
        Some(view! { <p class="muted" data-testid="runs-empty">{text}</p> }.into_any())
    };
    view! {
        <p class="muted" data-testid="runs-count">{move || s3().count_words(searching.get())}</p>
        {empty}
        <div class="table-wrap">
            <table data-testid="runs-table">
                <thead>
                    <tr>
                        {(0..COLUMNS.len())
                            .map(|c| sort_header("runs-sort", COLUMNS[c], c, numeric(c), sort, page))
                            .collect::<Vec<_>>()}
                        <th>"actions"</th>
                    </tr>
                </thead>
                <tbody>
                    {keyed_rows(
                        Arc::new(move || shown().runs),
                        |m| format!("{}\u{1f}{}", m.id, m.name),
                        Arc::new(move |m| view! { <RunRow meta=m on_change=on_change/> }.into_any()),
                    )}
                </tbody>
            </table>
        </div>
        {pager("runs-page", page, pages, "")}
    }
}

// One run on the Runs page: its name (renamed in place), what it is, and its actions.

#[component]
pub fn RunRow(meta: RunMeta, on_change: Callback<()>) -> impl IntoView {
    let editing = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    // A `RwSignal<String>` (a type other components use too) rather than a
    // `StoredValue<String>`: each signal type costs its own copy of the reactive code.
    let id = RwSignal::new(meta.id.clone());
    let name = RwSignal::new(meta.name.clone());

    let commit = move |typed: String| {
        editing.set(false);
        let Some(new_name) = runs::clean_name(&typed) else {
            return;
        };
        if new_name == name.get_untracked() {
            return;
        }
        spawn_local(async move {
            match run_store::rename(&id.get_untracked(), &new_name).await {
                Ok(_) => {
                    name.set(new_name);
                    on_change.run(());
                }
                Err(e) => error.set(Some(e.to_string())),
            }
        });
    };
    let delete = move |_| {
        let sure = window()
            .confirm_with_message(&format!(
                "Delete the run \"{}\" and its results from this browser? Export it first to keep a copy.",
                name.get_untracked()
            ))
            .unwrap_or(false);
        if !sure {
            return;
        }
        spawn_local(async move {
            match run_store::delete(&id.get_untracked()).await {
                Ok(()) => on_change.run(()),
                Err(e) => error.set(Some(e.to_string())),
            }
        });
    };
    let export = move |_| {
        spawn_local(async move {
            let file = format!(
                "{}.run.jsonl",
                crate::ui::browser_file::file_stem(&name.get_untracked(), "run")
            );
            let done = run_store::export_text(&id.get_untracked())
                .await
                .map_err(|e| e.to_string())
                .and_then(|text| download_text(&file, "application/x-ndjson", &text));
            if let Err(e) = done {
                error.set(Some(e));
            }
        });
    };

    let created = local_time(meta.created_ms);
    let profiles = meta.profiles.join(", ");
    view! {
        <tr data-testid="run-row" data-run-id=meta.id.clone() data-kind=meta.kind.as_str().to_string()>
            <td>
                {select_box(&meta)}
                {move || if editing.get() {
                    view! {
                        <input
                            type="text"
                            aria-label="Run name"
                            data-testid="run-name-input"
                            prop:value=name.get_untracked()
                            on:change=move |ev| commit(event_target_value(&ev))
                        />
                    }
                    .into_any()
                } else {
                    view! {
                        <span data-testid="run-name">{move || name.get()}</span>
                        " "
                        <button class="link" data-testid="run-rename" on:click=move |_| editing.set(true)>"Rename"</button>
                    }
                    .into_any()
                }}
                {move || error.get().map(|e| view! { <div class="error" role="alert" data-testid="run-error">{e}</div> }.into_any())}
            </td>
            <td data-testid="run-kind">{meta.kind.as_str().to_string()}</td>
            <td>{created}</td>
            <td class="num">{meta.duration()}</td>
            <td>{profiles}</td>
            <td class="num" data-testid="run-count">{meta.result_count.to_string()}</td>
            {outcome_cell(&meta)}
            <td class="row">
                <a href=meta.open_href() data-testid="run-open">"Open"</a>
                {meta.compare_href().map(|h| view! { <a href=h data-testid="run-compare">"Compare"</a> }.into_any())}
                <button data-testid="run-export" on:click=export>"Export"</button>
                <button data-testid="run-delete" on:click=delete>"Delete"</button>
            </td>
        </tr>
    }
}

/// The outcome column: how the run ended; a failed run says so in the error colour, an
/// unfinished one says it has no outcome yet.
fn outcome_cell(meta: &RunMeta) -> AnyView {
    let (text, failed) = match (&meta.outcome, meta.finished_ms) {
        (Some(o), _) => (o.text.clone(), o.failed),
        (None, None) => ("not finished".to_string(), false),
        (None, Some(_)) => (String::new(), false),
    };
    view! {
        <td data-testid="run-outcome" data-failed=failed.to_string() class:error=failed>{text}</td>
    }
    .into_any()
}

/// The row's tick for "Delete selected".
fn select_box(meta: &RunMeta) -> Option<AnyView> {
    let super::Selected(selected) = use_context::<super::Selected>()?;
    let id = meta.id.clone();
    let mine = id.clone();
    Some(
        view! {
            <input
                type="checkbox"
                data-testid="run-select"
                aria-label=format!("Select {}", meta.name)
                prop:checked=move || selected.with(|s| s.contains(&mine))
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    selected.update(|s| {
                        s.retain(|x| x != &id);
                        if on {
                            s.push(id.clone());
                        }
                    });
                }
            />
            " "
        }
        .into_any(),
    )
}
