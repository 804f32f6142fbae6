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

    /// Adds the secrets a URL carries: its userinfo (`user:pass` and the password alone),
    /// every query value and its fragment (see [`redact_url`]).
    pub fn add_url(&mut self, url: &str) {
        if let Some(info) = userinfo(url) {
            self.add(info);
            if let Some((_, pass)) = info.split_once(':') {
                self.add(pass);
            }
            // An HTTP client sends userinfo as `Authorization: Basic base64(user:pass)`; a
            // server or proxy that echoes the header prints that form.
            self.add(&base64(info.as_bytes()));
        }
        for secret in query_and_fragment_secrets(url) {
            self.add(secret);
        }
        for segment in key_like_path_segments(url) {
            self.add(segment);
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
/// A URL typed without a scheme (`user:pass@host/v1`) has its authority at the start.
fn userinfo(url: &str) -> Option<&str> {
    let after = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[after..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    authority.rfind('@').map(|at| &authority[..at])
}

/// Why a base URL with a user name or password (`https://user:pass@host/v1`) is refused
/// wherever settings are read and before anything is sent: an HTTP client sends that userinfo
/// as `Authorization: Basic base64(user:pass)`, which a server or proxy may log or echo back,
/// and it would compete with the key. The message never quotes the userinfo: it shows the URL
/// without it ([`redact_url`]) and says where a key belongs. `None` when there is none.
pub fn userinfo_problem(url: &str) -> Option<String> {
    userinfo(url.trim())?;
    Some(format!(
        "the base URL carries a user name or password before `@` (not shown): it would be sent \
         as HTTP Basic authentication, which servers and proxies may log or echo; use `{}` and \
         put the key in api_key / api_key_env",
        redact_url(url.trim())
    ))
}

/// Standard base64 (RFC 4648, padded), as HTTP Basic authentication encodes `user:pass`.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Path segments of a URL that look like keys (some gateways take one in the path:
/// `/v1/sk-…/chat`): a segment starting `sk-`, or 24+ characters mixing letters and digits.
fn key_like_path_segments(url: &str) -> Vec<&str> {
    let after = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[after..];
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    let path = rest[..end].split_once('/').map_or("", |(_, p)| p);
    path.split('/')
        .filter(|seg| {
            let letters = seg.bytes().any(|b| b.is_ascii_alphabetic());
            let digits = seg.bytes().any(|b| b.is_ascii_digit());
            seg.starts_with("sk-") || (seg.len() >= 24 && letters && digits)
        })
        .collect()
}

/// The secret-bearing parts of a URL after its authority: every query value and the whole
/// fragment (`?api-key=…`, `#access_token=…`: some gateways take keys there).
fn query_and_fragment_secrets(url: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (before_fragment, fragment) = match url.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (url, None),
    };
    if let Some((_, query)) = before_fragment.split_once('?') {
        for pair in query.split(['&', ';']) {
            let value = pair.split_once('=').map_or(pair, |(_, v)| v);
            if !value.is_empty() {
                out.push(value);
            }
        }
    }
    if let Some(f) = fragment.filter(|f| !f.is_empty()) {
        out.push(f);
        for pair in f.split(['&', ';']) {
            if let Some((_, v)) = pair.split_once('=').filter(|(_, v)| !v.is_empty()) {
                out.push(v);
            }
        }
    }
    out
}

/// `url` as it may be shown, printed or stored: no userinfo (`https://user:pass@host/v1` →
/// `https://host/v1`), every query value replaced (`?api-key=sk-…` → `?api-key=[api key]`)
/// and the fragment replaced (`#[api key]`). The one URL redaction of the app: CLI and
/// settings errors, the page's messages, reports, stored runs and exports all go through it
/// (docs/llm.md, "Redaction guarantees").
pub fn redact_url(url: &str) -> String {
    let mut url = strip_userinfo(url);
    for segment in key_like_path_segments(&url.clone()) {
        url = url.replacen(segment, REDACTED, 1);
    }
    let (before_fragment, fragment) = match url.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (url.as_str(), None),
    };
    let mut out = String::with_capacity(url.len());
    match before_fragment.split_once('?') {
        Some((path, query)) => {
            out.push_str(path);
            out.push('?');
            for (i, pair) in query.split('&').enumerate() {
                if i > 0 {
                    out.push('&');
                }
                match pair.split_once('=') {
                    Some((name, value)) if !value.is_empty() => {
                        out.push_str(name);
                        out.push('=');
                        out.push_str(REDACTED);
                    }
                    Some((name, _)) => {
                        out.push_str(name);
                        out.push('=');
                    }
                    // A bare `?sk-…` is a value without a name.
                    None if !pair.is_empty() => out.push_str(REDACTED),
                    None => {}
                }
            }
        }
        None => out.push_str(before_fragment),
    }
    if let Some(f) = fragment {
        out.push('#');
        if !f.is_empty() {
            out.push_str(REDACTED);
        }
    }
    out
}

/// Every URL-looking word (`http://…`, `https://…`) of a free text passed through
/// [`redact_url`]: for messages that quote what a user typed.
pub fn redact_urls_in(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let lower = rest.to_ascii_lowercase();
        let Some(start) = [lower.find("http://"), lower.find("https://")]
            .into_iter()
            .flatten()
            .min()
        else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..start]);
        let word = &rest[start..];
        let end = word
            .find(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '<' | '>'))
            .unwrap_or(word.len());
        out.push_str(&redact_url(&word[..end]));
        rest = &word[end..];
    }
}

