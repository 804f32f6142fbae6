//! Small icons as inline SVG: font glyphs such as ⏮ ⏭ ☀ showed as empty boxes on minimal
//! Linux installs without a symbol font. Each draws in `currentColor`, 1em square, and is
//! hidden from screen readers (the button beside it carries the words).

use leptos::prelude::*;

/// One icon: a 24×24 view box filled with `path` (`d` attribute).
fn icon(class: &'static str, d: &'static str) -> AnyView {
    view! {
        <svg class=format!("icon {class}") viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
            <path d=d fill="currentColor"/>
        </svg>
    }
    .into_any()
}

/// Three bars (the phone menu).
pub fn menu() -> AnyView {
    icon("icon-menu", "M3 5h18v2H3zM3 11h18v2H3zM3 17h18v2H3z")
}

/// A bar and a triangle pointing left (go to the start).
pub fn first() -> AnyView {
    icon("icon-first", "M5 5h2v14H5zM19 5v14L8 12z")
}

/// A triangle pointing left.
pub fn prev() -> AnyView {
    icon("icon-prev", "M17 5v14L6 12z")
}

/// A triangle pointing right.
pub fn next() -> AnyView {
    icon("icon-next", "M7 5v14l11-7z")
}

/// A triangle and a bar pointing right (go to the end).
pub fn last() -> AnyView {
    icon("icon-last", "M17 5h2v14h-2zM5 5v14l11-7z")
}

/// A sun (switch to the light theme).
pub fn sun() -> AnyView {
    icon(
        "icon-sun",
        "M12 7a5 5 0 1 1 0 10a5 5 0 0 1 0-10zM11 1h2v3h-2zM11 20h2v3h-2zM1 11h3v2H1zM20 11h3v2h-3zM4.2 5.6l1.4-1.4l2.1 2.1l-1.4 1.4zM16.3 17.7l1.4-1.4l2.1 2.1l-1.4 1.4zM4.2 18.4l2.1-2.1l1.4 1.4l-2.1 2.1zM16.3 6.3l2.1-2.1l1.4 1.4l-2.1 2.1z",
    )
}

/// A crescent (switch to the dark theme).
pub fn moon() -> AnyView {
    icon(
        "icon-moon",
        "M14.5 2.5A9.5 9.5 0 1 0 21.5 15A7.5 7.5 0 0 1 14.5 2.5z",
    )
}

/// Four corners (fit the drawing to its box).
pub fn fit() -> AnyView {
    icon(
        "icon-fit",
        "M3 3h7v2H5v5H3zM14 3h7v7h-2V5h-5zM3 14h2v5h5v2H3zM19 14h2v7h-7v-2h5z",
    )
}
