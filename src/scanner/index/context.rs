//! Where a call sits: its enclosing function (qualified by the impl), the loop around
//! it, and the marks that make it cold (tests, benches, examples, build scripts).

use std::borrow::Cow;
use std::path::Path;

use tree_sitter::Node;

use crate::scanner::ir::{ColdReason, LoopInfo};
// Kinds by id from a table: `Node::kind` costs a `strlen` and a UTF-8 check per call,
// and these climbs and walks ask it of millions of nodes in a large file.
use crate::scanner::index::resolve::{type_name, FileCx};
use crate::scanner::syntax::nodes::{
    ancestors, call_path, descendants, descendants_after, field, kind_id, last_segment,
    method_call, named_children, peel, span, type_segment, Src,
};
use crate::scanner::syntax::parse::kind as node_kind;
use crate::source::Span;

/// Iterator and stream adaptors whose closure runs once per element.
const ADAPTORS: &[&str] = &[
    "for_each",
    "try_for_each",
    "map",
    "then",
    "and_then",
    "filter_map",
    "flat_map",
    "for_each_concurrent",
    "try_for_each_concurrent",
    "fold",
    "try_fold",
    "filter",
];

/// Calls that run a collection of futures: each element makes its own request.
const JOINERS: &[&str] = &[
    "join_all",
    "try_join_all",
    "select_all",
    "from_iter",
    "buffer_unordered",
    "buffered",
    "collect",
];

/// The qualified name of the function around `node`: `OrderRepo::list_open`.
#[cfg(test)]
pub fn enclosing_function(src: Src<'_>, node: Node<'_>) -> Option<String> {
    let f = ancestors(src, node).find(|a| node_kind(*a) == "function_item")?;
    Some(qualified_fn_name(src, f))
}

/// Where a request sits: what [`enclosing_function`], [`enclosing_loop`] and
/// [`FileCx::is_test_code`] say of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Around {
    pub function: Option<String>,
    pub in_loop: Option<LoopInfo>,
    /// A loop around it pages through a read (see [`enclosing_loop`]).
    pub paged: bool,
    pub test: bool,
    /// Where the function's body's only statement starts, when it has one: a request
    /// chain starting there is all the function does.
    pub only_statement: Option<usize>,
}

/// [`Around`] from one climb to the function around `node`: three climbs (one per
/// question) were a fiftieth of a 40,000-call file's CPU time. The test-code question
/// may go on above the function (to a `#[cfg(test)]` module), from where the climb
/// stopped.
///
/// `segment` is the variable a parallel Scan passes to `.segment(..)`: a loop over it
/// (`(0..n).map(|seg| ..)`, `for seg in 0..n`) sends the scan's segments, one per
/// iteration, and reads the table once between them: no repetition.
pub fn around<'a>(
    cx: &FileCx<'a>,
    node: Node<'a>,
    exclusive_start_key: bool,
    segment: Option<&str>,
) -> Around {
    let src = cx.src;
    // Innermost first, up to and with the function (to the root outside one).
    let mut above: Vec<Node<'a>> = Vec::with_capacity(32);
    for a in ancestors(src, node) {
        above.push(a);
        if node_kind(a) == "function_item" {
            break;
        }
    }
    let top = above.last().copied();
    let function = top
        .filter(|f| node_kind(*f) == "function_item")
        .map(|f| qualified_fn_name(src, f));
    let (in_loop, paged) = loop_over(
        src,
        node,
        above.iter().copied(),
        exclusive_start_key,
        segment,
    );
    let further = top.into_iter().flat_map(|t| ancestors(src, t));
    let test = cx.test_code_above(above.iter().copied().chain(further));
    let only_statement = top
        .filter(|f| node_kind(*f) == "function_item")
        .and_then(|f| field(f, "body"))
        .and_then(|body| {
            let mut statements = named_children(body)
                .into_iter()
                .filter(|c| !matches!(node_kind(*c), "line_comment" | "block_comment"));
            let only = statements.next()?;
            statements.next().is_none().then(|| only.start_byte())
        });
    Around {
        function,
        in_loop,
        paged,
        test,
        only_statement,
    }
}

