//! Reading one framed LSP message (`Content-Length: N\r\n\r\n` + N bytes of JSON) with
//! bounded memory and bounded waiting, whatever the client sends.
//!
//! `lsp_server::Message::read` allocates the body the header announces, so a header of
//! `Content-Length: 999999999999` aborts the process, and a framing error ends the
//! connection. Here a message that cannot be framed (no usable length, two lengths, a
//! malformed or overlong header line, a body over [`MAX_MESSAGE_BYTES`]) is refused,
//! and the reader is *lost*: it skips to the next line that ends in a
//! `Content-Length: N` header and reads on from there. Nothing in valid JSON can be
//! mistaken for that line: its line break is a raw one, which JSON escapes inside
//! strings, and `Content-Length` outside a string is no JSON. So an honest oversized
//! body is skipped exactly, and a lying length costs only the bytes before the next
//! message, not a wait for bytes that never come. The same line inside a body that
//! is still being read means its length was wrong: the body is refused there and that
//! line starts the next message.

use std::io::{self, BufRead};

use lsp_server::Message;

/// The largest message body kept: a `didOpen` of the largest source file dynalint
/// reads ([`crate::workspace::MAX_FILE_BYTES`]), JSON-escaped, with room to spare.
pub const MAX_MESSAGE_BYTES: u64 = 4 * crate::workspace::MAX_FILE_BYTES;

/// The longest header line kept; real ones are under 100 bytes.
pub const MAX_HEADER_LINE: usize = 8 * 1024;

/// How much of a line's end is kept to recognise a `Content-Length` header there.
const TAIL: usize = 64;

/// What one read from the stream gave.
#[derive(Debug)]
pub enum Frame {
    Message(Message),
    /// A message that cannot be used, and why; the next one can be read.
    Bad(String),
    /// A header announcing a body over [`MAX_MESSAGE_BYTES`]: refused; the reader
    /// skips to the next message.
    TooLarge(u64),
    /// The client closed the stream.
    End,
}

/// What a [`Frame::TooLarge`] is answered with.
pub fn too_large(n: u64) -> String {
    format!(
        "a message of {n} bytes is larger than the {} MiB limit; it is skipped",
        MAX_MESSAGE_BYTES >> 20
    )
}

/// A `Content-Length` header's value: the length, or why it is none.
type Length = Result<u64, String>;

/// Where the reader stands in the client's framing.
#[derive(Debug)]
enum Place {
    /// At the start of a header block.
    InStep,
    /// Anywhere: skip to the next `Content-Length` header line.
    Lost,
    /// Just after a `Content-Length` header line (found inside a bad body).
    InHeader(Length),
}

/// Reads framed messages from a stream.
pub struct Reader<R> {
    input: R,
    place: Place,
}

/// One line read from the stream.
#[derive(Default)]
struct Line {
    /// Its first bytes, up to the `keep` asked for.
    head: Vec<u8>,
    /// Its last [`TAIL`] bytes.
    tail: Vec<u8>,
    /// Its length in bytes, newline included.
    len: u64,
    /// Ends with `\n` (else the stream or the byte limit ended it).
    ended: bool,
}

impl Line {
    /// The `Content-Length` header the line ends with, if any, and whether other
    /// bytes come before it on the line.
    fn length_at_end(&self) -> Option<(Length, bool)> {
        let (start, length) = length_at_end(&self.tail)?;
        let junk_before = self.len > (self.tail.len() - start) as u64;
        Some((length, junk_before))
    }
}

impl<R: BufRead> Reader<R> {
    /// A reader at the start of the stream.
    pub fn new(input: R) -> Self {
        Self {
            input,
            place: Place::InStep,
        }
    }

    /// Reads the next message. `Err` only for I/O errors of the stream itself.
    pub fn read(&mut self) -> io::Result<Frame> {
        let first = match std::mem::replace(&mut self.place, Place::InStep) {
            Place::InStep => None,
            Place::InHeader(length) => Some(length),
            Place::Lost => loop {
                let line = self.line(u64::MAX, 0)?;
                if line.len == 0 {
                    return Ok(Frame::End);
                }
                if let Some((length, _)) = line.length_at_end() {
                    break Some(length);
                }
            },
        };
        // Lost until a body is read to its announced end.
        self.place = Place::Lost;
        self.read_from(first)
    }

