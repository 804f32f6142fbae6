//! Reading, grading and exporting the JSONL of the Extract page, as plain functions over the
//! batch's state so the event handlers stay one call each (compiled once; wasm size). A kept
//! grade run opened from the URL (`extract?run=<id>`) is loaded here too (`open_from_url`).

use super::controls::preset_of;
use super::fallback_batch::BatchFallback;
use super::grade_table::SourceFile;
use crate::extract::batch::{GradeBatch, Show};
use crate::extract::fallback_batch::FallbackQueue;
use crate::extract::{AnswerPatterns, Preset};
use crate::jsonl::Line;
use crate::route::state::ViewState;
use crate::runs::RunKind;
use crate::search::SearchQuery;
use crate::ui::browser_file::{file_stem, stream_lines};
use crate::ui::download::download_text;
use crate::ui::query;
use crate::ui::run_store;
use crate::view::extract::kept::batch_from_kept;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;

/// Bytes per `File.slice`: grading one chunk stays well under 100 ms.
const CHUNK_BYTES: f64 = 512.0 * 1024.0;

/// The JSONL half of the page: its signals, in one `Copy` value for handlers and views.
#[derive(Clone, Copy)]
pub struct BatchState {
    pub patterns: Memo<AnswerPatterns>,
    pub batch: RwSignal<Option<Arc<GradeBatch>>>,
    pub file_name: RwSignal<String>,
    /// (bytes read, file size) while loading.
    pub progress: RwSignal<Option<(f64, f64)>>,
    /// (lines graded, milliseconds spent grading); the same type as `progress` (wasm size).
    pub timing: RwSignal<Option<(f64, f64)>>,
    pub error: RwSignal<Option<String>>,
    pub loading: RwSignal<bool>,
    pub strict: RwSignal<bool>,
    pub show: RwSignal<Show>,
    pub query: Memo<SearchQuery>,
    pub fallback: BatchFallback,
    /// The file and its BOM, so an opened row can be read back (rows keep no line text).
    pub file: SourceFile,
    pub bom: StoredValue<u64>,
    /// What the table is when it is a kept run opened from the store (`open_from_url` below).
    pub kept: RwSignal<Option<String>>,
}

fn feed(batch: &mut GradeBatch, queue: &mut FallbackQueue, l: Line) {
    match l.text {
        Ok(t) => {
            batch.push_line_at(l.number, l.offset, &t);
            queue.note_last(batch, &t);
        }
        Err(e) => batch.bad_line(l.number, e.to_string()),
    }
}

/// Grades the file chunk by chunk; returns the batch, its low-confidence lines (for the LLM
/// fallback), the milliseconds spent grading and the BOM length (line offsets count from
/// after it).
async fn grade_file(
    file: &web_sys::File,
    preset: Preset,
    patterns: AnswerPatterns,
    progress: RwSignal<Option<(f64, f64)>>,
) -> Result<(GradeBatch, FallbackQueue, f64, u64), String> {
    let mut batch = GradeBatch::new(preset, patterns);
    let mut queue = FallbackQueue::default();
    let (bom, busy_ms) = stream_lines(
        file,
        CHUNK_BYTES,
        &mut |read, total| progress.set(Some((read, total))),
        &mut |l| feed(&mut batch, &mut queue, l),
    )
    .await?;
    Ok((batch, queue, busy_ms, bom))
}

impl BatchState {
    /// A picked file: grade it (one file at a time).
    #[inline(never)]
    pub fn load(self, f: web_sys::File) {
        if self.loading.get_untracked() {
            return;
        }
        self.error.set(None);
        self.kept.set(None);
        // A new file is not the kept run the URL names; its own run id replaces it once kept.
        if query::current().run.is_some() {
            let v = ViewState {
                run: None,
                ..query::current()
            };
            query::set(&v, false);
        }
        self.fallback.reset();
        self.batch.set(None);
        self.timing.set(None);
        self.file_name.set(f.name());
        self.file.set_value(Some(f.clone()));
        self.loading.set(true);
        let preset = preset_of(self.strict.get_untracked());
        let patterns = self.patterns.get_untracked();
        let started = js_sys::Date::now();
        spawn_local(async move {
            match grade_file(&f, preset, patterns, self.progress).await {
                Ok((mut b, queue, ms, bom_bytes)) => {
                    self.bom.set_value(bom_bytes);
                    self.timing.set(Some((b.rows.len() as f64, ms)));
                    // Kept (or its earlier run reused) before the model is asked, so every
                    // answer lands in the run.
                    let kept = super::grade_run::keep(f.name(), &mut b, started, self.error).await;
                    self.kept.set(kept.reused);
                    self.fallback.run.set_value(kept.meta);
                    let counts = crate::view::extract::kept::fallback_counts(&b);
                    self.fallback.graded(b, queue);
                    if !self.fallback.running.get_untracked() && counts.is_some() {
                        self.fallback.counts.set(counts);
                    }
                }
                Err(e) => self.error.set(Some(e)),
            }
            self.loading.set(false);
        });
    }

