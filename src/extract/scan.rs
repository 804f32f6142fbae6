//! Hand-written byte scanners for numbers in running text (the hot path: no regex).
//!
//! A number token is `[-]digits[(,ddd)*][.digits][/digits]`; `\,ddd` and `{,}ddd` also group
//! thousands. A comma only groups when exactly three digits follow, so `(1,2)` stays two numbers;
//! a comma and exactly two digits before a currency sign (`2,74 $`, `1000,99€`) is a decimal
//! comma.

use std::sync::LazyLock;

use memchr::memmem::Finder;

const UNICODE_MINUS: &[u8] = "−".as_bytes();

fn is_digit(b: Option<&u8>) -> bool {
    b.is_some_and(u8::is_ascii_digit)
}

/// Length of exactly three digits at `i` not followed by a fourth.
fn three_digits(bytes: &[u8], i: usize) -> bool {
    (0..3).all(|k| is_digit(bytes.get(i + k))) && !is_digit(bytes.get(i + 3))
}

fn digits_end(bytes: &[u8], mut i: usize) -> usize {
    while is_digit(bytes.get(i)) {
        i += 1;
    }
    i
}

/// If a sign may start at `i` (not a binary minus like `80-26`), the byte length of the sign.
fn sign_len(bytes: &[u8], i: usize) -> Option<usize> {
    let len = if bytes.get(i) == Some(&b'-') {
        1
    } else if bytes.get(i..i + 3) == Some(UNICODE_MINUS) {
        3
    } else {
        return None;
    };
    let prev_ok = i == 0
        || bytes
            .get(i - 1)
            .is_some_and(|&p| !(p.is_ascii_alphanumeric() || matches!(p, b')' | b']' | b'}')));
    let next_ok = is_digit(bytes.get(i + len))
        || (bytes.get(i + len) == Some(&b'.') && is_digit(bytes.get(i + len + 1)));
    (prev_ok && next_ok).then_some(len)
}

/// End of the number starting exactly at `i`, if one does.
pub fn number_end(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i + sign_len(bytes, i).unwrap_or(0);
    let start_digits = j;
    j = digits_end(bytes, j);
    let has_int = j > start_digits;
    let head_len = j - start_digits;
    if has_int {
        loop {
            if bytes.get(j) == Some(&b',') && three_digits(bytes, j + 1) {
                j += 4;
            } else if bytes.get(j..j + 2) == Some(b"\\,") && three_digits(bytes, j + 2) {
                j += 5;
            } else if bytes.get(j..j + 3) == Some(b"{,}") && three_digits(bytes, j + 3) {
                j += 6;
            } else if bytes.get(j) == Some(&b' ')
                && head_len <= 3
                && three_digits(bytes, j + 1)
                && !matches!(bytes.get(j + 4), Some(b'/' | b'-' | b'*' | b'x'))
            {
                // `17 000`: only a short leading group, so "in 2019 100 people" stays apart.
                j += 4;
            } else {
                break;
            }
        }
    }
    let grouped = j > start_digits + head_len;
    if bytes.get(j) == Some(&b'.') && is_digit(bytes.get(j + 1)) {
        j = digits_end(bytes, j + 1);
    } else if has_int && !grouped && decimal_comma_price(bytes, j) {
        // `2,74 $`, `1000,99€`: a price written with a decimal comma (docs/extract.md, "What
        // counts as the final answer"); the comparison reads `2,74` as 2.74.
        j += 3;
    } else if !has_int {
        return None;
    }
    if bytes.get(j) == Some(&b'/') && is_digit(bytes.get(j + 1)) {
        j = digits_end(bytes, j + 1);
    } else if let Some(end) = times_ten_power(bytes, j) {
        j = end;
    }
    Some(j)
}

/// Scientific notation written in plain text after a mantissa ending at `i`: `1.28 x 10^-6`,
/// `3×10^{5}`, `2 X 10^8` (a power of ten after `x`, `X` or `×`). The end of the power, if one
/// follows. LaTeX's `\times 10^{…}` lives in math spans, read there.
fn times_ten_power(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    let skip_space = |mut k: usize| {
        while bytes.get(k) == Some(&b' ') {
            k += 1;
        }
        k
    };
    j = skip_space(j);
    j += match bytes.get(j)? {
        b'x' | b'X' => 1,
        _ if bytes.get(j..j + 2) == Some("×".as_bytes()) => 2,
        _ => return None,
    };
    j = skip_space(j);
    if bytes.get(j..j + 3) != Some(b"10^") {
        return None;
    }
    j += 3;
    let braced = bytes.get(j) == Some(&b'{');
    j += usize::from(braced);
    if matches!(bytes.get(j), Some(b'-' | b'+')) {
        j += 1;
    }
    let end = digits_end(bytes, j);
    if end == j {
        return None;
    }
    if braced {
        (bytes.get(end) == Some(&b'}')).then_some(end + 1)
    } else {
        // `10^-6x` is no power of ten alone.
        (!bytes.get(end).is_some_and(u8::is_ascii_alphanumeric)).then_some(end)
    }
}

