//! Splits mixed prose-and-LaTeX text (as models write it) into text and math segments.
//!
//! Recognised delimiters: `$$…$$` and `\[…\]` (display), `$…$` and `\(…\)` (inline).
//! `\$` is a literal dollar. A delimiter that never closes stays text, so a stray `$`
//! in model output can't swallow the rest of the page. For single `$` we follow the
//! pandoc rule that keeps prices readable: the opening `$` must be followed by a non-space,
//! the closing one preceded by a non-space and not followed by a digit ("$5 and $10" is text).
//! A closing delimiter inside braces does not close (`$\text{a $b$ c}$` is one formula).

/// One piece of a mixed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// Plain text, with `\$` already unescaped. Must be rendered as escaped text.
    Text(String),
    /// A formula (delimiters removed) for KaTeX.
    Math { tex: String, display: bool },
}

/// Split `input` into text and math segments. Adjacent text is merged; never panics, and
/// runs in time linear in the input (each byte is scanned a bounded number of times).
pub fn split(input: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut scanner = Scanner::new(input);
    let mut i = 0;
    while i < input.len() {
        match scanner.math_at(i) {
            Some((tex, display, end)) => {
                flush_text(&mut out, &mut text);
                out.push(Segment::Math {
                    tex: tex.to_string(),
                    display,
                });
                i = end;
            }
            None => {
                if input[i..].starts_with("\\$") {
                    text.push('$');
                    i += 2;
                } else {
                    let ch_len = input[i..].chars().next().map_or(1, char::len_utf8);
                    text.push_str(&input[i..i + ch_len]);
                    i += ch_len;
                }
            }
        }
    }
    flush_text(&mut out, &mut text);
    out
}

fn flush_text(out: &mut Vec<Segment>, text: &mut String) {
    if !text.is_empty() {
        out.push(Segment::Text(std::mem::take(text)));
    }
}

/// The closing delimiters, in the order of [`Scanner::failed_until`].
const CLOSERS: [&str; 4] = ["$$", "\\]", "\\)", "$"];

/// Finds formulas, remembering where a search for a closer already failed.
///
/// Why the memory: without it, every opener in a text with no closer (`$a $b $c …`, or an
/// unbalanced `{`) would rescan to the end, which is quadratic and froze the tab on a pasted
/// 1 MB line. After a search for closer `k` fails having scanned up to byte `e`, openers of the
/// same kind before `e` stay text. (A later opener could in principle close where an earlier
/// one could not, when the earlier one's extra `{` hides the closer; such text has unbalanced
/// braces and shows as text, which is the safe side.)
struct Scanner<'a> {
    s: &'a str,
    failed_until: [usize; 4],
}

impl<'a> Scanner<'a> {
    fn new(s: &'a str) -> Self {
        Scanner {
            s,
            failed_until: [0; 4],
        }
    }

    /// If a complete formula starts at byte `i`, return (tex, display, end byte).
    fn math_at(&mut self, i: usize) -> Option<(&'a str, bool, usize)> {
        let s = self.s;
        let rest = &s.as_bytes()[i..];
        let (kind, open_len, display) = if rest.starts_with(b"$$") {
            (0, 2, true)
        } else if rest.starts_with(b"\\[") {
            (1, 2, true)
        } else if rest.starts_with(b"\\(") {
            (2, 2, false)
        } else if rest.starts_with(b"$") {
            (3, 1, false)
        } else {
            return None;
        };
        if i < self.failed_until[kind] {
            return None;
        }
        let body_start = i + open_len;
        if kind != 3 {
            let close = self.find_close(kind, body_start)?;
            return non_empty(&s[body_start..close], display, close + CLOSERS[kind].len());
        }
        // Single `$`: the pandoc rule (see the module doc).
        let first = s[body_start..].chars().next()?;
        if first.is_whitespace() {
            return None;
        }
        let mut from = body_start;
        loop {
            let close = self.find_close(kind, from)?;
            let body = &s[body_start..close];
            let before_ok = body.chars().next_back().is_some_and(|c| !c.is_whitespace());
            let after_digit = s.as_bytes().get(close + 1).is_some_and(u8::is_ascii_digit);
            if before_ok && !after_digit {
                return non_empty(body, false, close + 1);
            }
            from = close + 1;
        }
    }

    /// Byte index of the next closer of `kind` at brace depth 0 from `from`, skipping escaped
    /// characters. Inline `$` math never spans a paragraph (a blank line ends the search).
    /// Works on bytes: every delimiter is ASCII, so a match is always at a character boundary
    /// (slicing the `str` at a byte inside a multi-byte character panicked here before).
    fn find_close(&mut self, kind: usize, from: usize) -> Option<usize> {
        let bytes = self.s.as_bytes();
        let close = CLOSERS[kind].as_bytes();
        let mut depth: usize = 0;
        let mut j = from;
        while j < bytes.len() {
            if depth == 0 && bytes[j..].starts_with(close) {
                return Some(j);
            }
            match bytes[j] {
                // `\$`, `\{`, `\}` are literal inside math; `\)`/`\]` as our closer was
                // checked above, so skipping the escaped byte is safe (it is ASCII whenever it
                // matters; a multi-byte character's continuation bytes match nothing).
                b'\\' => j += 1,
                b'{' => depth += 1,
                b'}' => depth = depth.saturating_sub(1),
                b'\n' if kind == 3 && bytes[j + 1..].starts_with(b"\n") => {
                    self.failed_until[kind] = self.failed_until[kind].max(j);
                    return None;
                }
                _ => {}
            }
            j += 1;
        }
        self.failed_until[kind] = bytes.len();
        None
    }
}

