//! What a view shows, as a URL query string: the run, the filter, the selected matrix cell
//! or tag, the open case, a table's sort and page, the proof example and its step. So
//! back/forward, reload and a shared link land on the same view.
//!
//! Pure: the router hands it `location.search` and writes back what [`ViewState::encode`]
//! returns. Reading never fails: a value that does not parse (`step=abc`, `cell=BAD-PURPLE`)
//! is ignored, keys this version does not know are kept and written back (a link made by a
//! newer version survives a round trip through an older one), and malformed percent escapes
//! are taken literally.

/// The view's state carried in the query string. `None` = not in the URL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ViewState {
    /// A stored run's id.
    pub run: Option<String>,
    /// The text filter / search of the page's table.
    pub filter: Option<String>,
    /// Whether `filter` is a regular expression (`regex=1`).
    pub regex: bool,
    /// A run kind the page's list is limited to (Runs: `kind=batch`).
    pub kind: Option<String>,
    /// The table's sort: a column's name and direction (`sort=created` ascending,
    /// `sort=-created` descending). Which names a page knows is the page's business.
    pub sort: Option<(String, Direction)>,
    /// The table's page, counted from 0 (the URL counts from 1: `page=2` is `Some(1)`).
    pub page: Option<usize>,
    /// The selected band-matrix cell: (expected band, judged band), each 0 BAD, 1 MID, 2 GOOD.
    pub cell: Option<(u8, u8)>,
    pub tag: Option<String>,
    /// The Report table's profile and difficulty filters, and "cross-band only" (`cross=1`).
    pub profile: Option<String>,
    pub difficulty: Option<String>,
    pub cross: bool,
    /// The open case's id.
    pub case: Option<String>,
    /// A bundled proof example's name.
    pub example: Option<String>,
    /// The proof step shown.
    pub step: Option<u32>,
    /// The actions typed into the proof example's form, in order (`view::proof::link`'s
    /// encoding), so a link opens the derivation they made.
    pub actions: Option<String>,
    /// Keys not listed above, in the order they came, with their decoded values.
    pub unknown: Vec<(String, String)>,
}

use crate::audit::report::Band;
use crate::table::Direction;

/// The fixed key order of [`ViewState::encode`], so equal states give equal URLs.
const KEYS: [&str; 15] = [
    "run",
    "filter",
    "regex",
    "kind",
    "sort",
    "page",
    "cell",
    "tag",
    "profile",
    "difficulty",
    "cross",
    "case",
    "example",
    "step",
    "actions",
];

/// A band in a URL (`cell=good-bad`) is its name in lower case; its index in `Band::ALL`.
fn band_of(s: &str) -> Option<u8> {
    Band::ALL
        .iter()
        .position(|b| b.as_str().eq_ignore_ascii_case(s))
        .and_then(|i| u8::try_from(i).ok())
}

fn band_in_url(index: u8) -> Option<String> {
    Band::ALL
        .get(usize::from(index))
        .map(|b| b.as_str().to_ascii_lowercase())
}

fn parse_cell(v: &str) -> Option<(u8, u8)> {
    let (e, j) = v.split_once('-')?;
    Some((band_of(e)?, band_of(j)?))
}

/// `name` ascending, `-name` descending; a bare `-` is no sort.
fn parse_sort(v: &str) -> Option<(String, Direction)> {
    let (column, direction) = match v.strip_prefix('-') {
        Some(c) => (c, Direction::Descending),
        None => (v, Direction::Ascending),
    };
    (!column.is_empty()).then(|| (column.to_string(), direction))
}

/// `page=1` is the first page (0 inside); `page=0` and non-numbers are no page.
fn parse_page(v: &str) -> Option<usize> {
    v.parse::<usize>().ok()?.checked_sub(1)
}

