use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// Problems JSONL (dev_cases.jsonl format).
    pub cases: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// Event log JSON.
    pub events: Option<String>,
}

pub fn run_prove(_a: ProveArgs) -> ExitCode {
    super::fail("prove: not implemented yet")
}

pub fn run_replay(_a: ReplayArgs) -> ExitCode {
    super::fail("replay: not implemented yet")
}
