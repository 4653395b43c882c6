//! Reading one framed LSP message (`Content-Length: N\r\n\r\n` + N bytes of JSON) with
//! bounded memory, whatever the client sends.
//!
//! `lsp_server::Message::read` allocates the body the header announces, so a header of
//! `Content-Length: 999999999999` aborts the process. Here a body over
//! [`MAX_MESSAGE_BYTES`] is answered at once and read past without being stored
//! ([`Frame::TooLarge`], [`skip`]), and a header line over
//! [`MAX_HEADER_LINE`] is skipped: each is answered as a bad message and the stream
//! stays in step with the client's framing. A header block with no usable length (none,
//! or two) is answered likewise; its body is not framed, so reading starts over at the
//! next `Content-Length` header, which follows that body on its last line.

use std::io::{self, BufRead, Read};

use lsp_server::Message;

/// The largest message body kept: a `didOpen` of the largest source file dynalint
/// reads ([`crate::workspace::MAX_FILE_BYTES`]), JSON-escaped, with room to spare.
pub const MAX_MESSAGE_BYTES: u64 = 4 * crate::workspace::MAX_FILE_BYTES;

/// The longest header line kept; real ones are under 100 bytes.
pub const MAX_HEADER_LINE: usize = 8 * 1024;

/// What one read from the stream gave.
#[derive(Debug)]
pub enum Frame {
    Message(Message),
    /// A message that cannot be used, and why; the next one can be read.
    Bad(String),
    /// A header announcing a body over [`MAX_MESSAGE_BYTES`]: answer, then [`skip`] it.
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

/// Reads past `n` bytes of body without keeping them.
pub fn skip(input: &mut dyn BufRead, n: u64) -> io::Result<u64> {
    io::copy(&mut Read::take(&mut *input, n), &mut io::sink())
}

/// Reads the next message. `Err` only for I/O errors of the stream itself.
pub fn read(input: &mut dyn BufRead) -> io::Result<Frame> {
    let mut length: Option<u64> = None;
    let mut lengths = 0;
    let mut problem: Option<String> = None;
    let mut first = true;
    loop {
        let Some(line) = header_line(input)? else {
            return Ok(if first {
                Frame::End
            } else {
                Frame::Bad("the stream ended inside a message header".into())
            });
        };
        first = false;
        let line = match line {
            Ok(l) => l,
            // A line that is no header ends the frame: reading starts over after it,
            // so garbage costs one error and not the next good message.
            Err(too_long) => return Ok(Frame::Bad(too_long)),
        };
        let mut line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        // The body of a message that could not be framed runs into the next header:
        // the frame starts there, and what came before is that body.
        let at = line.to_ascii_lowercase().find("content-length:");
        if let Some(at) = at.filter(|at| *at > 0) {
            line = &line[at..];
            (length, lengths, problem) = (None, 0, None);
        }
        match line.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                lengths += 1;
                match value.trim().parse::<u64>() {
                    Ok(n) => length = Some(n),
                    Err(_) => problem = Some(format!("bad Content-Length `{}`", value.trim())),
                }
            }
            Some(_) => {}
            None => {
                return Ok(Frame::Bad(format!(
                    "malformed header line `{}`",
                    clip(line)
                )))
            }
        }
    }
    if lengths > 1 {
        // Which one frames the body is anybody's guess: none is trusted.
        return Ok(Frame::Bad(
            "a message header with two Content-Length headers".into(),
        ));
    }
    let Some(n) = length else {
        return Ok(Frame::Bad(problem.unwrap_or_else(|| {
            "a message header without Content-Length".into()
        })));
    };
    if n > MAX_MESSAGE_BYTES {
        return Ok(Frame::TooLarge(n));
    }
    let mut body = Vec::new();
    Read::take(&mut *input, n).read_to_end(&mut body)?;
    if (body.len() as u64) < n {
        return Ok(Frame::Bad(format!(
            "the stream ended after {} of {n} bytes of a message",
            body.len()
        )));
    }
    if let Some(p) = problem {
        return Ok(Frame::Bad(p));
    }
    Ok(match serde_json::from_slice::<Message>(&body) {
        Ok(m) => Frame::Message(m),
        Err(e) => Frame::Bad(format!("malformed LSP payload: {e}")),
    })
}