impl ViewState {
    /// Read a query string (`?run=r1&step=12`, with or without the `?`).
    pub fn decode(query: &str) -> ViewState {
        let mut s = ViewState::default();
        let query = query.strip_prefix('?').unwrap_or(query);
        // A fragment is not part of the query.
        let query = query.split('#').next().unwrap_or("");
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let (key, value) = (percent_decode(k), percent_decode(v));
            // The first occurrence of a known key wins, as `URLSearchParams.get` does.
            let text = |slot: &mut Option<String>| {
                if slot.is_none() && !value.is_empty() {
                    *slot = Some(value.clone());
                }
            };
            match key.as_str() {
                "run" => text(&mut s.run),
                "filter" => text(&mut s.filter),
                "kind" => text(&mut s.kind),
                // Only `1` is on, so a link's `regex=0` or a typo never turns a search into a regex.
                "regex" => s.regex |= value == "1",
                "sort" => {
                    if s.sort.is_none() {
                        s.sort = parse_sort(&value);
                    }
                }
                "page" => {
                    if s.page.is_none() {
                        s.page = parse_page(&value);
                    }
                }
                "tag" => text(&mut s.tag),
                "profile" => text(&mut s.profile),
                "difficulty" => text(&mut s.difficulty),
                "cross" => s.cross |= value == "1",
                "case" => text(&mut s.case),
                "example" => text(&mut s.example),
                "actions" => text(&mut s.actions),
                "cell" => {
                    if s.cell.is_none() {
                        s.cell = parse_cell(&value);
                    }
                }
                "step" => {
                    if s.step.is_none() {
                        s.step = value.parse().ok();
                    }
                }
                "" => {}
                _ => s.unknown.push((key, value)),
            }
        }
        s
    }

    /// The query string for this state, without the leading `?` (empty when nothing is set).
    pub fn encode(&self) -> String {
        let cell = self
            .cell
            .and_then(|(e, j)| Some(format!("{}-{}", band_in_url(e)?, band_in_url(j)?)));
        let step = self.step.map(|s| s.to_string());
        let regex = self.regex.then(|| "1".to_string());
        let cross = self.cross.then(|| "1".to_string());
        let sort = self.sort.as_ref().map(|(c, d)| match d {
            Direction::Ascending => c.clone(),
            Direction::Descending => format!("-{c}"),
        });
        let page = self.page.map(|p| p.saturating_add(1).to_string());
        let values = [
            &self.run,
            &self.filter,
            &regex,
            &self.kind,
            &sort,
            &page,
            &cell,
            &self.tag,
            &self.profile,
            &self.difficulty,
            &cross,
            &self.case,
            &self.example,
            &step,
            &self.actions,
        ];
        let mut parts: Vec<String> = KEYS
            .iter()
            .zip(values)
            .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={}", percent_encode(v))))
            .collect();
        for (k, v) in &self.unknown {
            parts.push(format!("{}={}", percent_encode(k), percent_encode(v)));
        }
        parts.join("&")
    }

    /// `path` with this state's query appended (`report?run=r1`), for links and history.
    pub fn href(&self, path: &str) -> String {
        let q = self.encode();
        if q.is_empty() {
            path.to_string()
        } else {
            format!("{path}?{q}")
        }
    }
}

/// Percent-encode every byte but RFC 3986's unreserved characters, so the value survives in
/// any part of a URL.
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b >> 4)]));
            out.push(char::from(b"0123456789ABCDEF"[usize::from(b & 15)]));
        }
    }
    out
}

