//! The run store: IndexedDB in this browser. The only file that touches IndexedDB; what a
//! run is, how runs are listed, named and exported is `crate::runs` (pure, tested natively).
//!
//! Two object stores keyed by run id: `runs` holds each run's header line (its `RunMeta` as
//! the export's first line, a few hundred bytes) and `results` its results as one JSONL
//! string. Listing 100 runs reads only headers; opening a 50k-result run on Report reads one
//! string that goes straight from IndexedDB into a `File` without crossing into wasm.

use std::cell::RefCell;
use std::rc::Rc;

// The shared steps are boxed futures so that each is one copy in the wasm rather than
// inlined into every caller's state machine.
use futures::future::LocalBoxFuture;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{IdbDatabase, IdbRequest, IdbTransactionMode};

use crate::runs::{Run, RunMeta, StoreError};

const DB_NAME: &str = "verifyfast";
const DB_VERSION: u32 = 1;
const RUNS: &str = "runs";
const RESULTS: &str = "results";

thread_local! {
    static DB: RefCell<Option<IdbDatabase>> = const { RefCell::new(None) };
}

fn failed(e: JsValue) -> StoreError {
    let why = e
        .dyn_ref::<web_sys::DomException>()
        .map(|d| format!("{}: {}", d.name(), d.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into());
    StoreError::Failed(why)
}

/// Resolves when `target` fires `ok` (true) or one of `fail` (false). One listener for all,
/// removed afterwards, so nothing leaks per request. A JS promise rather than a futures
/// channel: `JsFuture` is already in the wasm.
fn until<'a>(
    target: &'a web_sys::EventTarget,
    ok: &'static str,
    fail: &'a [&'static str],
) -> LocalBoxFuture<'a, bool> {
    Box::pin(async move {
        let resolve = Rc::new(RefCell::new(None::<js_sys::Function>));
        let slot = resolve.clone();
        let promise = js_sys::Promise::new(&mut |res, _| *slot.borrow_mut() = Some(res));
        let cb = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
            if let Some(f) = resolve.borrow_mut().take() {
                let _ = f.call1(&JsValue::NULL, &JsValue::from_bool(ev.type_() == ok));
            }
        });
        let f: &js_sys::Function = cb.as_ref().unchecked_ref();
        let types = || std::iter::once(ok).chain(fail.iter().copied());
        for t in types() {
            let _ = target.add_event_listener_with_callback(t, f);
        }
        let result = JsFuture::from(promise)
            .await
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        for t in types() {
            let _ = target.remove_event_listener_with_callback(t, f);
        }
        result
    })
}

fn request(req: &IdbRequest) -> LocalBoxFuture<'_, Result<JsValue, StoreError>> {
    Box::pin(async move {
        if until(req, "success", &["error"]).await {
            req.result().map_err(failed)
        } else {
            Err(req.error().ok().flatten().map_or_else(
                || StoreError::Failed("request failed".into()),
                |d| failed(d.into()),
            ))
        }
    })
}

fn open() -> LocalBoxFuture<'static, Result<IdbDatabase, StoreError>> {
    Box::pin(async move {
        if let Some(db) = DB.with(|d| d.borrow().clone()) {
            return Ok(db);
        }
        let factory = web_sys::window()
            .and_then(|w| w.indexed_db().ok().flatten())
            .ok_or(StoreError::Unavailable)?;
        let req = factory
            .open_with_u32(DB_NAME, DB_VERSION)
            .map_err(|_| StoreError::Unavailable)?;
        // The first open (or a newer version) creates the two stores.
        let upgrade_req = req.clone();
        let upgrade = Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
            let Ok(db) = upgrade_req.result().map(IdbDatabase::unchecked_from_js) else {
                return;
            };
            let names = db.object_store_names();
            for store in [RUNS, RESULTS] {
                if !names.contains(store) {
                    let _ = db.create_object_store(store);
                }
            }
        });
        req.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
        let db = request(&req).await;
        req.set_onupgradeneeded(None);
        drop(upgrade);
        let db = db.map_err(|_| StoreError::Unavailable)?;
        let db = IdbDatabase::unchecked_from_js(db);
        DB.with(|d| *d.borrow_mut() = Some(db.clone()));
        Ok(db)
    })
}

