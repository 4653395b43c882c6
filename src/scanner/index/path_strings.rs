//! The texts a local string can have when the code appends to it on some paths only:
//! `let mut kc = "pk = :pk".to_string(); if let Some(s) = since { kc.push_str(" AND
//! sk >= :s"); }` is `pk = :pk` on one path and `pk = :pk AND sk >= :s` on the other.
//! An expression built so is judged once per path instead of left unknown.

use tree_sitter::Node;

use super::resolve::{copied_value, FileCx};
use crate::scanner::syntax::nodes::{call_args, field, method_call, named_children, peel};
use crate::scanner::syntax::scope::{lookup, Binding};

/// Past this many paths the string stays unknown.
const MAX_PATHS: usize = 16;

/// Whether a file's text may build a string per path at all: every path's text is
/// appended by `push_str` or `+=` (`appended`), so a text with neither has none, and
/// the link need not parse it again to ask.
pub fn may_append(text: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), b"push_str").is_some()
        || memchr::memmem::find(text.as_bytes(), b"+=").is_some()
}

impl FileCx<'_> {
    /// Every text the local string `node` can have where it is used, one per path
    /// through the `if`s and `match`es between its `let` and the use that append to
    /// it. Empty when it is not built so, when a part's text is not known, when it is
    /// changed in any other way (in a loop or a closure, reassigned, lent as `&mut`,
    /// written by a macro), or past [`MAX_PATHS`]. An arm that leaves the function
    /// (`return`, `continue`, `break`, a panic) is no path to the use.
    pub(super) fn path_strings(&self, node: Node<'_>) -> Box<[String]> {
        self.paths_of(node).unwrap_or_default().into_boxed_slice()
    }

    fn paths_of(&self, node: Node<'_>) -> Option<Vec<String>> {
        let src = self.src;
        let node = peel(node);
        if node.kind() != "identifier" {
            return None;
        }
        let name = src.of(node);
        let Binding::Let {
            decl,
            value: Some(value),
            ty,
        } = lookup(src, node, name)?
        else {
            return None;
        };
        let block = src.parent(decl)?;
        if block.kind() != "block" {
            return None;
        }
        let between: Vec<Node<'_>> = named_children(block)
            .into_iter()
            .filter(|s| s.start_byte() >= decl.end_byte() && s.end_byte() <= node.start_byte())
            .collect();
        let changed = between.iter().any(|s| changes(src.of(*s), name));
        // A copy left as it is (`let kc = key_condition.to_owned()`, as a spawned task
        // takes what it reads) has the texts of what it copies (the binding found
        // above is `copy_of`'s: not looked up again).
        let copied = ty
            .is_none()
            .then(|| copied_value(src, value))
            .flatten()
            .filter(|c| c.kind() == "identifier");
        if let Some(copied) = copied {
            return (!changed).then(|| self.paths_of(copied)).flatten();
        }
        // Nothing between appends to it: one path, no texts per path (its value's
        // text is not worth finding).
        if !changed {
            return None;
        }
        let base = self.string(value).value()?.to_string();
        let (suffixes, branched) = self.suffixes(&between, name)?;
        branched.then(|| suffixes.into_iter().map(|s| format!("{base}{s}")).collect())
    }

    /// What the statements append to `name` on each path through them, and whether
    /// they branch at all.
    fn suffixes(&self, statements: &[Node<'_>], name: &str) -> Option<(Vec<String>, bool)> {
        let src = self.src;
        let mut paths = vec![String::new()];
        let mut branched = false;
        for &stmt in statements {
            if !changes(src.of(stmt), name) {
                continue;
            }
            let e = match stmt.kind() {
                "expression_statement" => *named_children(stmt).first()?,
                _ => stmt,
            };
            let added: Vec<String> = match e.kind() {
                "if_expression" | "match_expression" => {
                    branched = true;
                    self.arms(e, name)?
                }
                _ => vec![self.appended(e, name)?],
            };
            paths = paths
                .iter()
                .flat_map(|p| added.iter().map(move |a| format!("{p}{a}")))
                .collect();
            if paths.len() > MAX_PATHS {
                return None;
            }
        }
        Some((paths, branched))
    }

    /// The suffixes each arm of an `if` chain or a `match` appends (an `if` without
    /// `else` has the empty one too).
    fn arms(&self, e: Node<'_>, name: &str) -> Option<Vec<String>> {
        let src = self.src;
        let mut bodies: Vec<Node<'_>> = Vec::new();
        let mut skipped = false;
        match e.kind() {
            "if_expression" => {
                let mut at = e;
                loop {
                    bodies.push(field(at, "consequence")?);
                    let Some(alt) = field(at, "alternative") else {
                        skipped = true;
                        break;
                    };
                    let next = *named_children(alt).first()?;
                    if next.kind() == "if_expression" {
                        at = next;
                    } else {
                        bodies.push(next);
                        break;
                    }
                }
            }
            _ => {
                let arms = field(e, "body")?;
                for arm in named_children(arms) {
                    if arm.kind() == "match_arm" {
                        bodies.push(field(arm, "value")?);
                    }
                }
            }
        }
        let mut out = Vec::new();
        if skipped {
            out.push(String::new());
        }
        for body in bodies {
            if leaves(src.of(body)) {
                continue;
            }
            let statements = match body.kind() {
                "block" => named_children(body),
                _ => vec![body],
            };
            out.extend(self.suffixes(&statements, name)?.0);
        }
        (!out.is_empty()).then_some(out)
    }

    /// What `name.push_str(x)` or `name += x` appends, when its text is known.
    fn appended(&self, e: Node<'_>, name: &str) -> Option<String> {
        let src = self.src;
        let part = match e.kind() {
            "compound_assignment_expr" => {
                let left = field(e, "left")?;
                (src.of(left) == name && src.of(e).contains("+=")).then(|| field(e, "right"))??
            }
            _ => {
                let (recv, m, call) = method_call(src, e)?;
                (src.of(recv) == name && m == "push_str")
                    .then(|| call_args(call).first().copied())??
            }
        };
        Some(self.string(part).value()?.to_string())
    }
}

