//! One spanned tree for every YAML or JSON template (JSON is read as YAML, which it
//! nearly is): scalars as text, mappings in file order, custom tags (`!Ref`) kept, byte
//! spans into the file. The importers read this and never see the parser's types.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span as ParserSpan, Tag};

use crate::source::Span;

/// A value of the document.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `~`, `null`, an empty value, or something the reader does not model (an alias).
    Null,
    /// `true`/`false`.
    Bool(bool),
    /// A number, as written (`5`, `2.5`).
    Number(String),
    /// A string.
    String(String),
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping with string keys, in file order; each key keeps where it is.
    Map(Vec<(String, Key, Node)>),
    /// A custom tag and the node it tags: `!Ref Orders` is `Tagged("Ref", "Orders")`.
    Tagged(String, Box<Node>),
}

/// Where a mapping's key is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// Byte span in the file.
    pub span: Span,
    /// 1-based line.
    pub line: usize,
}

/// A value and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Byte span in the file.
    pub span: Span,
    /// 1-based line where it starts.
    pub line: usize,
    /// The value.
    pub value: Value,
}

/// Why a document does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset of the problem.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// What the parser said.
    pub message: String,
}

static NULL: Node = Node {
    span: Span { start: 0, end: 0 },
    line: 0,
    value: Value::Null,
};

impl Node {
    /// The value under `key` of a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.value {
            Value::Map(entries) => entries.iter().find(|(k, _, _)| k == key).map(|(_, _, v)| v),
            _ => None,
        }
    }

    /// The value under a path of keys (`["Properties", "TableName"]`).
    pub fn at(&self, path: &[&str]) -> Option<&Node> {
        path.iter().try_fold(self, |n, k| n.get(k))
    }

    /// The entries of a mapping (empty for anything else).
    pub fn entries(&self) -> &[(String, Key, Node)] {
        match &self.value {
            Value::Map(e) => e,
            _ => &[],
        }
    }

    /// The items of a sequence (empty for anything else).
    pub fn items(&self) -> &[Node] {
        match &self.value {
            Value::Seq(v) => v,
            _ => &[],
        }
    }

    /// A plain scalar's text: a string, or a number or boolean as written.
    pub fn text(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) | Value::Number(s) => Some(s),
            Value::Bool(true) => Some("true"),
            Value::Bool(false) => Some("false"),
            _ => None,
        }
    }

    /// True for a mapping.
    pub fn is_map(&self) -> bool {
        matches!(self.value, Value::Map(_))
    }

    /// A shared null node, for "absent".
    pub fn null() -> &'static Node {
        &NULL
    }
}

/// A key written twice in one mapping (not one a `<<` merge brought in): the last
/// value is kept, as CloudFormation keeps it, and importers say so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// Which document of the stream (0 for the first).
    pub document: usize,
    /// The keys of the mappings around it, outermost first (`["Resources"]` for a
    /// template's logical id); a sequence's item is its index.
    pub path: Vec<String>,
    pub key: String,
    /// Where it is first written, and where again (the value kept).
    pub first: Key,
    pub again: Key,
}

/// Parses YAML (or JSON) text: its first document (templates have one).
pub fn parse(text: &str) -> Result<Node, ParseError> {
    parse_documents(text, 1).map(|mut p| p.docs.swap_remove(0))
}

/// Every document of a YAML stream (`---` between them), up to `max`; at least one
/// (null for empty text).
pub fn parse_all(text: &str) -> Result<Vec<Node>, ParseError> {
    parse_documents(text, MAX_DOCUMENTS).map(|p| p.docs)
}

/// [`parse_all`], with every key written twice in a mapping.
pub fn parse_all_with_duplicates(text: &str) -> Result<(Vec<Node>, Vec<DuplicateKey>), ParseError> {
    parse_documents(text, MAX_DOCUMENTS).map(|p| (p.docs, p.duplicates))
}

