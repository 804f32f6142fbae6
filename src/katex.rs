//! The one JavaScript binding of the app: KaTeX's `renderToString`.
//!
//! KaTeX is loaded as a classic script from `vendor/katex/` (copied out of the npm
//! package by Trunk), which defines the global `katex`. [`load`] adds it (and its stylesheet)
//! once the app has started rather than from `index.html`: its 77 KB gzipped would otherwise
//! share the cold load's bandwidth with the wasm, and no page needs math to become usable. Model text is untrusted, so the
//! options are fixed here and nowhere else: `trust: false` (no `\href`, `\includegraphics`,
//! `\htmlClass`…), `throwOnError: false` (bad LaTeX renders red, it does not throw), and
//! caps on macro expansion and sizes so hostile input cannot hang or blow up the page.

use std::cell::RefCell;
use std::collections::HashMap;

use wasm_bindgen::prelude::*;

/// Longest formula we hand to KaTeX; longer ones are shown as plain text.
pub const MAX_TEX_LEN: usize = 20_000;
const MAX_EXPAND: u32 = 1_000;
/// In em: stops `\rule{1000em}{1000em}`-style page blow-ups.
const MAX_SIZE_EM: f64 = 20.0;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = katex, js_name = renderToString, catch)]
    fn render_to_string_js(tex: &str, options: &JsValue) -> Result<String, JsValue>;
}

// Both wasm bundles (the app and the Proof page's) call this; the marked script element makes
// the second call wait for the first one's download instead of starting another.
#[wasm_bindgen(inline_js = r#"
export function katex_loaded() { return typeof window.katex === 'object' && window.katex !== null; }
export function load_katex(js, css) {
  if (katex_loaded()) return Promise.resolve();
  let s = document.querySelector('script[data-katex]');
  if (!s) {
    const l = document.createElement('link');
    l.rel = 'stylesheet'; l.href = css;
    document.head.appendChild(l);
    s = document.createElement('script');
    s.src = js; s.dataset.katex = '';
    document.head.appendChild(s);
  }
  return new Promise((resolve, reject) => {
    if (katex_loaded()) { resolve(); return; }
    if (s.dataset.failed !== undefined) { reject(new Error('KaTeX failed to load')); return; }
    s.addEventListener('load', () => resolve());
    s.addEventListener('error', () => { s.dataset.failed = ''; reject(new Error('KaTeX failed to load')); });
  });
}
"#)]
extern "C" {
    fn katex_loaded() -> bool;
    fn load_katex(js: &str, css: &str) -> js_sys::Promise;
}

/// Whether KaTeX's script has run (then [`render`] can render).
pub fn is_loaded() -> bool {
    katex_loaded()
}

/// Add KaTeX's script and stylesheet to the page (once, whichever bundle asks first) and wait
/// until the script has run. The paths are relative to the page's `<base>`, so a sub-path
/// build finds them too.
pub async fn load() -> Result<(), KatexError> {
    let promise = load_katex("vendor/katex/katex.min.js", "vendor/katex/katex.min.css");
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(|_| ())
        .map_err(|e| KatexError::Js(e.as_string().unwrap_or_else(|| format!("{e:?}"))))
}

/// Why a formula was not rendered; the caller shows the source as escaped text instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KatexError {
    #[error("formula longer than {MAX_TEX_LEN} characters")]
    TooLong,
    #[error("KaTeX is not loaded or failed: {0}")]
    Js(String),
}

/// Formulas whose HTML is kept: stepping through a proof re-renders the same few hundred
/// formulas at every step, and KaTeX's layout is the slow part of that. Past this many
/// entries the cache starts over (cheaper than an LRU and as good for these workloads).
const CACHE_ENTRIES: usize = 4_096;

thread_local! {
    static CACHE: RefCell<HashMap<(String, bool), String>> = RefCell::new(HashMap::new());
}

/// Render `tex` to KaTeX HTML. The returned HTML is KaTeX's own output for untrusted
/// input under the options above, and is the only HTML the app injects.
pub fn render(tex: &str, display: bool) -> Result<String, KatexError> {
    if tex.len() > MAX_TEX_LEN {
        return Err(KatexError::TooLong);
    }
    let key = (tex.to_string(), display);
    if let Some(html) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        return Ok(html);
    }
    let html = render_to_string_js(tex, &options(display))
        .map_err(|e| KatexError::Js(e.as_string().unwrap_or_else(|| format!("{e:?}"))))?;
    CACHE.with(|c| {
        let mut cache = c.borrow_mut();
        if cache.len() >= CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(key, html.clone());
    });
    Ok(html)
}

fn options(display: bool) -> JsValue {
    let o = js_sys::Object::new();
    let set = |k: &str, v: JsValue| {
        // Reflect::set on a fresh plain object cannot fail; ignore the Result by design.
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), &v);
    };
    set("displayMode", JsValue::from_bool(display));
    set("throwOnError", JsValue::FALSE);
    set("trust", JsValue::FALSE);
    set("strict", JsValue::from_str("ignore"));
    set("maxExpand", JsValue::from_f64(MAX_EXPAND as f64));
    set("maxSize", JsValue::from_f64(MAX_SIZE_EM));
    set("output", JsValue::from_str("htmlAndMathml"));
    o.into()
}
