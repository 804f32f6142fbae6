//! The Audit report's JSON: show it, copy it, download it.

use leptos::prelude::*;

use crate::ui::boxed::on_click;
use crate::ui::download::download_text;

/// A plain function rather than a component (each component has its own props code).
pub fn report_json(json: String) -> AnyView {
    let show_raw = RwSignal::new(false);
    let copied = RwSignal::new(None::<String>);
    let json_for_copy = json.clone();
    let json_for_download = json.clone();
    let copy = move |_| {
        let Some(clipboard) = web_sys::window().map(|w| w.navigator().clipboard()) else {
            return;
        };
        let _ = clipboard.write_text(&json_for_copy);
        copied.set(Some("Copied.".into()));
    };
    let download = move |_| {
        if let Err(e) = download_text("audit-report.json", "application/json", &json_for_download) {
            copied.set(Some(e));
        }
    };
    view! {
        <div class="row">
            <button on:click=on_click(move |_| show_raw.update(|v| *v = !*v))>
                {move || String::from(if show_raw.get() { "Hide raw JSON" } else { "Show raw JSON" })}
            </button>
            <button on:click=on_click(copy)>"Copy JSON"</button>
            <button data-testid="audit-download" on:click=on_click(download)>"Download JSON"</button>
            <span class="muted">{move || copied.get().unwrap_or_default()}</span>
        </div>
        {move || show_raw.get().then(|| view! { <pre data-testid="audit-raw">{json.clone()}</pre> }.into_any())}
    }
    .into_any()
}
