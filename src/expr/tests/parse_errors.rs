//! Rejected expressions and DynamoDB's exact message for each.
//!
//! Every case says where its wording comes from: a conformance case
//! (`test-fixtures/conformance`, recorded from DynamoDB-compatible servers and graded
//! against real DynamoDB), DynamoDB's documentation, real DynamoDB messages quoted in
//! public code, or dynalite (whose tests ran against real DynamoDB).

use crate::expr::{parse, ErrorCode, ExprKind};

use ExprKind::{Condition as Cond, Filter, KeyCondition as Key, Projection as Proj, Update};

#[track_caller]
fn check(kind: ExprKind, input: &str, code: ErrorCode, message: &str) {
    match parse(input, kind) {
        Ok(ast) => panic!("{kind} {input:?} parsed: {ast}"),
        Err(e) => {
            assert_eq!(e.message, message, "{kind} {input:?}");
            assert_eq!(e.code, code, "{kind} {input:?}");
            assert_eq!(e.expr, Some(kind));
            assert!(e.span.end <= input.len().max(e.span.end), "{e:?}");
            assert!(input.is_char_boundary(e.span.start.min(input.len())));
        }
    }
}

#[test]
fn empty_and_size() {
    // Conformance keycond_str/err_empty_expression.
    check(
        Key,
        "",
        ErrorCode::Empty,
        "Invalid KeyConditionExpression: The expression can not be empty;",
    );
    check(
        Update,
        "",
        ErrorCode::Empty,
        "Invalid UpdateExpression: The expression can not be empty;",
    );
    // Real DynamoDB message quoted in a public code comment ("Invalid FilterExpression:
    // Expression size has exceeded the maximum allowed size; expression size: 5872").
    // The span starts at a char boundary even when byte 4096 is inside a character.
    let e = parse(&"é".repeat(3000), Filter).unwrap_err();
    assert_eq!(
        (e.code, e.span.start, e.span.end),
        (ErrorCode::TooLarge, 4096, 6000)
    );
    let e = parse(&format!("a{}", "é".repeat(3000)), Filter).unwrap_err();
    assert_eq!((e.span.start, e.span.end), (4095, 6001));
    let long = format!("a = :v{}", " ".repeat(4100));
    check(
        Filter,
        &long,
        ErrorCode::TooLarge,
        &format!(
            "Invalid FilterExpression: Expression size has exceeded the maximum allowed size; \
             expression size: {}",
            long.len()
        ),
    );
}