/// One header line with its newline: `None` at the end of the stream, `Some(Err)`
/// for a line over [`MAX_HEADER_LINE`] (read to its end and dropped).
fn header_line(input: &mut dyn BufRead) -> io::Result<Option<Result<String, String>>> {
    let mut line = Vec::new();
    let mut dropped = 0usize;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if line.is_empty() && dropped == 0 {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let room = MAX_HEADER_LINE.saturating_sub(line.len()).min(take);
        line.extend_from_slice(&buf[..room]);
        dropped += take - room;
        input.consume(take);
        if done {
            break;
        }
    }
    if dropped > 0 {
        return Ok(Some(Err(format!(
            "a header line longer than {MAX_HEADER_LINE} bytes"
        ))));
    }
    Ok(Some(Ok(String::from_utf8_lossy(&line).into_owned())))
}

fn clip(s: &str) -> String {
    s.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn frames(bytes: &[u8]) -> Vec<Frame> {
        let mut input = io::BufReader::with_capacity(7, bytes);
        let mut out = Vec::new();
        loop {
            match read(&mut input).expect("a byte slice never fails") {
                Frame::End => return out,
                Frame::TooLarge(n) => {
                    skip(&mut input, n).expect("a byte slice never fails");
                    out.push(Frame::Bad(too_large(n)));
                }
                f => out.push(f),
            }
        }
    }

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

    #[test]
    fn a_huge_length_is_refused_without_allocating_it() {
        let input = format!("Content-Length: 999999999999\r\n\r\n{{}}{}", framed(EXIT));
        let f = frames(input.as_bytes());
        assert_eq!(f.len(), 1, "{f:?}");
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
        let f = frames(&input);
        assert!(
            matches!(&f[0], Frame::Bad(m) if m.contains("larger than")),
            "{:?}",
            f[0]
        );
        assert!(matches!(&f[1], Frame::Message(Message::Notification(n)) if n.method == "exit"));
    }

    #[test]
    fn bad_headers_and_bodies_are_reported_and_reading_goes_on() {
        let long = "X".repeat(MAX_HEADER_LINE * 3);
        let input = format!(
            "Content-Length: abc\r\n\r\n{}{long}\r\nContent-Length: 2\r\n\r\n{{}}Content-Length: 5\r\n\r\n[1, 2{}",
            framed(EXIT),
            framed(EXIT)
        );
        let f = frames(input.as_bytes());
        let kinds: Vec<&str> = f
            .iter()
            .map(|f| match f {
                Frame::Message(_) => "message",
                Frame::Bad(_) => "bad",
                Frame::End => "end",
                Frame::TooLarge(_) => "too large",
            })
            .collect();
        assert_eq!(
            kinds,
            ["bad", "message", "bad", "bad", "bad", "message"],
            "{f:?}"
        );
    }

    /// A header block with no Content-Length, or two, is one bad message, and the next
    /// message (right after its body, as a client writes it) is read.
    #[test]
    fn a_header_block_with_no_or_two_lengths_is_refused_and_reading_resynchronises() {
        let no_length = format!("Content-Type: x\r\n\r\n{EXIT}{}", framed(EXIT));
        let two = format!(
            "Content-Length: 3\r\nContent-Length: {}\r\n\r\n{EXIT}{}",
            EXIT.len(),
            framed(EXIT)
        );
        let pretty = "{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"exit\"\n}";
        let multi_line_body = format!("Content-Type: x\r\n\r\n{pretty}{}", framed(EXIT));
        for input in [no_length, two, multi_line_body] {
            let f = frames(input.as_bytes());
            assert!(matches!(f.first(), Some(Frame::Bad(_))), "{input:?}: {f:?}");
            assert!(
                matches!(f.last(), Some(Frame::Message(_))),
                "{input:?}: {f:?}"
            );
            let good = f.iter().filter(|f| matches!(f, Frame::Message(_))).count();
            assert_eq!(good, 1, "{input:?}: {f:?}");
        }
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
    }
}
