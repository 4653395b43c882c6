//! `dynalint model show`: the model as readable plain text — tables, key schemas,
//! indexes with their projections, and which entities land in which index.

use std::fmt::Write;

use super::facts::{Presence, Projected};
use super::types::*;

/// Where a table came from: `dynalint.toml:3`, `infra/template.yaml:12 (SAM OrdersTable)`.
/// Paths under the model's folder are shown relative to it, so output is the same
/// wherever the command runs.
pub fn origin(model: &Model, o: &TableOrigin) -> String {
    let base = model.path.parent().unwrap_or(std::path::Path::new(""));
    let path = o.path.strip_prefix(base).unwrap_or(&o.path);
    let mut s = path.to_string_lossy().replace('\\', "/");
    if o.line > 0 {
        let _ = write!(s, ":{}", o.line);
    }
    if o.kind != OriginKind::DynalintToml {
        let _ = write!(s, " ({}", o.kind.label());
        if let Some(id) = &o.id {
            let _ = write!(s, " {id}");
        }
        s.push(')');
    }
    s
}

/// Renders the whole model. Deterministic (declaration order), no colour, no trailing
/// spaces, so it can be snapshot-tested and piped.
pub fn render(model: &Model) -> String {
    let mut out = String::new();
    if model.tables.is_empty() {
        out.push_str("no tables declared\n");
    }
    for (n, t) in model.tables.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        table(&mut out, model, t);
    }
    if !model.access_patterns.is_empty() {
        out.push_str("\naccess patterns\n");
        for p in &model.access_patterns {
            access_pattern(&mut out, p);
        }
    }
    out
}

/// `PK (S)`, or `PK (?)` when the attribute has no declared type.
fn typed(t: &Table, attr: &str) -> String {
    match t.attribute(attr) {
        Some(a) => format!("{attr} ({})", a.ty),
        None => format!("{attr} (?)"),
    }
}

fn key_schema(t: &Table, pk: &str, sk: Option<&str>) -> String {
    match sk {
        Some(sk) => format!("partition {}, sort {}", typed(t, pk), typed(t, sk)),
        None => format!("partition {}", typed(t, pk)),
    }
}

