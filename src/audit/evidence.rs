//! Is a finding's evidence a quote? The checking prompts ask for "the exact words of
//! context_input (or of model_output …)" (prompts.rs, `counting_rules`); a small judge sometimes
//! writes a field name (`context_input`) or its own paraphrase ("context says increased by 8%")
//! instead, and the page's highlight then made the invention look like a quote. A finding whose
//! evidence is in neither text, after the normalisation below, is marked "evidence not found"
//! and, unless the strategy's `count_unquoted_evidence` says otherwise, listed but not counted
//! (docs/audit.md, "Evidence that is not a quote").
//!
//! Normalisation, applied to the evidence and to both texts alike: full-width ASCII and the
//! ideographic space fold to their ASCII forms, curly quotes to straight ones, letters to lower
//! case, and every whitespace character is dropped (a judge re-flows line breaks and the spaces
//! between Chinese characters). Evidence cut into pieces with an ellipsis (`…`, `...`) is
//! found when every piece is; evidence that puts quotation marks around its quotes ("the
//! context says “rose 8%”") is found when every quoted part is. Empty evidence quotes nothing
//! and is not marked.

use super::report::{Counting, Finding};

/// Quotation marks a judge puts around the words it quotes: (open, close).
const QUOTE_PAIRS: &[(char, char)] = &[
    ('"', '"'),
    ('“', '”'),
    ('「', '」'),
    ('『', '』'),
    ('《', '》'),
];

/// Characters stripped from the ends of each piece (quotes the judge wrapped around the whole
/// evidence, and the punctuation it put after it).
const EDGE: &[char] = &[
    '"', '\'', '“', '”', '‘', '’', '「', '」', '『', '』', '《', '》', '.', ',', ';', ':', '。',
    '，', '；', '：',
];

