//! What a view shows, as a URL query string: the run, the filter, the selected matrix cell
//! or tag, the open case, the proof example and its step. So back/forward, reload and a
//! shared link land on the same view.
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
    /// The selected band-matrix cell: (expected band, judged band), each 0 BAD, 1 MID, 2 GOOD.
    pub cell: Option<(u8, u8)>,
    pub tag: Option<String>,
    /// The open case's id.
    pub case: Option<String>,
    /// A bundled proof example's name.
    pub example: Option<String>,
    /// The proof step shown.
    pub step: Option<u32>,
    /// Keys not listed above, in the order they came, with their decoded values.
    pub unknown: Vec<(String, String)>,
}

const BANDS: [&str; 3] = ["bad", "mid", "good"];

/// The fixed key order of [`ViewState::encode`], so equal states give equal URLs.
const KEYS: [&str; 7] = ["run", "filter", "cell", "tag", "case", "example", "step"];

fn band_of(s: &str) -> Option<u8> {
    let s = s.to_ascii_lowercase();
    BANDS.iter().position(|b| *b == s).map(|i| i as u8)
}

fn parse_cell(v: &str) -> Option<(u8, u8)> {
    let (e, j) = v.split_once('-')?;
    Some((band_of(e)?, band_of(j)?))
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
                "tag" => text(&mut s.tag),
                "case" => text(&mut s.case),
                "example" => text(&mut s.example),
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
            .filter(|(e, j)| *e < 3 && *j < 3)
            .map(|(e, j)| format!("{}-{}", BANDS[e as usize], BANDS[j as usize]));
        let step = self.step.map(|s| s.to_string());
        let values = [
            &self.run,
            &self.filter,
            &cell,
            &self.tag,
            &self.case,
            &self.example,
            &step,
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
            cell: Some((0, 2)),
            tag: Some("major_factual".into()),
            case: Some("case #7/2?x".into()),
            example: Some("two-step proof".into()),
            step: Some(12),
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
        assert!(q.contains("&cell=bad-good&"), "{q}");
        assert!(q.contains("&step=12&future%20key=v%3D1%262"), "{q}");
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
