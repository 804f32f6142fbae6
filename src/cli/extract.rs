//! `verifyfast extract` and `verifyfast grade`: JSONL in, JSONL out, via the shared line
//! reader. Bad lines become error records; the run always continues.

use crate::extract::records::{
    extract_record, grade_record, id_hint, parse_extract_line, parse_grade_line, GradeSummary,
    RecordError,
};
use crate::extract::{AnswerPatterns, Preset};
use crate::jsonl::{for_each_line, Line};
use std::io::{BufWriter, Read, Write};
use std::process::ExitCode;

const EXTRACT_HELP: &str = "\
Input: one JSON object per line, {\"id\"?, \"text\", \"question\"?}.
Output (stdout): one line per input line,
  {\"id\", \"answer\", \"raw\", \"span\": [start, end], \"method\", \"confidence\",
   \"low_confidence\", \"confidence_reason\", \"doubts\"?: [{\"kind\", ...}],
   \"candidates\": [{\"method\", \"answer\", \"raw\", \"span\"}, ...]}
`id` defaults to the line number. `span` is a byte range into `text`. When no answer is found,
`answer`, `raw` and `span` are null and `method` is \"none\" (no answer is not a wrong answer).
Methods, by priority: answer_tag (last non-empty <answer>...</answer>), json_field (the last
\"answer\" / \"final_answer\" field of JSON output), boxed (last \\boxed{}; several distinct boxes
are also listed in `several`), final_answer_marker / answer_heading / hash_marker (the later of
\"final answer is\", \"Answer:\", \"答案是\"..., a `# Answer` heading and \"#### N\"), whole_text (the text is a bare answer), concluding_display (with no answer stated, the last display introduced
\"So, the X is:\" that the closing remark names again), final_equation (first number after the last
`=` of the last line), main_clause, last_number. <think>...</think> is ignored.
`low_confidence` is true when there is a reason to doubt the answer (`doubts`, in words in
`confidence_reason`): rules that disagree, text after the answer reaching another value, other
values in the answer's sentence, a last line that is a remark, only the last number, a text cut
off mid-sentence or inside math, an unfinished <think>, dollars where the question asks cents
(see docs/extract.md, \"Confidence signal\"). --llm-fallback asks the model exactly then.

Answer patterns (--answer-pattern NAME=REGEX, repeatable, then the `answer_patterns` of
--settings) are tried in that order before every rule above: the first pattern that matches
gives the answer from its one capture group at its LAST match in the text, and `method` is the
pattern's name. A pattern that does not compile, has zero or several capture groups, or is too
large is refused (exit code 3) with its name.

A malformed line yields {\"id\", \"line\", \"error\"} naming its line number; the run continues.
Exit codes: 0 every line processed; 2 some lines were bad; 3 the input could not be read.

Example:
  echo '{\"id\":1,\"text\":\"So he bought 80-26=54 more\"}' | verifyfast extract";

const GRADE_HELP: &str = "\
Input: one JSON object per line, {\"id\"?, \"output\", \"ground_truth\", \"question\"?,
\"answer_type\"?}; each side may be a full solution text or a bare answer (numbers are accepted too).
Multiple choice (`\"answer_type\": \"choice\"` or --choices; also, unasked, when the gold names options
the question lists): the answer is the set of option letters the output commits to (`\\boxed{A, C, D}`
= `ACD`; two letters never earn a single-choice point; answers naming different options are
undecided); asked for, an answer that is one listed option's text counts as its letter.
Output (stdout): {\"id\", \"predicted_answer\", \"ground_truth_answer\", \"equivalent\": bool,
  \"verdict\", \"method\", \"reason\", \"predicted_method\", \"ground_truth_method\", \"low_confidence\"}
`verdict` is equal, different or undecided: undecided (\"could not decide\") means an exact
comparison was impossible (a value past the size bound, too few sample points where both sides
are defined, the strict preset facing a float); it is never counted as equivalent.
`method` is the comparison path that decided (exact_rational, big_integer, float, rounded,
symbolic, infinity, unit, tuple, interval, set, matrix, equation, percent, choice, text,
identical_text, real_set, rearranged, label, chain, base_n, decimal_comma, several, complex,
no_answer); `reason` shows both normalised answers and why they are (not) equal.
Summary on stderr: graded lines, equivalent (accuracy), no-answer count, bad lines, undecided.
`predicted_method` / `ground_truth_method` name the extraction rule, or the answer pattern
(--answer-pattern NAME=REGEX, then --settings' `answer_patterns`; tried first, on both sides,
at their last match; see `verifyfast extract --help`).

A malformed line yields {\"id\", \"line\", \"error\"} naming its line number; the run continues.
Exit codes: 0 every line processed; 2 some lines were bad; 3 the input could not be read.

Example:
  echo '{\"output\":\"The answer is $\\\\frac{1}{2}$\",\"ground_truth\":\"0.5\"}' | verifyfast grade";

#[derive(clap::Args, Debug)]
#[command(after_long_help = EXTRACT_HELP, after_help = "Run with --help for record formats and exit codes.")]
pub struct ExtractArgs {
    /// JSONL file of {"id"?, "text", "question"?}; `-` or nothing reads stdin.
    pub file: Option<String>,
    /// Ask the profile's verify model for the final answer when the rules are not confident
    /// (docs/extract.md: final answer only, temperature 0, max_tokens 30); needs --settings.
    #[arg(long, requires = "settings")]
    pub llm_fallback: bool,
    /// settings.yaml / .json with the LLMs and profiles (for --llm-fallback) and any
    /// `answer_patterns` (tried after the --answer-pattern flags).
    #[arg(long)]
    pub settings: Option<std::path::PathBuf>,
    /// Profile whose verify model answers (default: the first profile).
    #[arg(long)]
    pub profile: Option<String>,
    /// A named answer regex with exactly one capture group, tried before the built-in rules
    /// (repeatable; in the order given; the last match in the text counts).
    #[arg(long = "answer-pattern", value_name = "NAME=REGEX")]
    pub answer_patterns: Vec<String>,
}

/// `--preset` takes the names `Preset` declares (`crate::names::named_enum!`), so the flag, the
/// Python package and the grade records spell them from one table.
impl clap::ValueEnum for Preset {
    fn value_variants<'a>() -> &'a [Self] {
        &Preset::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let help = match self {
            Preset::Strict => "Exact values only",
            Preset::Lenient => "Also decimals that round to the gold (≥ 2 places), case-insensitive text, a bare list for a tuple, a fraction for an asked percent",
            Preset::Reward => "For RL rewards: lenient, but rounding only where the gold is rounded; several different final answers, a negated answer, a cut-off list marker are no answer",
        };
        Some(clap::builder::PossibleValue::new(self.as_str()).help(help))
    }
}

#[derive(clap::Args, Debug)]
#[command(after_long_help = GRADE_HELP, after_help = "Run with --help for record formats, the equivalence paths and exit codes.")]
pub struct GradeArgs {
    /// JSONL file of {"id"?, "output", "ground_truth", "question"?, "answer_type"?}; `-` or nothing reads stdin.
    pub file: Option<String>,
    /// Equivalence preset.
    #[arg(long, value_enum, default_value_t = Preset::Lenient)]
    pub preset: Preset,
    /// A named answer regex with exactly one capture group, tried before the built-in rules
    /// on both sides (repeatable; in the order given; the last match in the text counts).
    #[arg(long = "answer-pattern", value_name = "NAME=REGEX")]
    pub answer_patterns: Vec<String>,
    /// settings.yaml / .json whose `answer_patterns` are tried after the flags' patterns.
    #[arg(long)]
    pub settings: Option<std::path::PathBuf>,
    /// Grade every line as multiple choice: the answer is the set of option letters the output
    /// commits to (`\boxed{A, C, D}` = `ACD`), and an answer that is the text of one option the
    /// question lists counts as its letter. A line's `"answer_type": "choice"` asks the same for
    /// that line; without either, lines whose gold names options the question lists are graded
    /// this way too, values never read as letters.
    #[arg(long)]
    pub choices: bool,
}

/// The flags' patterns, then the settings' ones, compiled once for the whole run.
fn answer_patterns(
    flags: &[String],
    settings: Option<&std::path::Path>,
) -> Result<AnswerPatterns, String> {
    let more = match settings {
        Some(path) => super::audit::load_settings(path)?.answer_patterns,
        None => Vec::new(),
    };
    AnswerPatterns::from_flags(flags, more).map_err(|e| e.to_string())
}

fn open(file: Option<&str>) -> Result<Box<dyn Read>, String> {
    match file {
        None | Some("-") => Ok(Box::new(std::io::stdin().lock())),
        Some(path) => std::fs::File::open(path)
            .map(|f| Box::new(f) as Box<dyn Read>)
            .map_err(|e| format!("cannot open {path}: {e}")),
    }
}

/// Runs `handle` on every readable line and writes what it returns; bad lines become
/// error records. Returns the number of bad lines.
fn run_lines(
    file: Option<&str>,
    mut handle: impl FnMut(&str, usize) -> Result<String, RecordError>,
) -> Result<usize, String> {
    let reader = open(file)?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut bad = 0usize;
    let mut write_err: Option<std::io::Error> = None;
    let read = for_each_line(reader, |Line { number, text, .. }| {
        if write_err.is_some() {
            return;
        }
        let record = match text {
            Ok(t) => handle(&t, number).unwrap_or_else(|e| {
                bad += 1;
                eprintln!("verifyfast: {e}");
                e.record(number, id_hint(&t))
            }),
            Err(e) => {
                bad += 1;
                eprintln!("verifyfast: {e}");
                RecordError::Unreadable(e.to_string()).record(number, None)
            }
        };
        if let Err(e) = writeln!(out, "{record}") {
            write_err = Some(e);
        }
    });
    read.map_err(|e| format!("reading input: {e}"))?;
    if let Some(e) = write_err {
        return Err(format!("writing output: {e}"));
    }
    out.flush().map_err(|e| format!("writing output: {e}"))?;
    Ok(bad)
}

fn exit(bad: usize) -> ExitCode {
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(super::EXIT_BAD_LINES)
    }
}

fn to_json(v: &impl serde::Serialize) -> String {
    // Our records hold only strings, numbers and bools: serialising cannot fail.
    serde_json::to_string(v).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// The verify model's endpoint for `--llm-fallback`.
fn fallback_endpoint(a: &ExtractArgs) -> Result<Option<crate::llm::Endpoint>, String> {
    let (true, Some(path)) = (a.llm_fallback, a.settings.as_deref()) else {
        return Ok(None);
    };
    let settings = super::audit::load_settings(path)?;
    let name = match &a.profile {
        Some(p) => p.clone(),
        None => settings
            .profiles
            .keys()
            .next()
            .cloned()
            .ok_or("the settings define no profile")?,
    };
    let profile = settings.profile(&name).map_err(|e| e.to_string())?;
    settings
        .endpoint(&profile.verify, &super::audit::env_var)
        .map(Some)
        .map_err(|e| e.to_string())
}

pub fn run_extract(a: ExtractArgs) -> ExitCode {
    let patterns = match answer_patterns(&a.answer_patterns, a.settings.as_deref()) {
        Ok(p) => p,
        Err(e) => return super::fail(e),
    };
    let endpoint = match fallback_endpoint(&a) {
        Ok(e) => e,
        Err(e) => return super::fail(e),
    };
    let transport = crate::llm::native::client(u64::from(crate::llm::CALL_TIMEOUT_MS), None);
    let mut fallback = endpoint
        .as_ref()
        .map(|ep| crate::llm::answer_fallback::BlockingLlmFallback::new(&transport, ep));
    let result = run_lines(a.file.as_deref(), |text, line| {
        let input = parse_extract_line(text, line)?;
        let record = match fallback.as_mut() {
            None => extract_record(&input, &patterns),
            Some(fb) => crate::extract::records::ExtractRecord::new(
                input.id.clone(),
                crate::extract::extract_with_fallback(
                    &input.text,
                    input.question.as_deref(),
                    &patterns,
                    fb,
                ),
            ),
        };
        Ok(to_json(&record))
    });
    if let Some(fb) = &fallback {
        eprintln!(
            "verifyfast extract: LLM fallback asked {} time(s)",
            fb.calls
        );
        if let Some(e) = &fb.last_error {
            eprintln!("verifyfast extract: last fallback error (rule answers kept): {e}");
        }
    }
    match result {
        Ok(bad) => {
            if bad > 0 {
                eprintln!("verifyfast extract: {bad} bad lines (see error records)");
            }
            exit(bad)
        }
        Err(e) => super::fail(e),
    }
}

pub fn run_grade(a: GradeArgs) -> ExitCode {
    let preset = a.preset;
    let patterns = match answer_patterns(&a.answer_patterns, a.settings.as_deref()) {
        Ok(p) => p,
        Err(e) => return super::fail(e),
    };
    let mut summary = GradeSummary::default();
    let result = run_lines(a.file.as_deref(), |text, line| {
        let mut input = parse_grade_line(text, line)?;
        input.choices |= a.choices;
        let record = grade_record(&input, preset, &patterns);
        summary.add(&record);
        Ok(to_json(&record))
    });
    match result {
        Ok(bad) => {
            summary.bad_lines = bad;
            eprintln!("verifyfast grade: {summary}");
            exit(bad)
        }
        Err(e) => super::fail(e),
    }
}
