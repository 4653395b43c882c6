//! Files parsed only when the link asks for a name they may define.
//!
//! A file the byte pre-filter rules out holds no request; it is parsed (its items
//! only) for what other files' requests may look up in it by name: a constant naming
//! a table, a struct's field types, a function's return, a constructor's field
//! values, a call passing a parameter on. On the 1x real tree those parses were
//! about half of `check`, and few of them are ever looked up. Indexed lean (`check`,
//! which can read a file again), such a file keeps instead the hashes of its
//! identifiers and of the names its items define ([`Deferred`]); the link records each
//! lookup it makes ([`Lookup`]) and parses, then links again with, the deferred files
//! that hold every name of one, in a crate that can answer it (the link keeps only
//! what the looking file's crate sees, or for a parameter's callers, the crates that
//! see its function). An item a file defines is named by its tokens (and its module
//! path), and a call by its callee's name followed by `(`, so the files parsed are a
//! superset of those that could answer: the findings are what parsing every file
//! gives.
//!
//! Not deferred: a file that sets a `OnceLock`/`OnceCell` (`.set(`, `.get_or_init(`):
//! the link reads every such set, not by name.

// Looked up once per name of every deferred file in each round: foldhash, as
// `names.rs` explains.
use foldhash::{HashMap, HashSet};

use crate::scanner::syntax::lex::{Tok, Token};
use crate::scanner::syntax::names::Name;

/// A name, hashed (a collision only parses a file for nothing); never `0`.
pub type NameHash = u32;

/// One lookup the link made in its tables, as the names a file that can answer it
/// holds. `0`: no name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lookup {
    /// An item (`fn`, `const`, `static`, `struct`) named `defined` (what the table
    /// is keyed by), inside a module or impl named `scope`, in a file that also
    /// holds `named`.
    Item {
        defined: NameHash,
        scope: NameHash,
        named: NameHash,
    },
    /// A struct expression `Type { field: .. }`: both names in the file.
    Named(NameHash, NameHash),
    /// A call of `function` that may pass on a parameter: a path or plain call
    /// (`f(..)`, `Type::f(..)`), or, for a method of `self_ty`, also a method call
    /// (`x.f(..)`, whose receiver's type may be unknown). See `args::key_calls`.
    Call {
        function: NameHash,
        self_ty: NameHash,
    },
}

/// Lookups a link made (what a file's results read, to link it again).
pub type Looked = HashSet<Lookup>;

/// The lookups a link made, each with the crate (`Crates::of`) of a file it was made
/// for: only a deferred file that crate can use the answer of is parsed for it.
pub type Wanted = HashSet<(Lookup, u32)>;

/// A deferred file's names, hashed, each list sorted and without repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deferred {
    /// Identifiers not after a `.`.
    plain: Box<[NameHash]>,
    /// Identifiers after a `.` (fields, methods).
    dotted: Box<[NameHash]>,
    /// Of `plain`, those called (`f(..)`, `T::f(..)`, `f::<T>(..)`), not defined
    /// (`fn f(..)`): the only way a call site names its callee.
    called: Box<[NameHash]>,
    /// Of `dotted`, those called as methods (`x.f(..)`, `x.f::<T>(..)`).
    methods: Box<[NameHash]>,
    /// The names its items define (the identifier after `fn`, `const`, `struct`...).
    defined: Box<[NameHash]>,
    /// What an item's path can hold before its name: the module path its file's
    /// place gives it, inline `mod`s and traits, and the identifiers of `impl`
    /// headers.
    scopes: Box<[NameHash]>,
}

