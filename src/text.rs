//! Case folding for matching text (search filters, de-duplicating audit findings).
//!
//! `str::to_lowercase` carries Unicode's full case table (about 12 KB, 4 KB gzipped, in the
//! wasm). Matching only needs the scripts users actually type with case: Latin (ASCII and
//! Latin-1), Greek and Cyrillic. Other letters (and scripts without case, such as Chinese)
//! are kept as they are, so they still match themselves.

/// `s` with upper-case Latin, Greek and Cyrillic letters lowered.
pub fn fold_case(s: &str) -> String {
    s.chars().map(fold_char).collect()
}

fn fold_char(c: char) -> char {
    let shift = match c {
        'A'..='Z' | 'À'..='Þ' if c != '×' => 32,
        'Α'..='Ω' if c != '\u{3a2}' => 32,
        'А'..='Я' => 32,
        'Ѐ'..='Џ' => 80,
        _ => 0,
    };
    char::from_u32(c as u32 + shift).unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::fold_case;

    #[test]
    fn folds_latin_greek_and_cyrillic_like_to_lowercase() {
        for s in [
            "Hello WORLD",
            "ÀÉÎÕÜ Þ",
            "ΑΒΓ ΔΩ",
            "АБВ ЯЁЂ",
            "mixed 42 ÷ ×",
        ] {
            assert_eq!(fold_case(s), s.to_lowercase(), "{s}");
        }
    }

    #[test]
    fn leaves_other_text_alone() {
        assert_eq!(fold_case("答案是 42"), "答案是 42");
        assert_eq!(fold_case("×÷ß"), "×÷ß");
    }
}
