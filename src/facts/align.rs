//! Lining up an access pattern's key value (`"In Transit#{1..10}"`) with an entity's
//! key template (`"{Status}#{shard}"`): which entity placeholder each pattern
//! placeholder stands for, and which entity placeholders the pattern fixes to text.

use crate::model::{KeyTemplate, TemplatePart};

/// What an access pattern puts where an entity's template has a placeholder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    /// The pattern's own placeholder (`{1..10}`, `{customerId}`).
    Placeholder(String),
    /// Literal text (`In Transit` for `{Status}`).
    Fixed(String),
    /// Text and placeholders mixed: no clean correspondence.
    Mixed,
}

/// First private-use character: pattern placeholders are rendered as these markers,
/// which no key template's literal text contains in practice.
const MARKER_BASE: u32 = 0xE000;

fn marker(i: usize) -> Option<char> {
    char::from_u32(MARKER_BASE + u32::try_from(i).ok()?)
}

/// Aligns a pattern value with an entity template: one slot per entity placeholder,
/// in order. `None` when the literal parts cannot line up.
pub fn align(pattern: &KeyTemplate, entity: &KeyTemplate) -> Option<Vec<(String, Slot)>> {
    let mut names: Vec<&str> = Vec::new();
    let mut rendered = String::new();
    for part in &pattern.parts {
        match part {
            TemplatePart::Literal(l) => rendered.push_str(l),
            TemplatePart::Placeholder(n) => {
                rendered.push(marker(names.len())?);
                names.push(n);
            }
        }
    }
    let captures = capture(entity, &rendered)?;
    Some(
        captures
            .into_iter()
            .map(|(name, text)| {
                let slot = classify(text, &names);
                (name.to_string(), slot)
            })
            .collect(),
    )
}

fn classify(text: &str, names: &[&str]) -> Slot {
    let is_marker =
        |c: char| (c as u32) >= MARKER_BASE && (c as u32) < MARKER_BASE + names.len() as u32;
    let mut chars = text.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if is_marker(c) {
            let i = (c as u32 - MARKER_BASE) as usize;
            return names
                .get(i)
                .map_or(Slot::Mixed, |n| Slot::Placeholder(n.to_string()));
        }
    }
    if text.chars().any(is_marker) {
        Slot::Mixed
    } else {
        Slot::Fixed(text.to_string())
    }
}

/// Matches a concrete value against a template and returns what each placeholder
/// took (shortest match first, backtracking). Placeholders take at least one char.
pub fn capture<'t, 'v>(
    template: &'t KeyTemplate,
    value: &'v str,
) -> Option<Vec<(&'t str, &'v str)>> {
    let mut out = Vec::new();
    capture_from(&template.parts, value, &mut out).then_some(out)
}

fn capture_from<'t, 'v>(
    parts: &'t [TemplatePart],
    value: &'v str,
    out: &mut Vec<(&'t str, &'v str)>,
) -> bool {
    match parts.split_first() {
        None => value.is_empty(),
        Some((TemplatePart::Literal(l), rest)) => value
            .strip_prefix(l.as_str())
            .is_some_and(|v| capture_from(rest, v, out)),
        Some((TemplatePart::Placeholder(name), rest)) => {
            let ends = value
                .char_indices()
                .map(|(i, _)| i)
                .skip(1)
                .chain(std::iter::once(value.len()))
                .filter(|&i| i > 0);
            for end in ends {
                out.push((name.as_str(), &value[..end]));
                if capture_from(rest, &value[end..], out) {
                    return true;
                }
                out.pop();
            }
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> KeyTemplate {
        KeyTemplate::parse(s).unwrap()
    }

    #[test]
    fn lines_up_fixed_text_and_placeholders() {
        assert_eq!(
            align(&t("In Transit#{1..10}"), &t("{Status}#{shard}")),
            Some(vec![
                ("Status".into(), Slot::Fixed("In Transit".into())),
                ("shard".into(), Slot::Placeholder("1..10".into())),
            ])
        );
        assert_eq!(
            align(
                &t("{invoiceNumber}-{1..10}"),
                &t("{invoiceNumber}-{suffix}")
            ),
            Some(vec![
                (
                    "invoiceNumber".into(),
                    Slot::Placeholder("invoiceNumber".into())
                ),
                ("suffix".into(), Slot::Placeholder("1..10".into())),
            ])
        );
        assert_eq!(align(&t("USER#{id}"), &t("BLOG#{blogID}")), None);
        assert_eq!(
            align(&t("X{a}{b}"), &t("X{c}")),
            Some(vec![("c".into(), Slot::Mixed)])
        );
    }

    #[test]
    fn captures_values() {
        assert_eq!(
            capture(&t("{inv}-{s}"), "12-3-7"),
            Some(vec![("inv", "12"), ("s", "3-7")])
        );
        assert_eq!(capture(&t("USER#{id}"), "USER#"), None);
        assert_eq!(capture(&t("PROFILE"), "PROFILE"), Some(vec![]));
    }
}
