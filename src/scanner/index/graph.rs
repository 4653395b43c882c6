//! The intra-crate call graph, by name, from tokens (so files the pre-filter rules out
//! still contribute their functions and calls without a parse): each function, what it
//! calls, and whether it is an entry point; `link::reach` searches it.

use std::borrow::Cow;

use crate::scanner::index::context::{is_test_attr, LoopShape};
use crate::scanner::index::types::{receiver_at, returned, Receiver};
use crate::scanner::syntax::lex::{Tok, Token};
pub use crate::scanner::syntax::names::{intern, Name};
use crate::source::Span;

/// One function: its names, what it calls, and whether it is an entry point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FnNode {
    pub name: Name,
    /// `Type::name` inside an impl, else `name`.
    pub qualified: Name,
    /// The function's name in the file.
    pub span: Span,
    /// Names it calls or passes as a function value (deduplicated, sorted). Boxed
    /// slices here and below: every function of the tree keeps its lists until the link,
    /// and a `Vec`'s capacity word was 4 MB of the 10x real tree's peak per list.
    pub calls: Box<[Name]>,
    /// Why it runs on every request: `axum route GET /orders`, ...
    pub entry: Option<String>,
    /// In `#[test]`/`#[cfg(test)]` code.
    pub test: bool,
    /// A program's `main` (by name, or by a `#[tokio::main]`-style attribute). Whether
    /// it is a one-off binary is decided at link time: it is one unless it reaches a
    /// function that starts a server.
    pub main: bool,
    /// Starts a long-running server: `axum::serve`, `Server::bind`, `HttpServer::new`,
    /// `warp::serve`, tonic's `Server::builder`, `lambda_runtime::run`...
    pub starts_server: bool,
    /// Calls made inside a `for`/`while`/`loop` body of this function.
    pub loop_calls: Box<[LoopCall]>,
    /// The trait of the `impl` it is in (`Storage` of `impl Storage for Dynamo`), or
    /// the trait that declares it (a default method).
    pub impl_trait: Option<Name>,
    /// The core of the type it returns (`UserRepo` of `-> &Self::UserRepo`).
    pub returns: Option<Name>,
    /// The names of `calls` it calls only on `self` or `Self::`: methods of its own
    /// type, not a same-named function of another (sorted).
    pub self_only: Box<[Name]>,
    /// For a method, what a call of its name means: the trait it implements (`impl
    /// Trait for Type`) or declares, else its type; `None` for a free function. Two
    /// functions of one name with different owners (or free functions of two files)
    /// are two functions a call by that name cannot tell apart.
    pub owner: Option<Name>,
}

/// A call inside a loop body: the function it names runs once per iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopCall {
    pub name: Name,
    /// `for`, `while` or `loop`.
    pub kind: Name,
    /// The loop's keyword.
    pub span: Span,
    /// Whether it pages through a read or retries rather than walks a collection.
    pub shape: LoopShape,
    /// The method call's receiver, when the tokens tell its type: a common name
    /// (`get`) is followed through it, and any name only to the types it can be.
    pub receiver: Option<Receiver>,
    /// Where the call is: which of a generic function's callers it is.
    pub at: Span,
}

/// Keywords and std names that look like calls but never name a crate function. A
/// `match` rather than a list searched in turn: every call of every file is asked.
fn not_a_call(name: &str) -> bool {
    matches!(
        name,
        "if" | "while"
            | "match"
            | "for"
            | "return"
            | "loop"
            | "Some"
            | "Ok"
            | "Err"
            | "None"
            | "fn"
            | "in"
            | "as"
            | "move"
            | "async"
            | "await"
            | "let"
            | "mut"
            | "ref"
            | "self"
            | "Self"
            | "super"
            | "crate"
            | "where"
            | "impl"
            | "dyn"
            | "box"
            | "unsafe"
            | "else"
            | "pub"
            | "use"
            | "mod"
            | "struct"
            | "enum"
            | "type"
    )
}

/// Calls that start a long-running server, as `(path segment before, name)`: what
/// makes a `main` a server rather than a one-off binary. Names alone (`run`, `bind`,
/// `start`) say nothing: a backfill's `run_backfill()` is no server.
const SERVER_STARTS: &[(&str, &str)] = &[
    ("axum", "serve"),
    ("warp", "serve"),
    ("poem", "run"),
    ("axum_server", "bind"),
    ("axum_server", "bind_rustls"),
    ("axum_server", "from_tcp"),
    ("lambda_runtime", "run"),
    ("lambda_runtime", "run_with_streaming_response"),
    ("lambda_http", "run"),
    ("lambda_http", "run_with_streaming_response"),
    ("HttpServer", "new"),
    // hyper 0.14 and axum 0.6 `Server::bind`, tonic's `Server::builder`, poem, salvo.
    ("Server", "bind"),
    ("Server", "try_bind"),
    ("Server", "builder"),
    ("Server", "from_tcp"),
    ("Server", "new"),
    ("rocket", "build"),
    ("tide", "new"),
];

/// Route methods of axum/warp/actix (`get(handler)`, `web::post().to(handler)`).
const ROUTE_METHODS: &[&str] = &[
    "get", "post", "put", "delete", "patch", "head", "options", "any", "on", "trace",
];

#[derive(Clone)]
enum Frame {
    Impl {
        ty: String,
        /// The trait of `impl Trait for Type`.
        trait_name: Option<String>,
        entry: Option<String>,
    },
    Mod {
        test: bool,
    },
    /// `trait Name {`: its methods' owner.
    Trait {
        name: String,
    },
    Fn {
        index: usize,
    },
    Loop {
        kind: String,
        span: Span,
    },
    Other,
}

