//! Checking a `base_url` when it is entered (import, edit, CLI load), so a request always
//! goes where the user means. A URL without `http://`/`https://` is resolved by a browser
//! against the page's own origin: the page once POSTed the prompt to itself that way.
//!
//! | entered | result |
//! |---|---|
//! | `127.0.0.1:11434/v1`, `localhost:8080/v1` | corrected: `http://` added (a local host or an explicit port) |
//! | `api.example.com/v1` | corrected: `https://` added |
//! | `http:/host/v1`, `http:host/v1`, `http//host/v1`, `https:///host` | corrected: `http://host/v1` |
//! | `…/v1/chat/completions`, `…/v1/completions`, `…/v1/models` | corrected: the suffix is removed (the base URL is the API root) |
//! | `htps://…`, `htttp://…`, `hhtp://…` | refused: "did you mean `https://…`?" |
//! | `ftp://…`, `ws://…` | refused: only http and https |
//! | `javascript:…`, `data:…`, `file:…` (another scheme without `//`) | refused: only http and https |
//! | empty, spaces inside, no host, `?query` or `#fragment` | refused |
//! | `https://user:pass@host/v1` (userinfo) | refused, not quoted: it would be sent as HTTP Basic authentication; the key goes in `api_key` / `api_key_env` |
//! | a host or port a browser cannot parse (`h:99999`, `h:80x`, `[::1`, `a$b`) | refused: not a URL |
//! | `http://127.0.0.1:8080` (no path) | kept, with a hint: servers usually answer under `/v1` |

/// A usable base URL and what was changed to get it (one note per change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedUrl {
    pub url: String,
    pub notes: Vec<String>,
    /// Kept as typed but probably not meant: a base URL with no path (OpenAI-compatible
    /// servers answer under `/v1`).
    pub hint: Option<String>,
}

/// Endpoint paths users paste by mistake: the client appends them itself.
const ENDPOINT_SUFFIXES: [&str; 3] = ["/chat/completions", "/completions", "/models"];

/// Levenshtein distance of two short ASCII words (scheme typos).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// `http` or `https` if `word` is one of them mistyped (not a host name such as `localhost`).
fn scheme_typo(word: &str) -> Option<&'static str> {
    let w = word.to_ascii_lowercase();
    const OTHER_SCHEMES: [&str; 9] = [
        "ftp", "ftps", "sftp", "ws", "wss", "file", "ssh", "git", "data",
    ];
    if OTHER_SCHEMES.contains(&w.as_str())
        || w.is_empty()
        || w.len() > 7
        || !w.chars().all(|c| c.is_ascii_alphabetic())
    {
        return None;
    }
    if !w.starts_with('h') && !w.ends_with('p') && !w.ends_with("ps") {
        return None;
    }
    let (dh, ds) = (distance(&w, "http"), distance(&w, "https"));
    match (dh.min(ds), dh <= ds) {
        (0, _) => None,
        (1..=2, true) => Some("http"),
        (1..=2, false) => Some("https"),
        _ => None,
    }
}

fn is_local(host: &str) -> bool {
    let h = host.to_ascii_lowercase();
    let name = h.split(':').next().unwrap_or("");
    name == "localhost"
        || name.ends_with(".local")
        || name.starts_with("127.")
        || name.starts_with("10.")
        || name.starts_with("192.168.")
        || name == "0.0.0.0"
        || h.starts_with("[::1]")
        || h.contains(':')
}

/// `http:/x`, `http:x`, `http//x` (no `://`): the scheme and what follows the separator.
fn mistyped_separator(raw: &str) -> Option<(&'static str, &str)> {
    ["https", "http"].into_iter().find_map(|scheme| {
        let head = raw.get(..scheme.len())?;
        if !head.eq_ignore_ascii_case(scheme) {
            return None;
        }
        let after = &raw[scheme.len()..];
        let rest = after.trim_start_matches([':', '/']);
        (rest.len() < after.len()).then_some((scheme, rest))
    })
}

