//! The Settings page's messages at the top: what went wrong, and what went right.

use leptos::prelude::*;

#[derive(Clone, Copy)]
pub struct Feedback {
    pub error: RwSignal<Option<String>>,
    pub notice: RwSignal<Option<String>>,
}

impl Feedback {
    pub fn new() -> Self {
        Feedback {
            error: RwSignal::new(None),
            notice: RwSignal::new(None),
        }
    }

    /// Show an outcome: a success replaces any error, an error any notice.
    pub fn result(&self, r: Result<String, String>) {
        match r {
            Ok(msg) => {
                self.error.set(None);
                self.notice.set(Some(msg));
            }
            Err(msg) => {
                self.notice.set(None);
                self.error.set(Some(msg));
            }
        }
    }
}
