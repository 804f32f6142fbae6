//! Browser views (Leptos 0.8, client-side rendered). Views stay thin: every decision
//! lives in the pure modules and is tested natively.
//!
//! One component per file; pages in `pages/`.
//!
//! Loops and optional parts of a view end in `.into_any()` (giving `Vec<AnyView>` or
//! `Option<AnyView>`), and a reactive closure returns one of those or an `AnyView`: every
//! distinct `Vec<View<…>>` or `Option<View<…>>` type gets its own copy of Leptos's render
//! code in the wasm (1–2 KB each), while all the `AnyView` ones share a single copy.
//! For the same reason reactive text and attribute values are `String`s (a fixed label as
//! `String::from("…")`, a number as `.to_string()`) rather than `&str`, `f64` or `u32`, and a
//! reactive child is written as a closure in place (`{move || table()}`, not `{table}`): the
//! macro routes in-place closures through one shared wrapper, a named one gets its own code.
//! Every `<For>` is keyed by a `String` and yields `AnyView` rows, so Leptos's keyed-list
//! diffing (about 4 KB) exists once rather than once per key type.

pub mod answer_math;
mod app;
pub mod audit_run;
pub mod batch_run;
pub mod batch_runner;
pub mod boxed;
pub mod browser_file;
pub mod compare;
pub mod download;
pub mod drafts_store;
pub mod extract;
pub mod fallback_batch;
pub mod fallback_batch_panel;
pub mod fallback_single;
pub mod fallback_single_view;
pub mod footer;
pub mod grade_row;
pub mod grade_row_detail;
pub mod grade_run;
pub mod grade_table;
pub mod keyed;
pub mod math_preview;
pub mod math_text;
pub mod nav;
pub mod number_check;
pub mod options;
pub mod pager;
pub mod pages;
pub mod proof_bundle;
pub mod proof_dag;
pub mod proof_fitch;
pub mod proof_form;
pub mod proof_host;
pub mod proof_panels;
pub mod query;
pub mod report;
pub mod research_panel;
pub mod reveal;
pub mod router;
pub mod run_file;
pub mod run_import;
pub mod run_row;
pub mod run_store;
pub mod runs_table;
pub mod search_box;
pub mod settings_store;
pub mod sort_header;
pub mod test_connection;
pub mod text_field;
pub mod theme;
pub mod theme_toggle;
pub mod verify_model;

pub use app::App;

/// Entry point called by `main` on wasm32.
pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
