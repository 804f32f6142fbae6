//! Scroll a box (not the page) so that one of its children is in view: the Proof page keeps
//! the current Fitch line and DAG node visible as the stepper moves.

use leptos::prelude::*;

/// Margin left around the revealed element, in CSS pixels.
const MARGIN: f64 = 12.0;

/// Scroll `container` the least needed to show its first descendant matching `selector`.
pub fn reveal(container: &web_sys::Element, selector: &str) {
    let Ok(Some(el)) = container.query_selector(selector) else {
        return;
    };
    let (c, r) = (
        container.get_bounding_client_rect(),
        el.get_bounding_client_rect(),
    );
    let dy = if r.top() < c.top() + MARGIN {
        r.top() - c.top() - MARGIN
    } else if r.bottom() > c.bottom() - MARGIN {
        (r.bottom() - c.bottom() + MARGIN).min(r.top() - c.top() - MARGIN)
    } else {
        0.0
    };
    let dx = if r.left() < c.left() + MARGIN {
        r.left() - c.left() - MARGIN
    } else if r.right() > c.right() - MARGIN {
        (r.right() - c.right() + MARGIN).min(r.left() - c.left() - MARGIN)
    } else {
        0.0
    };
    if dy != 0.0 {
        container.set_scroll_top(container.scroll_top() + dy.round() as i32);
    }
    if dx != 0.0 {
        container.set_scroll_left(container.scroll_left() + dx.round() as i32);
    }
}

/// After every change of `track`'s value, once the DOM is updated and laid out, reveal the
/// element matching `selector` inside `container`.
pub fn keep_revealed<T: Send + Sync + 'static>(
    container: NodeRef<leptos::html::Div>,
    selector: &'static str,
    track: Signal<T>,
) {
    Effect::new(move |_| {
        track.track();
        request_animation_frame(move || {
            if let Some(el) = container.get_untracked() {
                reveal(&el, selector);
            }
        });
    });
}
