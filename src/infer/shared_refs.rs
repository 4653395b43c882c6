//! A ref that two inferred tables answer to leads to neither.
//!
//! A repository of several small applications, one SAM template each, hands every
//! function the same variable (`TABLE_NAME: !Ref Table`), each for its own table. A
//! ref has no folder scope in the model, so kept on both tables it would bind every
//! call to whichever table came first: a guess, and an error-level finding when the
//! other table's keys differ. It is dropped from every table that holds it, with a
//! note naming them: calls that name their table by it are unbound (their table
//! unknown), and the `dynalint.toml` that `init` writes loads.
//!
//! One case is no ambiguity: a table the code creates under a variable
//! (`create_table().table_name(env::var("TABLE")?)`, named `{TABLE}`) and the one
//! table a template hands that variable are the same table, merged as one (different
//! keys are `import::merge`'s note).

use std::collections::BTreeMap;

use super::from_code::CodeNote;
use crate::model::import::{self, Imported};
use crate::model::types::{Table, TableOrigin};

/// Merges each table named only by a variable (`{TABLE}`) into the one other table
/// that variable names, then removes every ref that two tables still answer to (as a
/// ref, or one as its name); a note for each, placed at the last of them.
pub fn drop_shared(tables: &mut Vec<Table>) -> Vec<CodeNote> {
    let mut notes = merge_placeholders(tables);
    // ref -> the tables that answer to it, in model order.
    let mut holders: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, t) in tables.iter().enumerate() {
        for r in &t.refs {
            holders.entry(r.as_str()).or_default().push(i);
        }
    }
    let shared: Vec<(String, Vec<usize>)> = holders
        .into_iter()
        .filter_map(|(r, mut h)| {
            // A table named `r` answers to it too, whatever its refs say.
            for (i, t) in tables.iter().enumerate() {
                if t.name == r && !h.contains(&i) {
                    h.push(i);
                }
            }
            h.sort_unstable();
            h.dedup();
            (h.len() > 1).then(|| (r.to_string(), h))
        })
        .collect();
    for (r, h) in shared {
        for &i in &h {
            tables[i].refs.retain(|x| *x != r);
        }
        let named: Vec<String> = h
            .iter()
            .map(|&i| format!("`{}` ({})", tables[i].name, place(&tables[i].origin)))
            .collect();
        // Named so, one table still answers to it by its name.
        let by_name = h.iter().find(|&&i| tables[i].name == r);
        let outcome = match by_name {
            Some(_) => format!("it is kept only as the name of `{r}`"),
            None => "calls that name their table by it are bound to none".to_string(),
        };
        let last = &tables[h[h.len() - 1]];
        notes.push(CodeNote {
            file: last.origin.path.clone(),
            line: last.origin.line,
            span: last.name_span,
            message: format!(
                "`{r}` names {} tables: {}; {outcome} (a `dynalint.toml` says which)",
                h.len(),
                named.join(" and "),
            ),
        });
    }
    notes
}

/// The variable a placeholder name stands for: `TABLE` for `{TABLE}`.
fn placeholder_of(name: &str) -> Option<&str> {
    name.strip_prefix('{')?
        .strip_suffix('}')
        .filter(|v| !v.contains(['{', '}']))
}

fn merge_placeholders(tables: &mut Vec<Table>) -> Vec<CodeNote> {
    let mut notes = Vec::new();
    let mut i = 0;
    while i < tables.len() {
        let target = placeholder_of(&tables[i].name).and_then(|var| {
            let mut named = tables.iter().enumerate().filter(|(j, t)| {
                *j != i && t.is_named_by(var) && placeholder_of(&t.name).is_none()
            });
            match (named.next(), named.next()) {
                (Some((j, _)), None) => Some(j),
                _ => None,
            }
        });
        let Some(j) = target else {
            i += 1;
            continue;
        };
        let mut t = tables.remove(i);
        t.name = tables[if j > i { j - 1 } else { j }].name.clone();
        let mut into = Imported {
            tables: std::mem::take(tables),
            ..Imported::default()
        };
        import::merge(
            &mut into,
            Imported {
                tables: vec![t],
                ..Imported::default()
            },
        );
        *tables = into.tables;
        notes.extend(into.notes.into_iter().map(|n| CodeNote {
            file: n.path,
            line: n.line,
            span: n.span,
            message: n.message,
        }));
    }
    notes
}

fn place(o: &TableOrigin) -> String {
    let path = crate::workspace::display_path(&o.path);
    if o.line > 0 {
        format!("{path}:{}", o.line)
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::Arc;

    use super::*;
    use crate::model::types::OriginKind;
    use crate::source::Span;

    fn table(name: &str, refs: &[&str], file: &str, line: usize) -> Table {
        let origin = TableOrigin {
            kind: OriginKind::Sam,
            path: Arc::from(Path::new(file)),
            line,
            id: None,
        };
        let refs = refs.iter().map(|r| r.to_string()).collect();
        super::super::from_code::blank(
            name.to_string(),
            refs,
            "id".to_string(),
            None,
            Span::new(0, 0),
            origin,
        )
    }

    #[test]
    fn a_ref_of_two_tables_is_dropped_from_both_with_a_note() {
        let mut tables = vec![
            table(
                "orders",
                &["TABLE_NAME", "ORDERS"],
                "orders/template.yaml",
                6,
            ),
            table("payments", &["TABLE_NAME"], "payments/template.yaml", 9),
        ];
        let notes = drop_shared(&mut tables);
        assert_eq!(tables[0].refs, ["ORDERS"]);
        assert!(tables[1].refs.is_empty());
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(&*notes[0].file, Path::new("payments/template.yaml"));
        assert_eq!(notes[0].line, 9);
        assert_eq!(
            notes[0].message,
            "`TABLE_NAME` names 2 tables: `orders` (orders/template.yaml:6) and `payments` \
             (payments/template.yaml:9); calls that name their table by it are bound to none \
             (a `dynalint.toml` says which)"
        );
    }

    #[test]
    fn a_ref_that_is_another_table_s_name_stays_that_table_s_name() {
        let mut tables = vec![
            table("orders", &[], "template.yaml", 3),
            table("archive", &["orders"], "src/setup.rs", 12),
        ];
        let notes = drop_shared(&mut tables);
        assert!(tables[1].refs.is_empty());
        assert_eq!(tables[0].name, "orders");
        assert!(
            notes[0]
                .message
                .contains("kept only as the name of `orders`"),
            "{notes:?}"
        );
    }

    #[test]
    fn a_table_the_code_creates_under_a_variable_is_the_template_s_table_of_it() {
        let mut tables = vec![
            table(
                "UserCredentials_{Env}",
                &["CREDENTIALS"],
                "template.yaml",
                69,
            ),
            table("{CREDENTIALS}", &["CREDENTIALS"], "src/bootstrap.rs", 156),
        ];
        let notes = drop_shared(&mut tables);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(tables.len(), 1);
        assert_eq!(tables[0].name, "UserCredentials_{Env}");
        assert_eq!(tables[0].refs, ["CREDENTIALS"]);
    }

    #[test]
    fn refs_of_one_table_each_are_kept() {
        let mut tables = vec![
            table("orders", &["ORDERS_TABLE"], "template.yaml", 3),
            table("payments", &["PAYMENTS_TABLE"], "template.yaml", 20),
        ];
        assert!(drop_shared(&mut tables).is_empty());
        assert_eq!(tables[0].refs, ["ORDERS_TABLE"]);
        assert_eq!(tables[1].refs, ["PAYMENTS_TABLE"]);
    }
}