/// Whether the text changes `name` (or may): anything but reading it.
fn changes(text: &str, name: &str) -> bool {
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut from = 0;
    while let Some(i) = text[from..].find(name).map(|i| i + from) {
        from = i + name.len();
        let before = text[..i].trim_end();
        if i > 0 && word(bytes[i - 1]) || bytes.get(from).is_some_and(|b| word(*b)) {
            continue;
        }
        let after = text[from..].trim_start();
        let mutating_method = [
            ".push",
            ".pop",
            ".truncate",
            ".clear",
            ".insert",
            ".remove",
            ".retain",
            ".drain",
            ".replace_range",
            ".extend",
            ".split_off",
            ".as_mut",
        ]
        .iter()
        .any(|m| after.starts_with(m));
        let assigned =
            after.starts_with("+=") || (after.starts_with('=') && !after.starts_with("=="));
        if mutating_method
            || assigned
            || before.ends_with("&mut")
            || before.ends_with('(') && before.trim_end_matches('(').ends_with('!')
        {
            return true;
        }
    }
    false
}

/// Whether a branch leaves before the code after it: such an arm is no path there.
fn leaves(text: &str) -> bool {
    [
        "return",
        "continue",
        "break",
        "panic!",
        "unreachable!",
        "bail!",
        "todo!",
        "unimplemented!",
    ]
    .iter()
    .any(|w| text.contains(w))
}

#[cfg(test)]
mod tests {
    use super::changes;

    #[test]
    fn reading_is_no_change() {
        assert!(!changes("let q = kc.clone();", "kc"));
        assert!(!changes("if kc == \"a\" {}", "kc"));
        assert!(!changes("kcx.push_str(\"a\");", "kc"));
        assert!(changes("kc.push_str(\" AND b\");", "kc"));
        assert!(changes("kc += \" AND b\";", "kc"));
        assert!(changes("kc = String::new();", "kc"));
        assert!(changes("add(&mut kc);", "kc"));
        assert!(changes("write!(kc, \"x\");", "kc"));
    }
}
