//! Key templates: the `"USER#{userID}"` strings an entity writes into a key attribute.
//!
//! A template is literal text with `{placeholder}` holes; each hole is a value the
//! application fills in. Rules use the literal prefix (what `begins_with` can match)
//! and the placeholders (what makes the key vary, hence its cardinality).

use std::fmt;

/// One piece of a key template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplatePart {
    /// Text written as is (`USER#`).
    Literal(String),
    /// A value the application fills in (`{userID}` → `userID`).
    Placeholder(String),
}

/// A parsed key template.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeyTemplate {
    /// Literal text and placeholders, in order.
    pub parts: Vec<TemplatePart>,
}

/// Why a template does not parse; `offset` is a byte offset into the template text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// `USER#{id` — the placeholder never ends.
    #[error("`{{` at offset {offset} is never closed")]
    Unclosed {
        /// Offset of the `{`.
        offset: usize,
    },
    /// `USER#{}` — the placeholder names nothing.
    #[error("placeholder `{{}}` names no attribute")]
    Empty {
        /// Offset of the `{`.
        offset: usize,
    },
    /// `USER}` — a `}` with no `{` before it.
    #[error("`}}` at offset {offset} closes no placeholder")]
    StrayClose {
        /// Offset of the `}`.
        offset: usize,
    },
    /// `{user id}` — not a name.
    #[error("placeholder `{{{name}}}` is not a name: use letters, digits, `_`, `-` or `.`")]
    BadName {
        /// Offset of the `{`.
        offset: usize,
        /// The text between the braces.
        name: String,
    },
}

impl TemplateError {
    /// Where in the template text the problem is.
    pub fn offset(&self) -> usize {
        match self {
            Self::Unclosed { offset }
            | Self::Empty { offset }
            | Self::StrayClose { offset }
            | Self::BadName { offset, .. } => *offset,
        }
    }
}

impl KeyTemplate {
    /// Parses `"USER#{userID}#{date}"`. `{{` and `}}` are not escapes: key values that
    /// need literal braces are rare enough that a clear error serves users better.
    pub fn parse(text: &str) -> Result<Self, TemplateError> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = text.char_indices();
        while let Some((i, c)) = rest.next() {
            match c {
                '{' => {
                    let body_start = i + 1;
                    let close = text[body_start..]
                        .find('}')
                        .map(|j| body_start + j)
                        .ok_or(TemplateError::Unclosed { offset: i })?;
                    let name = &text[body_start..close];
                    if name.trim().is_empty() {
                        return Err(TemplateError::Empty { offset: i });
                    }
                    if !name
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
                    {
                        return Err(TemplateError::BadName {
                            offset: i,
                            name: name.to_string(),
                        });
                    }
                    if !literal.is_empty() {
                        parts.push(TemplatePart::Literal(std::mem::take(&mut literal)));
                    }
                    parts.push(TemplatePart::Placeholder(name.to_string()));
                    // Skip the body and the closing brace.
                    for (j, _) in rest.by_ref() {
                        if j == close {
                            break;
                        }
                    }
                }
                '}' => return Err(TemplateError::StrayClose { offset: i }),
                c => literal.push(c),
            }
        }
        if !literal.is_empty() {
            parts.push(TemplatePart::Literal(literal));
        }
        Ok(Self { parts })
    }

    /// The placeholders' names, in order.
    pub fn placeholders(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            TemplatePart::Placeholder(n) => Some(n.as_str()),
            TemplatePart::Literal(_) => None,
        })
    }

    /// True when the key is the same for every item (no placeholder): every item of
    /// the entity shares one key value.
    pub fn is_constant(&self) -> bool {
        self.placeholders().next().is_none()
    }

    /// The literal text before the first placeholder (`USER#` for `USER#{id}`): what a
    /// `begins_with` condition on this key can select the entity by.
    pub fn literal_prefix(&self) -> &str {
        match self.parts.first() {
            Some(TemplatePart::Literal(l)) => l,
            _ => "",
        }
    }

    /// True when the template has no literal text (`{a}{b}`): any value fits it.
    pub fn literal_parts_empty(&self) -> bool {
        self.parts
            .iter()
            .all(|p| matches!(p, TemplatePart::Placeholder(_)))
    }

    /// True when a template is only one placeholder (`{orderId}`): the key is the raw
    /// value, with no entity prefix.
    pub fn is_bare_placeholder(&self) -> bool {
        matches!(self.parts.as_slice(), [TemplatePart::Placeholder(_)])
    }

    /// Whether a concrete key value could have been written by this template: literal
    /// parts must appear in order, and each placeholder must stand for at least one
    /// character. Used to tell which entity a literal key in the code belongs to.
    pub fn matches(&self, value: &str) -> bool {
        matches_from(&self.parts, value)
    }
}