    /// Reads a header block (`first`: its `Content-Length` line, already read) and its
    /// body. Only reading a body says where the reader is next; any other refusal
    /// leaves it lost.
    fn read_from(&mut self, first: Option<Length>) -> io::Result<Frame> {
        let mut lengths: Vec<Length> = first.into_iter().collect();
        let mut other_headers = false;
        loop {
            let line = self.line(u64::MAX, MAX_HEADER_LINE)?;
            if line.len == 0 {
                return Ok(if lengths.is_empty() && !other_headers {
                    Frame::End
                } else {
                    Frame::Bad("the stream ended inside a message header".into())
                });
            }
            if !line.ended {
                return Ok(Frame::Bad(
                    "the stream ended inside a message header".into(),
                ));
            }
            if let Some((length, junk_before)) = line.length_at_end() {
                if junk_before {
                    // What came before was no header: the frame starts here.
                    (lengths, other_headers) = (Vec::new(), false);
                }
                lengths.push(length);
                continue;
            }
            if line.len > MAX_HEADER_LINE as u64 {
                return Ok(Frame::Bad(format!(
                    "a header line longer than {MAX_HEADER_LINE} bytes"
                )));
            }
            let text = String::from_utf8_lossy(&line.head);
            let text = text.trim_end_matches(['\r', '\n']);
            if text.is_empty() {
                break;
            }
            match text.split_once(':') {
                Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                    lengths.push(Err(format!("bad Content-Length `{}`", clip(value.trim()))));
                }
                Some(_) => other_headers = true,
                None => {
                    return Ok(Frame::Bad(format!(
                        "malformed header line `{}`",
                        clip(text)
                    )))
                }
            }
        }
        let n = match lengths.as_slice() {
            [] => return Ok(Frame::Bad("a message header without Content-Length".into())),
            [Ok(n)] => *n,
            [Err(why)] => return Ok(Frame::Bad(why.clone())),
            // Which one frames the body is anybody's guess: none is trusted.
            _ => {
                return Ok(Frame::Bad(
                    "a message header with two Content-Length headers".into(),
                ))
            }
        };
        if n > MAX_MESSAGE_BYTES {
            return Ok(Frame::TooLarge(n));
        }
        self.read_body(n)
    }

    /// Reads a body of `n` bytes, line by line so that a `Content-Length` line in it
    /// (its length was wrong) stops it at once.
    fn read_body(&mut self, n: u64) -> io::Result<Frame> {
        let mut body = Vec::new();
        let mut left = n;
        while left > 0 {
            let line = self.line(left, usize::MAX)?;
            if line.len == 0 {
                return Ok(Frame::Bad(format!(
                    "the stream ended after {} of {n} bytes of a message",
                    n - left
                )));
            }
            left -= line.len;
            if line.ended {
                if let Some((length, _)) = line.length_at_end() {
                    self.place = Place::InHeader(length);
                    return Ok(Frame::Bad(format!(
                        "a message's body ran into the next message's header after {} of the {n} bytes its Content-Length announced",
                        n - left
                    )));
                }
            }
            body.extend_from_slice(&line.head);
        }
        self.place = Place::InStep;
        Ok(match serde_json::from_slice::<Message>(&body) {
            Ok(m) => Frame::Message(m),
            Err(e) => Frame::Bad(format!("malformed LSP payload: {e}")),
        })
    }

    /// Reads to the end of a line (`\n` included), at most `limit` bytes, keeping its
    /// first `keep` bytes and its last [`TAIL`]. A line of length 0: the stream ended.
    fn line(&mut self, limit: u64, keep: usize) -> io::Result<Line> {
        let mut line = Line::default();
        while line.len < limit {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                break;
            }
            let most = usize::try_from(limit - line.len).unwrap_or(usize::MAX);
            let buf = &buf[..buf.len().min(most)];
            let (take, ended) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            let piece = &buf[..take];
            let room = keep.saturating_sub(line.head.len()).min(take);
            line.head.extend_from_slice(&piece[..room]);
            line.tail
                .extend_from_slice(&piece[take.saturating_sub(TAIL)..]);
            let over = line.tail.len().saturating_sub(TAIL);
            line.tail.drain(..over);
            line.len += take as u64;
            self.input.consume(take);
            if ended {
                line.ended = true;
                break;
            }
        }
        Ok(line)
    }
}

