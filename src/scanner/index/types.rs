//! What the tokens say of types, for following a method call to the type whose method
//! it calls: a call's receiver (`self.storage.get(id)`, `repo.find(id)` with `let repo
//! = UserRepo::new(..)`, `self.adapter.users().find_by_id(id)`), the field types and
//! trait bounds a file declares, and the core of a type (`Arc<dyn Storage + Send>` is
//! `Storage`). Read from tokens like the call graph, so files the pre-filter rules out
//! contribute too. What cannot be told stays unknown, and a call is then followed by
//! name as before.

use std::sync::{Arc, OnceLock};

use crate::scanner::syntax::lex::{Tok, Token};
use crate::scanner::syntax::names::{intern, Name};
use crate::source::Span;

/// A method call's receiver, as far as the tokens tell its type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Receiver {
    /// A type the code names: `Repo::get(..)`, `self` in `impl Repo`, a local bound to
    /// `Repo::new(..)` or declared `repo: &Repo` (a trait for `&dyn Store`).
    Type(Name),
    /// `x.storage.get(..)`: the type of a field named `storage`.
    Field(Name),
    /// `x.users().get(..)`: what a function named `users` returns.
    Returned(Name),
    /// `model::user::get_item(..)`: a free function of the module `user`.
    Module(Name),
}

/// The types one file declares: the type of each struct field (by field name) and
/// the bounds of generic parameters and associated types (`T: Storage`, `type Repo:
/// UserRepository;`, `type Repo = DynamoRepo;`), each by the name it is used under.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypeFacts {
    pub fields: Vec<(Name, Name)>,
    pub bounds: Vec<(Name, Name)>,
    /// The calls that give a function type arguments the tokens show.
    pub sites: Vec<TypeSite>,
    /// The traits the file declares (`pub trait QueryProcessor`): an implementation
    /// in a crate that cannot be named is still what a caller of the trait runs.
    pub traits: Vec<Name>,
    /// The values the file's struct literals and assignments give fields (see
    /// `field_values.rs`): what a serialised struct's attributes hold.
    pub values: crate::scanner::index::field_values::FieldFacts,
    /// Type aliases (`type DefaultStore<T> = DynamoStore<T, P, D>;`, `pub type Db =
    /// Arc<Dynamo>;`), alias first: `DefaultStore::new(..)` calls a function of
    /// `impl DynamoStore`, and `impl<T> DefaultStore<T>` adds to `DynamoStore`.
    pub aliases: Vec<(Name, Name)>,
    /// The columns the file's ORM entities declare unique (see `orm.rs`).
    pub unique: Vec<crate::scanner::ir::UniqueColumn>,
    /// Each struct's fields, as the struct's name and the range of its fields in
    /// `fields`: a value read from `x.field` (`x: Type`) is of the field's type.
    pub structs: Vec<(Name, u32, u32)>,
    /// The enums the file declares whose variants all carry no data (`enum Action {
    /// Signin, Signout }`): a value of one takes one of as many values as it has
    /// variants.
    pub unit_enums: Vec<Name>,
}

impl TypeFacts {
    /// These facts as a file's index keeps them until the link: a file that declares
    /// nothing (half the files of a tree) holds the one empty set, not 300 bytes of
    /// empty lists of its own.
    pub fn shared(self) -> Arc<TypeFacts> {
        static NONE: OnceLock<Arc<TypeFacts>> = OnceLock::new();
        if self == TypeFacts::default() {
            Arc::clone(NONE.get_or_init(Default::default))
        } else {
            Arc::new(self)
        }
    }
}

/// A call that shows the types it gives a generic function: its own by a turbofish
/// (`find::<User>(..)`), or its impl type's arguments by the path
/// (`Repository::<User>::scan_all()`) or the receiver, a local or parameter declared
/// `Repository<User>` or bound to `Repository::<User>::new(..)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeSite {
    pub callee: Name,
    pub fn_types: Box<[Name]>,
    /// The type whose arguments `self_types` are (`Repository`).
    pub self_type: Option<Name>,
    pub self_types: Box<[Name]>,
    /// The called name: which loop, if any, repeats the call.
    pub at: Span,
}

