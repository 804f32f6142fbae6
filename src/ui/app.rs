use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use super::footer::Footer;
use super::nav::Nav;
use super::pages::{AuditPage, ExtractPage, NotFound, ProofPage, ReportPage, SettingsPage};

/// The app shell: navigation, the routed page, the footer.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <Router>
            <div class="shell">
                <Nav/>
                <main class="page" data-testid="page">
                    <Routes fallback=NotFound>
                        <Route path=path!("/") view=AuditPage/>
                        <Route path=path!("/audit") view=AuditPage/>
                        <Route path=path!("/report") view=ReportPage/>
                        <Route path=path!("/extract") view=ExtractPage/>
                        <Route path=path!("/proof") view=ProofPage/>
                        <Route path=path!("/settings") view=SettingsPage/>
                    </Routes>
                </main>
                <Footer/>
            </div>
        </Router>
    }
}