#[test]
fn syntax_errors() {
    use ErrorCode::Syntax;
    // (kind, input, message, source)
    let cases: &[(ExprKind, &str, &str)] = &[
        // Conformance: the brief's example, from a real ProjectionExpression `a,`.
        (
            Proj,
            "a,",
            r#"Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ",""#,
        ),
        // Real DynamoDB (moto's test suite records it for `foo`).
        (
            Cond,
            "foo",
            r#"Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "foo""#,
        ),
        // Real DynamoDB, quoted in scylladb's alternator tests: names cannot start with `_`.
        (
            Update,
            "SET _123 = :val1",
            r#"Invalid UpdateExpression: Syntax error; token: "_", near: "SET _123""#,
        ),
        // Real DynamoDB for `SET` alone (several emulators' tests).
        (
            Update,
            "SET",
            r#"Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "SET""#,
        ),
        // Real DynamoDB for a list index that is not a number.
        (
            Proj,
            "l[a]",
            r#"Invalid ProjectionExpression: Syntax error; token: "a", near: "[a]""#,
        ),
        // Real DynamoDB for a function called without arguments.
        (
            Cond,
            "attribute_type()",
            r#"Invalid ConditionExpression: Syntax error; token: ")", near: "()""#,
        ),
        // Real DynamoDB for a number where an operand belongs.
        (
            Update,
            "SET a = list_append(b, 0)",
            r#"Invalid UpdateExpression: Syntax error; token: "0", near: ", 0)""#,
        ),
        // Conformance keycond_str/err_syntax_double_eq (prefix checked there; the
        // token/near part follows the same convention).
        (
            Key,
            "pk == :p",
            r#"Invalid KeyConditionExpression: Syntax error; token: "=", near: "== :p""#,
        ),
        // Conformance filter/err_hyphen_name.
        (
            Filter,
            "hy-phen = :v",
            r#"Invalid FilterExpression: Syntax error; token: "-", near: "hy-phen""#,
        ),
        // From here on: no recorded DynamoDB text for these exact inputs; they pin the
        // token/near convention the real messages above establish (see
        // `syntax_error_at`), applied to other shapes.
        (
            Filter,
            "a = :v AND",
            r#"Invalid FilterExpression: Syntax error; token: "<EOF>", near: "AND""#,
        ),
        (
            Filter,
            "a = :v b = :w",
            r#"Invalid FilterExpression: Syntax error; token: "b", near: ":v b =""#,
        ),
        (
            Filter,
            "a AND b = :v",
            r#"Invalid FilterExpression: Syntax error; token: "AND", near: "a AND b""#,
        ),
        (
            Filter,
            "a IN ()",
            r#"Invalid FilterExpression: Syntax error; token: ")", near: "()""#,
        ),
        (
            Filter,
            "(a = :v",
            r#"Invalid FilterExpression: Syntax error; token: "<EOF>", near: ":v""#,
        ),
        (
            Filter,
            "a = :v)",
            r#"Invalid FilterExpression: Syntax error; token: ")", near: ":v)""#,
        ),
        (
            Filter,
            "a BETWEEN :x OR :y",
            r#"Invalid FilterExpression: Syntax error; token: "OR", near: ":x OR :y""#,
        ),
        (
            Filter,
            "a.= :v",
            r#"Invalid FilterExpression: Syntax error; token: "=", near: ".= :v""#,
        ),
        (
            Filter,
            "a[-1] = :v",
            r#"Invalid FilterExpression: Syntax error; token: "-", near: "[-1""#,
        ),
        (
            Filter,
            "a[99999999999] = :v",
            r#"Invalid FilterExpression: Syntax error; token: "99999999999", near: "[99999999999]""#,
        ),
        (
            Filter,
            "and = :v",
            r#"Invalid FilterExpression: Syntax error; token: "and", near: "and =""#,
        ),
        (
            Filter,
            "a = :v AND NOT",
            r#"Invalid FilterExpression: Syntax error; token: "<EOF>", near: "NOT""#,
        ),
        (
            Filter,
            "# = :v",
            r##"Invalid FilterExpression: Syntax error; token: "#", near: "# =""##,
        ),
        (
            Filter,
            "a = :",
            r#"Invalid FilterExpression: Syntax error; token: ":", near: "= :""#,
        ),
        (
            Filter,
            "a = 'x'",
            r#"Invalid FilterExpression: Syntax error; token: "'", near: "= 'x""#,
        ),
        (
            Filter,
            "é = :v",
            r#"Invalid FilterExpression: Syntax error; token: "é", near: "é =""#,
        ),
        (
            Filter,
            "  ",
            r#"Invalid FilterExpression: Syntax error; token: "<EOF>", near: """#,
        ),
        (
            Filter,
            "x = (a = :v)",
            r#"Invalid FilterExpression: Syntax error; token: "=", near: "a = :v""#,
        ),
        (
            Proj,
            "a b",
            r#"Invalid ProjectionExpression: Syntax error; token: "b", near: "a b""#,
        ),
        (
            Proj,
            "a.",
            r#"Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: ".""#,
        ),
        (
            Proj,
            "a[1",
            r#"Invalid ProjectionExpression: Syntax error; token: "<EOF>", near: "1""#,
        ),
        (
            Update,
            "a = :v",
            r#"Invalid UpdateExpression: Syntax error; token: "a", near: "a =""#,
        ),
        (
            Update,
            "SET a :v",
            r#"Invalid UpdateExpression: Syntax error; token: ":v", near: "a :v""#,
        ),
        (
            Update,
            "SET a = :v REMOVE",
            r#"Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "REMOVE""#,
        ),
        (
            Update,
            "SET a = :v,",
            r#"Invalid UpdateExpression: Syntax error; token: "<EOF>", near: ",""#,
        ),
        (
            Update,
            "SET a = b + c + d",
            r#"Invalid UpdateExpression: Syntax error; token: "+", near: "c + d""#,
        ),
        (
            Update,
            "ADD a b",
            r#"Invalid UpdateExpression: Syntax error; token: "b", near: "a b""#,
        ),
        (
            Update,
            "DELETE a",
            r#"Invalid UpdateExpression: Syntax error; token: "<EOF>", near: "a""#,
        ),
        (
            Update,
            "SET a = :v FOO b = :w",
            r#"Invalid UpdateExpression: Syntax error; token: "FOO", near: ":v FOO b""#,
        ),
        (
            Update,
            "REMOVE set",
            r#"Invalid UpdateExpression: Syntax error; token: "set", near: "REMOVE set""#,
        ),
    ];
    for (kind, input, message) in cases {
        check(*kind, input, Syntax, message);
    }
}

#[test]
fn syntax_error_spans_cover_the_offending_token() {
    let e = parse("a = :v b = :w", Filter).unwrap_err();
    assert_eq!((e.span.start, e.span.end), (7, 8));
    let e = parse("a,", Proj).unwrap_err();
    assert_eq!((e.span.start, e.span.end), (2, 2));
}

