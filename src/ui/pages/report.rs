//! The Report page: pick or drop a results JSONL, read it in chunks (`File.slice`, so no
//! main-thread task holds the page for long), and show the band report with drill-down.
//! Every number comes from `crate::band`; this file only lays it out.

use std::sync::Arc;

use leptos::prelude::*;

use crate::ui::browser_file::{file_stem, now_ms, picked_file, read_slice};
use leptos::task::spawn_local;

use crate::band::drill::{
    bom_len, case_detail, compare_profiles, is_cross_band_cell, row_shares, score_histogram,
    CaseDetail, CaseFilter, Delta,
};
use crate::band::render::{self, ci, num, pct, By};
use crate::band::{BandReport, CaseRef, Evaluator, GroupMetrics, Options};
use crate::jsonl::{Line, LineSplitter};
use crate::route::state::ViewState;
use crate::ui::download::download_text;
use crate::ui::query;
use crate::ui::run_file;
use crate::ui::search_box::SearchBox;

/// Local-storage key of what the Report page showed last: `batch`, or `file:<name>`.
const SOURCE_KEY: &str = "verifyfast.report.source";

fn remember_source(source: &str) {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(SOURCE_KEY, source);
    }
}

fn last_source() -> Option<String> {
    web_sys::window()?
        .local_storage()
        .ok()
        .flatten()?
        .get_item(SOURCE_KEY)
        .ok()
        .flatten()
}

/// Bytes per `File.slice`: small enough that parsing one chunk stays well under 200 ms.
const CHUNK_BYTES: f64 = 2.0 * 1024.0 * 1024.0;
/// Cases listed at once in the drill-down (the rest are counted, and exported).
const LIST_LIMIT: usize = 200;
/// Cases read back for a JSONL export of the filtered list.
const EXPORT_LIMIT: usize = 20_000;
const BANDS: [&str; 3] = ["BAD (1–2)", "MID (3)", "GOOD (4–5)"];

fn feed(ev: &mut Evaluator, l: Line) {
    match l.text {
        Ok(t) => ev.push_line(l.number, l.offset, &t),
        Err(e) => ev.bad_line(l.number, e.reason()),
    }
}

/// Stream the file through the evaluator; returns the report and the BOM length.
async fn evaluate_file(
    file: &web_sys::File,
    progress: RwSignal<Option<(f64, f64)>>,
) -> Result<(BandReport, u64), String> {
    let total = file.size();
    let mut ev = Evaluator::new(Options::default());
    let mut splitter = LineSplitter::default();
    let mut start = 0.0;
    let mut bom = 0;
    progress.set(Some((0.0, total)));
    while start < total {
        let end = (start + CHUNK_BYTES).min(total);
        let bytes = read_slice(file, start, end).await?;
        if start == 0.0 {
            bom = bom_len(&bytes);
        }
        splitter.push(&bytes, &mut |l| feed(&mut ev, l));
        start = end;
        progress.set(Some((start, total)));
    }
    splitter.finish(&mut |l| feed(&mut ev, l));
    Ok((ev.finish(), bom))
}

/// The text of one case's line, read back from the file by its offset.
async fn read_case_line(file: &web_sys::File, bom: u64, c: &CaseRef) -> Result<String, String> {
    let start = (c.offset + bom) as f64;
    let bytes = read_slice(file, start, start + f64::from(c.len)).await?;
    String::from_utf8(bytes).map_err(|_| format!("line {} is not UTF-8", c.line))
}

