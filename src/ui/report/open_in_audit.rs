//! "Open in Audit": a profile chooser and a link that fills the Audit page's context and
//! output drafts with the case's and asks Audit to run it once under that profile
//! (`ui::links::ask_run_once`: set by this click only).

use crate::ui::options::bound_select;
use leptos::prelude::*;

use crate::ui::drafts_store;
use crate::ui::links::ask_run_once;
use crate::ui::settings_store::settings_store;

pub fn open_in_audit(context: Option<String>, output: Option<String>) -> AnyView {
    let (Some(context), Some(output)) = (context, output) else {
        return view! {
            <p class="muted">"This line has no context_input and model_output to audit again."</p>
        }
        .into_any();
    };
    let names = settings_store().profile_names();
    if names.is_empty() {
        return view! {
            <p class="muted" data-testid="report-open-audit-none">
                "To audit this case again, add a profile on the "<a href="settings">"Settings"</a>" page."
            </p>
        }
        .into_any();
    }
    let profile = RwSignal::new(
        drafts_store::read("audit", "profile")
            .filter(|p| names.contains(p))
            .unwrap_or_else(|| names[0].clone()),
    );
    let go = move |_| {
        drafts_store::write("audit", "context", &context);
        drafts_store::write("audit", "output", &output);
        drafts_store::write("audit", "profile", &profile.get_untracked());
        ask_run_once();
        // The link itself navigates (the router takes the click after this handler).
    };
    view! {
        <div class="row" data-testid="report-open-audit">
            {bound_select("Profile ", String::from("report-open-audit-profile"), profile, None, Box::new(move || names.clone()))}
            <a class="button" href="audit" data-testid="report-open-audit-go" on:click=go>
                "Open in Audit and run again"
            </a>
        </div>
    }
    .into_any()
}
