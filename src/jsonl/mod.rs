//! The one JSONL line reader of the app (CLI files, stdin, and browser file chunks).
//!
//! Push-based so the browser can feed `File.slice` chunks and the CLI can feed `read()`
//! buffers through the same code: UTF-8 BOM, CRLF, blank lines and lines split across
//! chunks are handled here once. Memory is one partial line, never the file.

/// `value` as one line of JSON, for JSONL output and for quoting a value in a message.
///
/// Use this rather than `{}` on a `serde_json::Value`: its `Display` brings two more JSON
/// writers (plain and pretty) into the wasm, next to the one `serde_json::to_string` uses.
pub fn compact(value: &serde_json::Value) -> String {
    // Writing a `Value` to a `Vec` cannot fail (its keys are strings).
    serde_json::to_string(value).unwrap_or_default()
}

/// A value as text to show or match: a string as it is, anything else as compact JSON.
pub fn text_of(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        other => compact(other),
    }
}

/// A non-blank line with its 1-based line number, or why it could not be read as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub number: usize,
    /// Byte offset of the line's first byte in the stream (after a BOM), for drill-down.
    pub offset: u64,
    pub text: Result<String, LineError>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("line {line}: not valid UTF-8 (byte {byte} of the line)")]
    NotUtf8 { line: usize, byte: usize },
    #[error("line {line}: longer than {limit} bytes, skipped")]
    TooLong { line: usize, limit: usize },
}

impl LineError {
    /// The message without its `line N: ` prefix, for lists that show the line number in a
    /// column of their own (otherwise "line 8: line 8: not valid UTF-8").
    pub fn reason(&self) -> String {
        match self {
            LineError::NotUtf8 { byte, .. } => format!("not valid UTF-8 (byte {byte} of the line)"),
            LineError::TooLong { limit, .. } => format!("longer than {limit} bytes, skipped"),
        }
    }
}

/// Lines longer than this are reported and skipped rather than buffered without bound.
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// Splits a byte stream into JSONL lines.
#[derive(Debug)]
pub struct LineSplitter {
    partial: Vec<u8>,
    line_number: usize,
    at_start: bool,
    max_line_bytes: usize,
    overlong: bool,
    /// Bytes consumed before the current partial line began.
    line_start: u64,
    consumed: u64,
}

impl Default for LineSplitter {
    fn default() -> Self {
        Self::with_max_line_bytes(DEFAULT_MAX_LINE_BYTES)
    }
}

impl LineSplitter {
    pub fn with_max_line_bytes(max_line_bytes: usize) -> Self {
        Self {
            partial: Vec::new(),
            line_number: 0,
            at_start: true,
            max_line_bytes,
            overlong: false,
            line_start: 0,
            consumed: 0,
        }
    }

    /// Feed the next chunk; `emit` is called for every complete non-blank line in it.
    pub fn push(&mut self, mut chunk: &[u8], emit: &mut impl FnMut(Line)) {
        if self.at_start {
            // The BOM may arrive split across the first chunks; wait for 3 bytes.
            if self.partial.len() + chunk.len() < 3 && !chunk.is_empty() {
                self.partial.extend_from_slice(chunk);
                return;
            }
            self.at_start = false;
            let mut head = std::mem::take(&mut self.partial);
            head.extend_from_slice(chunk);
            let body = head
                .strip_prefix(b"\xEF\xBB\xBF".as_slice())
                .unwrap_or(&head)
                .to_vec();
            return self.push(&body, emit);
        }
        while let Some(pos) = memchr::memchr(b'\n', chunk) {
            let (line, rest) = chunk.split_at(pos);
            self.append(line);
            self.consumed += line.len() as u64 + 1;
            self.finish_line(emit);
            self.line_start = self.consumed;
            chunk = &rest[1..];
        }
        self.append(chunk);
        self.consumed += chunk.len() as u64;
    }

    /// Flush the last line (a file need not end with a newline).
    pub fn finish(&mut self, emit: &mut impl FnMut(Line)) {
        if self.at_start {
            self.at_start = false;
            let head = std::mem::take(&mut self.partial);
            let body = head
                .strip_prefix(b"\xEF\xBB\xBF".as_slice())
                .unwrap_or(&head)
                .to_vec();
            self.append(&body);
        }
        if !self.partial.is_empty() || self.overlong {
            self.finish_line(emit);
        }
    }

    fn append(&mut self, bytes: &[u8]) {
        if self.overlong {
            return;
        }
        if self.partial.len() + bytes.len() > self.max_line_bytes {
            self.overlong = true;
            self.partial = Vec::new();
            return;
        }
        self.partial.extend_from_slice(bytes);
    }

