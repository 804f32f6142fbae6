//! Loading the Report page's file: a picked file or a kept run is read in chunks and
//! evaluated; a picked file becomes a kept run so a reload shows it again. What the page opens
//! on arrival and the timing words are `view::report::load`.

use super::read;
use super::state::ReportState;
use crate::route::state::ViewState;
use crate::ui::browser_file::now_ms;
use crate::ui::query;
use crate::ui::run_file;
use crate::view::report::drill::CaseFilter;
use crate::view::report::load::read_timing;
use crate::view::report::load::report_start;
use crate::view::report::load::ReportStart;
use crate::view::report::load::{DEMO, DEMO_RESULTS};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;

/// What the page shows about loading, besides the report itself.
#[derive(Clone, Copy)]
pub struct LoadState {
    pub progress: RwSignal<Option<(f64, f64)>>,
    pub timing: RwSignal<Option<String>>,
    pub loading: RwSignal<bool>,
    /// The profile the others are compared with.
    pub baseline: RwSignal<String>,
    /// The kept run shown (None: a picked file not kept, or nothing).
    pub run: RwSignal<Option<String>>,
    pub notice: RwSignal<Option<String>>,
    /// The bundled demo is shown (`report?example=demo`): not kept as a run, marked as a demo.
    pub demo: RwSignal<bool>,
}

impl Default for LoadState {
    fn default() -> Self {
        Self::new()
    }
}

impl LoadState {
    pub fn new() -> Self {
        LoadState {
            progress: RwSignal::new(None),
            timing: RwSignal::new(None),
            loading: RwSignal::new(false),
            baseline: RwSignal::new(String::new()),
            run: RwSignal::new(None),
            notice: RwSignal::new(None),
            demo: RwSignal::new(false),
        }
    }
}

/// The page's loader: `load(file, Some(run id))` shows a kept run, `load(file, None)` a
/// picked file. `apply_view` selects what the URL says once the report is there.
pub fn loader(
    s: ReportState,
    l: LoadState,
    apply_view: impl Fn(ViewState) + Copy + 'static,
) -> impl Fn(web_sys::File, Option<String>) + Copy + 'static {
    move |f: web_sys::File, from_run: Option<String>| {
        if l.loading.get_untracked() {
            return;
        }
        s.error.set(None);
        l.notice.set(None);
        s.report.set(None);
        s.open.set(None);
        s.detail.set(None);
        l.timing.set(None);
        s.filter.set(CaseFilter::default());
        let demo = l.demo.get_untracked() && from_run.is_none();
        l.demo.set(demo);
        let picked = from_run.is_none() && !demo;
        if demo {
            // The demo is bundled: nothing to keep; its URL says it is the demo.
            l.run.set(None);
            remember_source(DEMO);
            // A drilled cell or open case of the demo stays in the URL (a reload or a shared
            // link shows it again); only a kept run's id would not belong to the demo.
            let v = ViewState {
                example: Some(DEMO.into()),
                run: None,
                ..query::current()
            };
            query::set(&v, false);
        } else if let Some(id) = from_run {
            remember_source(&id);
            l.run.set(Some(id));
        } else {
            l.run.set(None);
            remember_source(&format!("file:{}", f.name()));
            query::set(&ViewState::default(), false);
        }
        s.file_name.set(f.name());
        s.file.set_value(Some(f.clone()));
        l.loading.set(true);
        spawn_local(async move {
            let t0 = now_ms();
            match read::evaluate_file(&f, l.progress).await {
                Ok((r, b)) => {
                    s.bom.set_value(b);
                    l.baseline
                        .set(r.profiles.keys().next().cloned().unwrap_or_default());
                    l.timing.set(Some(read_timing(f.size(), now_ms() - t0)));
                    if let Some(empty) = r.emptiness() {
                        s.error
                            .set(Some(format!("{}: {}", f.name(), empty.message())));
                    } else {
                        let (names, n) = (r.profiles.keys().cloned().collect(), r.cases.len());
                        let outcome = crate::runs::RunOutcome::of_report(
                            r.overall.n,
                            r.overall.cross_band_rate,
                            r.bad_line_count,
                        );
                        s.report.set(Some(Arc::new(r)));
                        apply_view(query::current());
                        // A picked file becomes a run, so a reload shows it again.
                        if picked {
                            match run_file::keep(&f, names, n, outcome).await {
                                Ok(id) => {
                                    remember_source(&id);
                                    l.run.set(Some(id))
                                }
                                Err(e) => l.notice.set(Some(format!("Not kept as a run: {e}"))),
                            }
                        }
                    }
                }
                Err(e) => s.error.set(Some(e)),
            }
            l.loading.set(false);
        });
    }
}

/// `report?run=<id>` opens that kept run; so does coming back to this page after showing one.
/// A picked file that could not be kept is named.
pub fn open_start(
    s: ReportState,
    l: LoadState,
    load: impl Fn(web_sys::File, Option<String>) + Copy + 'static,
) {
    let now = query::current();
    match report_start(now.run, now.example.as_deref(), last_source()) {
        ReportStart::Run(id) => spawn_local(async move {
            match run_file::open(&id).await {
                Ok((id, f)) => load(f, Some(id)),
                Err(e) => s.error.set(Some(e)),
            }
        }),
        ReportStart::PickAgain(note) => l.notice.set(Some(note)),
        ReportStart::Demo => open_demo(s, l, load),
        ReportStart::Nothing => {}
    }
}

/// Show the bundled demo results (fetched from `examples/`, never kept as a run).
pub fn open_demo(
    s: ReportState,
    l: LoadState,
    load: impl Fn(web_sys::File, Option<String>) + Copy + 'static,
) {
    spawn_local(async move {
        match crate::ui::browser_file::fetch_example(DEMO_RESULTS).await {
            Ok(text) => match demo_file(&text) {
                Some(f) => {
                    l.demo.set(true);
                    load(f, None);
                }
                None => s.error.set(Some("The demo could not be opened.".into())),
            },
            Err(e) => s.error.set(Some(e)),
        }
    });
}

/// The demo's text as a `File` for the chunked reader (named so the page says it is the demo).
fn demo_file(text: &str) -> Option<web_sys::File> {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    web_sys::File::new_with_str_sequence(&parts, DEMO_RESULTS).ok()
}

// What the Report page showed last (a kept run's id, or `file:<name>` for a file that
// could not be kept), so coming back to the page shows it again. The runs themselves come
// from the run store (`ui::run_file`).

/// Local-storage key of what the Report page showed last: a run id, or `file:<name>`.
const SOURCE_KEY: &str = "verifyfast.report.source";

pub fn remember_source(source: &str) {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(SOURCE_KEY, source);
    }
}

pub fn last_source() -> Option<String> {
    web_sys::window()?
        .local_storage()
        .ok()
        .flatten()?
        .get_item(SOURCE_KEY)
        .ok()
        .flatten()
}
