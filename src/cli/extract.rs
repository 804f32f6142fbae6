use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ExtractArgs {
    /// JSONL file of {"id"?, "text", "question"?}; `-` or nothing reads stdin.
    pub file: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct GradeArgs {
    /// JSONL file of {"id"?, "output", "ground_truth", "question"?}; `-` or nothing reads stdin.
    pub file: Option<String>,
}

pub fn run_extract(_a: ExtractArgs) -> ExitCode {
    super::fail("extract: not implemented yet")
}

pub fn run_grade(_a: GradeArgs) -> ExitCode {
    super::fail("grade: not implemented yet")
}