/// `url` without its userinfo: `https://user:pass@host/v1` → `https://host/v1`. Used by
/// [`redact_url`], which also hides query values and the fragment: show and store URLs
/// through that one.
pub fn strip_userinfo(url: &str) -> String {
    match userinfo(url) {
        Some(info) => {
            let start = url.find("://").map_or(0, |i| i + 3);
            let mut out = String::with_capacity(url.len());
            out.push_str(&url[..start]);
            out.push_str(&url[start + info.len() + 1..]);
            out
        }
        None => url.to_string(),
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
    #[test]
    fn basic_auth_and_keys_in_the_path_are_redacted() {
        assert_eq!(super::base64(b"user:pa55word"), "dXNlcjpwYTU1d29yZA==");
        assert_eq!(super::base64(b"ab"), "YWI=");
        let mut s = Secrets::new();
        s.add_url("https://user:pa55word@gw.example/v1");
        let echoed = "proxy debug: you sent Authorization: Basic dXNlcjpwYTU1d29yZA==";
        assert!(
            !s.redact(echoed).contains("dXNlcjpwYTU1d29yZA"),
            "{}",
            s.redact(echoed)
        );
        let url = "https://gw.example/v1/sk-abcdef1234567890/chat";
        assert!(
            !redact_url(url).contains("abcdef1234567890"),
            "{}",
            redact_url(url)
        );
        let mut s = Secrets::new();
        s.add_url(url);
        let said = format!("could not reach {url}/chat/completions");
        assert!(!s.redact(&said).contains("abcdef1234567890"));
        assert_eq!(
            redact_url("http://127.0.0.1:8080/v1"),
            "http://127.0.0.1:8080/v1"
        );
    }

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
        assert_eq!(strip_userinfo("user:pw@host/v1?q"), "host/v1?q");
        assert_eq!(redact_url("user:pw@host/v1?k=sk-1"), "host/v1?k=[api key]");
        let e = Endpoint {
            base_url: "https://user:p4ssw0rd@host/v1".into(),
            model: "m".into(),
            api_key: Some(KEY.into()),
            json_mode: JsonMode::None,
        };
        let s = Secrets::of_endpoint(&e);
        // The key, the userinfo, its password and its Basic-auth form.
        assert_eq!(s.len(), 4);
        let out = s.redact("login user:p4ssw0rd failed; password p4ssw0rd");
        assert!(!out.contains("p4ssw0rd"), "{out}");
    }

    #[test]
    fn urls_lose_keys_in_userinfo_query_and_fragment() {
        assert_eq!(
            redact_url("https://u:p4ss@gw.example/v1?api-key=sk-123&mode=x#tok=abc"),
            "https://gw.example/v1?api-key=[api key]&mode=[api key]#[api key]"
        );
        assert_eq!(redact_url("http://h/v1?sk-bare"), "http://h/v1?[api key]");
        // A bare word may be a key: redacted too.
        assert_eq!(
            redact_url("http://h/v1?flag&k="),
            "http://h/v1?[api key]&k="
        );
        assert_eq!(
            redact_url("http://127.0.0.1:8080/v1"),
            "http://127.0.0.1:8080/v1"
        );
        let mut s = Secrets::new();
        s.add_url("https://gw.example/v1?api-key=sk-gateway-9876#frag-secret");
        let out = s.redact("GET /v1?api-key=sk-gateway-9876 failed; frag-secret");
        assert!(
            !out.contains("sk-gateway") && !out.contains("frag-secret"),
            "{out}"
        );
        let text = "could not reach https://gw/v1?api-key=sk-1234567 (refused); see http://x/#a";
        assert_eq!(
            redact_urls_in(text),
            "could not reach https://gw/v1?api-key=[api key] (refused); see http://x/#[api key]"
        );
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
