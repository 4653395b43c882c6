//! Request-level checks of ExpressionAttributeNames/Values across expressions.

use crate::expr::{
    check_placeholders, check_request, parse, resolve_names, Ast, AttrElement, ErrorCode, ExprKind,
    Limits, Names, Unresolved,
};

use ExprKind::{Condition as Cond, Filter, KeyCondition as Key, Projection as Proj, Update};

fn names(pairs: &[(&str, &str)]) -> Names {
    Names::from_pairs(pairs.iter().copied())
}

#[test]
fn request_checks() {
    // (expressions, names, values, expected error message or "" for accepted)
    type Case<'a> = (
        &'a [(ExprKind, &'a str)],
        Option<&'a [(&'a str, &'a str)]>,
        Option<&'a [&'a str]>,
        &'a str,
    );
    let cases: &[Case] = &[
        (&[(Key, "pk = :p")], None, Some(&[":p"]), ""),
        // The union of a request's expressions counts: `:v` is used by the filter only.
        (&[(Key, "pk = :p"), (Filter, "#n > :v")], Some(&[("#n", "n")]), Some(&[":p", ":v"]), ""),
        (&[(Update, "SET #a = :v"), (Cond, "attribute_exists(#a)")], Some(&[("#a", "a")]), Some(&[":v"]), ""),
        // Conformance expr_attrs/err_unused_name.
        (&[(Key, "pk = :p")], Some(&[("#x", "x")]), Some(&[":p"]),
         "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}"),
        // Conformance expr_attrs/err_unused_value; several keys, in the order given.
        (&[(Key, "pk = :p")], None, Some(&[":p", ":u"]),
         "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}"),
        (&[(Key, "pk = :p")], None, Some(&[":w", ":p", ":u"]),
         "Value provided in ExpressionAttributeValues unused in expressions: keys: {:w, :u}"),
        // Unused names are reported before unused values (dynalite's order).
        (&[(Key, "pk = :p")], Some(&[("#x", "x")]), Some(&[":p", ":u"]),
         "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}"),
        // Conformance expr_attrs/err_missing_value_kce.
        (&[(Key, "pk = :missing")], None, Some(&[":p"]),
         "Invalid KeyConditionExpression: An expression attribute value used in expression is not defined; attribute value: :missing"),
        // Conformance filter/err_missing_value (the brief's example).
        (&[(Key, "cat = :cat"), (Filter, "price = :v")], None, Some(&[":cat"]),
         "Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :v"),
        // Conformance projection/err_undefined_name.
        (&[(Proj, "#n")], None, None,
         "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #n"),
        // Undefined before unused; the first expression in DynamoDB's order wins
        // (UpdateExpression, ConditionExpression, KeyCondition, Filter, Projection).
        (&[(Filter, "a = :f"), (Key, "pk = :k")], None, Some(&[":x"]),
         "Invalid KeyConditionExpression: An expression attribute value used in expression is not defined; attribute value: :k"),
        (&[(Cond, "a = :c"), (Update, "SET b = :u")], None, Some(&[":x"]),
         "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :u"),
        // In an update, names before values; in a condition, whichever comes first.
        (&[(Update, "SET a = :v, #b = :w")], None, None,
         "Invalid UpdateExpression: An expression attribute name used in the document path is not defined; attribute name: #b"),
        (&[(Filter, "a = :v AND #b = :w")], None, None,
         "Invalid FilterExpression: An expression attribute value used in expression is not defined; attribute value: :v"),
        // Conformance projection/err_duplicate_path.
        (&[(Proj, "price, price")], None, None,
         "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [price], path two: [price]"),
        // Overlap through a placeholder, reported with the real names.
        (&[(Proj, "a.b, #a")], Some(&[("#a", "a")]), None,
         "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a]"),
        (&[(Update, "SET a.b = :v REMOVE a.b")], None, Some(&[":v"]),
         "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a, b]"),
        (&[(Update, "SET a[0] = :v REMOVE a.b")], None, Some(&[":v"]),
         "Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, [0]], path two: [a, b]"),
        (&[(Proj, "a.b, a.c, b[1], b[2], c")], None, None, ""),
        (&[(Proj, "a.b, a[1]")], None, None,
         "Invalid ProjectionExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a, [1]]"),
        // Conformance expr_attrs/err_value_key_without_colon, err_empty_values_map,
        // err_name_key_without_hash (candidate wording).
        (&[(Key, "pk = :p")], None, Some(&[":p", "q"]),
         "ExpressionAttributeValues contains invalid key: Syntax error; key: \"q\""),
        (&[(Key, "pk = :p")], None, Some(&[]), "ExpressionAttributeValues must not be empty"),
        (&[(Key, "#k = :p")], Some(&[("#k", "pk"), ("k", "x")]), Some(&[":p"]),
         "ExpressionAttributeNames contains invalid key: Syntax error; key: \"k\""),
        (&[(Key, "pk = :p")], Some(&[]), Some(&[":p"]), "ExpressionAttributeNames must not be empty"),
        // Conformance expr_attrs/err_scan_names_without_expression and
        // err_scan_values_without_expression (phrases).
        (&[], Some(&[("#x", "x")]), None,
         "ExpressionAttributeNames can only be specified when using expressions"),
        (&[(Proj, "a")], None, Some(&[":x"]),
         "ExpressionAttributeValues can only be specified when using expressions"),
    ];
    for (exprs, name_pairs, values, expected) in cases {
        let names = name_pairs.map(names);
        let got = check_request(exprs, names.as_ref(), *values, &Limits::DYNAMODB);
        match (got, *expected) {
            (Ok(_), "") => {}
            (Ok(_), msg) => panic!("{exprs:?} accepted, expected {msg}"),
            (Err(e), "") => panic!("{exprs:?} rejected: {e}"),
            (Err(e), msg) => assert_eq!(e.message, msg, "{exprs:?}"),
        }
        // The same verdict from already-parsed trees.
        if let Ok(asts) = exprs
            .iter()
            .map(|(k, s)| parse(s, *k).map(|a| (*k, a)))
            .collect::<Result<Vec<_>, _>>()
        {
            let refs: Vec<(ExprKind, &Ast)> = asts.iter().map(|(k, a)| (*k, a)).collect();
            let again = check_placeholders(&refs, names.as_ref(), *values);
            assert_eq!(
                again.err().map(|e| e.message).unwrap_or_default(),
                *expected,
                "{exprs:?}"
            );
        }
    }
}

