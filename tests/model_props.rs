#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `model::load_str` never panics, on arbitrary text and on valid models mangled by
//! random edits, and every problem it reports points inside the text.

use std::path::Path;

use proptest::prelude::*;

const VALID: &[&str] = &[
    include_str!("../test-fixtures/examples/design/dynalint.toml"),
    include_str!("../test-fixtures/examples/hr-orders/dynalint.toml"),
    include_str!("../test-fixtures/examples/orders/dynalint.toml"),
];

/// Fragments that make edits likely to stay TOML-shaped but break the model.
const SNIPPETS: &[&str] = &[
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    "\"",
    "'",
    "=",
    ",",
    "\n",
    "#",
    "-1",
    "1e999",
    "0x7fffffffffffffffffff",
    "-0",
    "nan",
    "inf",
    "true",
    "\"N\"",
    "\"BOOL\"",
    "\"{}\"",
    "\"{x\"",
    "[[table]]\n",
    "[[table.index]]\nname = \"X\"\n",
    "[[table.entity]]\n",
    "[[access-pattern]]\n",
    "[table.attributes]\n",
    "kind = \"local\"\n",
    "projection = { include = [] }\n",
    "values = { A = 2 }",
    "partition-key = \"zz\"\n",
    "1979-05-27T07:32:00Z",
    "é",
    "\u{0}",
];

#[derive(Debug, Clone)]
enum Edit {
    Delete { at: usize, len: usize },
    Insert { at: usize, snippet: usize },
    DuplicateLine { line: usize },
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Edit::Delete { at, len }),
        (any::<usize>(), 0..SNIPPETS.len()).prop_map(|(at, snippet)| Edit::Insert { at, snippet }),
        any::<usize>().prop_map(|line| Edit::DuplicateLine { line }),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        match *e {
            Edit::Delete { at, len } => {
                let at = at % (chars.len() + 1);
                let end = (at + len).min(chars.len());
                chars.drain(at..end);
            }
            Edit::Insert { at, snippet } => {
                let at = at % (chars.len() + 1);
                let s: Vec<char> = SNIPPETS[snippet].chars().collect();
                chars.splice(at..at, s);
            }
            Edit::DuplicateLine { line } => {
                let s: String = chars.iter().collect();
                let lines: Vec<&str> = s.split_inclusive('\n').collect();
                if lines.is_empty() {
                    continue;
                }
                let i = line % lines.len();
                let mut out = String::new();
                for (n, l) in lines.iter().enumerate() {
                    out.push_str(l);
                    if n == i {
                        out.push_str(l);
                    }
                }
                chars = out.chars().collect();
            }
        }
    }
    chars.into_iter().collect()
}

fn check(text: &str) {
    if let Err(problems) = dynalint::model::load_str(Path::new("dynalint.toml"), text) {
        assert!(!problems.is_empty());
        for p in problems {
            assert!(p.span.end <= text.len(), "{p:?} outside the text");
            assert!(!p.message.is_empty());
            for (s, _) in &p.labels {
                assert!(s.end <= text.len(), "{p:?} label outside the text");
            }
        }
    } else if let Ok(m) = dynalint::model::load_str(Path::new("dynalint.toml"), text) {
        // A model that loads also renders.
        let _ = dynalint::model::show::render(&m);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn never_panics_on_arbitrary_text(text in ".{0,400}") {
        check(&text);
    }

    #[test]
    fn never_panics_on_toml_like_text(parts in proptest::collection::vec(0..SNIPPETS.len(), 0..60)) {
        let text: String = parts.into_iter().map(|i| SNIPPETS[i]).collect();
        check(&text);
    }

    #[test]
    fn never_panics_on_mutated_models(which in 0..VALID.len(), edits in proptest::collection::vec(edit(), 1..6)) {
        check(&apply(VALID[which], &edits));
    }
}

#[test]
fn deep_nesting_and_large_inputs_do_not_panic() {
    check(&format!("x = {}{}", "[".repeat(5_000), "]".repeat(5_000)));
    check(&format!("x = {}", "{ a = ".repeat(5_000)));
    let mut big = String::from(VALID[1]);
    for i in 0..2_000 {
        big.push_str(&format!(
            "\n[[access-pattern]]\nname = \"p{i}\"\ntable = \"HROrders\"\n"
        ));
    }
    check(&big);
}

#[test]
fn very_deep_nesting_reports_instead_of_overflowing() {
    for open in ["[", "{ a = "] {
        let text = format!("x = {}", open.repeat(200_000));
        let r = dynalint::model::load_str(Path::new("dynalint.toml"), &text);
        assert!(r.is_err());
    }
    // Nested arrays that do parse are walked without recursion trouble too.
    for depth in [2_000, 100_000] {
        let text = format!(
            "[rules]\nr = {{ deep = {}{} }}\n",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        check(&text);
    }
}
