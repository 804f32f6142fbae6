//! The choices the Proof page's live research panel makes before and after a run: which
//! profile, which researchers (added to the problem's agents), how many rounds, and the words
//! for each turn and for how the run ended. Pure (no browser), tested natively;
//! `ui::proof::research_panel` only reads its fields and starts the run.

use crate::logic::researchers::ResearchConfig;
use crate::logic::researchers::StopReason;
use crate::logic::researchers::Turn;
use crate::logic::world::Problem;

/// The profile a run uses: the chosen one, or (none chosen) the first kept.
pub fn profile_name(chosen: String, first: Option<&String>) -> String {
    if chosen.is_empty() {
        first.cloned().unwrap_or_default()
    } else {
        chosen
    }
}

/// The run's bounds from the panel's fields: 2–6 researchers, 1–50 rounds.
pub fn research_config(researchers: usize, rounds: usize, temperature: f64) -> ResearchConfig {
    ResearchConfig {
        agents: (1..=researchers.clamp(2, 6))
            .map(|i| format!("researcher-{i}"))
            .collect(),
        max_rounds: rounds.clamp(1, 50),
        temperature,
        ..Default::default()
    }
}

/// The problem with the run's researchers among its agents (each once).
pub fn with_agents(mut problem: Problem, config: &ResearchConfig) -> Problem {
    for n in &config.agents {
        if !problem.agents.contains(n) {
            problem.agents.push(n.clone());
        }
    }
    problem
}

/// A turn's line, and whether the engine took its action.
pub fn turn_line(t: &Turn) -> (bool, String) {
    let action = t
        .action
        .as_ref()
        .map_or("(no action)".to_string(), |a| a.action_type.clone());
    let (ok, outcome) = match &t.verdict {
        Ok(id) => (true, id),
        Err(why) => (false, why),
    };
    (
        ok,
        format!("round {} · {} · {action} → {outcome}", t.round, t.agent),
    )
}

/// Why the run ended, in words.
pub fn stop_text(stop: StopReason, max_rounds: usize) -> String {
    match stop {
        StopReason::AllGoalsProved => "every goal proved".to_string(),
        StopReason::RoundLimit => format!("stopped after {max_rounds} rounds"),
        StopReason::NoProgress => "stopped: a whole round without progress".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chosen_profile_wins_over_the_first() {
        let first = "a".to_string();
        assert_eq!(profile_name("b".into(), Some(&first)), "b");
        assert_eq!(profile_name(String::new(), Some(&first)), "a");
        assert_eq!(profile_name(String::new(), None), "");
    }

    #[test]
    fn fields_are_clamped() {
        let c = research_config(1, 0, 0.5);
        assert_eq!(c.agents, ["researcher-1", "researcher-2"]);
        assert_eq!(c.max_rounds, 1);
        let c = research_config(9, 99, 0.5);
        assert_eq!(c.agents.len(), 6);
        assert_eq!(c.max_rounds, 50);
        assert_eq!(c.temperature, 0.5);
    }

    #[test]
    fn researchers_join_the_agents_once() {
        let p = Problem {
            agents: vec!["researcher-1".into(), "alice".into()],
            ..Default::default()
        };
        let p = with_agents(p, &research_config(3, 5, 0.0));
        assert_eq!(
            p.agents,
            ["researcher-1", "alice", "researcher-2", "researcher-3"]
        );
    }

    #[test]
    fn turn_lines_say_what_the_engine_did() {
        let mut t = Turn {
            round: 2,
            agent: "researcher-1".into(),
            action: None,
            verdict: Ok("s4".into()),
            latency_ms: 0,
            tokens: 0,
        };
        assert_eq!(
            turn_line(&t),
            (true, "round 2 · researcher-1 · (no action) → s4".into())
        );
        t.verdict = Err("missing premise".into());
        let (ok, line) = turn_line(&t);
        assert!(!ok && line.ends_with("→ missing premise"));
    }

    #[test]
    fn stop_words() {
        assert_eq!(
            stop_text(StopReason::RoundLimit, 6),
            "stopped after 6 rounds"
        );
        assert_eq!(
            stop_text(StopReason::AllGoalsProved, 6),
            "every goal proved"
        );
    }
}
