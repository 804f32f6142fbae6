//! Browser views (Leptos 0.8, client-side rendered). Views stay thin: every decision
//! lives in the pure modules and is tested natively.
//!
//! One folder per page (`ui/<page>/`, the page in its `mod.rs`); a part used by one file lives in
//! that file, a larger unit in a file of its own beside it. Widgets and stores two pages use
//! (router, run store, settings store, pickers, pager, the links between Audit and Report) are
//! here at `ui/`, never in one page's folder.
//!
//! Loops and optional parts of a view end in `.into_any()` (giving `Vec<AnyView>` or
//! `Option<AnyView>`), and a reactive closure returns one of those or an `AnyView`: every
//! distinct `Vec<View<…>>` or `Option<View<…>>` type gets its own copy of Leptos's render
//! code in the wasm (1–2 KB each), while all the `AnyView` ones share a single copy.
//! For the same reason reactive text and attribute values are `String`s (a fixed label as
//! `String::from("…")`, a number as `.to_string()`) rather than `&str`, `f64` or `u32`, and a
//! reactive child is written as a closure in place (`{move || table()}`, not `{table}`): the
//! macro routes in-place closures through one shared wrapper, a named one gets its own code.
//! Every keyed list goes through `keyed::keyed_rows` (`String` keys, `AnyView` rows), generic
//! over its row type.

mod app;
pub mod audit;
pub mod boxed;
pub mod browser_file;
pub mod compare;
pub mod download;
pub mod drafts_store;
pub mod dynamic;
pub mod extract;
pub mod finding_group;
pub mod footer;
pub mod icons;
pub mod keyed;
pub mod links;
pub mod local_time;
pub mod math_text;
pub mod nav;
pub mod not_found;
pub mod options;
pub mod pager;
pub mod proof;
pub mod query;
pub mod report;
pub mod router;
pub mod run_file;
pub mod run_store;
pub mod runs;
pub mod search_box;
pub mod settings;
pub mod settings_store;
pub mod sort_header;
pub mod text_field;
pub mod theme;
pub mod theme_toggle;

pub use app::App;

/// Entry point called by `main` on wasm32.
pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
    // KaTeX downloads once the app runs, not beside its wasm (`katex::load`).
    math_text::start_loading_katex();
}
