//! The Report page's parts, one component per file; `pages/report.rs` puts them together.

pub mod bad_lines;
pub mod body;
pub mod case_panel;
pub mod cases;
pub mod dynamic;
pub mod exports;
pub mod file_picker;
pub mod filters;
pub mod groups;
pub mod histogram;
pub mod load;
pub mod matrix;
pub mod metrics;
pub mod open_in_audit;
pub mod profiles;
pub mod read;
pub mod source;
pub mod state;
pub mod summary;
pub mod url;
pub mod warnings;
