//! Text helpers the pure modules share, each standing in for a std function whose tables or
//! algorithms would dominate its cost in the wasm.
//!
//! - [`fold_case`] for matching text (search filters, de-duplicating audit findings).
//!   `str::to_lowercase` carries Unicode's full case table (about 12 KB, 4 KB gzipped).
//!   Matching only needs the scripts users actually type with case: Latin (ASCII and
//!   Latin-1), Greek and Cyrillic. Other letters (and scripts without case, such as Chinese)
//!   are kept as they are, so they still match themselves.
//! - [`parse_f64`] for decimal numbers in settings, headers and long literals. `str::parse`
//!   for `f64` carries a 10 KB table of powers of five that gzip cannot shrink; this reads
//!   the number with serde_json's number reader, which the app has anyway.
//! - [`float_text`] and [`fixed`] write an `f64` exactly as `{}` and `{:.N}` do. std's float
//!   printing (Grisu with a Dragon4 fallback on big integers) is about 9 KB of wasm; these
//!   take the shortest digits from serde_json's writer, which the app has anyway, and do
//!   fixed precision with 128-bit integers. Native tests check them against std.

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

/// `x` as `format!("{x}")` writes it: the shortest digits that read back as `x`, never an
/// exponent (`1e21` is `1000000000000000000000`, `1.0` is `1`), `NaN`, `inf`, `-inf`. The one
/// difference: when two 17-digit texts are equally close to `x`, this one ends in the even
/// digit and std's in the higher one (both read back as `x`).
pub fn float_text(x: f64) -> String {
    if !x.is_finite() {
        return non_finite(x).to_string();
    }
    // serde_json writes the same shortest digits, in its own layout: `1.0`, `1.5e-7`, `1e+21`.
    let json = serde_json::to_string(&x).unwrap_or_default();
    let (sign, body) = match json.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", json.as_str()),
    };
    let (mantissa, exponent) = body.split_once('e').unwrap_or((body, "0"));
    let exponent: i64 = exponent.trim_start_matches('+').parse().unwrap_or(0);
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // The value is 0.DIGITS × 10^point.
    let mut digits: String = [int, frac].concat();
    let mut point = int.len() as i64 + exponent;
    while digits.starts_with('0') {
        digits.remove(0);
        point -= 1;
    }
    digits.truncate(digits.trim_end_matches('0').len());
    if digits.is_empty() {
        return format!("{sign}0");
    }
    let len = digits.len() as i64;
    let zeros = |n: i64| "0".repeat(n.max(0) as usize);
    if point <= 0 {
        format!("{sign}0.{}{digits}", zeros(-point))
    } else if point >= len {
        format!("{sign}{digits}{}", zeros(point - len))
    } else {
        let (whole, part) = digits.split_at(point as usize);
        format!("{sign}{whole}.{part}")
    }
}

/// `x` with `decimals` digits after the point, as `format!("{x:.N}")` writes it: the exact
/// binary value rounded half to even, `-0.0` for a small negative number, `NaN`/`inf` as
/// they are. Values too large for that in 128-bit integers (2^74 and more at up to six places;
/// no page shows such numbers) fall back to [`float_text`]'s digits with zeros after the point.
pub fn fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return non_finite(x).to_string();
    }
    let decimals = decimals.min(18);
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let fraction = u128::from(bits & ((1 << 52) - 1));
    // x = mantissa × 2^exponent exactly.
    let (mantissa, exponent) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    };
    let scale = 10u128.pow(decimals as u32);
    let scaled = if exponent >= 0 {
        // Integers: exact while mantissa × 2^exponent × 10^decimals fits in 128 bits.
        let exact = (exponent <= 21)
            .then(|| (mantissa << exponent).checked_mul(scale))
            .flatten();
        let Some(scaled) = exact else {
            let whole = float_text(x.abs());
            return if decimals == 0 {
                format!("{sign}{whole}")
            } else {
                format!("{sign}{whole}.{}", "0".repeat(decimals))
            };
        };
        scaled
    } else {
        let shift = -exponent;
        let product = mantissa * scale; // < 2^53 × 10^18 < 2^113
        if shift >= 128 {
            0 // below half a unit of the last digit: product < 2^113 ≤ 2^(shift - 1)
        } else {
            let quotient = product >> shift;
            let remainder = product & ((1u128 << shift) - 1);
            let half = 1u128 << (shift - 1);
            let round_up = remainder > half || (remainder == half && quotient & 1 == 1);
            quotient + u128::from(round_up)
        }
    };
    let mut digits = Vec::new();
    let mut rest = scaled;
    while rest > 0 || digits.len() <= decimals {
        digits.push(b'0' + (rest % 10) as u8);
        rest /= 10;
    }
    digits.reverse();
    let (whole, part) = digits.split_at(digits.len() - decimals);
    let whole = String::from_utf8_lossy(whole);
    if decimals == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{}", String::from_utf8_lossy(part))
    }
}

