//! Units and scale words as part of an answer's value (docs/extract.md, "Units"): `5 million`
//! is 5,000,000, `5 kB` is not `5 MB`, `2 L` is `2000 mL`, `\$5` is not `5 cents`. A unit
//! converts exactly (a rational factor to its dimension's base unit) or not at all; units of
//! different dimensions, or without an exact conversion (degrees and radians), are different.

use num_bigint::BigInt;
use num_rational::BigRational;

use super::number::{parse_decimal_big, pow10};

/// A unit's dimension and its exact factor to the dimension's base unit, as a decimal literal.
struct Unit {
    names: &'static [&'static str],
    dimension: &'static str,
    factor: &'static str,
    /// Spellings matched case-sensitively (`MB` is not `mb`; `L` is not `l`).
    exact_case: bool,
}

const fn unit(
    names: &'static [&'static str],
    dimension: &'static str,
    factor: &'static str,
) -> Unit {
    Unit {
        names,
        dimension,
        factor,
        exact_case: false,
    }
}

const fn cased(
    names: &'static [&'static str],
    dimension: &'static str,
    factor: &'static str,
) -> Unit {
    Unit {
        names,
        dimension,
        factor,
        exact_case: true,
    }
}

/// The unit table. Ambiguous spellings (`m` for metres or minutes, `min`) are read in the
/// most common sense of answers; a word not here is no unit (the value comparison decides).
const UNITS: &[Unit] = &[
    unit(
        &[
            "mm",
            "millimeter",
            "millimeters",
            "millimetre",
            "millimetres",
        ],
        "length",
        "0.001",
    ),
    unit(
        &[
            "cm",
            "centimeter",
            "centimeters",
            "centimetre",
            "centimetres",
        ],
        "length",
        "0.01",
    ),
    unit(&["m", "meter", "meters", "metre", "metres"], "length", "1"),
    unit(
        &["km", "kilometer", "kilometers", "kilometre", "kilometres"],
        "length",
        "1000",
    ),
    unit(&["inch", "inches"], "length", "0.0254"),
    unit(&["ft", "foot", "feet"], "length", "0.3048"),
    unit(&["yd", "yard", "yards"], "length", "0.9144"),
    unit(&["mile", "miles"], "length", "1609.344"),
    unit(&["mg", "milligram", "milligrams"], "mass", "0.000001"),
    unit(&["g", "gram", "grams"], "mass", "0.001"),
    unit(&["kg", "kilogram", "kilograms"], "mass", "1"),
    unit(&["lb", "lbs", "pound", "pounds"], "mass", "0.45359237"),
    unit(&["oz", "ounce", "ounces"], "mass", "0.028349523125"),
    unit(&["s", "sec", "secs", "second", "seconds"], "time", "1"),
    unit(&["min", "mins", "minute", "minutes"], "time", "60"),
    unit(&["h", "hr", "hrs", "hour", "hours"], "time", "3600"),
    unit(&["day", "days"], "time", "86400"),
    unit(&["week", "weeks"], "time", "604800"),
    unit(&["month", "months"], "month", "1"),
    unit(&["year", "years", "yr", "yrs"], "year", "1"),
    cased(&["mL", "ml"], "volume", "0.001"),
    unit(
        &["milliliter", "milliliters", "millilitre", "millilitres"],
        "volume",
        "0.001",
    ),
    cased(&["L", "l"], "volume", "1"),
    unit(&["liter", "liters", "litre", "litres"], "volume", "1"),
    cased(&["B"], "data", "1"),
    unit(&["byte", "bytes"], "data", "1"),
    cased(&["kB", "KB"], "data", "1000"),
    unit(&["kilobyte", "kilobytes"], "data", "1000"),
    cased(&["MB"], "data", "1000000"),
    unit(&["megabyte", "megabytes"], "data", "1000000"),
    cased(&["GB"], "data", "1000000000"),
    unit(&["gigabyte", "gigabytes"], "data", "1000000000"),
    cased(&["TB"], "data", "1000000000000"),
    unit(&["hz", "hertz"], "frequency", "1"),
    unit(&["khz", "kilohertz"], "frequency", "1000"),
    unit(&["mhz", "megahertz"], "frequency", "1000000"),
    unit(&["ghz", "gigahertz"], "frequency", "1000000000"),
    unit(&["m/s"], "speed", "1"),
    unit(
        &["km/h", "kmh", "kph", "km/hr"],
        "speed",
        "0.2777777777777777777777777777777777777777",
    ),
    unit(&["mph", "mi/h"], "speed", "0.44704"),
    unit(&["degree", "degrees", "deg"], "degree", "1"),
    unit(&["radian", "radians", "rad"], "radian", "1"),
    unit(&["dollar", "dollars", "usd"], "money", "1"),
    unit(&["cent", "cents"], "money", "0.01"),
];