#[test]
fn request_errors_carry_location() {
    let e = check_request(
        &[(Filter, "a = :v AND b = :w")],
        None,
        Some(&[":v"]),
        &Limits::DYNAMODB,
    )
    .unwrap_err();
    assert_eq!((e.code, e.expr), (ErrorCode::UndefinedValue, Some(Filter)));
    assert_eq!((e.span.start, e.span.end), (15, 17));
    let e = check_request(
        &[(Filter, "a = :v")],
        None,
        Some(&[":v", ":u"]),
        &Limits::DYNAMODB,
    )
    .unwrap_err();
    assert_eq!((e.code, e.expr), (ErrorCode::UnusedValues, None));
    // A parse error is returned as such.
    let e = check_request(&[(Filter, "a = ")], None, None, &Limits::DYNAMODB).unwrap_err();
    assert_eq!(e.code, ErrorCode::Syntax);
}

#[test]
fn resolving_names() {
    let mut n = names(&[("#a", "status"), ("#b", "x.y")]);
    n.insert("#u", None);
    let ast = parse("#a.#b[2] = :v AND #u = :w AND #zz = :q", Filter).unwrap();
    assert_eq!(
        resolve_names(&ast, &n).to_string(),
        "status.x.y[2] = :v AND #u = :w AND #zz = :q"
    );
    let Ast::Condition(crate::expr::Condition::And { left, .. }) = &ast else {
        panic!()
    };
    let crate::expr::Condition::And { left, right, .. } = left.as_ref() else {
        panic!()
    };
    let crate::expr::Condition::Compare { left: lhs, .. } = left.as_ref() else {
        panic!()
    };
    let path = lhs.as_path().unwrap().resolve(&n).unwrap();
    assert_eq!(
        path.0,
        vec![
            AttrElement::Attr("status".into()),
            AttrElement::Attr("x.y".into()),
            AttrElement::Index(2)
        ]
    );
    assert_eq!(path.top(), Some("status"));
    assert_eq!(path.to_string(), "status.x.y[2]");
    let crate::expr::Condition::Compare { left: lhs, .. } = right.as_ref() else {
        panic!()
    };
    assert_eq!(
        lhs.as_path().unwrap().resolve(&n),
        Err(Unresolved::Unknown("#u".into()))
    );
    let u = parse("SET #zz = :v", Update).unwrap();
    assert_eq!(u.name_placeholders()[0].0, "#zz");
    assert_eq!(u.value_placeholders()[0].name, ":v");
}
