//! "Compare with…" from the Report page: the file it shows, handed to the Compare page in
//! memory (a picked file cannot go into a URL or storage).

use std::cell::RefCell;

thread_local! {
    static PENDING: RefCell<Option<web_sys::File>> = const { RefCell::new(None) };
}

pub fn set(file: Option<web_sys::File>) {
    PENDING.with(|p| *p.borrow_mut() = file);
}

/// The handed-over file, once.
pub fn take() -> Option<web_sys::File> {
    PENDING.with(|p| p.borrow_mut().take())
}
