//! Two text helpers the pure modules share, each standing in for a std function whose
//! tables would dominate its cost in the wasm.
//!
//! - [`fold_case`] for matching text (search filters, de-duplicating audit findings).
//!   `str::to_lowercase` carries Unicode's full case table (about 12 KB, 4 KB gzipped).
//!   Matching only needs the scripts users actually type with case: Latin (ASCII and
//!   Latin-1), Greek and Cyrillic. Other letters (and scripts without case, such as Chinese)
//!   are kept as they are, so they still match themselves.
//! - [`parse_f64`] for decimal numbers in settings, headers and long literals. `str::parse`
//!   for `f64` carries a 10 KB table of powers of five that gzip cannot shrink; this reads
//!   the number with serde_json's number reader, which the app has anyway.

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

/// A decimal number as Rust writes one (`-1.5`, `+2`, `.5`, `5.`, `007`, `1e-3`), or `None`
/// for anything else, including `inf`, `NaN` and numbers too large for `f64`. Agrees with
/// `str::parse::<f64>` on every finite result to within one unit in the last place.
pub fn parse_f64(text: &str) -> Option<f64> {
    let (sign, body) = match text.as_bytes().first()? {
        b'-' => ("-", &text[1..]),
        b'+' => ("", &text[1..]),
        _ => ("", text),
    };
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], &body[at + 1..]),
        None => (body, "0"),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let exp_digits = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
    if int.is_empty() && frac.is_empty()
        || !digits(int)
        || !digits(frac)
        || exp_digits.is_empty()
        || !digits(exp_digits)
    {
        return None;
    }
    // The same number in JSON's stricter syntax: no `+`, no leading zeros, digits on both
    // sides of the point.
    let int = int.trim_start_matches('0');
    let json = format!(
        "{sign}{}.{}e{exponent}",
        if int.is_empty() { "0" } else { int },
        if frac.is_empty() { "0" } else { frac },
    );
    serde_json::from_str::<f64>(&json).ok()
}

#[cfg(test)]
mod tests {
    use super::{fold_case, parse_f64};

    #[test]
    fn parse_f64_agrees_with_std() {
        let finite = [
            "0", "-0", "1", "+2", "007", "0.1", ".5", "5.", "-.25", "3.141592653589793",
            "1e3", "1E3", "2.5e-3", "-7e+2", "123456789012345678901234567890", "1e308",
            "4.9e-324", "0.30000000000000004", "9007199254740993", "00.000",
        ];
        for s in finite {
            let ours = parse_f64(s).unwrap_or_else(|| panic!("{s} refused"));
            let std: f64 = s.parse().unwrap();
            let ulps = (ours.to_bits() as i64 - std.to_bits() as i64).abs();
            assert!(ulps <= 1, "{s}: {ours} vs {std}");
        }
        for s in ["", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "0x10", "1_000", " 1", "inf", "NaN", "--1", "1e400"] {
            assert_eq!(parse_f64(s), None, "{s:?}");
        }
    }

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
