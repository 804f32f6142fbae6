//! VerifyFast: pure domain logic shared by the browser app and the native CLI.
//!
//! Pure modules (no `leptos`, no `web-sys`): `mathtext`, `jsonl`, `json`, `sorted_map`, `route`,
//! `search`, `table`, `tex`, `runs`, `drafts`, `extract`, `audit`, `band`, `logic`, `config`, and the transport-independent half of
//! `llm`. (`extract::real` takes `sin`, `exp`, … from JavaScript's `Math` through `js-sys` in the
//! browser build, to keep libm out of the wasm.)
//! Browser-only: `ui` (Leptos views) and `katex` (the one JS binding).
//! Native-only: `cli` (the `cli` feature, on by default; the Python package builds without it).

pub mod audit;
pub mod band;
pub mod config;
pub mod drafts;
pub mod extract;
pub mod json;
pub mod jsonl;
pub mod llm;
pub mod logic;
pub mod mathtext;
pub mod names;
pub mod route;
pub mod runs;
pub mod search;
pub mod sorted_map;
pub mod table;
pub mod tex;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod katex;
#[cfg(target_arch = "wasm32")]
pub mod ui;

#[cfg(all(not(target_arch = "wasm32"), feature = "cli"))]
pub mod cli;

/// The crate version, shown in the app footer and by `verifyfast --version`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

// The browser's allocator: talc instead of the default dlmalloc — smaller in the wasm and
// faster (measured when it was chosen). Single-threaded wasm (no atomics) only.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
