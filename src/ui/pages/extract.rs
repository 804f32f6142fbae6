//! The Extract page: paste a solution (and optionally a ground truth and question) to see
//! the extracted answer, where it is in the text, how it was found and the verdict; or
//! upload a `grade`-format JSONL for a summary, a filterable table and exports.
//! All logic is in `crate::extract` (tested natively); this file lays it out.

use std::sync::Arc;

use leptos::prelude::*;

use crate::ui::browser_file::{file_stem, now_ms, picked_file, read_slice};
use crate::ui::drafts_store::draft_signal;
use crate::ui::text_field::TextField;
use leptos::task::spawn_local;

use crate::band::drill::bom_len;
use crate::extract::batch::{highlight, GradeBatch, Show};
use crate::extract::fallback_batch::FallbackQueue;
use crate::extract::{
    extract_with, grade_with, AnswerPatterns, Extraction, Outcome, Preset, Verdict,
};
use crate::jsonl::{Line, LineSplitter};
use crate::ui::download::download_text;
use crate::ui::fallback_batch::BatchFallback;
use crate::ui::fallback_batch_panel::BatchFallbackPanel;
use crate::ui::fallback_single::SingleFallback;
use crate::ui::grade_table::{GradeTable, SourceFile};
use crate::ui::math_preview::MathPreview;
use crate::ui::math_text::MathText;
use crate::ui::search_box::{query_memo, SearchBox};
use crate::ui::settings_store::settings_store;

/// Bytes per `File.slice`: grading one chunk stays well under 100 ms.
const CHUNK_BYTES: f64 = 512.0 * 1024.0;
/// Bad lines listed in the summary.
const BAD_LIST_LIMIT: usize = 50;

const EXAMPLE: &str = "Natalia sold 48/2 = <<48/2=24>>24 clips in May.\nNatalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.";

fn preset_of(strict: bool) -> Preset {
    if strict {
        Preset::Strict
    } else {
        Preset::Lenient
    }
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
    let total = file.size();
    let mut batch = GradeBatch::new(preset, patterns);
    let mut queue = FallbackQueue::default();
    let mut splitter = LineSplitter::default();
    let mut start = 0.0;
    let mut busy_ms = 0.0;
    let mut bom = 0;
    progress.set(Some((0.0, total)));
    while start < total {
        let end = (start + CHUNK_BYTES).min(total);
        let bytes = read_slice(file, start, end).await?;
        if start == 0.0 {
            bom = bom_len(&bytes);
        }
        let t0 = now_ms();
        splitter.push(&bytes, &mut |l| feed(&mut batch, &mut queue, l));
        busy_ms += now_ms() - t0;
        start = end;
        progress.set(Some((start, total)));
    }
    let t0 = now_ms();
    splitter.finish(&mut |l| feed(&mut batch, &mut queue, l));
    busy_ms += now_ms() - t0;
    Ok((batch, queue, busy_ms, bom))
}

/// The answer patterns of Settings, compiled once per change (tracked). Stored settings were
/// checked when read, so a failure here cannot happen; it would mean the built-in rules only.
fn settings_patterns() -> Memo<AnswerPatterns> {
    let settings = settings_store().settings;
    Memo::new(move |_| settings.with(|s| s.compiled_answer_patterns().unwrap_or_default()))
}

#[component]
pub fn ExtractPage() -> impl IntoView {
    let patterns = settings_patterns();
    let names = move || patterns.with(|p| p.names().collect::<Vec<_>>().join(", "));
    view! {
        <section data-testid="page-extract">
            <h1>"Answer extraction"</h1>
            <p class="lead">
                "Paste a solution text to pull out its final answer and grade it against a ground truth, or upload a JSONL to grade many."
            </p>
            {move || (!patterns.with(AnswerPatterns::is_empty)).then(|| view! {
                <p class="muted" data-testid="extract-patterns">
                    "Answer patterns from Settings, tried first in this order: " {names()}
                </p>
            }.into_any())}
            <SingleExtract patterns/>
            <BatchGrade patterns/>
            <MathPreview/>
        </section>
    }
}

/// One text: live extraction and, when a ground truth is given, the verdict.
#[component]
fn SingleExtract(patterns: Memo<AnswerPatterns>) -> impl IntoView {
    let text = draft_signal("extract", "text", || String::from(EXAMPLE));
    let gold = draft_signal("extract", "gold", || String::from("72"));
    let question = draft_signal("extract", "question", String::new);
    let strict = RwSignal::new(false);
    let result = Memo::new(move |_| {
        let t = text.get();
        let g = gold.get();
        let q = question.get();
        let q = (!q.trim().is_empty()).then_some(q.as_str());
        patterns.with(|p| {
            let extraction = extract_with(&t, q, p);
            let verdict =
                (!g.trim().is_empty()).then(|| grade_with(&t, &g, q, preset_of(strict.get()), p));
            (t.clone(), extraction, verdict)
        })
    });

    view! {
        <div class="card stack">
            <h2>"One solution"</h2>
            <TextField label="Solution text" testid="extract-text" value=text rows=7/>
            <div class="grid">
                <TextField label="Ground truth (optional: an answer or a full solution)" testid="extract-gold" value=gold/>
                <TextField label="Question (optional: decides the percent policy)" testid="extract-question" value=question/>
            </div>
            <label class="row">
                <input
                    type="checkbox"
                    data-testid="extract-strict"
                    prop:checked=move || strict.get()
                    on:change=move |ev| strict.set(event_target_checked(&ev))
                />
                "Strict preset (exact values only; lenient also accepts rounded decimals)"
            </label>
            {move || {
                let (t, extraction, verdict) = result.get();
                single_result(t, extraction, verdict)
            }}
            <SingleFallback result question gold strict patterns/>
        </div>
    }
}

