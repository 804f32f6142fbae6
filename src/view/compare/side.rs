//! One side of the Compare page, without the browser: reading a picked file's bytes into a
//! run, whether the chosen profile survives a new file, and what the side says it shows.
//! `ui::compare::side` and `side_picker` only move these values in and out of signals.

use crate::band::compare::RunLines;
use crate::band::compare_input;
use crate::band::compare_input::CompareInput;
use crate::route::state::ViewState;
use crate::runs::RunMeta;

/// `A` → `a`, anything else → `b` (the side's test ids and element ids).
pub fn side_id(name: &str) -> &'static str {
    if name == "A" {
        "a"
    } else {
        "b"
    }
}

/// A file's bytes (or why they could not be read) as a side's run, or why it cannot be one.
pub fn read_side(file_name: String, bytes: Result<Vec<u8>, String>) -> Result<RunLines, String> {
    let jsonl_text = String::from_utf8(bytes?)
        .map_err(|_| format!("{file_name}: this is not JSONL (not UTF-8 text)"))?;
    compare_input::read(&CompareInput {
        label: file_name,
        jsonl_text,
    })
    .map_err(|e| e.to_string())
}

/// Whether the chosen profile (empty: every line) still names one of `run`'s profiles.
pub fn keeps_profile(run: &RunLines, chosen: &str) -> bool {
    compare_input::profiles(run).iter().any(|p| p == chosen)
}

/// What the side shows: its file and how many results, or that there is none yet.
pub fn side_label(run: Option<&RunLines>) -> String {
    run.map_or("no file yet".to_string(), |r| {
        format!("{} ({} results)", r.label, r.records.len())
    })
}

/// A kept run in a side's picker: its name, when it ran (`when`, in the user's time zone)
/// and its counts, so two runs with one name ("Batch · cases.jsonl · 2 profiles") differ.
pub fn kept_option_label(run: &RunMeta, when: &str) -> String {
    let profiles = match run.profiles.len() {
        0 => String::new(),
        1 => format!(" · {}", run.profiles[0]),
        n => format!(" · {n} profiles"),
    };
    format!(
        "{} · {when} · {} results{profiles}",
        run.name, run.result_count
    )
}

/// The Report page's "Compare with…" link: its kept run as side A (`ra`), or the demo, so the
/// comparison's URL names what it compares wherever it was opened from.
pub fn compare_href(run: Option<&str>, demo: bool) -> String {
    let mut v = ViewState::default();
    if let Some(id) = run.filter(|id| !id.is_empty()) {
        v.unknown.push(("ra".into(), id.to_string()));
    } else if demo {
        v.example = Some(crate::view::report::load::DEMO.into());
    }
    v.href("compare")
}

/// The demo's two sides: its first profile on A, its second on B (public/examples/demo-results.jsonl).
pub const DEMO_PROFILES: [&str; 2] = ["baseline-v3", "cross-verify"];

/// What the page says above the demo comparison.
pub const DEMO_NOTE: &str = "Demo: the bundled sample results, profile baseline-v3 (A) against cross-verify (B); not your data. Pick a results file or a kept run on either side to compare your own.";

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = concat!(
        r#"{"id":"c1","profile":"fast","expected_credit_score":5,"credit_score":4}"#,
        "\n",
        r#"{"id":"c2","profile":"slow","expected_credit_score":2,"credit_score":1}"#,
        "\n"
    );

    #[test]
    fn two_runs_with_one_name_differ_in_the_picker() {
        let meta = |id: &str, count| RunMeta {
            id: id.into(),
            name: "Batch · cases.jsonl · 2 profiles".into(),
            kind: crate::runs::RunKind::Batch,
            created_ms: 0.0,
            finished_ms: None,
            profiles: vec!["a".into(), "b".into()],
            settings: serde_json::Value::Null,
            strategy: serde_json::Value::Null,
            inputs: serde_json::Value::Null,
            result_count: count,
            outcome: None,
        };
        let one = kept_option_label(&meta("r1", 24), "27/11/2026, 05:12:03");
        let two = kept_option_label(&meta("r2", 22), "27/11/2026, 05:40:10");
        assert_eq!(
            one,
            "Batch · cases.jsonl · 2 profiles · 27/11/2026, 05:12:03 · 24 results · 2 profiles"
        );
        assert_ne!(one, two);
    }

    #[test]
    fn compare_with_names_the_run_or_the_demo() {
        assert_eq!(compare_href(Some("r-1 x"), false), "compare?ra=r-1%20x");
        assert_eq!(compare_href(None, true), "compare?example=demo");
        assert_eq!(compare_href(Some(""), false), "compare");
    }

    #[test]
    fn ids_of_the_sides() {
        assert_eq!(side_id("A"), "a");
        assert_eq!(side_id("B"), "b");
    }

    #[test]
    fn reads_a_results_file_and_names_it() {
        let run = read_side("r.jsonl".into(), Ok(TWO.as_bytes().to_vec()));
        let run = run.expect("two scored lines");
        assert_eq!(side_label(Some(&run)), "r.jsonl (2 results)");
        assert!(keeps_profile(&run, "fast"));
        assert!(!keeps_profile(&run, "gone"));
        assert_eq!(side_label(None), "no file yet");
    }

    #[test]
    fn says_why_a_file_is_not_a_side() {
        let e = read_side("x.bin".into(), Ok(vec![0xff, 0xfe]));
        assert_eq!(
            e.err().as_deref(),
            Some("x.bin: this is not JSONL (not UTF-8 text)")
        );
        let e = read_side("y".into(), Err("could not read y".into()));
        assert_eq!(e.err().as_deref(), Some("could not read y"));
        assert!(read_side("z".into(), Ok(b"not json\n".to_vec())).is_err());
    }
}