/// The hash of a name (FNV-1a), never `0`; `r#type` is `type` (the tokens split it).
pub fn name_hash(name: &[u8]) -> NameHash {
    let name = name.strip_prefix(b"r#").unwrap_or(name);
    let mut h: u32 = 0x811c_9dc5;
    for b in name {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h.max(1)
}

/// The hash of a name, `0` for none.
pub fn hash(name: Option<&str>) -> NameHash {
    name.map_or(0, |n| name_hash(n.as_bytes()))
}

/// [`Lookup::Item`].
pub fn item(defined: &str, scope: Option<&str>, named: Option<&str>) -> Lookup {
    Lookup::Item {
        defined: hash(Some(defined)),
        scope: hash(scope),
        named: hash(named),
    }
}

/// The methods whose calls set a `OnceLock`/`OnceCell` (see `returns::once_sets`).
const ONCE_SETTERS: [&[u8]; 3] = [b"set", b"get_or_init", b"get_or_try_init"];

/// The keywords before the name of an item the link looks up.
const DEFINING: [&[u8]; 9] = [
    b"fn", b"const", b"static", b"struct", b"enum", b"union", b"type", b"trait", b"mod",
];

/// A file's names, or `None` when it must be parsed now (it sets a static the link
/// reads without a name). `module`: the module path its file's place gives it.
pub fn defer(src: &[u8], tokens: &[Token], module: &[Name]) -> Option<Deferred> {
    let mut plain: Vec<NameHash> = Vec::new();
    let mut dotted: Vec<NameHash> = Vec::new();
    let mut called: Vec<NameHash> = Vec::new();
    let mut methods: Vec<NameHash> = Vec::new();
    let mut defined: Vec<NameHash> = Vec::new();
    let mut scopes: Vec<NameHash> = module.iter().map(|m| name_hash(m.as_bytes())).collect();
    let mut after_dot = false;
    // The last token was `fn`, `const`, ... (or `ref`/`mut` after `static`).
    let mut after_keyword: Option<&[u8]> = None;
    let mut in_impl_header = false;
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != Tok::Ident {
            if t.is_punct(b'{') || t.is_punct(b';') {
                in_impl_header = false;
            }
            after_keyword = None;
            after_dot = t.is_punct(b'.');
            continue;
        }
        let text = t.text(src);
        if after_dot && ONCE_SETTERS.contains(&text) {
            return None;
        }
        let h = name_hash(text);
        // A call's callee is followed by its arguments or a turbofish; a macro's name
        // by `!` (the parse sees some as calls: `format!(..)`, see `shadow_text`).
        let punct = |k: usize, c: u8| tokens.get(i + k).is_some_and(|n| n.is_punct(c));
        let call = punct(1, b'(')
            || punct(1, b'!')
            || (punct(1, b':') && punct(2, b':') && punct(3, b'<'));
        if after_dot {
            dotted.push(h);
            if call {
                methods.push(h);
            }
        } else {
            plain.push(h);
            if call && after_keyword != Some(b"fn".as_slice()) {
                called.push(h);
            }
        }
        if let Some(keyword) = after_keyword {
            defined.push(h);
            if matches!(keyword, b"mod" | b"trait") {
                scopes.push(h);
            }
        }
        if in_impl_header {
            scopes.push(h);
        }
        in_impl_header |= text == b"impl";
        after_keyword = match after_keyword {
            // `static ref X` (lazy_static), `static mut X`: the name comes after.
            Some(k) if matches!(text, b"ref" | b"mut") => Some(k),
            _ => DEFINING.iter().find(|k| **k == text).copied(),
        };
        after_dot = false;
    }
    let set = |mut v: Vec<NameHash>| {
        v.sort_unstable();
        v.dedup();
        v.into_boxed_slice()
    };
    Some(Deferred {
        plain: set(plain),
        dotted: set(dotted),
        called: set(called),
        methods: set(methods),
        defined: set(defined),
        scopes: set(scopes),
    })
}

/// [`Wanted`] by the first name a file must hold (an item's defined name, a struct
/// expression's type, a called function), for one look at each deferred file's names
/// in turn: each lookup once, with the crates it was made for.
#[derive(Default)]
pub struct Asked(HashMap<NameHash, Vec<(Lookup, Vec<u32>)>>);

impl Asked {
    pub fn new(wanted: &Wanted) -> Self {
        let mut by_lookup: HashMap<Lookup, Vec<u32>> = HashMap::default();
        for (l, from) in wanted {
            by_lookup.entry(*l).or_default().push(*from);
        }
        let mut asked = Asked::default();
        for (l, from) in by_lookup {
            let key = match l {
                Lookup::Item { defined, .. } => defined,
                Lookup::Named(a, _) => a,
                Lookup::Call { function, .. } => function,
            };
            asked.0.entry(key).or_default().push((l, from));
        }
        asked
    }
}

impl Deferred {
    /// Whether the file holds every name of one lookup `asked` made (the lookups keyed
    /// by one of its names, each judged by [`Deferred::answers_one`]) for a crate that
    /// can use its answer: `usable(lookup, crate)`.
    pub fn answers(&self, asked: &Asked, usable: impl Fn(&Lookup, u32) -> bool) -> bool {
        [&self.defined, &self.plain, &self.dotted, &self.scopes]
            .iter()
            .flat_map(|list| list.iter())
            .filter_map(|h| asked.0.get(h))
            .any(|lookups| {
                lookups
                    .iter()
                    .any(|(l, from)| self.answers_one(l) && from.iter().any(|c| usable(l, *c)))
            })
    }