/// Checks and, where the intent is clear, corrects a base URL. The error says what to type,
/// and quotes the URL only redacted: no userinfo, query value or fragment of what was typed
/// reaches the message, with or without a scheme (`crate::llm::redact::redact_url`).
pub fn check_base_url(text: &str) -> Result<CheckedUrl, String> {
    check(text).map_err(|message| redact_typed_url(&message, text.trim()))
}

/// `message` with every secret `raw` may carry replaced. `raw` is what a user typed, maybe
/// without a scheme or with a mistyped one, so its parts are looked for under each reading.
fn redact_typed_url(message: &str, raw: &str) -> String {
    let mut secrets = crate::llm::Secrets::new();
    secrets.add_url(raw);
    let after_scheme = raw.split_once("://").map_or(raw, |(_, rest)| rest);
    secrets.add_url(&format!("x://{}", after_scheme.trim_start_matches('/')));
    if let Some(i) = raw.find([':', '/']) {
        secrets.add_url(&format!("x://{}", raw[i..].trim_start_matches([':', '/'])));
    }
    crate::llm::redact::redact_urls_in(&secrets.redact(message))
}

fn check(text: &str) -> Result<CheckedUrl, String> {
    let raw = text.trim();
    let mut notes = Vec::new();
    if raw.is_empty() {
        return Err(
            "the base URL is empty: enter the API root, e.g. http://127.0.0.1:11434/v1".into(),
        );
    }
    if let Some(at) = raw.chars().position(char::is_whitespace) {
        // Not quoted: what follows a space may be a pasted key.
        return Err(format!(
            "the base URL contains a space (character {}): a base URL is one word, e.g. http://127.0.0.1:11434/v1",
            at + 1
        ));
    }
    let lower = raw.to_ascii_lowercase();
    let (scheme, rest) = if let Some(i) = raw.find("://") {
        let scheme = &lower[..i];
        let rest = raw[i + 3..].trim_start_matches('/');
        match scheme {
            "http" | "https" => {
                if raw[i + 3..].starts_with('/') {
                    notes.push(format!("removed the extra `/` after `{scheme}://`"));
                }
                (scheme.to_string(), rest.to_string())
            }
            _ => {
                if let Some(fix) = scheme_typo(scheme) {
                    return Err(format!(
                        "`{}://` is not a scheme: did you mean `{fix}://{rest}`?",
                        &raw[..i]
                    ));
                }
                return Err(format!(
                    "`{}://` is not supported: the base URL must start with http:// or https://",
                    &raw[..i]
                ));
            }
        }
    } else if let Some((scheme, rest)) = mistyped_separator(raw) {
        if rest.starts_with(|c: char| c.is_ascii_digit()) && !rest.contains('.') {
            // `http:8080/…` would be a port of a host named http: not a URL we can fix.
            return Err(format!(
                "`{raw}` has no host: e.g. http://127.0.0.1:8080/v1"
            ));
        }
        notes.push(format!(
            "corrected `{}` to `{scheme}://`",
            &raw[..raw.len() - rest.len()]
        ));
        (scheme.to_string(), rest.to_string())
    } else {
        let word = raw.split([':', '/']).next().unwrap_or("");
        let after = &raw[word.len()..];
        let is_port = after
            .strip_prefix(':')
            .is_some_and(|p| p.starts_with(|d: char| d.is_ascii_digit()));
        if let Some(fix) = scheme_typo(word).filter(|_| after.starts_with(':') && !is_port) {
            let rest = after.trim_start_matches([':', '/']);
            return Err(format!(
                "`{word}` is not a scheme: did you mean `{fix}://{rest}`?"
            ));
        }
        // `javascript:alert(1)`, `data:…`, `mailto:…`: a scheme of its own, not a host to which
        // `http://` could be added.
        if after.starts_with(':')
            && !is_port
            && word.starts_with(|c: char| c.is_ascii_alphabetic())
            && word
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
            && !raw.split('/').next().unwrap_or("").contains('@')
        {
            return Err(format!(
                "`{word}:` is not supported: the base URL must start with http:// or https://, e.g. http://127.0.0.1:11434/v1"
            ));
        }
        let scheme = if is_local(raw.split('/').next().unwrap_or("")) {
            "http"
        } else {
            "https"
        };
        notes.push(format!(
            "added `{scheme}://`: without it the browser would send the request to this page's own server"
        ));
        (scheme.to_string(), raw.to_string())
    };
    if rest.contains(['?', '#']) {
        return Err(format!(
            "`{raw}` has a `?query` or `#fragment`: the base URL is the API root, e.g. https://host/v1"
        ));
    }
    if let Some(problem) = crate::llm::redact::userinfo_problem(&format!("{scheme}://{rest}")) {
        return Err(problem);
    }
    let host = rest.split('/').next().unwrap_or("");
    let host_only = host.rsplit('@').next().unwrap_or("");
    if host_only.is_empty() || host_only.starts_with(':') {
        return Err(format!(
            "`{raw}` has no host: e.g. http://127.0.0.1:11434/v1"
        ));
    }
    if let Some(why) = host_problem(host_only) {
        return Err(format!(
            "`{raw}` is not a URL a browser can call: {why}; e.g. http://127.0.0.1:11434/v1"
        ));
    }
    let mut url = format!("{scheme}://{rest}");
    loop {
        let trimmed = url.trim_end_matches('/');
        let Some(suffix) = ENDPOINT_SUFFIXES
            .iter()
            .find(|s| trimmed.to_ascii_lowercase().ends_with(*s))
        else {
            break;
        };
        let root = trimmed[..trimmed.len() - suffix.len()].to_string();
        notes.push(format!(
            "removed `{suffix}`: the base URL is the API root and the client appends {suffix} itself"
        ));
        url = root;
    }
    let path = url
        .split_once("://")
        .map_or("", |(_, r)| r.split_once('/').map_or("", |(_, p)| p));
    let hint = path.trim_matches('/').is_empty().then(|| {
        format!("no path after the host: OpenAI-compatible servers usually answer under /v1 (e.g. {}/v1); kept as typed", url.trim_end_matches('/'))
    });
    Ok(CheckedUrl { url, notes, hint })
}