#[component]
pub fn ReportPage() -> impl IntoView {
    let file = StoredValue::new_local(None::<web_sys::File>);
    let bom = StoredValue::new(0u64);
    let file_name = RwSignal::new(String::new());
    let report = RwSignal::new(None::<Arc<BandReport>>);
    let progress = RwSignal::new(None::<(f64, f64)>);
    let timing = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    let loading = RwSignal::new(false);
    let filter = RwSignal::new(CaseFilter::default());
    let baseline = RwSignal::new(String::new());
    let case = RwSignal::new(None::<(CaseRef, Result<CaseDetail, String>)>);
    // The open case's id, set at once (the case itself is read from the file afterwards): it
    // is what the URL carries, so Back closes the case.
    let case_id = RwSignal::new(None::<String>);
    let run = RwSignal::new(None::<String>);
    let notice = RwSignal::new(None::<String>);

    let open_case = move |c: CaseRef| {
        let Some(f) = file.get_value() else { return };
        let b = bom.get_value();
        case_id.set(Some(c.id.clone().unwrap_or_default()));
        spawn_local(async move {
            let detail = read_case_line(&f, b, &c)
                .await
                .and_then(|line| case_detail(&line));
            // A case closed (or another opened) meanwhile wins.
            if case_id.get_untracked().as_deref() == Some(c.id.as_deref().unwrap_or_default()) {
                case.set(Some((c, detail)));
                // The detail opens below the list: bring it to where the user is looking.
                request_animation_frame(|| {
                    if let Some(el) = document().get_element_by_id("report-case") {
                        el.scroll_into_view();
                    }
                });
            }
        });
    };
    // Show what a URL's view state selects: its cell or tag, and its open case.
    let apply_view = move |v: ViewState| {
        filter.set(CaseFilter::from_view(&v));
        let wanted = v.case.clone();
        if wanted.is_none() {
            case_id.set(None);
            case.set(None);
        } else if wanted != case_id.get_untracked() {
            let found = report.with_untracked(|r| {
                r.as_ref()
                    .and_then(|r| r.cases.iter().find(|c| c.id == wanted).cloned())
            });
            match found {
                Some(c) => open_case(c),
                None => {
                    case_id.set(None);
                    case.set(None);
                }
            }
        }
    };
    query::on_history_move(apply_view);
    // The URL follows the view: a new drill-down (cell, tag or case) is a history entry.
    Effect::new(move |_| {
        let f = filter.get();
        let open = case_id.get();
        let r = run.get();
        if report.with(Option::is_none) {
            return;
        }
        let now = query::current();
        let mut v = ViewState {
            run: r,
            case: open,
            unknown: now.unknown.clone(),
            ..ViewState::default()
        };
        f.to_view(&mut v);
        let drilled = v.cell != now.cell || v.tag != now.tag || v.case != now.case;
        query::set(&v, drilled);
    });

    let load = move |f: web_sys::File, from_run: Option<String>| {
        if loading.get_untracked() {
            return;
        }
        error.set(None);
        notice.set(None);
        report.set(None);
        case.set(None);
        case_id.set(None);
        timing.set(None);
        filter.set(CaseFilter::default());
        let picked = from_run.is_none();
        if let Some(id) = from_run {
            remember_source(&id);
            run.set(Some(id));
        } else {
            run.set(None);
            remember_source(&format!("file:{}", f.name()));
            query::set(&ViewState::default(), false);
        }
        file_name.set(f.name());
        file.set_value(Some(f.clone()));
        loading.set(true);
        spawn_local(async move {
            let t0 = now_ms();
            match evaluate_file(&f, progress).await {
                Ok((r, b)) => {
                    bom.set_value(b);
                    baseline.set(r.profiles.keys().next().cloned().unwrap_or_default());
                    let mb = f.size() / 1e6;
                    let secs = (now_ms() - t0) / 1000.0;
                    timing.set(Some(format!(
                        "{:.1} MB read in {:.2} s ({:.0} MB/s)",
                        mb,
                        secs,
                        if secs > 0.0 { mb / secs } else { 0.0 }
                    )));
                    if let Some(empty) = r.emptiness() {
                        error.set(Some(format!("{}: {}", f.name(), empty.message())));
                    } else {
                        let (names, n) = (r.profiles.keys().cloned().collect(), r.cases.len());
                        report.set(Some(Arc::new(r)));
                        apply_view(query::current());
                        // A picked file becomes a run, so a reload shows it again.
                        if picked {
                            match run_file::keep(&f, names, n).await {
                                Ok(id) => {
                                    remember_source(&id);
                                    run.set(Some(id))
                                }
                                Err(e) => notice.set(Some(format!("Not kept as a run: {e}"))),
                            }
                        }
                    }
                }
                Err(e) => error.set(Some(e)),
            }
            loading.set(false);
        });
    };
    let load_run = move |id: String| {
        spawn_local(async move {
            match run_file::open(&id).await {
                Ok((id, f)) => load(f, Some(id)),
                Err(e) => error.set(Some(e)),
            }
        })
    };
    // `report?run=<id>` opens that kept run (`batch`: the newest batch run); so does coming
    // back to this page after showing one. A picked file that could not be kept is named.
    let from_url = query::current().run;
    match (from_url, last_source()) {
        (Some(id), _) => load_run(id),
        (None, Some(s)) if !s.starts_with("file:") => load_run(s),
        (None, Some(s)) => {
            if let Some(name) = s.strip_prefix("file:") {
                notice.set(Some(format!(
                    "Last shown here: {name}. A picked file is not kept by the browser: pick it again to see its report."
                )));
            }
        }
        _ => {}
    }

    let on_pick = move |ev: web_sys::Event| {
        let f = picked_file(&ev);
        if let Some(f) = f {
            load(f, None);
        }
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        let f = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|fs| fs.get(0));
        if let Some(f) = f {
            load(f, None);
        }
    };

    let export = move |kind: &'static str| {
        let Some(r) = report.get_untracked() else {
            return;
        };
        let stem = file_stem(&file_name.get_untracked(), "results");
        let (name, mime, text) = match kind {
            "json" => (
                format!("{stem}-band.json"),
                "application/json",
                render::json(&r, By::default()),
            ),
            "csv" => (
                format!("{stem}-band.csv"),
                "text/csv",
                render::csv(&r, By::default()),
            ),
            _ => (
                format!("{stem}-band.md"),
                "text/markdown",
                render::markdown(&r, By::default()),
            ),
        };
        if let Err(e) = download_text(&name, mime, &text) {
            error.set(Some(e));
        }
    };
    let export_cases = move |_| {
        let (Some(r), Some(f)) = (report.get_untracked(), file.get_value()) else {
            return;
        };
        let flt = filter.get_untracked();
        let b = bom.get_value();
        let stem = file_stem(&file_name.get_untracked(), "results");
        spawn_local(async move {
            let (cases, _) = flt.apply(&r, EXPORT_LIMIT);
            let mut out = String::new();
            for c in cases {
                match read_case_line(&f, b, c).await {
                    Ok(line) => {
                        out.push_str(&line);
                        out.push('\n');
                    }
                    Err(e) => {
                        error.set(Some(e));
                        return;
                    }
                }
            }
            if let Err(e) =
                download_text(&format!("{stem}-cases.jsonl"), "application/x-ndjson", &out)
            {
                error.set(Some(e));
            }
        });
    };

    view! {
        <section data-testid="page-report" class="report">
            <h1>"Band report"</h1>
            <p class="lead">
                "Open a results JSONL (from a batch run: case fields plus profile and credit_score). Scores fold into BAD (1–2), MID (3) and GOOD (4–5); the one error that matters most is cross-band confusion, BAD judged GOOD or GOOD judged BAD. The file never leaves your browser."
            </p>
            <div
                class="card dropzone"
                on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=on_drop
            >
                <label>
                    "Results JSONL "
                    <input type="file" accept=".jsonl,.json,.txt" data-testid="report-file" on:change=on_pick />
                </label>
                <span class="muted">"…or drop the file here."</span>
                {move || {
                    progress
                        .get()
                        .map(|(done, total)| {
                            view! {
                                <div class="stack">
                                    <progress
                                        data-testid="report-progress"
                                        max=format!("{}", total.max(1.0))
                                        value=format!("{}", done)
                                    ></progress>
                                    <span class="muted">
                                        {format!("{} — {:.1} / {:.1} MB", file_name.get(), done / 1e6, total / 1e6)}
                                    </span>
                                </div>
                            }
                            .into_any()
                        })
                }}
                {move || timing.get().map(|t| view! { <span class="muted" data-testid="report-timing">{t}</span> }.into_any())}
            </div>
            {move || error.get().map(|e| view! { <div class="error" role="alert" data-testid="report-error">{e}</div> }.into_any())}
            {move || notice.get().map(|n| view! { <div class="notice" data-testid="report-notice">{n}</div> }.into_any())}
            {move || {
                report
                    .get()
                    .map(|r| {
                        if r.cases_only {
                            view! {
                                <div class="notice" data-testid="report-cases-only">
                                    {r.warnings.first().cloned().unwrap_or_default()}
                                </div>
                                {bad_lines_view(&r)}
                            }
                                .into_any()
                        } else {
                            view! {
                                {summary_view(&r)}
                                <div class="row">
                                    <button data-testid="report-export-md" on:click=move |_| export("md")>"Export Markdown"</button>
                                    <button data-testid="report-export-json" on:click=move |_| export("json")>"Export JSON"</button>
                                    <button data-testid="report-export-csv" on:click=move |_| export("csv")>"Export CSV"</button>
                                </div>
                                <div class="grid">
                                    {matrix_view(&r, filter)}
                                    {histogram_view(&r.overall)}
                                </div>
                                {metrics_view(&r.overall)}
                                {profiles_view(r.clone(), baseline)}
                                {groups_view("Tags", "tag", &r.tags, filter)}
                                {groups_view("Difficulties", "difficulty", &r.difficulties, filter)}
                                {warnings_view(&r)}
                                {bad_lines_view(&r)}
                            }
                                .into_any()
                        }
                    })
            }}
            {move || {
                report
                    .get()
                    .filter(|r| !r.cases_only)
                    .map(|r| cases_view(r, filter, open_case, export_cases))
            }}
            {move || {
                case.get()
                    .filter(|_| case_id.with(Option::is_some))
                    .map(|(c, d)| case_view(c, d, case_id))
            }}
        </section>
    }
}