/// What [`parse_documents`] read.
struct Parsed {
    docs: Vec<Node>,
    duplicates: Vec<DuplicateKey>,
}

/// A stream with more documents is read up to here (they share the node budget too).
const MAX_DOCUMENTS: usize = 256;

///
/// Built from the parser's events rather than a YAML library's document type, so that
/// what real templates do is read the way CloudFormation and the Serverless Framework
/// read it: a key written twice keeps its last value, `<<: *defaults` merges an
/// anchored mapping, and aliases are expanded (within a budget: a file of nested
/// aliases must not grow without bound).
fn parse_documents(text: &str, max: usize) -> Result<Parsed, ParseError> {
    let offsets = CharOffsets::new(text);
    let mut docs = Vec::new();
    let mut b = Builder {
        offsets: &offsets,
        stack: Vec::new(),
        anchors: HashMap::new(),
        budget: MAX_NODES,
        done: None,
        document: 0,
        duplicates: Vec::new(),
    };
    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| {
            let m = e.marker();
            ParseError {
                offset: offsets.byte(m.index()),
                line: m.line(),
                message: e.info().to_string(),
            }
        })?;
        if b.event(event, span).is_err() {
            let (span, line) = offsets.span(&span);
            return Err(ParseError {
                offset: span.start,
                line,
                message: format!(
                    "the document expands to more than {MAX_NODES} values (aliases of aliases?)"
                ),
            });
        }
        if let Some(doc) = b.done.take() {
            docs.push(doc);
            b.document = docs.len();
            // Anchors do not cross documents.
            b.anchors.clear();
            if docs.len() >= max {
                break;
            }
        }
    }
    if docs.is_empty() {
        docs.push(Node::null().clone());
    }
    Ok(Parsed {
        docs,
        duplicates: b.duplicates,
    })
}

/// Values a document may expand to, aliases included.
const MAX_NODES: usize = 1_000_000;

/// The budget ran out.
struct TooLarge;

/// A collection being read, with what is known of it so far.
struct Open {
    start: Span,
    line: usize,
    anchor: usize,
    tag: Option<String>,
    /// Values inside, for the alias budget.
    size: usize,
    kind: OpenKind,
}

enum OpenKind {
    Seq(Vec<Node>),
    Map {
        entries: Entries,
        /// The key read, waiting for its value; `None` inside it for a key that is not
        /// a scalar (its value is dropped).
        key: Option<Option<(String, Key)>>,
    },
}

/// A mapping's entries as they are read, in file order. A large one (a template's
/// `Resources` with thousands of tables) also knows where each key is, so that a key
/// is found at once rather than by a search of every entry before it: reading stays
/// linear in the mapping's size.
#[derive(Default)]
struct Entries {
    list: Vec<(String, Key, Node)>,
    /// Positions of the entries a `<<` merge brought in: writing one again is an
    /// override, not a duplicate.
    merged: Vec<usize>,
    /// Key → position, once the mapping has [`INDEXED_FROM`] entries.
    index: Option<HashMap<String, usize>>,
}

/// Mappings this large are indexed; smaller ones are searched (most have a few keys).
const INDEXED_FROM: usize = 32;

impl Entries {
    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.list.iter().position(|(k, _, _)| k == key),
        }
    }

    fn push(&mut self, key: String, at: Key, node: Node) {
        if let Some(index) = &mut self.index {
            index.insert(key.clone(), self.list.len());
        }
        self.list.push((key, at, node));
        if self.index.is_none() && self.list.len() >= INDEXED_FROM {
            let index = self
                .list
                .iter()
                .enumerate()
                .map(|(i, (k, _, _))| (k.clone(), i))
                .collect();
            self.index = Some(index);
        }
    }
}

struct Builder<'o> {
    offsets: &'o CharOffsets,
    stack: Vec<Open>,
    /// Anchored values and their sizes, for aliases.
    anchors: HashMap<usize, (Node, usize)>,
    budget: usize,
    done: Option<Node>,
    /// The document being read (its index in the stream).
    document: usize,
    duplicates: Vec<DuplicateKey>,
}

