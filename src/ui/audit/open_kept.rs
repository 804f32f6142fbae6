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
        let k = match run::open(&id).await {
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
                when: crate::ui::runs::row::local_time(k.created_ms),
                profile: k.profile,
                profile_known,
            }),
            landed: Default::default(),
        });
    });
}