/// 1234567 → "1,234,567".
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes in the largest fitting decimal unit, as DynamoDB's console shows sizes.
fn bytes(n: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut v = n;
    let mut unit = 0;
    while v >= 1000.0 && unit + 1 < UNITS.len() {
        v /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{v:.0} B")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

fn table(out: &mut String, model: &Model, t: &Table) {
    let _ = write!(out, "table {}", t.name);
    if !t.refs.is_empty() {
        let _ = write!(out, " (also named {})", t.refs.join(", "));
    }
    out.push('\n');
    let _ = writeln!(out, "  from       {}", origin(model, &t.origin));
    let _ = writeln!(
        out,
        "  key        {}",
        key_schema(t, &t.partition_key, t.sort_key.as_deref())
    );
    match (t.item_count, t.avg_item_size) {
        (Some(c), Some(s)) => {
            let _ = writeln!(
                out,
                "  items      {} × {} B = {}",
                thousands(c),
                thousands(s),
                bytes(c as f64 * s as f64)
            );
        }
        (Some(c), None) => {
            let _ = writeln!(out, "  items      {}", thousands(c));
        }
        (None, Some(s)) => {
            let _ = writeln!(out, "  items      ? × {} B", thousands(s));
        }
        (None, None) => {}
    }
    if let Some(r) = t.write_rate {
        let _ = writeln!(out, "  writes     {} items/s", thousands(r.round() as u64));
    }
    if t.billing_mode.is_some() || t.provisioned.is_some() {
        let _ = writeln!(
            out,
            "  billing    {}",
            billing(t.billing_mode, t.provisioned)
        );
    }
    if !t.attributes.is_empty() {
        out.push_str("  attributes\n");
        for a in t.attributes.values() {
            attribute(out, a);
        }
    }
    if !t.indexes.is_empty() {
        out.push_str("  indexes\n");
        for i in &t.indexes {
            index(out, t, i);
        }
    }
    if !t.entities.is_empty() {
        out.push_str("  entities\n");
        for e in &t.entities {
            entity(out, t, e);
        }
    }
}

/// `PAY_PER_REQUEST`, `PROVISIONED 5 RCU, 5 WCU`.
fn billing(mode: Option<BillingMode>, p: Option<Throughput>) -> String {
    let mode = match (mode, p) {
        (Some(m), _) => m.as_str(),
        // CloudFormation's default when capacity is given and no mode is.
        (None, Some(_)) => BillingMode::Provisioned.as_str(),
        (None, None) => "?",
    };
    match p {
        Some(p) => format!("{mode} {}", capacity(p)),
        None => mode.to_string(),
    }
}

/// `5 RCU, 5 WCU`, `? RCU` for a figure not known.
fn capacity(p: Throughput) -> String {
    let n = |v: Option<u64>| v.map_or("?".to_string(), thousands);
    format!("{} RCU, {} WCU", n(p.read), n(p.write))
}

fn attribute(out: &mut String, a: &Attribute) {
    let _ = write!(out, "    {} {}", a.name, a.ty);
    if let Some(v) = &a.values {
        match v {
            ValueSet::List(l) => {
                let _ = write!(out, " values {}", l.join(", "));
            }
            ValueSet::Shares(m) => {
                let shares: Vec<String> = m
                    .iter()
                    .map(|(k, s)| format!("{k} {}%", (s * 1000.0).round() / 10.0))
                    .collect();
                let _ = write!(out, " values {}", shares.join(", "));
            }
        }
    }
    if let Some(c) = a.cardinality {
        let _ = write!(out, " cardinality {}", thousands(c));
    }
    if a.unique {
        out.push_str(" unique");
    }
    out.push('\n');
}

fn index(out: &mut String, t: &Table, i: &Index) {
    let kind = match i.kind {
        IndexKind::Global => "global",
        IndexKind::Local => "local",
    };
    let _ = writeln!(
        out,
        "    {} ({kind}) {}",
        i.name,
        key_schema(t, &i.partition_key, i.sort_key.as_deref())
    );
    let projection = match (&i.projection, i.projected_attributes(t)) {
        (Projection::All, _) | (_, Projected::All) => "ALL".to_string(),
        (Projection::KeysOnly, Projected::Only(a)) => format!("KEYS_ONLY: {}", a.join(", ")),
        (Projection::Include(_), Projected::Only(a)) => format!("INCLUDE: {}", a.join(", ")),
    };
    let _ = writeln!(out, "      projects {projection}");
    if t.origin.kind == OriginKind::Usage {
        out.push_str("      from     the code's Queries that name it (keys as they read it; projection not known)\n");
    }
    if let Some(p) = i.provisioned {
        let _ = writeln!(out, "      capacity {}", capacity(p));
    }
    if t.entities.is_empty() {
        return;
    }
    let mut present = Vec::new();
    let mut absent = Vec::new();
    let mut unknown = Vec::new();
    for (e, p) in t.entities_in(i) {
        match p {
            Presence::Present => present.push(e.name.as_str()),
            Presence::Absent => absent.push(e.name.as_str()),
            Presence::Unknown => unknown.push(e.name.as_str()),
        }
    }
    let list = |v: &[&str]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let _ = writeln!(out, "      holds    {}", list(&present));
    if !absent.is_empty() {
        let _ = writeln!(out, "      sparse   absent: {}", absent.join(", "));
    }
    if !unknown.is_empty() {
        let _ = writeln!(
            out,
            "      unknown  {} (declare `keys` or `attributes`)",
            unknown.join(", ")
        );
    }
}

fn entity(out: &mut String, t: &Table, e: &Entity) {
    let _ = write!(out, "    {}", e.name);
    if let Some(c) = e.count {
        let _ = write!(out, " × {}", thousands(c));
        if let Some(size) = e.size_bytes(t) {
            let _ = write!(out, " = {}", bytes(size as f64));
        }
    }
    out.push('\n');
    if !e.keys.is_empty() {
        let keys: Vec<String> = e.keys.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        let _ = writeln!(out, "      keys       {}", keys.join(", "));
    }
    if !e.attributes.is_empty() {
        let _ = writeln!(out, "      attributes {}", e.attributes.join(", "));
    }
    if let Some(r) = e.write_rate {
        let _ = writeln!(
            out,
            "      writes     {} items/s",
            thousands(r.round() as u64)
        );
    }
}

fn access_pattern(out: &mut String, p: &AccessPattern) {
    let target = match &p.index {
        Some(i) => format!("{}.{i}", p.table),
        None => p.table.clone(),
    };
    let _ = write!(out, "  {}: {target}", p.name);
    if !p.key.is_empty() {
        let key: Vec<String> = p.key.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        let _ = write!(out, " where {}", key.join(" and "));
    }
    match p.order {
        Some(Order::Asc) => out.push_str(", ascending"),
        Some(Order::Desc) => out.push_str(", descending"),
        None => {}
    }
    if let Some(l) = p.limit {
        let _ = write!(out, ", limit {l}");
    }
    if let Some(r) = p.rate {
        let _ = write!(out, ", {r}/s");
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_figures() {
        assert_eq!(thousands(5_000_000), "5,000,000");
        assert_eq!(thousands(400), "400");
        assert_eq!(bytes(2.0e9), "2.0 GB");
        assert_eq!(bytes(999.0), "999 B");
    }
}