/// Scale words: part of the number (`5 million` = 5,000,000).
const SCALES: &[(&str, i64)] = &[
    ("hundred", 2),
    ("thousand", 3),
    ("million", 6),
    ("billion", 9),
    ("trillion", 12),
];

/// Scale words that are not powers of ten (`3 dozen`): against anything else written after
/// the number, or nothing, the pair is "could not decide" (dropping the word made `3 dozen`
/// equal `3`; docs/extract.md, "Units").
const UNREAD_SCALES: &[&str] = &["dozen", "dozens"];

/// Units the table does not convert (`mol`, `euros`, `acres`) and unit modifiers (`square`,
/// `cubic`, `light`): against a bare number they are read like any unit (the number is in
/// that unit: `12 square units` for `12`), but against another unit they are "could not
/// decide" (`5 mmol` vs `5 mol`, `5 euros` vs `5 dollars`, `4 square meters` vs `4 meters`,
/// `3 light years` vs `3 years`).
const UNREAD_UNITS: &[&str] = &[
    "square",
    "sq",
    "cubic",
    "cu",
    "light",
    "mol",
    "mole",
    "moles",
    "mmol",
    "umol",
    "µmol",
    "nmol",
    "kmol",
    "mmol/mol",
    "mol/l",
    "euro",
    "euros",
    "eur",
    "€",
    "yen",
    "yuan",
    "rmb",
    "gbp",
    "jpy",
    "cny",
    "rupee",
    "rupees",
    "acre",
    "acres",
    "hectare",
    "hectares",
    "ppm",
    "ppb",
    "knot",
    "knots",
    "calorie",
    "calories",
    "cal",
    "kcal",
    "joule",
    "joules",
    "kj",
    "watt",
    "watts",
    "kw",
    "volt",
    "volts",
    "ampere",
    "amperes",
    "ohm",
    "ohms",
    "pa",
    "kpa",
    "atm",
    "bar",
    "psi",
    "newton",
    "newtons",
    "kelvin",
    "celsius",
    "fahrenheit",
    "parsec",
    "parsecs",
    "au",
    "ly",
    "lightyear",
    "lightyears",
];

/// Whether the question counts in the scale word of power `k` ("how many million people").
pub fn question_counts_in(question: Option<&str>, k: i64) -> bool {
    let Some((word, _)) = SCALES.iter().find(|(_, p)| *p == k) else {
        return false;
    };
    question.is_some_and(|q| q.to_lowercase().contains(word))
}

/// What follows a number: a scale word and a unit, either optional.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Suffix {
    /// The power of ten of a scale word (`million` → 6).
    pub scale: i64,
    /// The unit's table name (its first spelling) and dimension.
    pub unit: Option<(&'static str, &'static str)>,
    /// The unit's exact factor to its dimension's base unit.
    factor: Option<&'static str>,
    /// A scale word the table cannot convert (`dozen`): see [`UNREAD_SCALES`].
    pub unread_scale: Option<&'static str>,
    /// A unit or unit modifier the table cannot convert (`mmol`, `euros`, `square`): see
    /// [`UNREAD_UNITS`].
    pub unread_unit: Option<&'static str>,
}

/// The longest unit name, in bytes (a longer word is no unit).
const LONGEST_NAME: usize = 32;

