//! The Report page's decisions: the case table, the drill-down filters and what a loaded
//! file says.

pub mod case_table;
pub mod drill;
pub mod load;