fn summary_view(r: &BandReport) -> AnyView {
    let o = &r.overall;
    let band_class = match o.verdict {
        crate::band::Verdict::Met => "badge band-GOOD",
        crate::band::Verdict::NotMet => "badge band-BAD",
        _ => "badge band-MID",
    };
    view! {
        <div class="row summary">
            <span class=band_class>
                <span data-testid="report-cross-band-rate">{pct(o.cross_band_rate)}</span>
                <small>{ci(o)}</small>
            </span>
            <div class="stack">
                <div>
                    "Cross-band rate ("{o.cross_band.to_string()}" of "{o.n.to_string()}
                    " cases), target below "{format!("{:.1} %", r.target * 100.0)}": "
                    <strong data-testid="report-verdict">{o.verdict.label()}</strong>
                </div>
                <div class="muted">
                    "Met: the whole 95 % Wilson interval is below the target. Not shown: the rate is below it but the interval is not — more cases are needed. Not met: the rate is at or above it."
                </div>
            </div>
        </div>
    }
    .into_any()
}

fn matrix_view(r: &BandReport, filter: RwSignal<CaseFilter>) -> AnyView {
    let m = r.overall.matrix;
    let shares = row_shares(&m);
    let rows = (0..3)
        .map(|e| {
            let cells = (0..3)
                .map(|a| {
                    let count = m[e][a];
                    let share = shares[e][a];
                    let alpha = 0.06 + 0.6 * share.unwrap_or(0.0);
                    let cross = is_cross_band_cell(e, a);
                    let style = if cross && count > 0 {
                        format!("background: rgba(220, 38, 38, {:.2})", alpha)
                    } else {
                        format!("background: rgba(37, 99, 235, {:.2})", alpha)
                    };
                    let selected = move || filter.with(|f| f.cell == Some((e, a)));
                    view! {
                        <td class="num heat" class:cross=cross class:selected=selected style=style>
                            <button
                                class="cell"
                                data-testid=format!("report-cell-{e}-{a}")
                                title=if cross { "cross-band: the user's decision is reversed" } else { "" }
                                on:click=move |_| {
                                    filter.set(CaseFilter { cell: Some((e, a)), ..CaseFilter::default() })
                                }
                            >
                                <strong>{count.to_string()}</strong>
                                <small>{pct(share)}</small>
                                {cross.then(|| view! { <span class="cross-mark">"⚠ cross-band"</span> }.into_any())}
                            </button>
                        </td>
                    }
                    .into_any()
                })
                .collect::<Vec<_>>();
            view! {
                <tr>
                    <th>{BANDS[e]}</th>
                    {cells}
                </tr>
            }
            .into_any()
        })
        .collect::<Vec<_>>();
    view! {
        <div class="card">
            <h2>"Band matrix"</h2>
            <p class="muted">"Rows: expected band; columns: judged band. Counts with row percentages; click a cell to list its cases."</p>
            <table class="matrix" data-testid="report-matrix">
                <thead>
                    <tr>
                        <th>"expected \\ judged"</th>
                        {BANDS.iter().map(|b| view! { <th class="num">{*b}</th> }.into_any()).collect::<Vec<_>>()}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}

fn histogram_view(g: &GroupMetrics) -> AnyView {
    let h = score_histogram(g);
    let max = h
        .iter()
        .map(|(e, a)| (*e).max(*a))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let bars = h
        .iter()
        .enumerate()
        .map(|(i, (e, a))| {
            let height = |v: u64| format!("height: {:.0}px", 4.0 + 120.0 * v as f64 / max);
            view! {
                <div class="hist-score">
                    <div class="hist-bars">
                        <div class="hist-bar expected" style=height(*e) title=format!("expected {}: {e}", i + 1)>
                            <small>{e.to_string()}</small>
                        </div>
                        <div class="hist-bar actual" style=height(*a) title=format!("judged {}: {a}", i + 1)>
                            <small>{a.to_string()}</small>
                        </div>
                    </div>
                    <div class="hist-label">{(i + 1).to_string()}</div>
                </div>
            }
            .into_any()
        })
        .collect::<Vec<_>>();
    view! {
        <div class="card">
            <h2>"Scores"</h2>
            <p class="muted">
                <span class="legend expected"></span>" expected  "
                <span class="legend actual"></span>" judged (credit_score)"
            </p>
            <div class="histogram" data-testid="report-histogram">{bars}</div>
        </div>
    }
    .into_any()
}

fn metrics_view(o: &GroupMetrics) -> AnyView {
    let rows: Vec<(&str, String)> = vec![
        ("Cases", o.n.to_string()),
        ("Band accuracy", pct(o.band_accuracy)),
        (
            "Cross-band rate (95 % Wilson interval)",
            format!("{} {}", pct(o.cross_band_rate), ci(o)),
        ),
        ("Verdict", o.verdict.label().to_string()),
        ("Missed: BAD judged GOOD", o.missed.to_string()),
        ("False alarm: GOOD judged BAD", o.false_alarm.to_string()),
        ("Boundary deviations (one side MID)", o.boundary.to_string()),
        ("In-band deviations (1↔2, 4↔5)", o.in_band.to_string()),
        ("Exact match", pct(o.exact)),
        ("±1 match", pct(o.within_one)),
        ("Mean absolute error (5-point score)", num(o.mae)),
        ("Quadratic weighted kappa (5-point score)", num(o.qwk)),
    ];
    view! {
        <div class="card">
            <h2>"Metrics"</h2>
            <table data-testid="report-metrics">
                <tbody>
                    {rows
                        .into_iter()
                        .map(|(k, v)| view! { <tr><th>{k}</th><td class="num">{v}</td></tr> }.into_any())
                        .collect::<Vec<_>>()}
                </tbody>
            </table>
        </div>
    }
    .into_any()
}

/// `text` with a `+` in front unless it has a sign (as `{:+}` writes numbers).
fn signed(text: String) -> String {
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

fn delta_cell(d: Option<Delta>, as_pct: bool) -> impl IntoView {
    match d {
        None => view! { <td class="num muted">"–"</td> }.into_any(),
        Some(d) => {
            let text = if as_pct {
                format!("{} pt", signed(format!("{:.1}", d.value * 100.0)))
            } else {
                signed(format!("{:.3}", d.value))
            };
            let class = if d.value == 0.0 {
                "num muted"
            } else if d.better {
                "num delta-better"
            } else {
                "num delta-worse"
            };
            view! { <td class=class>{text}</td> }.into_any()
        }
    }
}

fn profiles_view(r: Arc<BandReport>, baseline: RwSignal<String>) -> Option<AnyView> {
    if r.profiles.len() < 2 {
        return None;
    }
    let names: Vec<String> = r.profiles.keys().cloned().collect();
    let table = move || {
        let rows = compare_profiles(&r, &baseline.get());
        rows.into_iter()
            .filter_map(|p| {
                let g = r.profiles.get(&p.profile)?.clone();
                Some(
                    view! {
                        <tr class:baseline=p.is_baseline>
                            <td>{p.profile.clone()}</td>
                            <td class="num">{g.n.to_string()}</td>
                            <td class="num">{pct(g.cross_band_rate)}</td>
                            {delta_cell(p.cross_band_rate, true)}
                            <td class="num">{pct(g.band_accuracy)}</td>
                            {delta_cell(p.band_accuracy, true)}
                            <td class="num">{pct(g.exact)}</td>
                            {delta_cell(p.exact, true)}
                            <td class="num">{num(g.mae)}</td>
                            {delta_cell(p.mae, false)}
                            <td>{g.verdict.label()}</td>
                        </tr>
                    }
                    .into_any(),
                )
            })
            .collect::<Vec<_>>()
    };
    Some(view! {
        <div class="card">
            <h2>"Profiles"</h2>
            <label>
                "Baseline profile "
                <select
                    data-testid="report-baseline"
                    prop:value=move || baseline.get()
                    on:change=move |ev| baseline.set(event_target_value(&ev))
                >
                    {names.into_iter().map(|n| view! { <option value=n.clone()>{n.clone()}</option> }.into_any()).collect::<Vec<_>>()}
                </select>
            </label>
            <div class="table-wrap">
                <table data-testid="report-profiles">
                    <thead>
                        <tr>
                            <th>"profile"</th><th class="num">"n"</th>
                            <th class="num">"cross-band"</th><th class="num">"Δ"</th>
                            <th class="num">"band acc."</th><th class="num">"Δ"</th>
                            <th class="num">"exact"</th><th class="num">"Δ"</th>
                            <th class="num">"MAE"</th><th class="num">"Δ"</th>
                            <th>"verdict"</th>
                        </tr>
                    </thead>
                    <tbody>{move || table()}</tbody>
                </table>
            </div>
        </div>
    }.into_any())
}

fn groups_view(
    title: &'static str,
    kind: &'static str,
    groups: &crate::sorted_map::SortedMap<String, GroupMetrics>,
    filter: RwSignal<CaseFilter>,
) -> Option<AnyView> {
    if groups.is_empty() {
        return None;
    }
    let rows = groups
        .iter()
        .map(|(name, g)| {
            let n2 = name.clone();
            let pick = move |_| {
                let mut f = CaseFilter::default();
                if kind == "tag" {
                    f.tag = Some(n2.clone());
                } else {
                    f.difficulty = Some(n2.clone());
                }
                filter.set(f);
            };
            view! {
                <tr>
                    <td>
                        <button class="link" data-testid=format!("report-{kind}-{name}") on:click=pick>
                            {name.clone()}
                        </button>
                    </td>
                    <td class="num">{g.n.to_string()}</td>
                    <td class="num">{pct(g.band_accuracy)}</td>
                    <td class="num">{pct(g.cross_band_rate)}</td>
                    <td>{ci(g)}</td>
                    <td class="num">{g.missed.to_string()}</td>
                    <td class="num">{g.false_alarm.to_string()}</td>
                    <td class="num">{pct(g.exact)}</td>
                    <td class="num">{pct(g.within_one)}</td>
                    <td class="num">{num(g.mae)}</td>
                    <td>{g.verdict.label()}</td>
                </tr>
            }
            .into_any()
        })
        .collect::<Vec<_>>();
    Some(view! {
        <div class="card">
            <h2>{title}</h2>
            <div class="table-wrap">
                <table data-testid=format!("report-{kind}s")>
                    <thead>
                        <tr>
                            <th>{kind}</th><th class="num">"n"</th><th class="num">"band acc."</th>
                            <th class="num">"cross-band"</th><th>"95 % CI"</th>
                            <th class="num">"missed"</th><th class="num">"false alarm"</th>
                            <th class="num">"exact"</th><th class="num">"±1"</th><th class="num">"MAE"</th>
                            <th>"verdict"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </div>
    }.into_any())
}

fn warnings_view(r: &BandReport) -> Option<AnyView> {
    (!r.warnings.is_empty()).then(|| {
        view! {
            <div class="notice" data-testid="report-warnings">
                <ul>{r.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }.into_any()).collect::<Vec<_>>()}</ul>
            </div>
        }
        .into_any()
    })
}