/// Whether `bytes[i..]` is `,` and exactly two digits, then a currency sign (after one space
/// at most): the cents of a price written with a decimal comma. Elsewhere `1,22` stays a pair
/// (`(1,22)`, "rows 1,2"): only the currency sign says which it is.
fn decimal_comma_price(bytes: &[u8], i: usize) -> bool {
    if bytes.get(i) != Some(&b',')
        || !is_digit(bytes.get(i + 1))
        || !is_digit(bytes.get(i + 2))
        || is_digit(bytes.get(i + 3))
    {
        return false;
    }
    let spaced = bytes.get(i + 3) == Some(&b' ');
    let rest = bytes.get(i + 3 + usize::from(spaced)..).unwrap_or(&[]);
    // A dollar sign right after the digits closes math (`$1,10$` lists 1 and 10); the price
    // puts a space before it and ends there (`2,74 $ a`).
    let dollar = spaced
        && rest.first() == Some(&b'$')
        && rest
            .get(1)
            .is_none_or(|b| b.is_ascii_whitespace() || (b.is_ascii_punctuation() && *b != b'$'));
    dollar || rest.starts_with("€".as_bytes()) || rest.starts_with("£".as_bytes())
}

/// Whether a number may start at `i` (so we don't start inside `x2` or the `5` of `1.5`).
fn can_start(bytes: &[u8], i: usize) -> bool {
    let b = match bytes.get(i) {
        Some(b) => *b,
        None => return false,
    };
    let starts = b.is_ascii_digit() || b == b'-' || b == 0xE2 || b == b'.';
    if !starts {
        return false;
    }
    if b == b'-' || b == 0xE2 {
        return sign_len(bytes, i).is_some();
    }
    match i.checked_sub(1).and_then(|p| bytes.get(p)) {
        Some(p) => !(p.is_ascii_alphanumeric() || *p == b'.' || *p == b'_'),
        None => true,
    }
}

/// The first number in `text[from..to]`, skipping `<<…>>` calculator annotations.
pub fn next_number(text: &str, from: usize, to: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let to = to.min(bytes.len());
    let mut i = from;
    while i < to {
        // Only a digit, a sign, a `.` or a `<` can start a number or a `<<…>>` annotation
        // ([`can_start`]): the other bytes are passed over in a tight loop.
        match bytes.get(i..to) {
            Some(rest) => match rest.iter().position(|&b| MAY_START[usize::from(b)]) {
                Some(off) => i += off,
                None => return None,
            },
            None => return None,
        }
        if bytes.get(i..i + 2) == Some(b"<<") {
            i = find_from(bytes, b">>", i + 2).map_or(to, |e| e + 2);
            continue;
        }
        if can_start(bytes, i) {
            if let Some(e) = number_end(bytes, i) {
                if e <= to {
                    return Some((i, e));
                }
            }
        }
        i += 1;
    }
    None
}

/// The last number in `text[from..to]` (annotations skipped): what [`scan_last`] finds, without
/// walking every number of a long solution. A number never spans a line break, so the scan
/// from the start of the line that holds the last digit finds the same numbers on that line
/// as the scan from `from` does, unless a `<<…>>` annotation the scan from `from` skips covers
/// that line start (or one never closes before it, which ends that scan): the annotations are
/// followed from `from` to check. When that line has no number, the part before it is scanned.
pub fn last_number(text: &str, from: usize, to: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let to = to.min(bytes.len());
    // Every number holds a digit inside `from..to`.
    let digit = from + bytes.get(from..to)?.iter().rposition(u8::is_ascii_digit)?;
    let line = bytes
        .get(from..digit)
        .and_then(|b| memchr::memrchr(b'\n', b))
        .map(|nl| from + nl + 1);
    match line {
        Some(line) if !annotation_covers(bytes, from, line) => {
            scan_last(text, line, to).or_else(|| scan_last(text, from, line - 1))
        }
        _ => scan_last(text, from, to),
    }
}

/// Whether a scan from `from` ([`next_number`]) is inside a `<<…>>` annotation at `pos`, or
/// stopped before it at one that never closes.
fn annotation_covers(bytes: &[u8], from: usize, pos: usize) -> bool {
    let mut at = from;
    while let Some(open) = find_from(bytes, b"<<", at).filter(|&open| open < pos) {
        match find_from(bytes, b">>", open + 2) {
            Some(close) if close + 2 <= pos => at = close + 2,
            _ => return true,
        }
    }
    false
}

/// The last number in `text[from..to]`, by scanning all of them: [`last_number`]'s reading.
fn scan_last(text: &str, from: usize, to: usize) -> Option<(usize, usize)> {
    let mut last = None;
    let mut pos = from;
    while let Some((s, e)) = next_number(text, pos, to) {
        last = Some((s, e));
        pos = e.max(s + 1);
    }
    last
}

