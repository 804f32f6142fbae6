//! The Runs page: every kept run (audits, batches, grade uploads, report inputs), newest
//! first, filtered by kind (`runs?filter=batch`); rename, delete, export, import; and how
//! much of the browser's storage they take. What is listed and how is `crate::runs`.

use leptos::prelude::*;

use crate::ui::options::options;

use crate::ui::boxed::on_change;
use leptos::task::spawn_local;

use crate::runs::{self, RunKind, RunMeta};
use crate::ui::keyed::{keyed_rows, Row};
use crate::ui::query;
use crate::ui::run_import::RunImport;
use crate::ui::run_row::RunRow;
use crate::ui::run_store;
use std::sync::Arc;

fn kind_of(filter: Option<&str>) -> Option<RunKind> {
    filter.and_then(RunKind::parse)
}

fn kind_name(kind: Option<RunKind>) -> String {
    kind.map_or(String::new(), |k| k.as_str().to_string())
}

#[component]
pub fn RunsPage() -> impl IntoView {
    let all = RwSignal::new(Vec::<RunMeta>::new());
    let loaded = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let storage = RwSignal::new(None::<String>);
    // The kind filter as its name ("" for all): a `String` signal, a type other pages use too.
    let kind = RwSignal::new(kind_name(kind_of(query::current().filter.as_deref())));
    let kind_now = move || RunKind::parse(&kind.get());

    let refresh = Callback::new(move |()| {
        spawn_local(async move {
            match run_store::list().await {
                Ok((runs, bad)) => {
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

    // The filter is in the URL (`runs?filter=audit`); back/forward follow it. Written where
    // the filter changes rather than by an `Effect` (each effect costs its own code).
    let sync_url = move || {
        let mut v = query::current();
        v.filter = kind_now().map(|k| k.as_str().to_string());
        query::set(&v, false);
    };
    sync_url();
    query::on_history_move(move |v| {
        kind.set(kind_name(kind_of(v.filter.as_deref())));
        sync_url();
    });

    // Plain derived values rather than a `Memo` (each memo costs its own copy of the code).
    let shown = move || all.with(|r| runs::list_view(r, kind_now()));

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
                        on:change=on_change(move |ev| {
                            kind.set(kind_name(RunKind::parse(&event_target_value(&ev))));
                            sync_url();
                        })
                    >
                        <option value="">"all"</option>
                        {options(RunKind::ALL.iter().map(|k| k.as_str().to_string()).collect())}
                    </select>
                </label>
                <RunImport taken=all on_import=refresh/>
            </div>
            {move || error.get().map(|e| view! { <div class="error" role="alert" data-testid="runs-error">{e}</div> }.into_any())}
            {move || {
                (loaded.get() && shown().is_empty())
                    .then(|| view! { <p class="muted" data-testid="runs-empty">"No runs kept yet."</p> }.into_any())
            }}
            <div class="table-wrap">
            <table data-testid="runs-table">
                <thead>
                    <tr>
                        <th>"Name"</th>
                        <th>"Kind"</th>
                        <th>"Created"</th>
                        <th>"Duration"</th>
                        <th>"Profiles"</th>
                        <th>"Results"</th>
                        <th>"Actions"</th>
                    </tr>
                </thead>
                <tbody>
                    {keyed_rows(
                        Arc::new(move || shown().into_iter().map(|m| Row::Run(Box::new(m))).collect()),
                        |r| match r {
                            Row::Run(m) => format!("{}\u{1f}{}", m.id, m.name),
                            _ => String::new(),
                        },
                        Arc::new(move |r| match r {
                            Row::Run(m) => view! { <RunRow meta=*m on_change=refresh/> }.into_any(),
                            _ => ().into_any(),
                        }),
                    )}
                </tbody>
            </table>
            </div>
        </section>
    }
}
