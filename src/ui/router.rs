//! The app's router: a path → page match (`crate::route`, pure and tested natively), a history
//! entry on each same-origin link click inside the app's base path, back/forward, and the tab title.
//! A hand-written one because leptos_router's generic route matching cost about 48 KB gzipped of
//! the wasm for five fixed pages (docs/architecture.md, "Decisions").

use leptos::prelude::*;
use wasm_bindgen::JsCast;

pub use crate::route::Page;
use crate::route::{app_path, base_path};

/// The page now shown, shared with the navigation through context.
#[derive(Clone, Copy)]
pub struct CurrentPage(pub Memo<Page>);

/// The path of the document's base URL (`/` at the root, `/verifyfast/` under a sub-path): Trunk
/// writes the public URL into `<base href>`, so the app need not be told where it is served.
fn document_base() -> String {
    let uri = document().base_uri().ok().flatten().unwrap_or_default();
    let path = web_sys::Url::new(&uri).map_or_else(|_| "/".to_string(), |u| u.pathname());
    base_path(&path).to_string()
}

/// The current path below the base, or `None` when the location is outside the app.
fn location_app_path(base: &str) -> Option<String> {
    let pathname = window().location().pathname().ok()?;
    app_path(base, &pathname).map(str::to_string)
}

/// The page the address bar shows now (outside a reactive scope, e.g. when an async task
/// finishes and must not act on a page the user has left).
pub fn current_page() -> Page {
    location_app_path(&document_base()).map_or(Page::NotFound, |p| Page::from_app_path(&p))
}

/// The in-app target of a click, when the browser should not handle it itself: a plain left
/// click on a same-origin link without `download` or a `target` of its own.
fn in_app_target(ev: &web_sys::MouseEvent, base: &str) -> Option<String> {
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
    app_path(base, &anchor.pathname())?;
    Some(format!(
        "{}{}{}",
        anchor.pathname(),
        anchor.search(),
        anchor.hash()
    ))
}

/// Tracks the location: returns the current page, and keeps it in step with link clicks and
/// back/forward; the tab title follows the page. Call once, in the app shell.
pub fn use_router() -> Memo<Page> {
    let base = document_base();
    let path = RwSignal::new(location_app_path(&base));
    let click_base = base.clone();
    let clicks = window_event_listener(leptos::ev::click, move |ev: web_sys::MouseEvent| {
        let Some(url) = in_app_target(&ev, &click_base) else {
            return;
        };
        ev.prevent_default();
        let pushed = window()
            .history()
            .and_then(|h| h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url)));
        if pushed.is_ok() {
            window().scroll_to_with_x_and_y(0.0, 0.0);
            path.set(location_app_path(&click_base));
        }
    });
    let moves = window_event_listener(leptos::ev::popstate, move |_| {
        path.set(location_app_path(&base))
    });
    on_cleanup(move || {
        clicks.remove();
        moves.remove();
    });
    let page =
        Memo::new(move |_| path.with(|p| p.as_deref().map_or(Page::NotFound, Page::from_app_path)));
    Effect::new(move |_| document().set_title(page.get().title()));
    provide_context(CurrentPage(page));
    page
}
