//! One side of a comparison: a results file or a kept run (or, for side B, the same as A)
//! and which of its profiles takes part. Its picker is `side_picker`; what it decides is
//! `view::compare::side`.

use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::band::compare::RunLines;
use crate::ui::browser_file::read_slice;
use crate::ui::run_file;
use crate::view::compare::side::keeps_profile;
use crate::view::compare::side::read_side;
use crate::view::report::load::DEMO_RESULTS;

/// What a side holds. `run` is `None` until a file is read (side B then uses A's).
#[derive(Clone, Copy)]
pub struct Side {
    pub run: RwSignal<Option<Arc<RunLines>>>,
    /// The chosen profile; empty = every line.
    pub profile: RwSignal<String>,
    /// The kept run shown (its id, as in the URL); empty = a picked file or nothing.
    pub kept: RwSignal<String>,
    pub error: RwSignal<Option<String>>,
    /// The bundled demo is on this side (`compare?example=demo`).
    pub demo: RwSignal<bool>,
    /// The file `run` was read from, read again for an opened case's line (its texts and
    /// kept report), so the whole text is not held while nobody looks at a case.
    pub file: StoredValue<Option<web_sys::File>, LocalStorage>,
}

impl Default for Side {
    fn default() -> Self {
        Self::new()
    }
}

impl Side {
    pub fn new() -> Self {
        Side {
            run: RwSignal::new(None),
            profile: RwSignal::new(String::new()),
            kept: RwSignal::new(String::new()),
            error: RwSignal::new(None),
            demo: RwSignal::new(false),
            file: StoredValue::new_local(None),
        }
    }

    /// Show kept run `id` (from the run store) on this side; empty: none (B then uses A's).
    pub fn load_kept(self, id: String) {
        self.demo.set(false);
        self.kept.set(id.clone());
        if id.is_empty() {
            self.file.set_value(None);
            self.run.set(None);
            self.error.set(None);
            return;
        }
        spawn_local(async move {
            match run_file::open(&id).await {
                // A later choice wins over this one.
                Ok((_, f)) if self.kept.get_untracked() == id => self.load(f),
                Ok(_) => {}
                Err(e) => {
                    self.file.set_value(None);
                    self.run.set(None);
                    self.error.set(Some(format!("Kept run {id}: {e}")));
                }
            }
        });
    }

    /// Show the bundled demo results on this side.
    pub fn load_demo(self) {
        self.kept.set(String::new());
        self.demo.set(true);
        spawn_local(async move {
            let file = crate::ui::browser_file::fetch_example(DEMO_RESULTS)
                .await
                .and_then(|text| {
                    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(&text));
                    web_sys::File::new_with_str_sequence(&parts, DEMO_RESULTS)
                        .map_err(|_| "the demo could not be opened".to_string())
                });
            match file {
                Ok(f) if self.demo.get_untracked() => self.load(f),
                Ok(_) => {}
                Err(e) => self.error.set(Some(e)),
            }
        });
    }

    /// Read a file as this side's input, or say why it cannot be one.
    pub fn load(self, f: web_sys::File) {
        self.error.set(None);
        spawn_local(async move {
            let bytes = read_slice(&f, 0.0, f.size()).await;
            match read_side(f.name(), bytes) {
                Ok(r) => {
                    if !keeps_profile(&r, &self.profile.get_untracked()) {
                        self.profile.set(String::new());
                    }
                    self.file.set_value(Some(f));
                    self.run.set(Some(Arc::new(r)));
                }
                Err(e) => {
                    self.file.set_value(None);
                    self.run.set(None);
                    self.error.set(Some(e));
                }
            }
        });
    }
}