/// `Type::name` for a method, `name` for a free function.
pub fn qualified_fn_name(src: Src<'_>, f: Node<'_>) -> String {
    let name = field(f, "name").map(|n| src.of(n)).unwrap_or("?");
    let imp = ancestors(src, f)
        .take_while(|a| node_kind(*a) != "function_item")
        .find(|a| node_kind(*a) == "impl_item");
    match imp.and_then(|i| field(i, "type")) {
        Some(t) => format!("{}::{name}", type_name(src.of(t))),
        None => name.to_string(),
    }
}

/// What a `for`/`while`/`loop` does besides walking a collection, read from its text
/// (the keyword to the closing brace). Not every loop around a request repeats it per
/// element: a pagination loop reads the next page of one read, a retry loop sends the
/// same request again until it succeeds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoopShape {
    /// Follows the response's `last_evaluated_key`.
    pub pages: bool,
    /// Retries: it leaves on success (`break`/`return`), names a retry, an attempt, a
    /// backoff or a sleep, and does not walk a collection (`loop`, `while`, or a `for`
    /// over a range of attempts).
    pub retries: bool,
    /// Walks the messages of one incoming client stream (`while let Some(m) =
    /// stream.next().await` over a tonic `Streaming<T>` request): they arrive one at a
    /// time, as the client sends them, so there is no collection to batch.
    pub client_stream: bool,
}

impl LoopShape {
    /// Reads the loop's text; `kind` is `for`, `while` or `loop`.
    pub fn of(kind: &str, text: &str) -> Self {
        let pages = text.contains("last_evaluated_key") || text.contains("LastEvaluatedKey");
        let lower = text.to_ascii_lowercase();
        let names_retry = ["retry", "retries", "attempt", "backoff", "sleep"]
            .iter()
            .any(|w| lower.contains(w));
        let exits = has_word(text, "break") || has_word(text, "return");
        // `for attempt in 0..MAX` retries; `for id in ids` walks a collection.
        let over_range = kind != "for"
            || text
                .split_once('{')
                .is_some_and(|(head, _)| head.contains(".."));
        Self {
            pages,
            retries: names_retry && exits && over_range,
            client_stream: false,
        }
    }

    /// [`LoopShape::of`], knowing the text of its function from the name up to the
    /// loop (`before`): the signature and the statements that bind the loop's stream.
    /// `before` is asked for only when the loop's head awaits a stream's next message.
    pub fn in_fn<'b>(kind: &str, text: &str, before: impl FnOnce() -> Cow<'b, str>) -> Self {
        let mut shape = Self::of(kind, text);
        shape.client_stream = kind == "while" && walks_client_stream(text, before);
        shape
    }

    /// Whether a request in this loop runs once per iteration of it. A request that
    /// sets `exclusive_start_key` in a loop that follows `last_evaluated_key`, or in a
    /// `loop`/`while` (the key travels under another name: `next`, `cursor`), is one
    /// paginated read.
    pub fn repeats(self, kind: &str, exclusive_start_key: bool) -> bool {
        !(self.retries
            || self.client_stream
            || (exclusive_start_key && (self.pages || kind != "for")))
    }
}

/// `while let Some(m) = s.next().await` (or `s.message().await`, `s.try_next().await`)
/// where `s` is a parameter typed `Streaming<T>`, or a local bound to `r.into_inner()`
/// of a parameter typed `Request<Streaming<T>>`: tonic's client-streaming request body.
fn walks_client_stream<'b>(text: &str, before: impl FnOnce() -> Cow<'b, str>) -> bool {
    let squeeze = |t: &str| t.split_whitespace().collect::<String>();
    let Some((head, _)) = text.split_once('{') else {
        return false;
    };
    let head = squeeze(head);
    let Some(rest) = head.strip_prefix("whileletSome(") else {
        return false;
    };
    let Some((_, rhs)) = rest.split_once(")=") else {
        return false;
    };
    let stream = [".next().await", ".message().await", ".try_next().await"]
        .iter()
        .find_map(|m| rhs.split_once(m).map(|(s, _)| s));
    let Some(stream) = stream
        .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    else {
        return false;
    };
    let before = squeeze(&before());
    let streaming = |ty: &str| {
        let ty = ty.strip_prefix("mut").unwrap_or(ty);
        ty.starts_with("Streaming<") || ty.starts_with("tonic::Streaming<")
    };
    let param_typed = |name: &str, pred: &dyn Fn(&str) -> bool| {
        before.match_indices(&format!("{name}:")).any(|(i, m)| {
            let head = before[..i].strip_suffix("mut").unwrap_or(&before[..i]);
            matches!(head.chars().next_back(), Some('(' | ',')) && pred(&before[i + m.len()..])
        })
    };
    if param_typed(stream, &streaming) {
        return true;
    }
    // `let mut in_stream = request.into_inner();`
    ["letmut", "let"].iter().any(|kw| {
        let bind = format!("{kw}{stream}=");
        before.match_indices(&bind).any(|(i, m)| {
            let value = &before[i + m.len()..];
            let Some((recv, _)) = value.split_once(".into_inner();") else {
                return false;
            };
            !recv.is_empty()
                && recv.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && param_typed(recv, &|ty: &str| {
                    let ty = ty.strip_prefix("tonic::").unwrap_or(ty);
                    ty.strip_prefix("Request<").is_some_and(streaming)
                })
        })
    })
}

