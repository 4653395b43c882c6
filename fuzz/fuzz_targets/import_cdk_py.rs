//! Fuzzes model import of a CDK app's Python (`dynalint::model::import`): see
//! `dynalint_fuzz::check_import`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dynalint_fuzz::check_import(data, "stack.py"));
