//! Property tests: printing a generated tree and parsing it back gives the same tree,
//! and no input makes a parser or a check panic.

use proptest::prelude::*;

use crate::expr::ast::*;
use crate::expr::{
    check_key_condition, check_request, is_reserved, parse, parse_with, ExprKind, KeyAttribute,
    KeySchema, Limits, Names,
};
use crate::source::Span;

/// The tree's Debug text with every span blanked, so trees compare by content.
fn without_spans(debug: &str) -> String {
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(i) = rest.find("Span { start: ") {
        out.push_str(&rest[..i]);
        out.push_str("Span");
        rest = &rest[i..];
        match rest.find(" }") {
            Some(j) => rest = &rest[j + 2..],
            None => break,
        }
    }
    out.push_str(rest);
    out
}

const KEYWORDS: [&str; 9] = [
    "and", "or", "not", "between", "in", "set", "remove", "add", "delete",
];

fn ident() -> impl Strategy<Value = String> {
    "[a-zA-Z][a-zA-Z0-9_]{0,6}".prop_filter("not reserved", |s| {
        !is_reserved(s) && !KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(s))
    })
}

fn placeholder(sigil: char) -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_]{1,5}".prop_map(move |s| format!("{sigil}{s}"))
}

fn name_element() -> impl Strategy<Value = PathElement> {
    prop_oneof![
        ident().prop_map(PathElement::Attr),
        placeholder('#').prop_map(PathElement::Name),
    ]
}

fn path() -> impl Strategy<Value = Path> {
    (
        name_element(),
        prop::collection::vec(
            prop_oneof![name_element(), any::<u32>().prop_map(PathElement::Index)],
            0..3,
        ),
    )
        .prop_map(|(first, rest)| {
            let mut elements = vec![first];
            elements.extend(rest);
            Path {
                elements,
                span: Span::default(),
            }
        })
}

fn value() -> impl Strategy<Value = ValueRef> {
    placeholder(':').prop_map(|name| ValueRef {
        name,
        span: Span::default(),
    })
}

fn operand() -> impl Strategy<Value = Operand> {
    let leaf = prop_oneof![
        path().prop_map(Operand::Path),
        value().prop_map(Operand::Value)
    ];
    leaf.prop_recursive(2, 4, 1, |inner| {
        inner.prop_map(|arg| Operand::Size {
            arg: Box::new(arg),
            span: Span::default(),
        })
    })
}

/// Two operands DynamoDB accepts together: not the same path twice.
fn distinct_pair() -> impl Strategy<Value = (Operand, Operand)> {
    (operand(), operand()).prop_filter("distinct operands", |(a, b)| match (a, b) {
        (Operand::Path(x), Operand::Path(y)) => x.elements != y.elements,
        _ => true,
    })
}

fn function() -> impl Strategy<Value = Function> {
    prop_oneof![
        path().prop_map(Function::AttributeExists),
        path().prop_map(Function::AttributeNotExists),
        distinct_pair().prop_map(|(a, b)| Function::AttributeType(a, b)),
        distinct_pair().prop_map(|(a, b)| Function::BeginsWith(a, b)),
        distinct_pair().prop_map(|(a, b)| Function::Contains(a, b)),
    ]
}

fn leaf_condition() -> impl Strategy<Value = Condition> {
    let span = Span::default();
    prop_oneof![
        (
            distinct_pair(),
            prop::sample::select(Comparator::ALL.to_vec())
        )
            .prop_map(move |((left, right), op)| Condition::Compare {
                left,
                op,
                right,
                span
            }),
        (operand(), operand(), operand()).prop_map(move |(operand, low, high)| {
            Condition::Between {
                operand,
                low,
                high,
                span,
            }
        }),
        (operand(), prop::collection::vec(operand(), 1..4)).prop_map(move |(operand, list)| {
            Condition::In {
                operand,
                list,
                span,
            }
        }),
        function().prop_map(move |function| Condition::Function { function, span }),
    ]
}

fn condition() -> impl Strategy<Value = Condition> {
    let span = Span::default();
    leaf_condition().prop_recursive(4, 24, 2, move |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(move |(l, r)| Condition::And {
                left: Box::new(l),
                right: Box::new(r),
                span
            }),
            (inner.clone(), inner.clone()).prop_map(move |(l, r)| Condition::Or {
                left: Box::new(l),
                right: Box::new(r),
                span
            }),
            inner.prop_map(move |c| Condition::Not {
                inner: Box::new(c),
                span
            }),
        ]
    })
}

fn set_operand() -> impl Strategy<Value = SetOperand> {
    let span = Span::default();
    let leaf = prop_oneof![
        path().prop_map(SetOperand::Path),
        value().prop_map(SetOperand::Value)
    ];
    leaf.prop_recursive(2, 6, 2, move |inner| {
        prop_oneof![
            (path(), inner.clone()).prop_map(move |(path, d)| SetOperand::IfNotExists {
                path,
                default: Box::new(d),
                span
            }),
            (inner.clone(), inner).prop_map(move |(a, b)| SetOperand::ListAppend {
                first: Box::new(a),
                second: Box::new(b),
                span
            }),
        ]
    })
}

fn set_value() -> impl Strategy<Value = SetValue> {
    prop_oneof![
        set_operand().prop_map(SetValue::Operand),
        (set_operand(), set_operand()).prop_map(|(a, b)| SetValue::Plus(a, b)),
        (set_operand(), set_operand()).prop_map(|(a, b)| SetValue::Minus(a, b)),
    ]
}

