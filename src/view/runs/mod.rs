//! The Runs page's decisions: which runs are listed, in what order, and how that view is
//! written in the URL.

pub mod listing;
