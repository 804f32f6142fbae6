//! Layout of the derivation DAG the Proof page draws: hypotheses on the top row, every item one
//! row below its deepest premise, and the current step and its premises marked.

use std::collections::{HashMap, HashSet};

use super::world::WorldState;

/// Room for an id and a KaTeX-rendered formula of about 20 symbols (longer ones are clipped
/// and shown whole in the tooltip).
pub const NODE_W: f64 = 184.0;
pub const NODE_H: f64 = 56.0;
const GAP_X: f64 = 24.0;
const GAP_Y: f64 = 40.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    None,
    /// The item the current event is about.
    Current,
    /// A premise of the current item.
    Premise,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub id: String,
    pub latex: String,
    pub rule: String,
    /// `hypothesis`, or the item status in snake case.
    pub status: &'static str,
    pub mark: Mark,
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
    pub marked: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dag {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub width: f64,
    pub height: f64,
    /// Hypotheses and items left out to keep the drawing readable (see [`layout_window`]).
    pub hidden: usize,
}

/// Lay out every hypothesis and item of the state; `focus` is the id the current event is about.
pub fn layout(state: &WorldState, focus: Option<&str>) -> Dag {
    layout_window(state, focus, usize::MAX)
}

/// The ids a drawing of at most `max_nodes` nodes shows: everything when it fits; otherwise the
/// focus and its ancestry, hypotheses included (up to half the room), then the latest items.
/// A 100,000-event log has ~50,000 items: drawn whole it is unreadable and stalls the page,
/// and what a reader wants at a step is that step's derivation and its neighbours.
fn visible_ids<'a>(
    state: &'a WorldState,
    focus: Option<&'a str>,
    max_nodes: usize,
) -> Option<HashSet<&'a str>> {
    let all = state.problem.hypotheses.len() + state.items.len();
    if all <= max_nodes {
        return None;
    }
    let mut keep: HashSet<&str> = HashSet::new();
    let mut queue: Vec<&str> = focus.into_iter().collect();
    while let Some(id) = queue.pop() {
        if keep.len() >= max_nodes / 2 {
            break;
        }
        if keep.insert(id) {
            if let Some(item) = state.item(id) {
                queue.extend(item.premises.iter().map(String::as_str));
            }
        }
    }
    for item in state.items.iter().rev() {
        if keep.len() >= max_nodes {
            break;
        }
        keep.insert(&item.id);
    }
    Some(keep)
}

/// Lay out at most about `max_nodes` hypotheses and items (see [`visible_ids`]); `hidden` says
/// how many were left out. Within a row, nodes are ordered by the mean position of their
/// premises (the barycenter heuristic), which keeps edges short: on the bundled examples the
/// total edge length is shorter than in proposal order (`barycenter_order_shortens_edges…`).
pub fn layout_window(state: &WorldState, focus: Option<&str>, max_nodes: usize) -> Dag {
    layout_rows(state, focus, max_nodes, true)
}

