use leptos::prelude::*;

use super::footer::Footer;
use super::nav::Nav;
use super::pages::{
    AuditPage, ComparePage, ExtractPage, NotFound, ReportPage, RunsPage, SettingsPage,
};
use super::proof_host::ProofHost;
use super::router::{use_router, Page};

/// The app shell: navigation, the routed page, the footer.
#[component]
pub fn App() -> impl IntoView {
    let page = use_router();
    view! {
        <div class="shell">
            <Nav/>
            <main class="page" data-testid="page">
                {move || match page.get() {
                    Page::Audit => view! { <AuditPage/> }.into_any(),
                    Page::Report => view! { <ReportPage/> }.into_any(),
                    Page::Compare => view! { <ComparePage/> }.into_any(),
                    Page::Extract => view! { <ExtractPage/> }.into_any(),
                    // Its own wasm bundle, loaded on the first visit (ui::proof_host).
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