/// `navigator.storage.estimate()`: (usage, quota) in bytes, `None` where unsupported.
pub async fn estimate() -> Option<(u64, u64)> {
    let promise = web_sys::window()?.navigator().storage().estimate().ok()?;
    let e = JsFuture::from(promise).await.ok()?;
    let get = |k: &str| {
        js_sys::Reflect::get(&e, &JsValue::from_str(k))
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0) as u64
    };
    Some((get("usage"), get("quota")))
}

/// Run a write transaction over `stores`; `fill` queues its requests. A full disk aborts
/// the transaction with `QuotaExceededError`, reported with the usage figures.
fn write<'a>(
    stores: &'a [&'a str],
    fill: &'a dyn Fn(&web_sys::IdbTransaction) -> Result<(), JsValue>,
) -> LocalBoxFuture<'a, Result<(), StoreError>> {
    Box::pin(async move {
        let db = open().await?;
        let names = js_sys::Array::new();
        for s in stores {
            names.push(&JsValue::from_str(s));
        }
        let tx = db
            .transaction_with_str_sequence_and_mode(&names, IdbTransactionMode::Readwrite)
            .map_err(failed)?;
        if let Err(e) = fill(&tx) {
            let _ = tx.abort();
            return Err(quota_or(e).await);
        }
        if until(&tx, "complete", &["abort", "error"]).await {
            return Ok(());
        }
        let e: JsValue = tx
            .error()
            .map_or_else(|| JsValue::from_str("the write was aborted"), Into::into);
        Err(quota_or(e).await)
    })
}

async fn quota_or(e: JsValue) -> StoreError {
    let quota = e
        .dyn_ref::<web_sys::DomException>()
        .is_some_and(|d| d.name() == "QuotaExceededError");
    if quota {
        let (usage, quota) = estimate().await.unwrap_or((0, 0));
        StoreError::QuotaExceeded { usage, quota }
    } else {
        failed(e)
    }
}

/// Create or replace a run: its header and its results, in one transaction (both or neither).
pub async fn save(meta: &RunMeta, results_jsonl: &str) -> Result<(), StoreError> {
    save_js(meta, &JsValue::from_str(results_jsonl)).await
}

/// `save` with the results already in JS: a string, or a picked `File` kept as it is (its
/// bytes exactly, never copied into wasm).
pub async fn save_js(meta: &RunMeta, results: &JsValue) -> Result<(), StoreError> {
    let key = JsValue::from_str(&meta.id);
    let header = JsValue::from_str(&meta.to_header_text());
    write(&[RUNS, RESULTS], &|tx| {
        tx.object_store(RUNS)?.put_with_key(&header, &key)?;
        tx.object_store(RESULTS)?.put_with_key(results, &key)?;
        Ok(())
    })
    .await
}

/// Save a whole run.
pub async fn save_run(run: &Run) -> Result<(), StoreError> {
    save(&run.meta(), &run.results_text()).await
}

/// Replace only a run's header (a rename): its results are not rewritten.
pub async fn save_meta(meta: &RunMeta) -> Result<(), StoreError> {
    let key = JsValue::from_str(&meta.id);
    let header = JsValue::from_str(&meta.to_header_text());
    write(&[RUNS], &|tx| {
        tx.object_store(RUNS)?.put_with_key(&header, &key)?;
        Ok(())
    })
    .await
}

fn get<'a>(store: &'a str, id: &'a str) -> LocalBoxFuture<'a, Result<JsValue, StoreError>> {
    Box::pin(async move {
        let db = open().await?;
        let tx = db.transaction_with_str(store).map_err(failed)?;
        let req = tx
            .object_store(store)
            .and_then(|s| s.get(&JsValue::from_str(id)))
            .map_err(failed)?;
        let v = request(&req).await?;
        if v.is_undefined() {
            return Err(StoreError::NotFound(id.to_string()));
        }
        Ok(v)
    })
}