/// `hink>`: the end of `<think>` and `</think>` (and of `<THINK>` in lower case); a text without
/// it has no thought block. One searcher for every call (building one per call cost more than
/// searching a short text).
pub static HINK: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"hink>"));

/// The bytes [`next_number`] stops at: what [`can_start`] accepts (a digit, `-`, `.`, the lead
/// byte of `−`) and the `<` of a `<<…>>` calculator annotation.
static MAY_START: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = b'0';
    while b <= b'9' {
        t[b as usize] = true;
        b += 1;
    }
    t[b'-' as usize] = true;
    t[b'.' as usize] = true;
    t[0xE2] = true;
    t[b'<' as usize] = true;
    t
};

/// Byte position of the first `needle` in `hay`: `str::find` for the rules' short fixed words,
/// without building a substring searcher per call (which cost more than the search on the short
/// lines the rules read). `needle` is not empty.
pub fn find_str(hay: &str, needle: &str) -> Option<usize> {
    find_from(hay.as_bytes(), needle.as_bytes(), 0)
}

/// [`find_from`] with a searcher built once (`static … LazyLock<Finder>`): for a needle whose
/// first byte is common (`answer`, `option`), stopping at every `a` or `o` cost more than
/// the search (memmem looks for the needle's rarest bytes).
pub fn find_with(hay: &[u8], needle: &memchr::memmem::Finder<'_>, from: usize) -> Option<usize> {
    needle.find(hay.get(from..)?).map(|at| from + at)
}

/// Byte position of `needle` at or after `from`.
pub fn find_from(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() || from >= hay.len() {
        return None;
    }
    let first = *needle.first()?;
    let mut i = from;
    while i + needle.len() <= hay.len() {
        // memchr (SIMD) for the first byte: the rules search every text for `<think>`,
        // `\boxed`, "answer", `####`…, and a byte-by-byte loop was most of their time.
        match memchr::memchr(first, hay.get(i..)?) {
            Some(off) => i += off,
            None => return None,
        }
        if hay.get(i..i + needle.len()) == Some(needle) {
            return Some(i);
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_str_is_str_find() {
        for hay in [
            "",
            "a",
            "the sum is 5 because 5 > 4",
            "because",
            " because ",
            "x because because ",
        ] {
            for needle in [" because ", "because", "is ", "5", "x", "é"] {
                assert_eq!(
                    find_str(hay, needle),
                    hay.find(needle),
                    "{hay:?} {needle:?}"
                );
            }
        }
    }

    fn nums(t: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut pos = 0;
        while let Some((s, e)) = next_number(t, pos, t.len()) {
            out.push(&t[s..e]);
            pos = e;
        }
        out
    }

    #[test]
    fn thousands_separators_are_one_number() {
        assert_eq!(
            nums("paid 1,000 and 10\\,000 or 10{,}000"),
            ["1,000", "10\\,000", "10{,}000"]
        );
        assert_eq!(nums("1,234,567."), ["1,234,567"]);
        assert_eq!(
            nums("$80 000+ $16 000 = 3 400."),
            ["80 000", "16 000", "3 400"]
        );
        assert_eq!(nums("in 2019 100 people"), ["2019", "100"]);
    }

    #[test]
    fn tuples_and_lists_stay_apart() {
        assert_eq!(nums("(1,2)"), ["1", "2"]);
        assert_eq!(nums("1, 2, 3"), ["1", "2", "3"]);
        assert_eq!(nums("1,2345"), ["1", "2345"]);
    }

    #[test]
    fn binary_minus_is_not_a_sign() {
        assert_eq!(nums("80-26=54"), ["80", "26", "54"]);
        assert_eq!(nums("is -7 or −7"), ["-7", "−7"]);
        assert_eq!(nums("x2 and 3.5 and 48/2"), ["3.5", "48/2"]);
    }

    /// Random texts of the pieces the scanner reads (digits, separators, signs, annotations,
    /// line breaks, powers of ten): `last_number` must find what the scan of every number finds,
    /// from any start to any end.
    #[test]
    fn last_number_is_the_last_of_the_scan() {
        const PIECES: [&str; 22] = [
            "1", "23", "0", ",", ".", "-", "−", "<", "<<", ">", ">>", "\n", " ", "a", "$", "/",
            "x", "10^", "{,}", "\\,", "€", "=",
        ];
        for (text, from, to) in
            super::super::random_texts(&PIECES, 40, 0x9e37_79b9_7f4a_7c15, 100_000)
        {
            assert_eq!(
                last_number(&text, from, to),
                scan_last(&text, from, to),
                "{text:?} {from}..{to}"
            );
        }
    }

    #[test]
    fn annotations_are_skipped() {
        assert_eq!(nums("0.2 x 50 = $<<0.2*50=10>>10."), ["0.2", "50", "10"]);
        assert_eq!(last_number("a 3 b 4. ", 0, 9), Some((6, 7)));
    }
}
