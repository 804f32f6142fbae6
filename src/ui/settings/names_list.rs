//! A keyed list over names (the Settings page's LLMs and profiles), through the app's one
//! keyed list.

use std::sync::Arc;

use leptos::prelude::*;

use crate::ui::keyed::keyed_rows;

pub type Names = Arc<dyn Fn() -> Vec<String> + Send + Sync>;
pub type NamedRow = Arc<dyn Fn(String) -> AnyView + Send + Sync>;

#[inline(never)]
pub fn names_list(each: Names, row: NamedRow) -> AnyView {
    keyed_rows(
        Arc::new(move || each()),
        String::clone,
        Arc::new(move |n| row(n)),
    )
}
