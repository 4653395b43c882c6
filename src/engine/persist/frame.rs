//! How records sit in a file: each is its length (4 bytes, little-endian), a CRC-32
//! of the length and the payload (4 bytes), then the payload. A record whose bytes do
//! not all arrive, or whose checksum does not match, ends what can be read: it is the
//! torn tail of a write a crash interrupted, never data.

use std::io::{self, Read};

/// Bytes before each payload: its length and its checksum.
pub const HEADER_BYTES: usize = 8;

/// The largest payload read. A length beyond it is damage, not a record: the largest
/// record a request makes (100 transaction items of 400 KB, base64-encoded) is far
/// below it, and a damaged length must not make the reader allocate gigabytes.
pub const MAX_PAYLOAD_BYTES: usize = 256 << 20;

/// Appends `payload` framed to `out`.
pub fn write(out: &mut Vec<u8>, payload: &[u8]) {
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    let len_bytes = len.to_le_bytes();
    let mut crc = crc32fast::Hasher::new();
    crc.update(&len_bytes);
    crc.update(payload);
    out.extend_from_slice(&len_bytes);
    out.extend_from_slice(&crc.finalize().to_le_bytes());
    out.extend_from_slice(payload);
}

/// What reading the next record found.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// A whole record with a matching checksum: its payload.
    Record(Vec<u8>),
    /// The end of the file, cleanly between records.
    End,
    /// Bytes that are not a whole, intact record: why.
    Torn(&'static str),
}

/// Reads records one after another, counting the bytes of the intact ones.
pub struct Reader<R> {
    input: R,
    /// Bytes of the records read so far: where the next one starts.
    pub offset: u64,
    /// Where the input ends, so that a damaged length is seen as such before
    /// anything is allocated for it.
    end: u64,
}

impl<R: Read> Reader<R> {
    /// Reads from `input`, whose first record starts at `offset` and which ends at
    /// `end` (the file's length).
    pub fn new(input: R, offset: u64, end: u64) -> Self {
        Reader { input, offset, end }
    }

    /// The next record, the end, or a torn record. Only I/O failures are errors.
    pub fn read_next(&mut self) -> io::Result<Next> {
        let mut header = [0u8; HEADER_BYTES];
        match read_full(&mut self.input, &mut header)? {
            0 => return Ok(Next::End),
            n if n < HEADER_BYTES => return Ok(Next::Torn("an incomplete record header")),
            _ => {}
        }
        let [l0, l1, l2, l3, c0, c1, c2, c3] = header;
        let len = u32::from_le_bytes([l0, l1, l2, l3]) as usize;
        let expected = u32::from_le_bytes([c0, c1, c2, c3]);
        if len > MAX_PAYLOAD_BYTES {
            return Ok(Next::Torn("a record length beyond any record written"));
        }
        if self.offset + (HEADER_BYTES + len) as u64 > self.end {
            return Ok(Next::Torn("an incomplete record"));
        }
        let mut payload = vec![0u8; len];
        if read_full(&mut self.input, &mut payload)? < len {
            return Ok(Next::Torn("an incomplete record"));
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&header[..4]);
        crc.update(&payload);
        if crc.finalize() != expected {
            return Ok(Next::Torn("a record whose checksum does not match"));
        }
        self.offset += (HEADER_BYTES + len) as u64;
        Ok(Next::Record(payload))
    }

    /// The bytes not read yet.
    pub fn rest(mut self) -> io::Result<Vec<u8>> {
        let mut rest = Vec::new();
        self.input.read_to_end(&mut rest)?;
        Ok(rest)
    }
}

/// Fills `buf` as far as the input goes; how many bytes it read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// True when `bytes` hold an intact record starting at some offset: a torn tail
/// followed by a record that checks out is damage in the middle of a file, which is
/// worth saying (a crash only ever tears the end).
pub fn holds_a_record(bytes: &[u8]) -> bool {
    (0..bytes.len().saturating_sub(HEADER_BYTES)).any(|start| {
        let rest = &bytes[start..];
        let mut r = Reader::new(rest, 0, rest.len() as u64);
        matches!(r.read_next(), Ok(Next::Record(p)) if !p.is_empty())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(payloads: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for p in payloads {
            write(&mut out, p);
        }
        out
    }

    fn read_all(bytes: &[u8]) -> (Vec<Vec<u8>>, Next, u64) {
        let mut r = Reader::new(bytes, 0, bytes.len() as u64);
        let mut records = Vec::new();
        loop {
            match r.read_next().unwrap() {
                Next::Record(p) => records.push(p),
                other => return (records, other, r.offset),
            }
        }
    }

    #[test]
    fn records_round_trip_and_end_cleanly() {
        let bytes = framed(&[b"one", b"", b"three"]);
        let (records, end, offset) = read_all(&bytes);
        assert_eq!(records, [b"one".to_vec(), vec![], b"three".to_vec()]);
        assert_eq!(end, Next::End);
        assert_eq!(offset, bytes.len() as u64);
    }

    #[test]
    fn every_cut_of_the_last_record_is_torn_and_keeps_the_ones_before() {
        let bytes = framed(&[b"kept", b"the record a crash cut short"]);
        let first = HEADER_BYTES + 4;
        for cut in first + 1..bytes.len() {
            let (records, end, offset) = read_all(&bytes[..cut]);
            assert_eq!(records, [b"kept".to_vec()], "cut at {cut}");
            assert!(matches!(end, Next::Torn(_)), "cut at {cut}");
            assert_eq!(offset, first as u64);
        }
    }

    #[test]
    fn a_flipped_bit_anywhere_in_a_record_is_caught() {
        let bytes = framed(&[b"payload with some length"]);
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut damaged = bytes.clone();
                damaged[i] ^= 1 << bit;
                let (records, end, _) = read_all(&damaged);
                assert!(records.is_empty(), "byte {i} bit {bit} read as data");
                assert!(matches!(end, Next::Torn(_)));
            }
        }
    }

    #[test]
    fn zeros_after_the_last_record_are_a_torn_tail_without_records() {
        // A file system may extend a file with zeros that were never written.
        let mut bytes = framed(&[b"a"]);
        bytes.extend_from_slice(&[0; 64]);
        let (records, end, offset) = read_all(&bytes);
        assert_eq!(records.len(), 1);
        assert!(matches!(end, Next::Torn(_)));
        assert!(!holds_a_record(&bytes[offset as usize..]));
        // Damage in the middle: an intact record follows the bad bytes.
        let mut middle = vec![0xffu8; 20];
        middle.extend(framed(&[b"later"]));
        assert!(holds_a_record(&middle));
    }
}
