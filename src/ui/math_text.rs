//! Model text on a page: prose as escaped text, `$…$` math through the one KaTeX binding.
use leptos::prelude::*;

use crate::katex;
use crate::mathtext::{split, Segment};

/// Mixed prose and LaTeX: text parts as escaped text, math parts through KaTeX.
/// KaTeX's output is the only HTML this app ever injects; a formula KaTeX cannot take
/// (too long, KaTeX missing) is shown as its escaped source.
#[component]
pub fn MathText(#[prop(into)] text: Signal<String>) -> impl IntoView {
    view! {
        <span class="math-text">
            {move || split(&text.get()).into_iter().map(render_segment).collect_view()}
        </span>
    }
}

fn render_segment(segment: Segment) -> AnyView {
    match segment {
        Segment::Text(t) => view! { <span>{t}</span> }.into_any(),
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
