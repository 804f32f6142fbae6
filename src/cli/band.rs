use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct BandArgs {
    /// Results JSONL.
    pub results: Option<String>,
}

pub fn run(_a: BandArgs) -> ExitCode {
    super::fail("band: not implemented yet")
}
