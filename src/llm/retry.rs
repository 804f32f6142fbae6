//! Retry policy: which failures are worth another attempt, how long to wait, and
//! `Retry-After` parsing. Pure, so the schedule is unit-tested without a clock.

use super::LlmError;

/// How the pipeline retries. Defaults suit public APIs and local servers alike.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Attempts in total, the first one included (1 = never retry).
    pub max_attempts: u32,
    /// Backoff before the second attempt; doubles each time.
    pub base_delay_ms: u64,
    /// Ceiling of the computed backoff.
    pub max_delay_ms: u64,
    /// A server asking us to wait longer than this is not waited for: the error is returned.
    pub max_retry_after_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            // Six attempts: at a 20 % fault rate a call is lost with p = 0.2^6 ≈ 6e-5 (four
            // gave 0.0016, i.e. about one lost case per 200-call batch); the backoffs add
            // up to at most ~15 s before a dead server is reported.
            max_attempts: 6,
            base_delay_ms: 500,
            max_delay_ms: 8_000,
            max_retry_after_ms: 60_000,
        }
    }
}

/// What the official OpenAI clients retry (openai-python / openai-node `shouldRetry`):
/// 408 Request Timeout, 409 Conflict, 429 Too Many Requests, every 5xx, and connection
/// errors and timeouts; here also a 2xx body cut off in transit (a dropped connection by
/// another name). Every other 4xx, unreadable bodies, a refused endpoint and cancel are final.
pub fn is_retryable(error: &LlmError) -> bool {
    match error {
        LlmError::RateLimited { .. }
        | LlmError::Network { .. }
        | LlmError::Timeout { .. }
        | LlmError::CutOff { .. }
        | LlmError::Server { .. } => true,
        LlmError::Http { status, .. } => matches!(status, 408 | 409),
        _ => false,
    }
}

impl RetryPolicy {
    /// The wait before attempt `attempt + 1`, after `attempt` (1-based) failed with `error`.
    /// `None` means: do not retry. `jitter` is a uniform sample in [0, 1).
    pub fn delay_after(&self, attempt: u32, error: &LlmError, jitter: f64) -> Option<u64> {
        if attempt >= self.max_attempts || !is_retryable(error) {
            return None;
        }
        if let LlmError::RateLimited {
            retry_after_s: Some(s),
        } = error
        {
            let ms = s.saturating_mul(1000);
            // The server knows its own load: wait exactly as asked, or give up if too long.
            return (ms <= self.max_retry_after_ms).then_some(ms);
        }
        Some(self.backoff(attempt, jitter))
    }

    /// Exponential backoff with "equal jitter": half the step fixed, half random, so
    /// parallel callers that failed together do not retry together.
    pub fn backoff(&self, attempt: u32, jitter: f64) -> u64 {
        let exp = attempt.saturating_sub(1).min(30);
        let step = self
            .base_delay_ms
            .saturating_mul(1u64 << exp)
            .min(self.max_delay_ms);
        let jitter = if jitter.is_finite() {
            jitter.clamp(0.0, 1.0)
        } else {
            0.5
        };
        let half = step / 2;
        half + (half as f64 * jitter) as u64
    }
}

