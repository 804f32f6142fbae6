//! Model text on a page: prose as escaped text, `$…$` math through the one KaTeX binding.
use leptos::prelude::*;

use crate::katex;
use crate::mathtext::{split, Segment};

thread_local! {
    /// Whether KaTeX has loaded, for this bundle. A reference-counted signal: it outlives every
    /// component that reads it.
    static KATEX_READY: ArcRwSignal<bool> = {
        let ready = ArcRwSignal::new(katex::is_loaded());
        if !ready.get_untracked() {
            let set = ready.clone();
            leptos::task::spawn_local(async move {
                match katex::load().await {
                    Ok(()) => set.set(true),
                    Err(e) => leptos::logging::warn!("{e}: formulas are shown as their source"),
                }
            });
        }
        ready
    };
}

/// Whether KaTeX has loaded; the first call starts loading it. Read inside a reactive
/// closure, the closure runs again once it has loaded (formulas show their source until then).
pub fn katex_ready() -> bool {
    KATEX_READY.with(|ready| ready.get())
}

/// Start loading KaTeX now (the app calls it once it has mounted).
pub fn start_loading_katex() {
    KATEX_READY.with(|_| ());
}

/// Mixed prose and LaTeX: text parts as escaped text, math parts through KaTeX.
/// KaTeX's output is the only HTML this app ever injects; a formula KaTeX cannot take
/// (too long, KaTeX missing) is shown as its escaped source.
#[component]
pub fn MathText(#[prop(into)] text: Signal<String>) -> impl IntoView {
    view! {
        <span class="math-text">
            {move || {
                let ready = katex_ready();
                split(&text.get()).into_iter().map(|s| render_segment(s, ready)).collect_view()
            }}
        </span>
    }
}

fn render_segment(segment: Segment, katex_ready: bool) -> AnyView {
    match segment {
        Segment::Text(t) => view! { <span>{t}</span> }.into_any(),
        Segment::Math { tex, .. } if !katex_ready => {
            view! { <span class="math pending">{tex}</span> }.into_any()
        }
        Segment::Math { tex, display } => match katex::render(&tex, display) {
            Ok(html) => {
                let class = if display { "math display" } else { "math" };
                view! { <span class=class inner_html=html></span> }.into_any()
            }
            Err(e) => {
                view! { <code class="math-error" title=e.to_string()>{tex}</code> }.into_any()
            }
        },
    }
}
