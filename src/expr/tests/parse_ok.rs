//! Well-formed expressions: each grammar production, checked by the tree's shape and
//! by its printed form.

use crate::expr::ast::*;
use crate::expr::{parse, parse_condition, parse_projection, parse_update, ExprKind};

/// A condition as an s-expression, so tests can see precedence and grouping.
fn shape(c: &Condition) -> String {
    match c {
        Condition::Compare {
            left, op, right, ..
        } => format!("({op} {left} {right})"),
        Condition::Between {
            operand, low, high, ..
        } => format!("(BETWEEN {operand} {low} {high})"),
        Condition::In { operand, list, .. } => {
            let items: Vec<String> = list.iter().map(|o| o.to_string()).collect();
            format!("(IN {operand} {})", items.join(" "))
        }
        Condition::Function { function, .. } => function.to_string(),
        Condition::And { left, right, .. } => format!("(AND {} {})", shape(left), shape(right)),
        Condition::Or { left, right, .. } => format!("(OR {} {})", shape(left), shape(right)),
        Condition::Not { inner, .. } => format!("(NOT {})", shape(inner)),
    }
}

#[test]
fn condition_productions() {
    // (input, shape)
    let cases = [
        ("a = :v", "(= a :v)"),
        ("a <> :v", "(<> a :v)"),
        ("a < :v", "(< a :v)"),
        ("a <= :v", "(<= a :v)"),
        ("a > :v", "(> a :v)"),
        ("a >= :v", "(>= a :v)"),
        (":v = a", "(= :v a)"),
        ("a=:v", "(= a :v)"),
        ("#n = :v", "(= #n :v)"),
        ("a.b[0].#c = :v", "(= a.b[0].#c :v)"),
        ("a [ 1 ] . b = :v", "(= a[1].b :v)"),
        ("a BETWEEN :lo AND :hi", "(BETWEEN a :lo :hi)"),
        ("a between :lo and :hi", "(BETWEEN a :lo :hi)"),
        ("a IN (:x)", "(IN a :x)"),
        ("a in (:x, :y, b)", "(IN a :x :y b)"),
        ("attribute_exists(a)", "attribute_exists(a)"),
        ("attribute_not_exists(#n.x)", "attribute_not_exists(#n.x)"),
        ("attribute_type(a, :t)", "attribute_type(a, :t)"),
        ("begins_with(a, :p)", "begins_with(a, :p)"),
        ("contains(a, :p)", "contains(a, :p)"),
        ("size(a) > :n", "(> size(a) :n)"),
        (":n < size(a.b)", "(< :n size(a.b))"),
        ("size(a) BETWEEN :x AND :y", "(BETWEEN size(a) :x :y)"),
        // Precedence: NOT > AND > OR; AND and OR are left-associative.
        (
            "a = :a OR b = :b AND c = :c",
            "(OR (= a :a) (AND (= b :b) (= c :c)))",
        ),
        (
            "a = :a AND b = :b OR c = :c",
            "(OR (AND (= a :a) (= b :b)) (= c :c))",
        ),
        (
            "a = :a AND b = :b AND c = :c",
            "(AND (AND (= a :a) (= b :b)) (= c :c))",
        ),
        ("NOT a = :a AND b = :b", "(AND (NOT (= a :a)) (= b :b))"),
        ("NOT NOT a = :a", "(NOT (NOT (= a :a)))"),
        ("NOT (a = :a AND b = :b)", "(NOT (AND (= a :a) (= b :b)))"),
        (
            "(a = :a OR b = :b) AND c = :c",
            "(AND (OR (= a :a) (= b :b)) (= c :c))",
        ),
        (
            "a = :a AND (b = :b AND c = :c)",
            "(AND (= a :a) (AND (= b :b) (= c :c)))",
        ),
        // BETWEEN's AND binds first.
        (
            "a BETWEEN :x AND :y AND b = :b",
            "(AND (BETWEEN a :x :y) (= b :b))",
        ),
        // Parenthesised operands.
        ("(a) = :v", "(= a :v)"),
        ("a = (:v)", "(= a :v)"),
        ("((a) = :v)", "(= a :v)"),
        ("(size(a)) > :n", "(> size(a) :n)"),
        ("contains((a), :v)", "contains(a, :v)"),
        // Function-named attributes are plain paths when not called.
        ("attribute_exists = :v", "(= attribute_exists :v)"),
        ("a.size1 = :v", "(= a.size1 :v)"),
        // Whitespace of every kind.
        ("\ta\n=\r\n:v ", "(= a :v)"),
    ];
    for (input, expected) in cases {
        let cond =
            parse_condition(input, ExprKind::Filter).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(shape(&cond), expected, "{input:?}");
        // The printed form parses back to the same shape.
        let printed = cond.to_string();
        let again = parse_condition(&printed, ExprKind::Filter)
            .unwrap_or_else(|e| panic!("{printed:?}: {e}"));
        assert_eq!(shape(&again), expected, "reprinted {printed:?}");
    }
}