fn layout_rows(state: &WorldState, focus: Option<&str>, max_nodes: usize, barycenter: bool) -> Dag {
    let visible = visible_ids(state, focus, max_nodes);
    let shown = |id: &str| visible.as_ref().is_none_or(|v| v.contains(id));
    let focus_premises: Vec<&str> = focus
        .and_then(|f| state.item(f))
        .map(|i| i.premises.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let mark_of = |id: &str| {
        if Some(id) == focus {
            Mark::Current
        } else if focus_premises.contains(&id) {
            Mark::Premise
        } else {
            Mark::None
        }
    };
    let mut row: HashMap<&str, usize> = HashMap::new();
    let mut rows: Vec<Vec<Node>> = vec![Vec::new()];
    for h in state.problem.hypotheses.iter().filter(|h| shown(&h.id)) {
        row.insert(&h.id, 0);
        rows[0].push(Node {
            id: h.id.clone(),
            latex: h.latex.clone(),
            rule: h.kind.clone().unwrap_or_else(|| "hypothesis".into()),
            status: "hypothesis",
            mark: mark_of(&h.id),
            x: 0.0,
            y: 0.0,
        });
    }
    // Items only cite earlier items, so one pass in order settles every row.
    for item in state.items.iter().filter(|i| shown(&i.id)) {
        let depth = item
            .premises
            .iter()
            .filter_map(|p| row.get(p.as_str()))
            .max()
            .map_or(if item.is_assumption() { 0 } else { 1 }, |d| d + 1);
        let depth = depth.max(1);
        row.insert(&item.id, depth);
        while rows.len() <= depth {
            rows.push(Vec::new());
        }
        rows[depth].push(Node {
            id: item.id.clone(),
            latex: item.latex.clone(),
            rule: item.rule.clone(),
            status: item.status.as_str(),
            mark: mark_of(&item.id),
            x: 0.0,
            y: 0.0,
        });
    }
    let widest = rows.iter().map(Vec::len).max().unwrap_or(0) as f64;
    let width = (widest * (NODE_W + GAP_X) + GAP_X).max(NODE_W + 2.0 * GAP_X);
    let mut nodes: Vec<Node> = Vec::new();
    // Node index by id (ids borrowed from the state). The same map type as `row` on purpose:
    // each distinct HashMap type adds its own hashing code to the wasm.
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (r, mut members) in rows.into_iter().enumerate() {
        let used = members.len() as f64 * (NODE_W + GAP_X) - GAP_X;
        let left = (width - used) / 2.0;
        let slot = |i: usize| left + i as f64 * (NODE_W + GAP_X);
        if barycenter && r > 0 {
            // Mean x of the premises already placed; a node without any keeps its slot.
            let key = |i: usize, n: &Node| {
                let xs: Vec<f64> = state
                    .item(&n.id)
                    .map(|item| {
                        item.premises
                            .iter()
                            .filter_map(|p| index.get(p.as_str()).map(|&k| nodes[k].x))
                            .collect()
                    })
                    .unwrap_or_default();
                if xs.is_empty() {
                    slot(i)
                } else {
                    xs.iter().sum::<f64>() / xs.len() as f64
                }
            };
            let mut keyed: Vec<(f64, Node)> = members
                .into_iter()
                .enumerate()
                .map(|(i, n)| (key(i, &n), n))
                .collect();
            // Insertion sort, stable: rows are short, and it adds no sort code to the wasm.
            for i in 1..keyed.len() {
                let mut j = i;
                while j > 0 && keyed[j - 1].0 > keyed[j].0 {
                    keyed.swap(j - 1, j);
                    j -= 1;
                }
            }
            members = keyed.into_iter().map(|(_, n)| n).collect();
        }
        for (i, mut node) in members.into_iter().enumerate() {
            node.x = slot(i);
            node.y = GAP_Y / 2.0 + r as f64 * (NODE_H + GAP_Y);
            if let Some(id) = state
                .item(&node.id)
                .map(|it| it.id.as_str())
                .or_else(|| state.hypothesis(&node.id).map(|h| h.id.as_str()))
            {
                index.insert(id, nodes.len());
            }
            nodes.push(node);
        }
    }
    let at = |id: &str| index.get(id).map(|&i| (nodes[i].x, nodes[i].y));
    let mut edges = Vec::new();
    for item in &state.items {
        let Some((tx, ty)) = at(&item.id) else {
            continue;
        };
        for p in &item.premises {
            if let Some((fx, fy)) = at(p) {
                edges.push(Edge {
                    from: p.clone(),
                    to: item.id.clone(),
                    x1: fx + NODE_W / 2.0,
                    y1: fy + NODE_H,
                    x2: tx + NODE_W / 2.0,
                    y2: ty,
                    marked: Some(item.id.as_str()) == focus,
                });
            }
        }
    }
    let hidden = state.problem.hypotheses.len() + state.items.len() - nodes.len();
    let height = nodes.iter().map(|n| n.y + NODE_H).fold(0.0, f64::max) + GAP_Y / 2.0;
    Dag {
        nodes,
        edges,
        width,
        height,
        hidden,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::engine::{Action, Engine, EngineConfig};
    use crate::logic::world::{GoalSpec, Hypothesis, Problem};

    #[test]
    fn items_sit_below_their_premises_and_the_focus_marks_its_premises() {
        let problem = Problem {
            hypotheses: vec![
                Hypothesis {
                    id: "H-1".into(),
                    latex: "P".into(),
                    kind: None,
                },
                Hypothesis {
                    id: "H-2".into(),
                    latex: "Q".into(),
                    kind: None,
                },
            ],
            goals: vec![GoalSpec {
                id: "G-1".into(),
                latex: "P".into(),
            }],
            agents: vec!["r".into()],
            ..Default::default()
        };
        let mut e = Engine::new(problem, EngineConfig::auto_accept()).unwrap();
        e.submit(&Action::new(
            "r",
            "derive",
            serde_json::json!({"conclusion": "P", "premises": ["H-1"], "rule": "reit"}),
        ));
        let dag = layout(e.state(), Some("C-001"));
        let node = |id: &str| dag.nodes.iter().find(|n| n.id == id).unwrap();
        assert!(node("C-001").y > node("H-1").y);
        assert_eq!(node("C-001").mark, Mark::Current);
        assert_eq!(node("H-1").mark, Mark::Premise);
        assert_eq!(node("H-2").mark, Mark::None);
        assert_eq!(dag.edges.len(), 1);
        assert!(dag.edges[0].marked);
        assert!(dag.width >= 2.0 * NODE_W);
        assert_eq!(dag.hidden, 0);
    }

    /// A chain H-1 → C-001 → C-002 → … of `n` derived items.
    fn long_chain(n: usize) -> Engine {
        let problem = Problem {
            hypotheses: vec![Hypothesis {
                id: "H-1".into(),
                latex: "P".into(),
                kind: None,
            }],
            agents: vec!["r".into()],
            ..Default::default()
        };
        let mut e = Engine::new(problem, EngineConfig::auto_accept()).unwrap();
        let mut last = "H-1".to_string();
        for _ in 0..n {
            let outcome = e.submit(&Action::new(
                "r",
                "derive",
                serde_json::json!({"conclusion": "P", "premises": [last], "rule": "reit"}),
            ));
            last = outcome.result.expect("reit of P is valid");
        }
        e
    }

    #[test]
    fn a_large_world_draws_the_focus_ancestry_and_the_latest_items_only() {
        let e = long_chain(300);
        let dag = layout_window(e.state(), Some("C-010"), 40);
        let ids: Vec<&str> = dag.nodes.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(dag.nodes.len(), 40);
        assert_eq!(dag.hidden, 301 - 40);
        // The focus and its whole ancestry (C-001..C-010 and H-1) are there…
        for id in ["H-1", "C-001", "C-005", "C-010"] {
            assert!(ids.contains(&id), "{id} missing");
        }
        // …then the latest items fill the rest, nothing from the middle.
        assert!(ids.contains(&"C-300"));
        assert!(!ids.contains(&"C-100"));
        assert_eq!(
            dag.nodes.iter().find(|n| n.id == "C-010").map(|n| n.mark),
            Some(Mark::Current)
        );
        assert_eq!(
            dag.nodes.iter().find(|n| n.id == "C-009").map(|n| n.mark),
            Some(Mark::Premise)
        );
        // Edges only join drawn nodes.
        assert!(dag
            .edges
            .iter()
            .all(|e| ids.contains(&e.from.as_str()) && ids.contains(&e.to.as_str())));
    }

    #[test]
    fn a_small_world_is_drawn_whole_by_the_window_too() {
        let e = long_chain(5);
        assert_eq!(layout_window(e.state(), None, 40), layout(e.state(), None));
    }

    #[test]
    fn panels_of_a_large_world_get_the_newest_items_and_the_count_left_out() {
        use crate::logic::world::ItemStatus;
        let e = long_chain(300);
        let (shown, skipped) = e.state().latest_items(&[ItemStatus::Accepted], 100);
        assert_eq!(skipped, 200);
        assert_eq!(shown.len(), 100);
        assert_eq!(shown.first().map(|i| i.id.as_str()), Some("C-201"));
        assert_eq!(shown.last().map(|i| i.id.as_str()), Some("C-300"));
        let (none, skipped) = e.state().latest_items(&[ItemStatus::Rejected], 100);
        assert!(none.is_empty());
        assert_eq!(skipped, 0);
    }

    fn edge_length(d: &Dag) -> f64 {
        d.edges
            .iter()
            .map(|e| ((e.x2 - e.x1).powi(2) + (e.y2 - e.y1).powi(2)).sqrt())
            .sum()
    }

    #[test]
    fn barycenter_order_shortens_edges_on_the_bundled_examples() {
        use crate::logic::document::load;
        use crate::logic::replay::Replayer;
        let (mut plain, mut ordered) = (0.0, 0.0);
        for file in crate::logic::document::BUNDLED_EXAMPLES {
            let path = format!("{}/public/examples/{file}", env!("CARGO_MANIFEST_DIR"));
            let loaded = load(&std::fs::read_to_string(path).unwrap()).unwrap();
            let r = Replayer::new(loaded.problem, loaded.events);
            let st = r.state_at(r.len());
            let (a, b) = (
                edge_length(&layout_rows(&st, None, usize::MAX, false)),
                edge_length(&layout_rows(&st, None, usize::MAX, true)),
            );
            println!("{file}: edge length in proposal order {a:.0}, barycenter {b:.0}");
            assert!(b <= a + 1e-6, "{file}: {b} > {a}");
            plain += a;
            ordered += b;
        }
        println!("all examples: {plain:.0} → {ordered:.0}");
        assert!(ordered < plain);
    }
}
