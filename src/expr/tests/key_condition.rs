//! KeyConditionExpression rules against a key schema.

use crate::attr::AttributeType;
use crate::expr::{
    check_key_condition, parse_key_condition, Comparator, ErrorCode, KeyAttribute, KeyCondition,
    KeySchema, Names, SortOp,
};

fn schema(pk: &str, sk: Option<(&str, AttributeType)>) -> KeySchema {
    KeySchema {
        partition_key: KeyAttribute {
            name: pk.to_string(),
            ty: Some(AttributeType::S),
        },
        sort_key: sk.map(|(name, ty)| KeyAttribute {
            name: name.to_string(),
            ty: Some(ty),
        }),
    }
}

fn run(src: &str, schema: &KeySchema) -> Result<KeyCondition, crate::expr::ExprError> {
    let names = Names::from_pairs([("#k", "pk"), ("#s", "sk"), ("#x", "x")]);
    let cond = parse_key_condition(src).unwrap_or_else(|e| panic!("{src:?}: {e}"));
    check_key_condition(&cond, schema, &names)
}

/// The sort condition in a compact form: `sk > :v`.
fn sort_text(k: &KeyCondition) -> String {
    match &k.sort {
        None => "-".to_string(),
        Some(s) => match &s.op {
            SortOp::Compare(op, v) => format!("{} {op} {}", s.name, v.name),
            SortOp::Between(lo, hi) => format!("{} BETWEEN {} AND {}", s.name, lo.name, hi.name),
            SortOp::BeginsWith(v) => format!("begins_with({}, {})", s.name, v.name),
        },
    }
}

#[test]
fn accepted_shapes() {
    let composite = schema("pk", Some(("sk", AttributeType::S)));
    // (input, partition value, sort condition)
    let cases = [
        ("pk = :p", ":p", "-"),
        (":p = pk", ":p", "-"),
        ("#k = :p", ":p", "-"),
        ("pk = :p AND sk = :s", ":p", "sk = :s"),
        ("sk < :s AND pk = :p", ":p", "sk < :s"),
        ("pk = :p AND :s < sk", ":p", "sk > :s"),
        ("pk = :p AND :s >= #s", ":p", "sk <= :s"),
        (
            "pk = :p AND sk BETWEEN :a AND :b",
            ":p",
            "sk BETWEEN :a AND :b",
        ),
        (
            "pk = :p AND begins_with(sk, :pre)",
            ":p",
            "begins_with(sk, :pre)",
        ),
        ("(pk = :p) AND (sk >= :s)", ":p", "sk >= :s"),
    ];
    for (src, pk_value, sort) in cases {
        let k = run(src, &composite).unwrap_or_else(|e| panic!("{src:?}: {e}"));
        assert_eq!(k.partition.name, "pk", "{src:?}");
        assert_eq!(k.partition.value.name, pk_value, "{src:?}");
        assert_eq!(sort_text(&k), sort, "{src:?}");
    }
    let k = run("pk = :p AND sk > :s", &composite).unwrap();
    assert_eq!(
        k.sort.map(|s| s.op),
        Some(SortOp::Compare(
            Comparator::Gt,
            crate::expr::ValueRef {
                name: ":s".into(),
                span: crate::source::Span::new(17, 19)
            }
        ))
    );
}

