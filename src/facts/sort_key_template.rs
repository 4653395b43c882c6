//! Sort keys whose declared template already holds an attribute a Query filters on.
//!
//! An entity declaring `StatusDate = "{Status}_{Date}"` writes the status into the sort
//! key: a filter `Status = :s` on the item collection of a partition key can then be a
//! key condition, `begins_with(StatusDate, "DONE_")`, and a range on the next
//! component (`Date < :before`) makes it a `BETWEEN`. This finds such a sort key on the
//! table or on any of its indexes that shares the queried partition key (the same item
//! collection), and spells the key condition out.

use indexmap::IndexMap;

use crate::expr::Comparator;
use crate::facts::conditions::{Term, TermOp};
use crate::facts::read_cost::literal_of;
use crate::model::{Entity, Index, KeyTemplate, Presence, Table, TemplatePart};
use crate::scanner::ValueInfo;

/// A key condition on a templated sort key that can replace a filter term.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateKey<'a> {
    /// The index whose sort key it is; `None` for the table's own sort key.
    pub index: Option<&'a Index>,
    /// The sort key attribute (`StatusDate`).
    pub sort_key: &'a str,
    /// The entity that declares the template.
    pub entity: &'a Entity,
    /// The template (`{Status}_{Date}`).
    pub template: KeyTemplate,
    /// The condition on `sort_key` that selects what the filter keeps.
    pub condition: SortKeyCondition,
}

/// A sort key condition built from a template's leading components.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortKeyCondition {
    /// `sk = "DONE_2020-05-10"`: every component is fixed.
    Equals(String),
    /// `begins_with(sk, "DONE_")`.
    BeginsWith(String),
    /// `sk BETWEEN "Ordered:" AND "Ordered:{OrderDate}"` (both ends included).
    Between(String, String),
}

impl SortKeyCondition {
    /// The condition as a key condition expression reads, with values inline.
    pub fn render(&self, sort_key: &str) -> String {
        match self {
            Self::Equals(v) => format!("{sort_key} = \"{v}\""),
            Self::BeginsWith(p) => format!("begins_with({sort_key}, \"{p}\")"),
            Self::Between(lo, hi) => format!("{sort_key} BETWEEN \"{lo}\" AND \"{hi}\""),
        }
    }
}

/// Why a template holding the attribute cannot serve the filter by a key condition.
#[derive(Debug, Clone, PartialEq)]
pub struct Unservable<'a> {
    /// The index whose sort key it is; `None` for the table's own sort key.
    pub index: Option<&'a Index>,
    /// The sort key attribute.
    pub sort_key: &'a str,
    /// The template.
    pub template: KeyTemplate,
    /// The component before the attribute that nothing fixes (`Date` of `{Date}#{Status}`).
    pub unfixed: String,
}

/// What the declared sort key templates of one item collection say about a filter term.
#[derive(Debug, Clone, PartialEq)]
pub enum TemplateFit<'a> {
    /// A template serves the term as a key condition.
    Serves(TemplateKey<'a>),
    /// A template holds the attribute, but after a component nothing fixes, so no
    /// prefix selects by it.
    NotLeading(Unservable<'a>),
    /// No sort key template of the collection holds the attribute.
    None,
}

/// Finds a sort key template that serves the equality filter term `term`, among the
/// sort keys of `table` and of its indexes whose partition key is `partition_key` (the
/// attribute the Query's key condition fixes with `=`). `terms` are the other terms
/// the call fixes (key condition and filter), used for components before the filtered
/// one and for a range on the one after; `values` give their literals.
pub fn serving_template<'a>(
    table: &'a Table,
    partition_key: &str,
    term: &Term,
    terms: &[Term],
    values: &IndexMap<String, ValueInfo>,
) -> TemplateFit<'a> {
    if !term.op.is_eq() {
        return TemplateFit::None;
    }
    let own = table.sort_key.as_deref().map(|sk| (None, sk));
    let sort_keys = own
        .into_iter()
        .filter(|_| table.partition_key == partition_key)
        .chain(
            table
                .indexes
                .iter()
                .filter(|i| i.partition_key == partition_key)
                .filter_map(|i| i.sort_key.as_deref().map(|sk| (Some(i), sk))),
        );
    let mut not_leading = None;
    for (index, sort_key) in sort_keys {
        // A sort key the call already constrains cannot take a second condition.
        if terms.iter().any(|t| t.attr == sort_key) {
            continue;
        }
        for entity in &table.entities {
            let Some(template) = entity.template(sort_key) else {
                continue;
            };
            // A sparse index the entity's items never reach serves none of them.
            if index.is_some_and(|i| entity.presence_in(table, i) == Presence::Absent) {
                continue;
            }
            match condition_for(&template, term, terms, values) {
                Ok(condition) => {
                    return TemplateFit::Serves(TemplateKey {
                        index,
                        sort_key,
                        entity,
                        template,
                        condition,
                    })
                }
                Err(Some(unfixed)) if not_leading.is_none() => {
                    not_leading = Some(Unservable {
                        index,
                        sort_key,
                        template,
                        unfixed,
                    });
                }
                Err(_) => {}
            }
        }
    }
    not_leading.map_or(TemplateFit::None, TemplateFit::NotLeading)
}

