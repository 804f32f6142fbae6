use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct AuditArgs {
    /// Profile name from the settings file.
    #[arg(long)]
    pub profile: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// Cases JSONL.
    pub cases: Option<String>,
}

pub fn run_audit(_a: AuditArgs) -> ExitCode {
    super::fail("audit: not implemented yet")
}

pub fn run_batch(_a: BatchArgs) -> ExitCode {
    super::fail("batch: not implemented yet")
}
