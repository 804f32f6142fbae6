//! Browser views (Leptos 0.8, client-side rendered). Views stay thin: every decision
//! lives in the pure modules and is tested natively.
//!
//! One component per file; pages in `pages/`.

mod app;
pub mod batch_runner;
pub mod browser_file;
pub mod download;
pub mod footer;
pub mod math_preview;
pub mod math_text;
pub mod nav;
pub mod pages;
pub mod proof_dag;
pub mod proof_panels;
pub mod research_panel;
pub mod router;
pub mod settings_store;
pub mod test_connection;
pub mod text_field;
pub mod theme;
pub mod theme_toggle;

pub use app::App;

/// Entry point called by `main` on wasm32.
pub fn mount() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}
