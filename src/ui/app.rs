//! The app shell: navigation, the page the router picked, the footer.
use leptos::prelude::*;

use super::footer::Footer;
use super::nav::Nav;
use super::router::{use_router, Page};
use crate::ui::audit::AuditPage;
use crate::ui::compare::ComparePage;
use crate::ui::extract::ExtractPage;
use crate::ui::not_found::NotFound;
use crate::ui::proof::host::ProofHost;
use crate::ui::report::ReportPage;
use crate::ui::runs::RunsPage;
use crate::ui::settings::SettingsPage;

/// The app shell: navigation, the routed page, the footer.
#[component]
pub fn App() -> impl IntoView {
    let page = use_router();
    view! {
        <div class="shell">
            <Nav/>
            <main class="page" data-testid="page">
                {move || crate::ui::drafts_store::not_kept().get().map(|(_, message)| view! {
                    <div class="card row draft-not-kept" role="status" data-testid="draft-not-kept">
                        <span>{message}</span>
                        <button on:click=move |_| crate::ui::drafts_store::dismiss_not_kept()>"Dismiss"</button>
                    </div>
                })}
                {move || match page.get() {
                    Page::Audit => view! { <AuditPage/> }.into_any(),
                    Page::Report => view! { <ReportPage/> }.into_any(),
                    Page::Compare => view! { <ComparePage/> }.into_any(),
                    Page::Extract => view! { <ExtractPage/> }.into_any(),
                    // Its own wasm bundle, loaded on the first visit (ui::proof::host).
                    Page::Proof => view! { <ProofHost/> }.into_any(),
                    Page::Settings => view! { <SettingsPage/> }.into_any(),
                    Page::Runs => view! { <RunsPage/> }.into_any(),
                    Page::NotFound => view! { <NotFound/> }.into_any(),
                }}
            </main>
            <Footer/>
        </div>
    }
}
