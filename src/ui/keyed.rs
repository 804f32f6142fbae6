//! The app's keyed list: `<For>` with `String` keys and `AnyView` rows, one function for every
//! list (the Proof page's panels, DAG and Fitch lines, Settings' LLMs and profiles, the Runs
//! table), generic over the row type.

use std::sync::Arc;

use leptos::prelude::*;

/// A keyed list: `each` gives the rows (tracked), `key` says what a row draws (a row whose key
/// is unchanged is kept as it is), `children` draws one.
#[inline(never)]
pub fn keyed_rows<T: Send + Sync + 'static>(
    each: Arc<dyn Fn() -> Vec<T> + Send + Sync>,
    key: fn(&T) -> String,
    children: Arc<dyn Fn(T) -> AnyView + Send + Sync>,
) -> AnyView {
    view! { <For each=move || each() key=key children=move |row| children(row)/> }.into_any()
}