/// Whether `word` occurs in `text` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    text.match_indices(word).any(|(i, _)| {
        let before = i.checked_sub(1).and_then(|j| bytes.get(j)).copied();
        let after = bytes.get(i + word.len()).copied();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// The innermost loop around `node` inside its function that runs it once per
/// iteration, if any, and whether a loop around it pages through a read
/// (see [`LoopShape`]; `exclusive_start_key` says the request sets one).
pub fn enclosing_loop(
    src: Src<'_>,
    node: Node<'_>,
    exclusive_start_key: bool,
) -> (Option<LoopInfo>, bool) {
    loop_over(src, node, ancestors(src, node), exclusive_start_key, None)
}

/// The variable an argument names, through `Some(..)`, `&`, parentheses and `as`
/// casts: `seg` of `.segment(seg as i32)` or `.set_segment(Some(seg))`.
pub fn argument_variable(src: Src<'_>, arg: Node<'_>) -> Option<String> {
    let mut node = peel(arg);
    for _ in 0..4 {
        match node_kind(node) {
            "identifier" => return Some(src.of(node).to_string()),
            "type_cast_expression" | "reference_expression" => {
                node = peel(field(node, "value")?);
            }
            "call_expression" if field(node, "function").is_some_and(|f| src.of(f) == "Some") => {
                let args = field(node, "arguments")?;
                let [only] = named_children(args)[..] else {
                    return None;
                };
                node = peel(only);
            }
            _ => return None,
        }
    }
    None
}

/// Whether a closure's only parameter is `var` (`|seg|`, `move |seg: i32|`).
fn closure_binds(src: Src<'_>, closure: Node<'_>, var: &str) -> bool {
    let Some(params) = field(closure, "parameters") else {
        return false;
    };
    let names: Vec<&str> = named_children(params)
        .into_iter()
        .map(|p| match node_kind(p) {
            "parameter" => field(p, "pattern").map_or("", |n| src.of(n)),
            _ => src.of(p),
        })
        .collect();
    names == [var]
}