fn bad_lines_view(r: &BandReport) -> AnyView {
    let items = r
        .bad_lines
        .iter()
        .map(|b| view! { <li><span class="mono">"line "{b.line.to_string()}</span>": "{b.reason.clone()}</li> }.into_any())
        .collect::<Vec<_>>();
    let more = r.bad_line_count.saturating_sub(r.bad_lines.len() as u64);
    view! {
        <div class="card" data-testid="report-bad-lines">
            <h2>{format!("Bad lines ({})", r.bad_line_count)}</h2>
            {if r.bad_line_count == 0 {
                view! { <p class="muted">"None: every line was counted."</p> }.into_any()
            } else {
                view! {
                    <p class="muted">"These lines were skipped; the rest were counted."</p>
                    <ul>{items}</ul>
                    {(more > 0).then(|| view! { <p class="muted">{format!("…and {more} more")}</p> }.into_any())}
                }
                    .into_any()
            }}
        </div>
    }
    .into_any()
}

fn cases_view(
    r: Arc<BandReport>,
    filter: RwSignal<CaseFilter>,
    open_case: impl Fn(CaseRef) + Copy + Send + Sync + 'static,
    export_cases: impl Fn(web_sys::MouseEvent) + Copy + Send + Sync + 'static,
) -> AnyView {
    let profiles: Vec<String> = r.profiles.keys().cloned().collect();
    let tags: Vec<String> = r.tags.keys().cloned().collect();
    let r2 = r.clone();
    let list = move || {
        let f = filter.get();
        let (cases, total) = f.apply(&r2, LIST_LIMIT);
        let rows = cases
            .into_iter()
            .map(|c| {
                let cross = is_cross_band_cell(
                    crate::band::metrics::band_index(c.expected),
                    crate::band::metrics::band_index(c.actual),
                );
                let c2 = c.clone();
                view! {
                    <tr data-testid="report-case-row" class:cross=cross>
                        <td class="num">{c.line.to_string()}</td>
                        <td>
                            <button class="link" on:click=move |_| open_case(c2.clone())>
                                {c.id.clone().unwrap_or_else(|| "(no id)".into())}
                            </button>
                        </td>
                        <td>{r2.name(c.profile).unwrap_or("").to_string()}</td>
                        <td>{r2.name(c.tag).unwrap_or("").to_string()}</td>
                        <td>{r2.name(c.difficulty).unwrap_or("").to_string()}</td>
                        <td class="num">{c.expected.to_string()}</td>
                        <td class="num">{c.actual.to_string()}</td>
                    </tr>
                }
                .into_any()
            })
            .collect::<Vec<_>>();
        let shown = rows.len();
        view! {
            <p class="muted" data-testid="report-cases-count">
                {format!("{} — {total} case(s){}", f.describe(), if total > shown { format!(", first {shown} listed") } else { String::new() })}
            </p>
            <div class="table-wrap">
                <table>
                    <thead>
                        <tr>
                            <th class="num">"line"</th><th>"id"</th><th>"profile"</th><th>"tag"</th>
                            <th>"difficulty"</th><th class="num">"expected"</th><th class="num">"judged"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        }
        .into_any()
    };
    let option_list = |names: Vec<String>| {
        names
            .into_iter()
            .map(|n| view! { <option value=n.clone()>{n.clone()}</option> }.into_any())
            .collect::<Vec<_>>()
    };
    view! {
        <div class="card" data-testid="report-cases">
            <h2>"Cases"</h2>
            <div class="row">
                <label class="row">
                    <input
                        type="checkbox"
                        data-testid="report-filter-cross"
                        prop:checked=move || filter.with(|f| f.cross_band_only)
                        on:change=move |ev| filter.update(|f| f.cross_band_only = event_target_checked(&ev))
                    />
                    "cross-band only"
                </label>
                <label>
                    "Profile "
                    <select
                        data-testid="report-filter-profile"
                        prop:value=move || filter.with(|f| f.profile.clone().unwrap_or_default())
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            filter.update(|f| f.profile = (!v.is_empty()).then_some(v));
                        }
                    >
                        <option value="">"all"</option>
                        {option_list(profiles)}
                    </select>
                </label>
                <label>
                    "Tag "
                    <select
                        data-testid="report-filter-tag"
                        prop:value=move || filter.with(|f| f.tag.clone().unwrap_or_default())
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            filter.update(|f| f.tag = (!v.is_empty()).then_some(v));
                        }
                    >
                        <option value="">"all"</option>
                        {option_list(tags)}
                    </select>
                </label>
                <SearchBox
                    testid="report-search"
                    placeholder="search ids, profiles, tags"
                    text=Signal::derive(move || filter.with(|f| f.search.clone()))
                    regex=Signal::derive(move || filter.with(|f| f.regex))
                    set_text=Callback::new(move |t| filter.update(|f| f.search = t))
                    set_regex=Callback::new(move |r| filter.update(|f| f.regex = r))
                />
                <button data-testid="report-filter-clear" on:click=move |_| filter.set(CaseFilter::default())>
                    "Clear filters"
                </button>
                <button data-testid="report-export-cases" on:click=export_cases>"Export these cases (JSONL)"</button>
            </div>
            {move || list()}
        </div>
    }
    .into_any()
}