/// A results record as text: kept as a string, or as a `File` (a report input).
async fn text_of(v: JsValue) -> String {
    if let Some(s) = v.as_string() {
        return s;
    }
    match v.dyn_into::<web_sys::Blob>() {
        Ok(b) => JsFuture::from(b.text())
            .await
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    }
}

fn damaged(id: &str, why: impl ToString) -> StoreError {
    StoreError::Damaged {
        id: id.to_string(),
        why: why.to_string(),
    }
}

/// Every run's header (no results), in store order; headers that do not read are
/// returned as errors beside them so the view can say so instead of hiding a run.
pub async fn list() -> Result<(Vec<RunMeta>, Vec<StoreError>), StoreError> {
    let db = open().await?;
    let tx = db.transaction_with_str(RUNS).map_err(failed)?;
    let req = tx
        .object_store(RUNS)
        .and_then(|s| s.get_all())
        .map_err(failed)?;
    let all = js_sys::Array::from(&request(&req).await?);
    let (mut runs, mut bad) = (Vec::new(), Vec::new());
    for v in all.iter() {
        let text = v.as_string().unwrap_or_default();
        match RunMeta::parse_header(&text) {
            Ok((m, _)) => runs.push(m),
            Err(e) => bad.push(damaged("(unreadable)", e)),
        }
    }
    Ok((runs, bad))
}

pub async fn load_meta(id: &str) -> Result<RunMeta, StoreError> {
    let text = get(RUNS, id).await?.as_string().unwrap_or_default();
    RunMeta::parse_header(&text)
        .map(|(m, _)| m)
        .map_err(|e| damaged(id, e))
}

/// A run with its results parsed (an audit's one report; exports do not need this).
pub async fn load(id: &str) -> Result<Run, StoreError> {
    let meta = load_meta(id).await?;
    let text = text_of(get(RESULTS, id).await?).await;
    let mut results = Vec::new();
    for line in crate::jsonl::lines_of(&text) {
        let v = line
            .text
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .ok_or_else(|| damaged(id, format!("result line {} is not JSON", line.number)))?;
        results.push(v);
    }
    Ok(meta.with_results(results))
}

/// A run's results as JSONL lines (the browser batch resumes from them).
pub async fn result_lines(id: &str) -> Result<Vec<String>, StoreError> {
    let text = text_of(get(RESULTS, id).await?).await;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect())
}

/// A run's results as a `File` for the Report page's chunked reader. The string (or kept
/// file) goes from IndexedDB into the `File` without being copied into wasm memory.
pub async fn results_file(id: &str, file_name: &str) -> Result<web_sys::File, StoreError> {
    let text = get(RESULTS, id).await?;
    web_sys::File::new_with_str_sequence(&js_sys::Array::of1(&text), file_name).map_err(failed)
}

/// The run as an export file (its header, then its results), keys scrubbed again.
pub async fn export_text(id: &str) -> Result<String, StoreError> {
    let meta = load_meta(id).await?;
    let results = text_of(get(RESULTS, id).await?).await;
    Ok(format!("{}\n{results}", meta.to_header_text()))
}

/// Rename a run; returns the renamed header.
pub async fn rename(id: &str, name: &str) -> Result<RunMeta, StoreError> {
    let mut meta = load_meta(id).await?;
    meta.name = name.to_string();
    save_meta(&meta).await?;
    Ok(meta)
}

/// Delete a run and its results.
pub async fn delete(id: &str) -> Result<(), StoreError> {
    let key = JsValue::from_str(id);
    write(&[RUNS, RESULTS], &|tx| {
        tx.object_store(RUNS)?.delete(&key)?;
        tx.object_store(RESULTS)?.delete(&key)?;
        Ok(())
    })
    .await
}

/// A new id not yet in the store (`taken` from the current listing).
pub fn fresh_id(taken: &dyn Fn(&str) -> bool) -> String {
    let random = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    crate::runs::new_id(js_sys::Date::now(), random, taken)
}

/// A new id, checked against the store's listing.
pub async fn new_run_id() -> String {
    let ids: Vec<String> = list()
        .await
        .map(|(runs, _)| runs.into_iter().map(|m| m.id).collect())
        .unwrap_or_default();
    fresh_id(&|id| ids.iter().any(|t| t == id))
}
