//! The app's router: five fixed pages need only a path → page match, a history entry on each
//! same-origin link click, and back/forward. A hand-written one because leptos_router's generic
//! route matching cost about 80 KB of the wasm for that (README, "Size").

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The pages the app has; unknown paths show `NotFound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    Audit,
    Report,
    Extract,
    Proof,
    Settings,
    NotFound,
}

impl Page {
    pub fn from_path(path: &str) -> Page {
        match path.trim_end_matches('/') {
            "" | "/audit" => Page::Audit,
            "/report" => Page::Report,
            "/extract" => Page::Extract,
            "/proof" => Page::Proof,
            "/settings" => Page::Settings,
            _ => Page::NotFound,
        }
    }
}

/// The page now shown, shared with the navigation through context.
#[derive(Clone, Copy)]
pub struct CurrentPage(pub Memo<Page>);

fn location_path() -> String {
    window()
        .location()
        .pathname()
        .unwrap_or_else(|_| "/".into())
}

/// The in-app target of a click, when the browser should not handle it itself: a plain left
/// click on a same-origin link without `download` or a `target` of its own.
fn in_app_target(ev: &web_sys::MouseEvent) -> Option<String> {
    if ev.default_prevented()
        || ev.button() != 0
        || ev.meta_key()
        || ev.ctrl_key()
        || ev.shift_key()
        || ev.alt_key()
    {
        return None;
    }
    let element = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    let anchor = element
        .closest("a[href]")
        .ok()??
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .ok()?;
    let own_target = !anchor.target().is_empty() && anchor.target() != "_self";
    if anchor.has_attribute("download") || own_target {
        return None;
    }
    let location = window().location();
    if anchor.origin() != location.origin().ok()? {
        return None;
    }
    Some(format!(
        "{}{}{}",
        anchor.pathname(),
        anchor.search(),
        anchor.hash()
    ))
}

/// Tracks the location: returns the current page, and keeps it in step with link clicks and
/// back/forward. Call once, in the app shell.
pub fn use_router() -> Memo<Page> {
    let path = RwSignal::new(location_path());
    let clicks = window_event_listener(leptos::ev::click, move |ev: web_sys::MouseEvent| {
        let Some(url) = in_app_target(&ev) else {
            return;
        };
        ev.prevent_default();
        let pushed = window()
            .history()
            .and_then(|h| h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url)));
        if pushed.is_ok() {
            window().scroll_to_with_x_and_y(0.0, 0.0);
            path.set(location_path());
        }
    });
    let moves = window_event_listener(leptos::ev::popstate, move |_| path.set(location_path()));
    on_cleanup(move || {
        clicks.remove();
        moves.remove();
    });
    let page = Memo::new(move |_| Page::from_path(&path.get()));
    provide_context(CurrentPage(page));
    page
}
