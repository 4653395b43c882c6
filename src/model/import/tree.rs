//! One spanned tree for every YAML or JSON template (JSON is read as YAML, which it
//! nearly is): scalars as text, mappings in file order, custom tags (`!Ref`) kept, byte
//! spans into the file. The importers read this and never see the parser's types.

use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};

use crate::source::Span;

/// Deeper than this, a document is not a template anyone wrote; the rest is dropped
/// rather than recursed into (a hostile file must not exhaust the stack).
const MAX_DEPTH: usize = 64;

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

/// Parses YAML (or JSON) text. Only the first document is read: templates have one.
pub fn parse(text: &str) -> Result<Node, ParseError> {
    let offsets = CharOffsets::new(text);
    let docs = MarkedYaml::load_from_str(text).map_err(|e| {
        let m = e.marker();
        ParseError {
            offset: offsets.byte(m.index()),
            line: m.line(),
            message: e.info().to_string(),
        }
    })?;
    Ok(docs
        .first()
        .map(|d| convert(d, &offsets, 0))
        .unwrap_or_else(|| Node::null().clone()))
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
}

fn span_of(y: &MarkedYaml<'_>, o: &CharOffsets) -> (Span, usize) {
    let start = o.byte(y.span.start.index());
    let end = o.byte(y.span.end.index()).max(start);
    (Span::new(start, end), y.span.start.line())
}

fn convert(y: &MarkedYaml<'_>, o: &CharOffsets, depth: usize) -> Node {
    let (span, line) = span_of(y, o);
    let value = if depth > MAX_DEPTH {
        Value::Null
    } else {
        match &y.data {
            YamlData::Value(s) => scalar(s),
            YamlData::Representation(text, _, _) => Value::String(text.to_string()),
            YamlData::Sequence(items) => {
                Value::Seq(items.iter().map(|i| convert(i, o, depth + 1)).collect())
            }
            YamlData::Mapping(m) => Value::Map(
                m.iter()
                    .filter_map(|(k, v)| {
                        let key = match &k.data {
                            YamlData::Value(s) => scalar_key(s)?,
                            YamlData::Representation(text, _, _) => text.to_string(),
                            _ => return None,
                        };
                        let (span, line) = span_of(k, o);
                        Some((key, Key { span, line }, convert(v, o, depth + 1)))
                    })
                    .collect(),
            ),
            YamlData::Tagged(tag, inner) => {
                let inner = convert(inner, o, depth + 1);
                if tag.handle == "!!" || tag.handle == "tag:yaml.org,2002:" {
                    // A core-schema tag (`!!str`) only says how to read the scalar.
                    inner.value
                } else {
                    Value::Tagged(tag.suffix.clone(), Box::new(inner))
                }
            }
            YamlData::Alias(_) | YamlData::BadValue => Value::Null,
        }
    };
    Node { span, line, value }
}

fn scalar(s: &Scalar<'_>) -> Value {
    match s {
        Scalar::Null => Value::Null,
        Scalar::Boolean(b) => Value::Bool(*b),
        Scalar::Integer(i) => Value::Number(i.to_string()),
        Scalar::FloatingPoint(f) => Value::Number(f.to_string()),
        Scalar::String(s) => Value::String(s.to_string()),
    }
}

fn scalar_key(s: &Scalar<'_>) -> Option<String> {
    match scalar(s) {
        Value::String(s) | Value::Number(s) => Some(s),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
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
}
