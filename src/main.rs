//! One entry point, two targets: Trunk builds this for wasm32 (the browser app),
//! `cargo build` builds it natively (the `verifyfast` CLI).

#[cfg(target_arch = "wasm32")]
fn main() {
    verifyfast::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    verifyfast::cli::main()
}
