//! What the code gives each field of its structs: the struct literals it builds
//! (`TwitchRegistration { gsi1pk: Some("TWITCH_LOOKUP".to_string()), .. }`) and the
//! assignments it makes (`reg.gsi1pk = ..`), so that a serialised struct's attribute
//! has the value every construction gives it. Read from tokens like the call graph:
//! the literals sit in handlers and commands the pre-filter rules out. Only a few
//! value shapes are known (a string literal, a constant, an enum variant, `None`);
//! anything else is [`FieldValue::Unknown`], and one unknown value leaves the field
//! unknown.

use crate::scanner::syntax::lex::{Tok, Token};
use crate::scanner::syntax::names::{intern, Name};

/// A value a struct literal or an assignment gives a field.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FieldValue {
    /// `None`: an `Option` field left empty.
    Absent,
    /// A string literal (`"TWITCH_LOOKUP".to_string()`, `Some("x".into())`).
    Str(String),
    /// A constant by name (`OUTBOX_STATUS_PENDING.to_string()`).
    Const(Name),
    /// An enum's unit variant (`Status::Active`): one of few values.
    Variant,
    /// Anything else.
    Unknown,
}

/// One struct literal outside tests: the type it builds, the fields it lists, and
/// whether it takes the rest from another value (`..Default::default()`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StructLiteral {
    pub ty: Name,
    pub fields: Box<[(Name, FieldValue)]>,
    pub base: bool,
}

/// What one file gives fields. Every file's facts are kept until the link, and most
/// literals and assignments give nothing known (`Self { id, name }`, `x.count = n`),
/// so those keep only a name: a literal that gives no field a known value makes every
/// field of its type unknown, as an unknown assignment does every field of its name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct FieldFacts {
    /// Literals that give at least one field a known value.
    pub literals: Vec<StructLiteral>,
    /// Types built by a literal that gives no field a known value (sorted, once each).
    pub opaque: Vec<Name>,
    /// `x.field = value` with a known value: any struct's field of that name may hold
    /// it.
    pub assigned: Vec<(Name, FieldValue)>,
    /// Fields assigned an unknown value (`x.field = n`, `x.field.replace(..)`,
    /// `.insert(..)`), sorted, once each.
    pub assigned_unknown: Vec<Name>,
    /// Types the file reads from a request or a document (`Json<T>`, `Form<T>`,
    /// `serde_json::from_str::<T>`): their fields hold whatever the input says.
    pub inputs: Vec<Name>,
}