/// The key condition `template` gives for `term`; `Err(Some(component))` when a
/// component before the attribute is not fixed, `Err(None)` when the template does
/// not hold the attribute or its components cannot be told apart.
fn condition_for(
    template: &KeyTemplate,
    term: &Term,
    terms: &[Term],
    values: &IndexMap<String, ValueInfo>,
) -> Result<SortKeyCondition, Option<String>> {
    let parts = &template.parts;
    let pos = parts
        .iter()
        .position(|p| matches!(p, TemplatePart::Placeholder(n) if same_attr(n, &term.attr)))
        .ok_or(None)?;
    let mut prefix = String::new();
    let mut previous_placeholder = false;
    for part in &parts[..pos] {
        match part {
            TemplatePart::Literal(l) => {
                prefix.push_str(l);
                previous_placeholder = false;
            }
            TemplatePart::Placeholder(name) => {
                if previous_placeholder {
                    return Err(None);
                }
                let fixed = terms
                    .iter()
                    .find(|t| same_attr(&t.attr, name) && t.op.is_eq())
                    .ok_or_else(|| Some(name.clone()))?;
                prefix.push_str(&value_text(values, fixed, 0, name));
                previous_placeholder = true;
            }
        }
    }
    if previous_placeholder {
        // `{Date}{Status}`: nothing tells where one value ends.
        return Err(None);
    }
    prefix.push_str(&value_text(values, term, 0, &term.attr));
    // The components after the attribute: each one the call fixes extends the prefix;
    // a range on the first one it does not fix bounds it.
    let mut after_value = true;
    for (i, part) in parts.iter().enumerate().skip(pos + 1) {
        let name = match part {
            TemplatePart::Literal(l) => {
                prefix.push_str(l);
                after_value = false;
                continue;
            }
            TemplatePart::Placeholder(name) => name,
        };
        if after_value {
            // `{Status}{Date}`: nothing tells where the value before ends.
            return if i == pos + 1 {
                Err(None)
            } else {
                Ok(SortKeyCondition::BeginsWith(prefix))
            };
        }
        if let Some(fixed) = terms
            .iter()
            .find(|t| same_attr(&t.attr, name) && t.op.is_eq())
        {
            prefix.push_str(&value_text(values, fixed, 0, name));
            after_value = true;
            continue;
        }
        let Some(range) = terms.iter().find(|t| same_attr(&t.attr, name)) else {
            return Ok(SortKeyCondition::BeginsWith(prefix));
        };
        let at = |i: usize| format!("{prefix}{}", value_text(values, range, i, name));
        return Ok(match range.op {
            TermOp::Range(Comparator::Lt | Comparator::Le) => {
                SortKeyCondition::Between(prefix.clone(), at(0))
            }
            TermOp::Range(Comparator::Gt | Comparator::Ge) => match upper_bound(&prefix) {
                Some(hi) => SortKeyCondition::Between(at(0), hi),
                None => SortKeyCondition::BeginsWith(prefix),
            },
            TermOp::Between => SortKeyCondition::Between(at(0), at(1)),
            TermOp::BeginsWith => SortKeyCondition::BeginsWith(at(0)),
            TermOp::Range(_) | TermOp::Eq => SortKeyCondition::BeginsWith(prefix),
        });
    }
    Ok(SortKeyCondition::Equals(prefix))
}