fn single_result(
    text: String,
    extraction: Option<Extraction>,
    verdict: Option<Verdict>,
) -> AnyView {
    if text.trim().is_empty() {
        return view! { <p class="muted">"Paste a solution text above."</p> }.into_any();
    }
    let verdict_view = verdict.map(verdict_view);
    let Some(e) = extraction else {
        return view! {
            <div class="stack">
                <p class="notice" data-testid="extract-answer">"No answer found"</p>
                <p>"Method: " <span class="chip" data-testid="extract-method">"none"</span></p>
                {verdict_view}
            </div>
        }
        .into_any();
    };
    let math = format!("${}$", e.answer);
    let (before, mid, after) = highlight(&text, e.span)
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .unwrap_or((text.clone(), String::new(), String::new()));
    let confidence = format!("{:.2}", e.confidence);
    let low = e.low_confidence;
    let candidates = e.candidates.clone();
    view! {
        <div class="stack">
            <div class="row">
                <strong>"Answer: "</strong>
                <span data-testid="extract-answer" data-answer=e.answer.clone()>
                    <MathText text=math/>
                </span>
                <span class="muted">
                    " matched text: "
                    <code data-testid="extract-raw">{e.raw.clone()}</code>
                    {format!(" (bytes {}–{})", e.span.0, e.span.1)}
                </span>
            </div>
            <p>
                "Method: "
                <span class="chip" data-testid="extract-method">{e.method.as_str().to_string()}</span>
                " · confidence "
                <span data-testid="extract-confidence">{confidence}</span>
                {low.then(|| view! { <span class="chip sev-High">" low confidence"</span> }.into_any())}
                <span class="muted">" — " {e.confidence_reason.clone()}</span>
            </p>
            <pre class="extract-highlight" data-testid="extract-highlight">
                {before}<mark class="hl">{mid}</mark>{after}
            </pre>
            {(!candidates.is_empty()).then(|| view! {
                <details>
                    <summary>{format!("Other candidates ({})", candidates.len())}</summary>
                    <ul data-testid="extract-candidates">
                        {candidates.into_iter().map(|c| view! {
                            <li>
                                <span class="chip">{c.method.as_str().to_string()}</span>
                                " "
                                <code>{c.answer}</code>
                                {format!(" at bytes {}–{}", c.span.0, c.span.1)}
                            </li>
                        }.into_any()).collect_view()}
                    </ul>
                </details>
            }.into_any())}
            {verdict_view}
        </div>
    }
    .into_any()
}

fn verdict_view(v: Verdict) -> AnyView {
    let (class, label) = match v.outcome {
        Outcome::Equal => ("ok", "Equivalent"),
        Outcome::Different => ("error", "Not equivalent"),
        // Neither green nor red: the grader could not compare exactly (the reason says why).
        Outcome::Undecided => ("notice", "Could not decide"),
    };
    view! {
        <div class=class data-testid="extract-verdict" data-equivalent=v.equivalent.to_string()
            data-outcome=v.outcome.as_str()>
            <strong>{label}</strong>
            " "
            <span class="chip">{v.path.as_str()}</span>
            <p data-testid="extract-reason">{v.reason.clone()}</p>
        </div>
    }
    .into_any()
}

