//! `audit?run=<id>` (Open on the Runs page, or a reload): a kept audit shown in the same view
//! as a fresh one, its texts in the fields and its profile picked, ready to run again.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::run;
use crate::view::audit::progress::from_stored;
use crate::view::audit::shown::ReportShown;

use super::kept_from::KeptFrom;
use super::state::AuditState;
use super::state::Shown;

pub fn open_kept(page: AuditState, id: String, known_profiles: Vec<String>) {
    spawn_local(async move {
        let url = crate::ui::query::current();
        let k = match run::open(&id, url.case.as_deref(), url.profile.as_deref()).await {
            Ok(k) => k,
            Err(e) => {
                let why = format!("Cannot show kept audit {id}: {e}.");
                return page.error.set(Some(why));
            }
        };
        page.context.set(k.context);
        page.output.set(k.output);
        let profile_known = known_profiles.contains(&k.profile);
        if profile_known {
            page.profile.set(k.profile.clone());
        }
        let report = ReportShown::read(&k.report);
        if let Some((cause, fix)) = report.failure() {
            page.failure_fix.set(fix.to_string());
            page.failure.set(Some(cause));
        }
        page.shown.set(Shown {
            phases: from_stored(&report),
            // Compact: a pretty printer for `Value` would be one more serializer in the wasm.
            report: Some((report, crate::jsonl::compact(&k.report))),
            kept_from: Some(KeptFrom {
                name: k.name,
                when: crate::ui::local_time::local_time(k.created_ms),
                profile: k.profile,
                profile_known,
            }),
            landed: Default::default(),
        });
    });
}

/// `audit?example=demo`: the recorded audit bundled with the app (public/examples/demo-audit.json),
/// shown as a kept one is, marked as the demo. Nothing is sent anywhere.
pub fn open_demo(page: AuditState) {
    spawn_local(async move {
        let doc = crate::ui::browser_file::fetch_example(DEMO_AUDIT)
            .await
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).map_err(|e| e.to_string()));
        let doc = match doc {
            Ok(d) => d,
            Err(e) => {
                return page
                    .error
                    .set(Some(format!("The demo could not be opened: {e}")))
            }
        };
        let Some((input, stored)) = crate::audit::batch::recorded_audit(&doc) else {
            return page.error.set(Some("The demo has no report.".into()));
        };
        page.context.set(input.context_input);
        page.output.set(input.model_output);
        let report = ReportShown::read(stored);
        page.demo.set(true);
        page.shown.set(Shown {
            phases: from_stored(&report),
            report: Some((report, crate::jsonl::compact(stored))),
            kept_from: None,
            landed: Default::default(),
        });
        let v = crate::route::state::ViewState {
            example: Some(crate::view::report::load::DEMO.into()),
            ..Default::default()
        };
        crate::ui::query::set(&v, false);
    });
}

/// The recorded demo audit under `examples/`.
const DEMO_AUDIT: &str = "demo-audit.json";