/// The comparable form of a text: widths folded, quotes straightened, lower case, no whitespace.
pub fn normalise(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            // Full-width forms of ASCII (U+FF01–U+FF5E) sit at a fixed offset from ASCII.
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '‘' | '’' => '\'',
            '“' | '”' => '"',
            other => other,
        })
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The parts of `evidence` that must each be in a text: the quoted parts when it has any,
/// else its ellipsis-separated pieces; empty parts dropped.
fn pieces(evidence: &str) -> Vec<String> {
    let mut quoted = Vec::new();
    for &(open, close) in QUOTE_PAIRS {
        let mut rest = evidence;
        while let Some(start) = rest.find(open) {
            let after = &rest[start + open.len_utf8()..];
            let Some(end) = after.find(close) else {
                break;
            };
            quoted.push(&after[..end]);
            rest = &after[end + close.len_utf8()..];
        }
    }
    let parts: Vec<&str> = if quoted.is_empty() {
        vec![evidence]
    } else {
        quoted
    };
    parts
        .into_iter()
        .flat_map(|p| p.split('…').flat_map(|p| p.split("...")))
        .map(|p| normalise(p.trim().trim_matches(EDGE)))
        .map(|p| p.trim_matches(EDGE).to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// Whether `evidence` is a quote of one of `texts` (see the module doc). Empty evidence is
/// counted as quoted: it claims no words.
pub fn is_quoted(evidence: &str, texts: &[&str]) -> bool {
    let pieces = pieces(evidence);
    if pieces.is_empty() {
        return true;
    }
    let texts: Vec<String> = texts.iter().map(|t| normalise(t)).collect();
    pieces
        .iter()
        .all(|p| texts.iter().any(|t| t.contains(p.as_str())))
}

/// Mark each finding whose evidence is in neither the context nor the output; unless `count`,
/// such a finding is listed and never counted (an error already aimed at an unknown target
/// keeps that reason). Run before the counting rules (`score::mark_counting`).
pub fn mark_unquoted(findings: &mut [Finding], context: &str, output: &str, count: bool) {
    for f in findings.iter_mut() {
        f.evidence_not_found = !is_quoted(&f.evidence, &[context, output]);
        if f.evidence_not_found && !count && f.counting != Counting::UnknownTarget {
            f.counting = Counting::EvidenceNotFound;
        }
    }
}

/// The line the CLI prints for a finding marked "evidence not found" (`None` for the others).
pub fn describe(f: &Finding) -> Option<String> {
    f.evidence_not_found.then(|| {
        let counted = match f.counting {
            Counting::Counted => "counted, as the strategy's count_unquoted_evidence says",
            _ => "listed, not counted",
        };
        format!(
            "evidence not found: the {} error on {} quotes \"{}\", which is in neither the context nor the output ({counted})",
            f.phase.as_str(),
            if f.target.is_empty() { "?" } else { f.target.as_str() },
            f.evidence
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::contract::{ErrorType, Severity};
    use crate::audit::report::Phase;

    const CONTEXT: &str = "Revenue increased by 8% in 2023.\nProfit　rose to ＄5 million.";
    const OUTPUT: &str = "营收 增长了 8%，利润 达到 500 万美元。";

    fn quoted(evidence: &str) -> bool {
        is_quoted(evidence, &[CONTEXT, OUTPUT])
    }

    #[test]
    fn exact_and_reflowed_quotes_are_found() {
        assert!(quoted("Revenue increased by 8%"));
        assert!(quoted("revenue   increased\nby 8% in 2023."));
        assert!(quoted("“Revenue increased by 8%”"));
        // Full width and the ideographic space in either text.
        assert!(quoted("Profit rose to $5 million"));
        assert!(quoted("ｒｅｖｅｎｕｅ"));
        // Chinese with and without the spaces between words.
        assert!(quoted("营收增长了8%"));
        assert!(quoted("利润 达到 500 万美元"));
    }

    #[test]
    fn pieces_and_quoted_parts_must_each_be_found() {
        assert!(quoted("Revenue increased … Profit rose"));
        assert!(quoted("Revenue increased...in 2023"));
        assert!(quoted(
            "the context says \"increased by 8%\" but the output says “增长了 8%”"
        ));
        assert!(!quoted("Revenue increased … profit fell"));
        assert!(!quoted("the context says \"decreased by 8%\""));
    }

    #[test]
    fn field_names_and_paraphrases_are_not_quotes() {
        assert!(!quoted("context_input"));
        assert!(!quoted("contradiction: context says increased by 8%"));
        assert!(!quoted("Revenue fell by 8%"));
        assert!(!quoted("营收下降8%"));
    }

    #[test]
    fn empty_evidence_claims_no_words() {
        assert!(quoted(""));
        assert!(quoted("  “” "));
    }

    fn finding(evidence: &str, counting: Counting) -> Finding {
        Finding {
            phase: Phase::FactCheck,
            target: "C1".into(),
            error_type: ErrorType::Contradiction,
            severity: Severity::High,
            evidence: evidence.into(),
            explanation: String::new(),
            counting,
            evidence_not_found: false,
        }
    }

    #[test]
    fn unquoted_evidence_is_listed_not_counted_by_default() {
        let mut v = vec![
            finding("context_input", Counting::Counted),
            finding("increased by 8%", Counting::Counted),
            finding("made up", Counting::UnknownTarget),
        ];
        mark_unquoted(&mut v, CONTEXT, OUTPUT, false);
        assert!(v[0].evidence_not_found);
        assert_eq!(v[0].counting, Counting::EvidenceNotFound);
        assert!(!v[1].evidence_not_found);
        assert_eq!(v[1].counting, Counting::Counted);
        assert!(v[2].evidence_not_found);
        assert_eq!(v[2].counting, Counting::UnknownTarget);
        let line = describe(&v[0]).unwrap();
        assert!(
            line.starts_with(
                "evidence not found: the fact_check error on C1 quotes \"context_input\""
            ),
            "{line}"
        );
        assert!(line.ends_with("(listed, not counted)"), "{line}");
        assert_eq!(describe(&v[1]), None);
        // The counting rules leave the mark alone.
        crate::audit::score::mark_counting(&mut v, 3);
        assert_eq!(v[0].counting, Counting::EvidenceNotFound);
        assert_eq!(crate::audit::score::counts(&v), (1, 0));
    }

    #[test]
    fn the_strategy_may_count_it_and_the_mark_stays() {
        let mut v = vec![finding("context_input", Counting::Counted)];
        mark_unquoted(&mut v, CONTEXT, OUTPUT, true);
        assert!(v[0].evidence_not_found);
        assert_eq!(v[0].counting, Counting::Counted);
        crate::audit::score::mark_counting(&mut v, 3);
        assert_eq!(crate::audit::score::counts(&v), (1, 0));
    }

    #[test]
    fn the_mark_is_in_the_report_json_only_when_set() {
        let mut v = vec![
            finding("context_input", Counting::Counted),
            finding("", Counting::Counted),
        ];
        mark_unquoted(&mut v, CONTEXT, OUTPUT, false);
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json[0]["evidence_not_found"], true);
        assert_eq!(json[0]["status"], "evidence_not_found");
        assert!(json[1].get("evidence_not_found").is_none());
        let back: Vec<Finding> = serde_json::from_value(json).unwrap();
        assert_eq!(back, v);
    }
}