#[test]
fn condition_printing() {
    // (input, canonical print)
    let cases = [
        ("a=:v", "a = :v"),
        (
            "(a = :a OR b = :b) AND c = :c",
            "(a = :a OR b = :b) AND c = :c",
        ),
        (
            "a = :a AND (b = :b AND c = :c)",
            "a = :a AND (b = :b AND c = :c)",
        ),
        (
            "(a = :a AND b = :b) AND c = :c",
            "a = :a AND b = :b AND c = :c",
        ),
        ("NOT (a = :a)", "NOT a = :a"),
        ("not (a = :a or b = :b)", "NOT (a = :a OR b = :b)"),
        ("a in (:x,:y)", "a IN (:x, :y)"),
        ("a between :x and :y", "a BETWEEN :x AND :y"),
    ];
    for (input, expected) in cases {
        let cond = parse_condition(input, ExprKind::Condition).unwrap();
        assert_eq!(cond.to_string(), expected, "{input:?}");
    }
}

#[test]
fn spans_point_into_the_source() {
    let src = "a.b = :v AND begins_with(#n, :p)";
    let cond = parse_condition(src, ExprKind::Filter).unwrap();
    let Condition::And { left, right, span } = &cond else {
        panic!("{cond:?}")
    };
    assert_eq!(&src[span.range()], src);
    assert_eq!(&src[left.span().range()], "a.b = :v");
    assert_eq!(&src[right.span().range()], "begins_with(#n, :p)");
    let Condition::Compare { left, right, .. } = left.as_ref() else {
        panic!()
    };
    assert_eq!(&src[left.span().range()], "a.b");
    assert_eq!(&src[right.span().range()], ":v");
}

#[test]
fn projection_productions() {
    let cases = [
        ("a", vec!["a"]),
        ("a, b", vec!["a", "b"]),
        ("a.b[2].c,#n , x[0][1]", vec!["a.b[2].c", "#n", "x[0][1]"]),
        ("price,Title", vec!["price", "Title"]),
    ];
    for (input, expected) in cases {
        let p = parse_projection(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        let got: Vec<String> = p.paths.iter().map(|p| p.to_string()).collect();
        assert_eq!(got, expected, "{input:?}");
        assert_eq!(
            parse_projection(&p.to_string()).unwrap().to_string(),
            p.to_string()
        );
    }
    let p = parse_projection("a.b[2]").unwrap();
    assert_eq!(
        p.paths[0].elements,
        vec![
            PathElement::Attr("a".into()),
            PathElement::Attr("b".into()),
            PathElement::Index(2)
        ]
    );
}

#[test]
fn update_productions() {
    // (input, canonical print)
    let cases = [
        ("SET a = :v", "SET a = :v"),
        ("set a=:v, #b = c", "SET a = :v, #b = c"),
        ("SET a = b + :n", "SET a = b + :n"),
        ("SET a = b - :n", "SET a = b - :n"),
        ("SET a = (b + :n)", "SET a = b + :n"),
        ("SET a = (b) + (:n)", "SET a = b + :n"),
        (
            "SET a = if_not_exists(a, :zero) + :one",
            "SET a = if_not_exists(a, :zero) + :one",
        ),
        (
            "SET l = list_append(if_not_exists(l, :empty), :items)",
            "SET l = list_append(if_not_exists(l, :empty), :items)",
        ),
        ("SET a.b[1] = :v", "SET a.b[1] = :v"),
        ("REMOVE a, b.c[0]", "REMOVE a, b.c[0]"),
        ("ADD n :one, s :items", "ADD n :one, s :items"),
        ("DELETE s :items", "DELETE s :items"),
        (
            "REMOVE x SET a = :v ADD n :one DELETE s :d",
            "REMOVE x SET a = :v ADD n :one DELETE s :d",
        ),
        (
            "delete s :d add n :one remove x set a = :v",
            "DELETE s :d ADD n :one REMOVE x SET a = :v",
        ),
    ];
    for (input, expected) in cases {
        let u = parse_update(input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        assert_eq!(u.to_string(), expected, "{input:?}");
        assert_eq!(parse_update(expected).unwrap().to_string(), expected);
    }
    let u = parse_update("SET a = :v, b = :w REMOVE c ADD d :x DELETE e :y").unwrap();
    assert_eq!(u.set_actions().count(), 2);
    assert_eq!(u.remove_paths().count(), 1);
    assert_eq!(u.add_actions().count(), 1);
    assert_eq!(u.delete_actions().count(), 1);
    let targets: Vec<String> = u.target_paths().iter().map(|p| p.to_string()).collect();
    assert_eq!(targets, ["a", "b", "c", "d", "e"]);
}

#[test]
fn parse_dispatches_by_kind() {
    assert!(matches!(
        parse("a = :v", ExprKind::KeyCondition),
        Ok(Ast::Condition(_))
    ));
    assert!(matches!(
        parse("a, b", ExprKind::Projection),
        Ok(Ast::Projection(_))
    ));
    assert!(matches!(
        parse("SET a = :v", ExprKind::Update),
        Ok(Ast::Update(_))
    ));
    assert_eq!(
        parse("a = :v", ExprKind::Condition).unwrap().to_string(),
        "a = :v"
    );
}
