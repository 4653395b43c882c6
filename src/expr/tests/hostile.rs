//! Hostile input: deep nesting and megabyte expressions must end in a clear error (or
//! a result), never a stack overflow or a hang. Each case runs on a thread with a small
//! stack, so a recursion that is not bounded shows up here and not in production.

use crate::expr::{
    check_placeholders, parse, parse_with, Ast, ErrorCode, ExprError, ExprKind, Limits,
};

const UNLIMITED_SIZE: Limits = Limits {
    max_bytes: None,
    ..Limits::DYNAMODB
};

/// Runs `f` on a thread with a 1 MiB stack (half of a test thread's default).
fn small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

fn parse_big(src: String, kind: ExprKind) -> Result<Ast, ExprError> {
    small_stack(move || {
        let result = parse_with(&src, kind, &UNLIMITED_SIZE);
        // Dropping and printing a successful tree must be safe too.
        if let Ok(ast) = &result {
            let _ = ast.to_string().len();
        }
        result
    })
}

#[test]
fn deep_nesting_is_refused_with_a_clear_error() {
    let n = 100_000;
    let cases: Vec<(ExprKind, String)> = vec![
        (ExprKind::Filter, "(".repeat(n)),
        (
            ExprKind::Filter,
            format!("{}a = :v{}", "(".repeat(n), ")".repeat(n)),
        ),
        (
            ExprKind::Filter,
            format!("a = {}:v{}", "(".repeat(n), ")".repeat(n)),
        ),
        (ExprKind::Filter, format!("{}a = :v", "NOT ".repeat(n))),
        (
            ExprKind::Filter,
            format!("{}a{} > :n", "size(".repeat(n), ")".repeat(n)),
        ),
        (ExprKind::KeyCondition, format!("a IN ({}:v", "(".repeat(n))),
        (ExprKind::Update, format!("SET a = {}:v", "(".repeat(n))),
        (
            ExprKind::Update,
            format!("SET a = {}:v", "list_append(".repeat(n)),
        ),
    ];
    for (kind, src) in cases {
        let head: String = src.chars().take(20).collect();
        let err = parse_big(src, kind).unwrap_err();
        assert_eq!(err.code, ErrorCode::TooDeep, "{head}");
        assert_eq!(
            err.message,
            format!(
                "Invalid {}: The expression is nested too deeply; maximum nesting depth: 64",
                kind.parameter()
            )
        );
    }
    // A projection has no nesting: `(` is simply a syntax error.
    let err = parse_big("(".repeat(n), ExprKind::Projection).unwrap_err();
    assert_eq!(err.code, ErrorCode::Syntax);
}

#[test]
fn nesting_within_the_limit_parses() {
    // The limit counts every level, the innermost operand included.
    let depth = Limits::DYNAMODB.max_depth;
    let src = format!("{}a = :v{}", "(".repeat(depth - 2), ")".repeat(depth - 2));
    // So many parentheses around one condition are redundant, but not too deep.
    let err = parse(&src, ExprKind::Filter).unwrap_err();
    assert_eq!(err.code, ErrorCode::RedundantParentheses);
    let src = format!("{}a = :v{}", "(".repeat(depth - 1), ")".repeat(depth - 1));
    assert_eq!(
        parse(&src, ExprKind::Filter).unwrap_err().code,
        ErrorCode::TooDeep
    );
    let src = format!("{}a = :v", "NOT ".repeat(depth - 2));
    assert!(parse(&src, ExprKind::Filter).is_ok());
    // Alternating groups are not redundant: a deep but legal expression.
    let mut src = String::from("a = :v");
    for _ in 0..depth - 2 {
        src = format!("b = :w AND ({src})");
    }
    assert!(parse_with(&src, ExprKind::Filter, &UNLIMITED_SIZE).is_ok());
}

#[test]
fn megabyte_expressions() {
    let mb = 1 << 20;
    // Over DynamoDB's 4 KB: refused before parsing, whatever the content.
    let err = parse(&"a".repeat(mb), ExprKind::Projection).unwrap_err();
    assert_eq!(err.code, ErrorCode::TooLarge);

    // Without the size limit the parser still copes.
    let mut chain = String::from("a = :v");
    while chain.len() < mb {
        chain.push_str(" AND a = :v");
    }
    let err = parse_big(chain, ExprKind::Filter).unwrap_err();
    assert_eq!(err.code, ErrorCode::TooComplex);
    assert_eq!(
        err.message,
        "Invalid FilterExpression: The expression has too many AND/OR operators; maximum: 1000"
    );

    let ident = format!("a{}", "b".repeat(mb));
    assert!(parse_big(ident, ExprKind::Projection).is_ok());

    let long_path = format!("a{}", ".b".repeat(mb / 2));
    assert!(parse_big(long_path.clone(), ExprKind::Projection).is_ok());
    assert!(parse_big(format!("{long_path} = :v"), ExprKind::Condition).is_ok());

    let err = parse_big("é".repeat(mb / 2), ExprKind::Filter).unwrap_err();
    assert_eq!(err.code, ErrorCode::Syntax);
    assert_eq!(
        err.message,
        "Invalid FilterExpression: Syntax error; token: \"é\", near: \"éé\""
    );

    let in_list = format!("a IN ({})", vec![":v"; mb / 4].join(", "));
    assert!(parse_big(in_list, ExprKind::Filter).is_ok());
}

#[test]
fn megabyte_requests_check_in_reasonable_time() {
    let n = 100_000;
    // 100k distinct projection paths, then one duplicate at the very end.
    let mut paths: Vec<String> = (0..n).map(|i| format!("a{i}.b")).collect();
    paths.push("a7".to_string());
    let src = paths.join(", ");
    let err = small_stack(move || {
        let ast = parse_with(&src, ExprKind::Projection, &UNLIMITED_SIZE).unwrap();
        check_placeholders(&[(ExprKind::Projection, &ast)], None, None).unwrap_err()
    });
    assert_eq!(err.code, ErrorCode::PathOverlap);
    assert!(
        err.message.ends_with("path one: [a7, b], path two: [a7]"),
        "{}",
        err.message
    );

    let actions: Vec<String> = (0..n).map(|i| format!("a{i} = :v")).collect();
    let src = format!("SET {}", actions.join(", "));
    small_stack(move || {
        let ast = parse_with(&src, ExprKind::Update, &UNLIMITED_SIZE).unwrap();
        check_placeholders(&[(ExprKind::Update, &ast)], None, Some(&[":v"])).unwrap();
    });
}
