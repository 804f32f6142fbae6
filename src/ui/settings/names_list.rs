//! A keyed list over names (the Settings page's LLMs and profiles), through the app's one
//! keyed list.

use std::sync::Arc;

use leptos::prelude::*;

use crate::ui::keyed::{keyed_rows, Row};

pub type Names = Arc<dyn Fn() -> Vec<String> + Send + Sync>;
pub type NamedRow = Arc<dyn Fn(String) -> AnyView + Send + Sync>;

#[inline(never)]
pub fn names_list(each: Names, row: NamedRow) -> AnyView {
    keyed_rows(
        Arc::new(move || each().into_iter().map(Row::Name).collect()),
        |r| match r {
            Row::Name(n) => n.clone(),
            _ => String::new(),
        },
        Arc::new(move |r| match r {
            Row::Name(n) => row(n),
            _ => ().into_any(),
        }),
    )
}
