//! Pick or drop a results file, with the read's progress and timing.

use leptos::prelude::*;

use crate::ui::browser_file::picked_file;

pub fn file_picker(
    on_file: Callback<web_sys::File>,
    progress: RwSignal<Option<(f64, f64)>>,
    timing: RwSignal<Option<String>>,
    file_name: RwSignal<String>,
) -> AnyView {
    let on_pick = move |ev: web_sys::Event| {
        if let Some(f) = picked_file(&ev) {
            on_file.run(f);
        }
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let f = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|fs| fs.get(0));
        if let Some(f) = f {
            on_file.run(f);
        }
    };
    view! {
        <div
            class="card dropzone"
            on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
            on:drop=on_drop
        >
            <label>
                "Results JSONL "
                <input type="file" accept=".jsonl,.json,.txt" data-testid="report-file" on:change=on_pick />
            </label>
            <span class="muted">"…or drop the file here."</span>
            {move || {
                progress.get().map(|(done, total)| {
                    view! {
                        <div class="stack">
                            <progress
                                data-testid="report-progress"
                                max=format!("{}", total.max(1.0))
                                value=format!("{}", done)
                            ></progress>
                            <span class="muted">
                                {format!("{} — {:.1} / {:.1} MB", file_name.get(), done / 1e6, total / 1e6)}
                            </span>
                        </div>
                    }
                    .into_any()
                })
            }}
            {move || timing.get().map(|t| view! { <span class="muted" data-testid="report-timing">{t}</span> }.into_any())}
        </div>
    }
    .into_any()
}
