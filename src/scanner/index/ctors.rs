//! Associated functions that return a value of their own type: `impl User { fn new(..)
//! -> Result<Self, String> }`. A local bound by `let user = User::new(..)?` then holds a
//! `User` for certain, so `user.to_item()` is `User::to_item`. The declared return type
//! decides, never the function's name: a `User::builder()` returning `UserBuilder` is
//! not one.

use tree_sitter::Node;

use crate::scanner::index::resolve::{impl_type, type_name};
use crate::scanner::syntax::nodes::{ancestors, field, Src};

/// `(type, function, wrapped)` for each such function of the file: `wrapped` when the
/// value comes inside a `Result`/`Option`, which the caller must unwrap.
pub fn self_constructors(src: Src<'_>, nodes: &[Node<'_>]) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    let function_k = crate::scanner::syntax::nodes::kind_id("function_item");
    for f in nodes.iter().filter(|n| n.kind_id() == function_k) {
        let (Some(name), Some(ret)) = (field(*f, "name"), field(*f, "return_type")) else {
            continue;
        };
        // A fn inside a fn body is local to it; one outside an `impl` has no type.
        if ancestors(src, *f).any(|a| a.kind() == "function_item") {
            continue;
        }
        let Some(ty) = impl_type(src, *f) else {
            continue;
        };
        if let Some(wrapped) = returns_own_type(src.of(ret), &ty) {
            out.push((ty, src.of(name).to_string(), wrapped));
        }
    }
    out
}

/// `Some(false)` for `Self` or the impl's own type, `Some(true)` for a `Result` or an
/// `Option` of it (any `Result` alias: its first argument is the value), else `None`.
fn returns_own_type(ret: &str, ty: &str) -> Option<bool> {
    let ret: String = ret.chars().filter(|c| !c.is_whitespace()).collect();
    let own = |t: &str| t == "Self" || type_name(t) == ty && !t.contains('<');
    if own(&ret) {
        return Some(false);
    }
    let open = ret.find('<')?;
    let outer = ret[..open].rsplit("::").next().unwrap_or("");
    if !matches!(outer, "Result" | "Option") || !ret.ends_with('>') {
        return None;
    }
    let inner = &ret[open + 1..ret.len() - 1];
    let first = first_argument(inner);
    own(first).then_some(true)
}

/// The first top-level argument of a generic argument list (`Self, Error<A, B>`).
fn first_argument(args: &str) -> &str {
    let mut depth = 0usize;
    for (i, c) in args.char_indices() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => return &args[..i],
            _ => {}
        }
    }
    args
}

#[cfg(test)]
mod tests {
    use super::returns_own_type;

    #[test]
    fn own_type_returns() {
        for (ret, want) in [
            ("Self", Some(false)),
            ("User", Some(false)),
            ("crate::models::User", Some(false)),
            ("Result<Self, String>", Some(true)),
            ("anyhow::Result<Self>", Some(true)),
            ("Option<User>", Some(true)),
            ("Result<Box<Self>, E>", None),
            ("UserBuilder", None),
            ("Result<Vec<Self>, E>", None),
            ("Result<(Self, u32), E>", None),
            ("impl Future<Output = Self>", None),
        ] {
            assert_eq!(returns_own_type(ret, "User"), want, "{ret}");
        }
    }
}