fn update() -> impl Strategy<Value = UpdateExpr> {
    let span = Span::default();
    let set = prop::collection::vec(
        (path(), set_value()).prop_map(move |(path, value)| SetAction { path, value, span }),
        1..3,
    )
    .prop_map(move |actions| UpdateClause::Set { actions, span });
    let remove = prop::collection::vec(path(), 1..3)
        .prop_map(move |paths| UpdateClause::Remove { paths, span });
    let pv = || {
        prop::collection::vec(
            (path(), value()).prop_map(move |(path, value)| PathValueAction { path, value, span }),
            1..3,
        )
    };
    let add = pv().prop_map(move |actions| UpdateClause::Add { actions, span });
    let delete = pv().prop_map(move |actions| UpdateClause::Delete { actions, span });
    (
        set,
        remove,
        add,
        delete,
        Just(vec![0usize, 1, 2, 3]).prop_shuffle(),
        1..=4usize,
    )
        .prop_map(move |(s, r, a, d, order, n)| {
            let all = [s, r, a, d];
            let clauses = order[..n].iter().map(|&i| all[i].clone()).collect();
            UpdateExpr { clauses, span }
        })
}

fn projection() -> impl Strategy<Value = Projection> {
    prop::collection::vec(path(), 1..5).prop_map(|paths| Projection {
        paths,
        span: Span::default(),
    })
}

/// Expression-like noise: the languages' own tokens in random order.
fn token_soup() -> impl Strategy<Value = String> {
    let tokens = vec![
        "a",
        "b.c",
        "#n",
        ":v",
        "(",
        ")",
        "[",
        "]",
        "0",
        "7",
        ",",
        ".",
        "=",
        "<>",
        "<",
        "<=",
        ">",
        ">=",
        "+",
        "-",
        "AND",
        "OR",
        "NOT",
        "BETWEEN",
        "IN",
        "SET",
        "REMOVE",
        "ADD",
        "DELETE",
        "size",
        "attribute_exists",
        "begins_with",
        "contains",
        "if_not_exists",
        "list_append",
        "status",
        "_",
        "#",
        ":",
        "é",
        " ",
    ];
    prop::collection::vec(prop::sample::select(tokens), 0..40).prop_map(|t| t.join(" "))
}

const ALL_KINDS: [ExprKind; 5] = [
    ExprKind::KeyCondition,
    ExprKind::Condition,
    ExprKind::Filter,
    ExprKind::Projection,
    ExprKind::Update,
];

/// Runs every entry point on `src`; they may fail but must not panic, and errors must
/// point inside the input.
fn exercise(src: &str) {
    for kind in ALL_KINDS {
        match parse_with(
            src,
            kind,
            &Limits {
                max_bytes: None,
                ..Limits::DYNAMODB
            },
        ) {
            Ok(ast) => {
                // Whatever parses prints to something that parses to the same tree.
                let printed = ast.to_string();
                let again = parse(&printed, kind).expect("printed text parses");
                assert_eq!(
                    without_spans(&format!("{again:?}")),
                    without_spans(&format!("{ast:?}"))
                );
                let names = Names::from_pairs([("#n", "n")]);
                let _ = check_request(
                    &[(kind, src)],
                    Some(&names),
                    Some(&[":v"]),
                    &Limits::DYNAMODB,
                );
                if let Ast::Condition(c) = &ast {
                    let schema = KeySchema {
                        partition_key: KeyAttribute {
                            name: "a".into(),
                            ty: None,
                        },
                        sort_key: Some(KeyAttribute {
                            name: "n".into(),
                            ty: None,
                        }),
                    };
                    let _ = check_key_condition(c, &schema, &names);
                }
            }
            Err(e) => {
                assert!(
                    e.span.start <= e.span.end && e.span.end <= src.len(),
                    "{e:?}"
                );
                assert!(src.is_char_boundary(e.span.start) && src.is_char_boundary(e.span.end));
                assert!(e
                    .message
                    .starts_with(&format!("Invalid {}: ", kind.parameter())));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn condition_round_trips(cond in condition()) {
        let printed = cond.to_string();
        let parsed = parse(&printed, ExprKind::Filter)
            .unwrap_or_else(|e| panic!("{printed:?}: {e}"));
        prop_assert_eq!(
            without_spans(&format!("{parsed:?}")),
            without_spans(&format!("{:?}", Ast::Condition(cond)))
        );
    }

    #[test]
    fn update_round_trips(u in update()) {
        let printed = u.to_string();
        let parsed = parse(&printed, ExprKind::Update)
            .unwrap_or_else(|e| panic!("{printed:?}: {e}"));
        prop_assert_eq!(
            without_spans(&format!("{parsed:?}")),
            without_spans(&format!("{:?}", Ast::Update(u)))
        );
    }

    #[test]
    fn projection_round_trips(p in projection()) {
        let printed = p.to_string();
        let parsed = parse(&printed, ExprKind::Projection)
            .unwrap_or_else(|e| panic!("{printed:?}: {e}"));
        prop_assert_eq!(
            without_spans(&format!("{parsed:?}")),
            without_spans(&format!("{:?}", Ast::Projection(p)))
        );
    }

    #[test]
    fn arbitrary_strings_never_panic(src in any::<String>()) {
        exercise(&src);
    }

    #[test]
    fn token_soup_never_panics(src in token_soup()) {
        exercise(&src);
    }
}

#[test]
fn span_eraser_blanks_spans() {
    assert_eq!(
        without_spans("A { span: Span { start: 1, end: 2 }, b: Span { start: 3, end: 4 } }"),
        "A { span: Span, b: Span }"
    );
}
