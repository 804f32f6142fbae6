//! The Audit page's state, shared by its parts: the texts and profile (drafts), whether an
//! audit runs, what is shown, the messages, and the live clock of a running audit.

use futures::future::AbortHandle;
use leptos::prelude::*;

use crate::audit::Phase;
use crate::ui::drafts_store::draft_signal;
use crate::ui::settings_store::SettingsStore;
use crate::view::audit::progress::profile_to_pick;
use crate::view::audit::progress::PhaseView;
use crate::view::audit::shown::ReportShown;

use super::kept_from::KeptFrom;

/// What the page shows of the current audit: its phases, then its report (read by
/// `view::audit::shown`, with its JSON), and which kept run it is when one was opened.
#[derive(Clone, Default)]
pub struct Shown {
    pub phases: Vec<(Phase, PhaseView)>,
    pub report: Option<(ReportShown, String)>,
    pub kept_from: Option<KeptFrom>,
    /// Results of a running audit as they land, before the report.
    pub landed: crate::view::audit::progress::Landed,
}

#[derive(Clone, Copy)]
pub struct AuditState {
    pub context: RwSignal<String>,
    pub output: RwSignal<String>,
    pub profile: RwSignal<String>,
    pub running: RwSignal<bool>,
    /// The phases and the report in one signal: each signal type costs its own copy of the
    /// reactive code in the wasm.
    pub shown: RwSignal<Shown>,
    pub error: RwSignal<Option<String>>,
    /// A could-not-audit: its cause and what to do, shown first. (Two signals of types other
    /// pages use too, for the same reason as `shown`.)
    pub failure: RwSignal<Option<String>>,
    pub failure_fix: RwSignal<String>,
    pub notice: RwSignal<Option<String>>,
    /// (kept, run id or why not) of the last fresh audit.
    pub kept: RwSignal<Option<(bool, String)>>,
    /// The recorded demo audit is shown (`audit?example=demo`).
    pub demo: RwSignal<bool>,
    /// The live elapsed timer: whole ms (a `usize`, a signal type other pages use too),
    /// ticking while an audit runs.
    pub now: RwSignal<usize>,
    pub abort: StoredValue<Option<AbortHandle>>,
    ticker: StoredValue<Option<IntervalHandle>, LocalStorage>,
}

/// Whole milliseconds since the page loaded (the browser's monotonic clock).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now().floor())
        .unwrap_or(0.0)
}

impl AuditState {
    pub fn new(store: &SettingsStore) -> Self {
        let known = store.profile_names();
        let profile = draft_signal("audit", "profile", || profile_to_pick("", &known));
        // A kept profile that Settings no longer has falls back to the first one.
        profile.set(profile_to_pick(&profile.get_untracked(), &known));
        AuditState {
            context: draft_signal("audit", "context", String::new),
            output: draft_signal("audit", "output", String::new),
            profile,
            running: RwSignal::new(false),
            shown: RwSignal::new(Shown::default()),
            error: RwSignal::new(None),
            failure: RwSignal::new(None),
            failure_fix: RwSignal::new(String::new()),
            notice: RwSignal::new(None),
            kept: RwSignal::new(None),
            demo: RwSignal::new(false),
            now: RwSignal::new(0),
            abort: StoredValue::new(None),
            ticker: StoredValue::new_local(None),
        }
    }

    /// Start the live clock (100 ms ticks).
    pub fn start_ticker(self) {
        self.stop_ticker();
        let now = self.now;
        now.set(now_ms() as usize);
        let tick = set_interval_with_handle(
            move || now.set(now_ms() as usize),
            std::time::Duration::from_millis(100),
        );
        self.ticker.set_value(tick.ok());
    }

    pub fn stop_ticker(self) {
        if let Some(Some(h)) = self.ticker.try_get_value() {
            h.clear();
        }
        self.ticker.try_set_value(None);
    }

    /// Stop the running audit's LLM calls (dropping the future aborts their fetches).
    pub fn abort(self) {
        if let Some(Some(h)) = self.abort.try_get_value() {
            h.abort();
        }
    }

    /// Clear the messages and the shown report before something new is shown.
    pub fn clear(self) {
        self.error.set(None);
        self.failure.set(None);
        self.notice.set(None);
        self.kept.set(None);
        self.demo.set(false);
        self.shown.update(|s| {
            s.report = None;
            s.kept_from = None;
            s.landed = Default::default();
        });
    }
}