/// Why a host (with its port, without userinfo) is not one a browser's URL parser takes:
/// a port that is not a number up to 65535, an unclosed IPv6 bracket, or characters no host
/// name has. `None` when it parses.
fn host_problem(host: &str) -> Option<String> {
    let (name, port) = if let Some(v6) = host.strip_prefix('[') {
        let Some((addr, after)) = v6.split_once(']') else {
            return Some("the IPv6 address has no closing `]`".into());
        };
        if addr.is_empty()
            || !addr
                .chars()
                .all(|c| c.is_ascii_hexdigit() || matches!(c, ':' | '.'))
        {
            return Some("the IPv6 address between `[` and `]` is not one".into());
        }
        match after {
            "" => ("", None),
            _ => match after.strip_prefix(':') {
                Some(p) => ("", Some(p)),
                None => return Some("only `:port` may follow `]`".into()),
            },
        }
    } else {
        match host.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        }
    };
    if let Some(p) = port {
        if !p.is_empty()
            && (!p.chars().all(|c| c.is_ascii_digit())
                || p.parse::<u32>().map_or(true, |n| n > 65_535))
        {
            return Some(format!("the port `{p}` is not a number from 0 to 65535"));
        }
    }
    // Letters of any script (internationalised names), digits, `-`, `.`, `_`.
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, '-' | '.' | '_')))
    {
        return Some(format!("the host contains `{c}`"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(text: &str) -> (String, usize) {
        let c = check_base_url(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        (c.url, c.notes.len())
    }

    fn refused(text: &str) -> String {
        match check_base_url(text) {
            Ok(c) => panic!("{text} accepted as {}", c.url),
            Err(e) => e,
        }
    }

    #[test]
    fn good_urls_pass_unchanged() {
        for url in [
            "http://127.0.0.1:11434/v1",
            "https://api.openai.com/v1",
            "http://[::1]:8000/v1/",
        ] {
            assert_eq!(fixed(url), (url.to_string(), 0), "{url}");
        }
        assert_eq!(
            fixed("HTTP://LOCALHOST:8080/v1").0,
            "http://LOCALHOST:8080/v1"
        );
    }

    #[test]
    fn a_missing_scheme_is_added() {
        assert_eq!(fixed("127.0.0.1:11434/v1").0, "http://127.0.0.1:11434/v1");
        assert_eq!(fixed("localhost:8080/v1").0, "http://localhost:8080/v1");
        assert_eq!(fixed("localhost/v1").0, "http://localhost/v1");
        assert_eq!(fixed("api.example.com/v1").0, "https://api.example.com/v1");
        let c = check_base_url("localhost:1234/v1").unwrap();
        assert!(c.notes[0].contains("own server"), "{:?}", c.notes);
    }

    #[test]
    fn a_mistyped_separator_is_corrected() {
        assert_eq!(
            fixed("http:/x.example/v1"),
            ("http://x.example/v1".into(), 1)
        );
        assert_eq!(fixed("http:x.example/v1").0, "http://x.example/v1");
        assert_eq!(fixed("http//127.0.0.1:1/v1").0, "http://127.0.0.1:1/v1");
        assert_eq!(fixed("https:///host/v1").0, "https://host/v1");
        assert_eq!(fixed("https:/host/v1").0, "https://host/v1");
    }

    #[test]
    fn a_mistyped_scheme_is_refused_with_a_suggestion() {
        let e = refused("htps://api.example.com/v1");
        assert!(
            e.contains("did you mean `https://api.example.com/v1`"),
            "{e}"
        );
        assert!(refused("htttp://h/v1").contains("`http://h/v1`"));
        assert!(refused("hhtp://h/v1").contains("did you mean"));
        assert!(refused("htp:/h/v1").contains("did you mean `http://h/v1`"));
        assert!(refused("ftp://h/v1").contains("http:// or https://"));
        assert!(refused("ws://h/v1").contains("http:// or https://"));
    }

    #[test]
    fn an_appended_endpoint_path_is_removed() {
        let c = check_base_url("http://127.0.0.1:8080/v1/chat/completions").unwrap();
        assert_eq!(c.url, "http://127.0.0.1:8080/v1");
        assert!(c.notes[0].contains("/chat/completions"), "{:?}", c.notes);
        assert_eq!(fixed("https://h/v1/chat/completions/").0, "https://h/v1");
        assert_eq!(fixed("https://h/v1/models").0, "https://h/v1");
        assert_eq!(fixed("https://h/v1/completions").0, "https://h/v1");
        // Both faults at once.
        assert_eq!(
            fixed("localhost:1/v1/chat/completions"),
            ("http://localhost:1/v1".into(), 2)
        );
    }

    #[test]
    fn unusable_urls_are_refused() {
        assert!(refused("").contains("empty"));
        assert!(refused("http://my host/v1").contains("a space (character 10)"));
        assert!(refused("http://").contains("no host"));
        assert!(refused("https://h/v1?key=1").contains("?query"));
        assert!(refused("http:8080/v1").contains("no host"));
    }

    #[test]
    fn refusals_never_quote_a_key_in_any_part_of_the_url() {
        const KEY: &str = "sk-gateway-0123456789";
        for url in [
            format!("https://gw.example/v1?api-key={KEY}"),
            format!("https://gw.example/v1?x=1&api-key={KEY}#frag"),
            format!("https://gw.example/v1#access_token={KEY}"),
            format!("gw.example/v1?api-key={KEY}"),
            format!("htps://user:{KEY}@gw.example/v1"),
            format!("ftp://user:{KEY}@gw.example/v1"),
            format!("htp:/user:{KEY}@gw.example/v1"),
            format!("https://gw.example/v1 {KEY}"),
            format!("https://user:{KEY}@/v1"),
        ] {
            let e = refused(&url);
            assert!(!e.contains(&KEY[..8]), "{url}: {e}");
        }
        let e = refused(&format!("https://gw.example/v1?api-key={KEY}"));
        assert!(e.contains("api-key=[api key]"), "{e}");
    }

    #[test]
    fn other_schemes_and_unparseable_hosts_are_refused() {
        for url in [
            "javascript:alert(1)",
            "JavaScript:alert(document.cookie)",
            "data:text/html,x",
            "file:/etc/passwd",
            "mailto:a",
        ] {
            let e = refused(url);
            assert!(
                e.contains("must start with http:// or https://"),
                "{url}: {e}"
            );
        }
        for url in [
            "http://h:99999/v1",
            "http://h:80x/v1",
            "http://[::1/v1",
            "http://a$b/v1",
            "http://[zz]/v1",
            "http://[::1]x/v1",
        ] {
            let e = refused(url);
            assert!(e.contains("is not a URL a browser can call"), "{url}: {e}");
        }
        // Still taken: ports, IPv6 with a port, internationalised names.
        for url in [
            "http://[::1]:8000/v1",
            "https://bücher.example/v1",
            "http://h:/v1",
        ] {
            assert!(check_base_url(url).is_ok(), "{url}");
        }
    }

    #[test]
    fn userinfo_is_refused_without_being_quoted() {
        for url in [
            "https://user:p4ss-secret@gw.example/v1",
            "http://admin:p4ss-secret@127.0.0.1:8080/v1",
            "admin:p4ss-secret@127.0.0.1:8080/v1",
            "http:/admin:p4ss-secret@gw.example/v1",
            "https://p4ss-secret@gw.example/v1",
        ] {
            let e = refused(url);
            assert!(
                e.contains("HTTP Basic") && e.contains("api_key / api_key_env"),
                "{url}: {e}"
            );
            assert!(
                !e.contains("p4ss") && !e.contains("admin") && !e.contains("user:"),
                "{url}: {e}"
            );
        }
        let e = refused("https://user:p4ss-secret@gw.example/v1");
        assert!(e.contains("`https://gw.example/v1`"), "{e}");
        // An `@` after the host is a path, not userinfo.
        assert!(check_base_url("https://gw.example/v1/@team").is_ok());
    }

    #[test]
    fn a_base_url_without_a_path_is_kept_with_a_hint() {
        let c = check_base_url("http://127.0.0.1:8080").unwrap();
        assert_eq!(
            (c.url.as_str(), c.notes.len()),
            ("http://127.0.0.1:8080", 0)
        );
        assert!(c.hint.unwrap().contains("http://127.0.0.1:8080/v1"));
        assert!(check_base_url("http://127.0.0.1:8080/")
            .unwrap()
            .hint
            .is_some());
        assert_eq!(
            check_base_url("http://127.0.0.1:8080/v1").unwrap().hint,
            None
        );
        assert_eq!(
            check_base_url("https://gw.example/openai").unwrap().hint,
            None
        );
    }

    #[test]
    fn host_names_are_not_taken_for_scheme_typos() {
        assert_eq!(fixed("localhost:11434/v1").0, "http://localhost:11434/v1");
        assert_eq!(fixed("hp:8080/v1").0, "http://hp:8080/v1");
        assert_eq!(
            fixed("ollama.local:11434/v1").0,
            "http://ollama.local:11434/v1"
        );
    }
}
