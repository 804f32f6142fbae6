//! Layout of the derivation DAG the Proof page draws: hypotheses on the top row, every item one
//! row below its deepest premise, and the current step and its premises marked.

use std::collections::HashMap;

use super::world::{ItemStatus, WorldState};

pub const NODE_W: f64 = 112.0;
pub const NODE_H: f64 = 40.0;
const GAP_X: f64 = 20.0;
const GAP_Y: f64 = 36.0;

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
}

fn status_name(status: ItemStatus) -> &'static str {
    match status {
        ItemStatus::Pending => "pending",
        ItemStatus::Accepted => "accepted",
        ItemStatus::Rejected => "rejected",
        ItemStatus::Blocked => "blocked",
        ItemStatus::Retracted => "retracted",
    }
}

/// Lay out the state's hypotheses and items; `focus` is the id the current event is about.
pub fn layout(state: &WorldState, focus: Option<&str>) -> Dag {
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
    for h in &state.problem.hypotheses {
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
    for item in &state.items {
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
            status: status_name(item.status),
            mark: mark_of(&item.id),
            x: 0.0,
            y: 0.0,
        });
    }
    let widest = rows.iter().map(Vec::len).max().unwrap_or(0) as f64;
    let width = (widest * (NODE_W + GAP_X) + GAP_X).max(NODE_W + 2.0 * GAP_X);
    let mut nodes = Vec::new();
    for (r, members) in rows.into_iter().enumerate() {
        let used = members.len() as f64 * (NODE_W + GAP_X) - GAP_X;
        let left = (width - used) / 2.0;
        for (i, mut node) in members.into_iter().enumerate() {
            node.x = left + i as f64 * (NODE_W + GAP_X);
            node.y = GAP_Y / 2.0 + r as f64 * (NODE_H + GAP_Y);
            nodes.push(node);
        }
    }
    let at: HashMap<&str, (f64, f64)> = nodes.iter().map(|n| (n.id.as_str(), (n.x, n.y))).collect();
    let mut edges = Vec::new();
    for item in &state.items {
        let Some(&(tx, ty)) = at.get(item.id.as_str()) else {
            continue;
        };
        for p in &item.premises {
            if let Some(&(fx, fy)) = at.get(p.as_str()) {
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
    let height = nodes.iter().map(|n| n.y + NODE_H).fold(0.0, f64::max) + GAP_Y / 2.0;
    Dag {
        nodes,
        edges,
        width,
        height,
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
        let mut e = Engine::new(problem, EngineConfig::auto_accept());
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
    }
}
