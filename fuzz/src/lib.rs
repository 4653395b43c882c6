//! What every fuzz target checks, whatever the grammar: parsing never panics, errors
//! point inside the input, whatever parses prints to text that parses to the same
//! print, and the request-level checks never panic on it either.

use dynalint::attr::AttributeType;
use dynalint::expr::{
    check_key_condition, check_request, parse, parse_with, Ast, ExprKind, KeyAttribute, KeySchema,
    Limits, Names,
};

/// Runs the checks on `data` read as UTF-8 (lossily: every byte string is an input).
pub fn check(data: &[u8], kind: ExprKind) {
    let src = String::from_utf8_lossy(data);
    // Without the 4 KB limit, so the fuzzer reaches the parser with big inputs too.
    let limits = Limits {
        max_bytes: None,
        ..Limits::DYNAMODB
    };
    match parse_with(&src, kind, &limits) {
        Err(e) => {
            assert!(e.span.start <= e.span.end && e.span.end <= src.len());
            assert!(src.is_char_boundary(e.span.start) && src.is_char_boundary(e.span.end));
            assert!(e
                .message
                .starts_with(&format!("Invalid {}: ", kind.parameter())));
        }
        Ok(ast) => {
            let printed = ast.to_string();
            let again = parse_with(&printed, kind, &limits)
                .unwrap_or_else(|e| panic!("{src:?} printed as {printed:?}: {e}"));
            assert_eq!(again.to_string(), printed, "{src:?}");
            let names = Names::from_pairs([("#n", "n"), ("#k", "pk")]);
            let _ = check_request(&[(kind, &src)], Some(&names), Some(&[":v", ":w"]), &limits);
            let _ = check_request(&[(kind, &src)], None, None, &Limits::DYNAMODB);
            if let Ast::Condition(c) = &ast {
                let schema = KeySchema {
                    partition_key: KeyAttribute {
                        name: "pk".into(),
                        ty: Some(AttributeType::S),
                    },
                    sort_key: Some(KeyAttribute {
                        name: "n".into(),
                        ty: Some(AttributeType::N),
                    }),
                };
                let _ = check_key_condition(c, &schema, &names);
            }
            let _ = parse(&printed, kind);
        }
    }
}

/// What every import target checks: importing any text as the named file never
/// panics, and every note and table points inside the text, on character boundaries.
pub fn check_import(data: &[u8], file_name: &str) {
    let text = String::from_utf8_lossy(data);
    let path = std::path::Path::new(file_name);
    let imported = dynalint::model::import::import_file(path, &text);
    let inside = |s: dynalint::source::Span| {
        s.start <= s.end
            && s.end <= text.len()
            && text.is_char_boundary(s.start)
            && text.is_char_boundary(s.end)
    };
    for n in &imported.notes {
        assert!(inside(n.span), "{n}: {:?} outside {} bytes", n.span, text.len());
    }
    for t in &imported.tables {
        assert!(inside(t.span) && inside(t.name_span), "table {}", t.name);
        assert!(!t.partition_key.is_empty(), "table {} has no key", t.name);
        for (_, s) in t.fields.iter() {
            assert!(inside(s), "table {}", t.name);
        }
        for i in &t.indexes {
            assert!(inside(i.span) && inside(i.name_span), "index {}", i.name);
        }
    }
}