/// [`enclosing_loop`] of `node`, whose ancestors (innermost first) are `above`; they
/// are read up to the first function.
fn loop_over<'a>(
    src: Src<'a>,
    node: Node<'a>,
    above: impl Iterator<Item = Node<'a>>,
    exclusive_start_key: bool,
    segment: Option<&str>,
) -> (Option<LoopInfo>, bool) {
    let mut prev = node;
    let mut adaptor: Option<LoopInfo> = None;
    let mut paged = false;
    for anc in above {
        match node_kind(anc) {
            "function_item" => break,
            "for_expression" | "while_expression" | "loop_expression"
                if node_kind(anc) == "for_expression"
                    && segment
                        .is_some_and(|v| field(anc, "pattern").is_some_and(|p| src.of(p) == v)) => {
            }
            // A closure per segment of a parallel Scan: its futures are the segments.
            "closure_expression"
                if adaptor.is_none() && segment.is_some_and(|v| closure_binds(src, anc, v)) => {}
            "for_expression" | "while_expression" | "loop_expression" => {
                // The iterated expression of a `for` runs once; only its body loops.
                let in_head = node_kind(anc) == "for_expression"
                    && field(anc, "value").is_some_and(|v| v.id() == prev.id());
                let kind = match node_kind(anc) {
                    "for_expression" => "for",
                    "while_expression" => "while",
                    _ => "loop",
                };
                let before = || {
                    Cow::Borrowed(
                        ancestors(src, anc)
                            .find(|a| node_kind(*a) == "function_item")
                            .and_then(|f| src.text.get(f.start_byte()..anc.start_byte()))
                            .unwrap_or(""),
                    )
                };
                let shape = LoopShape::in_fn(kind, src.of(anc), before);
                // Only the innermost paging loop pages: one around it (`for tenant in
                // tenants { loop { .. } }`) repeats the whole read.
                let pages_here = exclusive_start_key && !paged;
                if !in_head && adaptor.is_none() && !shape.repeats(kind, pages_here) {
                    paged |= !shape.retries && !shape.client_stream;
                } else if !in_head {
                    return (
                        Some(adaptor.unwrap_or(LoopInfo {
                            kind: kind.to_string(),
                            span: span(anc),
                            caller: None,
                            elements: field(anc, "value").and_then(|v| fixed_elements(src, v)),
                        })),
                        paged,
                    );
                }
            }
            "closure_expression" if adaptor.is_none() => {
                if let Some(info) = adaptor_loop(src, anc) {
                    adaptor = Some(info);
                } else if let Some(info) = futures_loop(src, anc) {
                    // The innermost repetition: nothing further out is more precise.
                    return (Some(info), paged);
                }
            }
            // Only a call around an adaptor's closure can run it per element: the
            // callee is read then, not for every call of a chain.
            "call_expression" if adaptor.is_some() => {
                let callee = field(anc, "function").map(|f| src.of(f)).unwrap_or("");
                let name = callee.rsplit(['.', ':']).next().unwrap_or("");
                if JOINERS.contains(&name)
                    && adaptor.is_some()
                    && name != "collect"
                    && name != "from_iter"
                {
                    return (
                        Some(LoopInfo {
                            kind: name.to_string(),
                            span: span(anc),
                            caller: None,
                            elements: None,
                        }),
                        paged,
                    );
                }
            }
            _ => {}
        }
        prev = anc;
    }
    (adaptor, paged)
}

/// How many elements a `for` walks when the code fixes them: an array literal
/// (`["a", "b"]`, `&[a, b]`, `[a, b].iter()`) or a range of integer literals
/// (`0..3`, `1..=2`).
fn fixed_elements(src: Src<'_>, value: Node<'_>) -> Option<u64> {
    let mut node = peel(value);
    for _ in 0..4 {
        match node_kind(node) {
            "reference_expression" => node = peel(field(node, "value")?),
            "call_expression" => {
                let (recv, m, _) = method_call(src, node)?;
                if !matches!(m.as_str(), "iter" | "into_iter" | "copied" | "cloned") {
                    return None;
                }
                node = peel(recv);
            }
            _ => break,
        }
    }
    match node_kind(node) {
        // `[x; n]` has a `length`; its count is not the elements written.
        "array_expression" if field(node, "length").is_none() => Some(
            named_children(node)
                .iter()
                .filter(|c| !node_kind(**c).ends_with("comment"))
                .count() as u64,
        ),
        "range_expression" => {
            let ints: Vec<u64> = named_children(node)
                .iter()
                .map(|c| src.of(*c).replace('_', "").parse::<u64>().ok())
                .collect::<Option<_>>()?;
            let [from, to] = ints.as_slice() else {
                return None;
            };
            let inclusive = src.of(node).contains("..=");
            Some(if inclusive { to + 1 } else { *to }.saturating_sub(*from))
        }
        _ => None,
    }
}

/// A closure passed to `.map(..)`/`.for_each(..)` that awaits (or is an async block)
/// runs a request per element.
fn adaptor_loop(src: Src<'_>, closure: Node<'_>) -> Option<LoopInfo> {
    let args = src
        .parent(closure)
        .filter(|p| node_kind(*p) == "arguments")?;
    let call = src.parent(args)?;
    let f = field(call, "function")?;
    if node_kind(f) != "field_expression" {
        return None;
    }
    let name = src.of(field(f, "field")?);
    if !ADAPTORS.contains(&name) {
        return None;
    }
    let body = field(closure, "body")?;
    let awaits = node_kind(body) == "async_block"
        || src.of(closure).trim_start().starts_with("async")
        || !descendants(body, &mut |n| {
            node_kind(n) == "await_expression" || node_kind(n) == "async_block"
        })
        .is_empty();
    awaits.then(|| LoopInfo {
        kind: name.to_string(),
        span: span(call),
        caller: None,
        elements: None,
    })
}