/// The smallest string above every string starting with `prefix`: its last character
/// incremented (`Ordered:` → `Ordered;`). `None` when that character has no successor.
fn upper_bound(prefix: &str) -> Option<String> {
    let last = prefix.chars().next_back()?;
    let next = char::from_u32(u32::from(last) + 1)?;
    let mut out = prefix[..prefix.len() - last.len_utf8()].to_string();
    out.push(next);
    Some(out)
}

/// The term's `i`-th value as the code gives it, else `{name}` as a template writes it.
fn value_text(values: &IndexMap<String, ValueInfo>, term: &Term, i: usize, name: &str) -> String {
    literal_of(values, term, i)
        .map(str::to_string)
        .unwrap_or_else(|| format!("{{{name}}}"))
}

/// Template placeholders name attributes loosely (`{userId}` for `UserId`).
fn same_attr(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{parse_condition, ExprKind};
    use crate::facts::conditions::and_terms;
    use crate::model::load_str;
    use crate::source::Span;
    use std::path::Path;

    const MODEL: &str = r#"
[[table]]
name = "T"
partition-key = "UserId"
sort-key = "SK"
[table.attributes]
UserId = "S"
SK = "S"
Region = "S"
PhasePlayed = "S"
PlayedPhase = "S"
Packed = "S"
[[table.index]]
name = "ByPhasePlayed"
kind = "local"
partition-key = "UserId"
sort-key = "PhasePlayed"
[[table.index]]
name = "ByRegion"
partition-key = "Region"
sort-key = "Packed"
[[table.index]]
name = "ByPlayedPhase"
kind = "local"
partition-key = "UserId"
sort-key = "PlayedPhase"
[[table.entity]]
name = "Play"
keys = { UserId = "{userId}", SK = "PLAY#{playId}", PhasePlayed = "GAME#{Phase}#{Played}", PlayedPhase = "{Played}:{Phase}", Packed = "{Genre}_{Played}" }
attributes = ["Region", "Genre"]
"#;

    fn terms(src: &str) -> Vec<Term> {
        and_terms(
            &parse_condition(src, ExprKind::Filter).unwrap(),
            &IndexMap::new(),
        )
        .terms
    }

    fn values(pairs: &[(&str, &str)]) -> IndexMap<String, ValueInfo> {
        pairs
            .iter()
            .map(|(k, v)| {
                let mut info = ValueInfo::unknown(Span::default());
                info.literal = Some(v.to_string());
                (k.to_string(), info)
            })
            .collect()
    }

    fn fit<'a>(
        t: &'a Table,
        pk: &str,
        filter: &str,
        all: &str,
        vals: &[(&str, &str)],
    ) -> TemplateFit<'a> {
        let f = terms(filter);
        serving_template(t, pk, &f[0], &terms(all), &values(vals))
    }

    #[test]
    fn a_leading_component_gives_a_prefix_and_a_range_on_the_next_a_between() {
        let m = load_str(Path::new("dynalint.toml"), MODEL).unwrap();
        let t = &m.tables[0];
        let TemplateFit::Serves(k) = fit(
            t,
            "UserId",
            "Phase = :s",
            "UserId = :u AND Phase = :s",
            &[(":s", "DONE")],
        ) else {
            panic!("not served")
        };
        assert_eq!(k.index.map(|i| i.name.as_str()), Some("ByPhasePlayed"));
        assert_eq!(
            k.condition.render(k.sort_key),
            "begins_with(PhasePlayed, \"GAME#DONE#\")"
        );

        let TemplateFit::Serves(k) = fit(t, "UserId", "Phase = :s", "UserId = :u AND #d < :b", &[])
        else {
            panic!("not served")
        };
        // `#d` is unresolved: no range is known, the prefix stays symbolic.
        assert_eq!(
            k.condition,
            SortKeyCondition::BeginsWith("GAME#{Phase}#".into())
        );

        let TemplateFit::Serves(k) = fit(
            t,
            "UserId",
            "Phase = :s",
            "Played < :b",
            &[(":s", "Ordered"), (":b", "2020-05-05")],
        ) else {
            panic!("not served")
        };
        assert_eq!(
            k.condition.render("PhasePlayed"),
            "PhasePlayed BETWEEN \"GAME#Ordered#\" AND \"GAME#Ordered#2020-05-05\""
        );
        let TemplateFit::Serves(k) = fit(
            t,
            "UserId",
            "Phase = :s",
            "Played >= :a",
            &[(":s", "Ordered"), (":a", "2020")],
        ) else {
            panic!("not served")
        };
        assert_eq!(
            k.condition,
            SortKeyCondition::Between("GAME#Ordered#2020".into(), "GAME#Ordered$".into())
        );
        // A later component the call fixes too extends the key to the whole value.
        let TemplateFit::Serves(k) = fit(
            t,
            "UserId",
            "Phase = :s",
            "Played = :d",
            &[(":s", "DONE"), (":d", "2020")],
        ) else {
            panic!("not served")
        };
        assert_eq!(
            k.condition,
            SortKeyCondition::Equals("GAME#DONE#2020".into())
        );
    }

    #[test]
    fn a_later_component_needs_the_ones_before_it_fixed() {
        let m = load_str(
            Path::new("dynalint.toml"),
            MODEL
                .replace("PhasePlayed = \"GAME#{Phase}#{Played}\", ", "")
                .as_str(),
        )
        .unwrap();
        let t = &m.tables[0];
        match fit(t, "UserId", "Phase = :s", "Phase = :s", &[]) {
            TemplateFit::NotLeading(u) => {
                assert_eq!(u.sort_key, "PlayedPhase");
                assert_eq!(u.unfixed, "Played");
            }
            other => panic!("{other:?}"),
        }
        let TemplateFit::Serves(k) = fit(
            t,
            "UserId",
            "Phase = :s",
            "Played = :d AND Phase = :s",
            &[(":d", "2020-05-10"), (":s", "DONE")],
        ) else {
            panic!("not served")
        };
        assert_eq!(
            k.condition,
            SortKeyCondition::Equals("2020-05-10:DONE".into())
        );
    }

    #[test]
    fn only_the_queried_item_collection_counts() {
        let m = load_str(Path::new("dynalint.toml"), MODEL).unwrap();
        let t = &m.tables[0];
        // `Packed` holds `{Genre}` but is keyed by `Region`, not the queried `UserId`.
        assert_eq!(
            fit(t, "UserId", "Genre = :k", "Genre = :k", &[]),
            TemplateFit::None
        );
        assert!(matches!(
            fit(t, "Region", "Genre = :k", "Genre = :k", &[]),
            TemplateFit::Serves(_)
        ));
        // A sparse index the entity never reaches serves none of its items.
        let sparse = MODEL.replace("[\"Region\", \"Genre\"]", "[\"Genre\"]");
        let m = load_str(Path::new("dynalint.toml"), &sparse).unwrap();
        assert_eq!(
            fit(&m.tables[0], "Region", "Genre = :k", "Genre = :k", &[]),
            TemplateFit::None
        );
        // Only equality filters become a prefix.
        assert_eq!(
            fit(t, "UserId", "Phase > :s", "Phase > :s", &[]),
            TemplateFit::None
        );
        // An attribute no template holds.
        assert_eq!(
            fit(t, "UserId", "Colour = :c", "Colour = :c", &[]),
            TemplateFit::None
        );
    }

    #[test]
    fn upper_bound_increments_the_last_character() {
        assert_eq!(upper_bound("Ordered:").as_deref(), Some("Ordered;"));
        assert_eq!(upper_bound("DONE_").as_deref(), Some("DONE`"));
        assert_eq!(upper_bound(""), None);
    }
}