/// Wrappers a type's core sits in: `Arc<dyn Store>` is a `Store`.
fn wrapper(w: &[u8]) -> bool {
    matches!(
        w,
        b"Arc"
            | b"Rc"
            | b"Box"
            | b"Option"
            | b"Result"
            | b"Mutex"
            | b"RwLock"
            | b"RefCell"
            | b"Cell"
            | b"Pin"
            | b"Cow"
            | b"State"
            | b"Extension"
            | b"Data"
            | b"Json"
            | b"dyn"
            | b"impl"
            | b"mut"
            | b"const"
            | b"crate"
            | b"self"
            | b"super"
            | b"Self"
            | b"web"
            | b"std"
            | b"sync"
    )
}

/// The core of the type whose first token is `toks[from]`: the first name that is
/// not a wrapper, at the end of its path (`crate::db::Repo` → `Repo`,
/// `&Self::UserRepo` → `UserRepo`). `None` for a tuple, a slice, a closure type.
pub fn core_type(src: &[u8], toks: &[Token], from: usize) -> Option<Name> {
    let mut j = from;
    let mut best: Option<usize> = None;
    for _ in 0..32 {
        let t = toks.get(j)?;
        match t.kind {
            Tok::Punct(b'&' | b'<' | b'*') | Tok::Lifetime => j += 1,
            Tok::Punct(b':') if toks.get(j + 1).is_some_and(|n| n.is_punct(b':')) => j += 2,
            Tok::Ident => {
                let w = t.text(src);
                let path_goes_on = toks.get(j + 1).is_some_and(|n| n.is_punct(b':'))
                    && toks.get(j + 2).is_some_and(|n| n.is_punct(b':'));
                if path_goes_on || wrapper(w) {
                    j += 1;
                    continue;
                }
                best = Some(j);
                break;
            }
            _ => break,
        }
    }
    let t = toks.get(best?)?;
    std::str::from_utf8(t.text(src)).ok().map(intern)
}

/// The type a function returns: the core of what follows its `->`. `at` is the
/// function's name token.
pub fn returned(src: &[u8], toks: &[Token], at: usize) -> Option<Name> {
    let mut j = at + 1;
    if toks.get(j)?.is_punct(b'<') {
        j = skip_balanced(toks, j, b'<', b'>')?;
    }
    if !toks.get(j)?.is_punct(b'(') {
        return None;
    }
    j = skip_balanced(toks, j, b'(', b')')?;
    if toks.get(j)?.is_punct(b'-') && toks.get(j + 1)?.is_punct(b'>') {
        return core_type(src, toks, j + 2);
    }
    None
}

/// The index just past the bracket that closes the one at `at`.
fn skip_balanced(toks: &[Token], at: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(at).take(4096) {
        if t.is_punct(open) {
            depth += 1;
        } else if t.is_punct(close) {
            // `->` inside a generic list is no closing angle.
            let arrow = close == b'>' && k > 0 && toks[k - 1].is_punct(b'-');
            if !arrow {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(k + 1);
                }
            }
        }
    }
    None
}

/// The receiver of the method call whose name is `toks[i]` (after a `.` or `::`),
/// inside a function whose tokens start at `fn_start`, in `impl_ty` when it is a
/// method.
pub fn receiver_at(
    src: &[u8],
    toks: &[Token],
    i: usize,
    fn_start: usize,
    impl_ty: Option<&str>,
) -> Option<Receiver> {
    let before = i.checked_sub(1).and_then(|p| toks.get(p))?;
    let upper = |t: &Token| t.text(src).first().is_some_and(u8::is_ascii_uppercase);
    let name_of = |t: &Token| std::str::from_utf8(t.text(src)).ok().map(intern);
    // `Repo::get(..)`: a path call names its type; `user::get_item(..)` its module.
    if before.is_punct(b':') {
        let ty = toks.get(i.checked_sub(3)?)?;
        if ty.kind != Tok::Ident {
            return None;
        }
        if upper(ty) {
            return name_of(ty).map(Receiver::Type);
        }
        let says_more = !matches!(ty.text(src), b"self" | b"super" | b"crate");
        return says_more
            .then(|| name_of(ty).map(Receiver::Module))
            .flatten();
    }
    if !before.is_punct(b'.') {
        return None;
    }
    let r = toks.get(i.checked_sub(2)?)?;
    match r.kind {
        Tok::Ident => {
            let after_dot = i
                .checked_sub(3)
                .and_then(|p| toks.get(p))
                .is_some_and(|t| t.is_punct(b'.'));
            if after_dot {
                return name_of(r).map(Receiver::Field);
            }
            if r.text(src) == b"self" {
                return impl_ty.map(|t| Receiver::Type(intern(t)));
            }
            local_type(src, toks, i - 2, fn_start).map(Receiver::Type)
        }
        // `x.users().get(..)`, `Repo::new(..).get(..)`.
        Tok::Punct(b')') => {
            let open = matching_open(toks, i - 2)?;
            let m = toks.get(open.checked_sub(1)?)?;
            if m.kind != Tok::Ident {
                return None;
            }
            let dot = toks.get(open.checked_sub(2)?)?;
            if dot.is_punct(b'.') {
                return name_of(m).map(Receiver::Returned);
            }
            if dot.is_punct(b':') {
                let ty = toks.get(open.checked_sub(4)?)?;
                if ty.kind == Tok::Ident && upper(ty) && m.text(src) == b"new" {
                    return name_of(ty).map(Receiver::Type);
                }
            }
            None
        }
        _ => None,
    }
}

