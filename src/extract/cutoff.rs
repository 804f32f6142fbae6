//! Whether a text stops before it could have concluded (cut at a token budget, mid-sentence or
//! inside math). The final-answer rules (a cut-off text has no answer, docs/extract.md "What
//! counts as the final answer") and the doubts both ask; it needs neither, so it is its own file.

/// Words a sentence cannot end with.
const DANGLING: &[&str] = &[
    "the", "a", "an", "and", "or", "of", "to", "is", "are", "was", "were", "be", "by", "with",
    "for", "as", "than", "that", "which", "where", "so", "then", "because", "since", "if", "we",
    "there", "its", "their", "his", "her", "gives", "equals", "into", "from",
];

/// Whether `text` stops before it could have concluded: inside a brace or inline math, on an
/// operator, or on a word a sentence cannot end with. Such a text has no answer unless it
/// stated one explicitly (docs/extract.md). An end on `,` or `:`, or an unclosed `$$` (money
/// in GSM8K, `$$<<4*15=60>>60`), is only a doubt: finished solutions end that way too.
pub(super) fn cut_off(text: &str) -> bool {
    truncated(text).is_some_and(|how| {
        !matches!(
            how,
            "display math `$$` is never closed" | "a code block is never closed"
        ) && !text.trim_end().ends_with([',', ':'])
    }) || last_paragraph_unfinished(text)
}

/// Whether a text written in paragraphs (blank lines between them) stops in the middle of its
/// last one: at least three paragraphs, most of the others end a sentence (`.`, `?`, `!`, `:`,
/// a closing bracket or `$`), and the last ends on a letter ("…its center is at a distance of
/// 6 from the axis", "Alternatively"). Long chain-of-thought outputs cut at their token budget
/// end so; GSM8K's one-paragraph solutions never qualify. One pass over the newlines.
fn last_paragraph_unfinished(text: &str) -> bool {
    let t = text.trim_end();
    if !t.ends_with(|c: char| c.is_alphabetic()) {
        return false;
    }
    let bytes = t.as_bytes();
    let (mut paragraphs, mut finished_count) = (0usize, 0usize);
    let mut prev_newline: Option<usize> = None;
    let mut last_counted: Option<usize> = None;
    for i in memchr::memchr_iter(b'\n', bytes) {
        // A blank line (only spaces between two newlines) ends a paragraph; a run of blank
        // lines ends it once.
        if let Some(p) = prev_newline {
            let between = bytes.get(p + 1..i).unwrap_or(&[]);
            if between.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')) {
                let body = t.get(..p).unwrap_or("").trim_end();
                if !body.is_empty() && last_counted != Some(body.len()) {
                    last_counted = Some(body.len());
                    paragraphs += 1;
                    finished_count +=
                        usize::from(body.ends_with([
                            '.', '?', '!', ':', ')', ']', '}', '$', '*', '>', '`', '|',
                        ]));
                }
            }
        }
        prev_newline = Some(i);
    }
    paragraphs >= 2 && 10 * finished_count >= 6 * paragraphs
}

/// Why `text` looks cut off, if it does: an unclosed brace, code fence or math, or an end in
/// the middle of an expression or a sentence.
fn truncated(text: &str) -> Option<&'static str> {
    let t = text.trim_end();
    let bytes = t.as_bytes();
    if bytes.is_empty() {
        return None;
    }
    // Braces (escaped ones skipped), `$$` and code fences, each found with memchr: this runs
    // on every extraction, and most texts have none of them.
    let delimited = memchr::memchr3(b'{', b'$', b'`', bytes).is_some();
    let escaped = |i: usize| i > 0 && bytes.get(i - 1) == Some(&b'\\');
    let mut depth = 0i64;
    for i in memchr::memchr2_iter(b'{', b'}', bytes).take_while(|_| delimited) {
        if !escaped(i) {
            depth += if bytes.get(i) == Some(&b'{') { 1 } else { -1 };
        }
    }
    if depth > 0 {
        return Some("a `{` is never closed");
    }
    let runs = |c: u8, len: usize| {
        let (mut count, mut next) = (0usize, 0usize);
        for i in memchr::memchr_iter(c, bytes) {
            if i >= next
                && !escaped(i)
                && bytes
                    .get(i..i + len)
                    .is_some_and(|r| r.iter().all(|&b| b == c))
            {
                count += 1;
                next = i + len;
            }
        }
        count
    };
    if delimited && runs(b'$', 2) % 2 == 1 {
        return Some("display math `$$` is never closed");
    }
    if delimited && runs(b'`', 3) % 2 == 1 {
        return Some("a code block is never closed");
    }
    let (ls, _) = line_at(t, bytes.len() - 1);
    let line = t.get(ls..).unwrap_or("");
    let singles = memchr::memchr_iter(b'$', line.as_bytes())
        .take_while(|_| delimited)
        .filter(|&k| k == 0 || line.as_bytes().get(k - 1) != Some(&b'\\'))
        .count();
    if singles % 2 == 1 {
        let after = line
            .rfind('$')
            .and_then(|k| line.get(k + 1..))
            .unwrap_or("");
        if after.contains(['\\', '^', '{', '_']) || after.trim_end().ends_with('=') {
            return Some("inline math is never closed");
        }
    }
    if t.ends_with(['=', '+', '(', ',', ':', '\\'])
        || t.ends_with("\\cdot")
        || t.ends_with("\\times")
    {
        return Some("it ends in the middle of an expression");
    }
    let word_start = t
        .rfind(|c: char| !c.is_ascii_alphabetic())
        .map_or(0, |k| k + 1);
    // The words are lower-case ASCII: compared ignoring case, without a lower-case copy.
    let last = t.get(word_start..).unwrap_or("");
    if DANGLING.iter().any(|w| w.eq_ignore_ascii_case(last)) {
        return Some("it ends mid-sentence");
    }
    None
}

/// The line of `text` around byte `pos`: (start, end without the newline). A line that holds
/// the end of a `<think>` block starts after it (the reasoning is not part of the answer).
pub(super) fn line_at(text: &str, pos: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut start = bytes
        .get(..pos)
        .and_then(|b| memchr::memrchr(b'\n', b))
        .map_or(0, |p| p + 1);
    if let Some(close) = bytes
        .get(start..pos)
        .filter(|b| super::scan::HINK.find(b).is_some())
        .and_then(|b| rfind_ascii_ci(b, b"</think>"))
    {
        start += close + "</think>".len();
    }
    let end = bytes
        .get(pos..)
        .and_then(|b| memchr::memchr(b'\n', b))
        .map_or(bytes.len(), |p| pos + p);
    (start, end)
}

/// Case-insensitive last position of an ASCII `needle` in `hay`.
pub(super) fn rfind_ascii_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let first = *needle.first()?;
    memchr::memrchr_iter(first, hay).find(|&i| {
        hay.get(i..i + needle.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(needle))
    })
}