/// Closures whose futures a stream adaptor drives itself, once per element.
const STREAM_ADAPTORS: &[&str] = &[
    "for_each",
    "try_for_each",
    "for_each_concurrent",
    "try_for_each_concurrent",
    "then",
    "and_then",
];

/// Combinators that poll a collection of futures: each element makes its request.
const FUTURE_JOINS: &[&str] = &["join_all", "try_join_all", "select_all", "select_ok"];

/// Methods on a stream of futures that poll several of them at once.
const STREAM_BUFFERS: &[&str] = &[
    "buffer_unordered",
    "buffered",
    "try_buffer_unordered",
    "try_buffered",
];

/// Collections that poll every future put in them.
const FUTURE_SETS: &[&str] = &["FuturesUnordered", "FuturesOrdered", "JoinSet"];

/// How far the value of an adaptor call is followed (through methods, `let`s and
/// arguments) looking for what drives its futures.
const MAX_FLOW_STEPS: usize = 24;

/// A closure that returns a future without awaiting it (`|id| client.get_item()..
/// .send()`), passed to an iterator or stream adaptor: a request per element only when
/// something drives those futures — `join_all`, `try_join_all`, `FuturesUnordered`,
/// `buffer_unordered`, a `for` that awaits each, or the stream adaptor itself
/// (`for_each_concurrent`, `then` on a stream). Futures merely collected make no
/// request, so they are no loop.
fn futures_loop(src: Src<'_>, closure: Node<'_>) -> Option<LoopInfo> {
    let args = src
        .parent(closure)
        .filter(|p| node_kind(*p) == "arguments")?;
    let call = src.parent(args)?;
    let (recv, name, _) = method_call(src, call)?;
    let stream_adaptor = STREAM_ADAPTORS.contains(&name.as_str());
    if !stream_adaptor && !ADAPTORS.contains(&name.as_str()) {
        return None;
    }
    let flow = drive(src, call);
    if let Flow::Driven(info) = flow {
        return Some(info);
    }
    // A stream runs the closure's futures as it is polled. `for_each` on an iterator
    // returns `()` (nothing to await) and `then` on one future is no loop, so the
    // stream must show: awaited, or named as one.
    let is_stream = name.ends_with("_concurrent")
        || src.of(recv).to_ascii_lowercase().contains("stream")
        || (matches!(flow, Flow::Awaited) && name.contains("for_each"));
    (stream_adaptor && is_stream).then(|| LoopInfo {
        kind: name,
        span: method_span(src, call),
        caller: None,
        elements: None,
    })
}

/// Where the value of an expression goes, as far as futures are concerned.
enum Flow {
    /// A combinator or loop polls each future: the loop of requests.
    Driven(LoopInfo),
    /// Awaited as one value (a stream's `for_each`/`collect`).
    Awaited,
    /// Dropped, returned, stored: no loop dynalint can see.
    Lost,
}