fn case_view(
    c: CaseRef,
    detail: Result<CaseDetail, String>,
    case_id: RwSignal<Option<String>>,
) -> AnyView {
    let body = match detail {
        Err(e) => view! { <div class="error">{e}</div> }.into_any(),
        Ok(d) => {
            let section = |title: &'static str, text: Option<String>| {
                text.map(|t| view! { <h3>{title}</h3><pre>{t}</pre> }.into_any())
            };
            view! {
                {d.description.map(|t| view! { <p class="muted">{t}</p> }.into_any())}
                {d.error.map(|e| view! { <div class="error">"Could not be audited: "{e}</div> }.into_any())}
                {section("Context", d.context_input)}
                {section("Model output", d.model_output)}
                {(!d.errors.is_empty()).then(|| view! {
                    <h3>{format!("Errors found ({})", d.errors.len())}</h3>
                    {d.errors.into_iter().map(|e| view! { <pre>{e}</pre> }.into_any()).collect::<Vec<_>>()}
                }
                .into_any())}
            }
            .into_any()
        }
    };
    let band = |s: u8| match s {
        1 | 2 => "chip band-BAD",
        3 => "chip band-MID",
        _ => "chip band-GOOD",
    };
    view! {
        <div class="card" id="report-case" tabindex="-1" data-testid="report-case">
            <div class="row">
                <h2>{format!("Case {} (line {})", c.id.clone().unwrap_or_default(), c.line)}</h2>
                <span class=band(c.expected)>{format!("expected {}", c.expected)}</span>
                <span class=band(c.actual)>{format!("judged {}", c.actual)}</span>
                <button data-testid="report-case-close" on:click=move |_| case_id.set(None)>"Close"</button>
            </div>
            {body}
        </div>
    }
    .into_any()
}
