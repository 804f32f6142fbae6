//! Marking quoted evidence inside the context or output, for the page to render as
//! `<mark>` elements (text nodes only: model text never becomes HTML).

/// A run of text, marked or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub text: String,
    pub marked: bool,
}

/// Quotes models put around evidence, which are not part of the quoted text.
const QUOTES: &[char] = &['"', '\'', '“', '”', '‘', '’', '「', '」', '《', '》', ' '];

/// Split `text` into spans where every occurrence of every needle is marked. Needles
/// shorter than two characters are ignored (they would mark noise).
pub fn highlight(text: &str, needles: &[&str]) -> Vec<Span> {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for needle in needles {
        let needle = needle.trim().trim_matches(QUOTES);
        if needle.chars().count() < 2 {
            continue;
        }
        ranges.extend(
            text.match_indices(needle)
                .map(|(start, m)| (start, start + m.len())),
        );
    }
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (s, e) in ranges {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    let mut spans = Vec::new();
    let mut at = 0;
    for (s, e) in merged {
        if s > at {
            spans.push(Span {
                text: text[at..s].to_string(),
                marked: false,
            });
        }
        spans.push(Span {
            text: text[s..e].to_string(),
            marked: true,
        });
        at = e;
    }
    if at < text.len() || spans.is_empty() {
        spans.push(Span {
            text: text[at..].to_string(),
            marked: false,
        });
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(spans: &[Span]) -> String {
        spans
            .iter()
            .map(|s| {
                if s.marked {
                    format!("[{}]", s.text)
                } else {
                    s.text.clone()
                }
            })
            .collect()
    }

    #[test]
    fn marks_every_occurrence_and_merges_overlaps() {
        let spans = highlight("营收增长11%，利润增长11%。", &["“增长11%”", "利润增长"]);
        assert_eq!(show(&spans), "营收[增长11%]，[利润增长11%]。");
    }

    #[test]
    fn absent_or_tiny_needles_mark_nothing() {
        let spans = highlight("Sales rose 5%.", &["fell", "5", ""]);
        assert_eq!(
            spans,
            vec![Span {
                text: "Sales rose 5%.".into(),
                marked: false
            }]
        );
        assert_eq!(highlight("", &["x"]).len(), 1);
    }
}
