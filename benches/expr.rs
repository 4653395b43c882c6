//! Expression parsing speed: typical expressions from application code, a 4 KB
//! expression (DynamoDB's maximum), and a whole request check. Every Query, Scan and
//! write the scanner finds is parsed on each `dynalint check` and on each keystroke in
//! the language server, so this must stay far below a millisecond per call.
//!
//! Run with `cargo bench --bench expr`; prints figures, asserts nothing timed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;
use std::time::Instant;

use dynalint::expr::{self, ExprKind, Limits, Names};

fn measure(label: &str, iterations: u32, mut f: impl FnMut()) {
    for _ in 0..iterations / 10 {
        f();
    }
    let start = Instant::now();
    for _ in 0..iterations {
        f();
    }
    let per = start.elapsed() / iterations;
    println!("{label:<48} {per:>10.2?} per call");
}

fn main() {
    let typical = [
        (ExprKind::KeyCondition, "#pk = :pk AND begins_with(#sk, :prefix)"),
        (
            ExprKind::Filter,
            "attribute_exists(#email) AND (#status = :open OR #status = :paid) AND size(#items) > :n",
        ),
        (ExprKind::Projection, "#pk, #sk, title, price, tags[0], meta.createdAt"),
        (
            ExprKind::Update,
            "SET #count = if_not_exists(#count, :zero) + :one, updatedAt = :now REMOVE draft ADD tags :t",
        ),
    ];
    for (kind, src) in typical {
        measure(
            &format!("parse {kind} ({} bytes)", src.len()),
            100_000,
            || {
                black_box(expr::parse(black_box(src), kind).unwrap());
            },
        );
    }

    let mut big = String::from("a0 = :v0");
    let mut i = 1;
    while big.len() < 4000 {
        big.push_str(&format!(" AND (a{i} = :v{i} OR begins_with(b{i}, :v{i}))"));
        i += 1;
    }
    measure(
        &format!("parse FilterExpression ({} bytes)", big.len()),
        2_000,
        || {
            black_box(expr::parse(black_box(&big), ExprKind::Filter).unwrap());
        },
    );

    let names = Names::from_pairs([("#pk", "PK"), ("#sk", "SK"), ("#status", "status")]);
    let request = [
        (
            ExprKind::KeyCondition,
            "#pk = :pk AND begins_with(#sk, :prefix)",
        ),
        (ExprKind::Filter, "#status IN (:a, :b)"),
    ];
    let values = [":pk", ":prefix", ":a", ":b"];
    measure("check_request (key condition + filter)", 100_000, || {
        black_box(
            expr::check_request(&request, Some(&names), Some(&values), &Limits::DYNAMODB).unwrap(),
        );
    });
}