    fn finish_line(&mut self, emit: &mut impl FnMut(Line)) {
        self.line_number += 1;
        let number = self.line_number;
        let offset = self.line_start;
        if std::mem::take(&mut self.overlong) {
            emit(Line {
                number,
                offset,
                text: Err(LineError::TooLong {
                    line: number,
                    limit: self.max_line_bytes,
                }),
            });
            return;
        }
        let mut bytes = std::mem::take(&mut self.partial);
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        if bytes.iter().all(|b| b.is_ascii_whitespace()) {
            return;
        }
        let text = String::from_utf8(bytes).map_err(|e| LineError::NotUtf8 {
            line: number,
            byte: e.utf8_error().valid_up_to(),
        });
        emit(Line {
            number,
            offset,
            text,
        });
    }
}

/// Convenience for whole strings (pasted text, tests): all non-blank lines.
pub fn lines_of(text: &str) -> Vec<Line> {
    lines_of_capped(text, DEFAULT_MAX_LINE_BYTES)
}

/// [`lines_of`] with lines longer than `max_line_bytes` reported as [`LineError::TooLong`].
pub fn lines_of_capped(text: &str, max_line_bytes: usize) -> Vec<Line> {
    let mut out = Vec::new();
    let mut splitter = LineSplitter::with_max_line_bytes(max_line_bytes);
    splitter.push(text.as_bytes(), &mut |l| out.push(l));
    splitter.finish(&mut |l| out.push(l));
    out
}

/// Reads every line of a `Read` (a file, stdin) in 64 KiB chunks.
#[cfg(not(target_arch = "wasm32"))]
pub fn for_each_line(reader: impl std::io::Read, emit: impl FnMut(Line)) -> std::io::Result<()> {
    for_each_line_capped(reader, DEFAULT_MAX_LINE_BYTES, emit)
}

/// [`for_each_line`] with lines longer than `max_line_bytes` reported as
/// [`LineError::TooLong`] (and never buffered past it).
#[cfg(not(target_arch = "wasm32"))]
pub fn for_each_line_capped(
    mut reader: impl std::io::Read,
    max_line_bytes: usize,
    mut emit: impl FnMut(Line),
) -> std::io::Result<()> {
    let mut splitter = LineSplitter::with_max_line_bytes(max_line_bytes);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        splitter.push(&buf[..n], &mut emit);
    }
    splitter.finish(&mut emit);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(input: &[&[u8]]) -> Vec<(usize, Result<String, LineError>)> {
        let mut out = Vec::new();
        let mut s = LineSplitter::with_max_line_bytes(16);
        for chunk in input {
            s.push(chunk, &mut |l| out.push((l.number, l.text)));
        }
        s.finish(&mut |l| out.push((l.number, l.text)));
        out
    }

    #[test]
    fn bom_crlf_blank_lines_and_no_trailing_newline() {
        let got = texts(&[b"\xEF\xBB\xBF{\"a\":1}\r\n\r\n  \n{\"b\":2}"]);
        assert_eq!(
            got,
            vec![(1, Ok("{\"a\":1}".into())), (4, Ok("{\"b\":2}".into()))]
        );
    }

    #[test]
    fn lines_and_bom_split_across_chunks() {
        let got = texts(&[b"\xEF", b"\xBB", b"\xBFab", b"c\nd", b"e\n"]);
        assert_eq!(got, vec![(1, Ok("abc".into())), (2, Ok("de".into()))]);
    }

    #[test]
    fn overlong_line_is_reported_and_the_rest_continues() {
        let got = texts(&[b"short\n0123456789", b"0123456789\nok\n"]);
        assert_eq!(
            got,
            vec![
                (1, Ok("short".into())),
                (2, Err(LineError::TooLong { line: 2, limit: 16 })),
                (3, Ok("ok".into()))
            ]
        );
    }

    #[test]
    fn invalid_utf8_names_its_line() {
        let got = texts(&[b"ok\n\xFF\xFE\n"]);
        assert_eq!(got[1], (2, Err(LineError::NotUtf8 { line: 2, byte: 0 })));
    }

    #[test]
    fn offsets_point_at_line_starts() {
        let mut got = Vec::new();
        let mut s = LineSplitter::default();
        for chunk in [b"\xEF\xBB\xBFab\r\n".as_slice(), b"\ncd", b"e\nf"] {
            s.push(chunk, &mut |l| got.push((l.number, l.offset)));
        }
        s.finish(&mut |l| got.push((l.number, l.offset)));
        assert_eq!(got, vec![(1, 0), (3, 5), (4, 9)]);
    }

    #[test]
    fn tiny_input_without_newline() {
        assert_eq!(texts(&[b"x"]), vec![(1, Ok("x".into()))]);
        assert_eq!(texts(&[b""]), vec![]);
    }
}