/// Backtracking match of template parts against a value; templates have a handful of
/// parts, so the search is tiny.
fn matches_from(parts: &[TemplatePart], value: &str) -> bool {
    match parts.split_first() {
        None => value.is_empty(),
        Some((TemplatePart::Literal(l), rest)) => value
            .strip_prefix(l.as_str())
            .is_some_and(|v| matches_from(rest, v)),
        Some((TemplatePart::Placeholder(_), rest)) => {
            // A placeholder takes one or more characters; try each split point.
            value
                .char_indices()
                .skip(1)
                .map(|(i, _)| i)
                .chain(std::iter::once(value.len()))
                .filter(|&i| i > 0)
                .any(|i| matches_from(rest, &value[i..]))
        }
    }
}

impl fmt::Display for KeyTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.parts {
            match p {
                TemplatePart::Literal(l) => f.write_str(l)?,
                TemplatePart::Placeholder(n) => write!(f, "{{{n}}}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_literals_and_placeholders() {
        let t = KeyTemplate::parse("USER#{userID}#BLOG#{blogID}").unwrap();
        assert_eq!(t.placeholders().collect::<Vec<_>>(), ["userID", "blogID"]);
        assert_eq!(t.literal_prefix(), "USER#");
        assert_eq!(t.to_string(), "USER#{userID}#BLOG#{blogID}");
        assert!(!t.is_constant());
        assert!(KeyTemplate::parse("METADATA").unwrap().is_constant());
        assert!(KeyTemplate::parse("{orderId}")
            .unwrap()
            .is_bare_placeholder());
        assert_eq!(KeyTemplate::parse("").unwrap().parts, vec![]);
    }

    #[test]
    fn rejects_broken_templates_with_offsets() {
        assert_eq!(
            KeyTemplate::parse("USER#{id"),
            Err(TemplateError::Unclosed { offset: 5 })
        );
        assert_eq!(
            KeyTemplate::parse("USER#{}"),
            Err(TemplateError::Empty { offset: 5 })
        );
        assert_eq!(
            KeyTemplate::parse("A}"),
            Err(TemplateError::StrayClose { offset: 1 })
        );
        assert!(matches!(
            KeyTemplate::parse("{a b}"),
            Err(TemplateError::BadName { offset: 0, .. })
        ));
    }

    #[test]
    fn matches_concrete_values() {
        let t = KeyTemplate::parse("USER#{id}").unwrap();
        assert!(t.matches("USER#42"));
        assert!(!t.matches("USER#"));
        assert!(!t.matches("BLOG#42"));
        let t = KeyTemplate::parse("{state}#{date}").unwrap();
        assert!(t.matches("OPEN#2020-01-01"));
        assert!(!t.matches("OPEN"));
        assert!(KeyTemplate::parse("PROFILE").unwrap().matches("PROFILE"));
        // Multi-byte text never splits inside a char.
        assert!(KeyTemplate::parse("{a}é{b}").unwrap().matches("xéé"));
    }
}