fn non_empty(tex: &str, display: bool, end: usize) -> Option<(&str, bool, usize)> {
    if tex.trim().is_empty() {
        None
    } else {
        Some((tex, display, end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Segment {
        Segment::Text(s.to_string())
    }
    fn m(s: &str, display: bool) -> Segment {
        Segment::Math {
            tex: s.to_string(),
            display,
        }
    }

    #[test]
    fn inline_dollars() {
        assert_eq!(
            split("so $\\frac{a}{b}$ holds"),
            vec![t("so "), m("\\frac{a}{b}", false), t(" holds")]
        );
    }

    #[test]
    fn display_dollars() {
        assert_eq!(split("$$x^2$$"), vec![m("x^2", true)]);
    }

    #[test]
    fn paren_and_bracket_delimiters() {
        assert_eq!(
            split("a \\(x\\) b \\[y\\]"),
            vec![t("a "), m("x", false), t(" b "), m("y", true)]
        );
    }

    #[test]
    fn escaped_dollar_is_text() {
        assert_eq!(split("costs \\$5 now"), vec![t("costs $5 now")]);
    }

    #[test]
    fn prices_are_not_math() {
        assert_eq!(
            split("I paid $5 and $10 today"),
            vec![t("I paid $5 and $10 today")]
        );
    }

    #[test]
    fn unclosed_delimiters_stay_text() {
        assert_eq!(split("a $x + 1"), vec![t("a $x + 1")]);
        assert_eq!(split("a $$x + 1"), vec![t("a $$x + 1")]);
        assert_eq!(split("\\(x"), vec![t("\\(x")]);
        assert_eq!(split("\\[x"), vec![t("\\[x")]);
    }

    #[test]
    fn dollar_inside_braces_does_not_close() {
        assert_eq!(
            split("$\\text{a $b$ c}$"),
            vec![m("\\text{a $b$ c}", false)]
        );
    }

    #[test]
    fn empty_math_is_text() {
        assert_eq!(split("$$$$"), vec![t("$$$$")]);
        assert_eq!(split("\\(\\)"), vec![t("\\(\\)")]);
        assert_eq!(split(""), Vec::<Segment>::new());
    }

    #[test]
    fn inline_math_does_not_span_paragraphs() {
        assert_eq!(split("$a\n\nb$"), vec![t("$a\n\nb$")]);
    }

    #[test]
    fn unicode_text_survives() {
        assert_eq!(
            split("答案是 $x=5$。"),
            vec![t("答案是 "), m("x=5", false), t("。")]
        );
    }

    #[test]
    fn html_is_just_text() {
        let s = "<img src=x onerror=alert(1)> $\\frac{a}{b}$";
        assert_eq!(
            split(s),
            vec![t("<img src=x onerror=alert(1)> "), m("\\frac{a}{b}", false)]
        );
    }

    #[test]
    fn several_formulas_in_a_row() {
        assert_eq!(split("$a$$$b$$"), vec![m("a", false), m("b", true)]);
    }

    #[test]
    fn non_ascii_next_to_delimiters_does_not_panic() {
        assert_eq!(split("$√2$"), vec![m("√2", false)]);
        assert_eq!(split("$$α$$"), vec![m("α", true)]);
        assert_eq!(split("\\(β\\)"), vec![m("β", false)]);
        assert_eq!(
            split("The price is $5 and ñ"),
            vec![t("The price is $5 and ñ")]
        );
        assert_eq!(split("答$案"), vec![t("答$案")]);
        assert_eq!(split("$\\é$"), vec![m("\\é", false)]);
        assert_eq!(split("\\[ñ"), vec![t("\\[ñ")]);
    }

    #[test]
    fn unclosed_openers_are_scanned_once() {
        // Quadratic before: every `$` rescanned to the end of the text.
        let line = "$a {".repeat(200_000);
        let started = std::time::Instant::now();
        let segments = split(&line);
        assert_eq!(segments, vec![t(&line)]);
        assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
        let many = "\\(x ".repeat(200_000);
        assert_eq!(split(&many), vec![t(&many)]);
    }

    #[test]
    fn a_paragraph_break_only_stops_the_openers_before_it() {
        assert_eq!(
            split("$5 and $ more\n\nthen $x$"),
            vec![t("$5 and $ more\n\nthen "), m("x", false)]
        );
    }
}
