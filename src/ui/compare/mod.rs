//! The Compare page's parts, one component per file; `pages/compare.rs` puts them together.

pub mod handoff;
pub mod side;
pub mod side_picker;
pub mod summary;
pub mod table;