/// Follows the value of `start` up the tree (method chains, call arguments) and
/// through `let` bindings to their later uses, until something drives it.
fn drive(src: Src<'_>, start: Node<'_>) -> Flow {
    let mut work = vec![start];
    let mut steps = 0usize;
    let mut awaited = false;
    while let Some(mut cur) = work.pop() {
        while steps < MAX_FLOW_STEPS {
            steps += 1;
            let Some(p) = src.parent(cur) else { break };
            match node_kind(p) {
                "parenthesized_expression" | "reference_expression" | "try_expression" => cur = p,
                "await_expression" => {
                    awaited = true;
                    cur = p;
                }
                "field_expression" if field(p, "value").is_some_and(|v| v.id() == cur.id()) => {
                    let Some(call) = src.parent(p).and_then(|g| match node_kind(g) {
                        "generic_function" => src.parent(g),
                        _ => Some(g),
                    }) else {
                        break;
                    };
                    let Some((_, m, _)) = method_call(src, call) else {
                        break;
                    };
                    if STREAM_BUFFERS.contains(&m.as_str()) {
                        return Flow::Driven(LoopInfo {
                            kind: m,
                            span: method_span(src, call),
                            caller: None,
                            elements: None,
                        });
                    }
                    if m == "collect" {
                        if let Some(set) = collected_into_set(src, call) {
                            return Flow::Driven(LoopInfo {
                                kind: set.to_string(),
                                span: method_span(src, call),
                                caller: None,
                                elements: None,
                            });
                        }
                    }
                    cur = call;
                }
                "arguments" => {
                    let Some(call) = src.parent(p) else { break };
                    let Some(path) = call_path(src, call) else {
                        break;
                    };
                    let last = last_segment(path);
                    if FUTURE_JOINS.contains(&last) {
                        return Flow::Driven(LoopInfo {
                            kind: last.to_string(),
                            span: span(call),
                            caller: None,
                            elements: None,
                        });
                    }
                    if last == "from_iter" {
                        if let Some(set) =
                            FUTURE_SETS.iter().find(|s| type_segment(path) == Some(**s))
                        {
                            return Flow::Driven(LoopInfo {
                                kind: set.to_string(),
                                span: span(call),
                                caller: None,
                                elements: None,
                            });
                        }
                    }
                    // `stream::iter(futures)`: still to be buffered.
                    if last == "iter" && path.contains("stream") {
                        cur = call;
                        continue;
                    }
                    break;
                }
                "for_expression" if field(p, "value").is_some_and(|v| v.id() == cur.id()) => {
                    let body_awaits = field(p, "body").is_some_and(|b| {
                        !descendants(b, &mut |n| node_kind(n) == "await_expression").is_empty()
                    });
                    if body_awaits {
                        return Flow::Driven(LoopInfo {
                            kind: "for".to_string(),
                            span: span(p),
                            caller: None,
                            elements: None,
                        });
                    }
                    break;
                }
                "let_declaration" if field(p, "value").is_some_and(|v| v.id() == cur.id()) => {
                    work.extend(later_uses(src, p));
                    break;
                }
                _ => break,
            }
        }
    }
    if awaited {
        Flow::Awaited
    } else {
        Flow::Lost
    }
}

/// `.collect::<FuturesUnordered<_>>()`, or a `collect()` bound by
/// `let x: FuturesUnordered<_> =`: the collection that will poll the futures.
fn collected_into_set(src: Src<'_>, collect: Node<'_>) -> Option<&'static str> {
    let mut types = String::new();
    if let Some(g) = field(collect, "function").filter(|f| node_kind(*f) == "generic_function") {
        types.push_str(src.of(field(g, "type_arguments")?));
    }
    let mut up = collect;
    while let Some(p) = src.parent(up) {
        match node_kind(p) {
            "try_expression" | "await_expression" | "parenthesized_expression" => up = p,
            "let_declaration" => {
                if let Some(t) = field(p, "type") {
                    types.push_str(src.of(t));
                }
                break;
            }
            _ => break,
        }
    }
    FUTURE_SETS.iter().copied().find(|s| types.contains(s))
}

/// Uses of the variable a `let` binds, after the `let`, in its block.
fn later_uses<'a>(src: Src<'a>, let_decl: Node<'a>) -> Vec<Node<'a>> {
    let Some(name) = field(let_decl, "pattern")
        .map(|p| match node_kind(p) {
            "mut_pattern" => named_children(p).into_iter().last().unwrap_or(p),
            _ => p,
        })
        .filter(|p| node_kind(*p) == "identifier")
        .map(|p| src.of(p))
    else {
        return Vec::new();
    };
    let Some(block) = src.parent(let_decl) else {
        return Vec::new();
    };
    let after = let_decl.end_byte();
    let ident = kind_id("identifier");
    let mut uses = descendants_after(block, after, &mut |n| {
        n.kind_id() == ident && src.of(n) == name
    });
    // Walked last-first off the stack: keep source order.
    uses.truncate(8);
    uses.reverse();
    uses
}

/// From a method's name to the end of its call: `buffer_unordered(16)`.
fn method_span(src: Src<'_>, call: Node<'_>) -> Span {
    let start = field(call, "function")
        .map(|f| match node_kind(f) {
            "generic_function" => field(f, "function").unwrap_or(f),
            _ => f,
        })
        .and_then(|f| field(f, "field"))
        .map(|n| n.start_byte())
        .unwrap_or(call.start_byte());
    let _ = src;
    Span::new(start, call.end_byte())
}

/// `#[test]`, `#[tokio::test]`, `#[cfg(test)]`, `#[rstest]`...
pub fn is_test_attr(attr: &str) -> bool {
    let a = attr.trim();
    a == "test"
        || a.ends_with("::test")
        || a.starts_with("tokio::test")
        || a.starts_with("test(")
        || a.starts_with("rstest")
        || a.starts_with("cfg(test")
        || a.contains("cfg(all(test")
        || a.contains("cfg(any(test")
        || a.ends_with("::test(")
        || a.contains("::test(")
}