    /// Downloads the rows the filter and search keep, as CSV or as JSONL.
    #[inline(never)]
    pub fn export(self, csv: bool) {
        let Some(b) = self.batch.get_untracked() else {
            return;
        };
        let stem = file_stem(&self.file_name.get_untracked(), "graded");
        let (s, q) = (self.show.get_untracked(), self.query.get_untracked());
        let result = if csv {
            download_text(&format!("{stem}.graded.csv"), "text/csv", &b.to_csv(s, &q))
        } else {
            download_text(
                &format!("{stem}.graded.jsonl"),
                "application/x-ndjson",
                &b.to_jsonl(s, &q),
            )
        };
        if let Err(e) = result {
            self.error.set(Some(e));
        }
    }
}

// `extract?run=<id>` (Runs → Open on a grade run, or a reload after an upload): the kept
// grade run back in the table, as graded then (`view::extract::kept`).

impl BatchState {
    /// Open the kept grade run the URL names; a bare `extract` (the nav link) reopens the
    /// newest grade run, so coming back to the page finds the last table (docs/runs.md).
    pub fn open_from_url(self) {
        let named = query::current().run;
        // Only a named run blocks a file pick while it loads; the newest run is looked up
        // without it, and a file picked meanwhile wins.
        if named.is_some() {
            self.loading.set(true);
        }
        spawn_local(async move {
            let id = match named {
                Some(id) => id,
                None => match newest_grade_run().await {
                    // A file picked meanwhile wins.
                    Some(id)
                        if self.batch.with_untracked(Option::is_none)
                            && !self.loading.get_untracked() =>
                    {
                        // The table's search, filter and sort in the URL stay.
                        let v = ViewState {
                            run: Some(id.clone()),
                            ..query::current()
                        };
                        query::set(&v, false);
                        id
                    }
                    _ => return,
                },
            };
            self.loading.set(true);
            match run_store::load(&id).await {
                Ok(run) if run.meta.kind == RunKind::Grade => {
                    let batch = batch_from_kept(&run.results);
                    self.kept.set(Some(format!(
                        "Kept run “{}”: the verdicts as they were graded. The run keeps verdicts, \
                         not the texts they judged: pick the file again to open a line's text or \
                         to ask the verify model.",
                        run.meta.name
                    )));
                    // Downloads are named after the file graded, as after an upload.
                    let file = run.meta.read_inputs().file;
                    self.file_name
                        .set(file.unwrap_or_else(|| run.meta.name.clone()));
                    self.file.set_value(None);
                    // What the model did is part of the run: the same summary as when it ran.
                    let counts = crate::view::extract::kept::fallback_counts(&batch);
                    self.fallback.graded(batch, FallbackQueue::default());
                    self.fallback.counts.set(counts);
                    self.fallback.run.set_value(Some(run.meta.clone()));
                }
                Ok(run) => self.error.set(Some(format!(
                    "Run {id} is a {} run, not a grade upload: open it from the Runs page.",
                    run.meta.kind.as_str()
                ))),
                Err(e) => self
                    .error
                    .set(Some(format!("The kept run could not be opened: {e}."))),
            }
            self.loading.set(false);
        });
    }
}

async fn newest_grade_run() -> Option<String> {
    let (runs, _) = run_store::list().await.ok()?;
    crate::runs::newest_first(&runs, Some(RunKind::Grade))
        .first()
        .map(|m| m.id.clone())
}