#[test]
fn rejected_shapes() {
    let composite = schema("pk", Some(("sk", AttributeType::S)));
    let hash_only = schema("pk", None);
    let numeric = schema("pk", Some(("sk", AttributeType::N)));
    use ErrorCode::*;
    // (schema, input, code, message, source of the wording)
    let cases: &[(&KeySchema, &str, ErrorCode, &str)] = &[
        // Conformance keycond_str/err_missing_hash, err_nonkey_only.
        (&composite, "sk = :s", KeyCondition, "Query condition missed key schema element: pk"),
        (&composite, "x = :x", KeyCondition, "Query condition missed key schema element: pk"),
        // Conformance keycond_str/err_nonkey_with_hash; index/err_gsi_range_not_index_key.
        (&composite, "pk = :p AND x = :x", KeyCondition, "Query condition missed key schema element: sk"),
        // Conformance keycond_str/err_hash_lt, err_hash_between, err_hash_begins_with.
        (&composite, "pk < :p", KeyCondition, "Query key condition not supported"),
        (&composite, "pk BETWEEN :a AND :b", KeyCondition, "Query key condition not supported"),
        (&composite, "begins_with(pk, :p)", KeyCondition, "Query key condition not supported"),
        // Conformance hash_only/err_query_nonkey, err_query_range_on_hash_only, err_query_hash_gt.
        (&hash_only, "pk = :p AND age > :a", KeyCondition, "Query key condition not supported"),
        (&hash_only, "pk = :p AND sk = :s", KeyCondition, "Query key condition not supported"),
        (&hash_only, "pk > :p", KeyCondition, "Query key condition not supported"),
        // Conformance keycond_str/err_two_conditions_on_sk.
        (&composite, "pk = :p AND sk > :a AND sk < :b", KeyCondition,
         "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key"),
        (&composite, "#k = :p AND pk = :q", KeyCondition,
         "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key"),
        // Conformance keycond_str/err_attr_vs_attr.
        (&composite, "pk = sk", KeyCondition,
         "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"),
        // Conformance keycond_str/err_nested_path_on_key (phrase); the prefix as real
        // DynamoDB sends it per dynoxide's changelog (confirmed in eu-west-2).
        (&composite, "pk.x = :p", KeyCondition,
         "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes"),
        (&composite, "pk = :p AND sk[0] = :s", KeyCondition,
         "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes"),
        // DynamoDB Local's error list / dynalite (tested against DynamoDB).
        (&composite, "pk = :p OR sk = :s", KeyCondition, "Invalid operator used in KeyConditionExpression: OR"),
        (&composite, "NOT pk = :p", KeyCondition, "Invalid operator used in KeyConditionExpression: NOT"),
        (&composite, "pk IN (:a, :b)", KeyCondition, "Invalid operator used in KeyConditionExpression: IN"),
        (&composite, "pk <> :p", KeyCondition, "Invalid operator used in KeyConditionExpression: <>"),
        (&composite, "pk = :p AND attribute_exists(sk)", KeyCondition,
         "Invalid operator used in KeyConditionExpression: attribute_exists"),
        (&composite, "pk = :p AND contains(sk, :s)", KeyCondition,
         "Invalid operator used in KeyConditionExpression: contains"),
        (&composite, "pk = :p AND size(sk) > :n", KeyCondition,
         "Invalid KeyConditionExpression: KeyConditionExpressions cannot contain nested operations"),
        (&composite, "pk = :p AND :a BETWEEN sk AND :b", KeyCondition,
         "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand"),
        (&composite, "pk = :p AND begins_with(:s, sk)", KeyCondition,
         "Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand"),
        (&composite, ":a = :b", KeyCondition,
         "Invalid condition in KeyConditionExpression: No key attribute specified"),
        // Conformance keycond_num/err_begins_with_on_N.
        (&numeric, "pk = :p AND begins_with(sk, :v)", OperandType,
         "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"),
        // Conformance projection/err_undefined_name (wording per parameter).
        (&composite, "#nope = :p", UndefinedName,
         "Invalid KeyConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #nope"),
    ];
    for (schema, src, code, message) in cases {
        match run(src, schema) {
            Ok(k) => panic!("{src:?} accepted: {k:?}"),
            Err(e) => {
                assert_eq!(e.message, *message, "{src:?}");
                assert_eq!(e.code, *code, "{src:?}");
                assert!(e.span.end <= src.len(), "{src:?}");
            }
        }
    }
}

#[test]
fn unknown_placeholder_value_is_reported_as_unresolved() {
    let mut names = Names::new();
    names.insert("#k", None);
    let cond = parse_key_condition("#k = :p").unwrap();
    let e = check_key_condition(&cond, &schema("pk", None), &names).unwrap_err();
    assert_eq!(e.code, ErrorCode::UnresolvedName);
    assert!(!e.code.is_dynamodb_wording());
    assert_eq!(e.span, crate::source::Span::new(0, 2));
}
