//! Keys never leave their request. Every text that can reach a result, a log, a stored run
//! or the page (error messages, server bodies, model replies, URLs) passes through
//! [`Secrets::redact`] *after* any cut, and URLs lose their userinfo
//! ([`strip_userinfo`]) before they are shown or stored.
//!
//! What counts as a secret: every API key of the settings (and of `api_key_env` variables
//! that were read), and the userinfo (`user:pass`, and the password alone) of every base URL.
//! What is replaced:
//! - every occurrence of a secret;
//! - any run of at least [`ANCHOR`] characters equal to the start of a secret (a server or
//!   a proxy that echoed a cut-off header);
//! - at the end of a text (where a cut may have split a key, possibly followed by `…`), a
//!   tail of at least [`BOUNDARY_MIN`] characters equal to the start of a secret.
//!
//! Secrets shorter than [`BOUNDARY_MIN`] characters cannot be told from ordinary text and
//! are not looked for.

use super::Endpoint;

/// What a redacted secret is replaced with.
pub const REDACTED: &str = "[api key]";
/// A run of this many characters of a secret's start is redacted wherever it appears.
pub const ANCHOR: usize = 8;
/// At the end of a text (a cut boundary), this many characters of a secret's start suffice.
pub const BOUNDARY_MIN: usize = 4;

/// The secrets to keep out of every output.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Secrets {
    items: Vec<String>,
}

impl Secrets {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one secret (surrounding spaces ignored; too short or already known: ignored).
    pub fn add(&mut self, secret: &str) {
        let s = secret.trim();
        if s.len() >= BOUNDARY_MIN && !self.items.iter().any(|k| k == s) {
            self.items.push(s.to_string());
        }
    }

    /// Adds the userinfo of a URL (`user:pass` and the password alone), if it has one.
    pub fn add_url(&mut self, url: &str) {
        if let Some(info) = userinfo(url) {
            self.add(info);
            if let Some((_, pass)) = info.split_once(':') {
                self.add(pass);
            }
        }
    }

    /// The secrets of one endpoint: its key and its base URL's userinfo.
    pub fn of_endpoint(endpoint: &Endpoint) -> Self {
        let mut s = Self::new();
        if let Some(key) = &endpoint.api_key {
            s.add(key);
        }
        s.add_url(&endpoint.base_url);
        s
    }

