//! The requests an operation makes on the paths through the code that the scanner's
//! `conditional` flags prove exist.
//!
//! The IR holds the union of the paths: an expression or a placeholder set inside an
//! `if` (or a loop, a closure, a `match` arm) is marked `conditional`. What that proves,
//! assuming every such branch can be both taken and skipped, is: for each conditional
//! setter call, a path where it runs and a path where it does not. Nothing is known of
//! how two calls in different statements are correlated (the same `if`, an `if`/`else`
//! pair, or independent), except that calls chained onto one another
//! (`q = q.filter_expression(..).expression_attribute_names(..)`) run together.
//!
//! So a *witness* is one group of setter calls that run together, set or not set; the
//! other conditional parts may be either way on that path. A verdict holds on the
//! witness's path only if it holds for every combination of the others
//! ([`WitnessPaths::requests`] lists them all).

use crate::expr::ExprKind;
use crate::scanner::{Operation, SetterCall};

/// Above this many free parts, the combinations are not enumerated (2^n requests).
const MAX_FREE: usize = 6;

/// One part of a request that a setter call adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Expr(ExprKind),
    Name(String),
    Value(String),
}

/// The requests of one witness: its setter calls set (`present`) or not, and every
/// combination of the other conditional parts.
#[derive(Debug, Clone)]
pub struct WitnessPaths<'a> {
    /// The setter calls that run together (in source order).
    pub setters: Vec<&'a SetterCall>,
    /// Whether the witness's calls run on these paths.
    pub present: bool,
    /// The request on each path: the operation with the absent parts removed.
    pub requests: Vec<Operation>,
}

/// How a part shows up across the paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Presence {
    /// On every path.
    Always,
    /// Set by exactly this conditional setter call (an index into `op.setters`).
    Sometimes(usize),
    /// Set on some paths, by calls that cannot be told apart: either way on any path.
    Unknown,
}

/// The witnesses of an operation with conditional parts; `None` when it has none, or
/// when a path's request cannot be told (an expression set by several calls, some on
/// a branch, has a different text per path) or there are too many combinations.
pub fn witness_paths(op: &Operation) -> Option<Vec<WitnessPaths<'_>>> {
    let parts = presences(op)?;
    let sometimes: Vec<usize> = parts
        .iter()
        .filter_map(|(_, p)| match p {
            Presence::Sometimes(i) => Some(*i),
            _ => None,
        })
        .collect();
    if parts.iter().all(|(_, p)| *p == Presence::Always) {
        return None;
    }
    let groups = groups(op, &sometimes);
    let group_of = |i: usize| groups.iter().position(|g| g.contains(&i));
    let mut out = Vec::new();
    for (g, members) in groups.iter().enumerate() {
        // The free parts: every other group as a whole, and each unknown part.
        let free: Vec<Vec<&Part>> = groups
            .iter()
            .enumerate()
            .filter(|(h, _)| *h != g)
            .map(|(_, other)| {
                parts
                    .iter()
                    .filter(|(_, p)| matches!(p, Presence::Sometimes(i) if other.contains(i)))
                    .map(|(part, _)| part)
                    .collect()
            })
            .chain(
                parts
                    .iter()
                    .filter(|(_, p)| *p == Presence::Unknown)
                    .map(|(part, _)| vec![part]),
            )
            .collect();
        if free.len() > MAX_FREE {
            return None;
        }
        let mine: Vec<&Part> = parts
            .iter()
            .filter(|(_, p)| matches!(p, Presence::Sometimes(i) if group_of(*i) == Some(g)))
            .map(|(part, _)| part)
            .collect();
        for present in [false, true] {
            let mut requests = Vec::new();
            for combo in 0..(1u32 << free.len()) {
                let mut absent: Vec<&Part> = Vec::new();
                if !present {
                    absent.extend(mine.iter().copied());
                }
                for (bit, f) in free.iter().enumerate() {
                    if combo & (1 << bit) == 0 {
                        absent.extend(f.iter().copied());
                    }
                }
                requests.push(without(op, &absent));
            }
            out.push(WitnessPaths {
                setters: members.iter().filter_map(|i| op.setters.get(*i)).collect(),
                present,
                requests,
            });
        }
    }
    Some(out)
}

