//! What the Proof page's DAG view writes into the page for a laid-out [`Dag`]: classes,
//! titles, inline styles, list keys and the zoom steps. Pure (no browser), so it is tested
//! natively; `ui::proof::dag` only puts these strings into elements.

use crate::logic::dag::Dag;
use crate::logic::dag::Edge;
use crate::logic::dag::Mark;
use crate::logic::dag::Node;
use crate::logic::dag::NODE_H;
use crate::logic::dag::NODE_W;

/// The zoom levels, in percent; the view starts at [`ZOOM_START`] (100 %).
pub const ZOOMS: [u32; 7] = [40, 55, 70, 85, 100, 125, 150];
pub const ZOOM_START: usize = 4;

/// The zoom in percent at step `z` (past the last step: the last).
pub fn zoom_pct(z: usize) -> u32 {
    ZOOMS[z.min(ZOOMS.len() - 1)]
}

/// Step `z` moved by `d`, kept within the zoom steps.
pub fn zoom_step(z: usize, d: isize) -> usize {
    z.saturating_add_signed(d).min(ZOOMS.len() - 1)
}

/// The largest zoom step at which a drawing of `width` × `height` (px at 100 %) fits a box of
/// `box_w` × `box_h` (the smallest step when none does; a box not laid out yet fits anything).
pub fn fit_zoom(width: f64, height: f64, box_w: f64, box_h: f64) -> usize {
    let fits = |pct: u32| {
        let s = f64::from(pct) / 100.0;
        (box_w <= 0.0 || width * s <= box_w) && (box_h <= 0.0 || height * s <= box_h)
    };
    (0..ZOOMS.len())
        .rev()
        .find(|&z| fits(ZOOMS[z]))
        .unwrap_or(0)
}

/// Whole pixels are enough to tell whether a node or edge moved.
pub fn px(v: f64) -> i64 {
    v.round() as i64
}

pub fn mark_class(mark: Mark) -> &'static str {
    match mark {
        Mark::Current => "current",
        Mark::Premise => "premise",
        Mark::None => "",
    }
}

pub fn node_class(n: &Node) -> String {
    format!("dag-node {} {}", n.status, mark_class(n.mark))
}

pub fn node_title(n: &Node) -> String {
    format!("{}: {} ({}, {})", n.id, n.latex, n.rule, n.status)
}

pub fn node_style(n: &Node) -> String {
    format!(
        "left:{}px;top:{}px;width:{}px;height:{}px",
        px(n.x),
        px(n.y),
        NODE_W,
        NODE_H
    )
}

pub fn edge_class(e: &Edge) -> &'static str {
    if e.marked {
        "dag-edge marked"
    } else {
        "dag-edge"
    }
}

/// An edge's key: everything drawn (a `String`, like every `<For>` key in the app).
pub fn edge_key(e: &Edge) -> String {
    let (x1, y1, x2, y2) = (px(e.x1), px(e.y1), px(e.x2), px(e.y2));
    format!("{} {} {} {x1} {y1} {x2} {y2}", e.from, e.to, e.marked)
}

/// A node's key: everything drawn.
pub fn node_key(n: &Node) -> String {
    let (x, y) = (px(n.x), px(n.y));
    format!("{} {} {} {x} {y}", n.id, n.status, mark_class(n.mark))
}

/// The drawing's size at scale `s` (at least one node high, so an empty one still shows).
fn size(d: &Dag, s: f64) -> String {
    let h = d.height.max(NODE_H);
    format!("width:{}px;height:{}px", px(d.width * s), px(h * s))
}

/// The scroll area's box at zoom `pct`.
pub fn frame_style(d: &Dag, pct: u32) -> String {
    size(d, f64::from(pct) / 100.0)
}

/// The canvas: drawn at full size, scaled by CSS (`pct` as a decimal, 85 → `0.85`).
pub fn canvas_style(d: &Dag, pct: u32) -> String {
    format!(
        "{};transform:scale({}.{:02})",
        size(d, 1.0),
        pct / 100,
        pct % 100
    )
}

/// The note under the toolbar when the window left nodes out.
pub fn hidden_note(hidden: usize) -> Option<String> {
    (hidden > 0).then(|| {
        format!("Showing the current step's derivation and the latest items; {hidden} others not drawn.")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(mark: Mark) -> Node {
        Node {
            id: "s3".into(),
            latex: "p".into(),
            rule: "mp".into(),
            status: "accepted",
            mark,
            x: 10.4,
            y: 19.6,
        }
    }

    #[test]
    fn zoom_stays_within_its_steps() {
        assert_eq!(zoom_pct(ZOOM_START), 100);
        assert_eq!(zoom_pct(99), 150);
        assert_eq!(zoom_step(0, -1), 0);
        assert_eq!(zoom_step(6, 1), 6);
        assert_eq!(zoom_step(4, -1), 3);
    }

    #[test]
    fn node_strings_name_status_mark_and_place() {
        let n = node(Mark::Current);
        assert_eq!(node_class(&n), "dag-node accepted current");
        assert_eq!(node_title(&n), "s3: p (mp, accepted)");
        assert!(node_style(&n).starts_with("left:10px;top:20px;"));
        assert_eq!(node_key(&n), "s3 accepted current 10 20");
        assert_eq!(node_class(&node(Mark::None)), "dag-node accepted ");
    }

    #[test]
    fn edge_key_changes_when_marked() {
        let mut e = Edge {
            from: "h1".into(),
            to: "s3".into(),
            x1: 0.0,
            y1: 1.0,
            x2: 2.0,
            y2: 3.0,
            marked: false,
        };
        let before = edge_key(&e);
        e.marked = true;
        assert_ne!(before, edge_key(&e));
        assert_eq!(edge_class(&e), "dag-edge marked");
    }

    #[test]
    fn canvas_scales_as_a_decimal() {
        let d = Dag {
            width: 200.0,
            height: 0.0,
            ..Default::default()
        };
        assert!(canvas_style(&d, 85).ends_with(";transform:scale(0.85)"));
        assert!(canvas_style(&d, 100).ends_with("scale(1.00)"));
        assert!(frame_style(&d, 50).starts_with("width:100px;"));
    }

    #[test]
    fn hidden_note_only_when_something_is_left_out() {
        assert_eq!(hidden_note(0), None);
        assert!(hidden_note(3).is_some_and(|s| s.contains("3 others")));
    }

    #[test]
    fn fit_picks_the_largest_zoom_that_fits() {
        assert_eq!(ZOOMS[fit_zoom(1000.0, 400.0, 1200.0, 600.0)], 100);
        assert_eq!(ZOOMS[fit_zoom(1000.0, 400.0, 800.0, 600.0)], 70);
        assert_eq!(ZOOMS[fit_zoom(1000.0, 400.0, 100.0, 600.0)], 40);
        assert_eq!(ZOOMS[fit_zoom(100.0, 100.0, 1200.0, 600.0)], 150);
        assert_eq!(ZOOMS[fit_zoom(100.0, 100.0, 0.0, 0.0)], 150);
    }
}
