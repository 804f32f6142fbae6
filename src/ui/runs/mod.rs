//! The Runs page: every kept run (audits, batches, grade uploads, report inputs): filter by
//! kind, search, sort by any column, 50 a page, all of it in the URL
//! (`runs?kind=batch&filter=cases&sort=-results&page=2`); rename, delete, export, import; and
//! how much of the browser's storage they take. What is listed and how is
//! `crate::view::runs::listing`.

pub mod import;
pub mod table;

use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::runs::{self, RunKind, RunMeta};
use crate::ui::options::options;
use crate::ui::query;
use crate::ui::run_store;
use crate::ui::search_box::SearchBox;
use crate::view::runs::listing::listing;
use crate::view::runs::listing::RunsQuery;
use import::RunImport;
use table::RunsTable;

/// The runs ticked for "Delete selected", by id (shared with each row through the context).
#[derive(Clone, Copy)]
pub struct Selected(pub RwSignal<Vec<String>>);

fn kind_name(kind: Option<RunKind>) -> String {
    kind.map_or(String::new(), |k| k.as_str().to_string())
}

#[component]
pub fn RunsPage() -> impl IntoView {
    let all = RwSignal::new(Vec::<RunMeta>::new());
    let loaded = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let storage = RwSignal::new(None::<String>);
    // The query as signals of types other pages use too (each signal type costs its own copy
    // of the reactive code): the kind by its name ("" for all).
    let start = RunsQuery::from_view(&query::current());
    let kind = RwSignal::new(kind_name(start.kind));
    let search = RwSignal::new(start.search);
    let regex = RwSignal::new(start.regex);
    let sort = RwSignal::new(start.sort);
    let page = RwSignal::new(start.page);
    let q = move || RunsQuery {
        kind: RunKind::from_name(&kind.get()),
        search: search.get(),
        regex: regex.get(),
        sort: sort.get(),
        page: page.get(),
    };

    let selected = RwSignal::new(Vec::<String>::new());
    provide_context(Selected(selected));
    let refresh = Callback::new(move |()| {
        spawn_local(async move {
            match run_store::list().await {
                Ok((runs, bad)) => {
                    // A ticked run that is gone is no longer selected.
                    selected.update(|s| s.retain(|id| runs.iter().any(|m| &m.id == id)));
                    all.set(runs);
                    error.set(
                        bad.first()
                            .map(|e| format!("{} kept run(s) could not be read: {e}", bad.len())),
                    );
                }
                Err(e) => error.set(Some(e.to_string())),
            }
            loaded.set(true);
            storage.set(
                run_store::estimate()
                    .await
                    .map(|(usage, quota)| runs::storage_summary(usage, quota)),
            );
        })
    });
    refresh.run(());

    // The URL follows the view, in place (typing a search must not fill the history), and
    // back/forward set the view from the URL.
    Effect::new(move |_| {
        let mut v = query::current();
        q().to_view(&mut v);
        query::set(&v, false);
    });
    query::on_history_move(move |v| {
        let w = RunsQuery::from_view(&v);
        kind.set(kind_name(w.kind));
        search.set(w.search);
        regex.set(w.regex);
        sort.set(w.sort);
        page.set(w.page);
    });

    // A plain derived value rather than a `Memo` (each memo type costs its own copy of the code).
    let shown = Arc::new(move || all.with(|r| listing(r, &q())));

    view! {
        <section data-testid="page-runs" class="stack">
            <h1>"Runs"</h1>
            <p class="lead">
                "Every audit, batch, grade upload and report input is kept here, in this browser only (IndexedDB), without API keys. Export a run to keep it elsewhere or move it to another browser; import one back."
            </p>
            <p class="muted" data-testid="runs-storage">
                {move || storage.get().unwrap_or_else(|| String::from("Storage use: unknown in this browser."))}
            </p>
            <div class="row">
                <label>
                    "Kind "
                    <select
                        data-testid="runs-filter"
                        prop:value=move || kind.get()
                        on:change=move |ev| {
                            kind.set(kind_name(RunKind::from_name(&event_target_value(&ev))));
                            page.set(0);
                        }
                    >
                        <option value="">"all"</option>
                        {options(RunKind::ALL.iter().map(|k| k.as_str().to_string()).collect())}
                    </select>
                </label>
                <SearchBox
                    testid="runs-search"
                    placeholder="search names, kinds, profiles, ids"
                    text=search
                    regex=regex
                    set_text=Callback::new(move |t| {
                        search.set(t);
                        page.set(0);
                    })
                    set_regex=Callback::new(move |r| {
                        regex.set(r);
                        page.set(0);
                    })
                />
                <RunImport taken=all on_import=refresh/>
                {move || (!selected.with(Vec::is_empty)).then(|| view! {
                    <button data-testid="runs-delete-selected" on:click=move |_| delete_selected(selected, error, refresh)>
                        {move || format!("Delete selected ({})", selected.with(Vec::len))}
                    </button>
                    <button class="link" data-testid="runs-select-none" on:click=move |_| selected.set(Vec::new())>"Select none"</button>
                }.into_any())}
            </div>
            {move || error.get().map(|e| view! { <div class="error" role="alert" data-testid="runs-error">{e}</div> }.into_any())}
            <RunsTable
                shown=shown
                searching=Signal::derive(move || !search.with(|s| s.trim().is_empty()))
                sort=sort
                page=page
                loaded=loaded
                on_change=refresh
            />
        </section>
    }
}

/// Delete every ticked run, after asking once; a run that could not be deleted is named.
fn delete_selected(
    selected: RwSignal<Vec<String>>,
    error: RwSignal<Option<String>>,
    refresh: Callback<()>,
) {
    let ids = selected.get_untracked();
    let sure = window()
        .confirm_with_message(&format!(
            "Delete {} runs and their results from this browser? Export them first to keep a copy.",
            ids.len()
        ))
        .unwrap_or(false);
    if !sure {
        return;
    }
    spawn_local(async move {
        let mut failed = Vec::new();
        for id in &ids {
            if let Err(e) = run_store::delete(id).await {
                failed.push(format!("{id}: {e}"));
            }
        }
        selected.set(Vec::new());
        if !failed.is_empty() {
            error.set(Some(format!("Could not delete {}", failed.join("; "))));
        }
        refresh.run(());
    });
}