#[test]
fn semantic_errors() {
    use ErrorCode::*;
    // (kind, input, code, message)
    let cases: &[(ExprKind, &str, ErrorCode, &str)] = &[
        // Conformance reserved/err_reserved_in_update.
        (Update, "SET #c = :c, count = :n", ReservedKeyword,
         "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: count"),
        // The brief's example (real DynamoDB wording).
        (Key, "status = :s", ReservedKeyword,
         "Invalid KeyConditionExpression: Attribute name is a reserved keyword; reserved keyword: status"),
        // Conformance reserved/err_data_in_filter (phrase `reserved keyword`).
        (Filter, "data = :d", ReservedKeyword,
         "Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: data"),
        // Conformance projection/err_reserved_words and reserved/err_comment_in_projection.
        (Proj, "name, price", ReservedKeyword,
         "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name"),
        (Proj, "title, comment", ReservedKeyword,
         "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: comment"),
        // Case-insensitive list (Developer Guide "Reserved words"); the word as written.
        (Filter, "a.Status = :s", ReservedKeyword,
         "Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: Status"),
        // From here on: dynalite's parsers, whose tests ran against DynamoDB, and DynamoDB
        // Local's error list; function names are case-sensitive (Developer Guide,
        // "Condition expressions": "function names are case-sensitive").
        (Filter, "BEGINS_WITH(a, :p)", InvalidFunction,
         "Invalid FilterExpression: Invalid function name; function: BEGINS_WITH"),
        (Cond, "foo(a)", InvalidFunction,
         "Invalid ConditionExpression: Invalid function name; function: foo"),
        (Update, "SET a = size(b)", InvalidFunction,
         "Invalid UpdateExpression: Invalid function name; function: size"),
        (Filter, "if_not_exists(a, :v) = :w", InvalidFunction,
         "Invalid FilterExpression: Invalid function name; function: if_not_exists"),
        (Filter, "begins_with(a)", OperandCount,
         "Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1"),
        (Filter, "attribute_exists(a, b)", OperandCount,
         "Invalid FilterExpression: Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2"),
        (Update, "SET a = list_append(:x)", OperandCount,
         "Invalid UpdateExpression: Incorrect number of operands for operator or function; operator or function: list_append, number of operands: 1"),
        (Filter, "attribute_exists(:v)", RequiresPath,
         "Invalid FilterExpression: Operator or function requires a document path; operator or function: attribute_exists"),
        (Update, "SET a = if_not_exists(:v, b)", RequiresPath,
         "Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists"),
        (Filter, "attribute_exists(a) = :v", FunctionMisuse,
         "Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: attribute_exists"),
        (Filter, "size(a)", FunctionMisuse,
         "Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: size"),
        (Filter, "a = :v AND size(b)", FunctionMisuse,
         "Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: size"),
        (Filter, "size(contains(a, :v)) > :n", FunctionMisuse,
         "Invalid FilterExpression: The function is not allowed to be used this way in an expression; function: contains"),
        (Filter, "a = a", DistinctOperands,
         "Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [a]"),
        (Filter, "begins_with(a.b[1], a.b[1])", DistinctOperands,
         "Invalid FilterExpression: The first operand must be distinct from the remaining operands for this operator or function; operator: begins_with, first operand: [a, b, [1]]"),
        (Filter, "((a = :v))", RedundantParentheses,
         "Invalid FilterExpression: The expression has redundant parentheses;"),
        (Filter, "((a)) = :v", RedundantParentheses,
         "Invalid FilterExpression: The expression has redundant parentheses;"),
        (Filter, "a = ((:v))", RedundantParentheses,
         "Invalid FilterExpression: The expression has redundant parentheses;"),
        (Update, "SET a = :v SET b = :w", SectionRepeated,
         "Invalid UpdateExpression: The \"SET\" section can only be used once in an update expression;"),
        (Update, "REMOVE a ADD b :v REMOVE c", SectionRepeated,
         "Invalid UpdateExpression: The \"REMOVE\" section can only be used once in an update expression;"),
    ];
    for (kind, input, code, message) in cases {
        check(*kind, input, *code, message);
    }
}

#[test]
fn error_priority_follows_dynamodb() {
    use ErrorCode::*;
    // A syntax error anywhere beats every semantic error.
    check(
        Filter,
        "status = :s AND",
        Syntax,
        r#"Invalid FilterExpression: Syntax error; token: "<EOF>", near: "AND""#,
    );
    // Condition order: parentheses, unknown function, misused function, reserved word.
    check(
        Filter,
        "status = :s AND foo(a)",
        InvalidFunction,
        "Invalid FilterExpression: Invalid function name; function: foo",
    );
    check(
        Filter,
        "status = :s AND ((a = :v))",
        RedundantParentheses,
        "Invalid FilterExpression: The expression has redundant parentheses;",
    );
    check(
        Filter,
        "begins_with(a) AND status = :s",
        ReservedKeyword,
        "Invalid FilterExpression: Attribute name is a reserved keyword; reserved keyword: status",
    );
    // Update order: reserved word before unknown function before repeated section.
    check(
        Update,
        "SET a = foo(b) SET status = :v",
        ReservedKeyword,
        "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: status",
    );
    check(
        Update,
        "SET a = foo(b) SET c = :v",
        InvalidFunction,
        "Invalid UpdateExpression: Invalid function name; function: foo",
    );
    // Among equals, the leftmost.
    check(Proj, "name, status", ReservedKeyword,
        "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name");
}