impl Builder<'_> {
    fn event(&mut self, event: Event<'_>, span: ParserSpan) -> Result<(), TooLarge> {
        let (at, line) = self.offsets.span(&span);
        let is_seq = matches!(event, Event::SequenceStart(..));
        match event {
            Event::Scalar(value, style, anchor, tag) => {
                let value = scalar(&value, style);
                let node = Node {
                    span: at,
                    line,
                    value,
                };
                let node = tagged(node, tag.as_deref());
                self.finish(node, anchor, 1)?;
            }
            Event::SequenceStart(anchor, tag) | Event::MappingStart(anchor, tag) => {
                let kind = if is_seq {
                    OpenKind::Seq(Vec::new())
                } else {
                    OpenKind::Map {
                        entries: Entries::default(),
                        key: None,
                    }
                };
                self.stack.push(Open {
                    start: at,
                    line,
                    anchor,
                    tag: tag.filter(|t| !is_core(t)).map(|t| t.suffix.clone()),
                    size: 1,
                    kind,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(open) = self.stack.pop() {
                    let value = match open.kind {
                        OpenKind::Seq(items) => Value::Seq(items),
                        OpenKind::Map { entries, .. } => Value::Map(entries.list),
                    };
                    let node = Node {
                        span: open.start.cover(at),
                        line: open.line,
                        value,
                    };
                    let node = match open.tag {
                        Some(t) => Node {
                            span: node.span,
                            line: node.line,
                            value: Value::Tagged(t, Box::new(node)),
                        },
                        None => node,
                    };
                    self.finish(node, open.anchor, open.size)?;
                }
            }
            Event::Alias(id) => {
                let (node, size) = match self.anchors.get(&id) {
                    Some((n, size)) => (n.clone(), *size),
                    None => (Node::null().clone(), 1),
                };
                self.budget = self.budget.checked_sub(size).ok_or(TooLarge)?;
                // The alias is where it is written, whatever it expands to.
                let node = Node {
                    span: at,
                    line,
                    value: node.value,
                };
                self.finish(node, 0, size)?;
            }
            Event::DocumentEnd if self.stack.is_empty() && self.done.is_none() => {
                self.done = Some(Node::null().clone());
            }
            _ => {}
        }
        Ok(())
    }

    /// A complete value: into its parent, or the document when there is none.
    fn finish(&mut self, node: Node, anchor: usize, size: usize) -> Result<(), TooLarge> {
        self.budget = self.budget.checked_sub(1).ok_or(TooLarge)?;
        if anchor > 0 {
            self.anchors.insert(anchor, (node.clone(), size));
        }
        let Some((parent, outer)) = self.stack.split_last_mut() else {
            self.done = Some(node);
            return Ok(());
        };
        parent.size = parent.size.saturating_add(size);
        match &mut parent.kind {
            OpenKind::Seq(items) => items.push(node),
            OpenKind::Map { entries, key } => match key.take() {
                None => {
                    let k = node.text().map(|t| {
                        (
                            t.to_string(),
                            Key {
                                span: node.span,
                                line: node.line,
                            },
                        )
                    });
                    *key = Some(k);
                }
                Some(None) => {}
                Some(Some((k, _))) if k == "<<" => {
                    // `<<: *defaults` or `<<: [*a, *b]`: keys not written here.
                    let sources: Vec<&Node> = match &node.value {
                        Value::Seq(items) => items.iter().collect(),
                        _ => vec![&node],
                    };
                    for src in sources {
                        for (mk, mkey, mv) in src.entries() {
                            if entries.position(mk).is_none() {
                                entries.merged.push(entries.list.len());
                                entries.push(mk.clone(), *mkey, mv.clone());
                            }
                        }
                    }
                }
                Some(Some((k, kspan))) => match entries.position(&k) {
                    // A key written twice keeps its last value, as CloudFormation
                    // does, in the place of the first.
                    Some(i) => {
                        match entries.merged.iter().position(|m| *m == i) {
                            // Written here over what a merge brought: an override.
                            Some(m) => {
                                entries.merged.swap_remove(m);
                            }
                            None => self.duplicates.push(DuplicateKey {
                                document: self.document,
                                path: path(outer),
                                key: k.clone(),
                                first: entries.list[i].1,
                                again: kspan,
                            }),
                        }
                        entries.list[i] = (k, kspan, node);
                    }
                    None => entries.push(k, kspan, node),
                },
            },
        }
        Ok(())
    }
}

/// The keys of the mappings `outer` holds open, outermost first: where a value being
/// read is (a sequence's item by its index).
fn path(outer: &[Open]) -> Vec<String> {
    outer
        .iter()
        .map(|o| match &o.kind {
            OpenKind::Map {
                key: Some(Some((k, _))),
                ..
            } => k.clone(),
            OpenKind::Map { .. } => String::new(),
            OpenKind::Seq(items) => items.len().to_string(),
        })
        .collect()
}

/// A core-schema tag (`!!str`) only says how to read a scalar.
fn is_core(t: &Tag) -> bool {
    t.handle == "!!" || t.handle.starts_with("tag:yaml.org,2002:")
}

fn tagged(node: Node, tag: Option<&Tag>) -> Node {
    match tag {
        Some(t) if !is_core(t) => Node {
            span: node.span,
            line: node.line,
            value: Value::Tagged(t.suffix.clone(), Box::new(node)),
        },
        _ => node,
    }
}

/// YAML 1.2's core schema for plain scalars; quoted and block scalars are strings.
fn scalar(text: &str, style: ScalarStyle) -> Value {
    if style != ScalarStyle::Plain {
        return Value::String(text.to_string());
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        t if t.parse::<f64>().is_ok()
            && t.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.') =>
        {
            Value::Number(t.to_string())
        }
        t => Value::String(t.to_string()),
    }
}

/// The parser counts characters; spans are bytes.
struct CharOffsets {
    /// Byte offset of each char that is not one byte, with its char index; ASCII-only
    /// text (nearly every template) needs no table.
    wide: Vec<(usize, usize)>,
    len: usize,
}

impl CharOffsets {
    fn new(text: &str) -> Self {
        let mut wide = Vec::new();
        for (ci, (bi, c)) in text.char_indices().enumerate() {
            if c.len_utf8() > 1 {
                // Char `ci + 1` starts right after this one.
                wide.push((ci + 1, bi + c.len_utf8()));
            }
        }
        Self {
            wide,
            len: text.len(),
        }
    }

    fn byte(&self, char_index: usize) -> usize {
        // The last wide char at or before `char_index` fixes the shift.
        let i = self.wide.partition_point(|(ci, _)| *ci <= char_index);
        let b = match i.checked_sub(1).and_then(|j| self.wide.get(j)) {
            Some((ci, bi)) => bi + (char_index - ci),
            None => char_index,
        };
        b.min(self.len)
    }

    /// A parser span as a byte span, and its 1-based line.
    fn span(&self, s: &ParserSpan) -> (Span, usize) {
        let start = self.byte(s.start.index());
        let end = self.byte(s.end.index()).max(start);
        (Span::new(start, end), s.start.line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_tags_spans_and_order() {
        let text = "B: 1\nA:\n  Name: !Ref Orders\n  List: [x, 2]\n";
        let n = parse(text).unwrap();
        let keys: Vec<&str> = n.entries().iter().map(|(k, _, _)| k.as_str()).collect();
        assert_eq!(keys, ["B", "A"]);
        let name = n.at(&["A", "Name"]).unwrap();
        assert_eq!(name.line, 3);
        match &name.value {
            Value::Tagged(t, inner) => {
                assert_eq!(t, "Ref");
                assert_eq!(inner.text(), Some("Orders"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(&text[name.span.start..name.span.end], "!Ref Orders");
        assert_eq!(n.at(&["A", "List"]).unwrap().items()[1].text(), Some("2"));
    }

    #[test]
    fn json_reads_as_yaml_and_spans_are_bytes() {
        let text = "{\"é\": {\"Ref\": \"Tâble\"}, \"n\": \"x\"}";
        let n = parse(text).unwrap();
        let v = n.get("n").unwrap();
        assert_eq!(&text[v.span.start..v.span.end], "\"x\"");
        assert_eq!(n.at(&["é", "Ref"]).unwrap().text(), Some("Tâble"));
    }

    #[test]
    fn errors_have_locations() {
        let e = parse("a: [1, 2\nb: c\n").unwrap_err();
        assert!(e.line >= 1 && !e.message.is_empty(), "{e:?}");
        assert!(parse("").is_ok());
    }

    #[test]
    fn deep_nesting_is_cut_not_recursed() {
        let text = "[".repeat(500) + &"]".repeat(500);
        // Whatever the parser makes of it, reading it neither panics nor overflows.
        let _ = parse(&text);
    }

    #[test]
    fn duplicate_keys_keep_the_last_value_and_merges_and_aliases_expand() {
        let text = "defaults: &d\n  Runtime: x\n  Timeout: 3\nf:\n  <<: *d\n  Timeout: 9\n  Timeout: 10\ng: *d\n";
        let n = parse(text).unwrap();
        assert_eq!(n.at(&["f", "Timeout"]).unwrap().text(), Some("10"));
        assert_eq!(n.at(&["f", "Runtime"]).unwrap().text(), Some("x"));
        assert_eq!(n.at(&["g", "Timeout"]).unwrap().text(), Some("3"));
        assert_eq!(n.get("f").unwrap().entries().len(), 2);
    }

    #[test]
    fn keys_written_twice_are_kept_with_both_places() {
        let text = "defaults: &d\n  Timeout: 3\nResources:\n  A: 1\n  B: 2\n  A: 3\nf:\n  <<: *d\n  Timeout: 9\n  Timeout: 10\n";
        let (docs, dups) = parse_all_with_duplicates(text).unwrap();
        assert_eq!(docs[0].at(&["Resources", "A"]).unwrap().text(), Some("3"));
        // The last value, in the place of the first.
        let keys: Vec<&str> = docs[0]
            .get("Resources")
            .unwrap()
            .entries()
            .iter()
            .map(|(k, _, _)| k.as_str())
            .collect();
        assert_eq!(keys, ["A", "B"]);
        let found: Vec<(Vec<String>, &str, usize, usize)> = dups
            .iter()
            .map(|d| (d.path.clone(), d.key.as_str(), d.first.line, d.again.line))
            .collect();
        // Overriding what `<<` merged is no duplicate; writing the override twice is.
        assert_eq!(
            found,
            [
                (vec!["Resources".to_string()], "A", 4, 6),
                (vec!["f".to_string()], "Timeout", 9, 10),
            ]
        );
    }

    #[test]
    fn a_large_mapping_finds_its_keys_at_once() {
        let mut text = String::from("Resources:\n");
        for i in 0..2 * INDEXED_FROM {
            text.push_str(&format!("  R{i}: {i}\n"));
        }
        text.push_str("  R3: again\n  R40: again\n");
        let (docs, dups) = parse_all_with_duplicates(&text).unwrap();
        let r = docs[0].get("Resources").unwrap();
        assert_eq!(r.entries().len(), 2 * INDEXED_FROM);
        assert_eq!(r.get("R3").unwrap().text(), Some("again"));
        assert_eq!(r.get("R40").unwrap().text(), Some("again"));
        let keys: Vec<&str> = dups.iter().map(|d| d.key.as_str()).collect();
        assert_eq!(keys, ["R3", "R40"]);
    }

    #[test]
    fn aliases_of_aliases_are_bounded() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            text.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let e = parse(&text).unwrap_err();
        assert!(e.message.contains("expands to more than"), "{e:?}");
    }
}
