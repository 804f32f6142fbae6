//! Replies the native client must refuse with a typed reason and never retry (docs/llm.md,
//! "Size limits"): a body over `wire::MAX_REPLY_BYTES` (plain, gzip bomb, endless chunked
//! body), a 2xx body that is not UTF-8, and a `finish_reason` that is neither `stop` nor
//! `length`. A raw HTTP server inside the test sends bytes no well-behaved server would.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::executor::block_on;
use verifyfast::llm::native::NativeTransport;
use verifyfast::llm::wire::MAX_REPLY_BYTES;
use verifyfast::llm::{
    ChatMessage, ChatRequest, ChatTransport, Endpoint, JsonMode, LlmError, RetryPolicy,
    RetryingClient,
};

/// What the server answers to every request.
#[derive(Clone)]
enum Answer {
    /// Status line + headers + body, as given.
    Raw(Vec<u8>),
    /// 200, chunked, 64 KB chunks until the client hangs up.
    Endless,
}

struct Server {
    base: String,
    requests: Arc<AtomicUsize>,
}

fn serve(answer: Answer) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let requests = Arc::new(AtomicUsize::new(0));
    let counter = requests.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            counter.fetch_add(1, Ordering::SeqCst);
            let answer = answer.clone();
            std::thread::spawn(move || answer_one(stream, &answer));
        }
    });
    Server {
        base: format!("http://127.0.0.1:{port}/v1"),
        requests,
    }
}

fn answer_one(mut stream: TcpStream, answer: &Answer) {
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let l = line.trim().to_ascii_lowercase();
        if let Some(v) = l.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        if l.is_empty() {
            break;
        }
    }
    let mut body = vec![0u8; length];
    let _ = reader.read_exact(&mut body);
    match answer {
        Answer::Raw(bytes) => {
            let _ = stream.write_all(bytes);
        }
        Answer::Endless => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
            if stream.write_all(head.as_bytes()).is_err() {
                return;
            }
            let chunk = vec![b' '; 64 * 1024];
            let frame = [
                format!("{:x}\r\n", chunk.len()).into_bytes(),
                chunk,
                b"\r\n".to_vec(),
            ]
            .concat();
            // Until the client hangs up (a write error), or far past any limit.
            for _ in 0..10_000 {
                if stream.write_all(&frame).is_err() {
                    return;
                }
            }
        }
    }
}

fn response(headers: &str, body: &[u8]) -> Answer {
    let mut out = format!(
        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n{headers}\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(body);
    Answer::Raw(out)
}

fn completion(content: &str, finish_reason: &str) -> Vec<u8> {
    serde_json::json!({
        "choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1}
    })
    .to_string()
    .into_bytes()
}

/// One call through the retry pipeline (6 attempts, no waiting), and how many requests the
/// server saw.
fn call(server: &Server) -> (Result<String, LlmError>, usize) {
    let client = RetryingClient::new(
        NativeTransport::new(Duration::from_secs(30)),
        RetryPolicy {
            max_attempts: 6,
            base_delay_ms: 1,
            max_delay_ms: 1,
            max_retry_after_ms: 0,
        },
    );
    let endpoint = Endpoint {
        base_url: server.base.clone(),
        model: "m".into(),
        api_key: None,
        json_mode: JsonMode::None,
    };
    let request = ChatRequest {
        messages: vec![ChatMessage::user("hi")],
        temperature: 0.0,
        max_tokens: 10,
    };
    let result = block_on(client.chat(&endpoint, &request)).map(|r| r.content);
    (result, server.requests.load(Ordering::SeqCst))
}

fn assert_too_large(server: &Server) {
    let (result, requests) = call(server);
    let err = result.expect_err("a reply over the limit is refused");
    assert!(
        matches!(err, LlmError::ReplyTooLarge { limit_bytes } if limit_bytes == MAX_REPLY_BYTES as u64),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains("larger than") && text.contains("not retried"),
        "{text}"
    );
    assert!(!text.contains("network error"), "{text}");
    assert_eq!(requests, 1, "refused, not retried");
}

#[test]
fn a_body_over_the_limit_is_refused_and_not_retried() {
    let mut body = vec![b' '; MAX_REPLY_BYTES + 10];
    let json = completion("{}", "stop");
    let at = body.len() - json.len();
    body[at..].copy_from_slice(&json);
    assert_too_large(&serve(response(
        "Content-Type: application/json\r\n",
        &body,
    )));
}

#[test]
fn a_body_exactly_at_the_limit_is_read() {
    let json = completion("{}", "stop");
    let mut body = vec![b' '; MAX_REPLY_BYTES];
    body[..json.len()].copy_from_slice(&json);
    let (result, requests) = call(&serve(response("", &body)));
    assert_eq!(result.expect("at the limit is fine"), "{}");
    assert_eq!(requests, 1);
}

#[test]
fn a_gzip_bomb_is_refused_and_not_retried() {
    use flate2::{write::GzEncoder, Compression};
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    // 50 MB of spaces inflate from about 50 KB.
    let block = vec![b' '; 1024 * 1024];
    for _ in 0..50 {
        gz.write_all(&block).expect("gzip");
    }
    let bomb = gz.finish().expect("gzip");
    assert!(bomb.len() < 1024 * 1024, "{}", bomb.len());
    assert_too_large(&serve(response(
        "Content-Type: application/json\r\nContent-Encoding: gzip\r\n",
        &bomb,
    )));
}

#[test]
fn an_endless_chunked_body_is_refused_and_not_retried() {
    assert_too_large(&serve(Answer::Endless));
}

#[test]
fn a_body_that_is_not_utf8_is_a_typed_refusal_not_a_lossy_reply() {
    let mut body = completion("verdict XY", "stop");
    let at = body.windows(2).position(|w| w == b"XY").expect("marker");
    body[at] = 0xFF;
    let (result, requests) = call(&serve(response("", &body)));
    let err = result.expect_err("not UTF-8 is refused");
    assert!(matches!(err, LlmError::NotUtf8 { .. }), "{err}");
    assert!(err.to_string().contains("not UTF-8"), "{err}");
    assert_eq!(requests, 1, "not retried");
}

#[test]
fn an_unknown_finish_reason_is_a_typed_refusal_not_a_stop() {
    let (result, requests) = call(&serve(response(
        "",
        &completion("{\"claims\":[]}", "weird_reason"),
    )));
    let err = result.expect_err("an unknown finish_reason is not a stop");
    assert_eq!(
        err,
        LlmError::UnexpectedFinish {
            reason: "weird_reason".into()
        }
    );
    assert_eq!(requests, 1, "not retried");
    let (ok, _) = call(&serve(response("", &completion("fine", "stop"))));
    assert_eq!(ok.expect("stop is a complete answer"), "fine");
}
