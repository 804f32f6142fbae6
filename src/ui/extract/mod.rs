//! The Extract page's parts (the page itself is `ui::pages::extract`): one solution, a
//! `grade`-format JSONL, and the small controls they share. All logic is in `crate::extract`.

pub mod asker;
pub mod batch;
pub mod batch_load;
pub mod batch_view;
pub mod controls;
pub mod kept_open;
pub mod single;
pub mod single_result;
