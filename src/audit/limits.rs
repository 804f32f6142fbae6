//! Size limits of what an audit reads (docs/audit.md, "Size limits"). One pure check for
//! every entry point: the CLI's `audit` (exit 3), `batch` case lines (a bad line, the rest
//! runs), the Audit page and its batch (a message). Without them a 2 GiB context aborted the
//! process and one 60 MB case line took 1.77 GB.

use super::run::AuditInput;

/// `context_input`: 1 MiB, several times what a 128k-token context window holds in English
/// (about 500 KB) or Chinese (about 400 KB).
pub const MAX_CONTEXT_BYTES: usize = 1024 * 1024;
/// `model_output`: 512 KiB; the longest of the 770 real long-CoT outputs in
/// tests/fixtures/reasoning_dev.jsonl is 168 KB.
pub const MAX_OUTPUT_BYTES: usize = 512 * 1024;
/// One line of a batch's cases JSONL: both texts at their limits with room for JSON escapes
/// and the other fields. A longer line is a bad line and is not buffered past this.
pub const MAX_CASE_LINE_BYTES: usize = 4 * 1024 * 1024;

/// A text over its limit: which field, how large, the limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field} is {size} bytes, over the limit of {limit} bytes ({}): shorten it", human(*limit))]
pub struct TooLarge {
    pub field: &'static str,
    pub size: usize,
    pub limit: usize,
}

/// The limit of each audited text, in the order they are checked.
pub const FIELD_LIMITS: [(&str, usize); 2] = [
    ("context_input", MAX_CONTEXT_BYTES),
    ("model_output", MAX_OUTPUT_BYTES),
];

/// `Err` for the first text over its limit.
pub fn check_input(input: &AuditInput) -> Result<(), TooLarge> {
    check_field("context_input", input.context_input.len())?;
    check_field("model_output", input.model_output.len())
}

/// `Err` when a text of `size` bytes is over the limit of `field` (`context_input` or
/// `model_output`); any other field has no limit here.
pub fn check_field(field: &'static str, size: usize) -> Result<(), TooLarge> {
    match FIELD_LIMITS.iter().find(|(f, _)| *f == field) {
        Some(&(field, limit)) if size > limit => Err(TooLarge { field, size, limit }),
        _ => Ok(()),
    }
}

/// `1048576` → `1 MiB`, `524288` → `512 KiB` (exact multiples only; else bytes).
pub fn human(bytes: usize) -> String {
    const MIB: usize = 1024 * 1024;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(context: usize, output: usize) -> AuditInput {
        AuditInput {
            context_input: "c".repeat(context),
            model_output: "o".repeat(output),
        }
    }

    #[test]
    fn texts_at_their_limits_pass_and_one_byte_more_is_named() {
        assert_eq!(
            check_input(&input(MAX_CONTEXT_BYTES, MAX_OUTPUT_BYTES)),
            Ok(())
        );
        let e = check_input(&input(MAX_CONTEXT_BYTES + 1, 1)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "context_input is 1048577 bytes, over the limit of 1048576 bytes (1 MiB): shorten it"
        );
        let e = check_input(&input(1, MAX_OUTPUT_BYTES + 1)).unwrap_err();
        assert_eq!(
            (e.field, e.size, e.limit),
            ("model_output", 524_289, 524_288)
        );
        assert!(e.to_string().contains("(512 KiB)"), "{e}");
    }
}