/// Which (first byte, ASCII-lowercased; length) pairs some unit name has: most words after a
/// number (`cookies`, `each`, `=`) have none, and the table scan below is then skipped. A
/// case-sensitive name's pair is in it too, so the filter never hides a match.
const NAME_SHAPES: Shapes = {
    let mut t = NO_SHAPES;
    let mut u = 0;
    while u < UNITS.len() {
        t = with_shapes(t, UNITS[u].names);
        u += 1;
    }
    t
};

/// [`NAME_SHAPES`] for the words of [`UNREAD_SCALES`] and [`UNREAD_UNITS`]: most words after a
/// number skip both lists' scans (which read every entry).
const UNREAD_SHAPES: Shapes = with_shapes(with_shapes(NO_SHAPES, UNREAD_SCALES), UNREAD_UNITS);

/// Which (first byte, ASCII-lowercased; length) pairs a list of words has.
type Shapes = [[bool; LONGEST_NAME + 1]; 256];

const NO_SHAPES: Shapes = [[false; LONGEST_NAME + 1]; 256];

/// `t` with the shape of every word of `names` marked.
const fn with_shapes(mut t: Shapes, names: &[&str]) -> Shapes {
    let mut n = 0;
    while n < names.len() {
        let b = names[n].as_bytes();
        // A longer name would be unreachable through the filter: fail the build instead.
        assert!(!b.is_empty() && b.len() <= LONGEST_NAME);
        t[b[0].to_ascii_lowercase() as usize][b.len()] = true;
        n += 1;
    }
    t
}

fn has_shape(shapes: &Shapes, word: &str) -> bool {
    let b = word.as_bytes();
    b.first().is_some_and(|&f| {
        shapes[usize::from(f.to_ascii_lowercase())]
            .get(b.len())
            .copied()
            .unwrap_or(false)
    })
}

fn lookup(word: &str) -> Option<&'static Unit> {
    if !has_shape(&NAME_SHAPES, word) {
        return None;
    }
    UNITS.iter().find(|u| {
        u.names.iter().any(|n| {
            if u.exact_case {
                *n == word
            } else {
                n.eq_ignore_ascii_case(word)
            }
        })
    })
}

/// Reads the words after a number (`million dollars`, `kB`, `km/h`): at most two words, on
/// the same line, before any sentence punctuation. `None` when nothing there is a scale word
/// or a unit of the table.
pub fn suffix(after: &str) -> Option<Suffix> {
    // Byte searches (every byte sought is ASCII, so they cut where the `char` searches did,
    // without decoding each character: this runs twice per grade).
    let line = after
        .as_bytes()
        .iter()
        .position(|b| matches!(b, b'\n' | b',' | b';' | b'$'))
        .and_then(|end| after.get(..end))
        .unwrap_or(after);
    // Most lines have none of these: no copy then.
    let braces = |b: &u8| matches!(b, b'{' | b'}' | b'~' | b'\\');
    let line: std::borrow::Cow<str> = if line.as_bytes().iter().any(braces) {
        line.replace("\\text{", " ")
            .replace(['{', '}', '~', '\\'], " ")
            .into()
    } else {
        line.into()
    };
    let mut words = line
        .split_whitespace()
        .map(|w| w.trim_end_matches(['.', '!', '?', ')']))
        .filter(|w| !w.is_empty());
    let mut out = Suffix::default();
    let mut word = words.next()?;
    let unread = |list: &[&'static str], w: &str| {
        has_shape(&UNREAD_SHAPES, w)
            .then(|| list.iter().copied().find(|n| n.eq_ignore_ascii_case(w)))
            .flatten()
    };
    if let Some(s) = unread(UNREAD_SCALES, word) {
        out.unread_scale = Some(s);
        return Some(out);
    }
    if let Some(u) = unread(UNREAD_UNITS, word) {
        out.unread_unit = Some(u);
        return Some(out);
    }
    if let Some((_, k)) = SCALES.iter().find(|(w, _)| word.eq_ignore_ascii_case(w)) {
        out.scale = *k;
        word = match words.next() {
            Some(w) => w,
            None => return Some(out),
        };
    }
    if let Some(u) = lookup(word) {
        out.unit = Some((u.names.first().copied().unwrap_or(""), u.dimension));
        out.factor = Some(u.factor);
    } else if let Some(s) = unread(UNREAD_SCALES, word) {
        out.unread_scale = Some(s);
    } else {
        out.unread_unit = unread(UNREAD_UNITS, word);
    }
    let read = out.scale != 0 || out.unit.is_some();
    (read || out.unread_scale.is_some() || out.unread_unit.is_some()).then_some(out)
}

