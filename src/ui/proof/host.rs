//! The Proof page's place in the app: on the first visit it loads the page's own wasm bundle
//! (`ui::proof::bundle`, about a fifth of the app's bytes that Audit, Report and Extract users
//! never need) and hands it an element to draw into; leaving the page unmounts it, which stops
//! its listeners and LLM calls. A failed load says why and how to retry.

use std::cell::{Cell, RefCell};

use leptos::{html, prelude::*, task::spawn_local};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The bundle's JavaScript module, beside the app's, when index.html does not name it (the
/// build's hook, scripts/hash-proof-bundle, writes its content-hashed name into a meta tag).
const BUNDLE: &str = "verifyfast-proof.js";

fn bundle_name() -> String {
    document()
        .query_selector("meta[name=verifyfast-proof-bundle]")
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"))
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| BUNDLE.to_string())
}

thread_local! {
    /// The running bundle's module while its page is mounted.
    static MOUNTED: RefCell<Option<JsValue>> = const { RefCell::new(None) };
    /// Counts visits to the Proof page: a load that finishes after its visit ended (the user
    /// moved on while the bundle downloaded) must not mount into a page that is gone.
    static VISIT: Cell<u64> = const { Cell::new(0) };
}

#[wasm_bindgen(inline_js = "export function import_module(url) { return import(url); }")]
extern "C" {
    /// `import(url)`: a dynamic import has no wasm-bindgen or web-sys binding of its own.
    #[wasm_bindgen(catch)]
    fn import_module(url: &str) -> Result<js_sys::Promise, JsValue>;
}

fn js_reason(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

fn function(module: &JsValue, name: &str) -> Result<js_sys::Function, String> {
    js_sys::Reflect::get(module, &JsValue::from_str(name))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or_else(|| {
            format!(
                "{} has no {name}(); is it from another build of the app?",
                bundle_name()
            )
        })
}

/// The bundle as `index.html` started it while the app downloaded (a first visit that lands on
/// Proof), taken once; `None` when it did not (another first page, no streaming compile, or a
/// start that failed: [`load`] then imports and starts the bundle itself).
async fn early_started() -> Option<JsValue> {
    let window: JsValue = web_sys::window()?.into();
    let key = JsValue::from_str("verifyfastProofStarted");
    let pending = js_sys::Reflect::get(&window, &key)
        .ok()
        .filter(|p| !p.is_undefined())?;
    let _ = js_sys::Reflect::delete_property(window.unchecked_ref::<js_sys::Object>(), &key);
    JsFuture::from(js_sys::Promise::resolve(&pending))
        .await
        .ok()
        .filter(|module| function(module, "mount_proof").is_ok())
}

/// Imports and starts the bundle; `Ok(module)` once it is running.
async fn load() -> Result<JsValue, String> {
    if let Some(module) = early_started().await {
        return Ok(module);
    }
    let base = document().base_uri().ok().flatten().unwrap_or_default();
    let url = web_sys::Url::new_with_base(&bundle_name(), &base)
        .map_err(|e| js_reason(&e))?
        .href();
    let module = JsFuture::from(import_module(&url).map_err(|e| js_reason(&e))?)
        .await
        .map_err(|e| format!("could not load {url}: {}", js_reason(&e)))?;
    let started = function(&module, "default")?
        .call0(&JsValue::NULL)
        .map_err(|e| js_reason(&e))?;
    JsFuture::from(js_sys::Promise::resolve(&started))
        .await
        .map_err(|e| format!("could not start {url}: {}", js_reason(&e)))?;
    Ok(module)
}

/// The Proof route: a status line while the bundle loads (or why it did not), then the page.
#[component]
pub fn ProofHost() -> impl IntoView {
    let host = NodeRef::<html::Div>::new();
    let status = RwSignal::new(Some(String::from("Loading the Proof page…")));
    let visit = VISIT.with(|v| {
        v.set(v.get() + 1);
        v.get()
    });
    host.on_load(move |el| {
        spawn_local(async move {
            let module = match load().await {
                Ok(module) if VISIT.with(Cell::get) == visit => module,
                Ok(_) => return,
                Err(e) => {
                    status.try_set(Some(failed(&e)));
                    return;
                }
            };
            let mounted = function(&module, "mount_proof")
                .and_then(|mount| mount.call1(&JsValue::NULL, &el).map_err(|e| js_reason(&e)));
            match mounted {
                Ok(_) => {
                    MOUNTED.with(|m| *m.borrow_mut() = Some(module));
                    status.try_set(None);
                }
                Err(e) => {
                    status.try_set(Some(failed(&e)));
                }
            }
        });
    });
    on_cleanup(move || {
        VISIT.with(|v| v.set(v.get() + 1));
        if let Some(module) = MOUNTED.with(|m| m.borrow_mut().take()) {
            if let Ok(unmount) = function(&module, "unmount_proof") {
                let _ = unmount.call0(&JsValue::NULL);
            }
        }
    });
    view! {
        {move || status.get().map(|s| view! {
            <p class="muted" role="status" data-testid="proof-host-status">{s}</p>
        }.into_any())}
        <div node_ref=host data-testid="proof-host"></div>
    }
}

fn failed(why: &str) -> String {
    format!("The Proof page could not be loaded: {why}. Reload the page to try again.")
}
