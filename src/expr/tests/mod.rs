//! Tests of the expression languages, one file per concern.

mod parse_errors;
mod parse_ok;