/// Functions and calls of one file, from its tokens.
pub fn lexical_graph(whole: &str, toks: &[Token]) -> Vec<FnNode> {
    let src = whole.as_bytes();
    // Borrowed, not copied: this looks at every identifier of every file in the tree.
    // Sliced from the text, which is UTF-8 already, rather than checked again token by
    // token (a tenth of this walk); `get` checks only that both ends are char
    // boundaries (a token of broken text may not end on one: read as before).
    let str_at = |start: usize, end: usize| match whole.get(start..end) {
        Some(s) => Cow::Borrowed(s),
        None => String::from_utf8_lossy(src.get(start..end).unwrap_or_default()),
    };
    let text = |t: &Token| str_at(t.start as usize, t.end as usize);
    let mut fns: Vec<FnNode> = Vec::new();
    // Each function's calls as the text spells them, interned once each at the end:
    // a name is called many times, and interning every occurrence was a third of
    // this walk. Indexed like `fns` (only functions read from a `fn` get calls here).
    let mut called_names: Vec<Vec<Cow<'_, str>>> = Vec::new();
    // Each call again, with whether it is on `self`/`Self::` (indexed like `fns`).
    let mut self_calls: Vec<Vec<(Cow<'_, str>, bool)>> = Vec::new();
    // The calls inside loops (indexed like `fns`), boxed into each function at the end.
    let mut loop_calls: Vec<Vec<LoopCall>> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    // The indexes of the `Frame::Fn`s on `stack`, innermost last: which function a
    // token is in, asked at every identifier, without walking the stack.
    let mut open_fns: Vec<usize> = Vec::new();
    let mut attrs: Vec<String> = Vec::new();
    // A header seen, waiting for its `{`: (frame, token index where it started).
    let mut pending: Option<Frame> = None;
    let mut paren = 0usize;
    let mut entries_by_name: Vec<(String, String)> = Vec::new();
    // The last string literal (a route's path), read only when a route needs it.
    let mut last_str: Option<Token> = None;
    // Whether the file names warp (`warp::`), looked at most once.
    let mentions_warp = std::cell::OnceCell::new();
    let warp = || *mentions_warp.get_or_init(|| mentions(src, b"warp:"));
    let server_traits = server_traits(src, toks);
    // Whether the file names tonic, looked at most once.
    let mentions_tonic = std::cell::OnceCell::new();
    let tonic = || *mentions_tonic.get_or_init(|| mentions(src, b"tonic"));
    // A loop keyword seen in a function, waiting for its body's `{` at the same depth.
    let mut pending_loop: Option<(String, Span, usize)> = None;
    // Async closures given to an iterator adaptor (`ids.iter().map(|id| async move {
    // repo.get(id).await })`): each element's future makes the calls inside, as a loop
    // body would. (last token index, adaptor name, its span)
    let mut adaptors: Vec<(usize, String, Span)> = Vec::new();
    // Where each function's `fn` token is and the `impl` type it is in (indexed like
    // `fns`): what a loop call's receiver is looked up in.
    let mut fn_starts: Vec<(usize, Option<String>)> = Vec::new();
    let mut i = 0usize;
    while i < toks.len() {
        let t = toks[i];
        let next = toks.get(i + 1);
        match t.kind {
            Tok::Punct(b'#') if next.is_some_and(|n| n.is_punct(b'[') || n.is_punct(b'!')) => {
                // An attribute: collect its text up to the matching `]`.
                let mut j = i + 1;
                if toks.get(j).is_some_and(|n| n.is_punct(b'!')) {
                    j += 1;
                }
                let start = toks.get(j).map(|x| x.end).unwrap_or(t.end);
                let mut depth = 0i32;
                let mut end = start;
                while j < toks.len() {
                    match toks[j].kind {
                        Tok::Punct(b'[') => depth += 1,
                        Tok::Punct(b']') => {
                            depth -= 1;
                            if depth == 0 {
                                end = toks[j].start;
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                attrs.push(squeeze(&str_at(start as usize, end as usize)));
                i = j + 1;
                continue;
            }
            Tok::Ident => {
                let word = t.text(src);
                let in_fn = open_fns.last().copied();
                if word == b"fn" && next.is_some_and(|n| n.kind == Tok::Ident) {
                    let name_tok = toks[i + 1];
                    let name = text(&name_tok).into_owned();
                    let interned = intern(&name);
                    let (impl_ty, impl_trait, impl_entry) = stack
                        .iter()
                        .rev()
                        .take_while(|f| !matches!(f, Frame::Fn { .. }))
                        .find_map(|f| match f {
                            Frame::Impl {
                                ty,
                                trait_name,
                                entry,
                            } => Some((Some(ty.as_str()), trait_name.as_deref(), entry.clone())),
                            Frame::Trait { name } => Some((None, Some(name.as_str()), None)),
                            _ => None,
                        })
                        .unwrap_or((None, None, None));
                    let test = attrs.iter().any(|a| is_test_attr(a))
                        || stack.iter().any(|f| matches!(f, Frame::Mod { test: true }));
                    let entry = route_attr(&attrs).or(impl_entry);
                    let main = impl_ty.is_none()
                        && in_fn.is_none()
                        && (name == "main" || attrs.iter().any(|a| is_main_attr(a)));
                    fns.push(FnNode {
                        owner: impl_trait.or(impl_ty).map(intern),
                        qualified: match impl_ty {
                            // Joined by hand, without `format!`: once per method of every impl.
                            Some(ty) => {
                                let mut q = String::with_capacity(ty.len() + 2 + name.len());
                                q.push_str(ty);
                                q.push_str("::");
                                q.push_str(&name);
                                intern(&q)
                            }
                            None => Name::clone(&interned),
                        },
                        name: interned,
                        span: Span::new(name_tok.start as usize, name_tok.end as usize),
                        calls: Box::default(),
                        entry,
                        test,
                        main,
                        starts_server: false,
                        loop_calls: Box::default(),
                        impl_trait: impl_trait.map(intern),
                        returns: returned(src, toks, i + 1),
                        self_only: Box::default(),
                    });
                    if fn_starts.len() < fns.len() {
                        fn_starts.resize(fns.len(), (i, None));
                    }
                    fn_starts[fns.len() - 1] = (i, impl_ty.map(str::to_owned));
                    attrs.clear();
                    pending = Some(Frame::Fn {
                        index: fns.len() - 1,
                    });
                    paren = 0;
                    i += 2;
                    continue;
                }
                // `impl` in a signature (`-> impl IntoResponse`, `x: impl Into<String>`)
                // is a type, not an impl block.
                let in_signature = matches!(pending, Some(Frame::Fn { .. }));
                if word == b"impl" && in_fn.is_none() && !in_signature {
                    // `impl<..> Trait for Type {` or `impl Type {`.
                    let mut j = i + 1;
                    let mut angle = 0i32;
                    let mut idents: Vec<(usize, String)> = Vec::new();
                    let mut for_at = None;
                    // A `where` clause's bounds (`where Q: Send + Sync`) name no type
                    // of the impl: the type is the last name before it.
                    let mut in_where = false;
                    while j < toks.len()
                        && !(toks[j].is_punct(b'{') && angle <= 0)
                        && !toks[j].is_punct(b';')
                    {
                        match toks[j].kind {
                            Tok::Punct(b'<') => angle += 1,
                            Tok::Punct(b'>') => angle -= 1,
                            Tok::Ident if angle <= 0 && !in_where => {
                                let w = text(&toks[j]).into_owned();
                                if w == "for" {
                                    for_at = Some(idents.len());
                                } else if w == "where" {
                                    in_where = true;
                                } else if w != "dyn" {
                                    idents.push((j, w));
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    let ty = idents.last().map(|x| x.1.clone()).unwrap_or_default();
                    let trait_path: Vec<String> = match for_at {
                        Some(k) => idents[..k].iter().map(|x| x.1.clone()).collect(),
                        None => Vec::new(),
                    };
                    let entry = impl_entry(&attrs, &trait_path, &server_traits, tonic());
                    attrs.clear();
                    pending = Some(Frame::Impl {
                        ty,
                        trait_name: trait_path.last().cloned(),
                        entry,
                    });
                    i = j;
                    continue;
                }
                if word == b"trait" && in_fn.is_none() && next.is_some_and(|n| n.kind == Tok::Ident)
                {
                    attrs.clear();
                    pending = Some(Frame::Trait {
                        name: text(&toks[i + 1]).into_owned(),
                    });
                    i += 2;
                    continue;
                }
                if word == b"mod" && in_fn.is_none() {
                    let test = attrs.iter().any(|a| is_test_attr(a));
                    attrs.clear();
                    pending = Some(Frame::Mod { test });
                    i += 1;
                    continue;
                }
                // A project's own handler macro: its definition, or an item-level call.
                if in_fn.is_none() && next.is_some_and(|n| n.is_punct(b'!')) {
                    if let Some(node) = macro_node(src, toks, i) {
                        fns.push(node);
                    }
                }
                // `for x in ..`, `while ..`, `loop`; not `for<'a>` nor `impl X for Y`.
                if in_fn.is_some()
                    && matches!(word, b"for" | b"while" | b"loop")
                    && !next.is_some_and(|n| n.is_punct(b'<'))
                {
                    let kind = text(&t).into_owned();
                    pending_loop = Some((kind, Span::new(t.start as usize, t.end as usize), paren));
                    i += 1;
                    continue;
                }
                if in_fn.is_some() {
                    if let Some(end) = async_adaptor(src, toks, i) {
                        adaptors.push((
                            end,
                            text(&t).into_owned(),
                            Span::new(t.start as usize, t.end as usize),
                        ));
                    }
                }
                if let Some(fi) = in_fn {
                    let w = text(&t);
                    let called = next.is_some_and(|n| n.is_punct(b'('));
                    let turbofish = next.is_some_and(|n| n.is_punct(b':'))
                        && toks.get(i + 2).is_some_and(|n| n.is_punct(b':'))
                        && toks.get(i + 3).is_some_and(|n| n.is_punct(b'<'));
                    let prev = i.checked_sub(1).map(|p| toks[p]);
                    let as_value = prev.is_some_and(|p| p.is_punct(b'(') || p.is_punct(b','))
                        && next.is_some_and(|n| n.is_punct(b')') || n.is_punct(b','))
                        && !in_variant_parens(src, toks, i);
                    let macro_call = next.is_some_and(|n| n.is_punct(b'!'));
                    // `.key(..)`/`.item(..)`/`.send()` on a builder are the SDK's, not
                    // calls of a crate function that happens to share the name. The
                    // transaction wrappers (`.get`, `.put`, `.update`, `.delete`) are
                    // also what repositories call their methods, so they stay calls.
                    let sdk_setter = prev.is_some_and(|p| p.is_punct(b'.'))
                        && crate::scanner::sdk::setter(&w)
                            .is_some_and(|(s, _)| s != crate::scanner::sdk::Setter::Wrapped);
                    // `client.scan().table_name(..)` starts an SDK request; a crate's
                    // `repo.scan()` is not followed by a setter.
                    let sdk_request = prev.is_some_and(|p| p.is_punct(b'.'))
                        && crate::scanner::sdk::op_for_method(&w).is_some()
                        && toks.get(i + 2).is_some_and(|t| t.is_punct(b')'))
                        && toks.get(i + 3).is_some_and(|t| t.is_punct(b'.'))
                        && toks.get(i + 4).is_some_and(|t| {
                            t.kind == Tok::Ident && crate::scanner::sdk::setter(&text(t)).is_some()
                        });
                    if (called || turbofish || as_value)
                        && !macro_call
                        && !sdk_setter
                        && !sdk_request
                        && !not_a_call(&w)
                        && fi < fns.len()
                    {
                        if called_names.len() <= fi {
                            called_names.resize_with(fi + 1, Vec::new);
                        }
                        // `HashTracker::get(..)`, `user::get_item(..)`: a name too common
                        // (or the SDK's own) to follow alone is also recorded with the
                        // type or module its path names.
                        if let Some(q) =
                            path_qualifier(src, toks, i).filter(|_| called && by_path_only(&w))
                        {
                            called_names[fi].push(Cow::Owned(format!("{q}::{w}")));
                        }
                        called_names[fi].push(w.clone());
                        // `self.list()`, `Self::list()`, and a trait's method
                        // called on `self` by path (`DataService::list(self)`).
                        let path_on_self = called
                            && prev.is_some_and(|p| p.is_punct(b':'))
                            && toks.get(i + 2).is_some_and(|a| a.is_ident(src, "self"))
                            && toks
                                .get(i + 3)
                                .is_some_and(|a| a.is_punct(b',') || a.is_punct(b')'));
                        let on_self = path_on_self
                            || i >= 2
                                && ((prev.is_some_and(|p| p.is_punct(b'.'))
                                    && toks[i - 2].is_ident(src, "self"))
                                    || (i >= 3
                                        && prev.is_some_and(|p| p.is_punct(b':'))
                                        && toks[i - 3].is_ident(src, "Self")));
                        if self_calls.len() <= fi {
                            self_calls.resize_with(fi + 1, Vec::new);
                        }
                        self_calls[fi].push((w.clone(), on_self));
                        adaptors.retain(|(end, _, _)| *end > i);
                        let in_loop = innermost_loop(&stack);
                        // The innermost repetition: an adaptor inside the loop, or
                        // the loop inside the adaptor's closure.
                        let adaptor = adaptors
                            .last()
                            .filter(|(_, _, at)| in_loop.is_none_or(|(_, l)| at.start > l.start));
                        let repeat = match adaptor {
                            Some((_, kind, at)) => Some((kind.as_str(), *at)),
                            None => in_loop,
                        };
                        if let Some((kind, span)) = repeat {
                            let (start, ty) = fn_starts
                                .get(fi)
                                .map_or((0, None), |(s, t)| (*s, t.as_deref()));
                            if loop_calls.len() <= fi {
                                loop_calls.resize_with(fi + 1, Vec::new);
                            }
                            loop_calls[fi].push(LoopCall {
                                name: intern(&w),
                                kind: intern(kind),
                                span,
                                shape: LoopShape::default(),
                                receiver: receiver_at(src, toks, i, start, ty),
                                at: Span::new(t.start as usize, t.end as usize),
                            });
                        }
                    }
                    if called && starts_server(&w, src, toks, i) {
                        if let Some(f) = fns.get_mut(fi) {
                            f.starts_server = true;
                        }
                    }
                    // `get(handler)` / `.to(handler)` / `service_fn(handler)`.
                    if called {
                        if let Some(reason) = route_call(&w, last_str, &warp, src, toks, i) {
                            if let Some(h) = handler_after(src, toks, i + 1) {
                                entries_by_name.push((h, reason));
                            } else {
                                // A closure handler: what it calls runs per request.
                                for h in closure_calls(src, toks, i + 1) {
                                    entries_by_name.push((h, reason.clone()));
                                }
                            }
                        }
                    }
                }
            }
            Tok::Str => last_str = Some(t),
            Tok::Punct(b'(') => paren += 1,
            Tok::Punct(b')') => paren = paren.saturating_sub(1),
            Tok::Punct(b';') => {
                if matches!(pending, Some(Frame::Fn { .. })) && paren == 0 {
                    pending = None;
                }
                attrs.clear();
            }
            Tok::Punct(b'{') => {
                let frame = match (pending.take(), pending_loop.take()) {
                    (Some(f), _) => f,
                    (None, Some((kind, span, depth))) if depth == paren => {
                        Frame::Loop { kind, span }
                    }
                    // A `{` inside the loop's header (a closure argument): still waiting.
                    (None, Some(l)) => {
                        pending_loop = Some(l);
                        Frame::Other
                    }
                    (None, None) => Frame::Other,
                };
                if let Frame::Fn { index } = frame {
                    open_fns.push(index);
                }
                stack.push(frame);
            }
            Tok::Punct(b'}') => {
                let closed = stack.pop();
                if let Some(Frame::Fn { .. }) = closed {
                    open_fns.pop();
                }
                if let Some(Frame::Loop { kind, span }) = closed {
                    // Known only at its end: whether the loop pages or retries.
                    let text = str_at(span.start, t.end as usize);
                    let in_fn = open_fns.last().copied();
                    // The function from its name to the loop: what binds its stream.
                    let before = || match in_fn.and_then(|fi| fns.get(fi)) {
                        Some(f) => str_at(f.span.start, span.start),
                        None => Cow::Borrowed(""),
                    };
                    let shape = LoopShape::in_fn(&kind, &text, before);
                    if let Some(calls) = in_fn.and_then(|fi| loop_calls.get_mut(fi)) {
                        for lc in calls.iter_mut().filter(|c| c.span == span) {
                            lc.shape = shape;
                        }
                    }
                }
                attrs.clear();
            }
            _ => {}
        }
        i += 1;
    }
    for (f, mut names) in fns.iter_mut().zip(called_names) {
        // A macro's pseudo-function holds what it names already.
        if f.name.starts_with(ENTRY_PREFIX) {
            continue;
        }
        names.sort_unstable();
        names.dedup();
        let mut calls: Vec<Name> = names.iter().map(|w| intern(w)).collect();
        calls.sort();
        calls.dedup();
        f.calls = calls.into_boxed_slice();
    }
    for (f, calls) in fns.iter_mut().zip(loop_calls) {
        f.loop_calls = calls.into_boxed_slice();
    }
    for (f, mut calls) in fns.iter_mut().zip(self_calls) {
        calls.sort_unstable();
        calls.dedup();
        // Sorted by name, `false` before `true`: a name whose first entry is on
        // `self` is called on nothing else.
        let mut last: Option<&str> = None;
        let mut only: Vec<Name> = Vec::new();
        for (name, on_self) in &calls {
            if last == Some(name.as_ref()) {
                continue;
            }
            last = Some(name.as_ref());
            if *on_self {
                only.push(intern(name));
            }
        }
        f.self_only = only.into_boxed_slice();
    }
    wrapper_macros(&mut fns);
    // Entry points registered by name (routes, service_fn) in this file.
    for f in &mut fns {
        if f.entry.is_none() {
            if let Some((_, reason)) = entries_by_name.iter().find(|(n, _)| **n == *f.name) {
                f.entry = Some(reason.clone());
            }
        }
    }
    // Registrations whose handler lives in another file travel as pseudo-functions.
    for (name, reason) in entries_by_name {
        if !fns.iter().any(|f| *f.name == *name) {
            fns.push(FnNode {
                name: intern(&format!("{ENTRY_PREFIX}{name}")),
                qualified: intern(&name),
                span: Span::default(),
                calls: Box::new([intern(&name)]),
                entry: Some(reason),
                test: false,
                main: false,
                starts_server: false,
                loop_calls: Box::default(),
                impl_trait: None,
                returns: None,
                self_only: Box::default(),
                owner: None,
            });
        }
    }
    fns
}

/// Names a call graph by name does not follow alone: the SDK's request methods
/// (`client.get_item()` is not a crate's `get_item`) and the verbs every collection
/// and repository has (`map.get(k)` is not `HashTracker::get`). A path call of one
/// is also recorded as `Qualifier::name` ([`QUALIFIED_SEPARATOR`]).
pub fn by_path_only(name: &str) -> bool {
    matches!(
        name,
        "get"
            | "set"
            | "insert"
            | "remove"
            | "find"
            | "load"
            | "read"
            | "write"
            | "update"
            | "delete"
            | "put"
            | "execute"
            | "send"
            | "run"
            | "call"
            | "handle"
            | "process"
    ) || crate::scanner::sdk::op_for_method(name).is_some()
}

/// What joins a path call's qualifier to its name in `calls` (`HashTracker::get`).
pub const QUALIFIED_SEPARATOR: &str = "::";

/// The type or module a path call at `toks[i]` names just before it (`HashTracker` of
/// `HashTracker::get(..)`, `user` of `model::user::get_item(..)`); `None` for a plain
/// or method call, and for `Self::`, `self::`, `super::` and `crate::`, which say
/// nothing beyond the file.
fn path_qualifier<'s>(src: &'s [u8], toks: &[Token], i: usize) -> Option<&'s str> {
    if i < 3 || !toks[i - 1].is_punct(b':') || !toks[i - 2].is_punct(b':') {
        return None;
    }
    let q = toks[i - 3];
    if q.kind != Tok::Ident {
        return None;
    }
    let text = std::str::from_utf8(q.text(src)).ok()?;
    (!matches!(text, "Self" | "self" | "super" | "crate")).then_some(text)
}

/// Whether the name at `toks[i]` is an argument of a capitalised name
/// (`Kind::ListValue(list)`, `Some(list)`, `Pair(a, list)`): an enum variant or tuple
/// struct, built or matched, whose fields are values and bindings, never a function
/// passed to be called. `map(to_json)` and `service_fn(handler)` pass functions to
/// lower-case callees.
fn in_variant_parens(src: &[u8], toks: &[Token], i: usize) -> bool {
    let mut depth = 0usize;
    // A function value sits in a short argument list: look back a few tokens only.
    for j in (i.saturating_sub(64)..i).rev() {
        let t = toks[j];
        if t.is_punct(b')') || t.is_punct(b']') || t.is_punct(b'}') {
            depth += 1;
        } else if t.is_punct(b'(') || t.is_punct(b'[') || t.is_punct(b'{') {
            if depth == 0 {
                return t.is_punct(b'(')
                    && j.checked_sub(1).map(|k| toks[k]).is_some_and(|c| {
                        c.kind == Tok::Ident
                            && c.text(src).first().is_some_and(u8::is_ascii_uppercase)
                    });
            }
            depth -= 1;
        }
    }
    false
}

/// `text`'s words joined by one space (an attribute as [`is_test_attr`] and the
/// others read it), written into one string.
fn squeeze(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Whether `needle` occurs in `src` (every file is searched for some of these).
fn mentions(src: &[u8], needle: &[u8]) -> bool {
    memchr::memmem::find(src, needle).is_some()
}

/// The loop the current token sits in, if inside the innermost function.
fn innermost_loop(stack: &[Frame]) -> Option<(&str, Span)> {
    for f in stack.iter().rev() {
        match f {
            Frame::Loop { kind, span } => return Some((kind, *span)),
            Frame::Fn { .. } => return None,
            _ => {}
        }
    }
    None
}

/// `#[tokio::main]`, `#[actix_web::main]`, `#[async_std::main]`, `#[rocket::main]`
/// (with or without arguments): the function is the program's `main`.
fn is_main_attr(attr: &str) -> bool {
    let name = attr.split(['(', ' ']).next().unwrap_or("");
    name.contains("::") && name.rsplit("::").next() == Some("main")
}

/// Whether the call of `name` at token `i` starts a server: a known `path::name(`, or
/// an imported `run(service_fn(..))` / `serve(..)` of axum, warp or a lambda runtime.
fn starts_server(name: &str, src: &[u8], toks: &[Token], i: usize) -> bool {
    let qualifier = (i >= 3
        && toks[i - 1].is_punct(b':')
        && toks[i - 2].is_punct(b':')
        && toks[i - 3].kind == Tok::Ident)
        .then(|| toks[i - 3].text(src));
    if let Some(q) = qualifier {
        return SERVER_STARTS
            .iter()
            .any(|(t, n)| t.as_bytes() == q && *n == name);
    }
    if i >= 1 && toks[i - 1].is_punct(b'.') {
        return false;
    }
    match name {
        "run" => toks
            .get(i + 2)
            .is_some_and(|t| t.is_ident(src, "service_fn") || t.is_ident(src, "handler_fn")),
        "serve" => mentions(src, b"axum") || mentions(src, b"warp"),
        _ => false,
    }
}

/// Marks a pseudo-function that only carries a registration of a handler elsewhere.
pub const ENTRY_PREFIX: &str = "\u{0}entry:";

/// `#[get("/x")]`, `#[actix_web::post("/x")]`, `#[route("/x", method = "GET")]`,
/// `#[Object]`-style resolver attributes on a fn.
fn route_attr(attrs: &[String]) -> Option<String> {
    for a in attrs {
        let name = a.split(['(', ' ']).next().unwrap_or("");
        let last = name.rsplit("::").next().unwrap_or(name);
        if ROUTE_METHODS.contains(&last) || last == "route" {
            let path = a.split('"').nth(1).unwrap_or("");
            return Some(
                format!("actix-web route {} {path}", last.to_uppercase())
                    .trim_end()
                    .to_string(),
            );
        }
        if a.starts_with("lambda_runtime::") || a.starts_with("lambda_http::") || a == "lambda" {
            return Some(format!("#[{a}] handler"));
        }
        // lambda_appsync's resolvers: `#[appsync_operation(query(players))]`, dispatched
        // by the `appsync_lambda_main!` the crate's main expands to.
        if last == "appsync_operation" {
            return Some(format!("AppSync resolver (#[{a}])"));
        }
    }
    None
}

/// Every method of a tonic service impl or an async-graphql `#[Object]` is an entry.
/// `tonic_file`: the file names tonic (a `*Service` trait of the crate's own, in a file
/// that does not, is a storage or domain trait: this-framework-links' `LinkService`).
fn impl_entry(
    attrs: &[String],
    trait_path: &[String],
    server_traits: &[String],
    tonic_file: bool,
) -> Option<String> {
    if let Some(a) = attrs.iter().find(|a| {
        let n = a.split(['(', ' ']).next().unwrap_or("");
        let last = n.rsplit("::").next().unwrap_or(n);
        matches!(last, "Object" | "Subscription" | "ComplexObject")
    }) {
        return Some(format!("async-graphql resolver (#[{a}])"));
    }
    if let Some(a) = attrs.iter().find(|a| {
        let n = a.split(['(', ' ']).next().unwrap_or("");
        matches!(
            n.rsplit("::").next().unwrap_or(n),
            "graphql_object" | "graphql_subscription"
        )
    }) {
        return Some(format!("juniper resolver (#[{a}])"));
    }
    let tr = trait_path.last()?;
    let generated = trait_path.iter().any(|s| s.ends_with("_server")) || server_traits.contains(tr);
    // tonic re-exports `async_trait`: `#[tonic::async_trait] impl Inventory for Stock`.
    let tonic_attr = attrs.iter().any(|a| a.starts_with("tonic::async_trait"));
    if generated
        || tonic_attr
        || (tonic_file
            && tr.ends_with("Service")
            && attrs.iter().any(|a| a.contains("async_trait")))
    {
        return Some(format!("tonic service `{tr}`"));
    }
    None
}

/// Names a file imports from tonic-generated `*_server` modules
/// (`use proto::inventory_server::Inventory;`, `inventory_server::{Inventory, ..}`):
/// an impl of one is a service, whatever attribute it carries.
fn server_traits(src: &[u8], toks: &[Token]) -> Vec<String> {
    let mut out = Vec::new();
    if !mentions(src, b"_server::") {
        return out;
    }
    for (i, module) in toks.iter().enumerate() {
        let is_server_path = module.kind == Tok::Ident
            && module.text(src).ends_with(b"_server")
            && toks.get(i + 1).is_some_and(|t| t.is_punct(b':'))
            && toks.get(i + 2).is_some_and(|t| t.is_punct(b':'));
        if !is_server_path {
            continue;
        }
        let rest = toks.get(i + 3..).unwrap_or_default();
        let named: Vec<&Token> = match rest.first() {
            // A `use` group: up to its `}`.
            Some(t) if t.is_punct(b'{') => rest[1..]
                .iter()
                .take_while(|t| !t.is_punct(b'}'))
                .filter(|t| t.kind == Tok::Ident)
                .collect(),
            Some(t) if t.kind == Tok::Ident => vec![t],
            _ => Vec::new(),
        };
        for t in named {
            let name = String::from_utf8_lossy(t.text(src)).into_owned();
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// Whose `service_fn` a file calls: a lambda runtime's (the usual case) or hyper's.
fn service_fn_origin(src: &[u8]) -> &'static str {
    if mentions(src, b"lambda_runtime") {
        "lambda_runtime::service_fn"
    } else if mentions(src, b"lambda_http") {
        "lambda_http::service_fn"
    } else if mentions(src, b"hyper") {
        "hyper service_fn"
    } else {
        "lambda_runtime::service_fn"
    }
}

/// Whether a call at `i` registers a request handler, and why.
fn route_call(
    name: &str,
    last_str: Option<Token>,
    mentions_warp: &dyn Fn() -> bool,
    src: &[u8],
    toks: &[Token],
    i: usize,
) -> Option<String> {
    let prev_is_path_of = |module: &str| {
        i >= 3
            && toks[i - 1].is_punct(b':')
            && toks[i - 2].is_punct(b':')
            && toks[i - 3].is_ident(src, module)
    };
    let prev_dot = i >= 1 && toks[i - 1].is_punct(b'.');
    // The last string literal's contents (a route's path), or "": read only for a
    // route (this is asked at every call of every file).
    let last_str = || {
        let s = last_str
            .map(|t| String::from_utf8_lossy(t.text(src)))
            .unwrap_or_default();
        s.trim_matches('"').to_string()
    };
    match name {
        "service_fn" => Some(service_fn_origin(src).to_string()),
        // lambda_runtime before 0.4: `lambda_runtime::run(handler_fn(func))`.
        "handler_fn" => Some("lambda_runtime::handler_fn".to_string()),
        "run" if prev_is_path_of("lambda_http") || prev_is_path_of("lambda_runtime") => {
            Some("lambda_http::run".to_string())
        }
        m if ROUTE_METHODS.contains(&m) && (!prev_dot || chained_route(src, toks, i)) => {
            // axum `get(handler)` inside `.route("/path", ..)`; also `routing::get`.
            Some(
                format!("axum route {} {}", m.to_uppercase(), last_str())
                    .trim_end()
                    .to_string(),
            )
        }
        "to" if prev_dot => Some(
            format!("actix-web route {}", last_str())
                .trim_end()
                .to_string(),
        ),
        "service" if prev_dot => Some("actix-web service".to_string()),
        "and_then" | "then" if prev_dot && mentions_warp() => {
            Some(format!("warp filter {}", last_str()).trim_end().to_string())
        }
        _ => None,
    }
}

/// `.post(create)` chained on a route method: `get(list).post(create)`. A `.get(k)` on
/// anything else (a map) is not a route.
fn chained_route(src: &[u8], toks: &[Token], i: usize) -> bool {
    let mut dot = i.saturating_sub(1);
    // Walk left over `name( .. ).` links until a route method called without a dot; a
    // method router has a handful (one per HTTP method), so long chains are not routes
    // and do not cost a walk each.
    for _ in 0..ROUTE_METHODS.len() {
        let Some(close) = dot.checked_sub(1).filter(|j| toks[*j].is_punct(b')')) else {
            return false;
        };
        let mut j = close;
        let mut depth = 0i32;
        loop {
            if toks[j].is_punct(b')') {
                depth += 1;
            } else if toks[j].is_punct(b'(') {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            match j.checked_sub(1) {
                Some(k) => j = k,
                None => return false,
            }
        }
        let Some(name_at) = j.checked_sub(1) else {
            return false;
        };
        let name = toks[name_at].text(src);
        if !ROUTE_METHODS.iter().any(|m| m.as_bytes() == name) {
            return false;
        }
        match name_at.checked_sub(1) {
            Some(d) if toks[d].is_punct(b'.') => dot = d,
            _ => return true,
        }
    }
    false
}

/// Marks a pseudo-function for a `macro_rules!` that starts a Lambda runtime with the
/// handler it is given (its `qualified` is the macro's name).
pub const ENTRY_MACRO_PREFIX: &str = "\u{0}entry:macro_rules!";

/// Marks a pseudo-function for an item-level macro call (`lambda_main!(handler)`,
/// `handler! { async fn export(..) {..} }`): `calls` holds the functions it names or
/// defines, `qualified` the macro's name. The link phase makes it an entry when the
/// crate defines that macro as a handler macro.
pub const MACRO_CALL_PREFIX: &str = "\u{0}entry:macro!";

/// Keeps the handler macros of a file: those that start a Lambda runtime (no calls),
/// and the wrappers that invoke one of them, at any depth (`lambda_main!` →
/// `lambda_main_internal!` → `service_fn`); a macro that invokes none is dropped.
fn wrapper_macros(fns: &mut Vec<FnNode>) {
    let is_macro = |f: &FnNode| f.name.starts_with(ENTRY_MACRO_PREFIX);
    if !fns.iter().any(|f| is_macro(f) && !f.calls.is_empty()) {
        return;
    }
    let mut handlers: Vec<Name> = fns
        .iter()
        .filter(|f| is_macro(f) && f.calls.is_empty())
        .map(|f| Name::clone(&f.qualified))
        .collect();
    loop {
        let before = handlers.len();
        for f in fns
            .iter_mut()
            .filter(|f| is_macro(f) && !f.calls.is_empty())
        {
            if f.calls.iter().any(|c| handlers.contains(c)) {
                f.calls = Box::default();
                handlers.push(Name::clone(&f.qualified));
            }
        }
        if handlers.len() == before {
            break;
        }
    }
    fns.retain(|f| !is_macro(f) || f.calls.is_empty());
}

/// Tokens of a macro that are read at most.
const MAX_MACRO_TOKENS: usize = 4096;

/// The pseudo-function of a macro definition or an item-level macro call at token `i`
/// (the macro's name, followed by `!`).
fn macro_node(src: &[u8], toks: &[Token], i: usize) -> Option<FnNode> {
    let text = |t: &Token| String::from_utf8_lossy(t.text(src)).into_owned();
    let is_def = toks[i].is_ident(src, "macro_rules");
    let (name, open) = if is_def {
        (text(toks.get(i + 2)?), i + 3)
    } else {
        (text(&toks[i]), i + 2)
    };
    if !toks
        .get(open)
        .is_some_and(|t| t.is_punct(b'(') || t.is_punct(b'{') || t.is_punct(b'['))
    {
        return None;
    }
    let mut depth = 0usize;
    let mut end = open;
    for (k, t) in toks.iter().enumerate().skip(open).take(MAX_MACRO_TOKENS) {
        match t.kind {
            Tok::Punct(b'(') | Tok::Punct(b'{') | Tok::Punct(b'[') => depth += 1,
            Tok::Punct(b')') | Tok::Punct(b'}') | Tok::Punct(b']') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    end = k;
                    break;
                }
            }
            _ => {}
        }
    }
    let body = toks.get(open + 1..end)?;
    let node = |name: String, qualified: String, calls: Vec<Name>| FnNode {
        name: intern(&name),
        qualified: intern(&qualified),
        span: Span::new(toks[i].start as usize, toks[i].end as usize),
        calls: calls.into_boxed_slice(),
        entry: None,
        test: false,
        main: false,
        starts_server: false,
        loop_calls: Box::default(),
        impl_trait: None,
        returns: None,
        self_only: Box::default(),
        owner: None,
    };
    if is_def {
        let starts_lambda = body.iter().any(|t| {
            t.kind == Tok::Ident
                && matches!(
                    t.text(src),
                    b"service_fn" | b"handler_fn" | b"lambda_runtime" | b"lambda_http"
                )
        });
        if starts_lambda {
            return Some(node(
                format!("{ENTRY_MACRO_PREFIX}{name}"),
                name,
                Vec::new(),
            ));
        }
        // A wrapper (`lambda_main!` expanding to `$crate::lambda_main_internal!(..)`):
        // the macros it invokes, kept only if one of them is a handler macro of this
        // file ([`wrapper_macros`]).
        let invoked: Vec<Name> = body
            .windows(2)
            .filter(|w| w[0].kind == Tok::Ident && w[1].is_punct(b'!'))
            .map(|w| intern(&text(&w[0])))
            .collect();
        return (!invoked.is_empty())
            .then(|| node(format!("{ENTRY_MACRO_PREFIX}{name}"), name, invoked));
    }
    // What the call hands over: a bare function name (`lambda_main!(list_all)`), or a
    // function it defines (`fn export`).
    let mut calls = Vec::new();
    for (k, t) in body.iter().enumerate() {
        if t.kind != Tok::Ident {
            continue;
        }
        let prev = k.checked_sub(1).map(|p| body[p]);
        let next = body.get(k + 1);
        let defined = prev.is_some_and(|p| p.is_ident(src, "fn"));
        // `lambda_main!(async handler, ..)`: a leading `async`/`sync` word says how
        // the macro calls the handler that follows it.
        let mode =
            k == 1 && prev.is_some_and(|p| p.is_ident(src, "async") || p.is_ident(src, "sync"));
        let bare = (mode || prev.is_none_or(|p| p.is_punct(b',') || p.is_punct(b'>')))
            && next.is_none_or(|n| n.is_punct(b','));
        if defined || bare {
            calls.push(intern(&text(t)));
        }
    }
    calls.sort();
    calls.dedup();
    (!calls.is_empty()).then(|| node(format!("{MACRO_CALL_PREFIX}{name}"), name, calls))
}

/// Iterator adaptors whose closure runs once per element.
const ITER_ADAPTORS: &[&str] = &[
    "map",
    "for_each",
    "then",
    "and_then",
    "filter_map",
    "flat_map",
    "for_each_concurrent",
    "try_for_each",
    "try_for_each_concurrent",
];

/// How many tokens of an adaptor's closure are read.
const MAX_ADAPTOR_TOKENS: usize = 2048;

/// At `.map(` (an iterator adaptor) given a closure that awaits or builds a future:
/// the index of the adaptor call's closing `)`.
fn async_adaptor(src: &[u8], toks: &[Token], i: usize) -> Option<usize> {
    let t = toks[i];
    // The list last: every method call of every file is asked.
    let is_adaptor = i > 0
        && toks[i - 1].is_punct(b'.')
        && toks.get(i + 1).is_some_and(|n| n.is_punct(b'('))
        && ITER_ADAPTORS.iter().any(|a| a.as_bytes() == t.text(src));
    if !is_adaptor {
        return None;
    }
    let mut j = i + 2;
    while toks.get(j).is_some_and(|t| t.is_ident(src, "move")) {
        j += 1;
    }
    if !toks.get(j).is_some_and(|t| t.is_punct(b'|')) {
        return None;
    }
    let mut depth = 0usize;
    let mut awaits = false;
    for (k, t) in toks.iter().enumerate().skip(i + 1).take(MAX_ADAPTOR_TOKENS) {
        match t.kind {
            Tok::Punct(b'(') | Tok::Punct(b'{') | Tok::Punct(b'[') => depth += 1,
            Tok::Punct(b')') | Tok::Punct(b'}') | Tok::Punct(b']') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return awaits.then_some(k);
                }
            }
            Tok::Ident if t.is_ident(src, "async") || t.is_ident(src, "await") => awaits = true,
            _ => {}
        }
    }
    None
}

/// How many tokens of a closure handler are read for its calls: a handler closure
/// delegates in a line or two; a long body is read no further.
const MAX_CLOSURE_TOKENS: usize = 400;

/// The functions a closure handler right after a call's `(` calls:
/// `service_fn(|event| get_products(&store, event))`, `get(|s| async move { list(s).await })`.
fn closure_calls(src: &[u8], toks: &[Token], open: usize) -> Vec<String> {
    let mut out = Vec::new();
    if !toks.get(open).is_some_and(|t| t.is_punct(b'(')) {
        return out;
    }
    let mut j = open + 1;
    while toks
        .get(j)
        .is_some_and(|t| t.is_ident(src, "move") || t.is_ident(src, "async"))
    {
        j += 1;
    }
    if !toks.get(j).is_some_and(|t| t.is_punct(b'|')) {
        return out;
    }
    let mut depth = 0usize;
    for k in open..toks.len().min(open + MAX_CLOSURE_TOKENS) {
        let t = toks[k];
        match t.kind {
            Tok::Punct(b'(') | Tok::Punct(b'{') | Tok::Punct(b'[') => depth += 1,
            Tok::Punct(b')') | Tok::Punct(b'}') | Tok::Punct(b']') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            Tok::Ident if toks.get(k + 1).is_some_and(|n| n.is_punct(b'(')) => {
                let w = String::from_utf8_lossy(t.text(src)).into_owned();
                if !not_a_call(&w) && !out.contains(&w) {
                    out.push(w);
                }
            }
            _ => {}
        }
    }
    out
}

/// The handler named in `(path::to::handler)` or `(handler)` right after a call's `(`.
fn handler_after(src: &[u8], toks: &[Token], open: usize) -> Option<String> {
    if !toks.get(open)?.is_punct(b'(') {
        return None;
    }
    let mut j = open + 1;
    let mut last = None;
    while let Some(t) = toks.get(j) {
        match t.kind {
            Tok::Ident => last = Some(String::from_utf8_lossy(t.text(src)).into_owned()),
            Tok::Punct(b':') => {}
            Tok::Punct(b')') | Tok::Punct(b',') => break,
            _ => return None,
        }
        j += 1;
    }
    last
}
