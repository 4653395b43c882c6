//! Fuzzes the language server's message framing (`dynalint::lsp::frame`): any bytes
//! are read to their end, in bounded memory, without a panic.
#![no_main]

use std::io::BufReader;

use dynalint::lsp::frame::{self, Frame};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // A small buffer makes every header and body cross buffer boundaries.
    let mut input = BufReader::with_capacity(16, data);
    loop {
        match frame::read(&mut input).expect("reading a byte slice cannot fail") {
            Frame::End => break,
            Frame::TooLarge(n) => {
                frame::skip(&mut input, n).expect("reading a byte slice cannot fail");
            }
            Frame::Message(_) | Frame::Bad(_) => {}
        }
    }
});