/// The `(` that the `)` at `close` closes.
fn matching_open(toks: &[Token], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for k in (close.saturating_sub(4096)..=close).rev() {
        let t = toks.get(k)?;
        if t.is_punct(b')') {
            depth += 1;
        } else if t.is_punct(b'(') {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

/// The type of the local or parameter named by `toks[at]`, from its nearest
/// declaration before it in the function: `name: Type` (a parameter or an annotated
/// `let`) or `let name = Type::ctor(..)` / `Type { .. }` / `Type::<T>::ctor(..)`.
fn local_type(src: &[u8], toks: &[Token], at: usize, fn_start: usize) -> Option<Name> {
    let name = toks.get(at)?.text(src);
    for k in (fn_start..at).rev() {
        let t = toks[k];
        if t.kind != Tok::Ident || t.text(src) != name {
            continue;
        }
        let next = toks.get(k + 1)?;
        let colon = next.is_punct(b':') && !toks.get(k + 2).is_some_and(|n| n.is_punct(b':'));
        if colon {
            return core_type(src, toks, k + 2);
        }
        let is_let = k
            .checked_sub(1)
            .and_then(|p| toks.get(p))
            .is_some_and(|p| p.is_ident(src, "let") || p.is_ident(src, "mut"));
        if is_let && next.is_punct(b'=') {
            let v = toks.get(k + 2)?;
            let upper = v.text(src).first().is_some_and(u8::is_ascii_uppercase);
            let path = toks
                .get(k + 3)
                .is_some_and(|n| n.is_punct(b':') || n.is_punct(b'{'));
            return (v.kind == Tok::Ident && upper && path)
                .then(|| std::str::from_utf8(v.text(src)).ok().map(intern))
                .flatten();
        }
    }
    None
}

/// `< A, B >` from the `<` at `at`: the core type of each argument, and the index
/// just past the `>`.
fn type_list(src: &[u8], toks: &[Token], at: usize) -> Option<(Vec<Name>, usize)> {
    let end = skip_balanced(toks, at, b'<', b'>')?;
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = true;
    for j in at..end {
        match toks[j].kind {
            Tok::Punct(b'<') => {
                depth += 1;
                continue;
            }
            Tok::Punct(b'>') => {
                depth -= 1;
                continue;
            }
            Tok::Punct(b',') if depth == 1 => {
                start = true;
                continue;
            }
            _ => {}
        }
        if start && depth == 1 {
            if toks[j].kind == Tok::Lifetime {
                start = false;
                continue;
            }
            out.push(core_type(src, toks, j)?);
            start = false;
        }
    }
    Some((out, end))
}

/// The calls of each function that show the type arguments they give (see
/// [`TypeSite`]), with the locals and parameters declared with type arguments seen
/// since the function's `fn`.
fn type_sites(src: &[u8], toks: &[Token], out: &mut Vec<TypeSite>) {
    let name = |t: &Token| std::str::from_utf8(t.text(src)).ok().map(intern);
    // Token indexes of (local, its type, the `<` of the type's arguments), since the
    // last `fn`: read into names only when a call on the local uses them (most
    // parameters with type arguments are `Vec<..>` and `Option<..>` nothing calls on).
    let mut locals: Vec<(usize, usize, usize)> = Vec::new();
    let mut i = 0usize;
    while i < toks.len() {
        let t = toks[i];
        if t.kind != Tok::Ident {
            i += 1;
            continue;
        }
        let next = toks.get(i + 1);
        let colons = |k: usize| {
            toks.get(k).is_some_and(|c| c.is_punct(b':'))
                && toks.get(k + 1).is_some_and(|c| c.is_punct(b':'))
        };
        if t.text(src) == b"fn" {
            locals.clear();
            i += 1;
            continue;
        }
        // `users: Repository<User>` (a parameter or an annotated `let`).
        if next.is_some_and(|n| n.is_punct(b':')) && !colons(i + 1) {
            let mut j = i + 2;
            while toks.get(j).is_some_and(|n| {
                n.is_punct(b'&') || n.kind == Tok::Lifetime || n.is_ident(src, "mut")
            }) {
                j += 1;
            }
            if let (Some(head), true) = (
                toks.get(j),
                toks.get(j + 1).is_some_and(|n| n.is_punct(b'<')),
            ) {
                if head.kind == Tok::Ident {
                    locals.push((i, j, j + 1));
                }
            }
        }
        // `let users = Repository::<User>::new(..)`.
        let is_let =
            i > 0 && (toks[i - 1].is_ident(src, "let") || toks[i - 1].is_ident(src, "mut"));
        if is_let && next.is_some_and(|n| n.is_punct(b'=')) {
            let head = toks.get(i + 2);
            if head.is_some_and(|h| h.kind == Tok::Ident)
                && colons(i + 3)
                && toks.get(i + 5).is_some_and(|n| n.is_punct(b'<'))
            {
                locals.push((i, i + 2, i + 5));
            }
        }
        // A call: `name::<A>(`, `Type::<A>::name(`, `local.name(`.
        let prev_dot = i > 0 && toks[i - 1].is_punct(b'.');
        let (fn_types, after) =
            if colons(i + 1) && toks.get(i + 3).is_some_and(|n| n.is_punct(b'<')) {
                match type_list(src, toks, i + 3) {
                    Some((a, end)) => (a, end),
                    None => (Vec::new(), i + 1),
                }
            } else {
                (Vec::new(), i + 1)
            };
        if !toks.get(after).is_some_and(|n| n.is_punct(b'(')) {
            i += 1;
            continue;
        }
        let mut self_type = None;
        let mut self_types = Vec::new();
        if prev_dot
            && i >= 2
            && toks[i - 2].kind == Tok::Ident
            && !(i >= 3 && toks[i - 3].is_punct(b'.'))
        {
            let recv = toks[i - 2].text(src);
            let local = locals
                .iter()
                .rev()
                .filter(|&&(l, _, _)| toks[l].text(src) == recv)
                .find_map(|&(l, h, lt)| {
                    name(&toks[l])?;
                    Some((name(&toks[h])?, type_list(src, toks, lt)?.0))
                });
            if let Some((h, a)) = local {
                self_type = Some(h);
                self_types = a;
            }
        } else if i >= 3
            && toks[i - 1].is_punct(b':')
            && toks[i - 2].is_punct(b':')
            && toks[i - 3].is_punct(b'>')
        {
            // `Repository::<User>::name(`: back to the `<` after the type.
            let mut depth = 0i32;
            let mut k = i - 3;
            loop {
                if toks[k].is_punct(b'>') {
                    depth += 1;
                } else if toks[k].is_punct(b'<') {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                if k == 0 {
                    break;
                }
                k -= 1;
            }
            if k >= 3
                && toks[k].is_punct(b'<')
                && toks[k - 1].is_punct(b':')
                && toks[k - 2].is_punct(b':')
                && toks[k - 3].kind == Tok::Ident
            {
                if let Some((a, _)) = type_list(src, toks, k) {
                    self_type = name(&toks[k - 3]);
                    self_types = a;
                }
            }
        }
        if !fn_types.is_empty() || !self_types.is_empty() {
            if let Some(callee) = name(&t) {
                out.push(TypeSite {
                    callee,
                    fn_types: fn_types.into(),
                    self_type,
                    self_types: self_types.into(),
                    at: Span::new(t.start as usize, t.end as usize),
                });
            }
        }
        i += 1;
    }
}

/// The field types, generic bounds and associated types of one file, and the calls
/// that show their type arguments.
pub fn type_facts(src: &[u8], toks: &[Token]) -> TypeFacts {
    let mut out = TypeFacts::default();
    type_sites(src, toks, &mut out.sites);
    out.values = crate::scanner::index::field_values::field_facts(src, toks);
    out.unique = crate::scanner::index::orm::unique_columns(src, toks);
    let mut i = 0usize;
    while i < toks.len() {
        let t = toks[i];
        if t.kind != Tok::Ident {
            i += 1;
            continue;
        }
        match t.text(src) {
            // `struct S<..> { a: A, pub b: B }`.
            b"struct" => {
                let mut j = i + 2;
                if toks.get(j).is_some_and(|n| n.is_punct(b'<')) {
                    bounds_in(src, toks, j, &mut out);
                    match skip_balanced(toks, j, b'<', b'>') {
                        Some(k) => j = k,
                        None => break,
                    }
                }
                if toks.get(j).is_some_and(|n| n.is_punct(b'{')) {
                    let first = out.fields.len();
                    fields_in(src, toks, j, &mut out);
                    let name = toks.get(i + 1).filter(|n| n.kind == Tok::Ident);
                    if let Some(Ok(name)) = name.map(|n| std::str::from_utf8(n.text(src))) {
                        if out.fields.len() > first {
                            out.structs
                                .push((intern(name), first as u32, out.fields.len() as u32));
                        }
                    }
                }
                i = j;
            }
            // `enum Action { Signin, Signout = 2 }`: data-less variants only.
            b"enum" => {
                if let Some(name) = unit_enum(src, toks, i) {
                    out.unit_enums.push(intern(name));
                }
                i += 1;
            }
            // `type Repo: UserRepository;` (a trait's) or `type Repo = DynamoRepo;`.
            b"type" => {
                let (Some(name), Some(sep)) = (toks.get(i + 1), toks.get(i + 2)) else {
                    break;
                };
                // `type Alias<T> = Target<T, P>;`: generic aliases too.
                if name.kind == Tok::Ident && (sep.is_punct(b'=') || sep.is_punct(b'<')) {
                    let eq = if sep.is_punct(b'<') {
                        skip_balanced(toks, i + 2, b'<', b'>')
                    } else {
                        Some(i + 2)
                    };
                    let target = eq
                        .filter(|e| toks.get(*e).is_some_and(|t| t.is_punct(b'=')))
                        .and_then(|e| core_type(src, toks, e + 1));
                    // `type Result<T> = std::result::Result<T, Error>` is no alias of `T`.
                    let own_param = |t: &str| {
                        eq.is_some_and(|e| {
                            toks[i + 2..e].iter().any(|p| p.text(src) == t.as_bytes())
                        })
                    };
                    if let (Ok(n), Some(target)) = (std::str::from_utf8(name.text(src)), target) {
                        if *target != *n && !own_param(&target) {
                            out.aliases.push((intern(n), target));
                        }
                    }
                }
                if name.kind == Tok::Ident && (sep.is_punct(b':') || sep.is_punct(b'=')) {
                    let bound = core_type(src, toks, i + 3);
                    if let (Ok(n), Some(b)) = (std::str::from_utf8(name.text(src)), bound) {
                        out.bounds.push((intern(n), b));
                    }
                }
                i += 1;
            }
            // `impl<S: Store>`, `fn f<T: Entity>`, `where T: Entity`.
            b"impl" | b"fn" | b"trait" => {
                if t.text(src) == b"trait" {
                    if let Some(n) = toks.get(i + 1).filter(|n| n.kind == Tok::Ident) {
                        if let Ok(n) = std::str::from_utf8(n.text(src)) {
                            out.traits.push(intern(n));
                        }
                    }
                }
                let mut j = i + 1;
                if toks.get(j).is_some_and(|n| n.kind == Tok::Ident) && t.text(src) != b"impl" {
                    j += 1;
                }
                if toks.get(j).is_some_and(|n| n.is_punct(b'<')) {
                    bounds_in(src, toks, j, &mut out);
                }
                i += 1;
            }
            b"where" => {
                // `where T: A, U: B {`: each `Name:` up to the body.
                let mut j = i + 1;
                while let Some(n) = toks.get(j) {
                    if n.is_punct(b'{') || n.is_punct(b';') {
                        break;
                    }
                    let colon = toks.get(j + 1).is_some_and(|c| c.is_punct(b':'))
                        && !toks.get(j + 2).is_some_and(|c| c.is_punct(b':'));
                    if n.kind == Tok::Ident && colon {
                        if let (Ok(name), Some(b)) = (
                            std::str::from_utf8(n.text(src)),
                            core_type(src, toks, j + 2),
                        ) {
                            out.bounds.push((intern(name), b));
                        }
                    }
                    j += 1;
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    // Every file's facts live until the link: the lists keep only what they hold.
    out.fields.shrink_to_fit();
    out.bounds.shrink_to_fit();
    out.sites.shrink_to_fit();
    out.traits.shrink_to_fit();
    out.aliases.shrink_to_fit();
    out.structs.shrink_to_fit();
    out.unit_enums.shrink_to_fit();
    out
}

/// The name of the enum declared at `at` (its `enum` token) when it takes no generic
/// parameter and none of its variants carries data (a tuple or struct variant).
fn unit_enum<'s>(src: &'s [u8], toks: &[Token], at: usize) -> Option<&'s str> {
    let name = toks.get(at + 1).filter(|n| n.kind == Tok::Ident)?;
    if !toks.get(at + 2)?.is_punct(b'{') {
        return None;
    }
    let end = skip_balanced(toks, at + 2, b'{', b'}')?;
    let mut j = at + 3;
    let mut variants = 0;
    while j < end.min(toks.len()) {
        let t = toks[j];
        if t.is_punct(b'#') {
            // `#[serde(rename = "..")]`: past its `]`.
            j = skip_balanced(toks, j + 1, b'[', b']')?;
            continue;
        }
        if t.is_punct(b'(') || t.is_punct(b'{') {
            return None;
        }
        if t.kind == Tok::Ident
            && toks
                .get(j.wrapping_sub(1))
                .is_some_and(|p| p.is_punct(b'{') || p.is_punct(b',') || p.is_punct(b']'))
        {
            variants += 1;
        }
        j += 1;
    }
    (variants > 0).then_some(std::str::from_utf8(name.text(src)).ok()?)
}

/// `<T: Entity + Send, S: Store>` from the `<` at `at`.
fn bounds_in(src: &[u8], toks: &[Token], at: usize, out: &mut TypeFacts) {
    let Some(end) = skip_balanced(toks, at, b'<', b'>') else {
        return;
    };
    let mut depth = 0i32;
    for j in at..end {
        let n = toks[j];
        match n.kind {
            Tok::Punct(b'<') => depth += 1,
            Tok::Punct(b'>') => depth -= 1,
            Tok::Ident if depth == 1 => {
                let colon = toks.get(j + 1).is_some_and(|c| c.is_punct(b':'))
                    && !toks.get(j + 2).is_some_and(|c| c.is_punct(b':'));
                let fresh = toks
                    .get(j.wrapping_sub(1))
                    .is_some_and(|p| p.is_punct(b'<') || p.is_punct(b','));
                if colon && fresh {
                    if let (Ok(name), Some(b)) = (
                        std::str::from_utf8(n.text(src)),
                        core_type(src, toks, j + 2),
                    ) {
                        out.bounds.push((intern(name), b));
                    }
                }
            }
            _ => {}
        }
    }
}

/// `{ a: A, pub b: B }` from the `{` at `at`: each field at the struct's top level
/// (attributes and visibility before a field skipped).
fn fields_in(src: &[u8], toks: &[Token], at: usize, out: &mut TypeFacts) {
    let mut depth = 0i32;
    let mut expect_field = true;
    let mut j = at;
    while j < toks.len() {
        let n = toks[j];
        match n.kind {
            Tok::Punct(b'#') if depth == 1 => {
                // `#[serde(..)]`: past its `]`.
                match toks
                    .get(j + 1)
                    .filter(|b| b.is_punct(b'['))
                    .and_then(|_| skip_balanced(toks, j + 1, b'[', b']'))
                {
                    Some(k) => {
                        j = k;
                        continue;
                    }
                    None => return,
                }
            }
            Tok::Punct(b'{' | b'(' | b'[' | b'<') => depth += 1,
            Tok::Punct(b'}' | b')' | b']') => {
                depth -= 1;
                if depth <= 0 {
                    return;
                }
            }
            Tok::Punct(b'>') if j > 0 && !toks[j - 1].is_punct(b'-') => depth -= 1,
            Tok::Punct(b',') if depth == 1 => expect_field = true,
            Tok::Ident if depth == 1 && expect_field => {
                let colon = toks.get(j + 1).is_some_and(|c| c.is_punct(b':'))
                    && !toks.get(j + 2).is_some_and(|c| c.is_punct(b':'));
                if colon {
                    if let (Ok(name), Some(ty)) = (
                        std::str::from_utf8(n.text(src)),
                        core_type(src, toks, j + 2),
                    ) {
                        out.fields.push((intern(name), ty));
                    }
                    expect_field = false;
                }
            }
            _ => {}
        }
        j += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::syntax::lex::tokenize;

    fn facts(text: &str) -> TypeFacts {
        type_facts(text.as_bytes(), &tokenize(text.as_bytes()))
    }

    fn pairs(v: &[(Name, Name)]) -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    fn p(a: &str, b: &str) -> (String, String) {
        (a.to_string(), b.to_string())
    }

    #[test]
    fn fields_bounds_and_associated_types() {
        let f = facts(
            "pub struct AppState<S: Store + Send> {\n\
             #[serde(skip)]\n\
             pub storage: Arc<dyn Storage + Send + Sync>,\n\
             users: crate::repo::UserRepo,\n\
             cache: HashMap<String, (u32, u64)>,\n\
             other: S,\n\
             }\n\
             trait Adapter { type Repo: UserRepository; fn users(&self) -> &Self::Repo; }\n\
             impl Adapter for Dynamo { type Repo = DynamoUserRepo; }\n\
             fn load<T>(x: T) where T: Entity + Send {}",
        );
        assert_eq!(
            pairs(&f.fields),
            [
                p("storage", "Storage"),
                p("users", "UserRepo"),
                p("cache", "HashMap"),
                p("other", "S")
            ]
        );
        assert_eq!(
            pairs(&f.bounds),
            [
                p("S", "Store"),
                p("Repo", "UserRepository"),
                p("Repo", "DynamoUserRepo"),
                p("T", "Entity")
            ]
        );
    }

    #[test]
    fn receivers_as_the_tokens_tell_them() {
        let text = "impl Svc { fn run(&self, ids: Vec<String>, store: &dyn Store) {\n\
                    let repo = UserRepo::new(c);\n\
                    let typed: Repository<User> = Repository::new(c);\n\
                    for id in ids {\n\
                    self.storage.get(id); repo.find(id); store.load(id);\n\
                    self.adapter.users().find_by_id(id); self.get(id); Cache::get(id);\n\
                    typed.find(id); unknown.find(id);\n\
                    } } }";
        let toks = tokenize(text.as_bytes());
        let src = text.as_bytes();
        let fn_start = toks.iter().position(|t| t.is_ident(src, "fn")).unwrap();
        let at = |name: &str, nth: usize| {
            toks.iter()
                .enumerate()
                .filter(|(_, t)| t.is_ident(src, name))
                .nth(nth)
                .map(|(i, _)| i)
                .unwrap()
        };
        let r = |i: usize| receiver_at(src, &toks, i, fn_start, Some("Svc"));
        assert_eq!(r(at("get", 0)), Some(Receiver::Field(intern("storage"))));
        assert_eq!(r(at("find", 0)), Some(Receiver::Type(intern("UserRepo"))));
        assert_eq!(r(at("load", 0)), Some(Receiver::Type(intern("Store"))));
        assert_eq!(
            r(at("find_by_id", 0)),
            Some(Receiver::Returned(intern("users")))
        );
        assert_eq!(r(at("get", 1)), Some(Receiver::Type(intern("Svc"))));
        assert_eq!(r(at("get", 2)), Some(Receiver::Type(intern("Cache"))));
        assert_eq!(r(at("find", 1)), Some(Receiver::Type(intern("Repository"))));
        assert_eq!(r(at("find", 2)), None);
    }

    #[test]
    fn return_types() {
        let text = "fn users(&self) -> &Self::UserRepo { } fn f<T: X>(a: (u8, u8)) -> Result<Arc<dyn Store>, E> {} fn g() {}";
        let toks = tokenize(text.as_bytes());
        let src = text.as_bytes();
        let names: Vec<usize> = toks
            .iter()
            .enumerate()
            .filter(|(i, _)| *i > 0 && toks[*i - 1].is_ident(src, "fn"))
            .map(|(i, _)| i)
            .collect();
        let got: Vec<Option<String>> = names
            .iter()
            .map(|i| returned(src, &toks, *i).map(|n| n.to_string()))
            .collect();
        assert_eq!(got, [Some("UserRepo".into()), Some("Store".into()), None]);
    }
}
