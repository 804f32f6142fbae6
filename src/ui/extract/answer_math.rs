//! An extracted answer in a grade row: a number as text, anything else through KaTeX.
use leptos::prelude::*;

use crate::katex;
use crate::ui::math_text::katex_ready;
use crate::view::extract::row_detail::is_plain_number;

/// An extracted answer as the grade table and the opened row show it: a plain number as
/// text, anything else through KaTeX (the one binding, `trust: false`). When KaTeX cannot
/// take it (a parse error, too long, not loaded) the raw answer is shown as escaped text, so
/// a hostile or broken answer never breaks the row. `None` is "no answer".
pub fn answer_math(answer: Option<String>) -> AnyView {
    let Some(a) = answer else {
        return view! { <span class="muted">"—"</span> }.into_any();
    };
    let text = a.clone();
    if is_plain_number(&a) {
        return view! { <code data-answer=a>{text}</code> }.into_any();
    }
    (move || math_answer(a.clone(), katex_ready())).into_any()
}

/// A non-number answer: its source until KaTeX has loaded, then KaTeX's rendering.
fn math_answer(a: String, katex_ready: bool) -> AnyView {
    let text = a.clone();
    if !katex_ready {
        return view! { <code class="math pending" data-answer=a>{text}</code> }.into_any();
    }
    let failed = match katex::render(&a, false) {
        // `throwOnError: false` renders a parse error as a red `katex-error` span of the
        // source; the raw text in our own style reads better and is the same information.
        Ok(html) if !html.contains("katex-error") => {
            return view! { <span class="math" data-answer=a inner_html=html></span> }.into_any()
        }
        Ok(_) => String::from("not valid LaTeX"),
        Err(e) => e.to_string(),
    };
    view! { <code class="math-error" data-answer=a title=failed>{text}</code> }.into_any()
}
