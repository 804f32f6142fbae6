//! One file per page.

mod audit;
mod compare;
mod extract;
mod not_found;
mod proof;
mod report;
mod runs;
mod settings;

pub use audit::AuditPage;
pub use compare::ComparePage;
pub use extract::ExtractPage;
pub use not_found::NotFound;
pub use proof::ProofPage;
pub use report::ReportPage;
pub use runs::RunsPage;
pub use settings::SettingsPage;
