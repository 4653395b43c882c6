//! Tests of the expression languages, one file per concern.

mod conformance;
mod hostile;
mod key_condition;
mod parse_errors;
mod parse_ok;
mod placeholders;
mod proptests;