/// `Retry-After` as seconds to wait: delta-seconds (`"2"`, tolerating `"1.5"`) or an
/// HTTP-date, which needs the current Unix time. Past dates mean "now" (0).
pub fn parse_retry_after(value: &str, now_unix_s: Option<u64>) -> Option<u64> {
    let v = value.trim();
    if v.is_empty() {
        return None;
    }
    if let Ok(s) = v.parse::<u64>() {
        return Some(s);
    }
    if let Ok(f) = v.parse::<f64>() {
        if f.is_finite() && (0.0..1e9).contains(&f) {
            return Some(f.ceil() as u64);
        }
        return None;
    }
    let at = parse_http_date(v)?;
    let now = now_unix_s?;
    Some(at.saturating_sub(now))
}

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) as Unix seconds.
fn parse_http_date(v: &str) -> Option<u64> {
    let rest = v.split_once(',').map(|(_, r)| r).unwrap_or(v).trim();
    let mut parts = rest.split_whitespace();
    let day: u64 = parts.next()?.parse().ok()?;
    let month = match parts.next()?.to_ascii_lowercase().as_str() {
        "jan" => 1,
        "feb" => 2,
        "mar" => 3,
        "apr" => 4,
        "may" => 5,
        "jun" => 6,
        "jul" => 7,
        "aug" => 8,
        "sep" => 9,
        "oct" => 10,
        "nov" => 11,
        "dec" => 12,
        _ => return None,
    };
    let year: i64 = parts.next()?.parse().ok()?;
    let mut hms = parts.next()?.split(':');
    let h: u64 = hms.next()?.parse().ok()?;
    let m: u64 = hms.next()?.parse().ok()?;
    let s: u64 = hms.next()?.parse().ok()?;
    if !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 || !(1970..=9999).contains(&year) {
        return None;
    }
    let days = days_from_civil(year, month, day as i64);
    u64::try_from(days)
        .ok()
        .map(|d| d * 86_400 + h * 3600 + m * 60 + s)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A tiny deterministic generator for jitter (xorshift64*): no dependency, no OS entropy,
/// which is enough to de-synchronise retries.
#[derive(Debug, Clone)]
pub struct Jitter(u64);

impl Jitter {
    pub fn new(seed: u64) -> Self {
        Self(seed | 1)
    }

    /// A uniform sample in [0, 1).
    pub fn next_unit(&mut self) -> f64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(status: u16) -> LlmError {
        LlmError::Server {
            status,
            body: String::new(),
        }
    }

    #[test]
    fn retryable_kinds() {
        assert!(is_retryable(&LlmError::RateLimited {
            retry_after_s: None
        }));
        assert!(is_retryable(&server(502)));
        assert!(is_retryable(&server(503)));
        assert!(is_retryable(&server(504)));
        assert!(is_retryable(&LlmError::Timeout { seconds: 1 }));
        assert!(is_retryable(&LlmError::Network {
            url: String::new(),
            hint: String::new()
        }));
        assert!(is_retryable(&server(500)));
        assert!(is_retryable(&server(501)));
        assert!(is_retryable(&server(599)));
        assert!(is_retryable(&LlmError::CutOff {
            detail: String::new()
        }));
        for status in [408, 409] {
            assert!(is_retryable(&LlmError::Http {
                status,
                body: String::new()
            }));
        }
        for status in [400, 402, 405, 410, 422] {
            assert!(!is_retryable(&LlmError::Http {
                status,
                body: String::new()
            }));
        }
        assert!(!is_retryable(&LlmError::NotFound {
            url: String::new(),
            model: String::new()
        }));
        assert!(!is_retryable(&LlmError::InvalidEndpoint {
            detail: String::new()
        }));
        assert!(!is_retryable(&LlmError::BadResponse {
            detail: String::new()
        }));
        assert!(!is_retryable(&LlmError::Unauthorized { status: 401 }));
        assert!(!is_retryable(&LlmError::Unauthorized { status: 403 }));
        assert!(!is_retryable(&LlmError::Http {
            status: 400,
            body: String::new()
        }));
        assert!(!is_retryable(&LlmError::TooLarge));
        assert!(!is_retryable(&LlmError::Cancelled));
        assert!(!is_retryable(&LlmError::HtmlInsteadOfJson));
        assert!(!is_retryable(&LlmError::EmptyChoices));
    }

    #[test]
    fn backoff_doubles_and_caps_with_jitter_inside_the_step() {
        let p = RetryPolicy::default();
        assert_eq!(p.backoff(1, 0.0), 250);
        assert_eq!(p.backoff(1, 0.999_999), 499);
        assert_eq!(p.backoff(2, 0.0), 500);
        assert_eq!(p.backoff(3, 0.0), 1000);
        assert_eq!(p.backoff(10, 0.0), 4000);
        assert!(p.backoff(10, 1.0) <= 8000);
        assert_eq!(p.backoff(u32::MAX, f64::NAN), 6000);
    }

    #[test]
    fn retry_after_is_honoured_exactly_or_refused_when_too_long() {
        let p = RetryPolicy::default();
        let limited = |s| LlmError::RateLimited { retry_after_s: s };
        assert_eq!(p.delay_after(1, &limited(Some(2)), 0.9), Some(2000));
        assert_eq!(p.delay_after(1, &limited(Some(3600)), 0.0), None);
        assert_eq!(p.delay_after(1, &limited(None), 0.0), Some(250));
    }

    #[test]
    fn stops_at_the_attempt_limit_and_on_final_errors() {
        let p = RetryPolicy::default();
        assert!(p.delay_after(5, &server(503), 0.0).is_some());
        assert_eq!(p.delay_after(6, &server(503), 0.0), None);
        assert!(p.delay_after(1, &server(500), 0.0).is_some());
        assert_eq!(p.delay_after(1, &LlmError::TooLarge, 0.0), None);
        assert_eq!(p.delay_after(1, &LlmError::Cancelled, 0.0), None);
    }

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("2", None), Some(2));
        assert_eq!(parse_retry_after(" 1.2 ", None), Some(2));
        assert_eq!(parse_retry_after("-1", None), None);
        assert_eq!(parse_retry_after("soon", Some(0)), None);
        assert_eq!(parse_retry_after("", None), None);
        // 1994-11-06 08:49:37 UTC = 784111777
        let date = "Sun, 06 Nov 1994 08:49:37 GMT";
        assert_eq!(parse_retry_after(date, Some(784_111_770)), Some(7));
        assert_eq!(parse_retry_after(date, Some(784_111_800)), Some(0));
        assert_eq!(parse_retry_after(date, None), None);
        assert_eq!(
            parse_retry_after("Sun, 40 Nov 1994 08:49:37 GMT", Some(0)),
            None
        );
    }

    #[test]
    fn jitter_is_uniform_enough_and_in_range() {
        let mut j = Jitter::new(42);
        let samples: Vec<f64> = (0..1000).map(|_| j.next_unit()).collect();
        assert!(samples.iter().all(|x| (0.0..1.0).contains(x)));
        let mean = samples.iter().sum::<f64>() / samples.len() as f64;
        assert!((0.4..0.6).contains(&mean), "{mean}");
    }
}