/// Decode `%XX` escapes and `+` (a space in form-encoded queries). A `%` not followed by two
/// hex digits is kept as it is; bytes that do not form UTF-8 become U+FFFD.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
        match bytes[i] {
            b'%' => {
                match (
                    bytes.get(i + 1).and_then(|&b| hex(b)),
                    bytes.get(i + 2).and_then(|&b| hex(b)),
                ) {
                    (Some(h), Some(l)) => {
                        out.push(h << 4 | l);
                        i += 3;
                    }
                    _ => {
                        out.push(b'%');
                        i += 1;
                    }
                }
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> ViewState {
        ViewState {
            run: Some("r-20261201-ab12".into()),
            filter: Some("fabricated & 100% \"quoted\" 营收 a+b=c".into()),
            regex: true,
            kind: Some("batch".into()),
            sort: Some(("created".into(), Direction::Descending)),
            page: Some(1),
            cell: Some((0, 2)),
            tag: Some("major_factual".into()),
            profile: Some("gpt & co".into()),
            difficulty: Some("hard".into()),
            cross: true,
            case: Some("case #7/2?x".into()),
            example: Some("two-step proof".into()),
            step: Some(12),
            actions: Some(r#"[["A","propose",{"x":1}]]"#.into()),
            unknown: vec![("future key".into(), "v=1&2".into())],
        }
    }

    #[test]
    fn round_trip() {
        let s = full();
        let q = s.encode();
        assert!(
            q.starts_with("run=r-20261201-ab12&filter=fabricated%20%26%20100%25"),
            "{q}"
        );
        assert!(
            q.contains("&regex=1&kind=batch&sort=-created&page=2&cell=bad-good&"),
            "{q}"
        );
        assert!(q.contains("&step=12&actions=%5B"), "{q}");
        assert!(q.contains("&future%20key=v%3D1%262"), "{q}");
        assert_eq!(ViewState::decode(&q), s);
        assert_eq!(ViewState::decode(&format!("?{q}")), s);
        assert_eq!(ViewState::default().encode(), "");
        assert_eq!(ViewState::default().href("report"), "report");
        assert_eq!(
            ViewState {
                step: Some(3),
                example: Some("ex1".into()),
                ..Default::default()
            }
            .href("proof"),
            "proof?example=ex1&step=3"
        );
    }

    #[test]
    fn bad_values_are_ignored_unknown_keys_kept() {
        let s =
            ViewState::decode("?step=abc&cell=BAD-PURPLE&run=&tag=clean&zz=1&step=4&cell=Good-mid");
        assert_eq!(s.step, Some(4), "the first valid value wins");
        assert_eq!(s.cell, Some((2, 1)));
        assert_eq!(s.run, None, "empty values are no value");
        assert_eq!(s.tag.as_deref(), Some("clean"));
        assert_eq!(s.unknown, vec![("zz".to_string(), "1".to_string())]);
        let s = ViewState::decode("step=-1&step=99999999999&cell=bad&cell=-&=x&&case");
        assert_eq!((s.step, s.cell, s.case.clone()), (None, None, None));
        assert!(s.unknown.is_empty());
    }

    #[test]
    fn sort_and_page() {
        let s = ViewState::decode("sort=name&page=3");
        assert_eq!(s.sort, Some(("name".into(), Direction::Ascending)));
        assert_eq!(s.page, Some(2), "the URL counts pages from 1");
        assert_eq!(s.encode(), "sort=name&page=3");
        let s = ViewState::decode("sort=-&sort=-results&page=0&page=x&page=-1&page=1");
        assert_eq!(s.sort, Some(("results".into(), Direction::Descending)));
        assert_eq!(
            s.page,
            Some(0),
            "page=0 is no page; the first valid one wins"
        );
        let s = ViewState::decode("regex=0&regex=yes&page=99999999999999999999999");
        assert!(!s.regex, "only regex=1 turns a search into a regex");
        assert_eq!(s.page, None);
        assert!(ViewState::decode("regex=1").regex);
        let huge = ViewState {
            page: Some(usize::MAX),
            ..Default::default()
        };
        assert_eq!(huge.encode(), format!("page={}", usize::MAX), "no overflow");
    }

    #[test]
    fn decoding_is_lenient() {
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("%"), "%");
        assert_eq!(percent_decode("%zz%41"), "%zzA");
        assert_eq!(percent_decode("a+b%2B"), "a b+");
        assert_eq!(percent_decode("%E8%90%A5"), "营");
        assert_eq!(percent_decode("%FF"), "\u{FFFD}");
        assert_eq!(ViewState::decode("?case=1#frag").case.as_deref(), Some("1"));
    }

    #[test]
    fn any_text_round_trips() {
        // Every value, whatever its characters, comes back as it went in.
        let samples = [
            "",
            " ",
            "%",
            "%%41",
            "+",
            "&=?#",
            "é",
            "\u{0}",
            "🦀 crab",
            "a\nb",
        ];
        for v in samples {
            assert_eq!(percent_decode(&percent_encode(v)), v, "{v:?}");
            let s = ViewState {
                filter: Some(v.to_string()),
                ..Default::default()
            };
            let expect = if v.is_empty() {
                None
            } else {
                Some(v.to_string())
            };
            assert_eq!(ViewState::decode(&s.encode()).filter, expect, "{v:?}");
        }
    }
}