/// The field facts of a file's tokens, leaving out `#[test]` functions and
/// `#[cfg(test)]` modules (sample data, not what production writes).
pub fn field_facts(src: &[u8], toks: &[Token]) -> FieldFacts {
    let mut out = FieldFacts::default();
    // Every file's tokens pass through here, so only what a file needs is made: the
    // impl blocks when a `Self { .. }` literal asks for them, each block's end by a
    // walk to its `}` (no table of every brace's match).
    let tests = test_ranges(src, toks);
    let mut impls = None;
    // Tokens are visited in order: a cursor over the test ranges (in order, none
    // inside another) answers each look in constant time.
    let mut next_test = 0usize;
    let mut in_test = |i: usize| {
        while tests.get(next_test).is_some_and(|&(_, end)| end < i) {
            next_test += 1;
        }
        tests.get(next_test).is_some_and(|&(start, _)| start <= i)
    };
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        if t.kind != Tok::Ident {
            i += 1;
            continue;
        }
        let w = t.text(src);
        // `Json<T>`, `Form<T>`, `Query<T>`: an extractor's type is the request's.
        if matches!(w, b"Json" | b"Form" | b"Query" | b"Path")
            && toks.get(i + 1).is_some_and(|n| n.is_punct(b'<'))
        {
            if let Some(name) = toks.get(i + 2).filter(|n| n.kind == Tok::Ident) {
                push_name(&mut out.inputs, src, name);
            }
        }
        // `from_str::<T>`, `from_slice::<T>`, `from_value::<T>`, `from_item::<T>` is a
        // read, not a write: only the document readers count.
        if matches!(
            w,
            b"from_str" | b"from_slice" | b"from_value" | b"from_reader"
        ) && toks.get(i + 1).is_some_and(|n| n.is_punct(b':'))
            && toks.get(i + 3).is_some_and(|n| n.is_punct(b'<'))
        {
            if let Some(name) = toks.get(i + 4).filter(|n| n.kind == Tok::Ident) {
                push_name(&mut out.inputs, src, name);
            }
        }
        if in_test(i) {
            i += 1;
            continue;
        }
        // `.field = value` (not `==`), `.field.replace(..)`.
        if i > 0 && toks[i - 1].is_punct(b'.') {
            let next = toks.get(i + 1);
            let assign = next.is_some_and(|n| n.is_punct(b'='))
                && !toks
                    .get(i + 2)
                    .is_some_and(|n| n.is_punct(b'=') || n.is_punct(b'>'));
            if assign {
                match value(src, toks, i + 2).0 {
                    FieldValue::Unknown => out.assigned_unknown.push(name_of(src, &t)),
                    v => out.assigned.push((name_of(src, &t), v)),
                }
            } else if next.is_some_and(|n| n.is_punct(b'.'))
                && toks.get(i + 2).is_some_and(|m| {
                    matches!(
                        m.text(src),
                        b"replace"
                            | b"insert"
                            | b"get_or_insert"
                            | b"get_or_insert_with"
                            | b"push_str"
                            | b"as_mut"
                            | b"take"
                    )
                })
            {
                out.assigned_unknown.push(name_of(src, &t));
            }
            i += 1;
            continue;
        }
        if let Some((lit, end)) = literal(src, toks, i, &mut impls) {
            match lit.fields.iter().any(|(_, v)| *v != FieldValue::Unknown) {
                true => out.literals.push(lit),
                false => out.opaque.push(lit.ty),
            }
            i = end;
            continue;
        }
        i += 1;
    }
    for names in [&mut out.opaque, &mut out.assigned_unknown, &mut out.inputs] {
        names.sort_unstable();
        names.dedup();
        names.shrink_to_fit();
    }
    out.literals.shrink_to_fit();
    out.assigned.shrink_to_fit();
    out
}

fn name_of(src: &[u8], t: &Token) -> Name {
    intern(std::str::from_utf8(t.text(src)).unwrap_or(""))
}

fn push_name(list: &mut Vec<Name>, src: &[u8], t: &Token) {
    let n = name_of(src, t);
    if !list.contains(&n) {
        list.push(n);
    }
}

fn uppercase(src: &[u8], t: &Token) -> bool {
    t.kind == Tok::Ident && t.text(src).first().is_some_and(u8::is_ascii_uppercase)
}

