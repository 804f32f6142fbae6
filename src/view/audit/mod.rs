//! The Audit page's decisions: what it shows of a report (fresh or kept), the live phase
//! list, the batch panel's lines, the evidence highlight, the check without a model.

pub mod batch_panel;
pub mod highlight;
pub mod model_free;
pub mod progress;
pub mod shown;
