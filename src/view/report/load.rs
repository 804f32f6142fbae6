//! What the Report page decides around loading a results file, without the browser: what it
//! opens on arrival (a linked or last-shown kept run, or a note that a picked file must be
//! picked again) and how fast a file was read.

/// What the Report page opens when it is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReportStart {
    /// A kept run, by id (`batch`: the newest batch run).
    Run(String),
    /// A note: the file shown last was picked, not kept, so it must be picked again.
    PickAgain(String),
    /// The bundled demo results (`report?example=demo`, or the demo was shown last).
    Demo,
    Nothing,
}

/// The URL's `example=` value and the remembered source that mean the demo.
pub const DEMO: &str = "demo";

/// The demo's results file under `examples/` (public/examples/demo-results.jsonl): a batch of
/// the baseline's shape (20 cases, tags, difficulty) under two profiles.
pub const DEMO_RESULTS: &str = "demo-results.jsonl";

/// What the page says above a demo, so it is never taken for the user's own results.
pub const DEMO_NOTE: &str = "Demo: sample results bundled with the app (20 cases under two profiles, baseline-v3 and cross-verify), not your data. Pick your own results file above to replace them.";

/// `report?run=<id>` opens that run; else what the page showed last (`last`: a run id, or
/// `file:<name>` for a picked file that could not be kept).
/// `report?example=demo` opens the demo.
pub fn report_start(
    url_run: Option<String>,
    url_example: Option<&str>,
    last: Option<String>,
) -> ReportStart {
    if url_run.is_none() && url_example == Some(DEMO) {
        return ReportStart::Demo;
    }
    match (url_run, last) {
        (Some(id), _) => ReportStart::Run(id),
        (None, Some(src)) if src == DEMO => ReportStart::Demo,
        (None, Some(src)) => match src.strip_prefix("file:") {
            Some(name) => ReportStart::PickAgain(format!(
                "Last shown here: {name}. A picked file is not kept by the browser: pick it again to see its report."
            )),
            None => ReportStart::Run(src),
        },
        (None, None) => ReportStart::Nothing,
    }
}

/// How long reading `bytes` took (`ms`): size, time and rate.
pub fn read_timing(bytes: f64, ms: f64) -> String {
    let mb = bytes / 1e6;
    let secs = ms / 1000.0;
    let rate = if secs > 0.0 { mb / secs } else { 0.0 };
    format!("{mb:.1} MB read in {secs:.2} s ({rate:.0} MB/s)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_wins_then_the_last_run() {
        assert_eq!(
            report_start(Some("r1".into()), None, Some("r2".into())),
            ReportStart::Run("r1".into())
        );
        assert_eq!(
            report_start(None, None, Some("r2".into())),
            ReportStart::Run("r2".into())
        );
        assert_eq!(report_start(None, None, None), ReportStart::Nothing);
        assert_eq!(report_start(None, Some(DEMO), None), ReportStart::Demo);
        assert_eq!(
            report_start(None, None, Some(DEMO.into())),
            ReportStart::Demo
        );
        // A run in the URL wins over the demo; an unknown example is no demo.
        assert_eq!(
            report_start(Some("r1".into()), Some(DEMO), None),
            ReportStart::Run("r1".into())
        );
        assert_eq!(report_start(None, Some("x"), None), ReportStart::Nothing);
    }

    #[test]
    fn a_picked_file_is_named_not_opened() {
        let ReportStart::PickAgain(note) = report_start(None, None, Some("file:a.jsonl".into()))
        else {
            panic!("a picked file cannot be reopened");
        };
        assert!(note.starts_with("Last shown here: a.jsonl. "));
    }

    #[test]
    fn timing_in_mb_and_seconds() {
        assert_eq!(
            read_timing(5_000_000.0, 2_000.0),
            "5.0 MB read in 2.00 s (2 MB/s)"
        );
        assert_eq!(read_timing(1e6, 0.0), "1.0 MB read in 0.00 s (0 MB/s)");
    }
}
