//! What the Proof page draws at a step besides the panels: the DAG window and the Fitch lines,
//! both focused on the item the step's event is about. Pure, tested natively.

use crate::logic::dag::layout_window;
use crate::logic::dag::Dag;
use crate::logic::events::Event;
use crate::logic::fitch::layout as fitch_layout;
use crate::logic::fitch::Fitch;
use crate::logic::fitch::FitchOptions;
use crate::logic::world::WorldState;

/// Nodes the DAG draws at most: past that it shows the current step's ancestry and the latest
/// items (and says how many it left out).
pub const DAG_NODES: usize = 40;
/// Lines the Fitch view draws at most, centred on the current one.
pub const FITCH_LINES: usize = 40;

/// The DAG and the Fitch lines of `st`, focused on what `event` (the step's) is about.
pub fn views_at(st: &WorldState, event: Option<&Event>) -> (Dag, Fitch) {
    let focus = event.and_then(|e| e.subject_id());
    let dag = layout_window(st, focus, DAG_NODES);
    let fitch = fitch_layout(
        st,
        &FitchOptions {
            focus,
            window: FITCH_LINES,
            ..Default::default()
        },
    );
    (dag, fitch)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_world_draws_nothing() {
        let (dag, fitch) = views_at(&WorldState::default(), None);
        assert!(dag.nodes.is_empty() && dag.edges.is_empty());
        assert_eq!(dag.hidden, 0);
        assert_eq!(
            fitch,
            fitch_layout(&WorldState::default(), &FitchOptions::default())
        );
    }
}