/// A `grade`-format JSONL: summary, filterable table, exports.
#[component]
fn BatchGrade(patterns: Memo<AnswerPatterns>) -> impl IntoView {
    let batch = RwSignal::new(None::<Arc<GradeBatch>>);
    let file_name = RwSignal::new(String::new());
    let progress = RwSignal::new(None::<(f64, f64)>);
    let timing = RwSignal::new(None::<(usize, f64)>);
    let error = RwSignal::new(None::<String>);
    let loading = RwSignal::new(false);
    let strict = RwSignal::new(false);
    let show = RwSignal::new(Show::All);
    let search = RwSignal::new(String::new());
    let regex = RwSignal::new(false);
    let query = query_memo(search, regex);
    let fallback = BatchFallback::new(batch);
    // The file and its BOM, so an opened row can be read back (rows keep no line text).
    let file: SourceFile = StoredValue::new_local(None);
    let bom = StoredValue::new(0u64);

    let load = move |f: web_sys::File| {
        if loading.get_untracked() {
            return;
        }
        error.set(None);
        fallback.reset();
        batch.set(None);
        timing.set(None);
        file_name.set(f.name());
        file.set_value(Some(f.clone()));
        loading.set(true);
        let preset = preset_of(strict.get_untracked());
        let patterns = patterns.get_untracked();
        let started = js_sys::Date::now();
        spawn_local(async move {
            match grade_file(&f, preset, patterns, progress).await {
                Ok((b, queue, ms, bom_bytes)) => {
                    bom.set_value(bom_bytes);
                    timing.set(Some((b.rows.len(), ms)));
                    crate::ui::grade_run::keep(f.name(), &b, started, error);
                    fallback.graded(b, queue);
                }
                Err(e) => error.set(Some(e)),
            }
            loading.set(false);
        });
    };
    let on_pick = move |ev: web_sys::Event| {
        let f = picked_file(&ev);
        if let Some(f) = f {
            load(f);
        }
    };
    let export = move |csv: bool| {
        let Some(b) = batch.get_untracked() else {
            return;
        };
        let stem = file_stem(&file_name.get_untracked(), "graded");
        let (s, q) = (show.get_untracked(), query.get_untracked());
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
            error.set(Some(e));
        }
    };

    view! {
        <div class="card stack">
            <h2>"Grade a JSONL"</h2>
            <p class="muted">
                "One object per line: "
                <code>"{\"id\"?, \"output\", \"ground_truth\", \"question\"?}"</code>
                " (the "<code>"verifyfast grade"</code>" format). Everything stays in this browser."
            </p>
            <div class="row">
                <input type="file" accept=".jsonl,.json,.txt" data-testid="extract-file" on:change=on_pick/>
                <label class="row">
                    <input
                        type="checkbox"
                        prop:checked=move || strict.get()
                        on:change=move |ev| strict.set(event_target_checked(&ev))
                    />
                    "Strict preset"
                </label>
            </div>
            <BatchFallbackPanel fb=fallback/>
            {move || loading.get().then(|| {
                let (done, total) = progress.get().unwrap_or((0.0, 0.0));
                view! { <progress max=format!("{}", total) value=format!("{}", done)></progress> }.into_any()
            })}
            {move || error.get().map(|e| view! { <p class="error" data-testid="extract-error">{e}</p> }.into_any())}
            {move || batch.get().map(|b| {
                let timing_text = timing.get().map(|(n, ms)| {
                    let per_s = if ms > 0.0 { n as f64 * 1000.0 / ms } else { 0.0 };
                    (format!("{n} lines graded in {:.0} ms ({:.0} items/s in this browser)", ms, per_s), per_s)
                });
                view! {
                    {summary_view(&b)}
                    {timing_text.map(|(t, per_s)| view! {
                        <p class="muted" data-testid="extract-timing" data-items-per-second=format!("{:.0}", per_s)>{t}</p>
                    }.into_any())}
                    <div class="row">
                        <label>
                            "Show "
                            <select
                                data-testid="extract-filter"
                                on:change=move |ev| show.set(Show::from_key(&event_target_value(&ev)))
                            >
                                {Show::ALL.into_iter().map(|s| view! {
                                    <option value=s.key() selected=move || show.get() == s>{s.label()}</option>
                                }.into_any()).collect_view()}
                            </select>
                        </label>
                        <SearchBox
                            testid="extract-search"
                            placeholder="search answers, ids, rules, reasons"
                            text=search
                            regex=regex
                            set_text=Callback::new(move |t| search.set(t))
                            set_regex=Callback::new(move |r| regex.set(r))
                        />
                        <button data-testid="extract-download-jsonl" on:click=move |_| export(false)>"Download JSONL"</button>
                        <button data-testid="extract-download-csv" on:click=move |_| export(true)>"Download CSV"</button>
                    </div>
                    <GradeTable batch=b.clone() show query file bom/>
                }
                .into_any()
            })}
        </div>
    }
}

fn summary_view(b: &GradeBatch) -> AnyView {
    let s = b.summary;
    let bad: Vec<(usize, String)> = b
        .bad_rows()
        .take(BAD_LIST_LIMIT)
        .map(|(l, e)| (l, e.to_string()))
        .collect();
    view! {
        <div class="stack" data-testid="extract-summary">
            <p>
                <strong data-testid="extract-accuracy">{format!("{:.2} %", 100.0 * s.accuracy())}</strong>
                {format!(
                    " accuracy: {} of {} graded lines equivalent; {} with no answer; {} bad lines; {} could not be decided",
                    s.equivalent, s.n, s.no_answer, s.bad_lines, s.undecided
                )}
            </p>
            {(!bad.is_empty()).then(|| view! {
                <ul class="error" data-testid="extract-bad-lines">
                    {bad.into_iter().map(|(line, e)| view! {
                        <li data-line=line.to_string()>{e}</li>
                    }.into_any()).collect_view()}
                </ul>
            }.into_any())}
        </div>
    }
    .into_any()
}
