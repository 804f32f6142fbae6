//! The Proof page's wasm bundle (Trunk builds it from `index.html`; `ui::proof::host` in the app
//! loads it on the first visit to the Proof page). Natively there is nothing to run: the CLI is
//! the `verifyfast` binary (`verifyfast logic` replays and checks proofs).

#[cfg(target_arch = "wasm32")]
mod browser {
    use wasm_bindgen::prelude::*;

    /// Draw the Proof page into `host`.
    #[wasm_bindgen]
    pub fn mount_proof(host: web_sys::HtmlElement) {
        verifyfast::ui::proof::bundle::mount(host);
    }

    /// Remove the Proof page (its key listeners and LLM calls stop).
    #[wasm_bindgen]
    pub fn unmount_proof() {
        verifyfast::ui::proof::bundle::unmount();
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    eprintln!(
        "verifyfast-proof is the browser's Proof page bundle; on the command line use `verifyfast prove` and `verifyfast replay`"
    );
    std::process::ExitCode::from(2)
}