/// A struct literal starting at `toks[i]` (`Type {` or `path::Type {`, in an
/// expression: after `=`, `(`, `,`, `return`, `=>`, `{`, `;` or `Ok`/`Some(`): the
/// literal, and the index after its `}`.
fn literal(
    src: &[u8],
    toks: &[Token],
    i: usize,
    impls: &mut Option<Vec<(usize, usize, Name)>>,
) -> Option<(StructLiteral, usize)> {
    let t = toks.get(i)?;
    if !uppercase(src, t) {
        return None;
    }
    // The last segment of a path: `models::TwitchRegistration {`.
    let mut start = i;
    while start >= 3
        && toks[start - 1].is_punct(b':')
        && toks[start - 2].is_punct(b':')
        && toks[start - 3].kind == Tok::Ident
    {
        start -= 3;
    }
    let before = start.checked_sub(1).map(|b| toks[b]);
    let in_expression = match before {
        Some(b) => match b.kind {
            Tok::Punct(c) => {
                matches!(
                    c,
                    b'=' | b'(' | b',' | b'>' | b'{' | b';' | b'[' | b'|' | b':'
                )
            }
            Tok::Ident => matches!(b.text(src), b"return" | b"in"),
            _ => false,
        },
        None => false,
    };
    // `=>` and `==` before it: a match arm's value, or a comparison (a pattern there
    // would be followed by `=>`, caught below).
    if !in_expression || !toks.get(i + 1)?.is_punct(b'{') {
        return None;
    }
    // A `struct`/`impl`/`enum` header ends in `Name {` too: after `>` only when it
    // closes generics of a type (`impl<T> Foo<T> {`), so `>` counts only after `=`.
    if before.is_some_and(|b| b.is_punct(b'>')) && !(start >= 2 && toks[start - 2].is_punct(b'=')) {
        return None;
    }
    // `Self { .. }`: the innermost impl block around it.
    let ty = match t.is_ident(src, "Self") {
        true => impls
            .get_or_insert_with(|| impl_blocks(src, toks))
            .iter()
            .rfind(|(open, close, _)| *open < i && i < *close)?
            .2
            .clone(),
        false => name_of(src, t),
    };
    let mut fields = Vec::new();
    let mut base = false;
    let mut j = i + 2;
    loop {
        let f = toks.get(j)?;
        if f.is_punct(b'}') {
            break;
        }
        if f.is_punct(b'.') && toks.get(j + 1)?.is_punct(b'.') {
            base = true;
            j = skip_value(toks, j + 2);
            continue;
        }
        if f.kind != Tok::Ident {
            return None;
        }
        let name = name_of(src, f);
        let next = toks.get(j + 1)?;
        if next.is_punct(b':') && !toks.get(j + 2)?.is_punct(b':') {
            let (v, end) = value(src, toks, j + 2);
            fields.push((name, v));
            j = end;
        } else if next.is_punct(b',') || next.is_punct(b'}') {
            // Shorthand `Type { id, .. }`: a local's value.
            fields.push((name, FieldValue::Unknown));
            j += 1;
        } else {
            return None;
        }
        if toks.get(j).is_some_and(|c| c.is_punct(b',')) {
            j += 1;
        }
    }
    // A pattern (`Type { a, .. } =>`, `let Type { a } =`): not a literal.
    let after = toks.get(j + 1);
    if after.is_some_and(|a| a.is_punct(b'=') || a.is_punct(b'|')) {
        return None;
    }
    let fields = fields.into_boxed_slice();
    Some((StructLiteral { ty, fields, base }, j + 1))
}