/// The attribute texts (inside `#[..]`) written just before an item.
pub fn attributes_of<'a>(src: Src<'a>, item: Node<'_>) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut cur = item.prev_sibling();
    while let Some(n) = cur {
        match node_kind(n) {
            "attribute_item" => {
                if let Some(a) = named_children(n)
                    .into_iter()
                    .find(|c| node_kind(*c) == "attribute")
                {
                    out.push(src.of(a));
                }
            }
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        cur = n.prev_sibling();
    }
    out
}

/// Cold by where the file is: `tests/`, `benches/`, `examples/`, `build.rs`.
pub fn cold_by_path(path: &Path) -> Option<ColdReason> {
    let comps: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if comps.last().map(String::as_str) == Some("build.rs") {
        return Some(ColdReason::BuildScript);
    }
    let dirs = &comps[..comps.len().saturating_sub(1)];
    if dirs.iter().any(|c| c == "tests") {
        return Some(ColdReason::Test);
    }
    if dirs.iter().any(|c| c == "benches") {
        return Some(ColdReason::Bench);
    }
    if dirs.iter().any(|c| c == "examples") {
        return Some(ColdReason::Example);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::syntax::names::intern_path;
    use crate::scanner::syntax::nodes::parent_map;
    use crate::scanner::syntax::parse::parse;

    /// [`around`]'s one climb answers what the three climbs answer, for every call:
    /// in loops (paging, retrying, over a collection), closures of adaptors and
    /// joiners, methods, nested functions, test functions and modules, and outside
    /// any function.
    #[test]
    fn one_climb_answers_as_three() {
        let code = r#"
const T: &str = f("t");
impl Repo {
    async fn list(&self, ids: &[String]) {
        for id in ids {
            self.c.get_item().table_name("t").key("pk", S(id.into())).send().await;
            let ks = keys(self.c.query().send().await);
        }
        let mut start = None;
        loop {
            let r = self.c.query().set_exclusive_start_key(start).send().await?;
            start = r.last_evaluated_key;
            if start.is_none() { break; }
        }
        join_all(ids.iter().map(|id| self.c.get_item().key("pk", S(id.into())).send())).await;
        ids.iter().for_each(|id| { g(|| self.c.delete_item().send()); });
        for attempt in 0..3 {
            if self.c.put_item().send().await.is_ok() { return; }
            sleep(backoff(attempt)).await;
        }
        fn inner(c: &Client) { while let Some(x) = next() { c.scan().send(); } }
    }
}
#[cfg(test)]
mod tests {
    fn helper(c: &Client) { for x in xs { c.query().send(); } }
    #[tokio::test]
    async fn reads() { c.get_item().send().await; }
}
#[test]
fn alone() { c.scan().send(); }
"#;
        let tree = parse(code.as_bytes()).expect("parses");
        let (parents, nodes, _) = parent_map(tree.root_node());
        let lets = crate::scanner::syntax::scope::let_offsets(code);
        let src = Src {
            text: code,
            parents: &parents,
            lets: &lets,
        };
        // Each with its own memo of test items, asked in the same order.
        let one = FileCx::new(src, intern_path(&["m"]));
        let three = FileCx::new(src, intern_path(&["m"]));
        let call_k = kind_id("call_expression");
        let (mut calls, mut looped, mut paged, mut test, mut outside) = (0, 0, 0, 0, 0);
        for n in nodes.iter().copied().filter(|n| n.kind_id() == call_k) {
            for exclusive_start_key in [false, true] {
                let got = around(&one, n, exclusive_start_key, None);
                let (in_loop, pages) = enclosing_loop(src, n, exclusive_start_key);
                let want = Around {
                    function: enclosing_function(src, n),
                    in_loop,
                    paged: pages,
                    test: three.is_test_code(n),
                    only_statement: got.only_statement,
                };
                assert_eq!(got, want, "{}", src.of(n));
                calls += 1;
                looped += usize::from(got.in_loop.is_some());
                paged += usize::from(got.paged);
                test += usize::from(got.test);
                outside += usize::from(got.function.is_none());
            }
        }
        // The code has every case the climbs tell apart.
        assert!(calls > 40, "{calls}");
        assert!(looped > 8 && paged > 0 && test > 4 && outside > 0);
    }
}