/// Where a line (its last bytes) ends with a `Content-Length: N` header, and its
/// value: `Content-Length`, any case, `:`, digits, blanks around them, a newline.
fn length_at_end(tail: &[u8]) -> Option<(usize, Length)> {
    let s = tail.strip_suffix(b"\n")?;
    let s = s.strip_suffix(b"\r").unwrap_or(s);
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let s = &s[..s.len() - s.iter().rev().take_while(|b| blank(b)).count()];
    let digits = s.iter().rev().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    let (s, value) = s.split_at(s.len() - digits);
    let s = &s[..s.len() - s.iter().rev().take_while(|b| blank(b)).count()];
    let s = s.strip_suffix(b":")?;
    const NAME: &[u8] = b"content-length";
    let start = s.len().checked_sub(NAME.len())?;
    if !s[start..].eq_ignore_ascii_case(NAME) {
        return None;
    }
    let value = String::from_utf8_lossy(value);
    let length = value
        .parse::<u64>()
        .map_err(|_| format!("bad Content-Length `{}`", clip(&value)));
    Some((start, length))
}

fn clip(s: &str) -> String {
    s.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn frames_with(bytes: &[u8], capacity: usize) -> Vec<Frame> {
        let mut reader = Reader::new(io::BufReader::with_capacity(capacity, bytes));
        let mut out = Vec::new();
        loop {
            match reader.read().expect("a byte slice never fails") {
                Frame::End => return out,
                Frame::TooLarge(n) => out.push(Frame::Bad(too_large(n))),
                f => out.push(f),
            }
        }
    }

    fn frames(bytes: &[u8]) -> Vec<Frame> {
        frames_with(bytes, 7)
    }

    fn kinds(f: &[Frame]) -> Vec<&'static str> {
        f.iter()
            .map(|f| match f {
                Frame::Message(_) => "message",
                Frame::Bad(_) => "bad",
                Frame::End => "end",
                Frame::TooLarge(_) => "too large",
            })
            .collect()
    }

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

    /// The announced terabyte is neither allocated nor waited for: the next message
    /// is read as soon as it comes.
    #[test]
    fn a_huge_length_is_refused_and_the_next_message_read() {
        let input = format!("Content-Length: 999999999999\r\n\r\n{{}}{}", framed(EXIT));
        let f = frames(input.as_bytes());
        assert_eq!(kinds(&f), ["bad", "message"], "{f:?}");
        assert!(
            matches!(&f[0], Frame::Bad(m) if m.contains("larger than")),
            "{f:?}"
        );
    }

    #[test]
    fn an_oversized_body_is_skipped_and_the_next_message_read() {
        let n = MAX_MESSAGE_BYTES + 1;
        let mut input = format!("Content-Length: {n}\r\n\r\n").into_bytes();
        input.resize(input.len() + n as usize, b' ');
        input.extend_from_slice(framed(EXIT).as_bytes());
        let f = frames_with(&input, 8 * 1024);
        assert_eq!(kinds(&f), ["bad", "message"], "{f:?}");
        assert!(
            matches!(&f[0], Frame::Bad(m) if m.contains("larger than")),
            "{:?}",
            f[0]
        );
        assert!(matches!(&f[1], Frame::Message(Message::Notification(n)) if n.method == "exit"));
    }

    /// A length that says more than was sent: the body is cut at the next header, and
    /// that message is read, not swallowed.
    #[test]
    fn a_body_shorter_than_its_length_ends_at_the_next_header() {
        let input = format!("Content-Length: 1000\r\n\r\n{{\"a\":\n1{}", framed(EXIT));
        let f = frames(input.as_bytes());
        assert_eq!(kinds(&f), ["bad", "message"], "{f:?}");
        assert!(
            matches!(&f[0], Frame::Bad(m) if m.contains("ran into the next message")),
            "{f:?}"
        );
    }

    /// A `Content-Length` header inside a JSON string is no header: its line break is
    /// escaped, so the body is read whole.
    #[test]
    fn a_header_quoted_in_a_body_is_part_of_the_body() {
        let quoted =
            r#"{"jsonrpc":"2.0","method":"x","params":{"text":"Content-Length: 2\r\n\r\n{}"}}"#;
        let pretty = "{\n  \"jsonrpc\": \"2.0\",\r\n  \"method\": \"x\"\n}\n";
        let input = format!("{}{}{}", framed(quoted), framed(pretty), framed(EXIT));
        let f = frames(input.as_bytes());
        assert_eq!(kinds(&f), ["message", "message", "message"], "{f:?}");
    }

    #[test]
    fn bad_headers_and_bodies_are_reported_once_and_reading_goes_on() {
        let long = "X".repeat(MAX_HEADER_LINE * 3);
        let input = format!(
            "Content-Length: abc\r\n\r\n{}{long}\r\nContent-Length: 2\r\n\r\n{{}}Content-Length: 5\r\n\r\n[1, 2{}",
            framed(EXIT),
            framed(EXIT)
        );
        let f = frames(input.as_bytes());
        assert_eq!(
            kinds(&f),
            ["bad", "message", "bad", "bad", "bad", "message"],
            "{f:?}"
        );
    }

    /// A header block with no Content-Length, or two, is one bad message, and the next
    /// message (right after its body, as a client writes it) is read, however many
    /// lines that body has.
    #[test]
    fn a_header_block_with_no_or_two_lengths_is_refused_and_reading_resynchronises() {
        let no_length = format!("Content-Type: x\r\n\r\n{EXIT}{}", framed(EXIT));
        let two = format!(
            "Content-Length: 3\r\nContent-Length: {}\r\n\r\n{EXIT}{}",
            EXIT.len(),
            framed(EXIT)
        );
        let pretty = "{\n  \"jsonrpc\": \"2.0\",\r\n\r\n  \"method\": \"exit\"\n}";
        let multi_line_body = format!("Content-Type: x\r\n\r\n{pretty}{}", framed(EXIT));
        for input in [no_length, two, multi_line_body] {
            let f = frames(input.as_bytes());
            assert_eq!(kinds(&f), ["bad", "message"], "{input:?}: {f:?}");
        }
    }

    /// A framed request with id `id`, compact or spread over lines.
    fn request(id: u32, pretty: bool) -> String {
        let body = serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": "x", "params": {} });
        let body = if pretty {
            serde_json::to_string_pretty(&body)
        } else {
            serde_json::to_string(&body)
        };
        framed(&body.expect("JSON"))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Any bytes: no panic, and the reader always reaches the end of the input.
        #[test]
        fn any_bytes_end_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            frames(&bytes);
        }

        /// Frames made of plausible pieces (headers, lengths, JSON fragments).
        #[test]
        fn plausible_frames_end_without_panic(parts in proptest::collection::vec(prop_oneof![
            Just("Content-Length: ".to_string()),
            (0u64..40).prop_map(|n| n.to_string()),
            Just("99999999999999999999".to_string()),
            Just("\r\n".to_string()),
            Just("\n".to_string()),
            Just("Content-Type: x\r\n".to_string()),
            Just(EXIT.to_string()),
            Just("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}".to_string()),
            "[{}\\[\\]\":,0-9a-z]{0,12}",
        ], 0..24)) {
            let input = parts.concat();
            for f in frames(input.as_bytes()) {
                if let Frame::Bad(m) = f {
                    prop_assert!(!m.is_empty());
                }
            }
        }

        /// Whatever unframeable bytes come before each message (a header that cannot
        /// frame them, then junk with no header in it), and however the stream is cut
        /// into buffers, every message is read, in order.
        #[test]
        fn every_message_after_junk_is_read(
            messages in proptest::collection::vec((
                prop_oneof![
                    Just(""),
                    Just("Content-Length: 999999999999\r\n\r\n"),
                    Just("Content-Length: 100000\r\n\r\n"),
                    Just("Content-Type: x\r\n\r\n"),
                    Just("Content-Length: 1\r\nContent-Length: 2\r\n\r\n"),
                    Just("content-length: x\r\n\r\n"),
                ],
                "[ a-zA-Z0-9{}\\[\\]\",\r\n-]{0,40}",
                any::<bool>(),
            ), 1..6),
            capacity in 1usize..48,
        ) {
            let mut input = String::new();
            for (i, (header, junk, pretty)) in messages.iter().enumerate() {
                input.push_str(header);
                input.push_str(junk);
                input.push_str(&request(i as u32, *pretty));
            }
            let ids: Vec<String> = frames_with(input.as_bytes(), capacity)
                .into_iter()
                .filter_map(|f| match f {
                    Frame::Message(Message::Request(r)) => Some(r.id.to_string()),
                    _ => None,
                })
                .collect();
            let want: Vec<String> = (0..messages.len()).map(|i| i.to_string()).collect();
            prop_assert_eq!(ids, want);
        }
    }
}
