//! Which `[[table.entity]]` a write in the code stores: by the Rust type serialised
//! into the item (`to_item(blog)` → `Blog`), else by its primary key values against
//! the entities' key templates (`format!("BLOG#{}", id)` is `BLOG#{blogID}`).
//! Ambiguity is unknown: a write matching several entities belongs to none.

use crate::model::{Entity, KeyTemplate, Table, TemplatePart};
use crate::scanner::{AttrMap, Resolved, ValueInfo};

/// The one entity an item belongs to, when the code shows it.
pub fn entity_of<'t>(table: &'t Table, item: &AttrMap) -> Option<&'t Entity> {
    if let Some(ty) = &item.from_type {
        let want = normalise(ty.rsplit("::").next().unwrap_or(ty));
        if let Some(e) = table.entities.iter().find(|e| normalise(&e.name) == want) {
            return Some(e);
        }
    }
    let keys: Vec<&str> = std::iter::once(table.partition_key.as_str())
        .chain(table.sort_key.as_deref())
        .collect();
    let mut found = table.entities.iter().filter(|e| {
        let mut any = false;
        for k in &keys {
            let Some(text) = e.keys.get(*k) else {
                continue;
            };
            let Ok(template) = KeyTemplate::parse(text) else {
                return false;
            };
            match item.get(k) {
                Some(a) if value_fits(&template, &a.value) => any = true,
                _ => return false,
            }
        }
        any
    });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether a value in the code could be one the template writes. Unknown values fit
/// nothing: only what the code shows identifies an entity.
pub fn value_fits(template: &KeyTemplate, v: &ValueInfo) -> bool {
    if let Some(lit) = &v.literal {
        return template.matches(lit);
    }
    match v.text.as_ref().map(Resolved::innermost) {
        Some(Resolved::Literal { value }) => template.matches(value),
        Some(Resolved::Template { template: code }) => same_shape(template, code),
        _ => false,
    }
}

/// Whether a key value written in the model (an access pattern's `key`), literal or
/// with `{placeholder}` holes, could be one the entity template writes.
pub fn text_fits(template: &KeyTemplate, text: &str) -> bool {
    if text.contains('{') {
        same_shape(template, text)
    } else {
        template.matches(text)
    }
}

/// `BLOG#{}` (a `format!` template, holes named or not) has the shape of
/// `BLOG#{blogID}`: the same literal text around the same number of holes.
fn same_shape(template: &KeyTemplate, code: &str) -> bool {
    let mut code_parts: Vec<Option<String>> = Vec::new();
    let mut literal = String::new();
    let mut rest = code;
    while let Some(open) = rest.find('{') {
        literal.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            return false;
        };
        if !literal.is_empty() {
            code_parts.push(Some(std::mem::take(&mut literal)));
        }
        code_parts.push(None);
        rest = &rest[open + close + 1..];
    }
    literal.push_str(rest);
    if !literal.is_empty() {
        code_parts.push(Some(literal));
    }
    code_parts.len() == template.parts.len()
        && code_parts
            .iter()
            .zip(&template.parts)
            .all(|(c, t)| match (c, t) {
                (Some(a), TemplatePart::Literal(b)) => a == b,
                (None, TemplatePart::Placeholder(_)) => true,
                _ => false,
            })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::{AttrArg, Provenance};
    use crate::source::Span;

    fn model() -> crate::model::Model {
        crate::test_models::load(crate::test_models::BLOG_APP)
    }

    fn attr(name: &str, literal: Option<&str>, template: Option<&str>) -> AttrArg {
        AttrArg {
            name: Resolved::literal(name),
            value: ValueInfo {
                literal: literal.map(str::to_string),
                text: template.map(|t| Resolved::Template {
                    template: t.to_string(),
                }),
                provenance: Provenance::Unknown,
                ..ValueInfo::unknown(Span::new(0, 1))
            },
            span: Span::new(0, 1),
            conditional: false,
        }
    }

    #[test]
    fn by_key_templates_and_by_type() {
        let m = model();
        let t = &m.tables[0];
        let blog = AttrMap {
            attributes: vec![
                attr("PK", None, Some("USER#{}")),
                attr("SK", None, Some("BLOG#{blog_id}")),
            ],
            complete: true,
            from_type: None,
            serde_at: None,
        };
        assert_eq!(entity_of(t, &blog).map(|e| e.name.as_str()), Some("Blog"));
        let user = AttrMap {
            attributes: vec![
                attr("PK", None, Some("USER#{}")),
                attr("SK", Some("PROFILE"), None),
            ],
            complete: true,
            from_type: None,
            serde_at: None,
        };
        assert_eq!(entity_of(t, &user).map(|e| e.name.as_str()), Some("User"));
        let ambiguous = AttrMap {
            attributes: vec![attr("PK", None, Some("USER#{}"))],
            complete: true,
            from_type: None,
            serde_at: None,
        };
        assert!(entity_of(t, &ambiguous).is_none());
        let typed = AttrMap {
            attributes: Vec::new(),
            complete: true,
            from_type: Some("models::blog".into()),
            serde_at: None,
        };
        assert_eq!(entity_of(t, &typed).map(|e| e.name.as_str()), Some("Blog"));
    }

    #[test]
    fn shapes() {
        let t = KeyTemplate::parse("{Status}#{shard}").unwrap();
        assert!(same_shape(&t, "{}#{}"));
        assert!(!same_shape(&t, "{}"));
        assert!(!same_shape(&t, "{}-{}"));
        assert!(!same_shape(&t, "{"));
    }
}