    /// Whether the file holds every name of `lookup`. `Call` as `args::key_calls`
    /// matches: a path or plain call matches a free function, or a method of a type
    /// the file names; a method call matches any method.
    pub fn answers_one(&self, lookup: &Lookup) -> bool {
        let holds = |list: &[NameHash], h: NameHash| list.binary_search(&h).is_ok();
        let has = |h: NameHash| {
            h == 0 || holds(&self.plain, h) || holds(&self.dotted, h) || holds(&self.scopes, h)
        };
        match *lookup {
            Lookup::Item {
                defined,
                scope,
                named,
            } => {
                holds(&self.defined, defined)
                    && (scope == 0 || holds(&self.scopes, scope))
                    && has(named)
            }
            Lookup::Named(a, b) => {
                (holds(&self.plain, a) || holds(&self.dotted, a) || holds(&self.scopes, a))
                    && has(b)
            }
            Lookup::Call { function, self_ty } => {
                (holds(&self.called, function) && has(self_ty))
                    || (holds(&self.methods, function) && self_ty != 0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::syntax::lex::tokenize;
    use crate::scanner::syntax::names::intern;

    fn deferred(code: &str) -> Option<Deferred> {
        defer(
            code.as_bytes(),
            &tokenize(code.as_bytes()),
            &[intern("store")],
        )
    }

    fn asks(d: &Deferred, lookups: &[Lookup]) -> bool {
        let wanted = lookups.iter().map(|l| (*l, 0)).collect();
        d.answers(&Asked::new(&wanted), |_, _| true)
    }

    fn call(function: &str, self_ty: Option<&str>) -> Lookup {
        Lookup::Call {
            function: hash(Some(function)),
            self_ty: hash(self_ty),
        }
    }

    fn named(a: &str, b: &str) -> Lookup {
        Lookup::Named(hash(Some(a)), hash(Some(b)))
    }

    #[test]
    fn a_file_answers_what_its_items_define() {
        let code = "pub const ORDERS: &str = \"Orders\";\n\
                    struct Repo { table: String }\n\
                    impl<T: Into<String>> Repo { pub fn new() -> Self { Self { table: ORDERS.into() } } }\n\
                    mod inner { pub fn helper() {} }\n\
                    fn run() { let r = Repo::new(); save(r.table); r.put(1); }\n";
        let d = deferred(code).expect("deferred");
        assert!(asks(&d, &[item("ORDERS", None, None)]));
        assert!(asks(&d, &[item("ORDERS", Some("store"), None)]), "module");
        assert!(asks(&d, &[item("Repo", None, Some("table"))]));
        assert!(asks(&d, &[item("new", Some("Repo"), None)]), "impl type");
        assert!(
            asks(&d, &[item("helper", Some("inner"), None)]),
            "inline module"
        );
        assert!(
            !asks(&d, &[item("new", Some("User"), None)]),
            "not the impl's type"
        );
        assert!(
            !asks(&d, &[item("new", Some("ORDERS"), None)]),
            "not a scope"
        );
        assert!(
            !asks(&d, &[item("save", None, None)]),
            "called, not defined"
        );
        assert!(!asks(&d, &[item("Orders", None, None)]), "a string");
        assert!(asks(&d, &[named("Repo", "table")]));
        assert!(!asks(&d, &[named("Repo", "name")]));
        assert!(!asks(&d, &[]));
        let many = [named("Repo", "name"), item("run", None, None)];
        assert!(asks(&d, &many));
    }

    #[test]
    fn a_call_is_found_as_args_matches_it() {
        let d = deferred("fn run(c: &C) { save(c); Repo::new(c); c.put(1); }").expect("deferred");
        assert!(asks(&d, &[call("save", None)]), "a free function");
        assert!(asks(&d, &[call("new", Some("Repo"))]), "a path call");
        assert!(!asks(&d, &[call("new", Some("Store"))]), "another type's");
        assert!(
            asks(&d, &[call("put", Some("Store"))]),
            "a method call, any type"
        );
        assert!(
            !asks(&d, &[call("put", None)]),
            "a method is not a free function"
        );
    }

    /// A call lookup is answered only by a call: not by the function's definition, a
    /// module of its name or a mention of it as a value.
    #[test]
    fn a_call_lookup_needs_a_call() {
        let free = call("create_table", None);
        let method = call("create_table", Some("Store"));
        for code in [
            "async fn create_table(c: &C) { c.create_table(i).await }",
            "use dynamo::{create_table::CreateTableError, x};",
            "fn f() { let g = create_table; g(1); }",
        ] {
            let d = deferred(code).expect("deferred");
            assert!(!asks(&d, &[free]), "{code}");
        }
        for code in [
            "fn f() { create_table(1) }",
            "fn f() { ops::create_table::<T>(1) }",
            "fn f() { create_table /* c */ (1) }",
            "fn f() { create_table!(1) }",
        ] {
            let d = deferred(code).expect("deferred");
            assert!(asks(&d, &[free]), "{code}");
        }
        let d = deferred("fn create_table() { s.create_table; }").expect("deferred");
        assert!(!asks(&d, &[method]), "a field, not a call");
        let d = deferred("fn f() { s.create_table::<T>(1); }").expect("deferred");
        assert!(asks(&d, &[method]), "a method call with a turbofish");
    }

    /// A lookup is answered only for a crate that can use the answer.
    #[test]
    fn a_lookup_counts_for_the_crates_it_was_made_for() {
        let d = deferred("pub const ORDERS: &str = \"Orders\";").expect("deferred");
        let wanted: Wanted = [(item("ORDERS", None, None), 3), (named("X", "y"), 4)]
            .into_iter()
            .collect();
        let asked = Asked::new(&wanted);
        assert!(d.answers(&asked, |_, c| c == 3));
        assert!(!d.answers(&asked, |_, c| c != 3), "crate 3 cannot use it");
    }

    /// Every call a parse records the arguments of (`args::arg_sites`) is one whose
    /// callee the deferred names hold as called: a file that could answer a call
    /// lookup is never left unparsed.
    #[test]
    fn every_call_site_a_parse_finds_is_a_called_name() {
        let code = r#"
            impl Store { fn new(t: &str) -> Self { Self::open("a") } }
            fn f(x: X) {
                plain("a"); Store::new("a"); a::b::path("a"); turbo::<u8>("a");
                Vec::<u8>::with("a"); <T as Tr>::qualified("a"); x.method("a");
                x.turbo_method::<u8>("a"); x.await_it().chained("a")?; Tuple("a");
                spaced /* c */ ("a"); r#type("a"); vec![inner("a")];
                format!("{}", in_macro("a")); hashmap!{"k" => in_map("a")};
                anyhow!("{}", bailing("a"));
            }
        "#;
        let path: crate::source::FilePath = std::sync::Arc::from(std::path::Path::new("a.rs"));
        let settings = crate::scanner::ScanSettings::default();
        let idx = crate::scanner::index::index_source(&path, &code.into(), &settings, true);
        let d = deferred(code).expect("deferred");
        assert!(idx.arg_sites.len() >= 18, "{:?}", idx.arg_sites);
        for site in &idx.arg_sites {
            let h = name_hash(site.callee.as_bytes());
            let list = if site.method { &d.methods } else { &d.called };
            assert!(list.binary_search(&h).is_ok(), "{site:?}");
        }
    }

    #[test]
    fn a_file_that_sets_a_once_lock_is_parsed_now() {
        assert!(deferred("fn f() { TABLE.set(name()).ok(); }").is_none());
        assert!(deferred("fn f() { TABLE.get_or_init(|| x()) }").is_none());
        assert!(deferred("fn set() {} fn f() { set(); }").is_some());
    }

    #[test]
    fn names_after_ref_mut_and_raw_identifiers_count() {
        let d = deferred(
            "lazy_static! { static ref TABLE: String = x(); }\n\
             static mut COUNT: u32 = 0;\n\
             struct S { r#type: String }\n",
        )
        .expect("deferred");
        assert!(asks(&d, &[item("TABLE", None, None)]));
        assert!(asks(&d, &[item("COUNT", None, None)]));
        assert!(asks(&d, &[item("S", None, Some("type"))]));
        assert!(asks(&d, &[item("S", None, Some("r#type"))]));
    }

    /// `answers_one` is `answers` of a single lookup.
    #[test]
    fn one_lookup_is_answered_as_a_set_of_one_is() {
        let code = "pub const ORDERS: &str = \"Orders\";\n\
                    struct Repo { table: String }\n\
                    impl Repo { pub fn new() -> Self { Self { table: ORDERS.into() } } }\n\
                    mod inner { pub fn helper() {} }\n\
                    fn run() { let r = Repo::new(); save(r.table); r.put(1); }\n";
        let d = deferred(code).expect("deferred");
        let names = [
            None,
            Some("ORDERS"),
            Some("Repo"),
            Some("table"),
            Some("new"),
            Some("inner"),
            Some("helper"),
            Some("run"),
            Some("save"),
            Some("put"),
            Some("store"),
            Some("User"),
        ];
        let mut seen = 0;
        for a in names {
            for b in names {
                for c in names {
                    let (ha, hb, hc) = (hash(a), hash(b), hash(c));
                    let mut lookups = vec![
                        Lookup::Named(ha, hb),
                        Lookup::Call {
                            function: ha,
                            self_ty: hb,
                        },
                    ];
                    if a.is_some() {
                        lookups.push(Lookup::Item {
                            defined: ha,
                            scope: hb,
                            named: hc,
                        });
                    }
                    for l in lookups {
                        let one = d.answers_one(&l);
                        assert_eq!(one, asks(&d, &[l]), "{a:?} {b:?} {c:?} {l:?}");
                        seen += usize::from(one);
                    }
                }
            }
        }
        assert!(seen > 0);
    }
}