/// The SDK setter of each expression kind.
fn expr_method(kind: ExprKind) -> &'static str {
    match kind {
        ExprKind::KeyCondition => "key_condition_expression",
        ExprKind::Filter => "filter_expression",
        ExprKind::Condition => "condition_expression",
        ExprKind::Projection => "projection_expression",
        ExprKind::Update => "update_expression",
    }
}

/// Each part of the request with its presence; `None` when a path's request cannot be
/// told.
fn presences(op: &Operation) -> Option<Vec<(Part, Presence)>> {
    let mut out = Vec::new();
    for (kind, arg) in super::request::expression_slots(op) {
        let Some(arg) = arg else { continue };
        let calls: Vec<usize> = indices(op, |s| s.is(expr_method(kind)));
        let presence = match calls.as_slice() {
            // A struct literal (no setter calls): its own flag, when it is set always.
            [] if !arg.conditional => Presence::Always,
            [] => return None,
            [i] if op.setters[*i].conditional => Presence::Sometimes(*i),
            _ if calls.iter().all(|i| !op.setters[*i].conditional) => Presence::Always,
            // Several texts on different paths: the union's text is one of them.
            _ => return None,
        };
        out.push((Part::Expr(kind), presence));
    }
    for (k, n) in &op.names {
        let p = map_presence(op, "expression_attribute_names", k, n.conditional);
        out.push((Part::Name(k.clone()), p));
    }
    for k in op.values.keys() {
        // A value has no flag of its own: a whole-map setter on a branch makes it
        // unknown, else it is set always (as the map's construction shows it).
        let p = map_presence(op, "expression_attribute_values", k, false);
        out.push((Part::Value(k.clone()), p));
    }
    Some(out)
}

/// The presence of entry `key` of a placeholder map; `flagged` is the entry's own
/// conditional flag.
fn map_presence(op: &Operation, method: &str, key: &str, flagged: bool) -> Presence {
    let keyed = indices(op, |s| s.is(method) && s.key.as_deref() == Some(key));
    let whole = indices(op, |s| s.is(method) && s.key.is_none());
    if let ([i], true) = (keyed.as_slice(), whole.is_empty()) {
        return match op.setters[*i].conditional {
            true => Presence::Sometimes(*i),
            false => Presence::Always,
        };
    }
    // Several calls, a whole map, or a struct literal (no calls).
    let unconditional = keyed
        .iter()
        .chain(&whole)
        .all(|i| !op.setters[*i].conditional);
    if unconditional && !flagged {
        Presence::Always
    } else {
        Presence::Unknown
    }
}

fn indices(op: &Operation, f: impl Fn(&SetterCall) -> bool) -> Vec<usize> {
    op.setters
        .iter()
        .enumerate()
        .filter(|(_, s)| f(s))
        .map(|(i, _)| i)
        .collect()
}