    pub fn extend(&mut self, other: &Secrets) {
        for s in &other.items {
            self.add(s);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// `text` with every secret (and secret prefix, see the module notes) replaced by
    /// [`REDACTED`].
    pub fn redact(&self, text: &str) -> String {
        if self.items.is_empty() || text.len() < BOUNDARY_MIN {
            return text.to_string();
        }
        let bytes = text.as_bytes();
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for key in &self.items {
            let kb = key.as_bytes();
            let anchor = kb.len().min(ANCHOR);
            let needle = &kb[..anchor];
            let mut from = 0;
            // A plain window scan: needles are at most `ANCHOR` bytes and texts short, and
            // it keeps a substring-search engine out of the wasm.
            while let Some(pos) = bytes[from..].windows(anchor).position(|w| w == needle) {
                let start = from + pos;
                let mut end = start + anchor;
                while end < bytes.len() && end - start < kb.len() && bytes[end] == kb[end - start] {
                    end += 1;
                }
                spans.push((start, end));
                from = end;
            }
            // A key split by a cut: its first characters at the very end, maybe before `…`.
            let tail = text
                .trim_end_matches(['…', '.', '`', '"', '\'', ')'])
                .trim_end();
            let tb = tail.as_bytes();
            let longest = (BOUNDARY_MIN..anchor.min(tb.len() + 1))
                .rev()
                .find(|&k| tb.ends_with(&kb[..k]));
            if let Some(k) = longest {
                spans.push((tb.len() - k, tb.len()));
            }
        }
        if spans.is_empty() {
            return text.to_string();
        }
        spans.sort_unstable();
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (mut s, mut e) in spans {
            // Whole characters only (a secret is matched byte-wise).
            while s > 0 && !text.is_char_boundary(s) {
                s -= 1;
            }
            while e < text.len() && !text.is_char_boundary(e) {
                e += 1;
            }
            if e <= at {
                continue;
            }
            if s >= at {
                out.push_str(&text[at..s]);
                out.push_str(REDACTED);
            }
            at = e;
        }
        out.push_str(&text[at..]);
        out
    }
}

/// The `user:pass` part of `scheme://user:pass@host/...`, if any.
fn userinfo(url: &str) -> Option<&str> {
    let after = url.find("://").map(|i| i + 3)?;
    let rest = &url[after..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    authority.rfind('@').map(|at| &authority[..at])
}

/// `url` without its userinfo: `https://user:pass@host/v1` → `https://host/v1`. URLs are
/// shown and stored only in this form.
pub fn strip_userinfo(url: &str) -> String {
    match (userinfo(url), url.find("://")) {
        (Some(info), Some(i)) => {
            let start = i + 3;
            let mut out = String::with_capacity(url.len());
            out.push_str(&url[..start]);
            out.push_str(&url[start + info.len() + 1..]);
            out
        }
        _ => url.to_string(),
    }
}

/// Why a key cannot be sent in an HTTP header, if it cannot: control characters (a pasted
/// line break) and non-ASCII characters would be echoed by the HTTP client's "bad header"
/// message. The reason never contains the key itself.
pub fn key_problem(key: &str) -> Option<String> {
    let (i, c) = key
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_control() || !c.is_ascii())?;
    let what = if c.is_control() {
        "a control character (a line break or tab from the paste?)"
    } else {
        "a non-ASCII character"
    };
    Some(format!(
        "the API key contains {what} at position {}; paste the key again",
        i + 1
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::JsonMode;

    fn secrets(keys: &[&str]) -> Secrets {
        let mut s = Secrets::new();
        for k in keys {
            s.add(k);
        }
        s
    }

    const KEY: &str = "sk-live-0123456789abcdef";

    #[test]
    fn whole_keys_are_replaced_everywhere() {
        let s = secrets(&[KEY, "other-key-xyz"]);
        let text = format!("Bearer {KEY} and {KEY}; other-key-xyz; 服务器 {KEY}");
        let out = s.redact(&text);
        assert!(!out.contains("0123456789"), "{out}");
        assert!(!out.contains("other-key"), "{out}");
        assert_eq!(out.matches(REDACTED).count(), 4, "{out}");
        assert!(out.contains("服务器"));
    }

    #[test]
    fn a_key_cut_at_the_end_of_a_text_is_replaced() {
        let s = secrets(&[KEY]);
        for cut in [4, 6, 10, KEY.len() - 1] {
            let text = format!("echo: Bearer {}…", &KEY[..cut]);
            let out = s.redact(&text);
            assert!(!out.contains(&KEY[..cut]), "{cut}: {out}");
        }
        // Three characters say nothing about the key.
        assert_eq!(s.redact("ends in sk-"), "ends in sk-");
    }

    #[test]
    fn a_long_key_prefix_inside_a_text_is_replaced() {
        let s = secrets(&[KEY]);
        let out = s.redact(&format!("header was \"Bearer {}\" (cut)", &KEY[..12]));
        assert!(!out.contains("sk-live-0123"), "{out}");
        assert!(out.contains("(cut)"));
    }

    #[test]
    fn short_or_blank_secrets_are_ignored_and_text_is_kept() {
        let s = secrets(&["", " ", "abc"]);
        assert!(s.is_empty());
        assert_eq!(s.redact("abc abc"), "abc abc");
        let s = secrets(&[KEY]);
        assert_eq!(s.redact("nothing secret"), "nothing secret");
    }

    #[test]
    fn userinfo_is_stripped_and_counted_as_a_secret() {
        assert_eq!(
            strip_userinfo("https://user:p4ssw0rd@host:8080/v1"),
            "https://host:8080/v1"
        );
        assert_eq!(
            strip_userinfo("http://host/v1?a=b@c"),
            "http://host/v1?a=b@c"
        );
        assert_eq!(strip_userinfo("no scheme"), "no scheme");
        let e = Endpoint {
            base_url: "https://user:p4ssw0rd@host/v1".into(),
            model: "m".into(),
            api_key: Some(KEY.into()),
            json_mode: JsonMode::None,
        };
        let s = Secrets::of_endpoint(&e);
        assert_eq!(s.len(), 3);
        let out = s.redact("login user:p4ssw0rd failed; password p4ssw0rd");
        assert!(!out.contains("p4ssw0rd"), "{out}");
    }

    #[test]
    fn bad_keys_are_named_without_echoing_them() {
        assert_eq!(key_problem("sk-abc"), None);
        let p = key_problem("sk-abc\r\nX-Evil: 1").unwrap();
        assert!(
            p.contains("control character") && p.contains("position 7"),
            "{p}"
        );
        assert!(!p.contains("sk-abc"));
        assert!(key_problem("sk-ключ").unwrap().contains("non-ASCII"));
    }

    #[test]
    fn multibyte_text_around_a_match_stays_valid() {
        let s = secrets(&["ééééééééé"]);
        let out = s.redact("x éééééééé y");
        assert!(out.starts_with("x "), "{out}");
    }
}