fn non_finite(x: f64) -> &'static str {
    if x.is_nan() {
        "NaN"
    } else if x > 0.0 {
        "inf"
    } else {
        "-inf"
    }
}

#[cfg(test)]
mod tests {
    use super::{fixed, float_text, fold_case, parse_f64};

    /// Values that stress float printing: ties, powers of ten, tiny and huge numbers.
    fn samples() -> Vec<f64> {
        let mut xs = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.2,
            0.3,
            0.5,
            1.5,
            2.5,
            0.125,
            0.375,
            0.0625,
            1.005,
            2.675,
            0.045,
            1e-7,
            1.5e-7,
            1e15,
            1e16,
            1e21,
            1e22,
            123456.789,
            99.995,
            0.995,
            9.5,
            10.5,
            0.05,
            0.15,
            0.25,
            0.35,
            4.35,
            5e-324,
            2.2250738585072014e-308,
            1.7976931348623157e308,
            9007199254740993.0,
            12345678901234567890.0,
            1e-300,
            -3.25159,
            1234.5,
            1e20,
            3.0e21,
            4.7e22,
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f64::from_bits(state);
            if x.is_finite() {
                xs.push(x);
            }
            // Everyday magnitudes too: percentages, milliseconds, ratios.
            xs.push((state % 2_000_000) as f64 / 1000.0 - 1000.0);
            xs.push((state % 100_000) as f64 / 99_991.0);
        }
        xs
    }

    #[test]
    fn float_text_writes_what_display_writes() {
        let mut ties = 0;
        for x in samples() {
            let (ours, std) = (float_text(x), format!("{x}"));
            if ours != std {
                // Only an exact tie in the 17th digit may differ: same length, reads back as x.
                assert_eq!(ours.len(), std.len(), "{x:e}: {ours} vs {std}");
                assert_eq!(ours.parse::<f64>().ok(), Some(x), "{x:e}: {ours} vs {std}");
                ties += 1;
            }
        }
        assert!(ties < 20, "{ties} differences");
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(float_text(x), format!("{x}"));
        }
    }

    #[test]
    fn fixed_writes_what_precision_writes() {
        for x in samples().into_iter().filter(|x| x.abs() < 1.8e22) {
            for d in 0..=6 {
                assert_eq!(fixed(x, d), format!("{x:.d$}"), "{x:e} to {d} places");
            }
        }
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(fixed(x, 2), format!("{x:.2}"));
        }
        // Large values at many places stay within 128 bits or fall back, never overflow.
        assert_eq!(fixed(1e20, 18), format!("{:.18}", 1e20));
        assert_eq!(fixed(-4.5e15, 18), format!("{:.18}", -4.5e15));
        assert_eq!(fixed(1e300, 2), format!("1{}.00", "0".repeat(300)));
    }

    #[test]
    fn parse_f64_agrees_with_std() {
        let finite = [
            "0",
            "-0",
            "1",
            "+2",
            "007",
            "0.1",
            ".5",
            "5.",
            "-.25",
            "3.141592653589793",
            "1e3",
            "1E3",
            "2.5e-3",
            "-7e+2",
            "123456789012345678901234567890",
            "1e308",
            "4.9e-324",
            "0.30000000000000004",
            "9007199254740993",
            "00.000",
        ];
        for s in finite {
            let ours = parse_f64(s).unwrap_or_else(|| panic!("{s} refused"));
            let std: f64 = s.parse().unwrap();
            let ulps = (ours.to_bits() as i64 - std.to_bits() as i64).abs();
            assert!(ulps <= 1, "{s}: {ours} vs {std}");
        }
        for s in [
            "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "0x10", "1_000", " 1", "inf", "NaN",
            "--1", "1e400",
        ] {
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