/// The conditional setter calls grouped by chaining: a call whose receiver is another
/// conditional call (`q.a(..).b(..)`: `b`'s receiver ends where `a`'s call ends) runs
/// exactly when that one does. Only the groups holding one of `calls` are kept; each
/// lists setter indices in source order.
fn groups(op: &Operation, calls: &[usize]) -> Vec<Vec<usize>> {
    let mut all = indices(op, |s| s.conditional);
    all.sort_by_key(|i| op.setters[*i].span.start);
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in all {
        let start = op.setters[i].removal_span.start;
        let onto = groups
            .iter_mut()
            .find(|g| g.iter().any(|j| op.setters[*j].span.end == start));
        match onto {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups.retain(|g| g.iter().any(|i| calls.contains(i)));
    groups
}

/// The operation without the given parts.
fn without(op: &Operation, absent: &[&Part]) -> Operation {
    let mut out = op.clone();
    for part in absent {
        match part {
            Part::Expr(kind) => {
                let slot = match kind {
                    ExprKind::KeyCondition => &mut out.key_condition,
                    ExprKind::Filter => &mut out.filter,
                    ExprKind::Condition => &mut out.condition,
                    ExprKind::Projection => &mut out.projection,
                    ExprKind::Update => &mut out.update,
                };
                *slot = None;
            }
            Part::Name(k) => {
                out.names.shift_remove(k);
            }
            Part::Value(k) => {
                out.values.shift_remove(k);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::{ExprArg, OpKind, Resolved, ValueInfo};
    use crate::source::Span;
    use std::path::Path;

    /// A setter call at `at..at+10`, chained onto whatever ends at `at`.
    fn setter(method: &str, key: Option<&str>, at: usize, conditional: bool) -> SetterCall {
        SetterCall {
            method: method.into(),
            key: key.map(str::to_string),
            span: Span::new(at + 1, at + 10),
            removal_span: Span::new(at, at + 10),
            conditional,
            lead: String::new(),
        }
    }

    fn scan() -> Operation {
        Operation::new(OpKind::Scan, Path::new("a.rs").into(), Span::new(0, 5))
    }

    fn filter(op: &mut Operation, text: &str, conditional: bool) {
        op.filter = Some(Box::new(ExprArg {
            text: Resolved::literal(text),
            span: Span::default(),
            literal_start: None,
            conditional,
            paths: Box::default(),
        }));
    }

    fn value(op: &mut Operation, k: &str) {
        op.values
            .insert(k.into(), ValueInfo::unknown(Span::default()));
    }

    #[test]
    fn unconditional_requests_have_no_witnesses() {
        let mut op = scan();
        filter(&mut op, "a = :a", false);
        value(&mut op, ":a");
        op.setters = vec![
            setter("filter_expression", None, 10, false),
            setter("expression_attribute_values", Some(":a"), 20, false),
        ];
        assert!(witness_paths(&op).is_none());
    }

    #[test]
    fn a_conditional_filter_is_absent_on_one_path_and_present_on_another() {
        let mut op = scan();
        filter(&mut op, "a = :a", true);
        value(&mut op, ":a");
        op.setters = vec![
            setter("expression_attribute_values", Some(":a"), 10, false),
            setter("filter_expression", None, 100, true),
        ];
        let w = witness_paths(&op).unwrap();
        assert_eq!(w.len(), 2);
        assert!(!w[0].present && w[0].requests.len() == 1);
        assert!(w[0].requests[0].filter.is_none());
        assert!(w[0].requests[0].values.contains_key(":a"));
        assert!(w[1].requests[0].filter.is_some());
    }

    #[test]
    fn chained_calls_run_together_and_separate_statements_are_free() {
        let mut op = scan();
        filter(&mut op, "a = :a", true);
        value(&mut op, ":a");
        // `q = q.filter_expression(..).expression_attribute_values(":a", ..)`: one group.
        op.setters = vec![
            setter("filter_expression", None, 100, true),
            setter("expression_attribute_values", Some(":a"), 110, true),
        ];
        let w = witness_paths(&op).unwrap();
        assert_eq!(w.len(), 2);
        assert_eq!(w[0].setters.len(), 2);
        assert!(w[0].requests[0].filter.is_none() && w[0].requests[0].values.is_empty());
        // In two statements: each is a witness with the other free.
        op.setters[1] = setter("expression_attribute_values", Some(":a"), 300, true);
        let w = witness_paths(&op).unwrap();
        assert_eq!(w.len(), 4);
        assert!(w.iter().all(|w| w.requests.len() == 2));
    }

    #[test]
    fn an_expression_set_on_two_branches_has_no_single_text() {
        let mut op = scan();
        filter(&mut op, "a = :a", true);
        op.setters = vec![
            setter("filter_expression", None, 100, true),
            setter("filter_expression", None, 200, true),
        ];
        assert!(witness_paths(&op).is_none());
    }
}
