//! Fuzzes the update grammar: see `dynalint_fuzz::check`.
#![no_main]

use dynalint::expr::ExprKind;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| dynalint_fuzz::check(data, ExprKind::Update));