/// The unit written before a number: `\$5`, `$5` (not `$5$`, LaTeX math) is dollars.
pub fn prefix_unit(raw: &str) -> Option<Suffix> {
    let t = raw.trim();
    let rest = t.strip_prefix("\\$").or_else(|| {
        t.strip_prefix('$')
            .filter(|r| !r.contains('$') && r.starts_with(|c: char| c.is_ascii_digit()))
    })?;
    rest.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        .then_some(Suffix {
            unit: Some(("dollar", "money")),
            factor: Some("1"),
            ..Suffix::default()
        })
}

/// `value` (a plain number) in the dimension's base unit with its scale word applied, exactly.
pub fn base_value(value: &BigRational, s: &Suffix) -> Option<BigRational> {
    let factor = match s.factor {
        Some(f) => parse_decimal_big(f)?,
        None => BigRational::from_integer(BigInt::from(1)),
    };
    Some(value * pow10(s.scale) * factor)
}

/// Why two suffixes cannot be compared at all, when a word the table does not convert stands
/// against a different one: such a scale word against anything else (`3 dozen` vs `3` or
/// `36`), or an unconverted unit or modifier against another unit (`5 mmol` vs `5 mol`,
/// `5 euros` vs `5 dollars`, `4 square meters` vs `4 meters`). A bare number against `5 euros` is read
/// in euros, as against any unit.
pub fn unread(a: Option<&Suffix>, b: Option<&Suffix>) -> Option<&'static str> {
    let scale = |s: Option<&Suffix>| s.and_then(|s| s.unread_scale);
    let unit = |s: Option<&Suffix>| s.and_then(|s| s.unread_unit);
    let any_unit =
        |s: Option<&Suffix>| s.is_some_and(|s| s.unit.is_some() || s.unread_unit.is_some());
    if scale(a) != scale(b) {
        return scale(a).or(scale(b));
    }
    let differ = unit(a).map(str::to_lowercase) != unit(b).map(str::to_lowercase);
    if differ && any_unit(a) && any_unit(b) {
        return unit(a).or(unit(b));
    }
    None
}

/// Whether two suffixes can be compared by value: same dimension (or no unit on one side).
pub fn same_dimension(a: &Suffix, b: &Suffix) -> bool {
    match (a.unit, b.unit) {
        (Some((_, da)), Some((_, db))) => da == db,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_scale_words_and_units() {
        assert_eq!(suffix(" million").map(|s| s.scale), Some(6));
        assert_eq!(
            suffix(" kB of memory").and_then(|s| s.unit),
            Some(("kB", "data"))
        );
        assert_eq!(suffix(" MB").and_then(|s| s.unit), Some(("MB", "data")));
        assert_eq!(
            suffix(" km/h.").and_then(|s| s.unit),
            Some(("km/h", "speed"))
        );
        assert_eq!(suffix(" apples"), None);
        assert_eq!(suffix(" hundred").map(|s| s.scale), Some(2));
        let dozen = suffix(" dozen eggs");
        assert_eq!(dozen.as_ref().and_then(|s| s.unread_scale), Some("dozen"));
        assert_eq!(unread(dozen.as_ref(), None), Some("dozen"));
        let (mmol, mol) = (suffix(" mmol"), suffix(" mol"));
        assert_eq!(unread(mmol.as_ref(), mol.as_ref()), Some("mmol"));
        assert_eq!(unread(mmol.as_ref(), None), None);
        let dollars = suffix(" dollars");
        assert_eq!(
            unread(suffix(" euros").as_ref(), dollars.as_ref()),
            Some("euros")
        );
        assert_eq!(suffix(""), None);
        assert!(prefix_unit("\\$5").is_some());
        assert!(prefix_unit("$5$").is_none());
    }
}
