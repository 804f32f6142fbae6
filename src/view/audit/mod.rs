//! The Audit page's decisions: what it shows of a report (fresh or kept), the live phase
//! list, the batch panel's lines, the evidence highlight.

pub mod batch_panel;
pub mod highlight;
pub mod progress;
pub mod shown;
