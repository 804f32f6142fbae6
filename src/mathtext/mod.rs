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

/// Split `input` into text and math segments. Adjacent text is merged; never panics.
pub fn split(input: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut text = String::new();
    let bytes = input.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match find_math_at(input, i) {
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

/// If a complete formula starts at byte `i`, return (tex, display, end byte).
fn find_math_at(s: &str, i: usize) -> Option<(&str, bool, usize)> {
    let rest = &s[i..];
    if rest.starts_with("$$") {
        let body_start = i + 2;
        let close = find_close(s, body_start, "$$")?;
        return non_empty(&s[body_start..close], true, close + 2);
    }
    if rest.starts_with("\\[") {
        let close = find_close(s, i + 2, "\\]")?;
        return non_empty(&s[i + 2..close], true, close + 2);
    }
    if rest.starts_with("\\(") {
        let close = find_close(s, i + 2, "\\)")?;
        return non_empty(&s[i + 2..close], false, close + 2);
    }
    if rest.starts_with('$') {
        let body_start = i + 1;
        let first = s[body_start..].chars().next()?;
        if first.is_whitespace() {
            return None;
        }
        let mut from = body_start;
        loop {
            let close = find_close(s, from, "$")?;
            let body = &s[body_start..close];
            if body.contains("\n\n") {
                return None; // inline math never spans paragraphs
            }
            let before_ok = body.chars().last().is_some_and(|c| !c.is_whitespace());
            let after_digit = s[close + 1..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit());
            if before_ok && !after_digit {
                return non_empty(body, false, close + 1);
            }
            from = close + 1;
        }
    }
    None
}

fn non_empty(tex: &str, display: bool, end: usize) -> Option<(&str, bool, usize)> {
    if tex.trim().is_empty() {
        None
    } else {
        Some((tex, display, end))
    }
}

/// Byte index of the next `close` at brace depth 0 from `from`, skipping escaped characters.
fn find_close(s: &str, from: usize, close: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut depth: usize = 0;
    let mut j = from;
    while j < bytes.len() {
        if depth == 0 && s[j..].starts_with(close) {
            return Some(j);
        }
        match bytes[j] {
            b'\\' => {
                // `\$`, `\{`, `\}` are literal inside math; but `\)`/`\]` may be our closer,
                // which was checked above, so skipping one char here is safe.
                j += 1;
                if j < bytes.len() {
                    j += s[j..].chars().next().map_or(1, char::len_utf8);
                }
                continue;
            }
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        j += 1;
    }
    None
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
}