/// The index of the `}` that closes the `{` at `open` (the token count when unclosed).
fn close_of(toks: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.kind {
            Tok::Punct(b'{') => depth += 1,
            Tok::Punct(b'}') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The token ranges of `impl` blocks and the type each is for (`impl Foo {`,
/// `impl<T> Trait for Foo<T> {`), in order of their start.
fn impl_blocks(src: &[u8], toks: &[Token]) -> Vec<(usize, usize, Name)> {
    let mut out = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        if !t.is_ident(src, "impl") {
            continue;
        }
        let Some(open) = (k + 1..toks.len().min(k + 64))
            .find(|&j| toks[j].is_punct(b'{') || toks[j].is_punct(b';'))
            .filter(|&j| toks[j].is_punct(b'{'))
        else {
            continue;
        };
        let header = &toks[k + 1..open];
        let mut angle = 0i32;
        let mut after_for = None;
        let mut first = None;
        for (h, t) in header.iter().enumerate() {
            match t.kind {
                Tok::Punct(b'<') => angle += 1,
                Tok::Punct(b'>') => angle -= 1,
                Tok::Ident if angle == 0 => {
                    if t.is_ident(src, "for") {
                        after_for = Some(h + 1);
                    } else if first.is_none() && uppercase(src, t) {
                        first = Some(h);
                    }
                }
                _ => {}
            }
        }
        let name_at = match after_for {
            Some(h) => header[h..]
                .iter()
                .enumerate()
                .take_while(|(_, t)| !t.is_punct(b'<'))
                .filter(|(_, t)| t.kind == Tok::Ident)
                .map(|(x, _)| h + x)
                .last(),
            None => first,
        };
        if let Some(n) = name_at.and_then(|n| header.get(n)) {
            out.push((open, close_of(toks, open), name_of(src, n)));
        }
    }
    out
}

/// The index of the `,` or closing bracket that ends a value starting at `from`.
fn skip_value(toks: &[Token], from: usize) -> usize {
    let mut depth = 0i32;
    let mut j = from;
    while let Some(t) = toks.get(j) {
        match t.kind {
            Tok::Punct(b'(' | b'[' | b'{') => depth += 1,
            Tok::Punct(b')' | b']' | b'}') => {
                if depth == 0 {
                    return j;
                }
                depth -= 1;
            }
            Tok::Punct(b',' | b';') if depth == 0 => return j,
            _ => {}
        }
        j += 1;
    }
    j
}

/// The value starting at `from` and the index where it ends (see [`skip_value`]).
fn value(src: &[u8], toks: &[Token], from: usize) -> (FieldValue, usize) {
    let end = skip_value(toks, from);
    let v = toks
        .get(from..end)
        .map_or(FieldValue::Unknown, |v| shape(src, v));
    (v, end)
}

/// The value the tokens of one expression certainly are.
fn shape(src: &[u8], v: &[Token]) -> FieldValue {
    // Conversions that keep the value: `.to_string()`, `.into()`, `.to_owned()`.
    let mut v = v;
    while v.len() >= 4
        && v[v.len() - 4].is_punct(b'.')
        && matches!(
            v[v.len() - 3].text(src),
            b"to_string" | b"into" | b"to_owned" | b"clone"
        )
        && v[v.len() - 2].is_punct(b'(')
        && v[v.len() - 1].is_punct(b')')
    {
        v = &v[..v.len() - 4];
    }
    // `Some(x)`, `String::from(x)`.
    let wrapped = |name: &[&str]| -> Option<&[Token]> {
        let n = name.len() * 3 - 2;
        let path_ok = name.iter().enumerate().all(|(k, s)| {
            v.get(k * 3).is_some_and(|t| t.is_ident(src, s))
                && (k + 1 == name.len()
                    || v.get(k * 3 + 1).is_some_and(|t| t.is_punct(b':'))
                        && v.get(k * 3 + 2).is_some_and(|t| t.is_punct(b':')))
        });
        (path_ok
            && v.get(n).is_some_and(|t| t.is_punct(b'('))
            && v.last().is_some_and(|t| t.is_punct(b')')))
        .then(|| &v[n + 1..v.len() - 1])
    };
    if let Some(inner) = wrapped(&["Some"])
        .or_else(|| wrapped(&["String", "from"]))
        .or_else(|| wrapped(&["Box", "new"]))
    {
        if skip_value(inner, 0) == inner.len() {
            return shape(src, inner);
        }
        return FieldValue::Unknown;
    }
    match v {
        [t] if t.is_ident(src, "None") => FieldValue::Absent,
        [t] if t.kind == Tok::Str => {
            let text = t.text(src);
            match text {
                [b'"', body @ .., b'"'] if !body.contains(&b'\\') => {
                    FieldValue::Str(String::from_utf8_lossy(body).into_owned())
                }
                _ => FieldValue::Unknown,
            }
        }
        [t] if t.kind == Tok::Ident && is_screaming(t.text(src)) => {
            FieldValue::Const(name_of(src, t))
        }
        // `Status::Active` (not `Status::Active(..)`, not `Type::CONST`).
        [a, c1, c2, b]
            if uppercase(src, a)
                && c1.is_punct(b':')
                && c2.is_punct(b':')
                && uppercase(src, b)
                && !is_screaming(b.text(src)) =>
        {
            FieldValue::Variant
        }
        _ => FieldValue::Unknown,
    }
}

fn is_screaming(b: &[u8]) -> bool {
    b.len() > 1
        && b.iter().any(u8::is_ascii_uppercase)
        && b.iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
}

/// Token index ranges of items marked `#[test]`, `#[tokio::test]` or `#[cfg(test)]`.
/// The token ranges of `#[test]` items and `#[cfg(test)]` modules, in order; one
/// inside another is part of it (the walk goes on after its end).
fn test_ranges(src: &[u8], toks: &[Token]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < toks.len() {
        if !(toks[i].is_punct(b'#') && toks[i + 1].is_punct(b'[')) {
            i += 1;
            continue;
        }
        let Some(close) = (i + 2..toks.len().min(i + 64)).find(|&k| toks[k].is_punct(b']')) else {
            i += 2;
            continue;
        };
        let attr = &toks[i + 2..close];
        let is_test = attr.last().is_some_and(|t| t.is_ident(src, "test"))
            || (attr.first().is_some_and(|t| t.is_ident(src, "cfg"))
                && attr.iter().any(|t| t.is_ident(src, "test")));
        i = close + 1;
        if is_test {
            // The item's body: from its first `{` (before any `;`) to the matching `}`.
            let open = (close..toks.len())
                .find(|&k| toks[k].is_punct(b'{') || toks[k].is_punct(b';'))
                .filter(|&k| toks[k].is_punct(b'{'));
            if let Some(open) = open {
                let end = close_of(toks, open);
                out.push((close, end));
                i = i.max(end);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::syntax::lex::tokenize;

    #[test]
    fn a_test_fn_inside_a_test_module_is_part_of_its_range() {
        let src = "fn a() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() { let x = 1; }\n}\nfn b() { c() }\n#[test] fn u() {}\nfn d() {}";
        let toks = tokenize(src.as_bytes());
        let ranges = test_ranges(src.as_bytes(), &toks);
        let text =
            |(s, e): (usize, usize)| src[toks[s].start as usize..toks[e].end as usize].to_string();
        let got: Vec<String> = ranges.iter().map(|&r| text(r)).collect();
        assert_eq!(
            got,
            vec![
                "]\nmod tests {\n    #[test]\n    fn t() { let x = 1; }\n}".to_string(),
                "] fn u() {}".to_string(),
            ]
        );
    }

    fn facts(src: &str) -> FieldFacts {
        field_facts(src.as_bytes(), &tokenize(src.as_bytes()))
    }

    #[test]
    fn literals_assignments_and_inputs() {
        let f = facts(
            r#"
            const PENDING: &str = "PENDING";
            pub struct Reg { pub pk: String, pub gsi1pk: Option<String> }
            impl Reg { fn new(id: &str) -> Self { Self { pk: format!("R#{id}"), gsi1pk: None } } }
            async fn register(id: &str) {
                let reg = models::Reg {
                    pk: format!("R#{}", id),
                    gsi1pk: Some("LOOKUP".to_string()),
                    status: PENDING.to_string(),
                    kind: Kind::Twitch,
                    id,
                };
                reg.gsi1pk = Some(other);
                if let Reg { pk, .. } = reg {}
                let x = Reg { ..Default::default() };
            }
            async fn handle(Json(body): Json<Reg>) {}
            #[cfg(test)]
            mod tests { fn t() { let r = Reg { pk: "x".into(), gsi1pk: None }; } }
            "#,
        );
        let lits: Vec<&StructLiteral> = f.literals.iter().filter(|l| &*l.ty == "Reg").collect();
        // `Self { .. }` in `impl Reg` is one; the test module's is sample data; the
        // pattern is no literal.
        assert_eq!(lits.len(), 2, "{:#?}", f.literals);
        assert_eq!(lits[0].fields[1], (intern("gsi1pk"), FieldValue::Absent));
        let values: Vec<(&str, &FieldValue)> =
            lits[1].fields.iter().map(|(n, v)| (&**n, v)).collect();
        assert_eq!(
            values,
            vec![
                ("pk", &FieldValue::Unknown),
                ("gsi1pk", &FieldValue::Str("LOOKUP".into())),
                ("status", &FieldValue::Const(intern("PENDING"))),
                ("kind", &FieldValue::Variant),
                ("id", &FieldValue::Unknown),
            ]
        );
        // `Reg { ..Default::default() }` gives no field a known value: only its type
        // is kept, as is the name of a field assigned an unknown value.
        assert_eq!(f.opaque, vec![intern("Reg")]);
        assert!(f.assigned.is_empty());
        assert_eq!(f.assigned_unknown, vec![intern("gsi1pk")]);
        assert_eq!(f.inputs, vec![intern("Reg")]);
    }
}
