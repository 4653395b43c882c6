//! CloudFormation templates, YAML or JSON — plain, SAM (`Transform:
//! AWS::Serverless-2016-10-31`) or synthesised by CDK (`cdk.out/*.template.json`):
//! `AWS::DynamoDB::Table`, `AWS::DynamoDB::GlobalTable` and
//! `AWS::Serverless::SimpleTable` resources.
//!
//! Intrinsic functions are read in both forms (`!Sub "${Stage}-orders"` and
//! `{"Fn::Sub": ..}`). Key names and figures resolve through parameter defaults,
//! `Mappings` and literal `!Join`/`!Select`; a table name keeps what a deployment fills
//! in as placeholders (`{Stage}-orders`), and a table without `TableName` gets the
//! name CloudFormation generates, `{StackName}-<LogicalId>-{suffix}`. Environment
//! variables that hand a table to a function become its `refs`.

use std::collections::HashMap;

use super::shape::{attribute, blank_table, read_table, throughput, Eval};
use super::tree::{Node, Value};
use super::{Found, Imported};
use crate::attr::AttributeType;
use crate::model::template::KeyTemplate;
use crate::model::types::*;
use crate::source::FilePath;

/// Resource types that declare a table.
const TABLE_TYPES: &[&str] = &[
    "AWS::DynamoDB::Table",
    "AWS::DynamoDB::GlobalTable",
    "AWS::Serverless::SimpleTable",
];

/// True for a CloudFormation template: the format version, or `Resources` of AWS types.
pub fn is_template(doc: &Node) -> bool {
    doc.get("AWSTemplateFormatVersion").is_some()
        || doc.get("Resources").is_some_and(|r| {
            r.entries().iter().any(|(_, _, res)| {
                res.get("Type")
                    .and_then(Node::text)
                    .is_some_and(|t| t.starts_with("AWS::"))
            })
        })
}

/// Which kind of template: SAM by its transform, CDK by its metadata or its folder.
fn kind_of(file: &FilePath, doc: &Node) -> OriginKind {
    let transform = doc.get("Transform").unwrap_or(Node::null());
    let is_sam = std::iter::once(transform)
        .chain(transform.items())
        .filter_map(Node::text)
        .any(|t| t.starts_with("AWS::Serverless"));
    let cdk_metadata = doc.get("Resources").is_some_and(|r| {
        r.entries()
            .iter()
            .any(|(_, _, res)| res.at(&["Metadata", "aws:cdk:path"]).is_some())
    });
    let in_cdk_out = file.components().any(|c| c.as_os_str() == "cdk.out");
    if is_sam {
        OriginKind::Sam
    } else if cdk_metadata || in_cdk_out {
        OriginKind::Cdk
    } else {
        OriginKind::CloudFormation
    }
}

/// Imports every table resource of the template.
pub fn import(file: FilePath, doc: &Node) -> Imported {
    let kind = kind_of(&file, doc);
    let mut found = Found::new(file, kind);
    let cfn = Template::new(doc);
    import_resources(&cfn, doc.get("Resources"), &mut found);
    add_env_refs(&cfn, doc, &mut found);
    found.finish()
}

/// Imports the tables of a `Resources` mapping (a template's, or the `resources` of a
/// Serverless service) into `found`.
pub fn import_resources(cfn: &Template<'_>, resources: Option<&Node>, found: &mut Found) {
    for (id, key, res) in resources.map(Node::entries).unwrap_or_default() {
        let Some(ty) = res.get("Type").and_then(Node::text) else {
            continue;
        };
        if !TABLE_TYPES.contains(&ty) {
            continue;
        }
        let props = res.get("Properties").unwrap_or(Node::null());
        let (name, name_span) = match props.get("TableName") {
            Some(n) => match cfn.name(n) {
                Some(name) => (name, n.span),
                None => {
                    found.note(
                        n,
                        format!(
                            "the `TableName` of `{id}` is not known statically; the table \
                             goes by its logical id, and calls bind to it through the \
                             environment variables that carry it"
                        ),
                    );
                    (id.clone(), n.span)
                }
            },
            None => (generated_name(id), key.span),
        };
        let origin = found.origin(key.line, Some(id.clone()));
        let span = key.span.cover(res.span);
        let mut table = blank_table(name, name_span, span, origin);
        let ok = if ty == "AWS::Serverless::SimpleTable" {
            simple_table(props, cfn, &mut table, found)
        } else {
            read_table(props, cfn, &mut table, found)
        };
        if ok {
            if ty == "AWS::DynamoDB::GlobalTable" && table.provisioned.is_none() {
                // A global table's write capacity is set once for every replica.
                table.provisioned = props
                    .get("WriteProvisionedThroughputSettings")
                    .and_then(|w| {
                        let units = w.at(&["WriteCapacityAutoScalingSettings", "MinCapacity"]);
                        units.and_then(|u| cfn.count(u)).map(|n| Throughput {
                            read: None,
                            write: Some(n),
                        })
                    });
            }
            found.tables.push(table);
        }
    }
}

/// What CloudFormation names a table declared without `TableName`.
fn generated_name(id: &str) -> String {
    format!("{{StackName}}-{id}-{{suffix}}")
}

/// `AWS::Serverless::SimpleTable`: `PrimaryKey: {Name, Type: String|Number|Binary}`,
/// `id` of type `String` when absent.
fn simple_table(props: &Node, cfn: &Template<'_>, table: &mut Table, found: &mut Found) -> bool {
    let pk = props.get("PrimaryKey");
    let name = match pk.and_then(|p| p.get("Name")) {
        Some(n) => match cfn.text(n).filter(|s| !s.is_empty()) {
            Some(s) => s,
            None => {
                found.note(
                    n,
                    format!(
                        "the primary key of `{}` is not known statically; it is not imported",
                        table.name
                    ),
                );
                return false;
            }
        },
        None => "id".to_string(),
    };
    let ty = match pk.and_then(|p| p.get("Type")).and_then(|t| cfn.text(t)) {
        None => Some(AttributeType::S),
        Some(t) => match t.as_str() {
            "String" => Some(AttributeType::S),
            "Number" => Some(AttributeType::N),
            "Binary" => Some(AttributeType::B),
            _ => None,
        },
    };
    let span = pk.map_or(props.span, |p| p.span);
    table.fields.insert("partition-key", span);
    if let Some(ty) = ty {
        table
            .attributes
            .insert(name.clone(), attribute(name.clone(), ty, span, span));
    }
    table.partition_key = name;
    if let Some(p) = props.get("ProvisionedThroughput") {
        table.provisioned = throughput(p, cfn);
    }
    table.billing_mode = Some(if table.provisioned.is_some() {
        BillingMode::Provisioned
    } else {
        BillingMode::PayPerRequest
    });
    true
}

/// An intrinsic function call in either form: `!Ref X` or `{"Ref": "X"}`, `!Sub ..` or
/// `{"Fn::Sub": ..}`. The name is without `Fn::`.
pub fn intrinsic(node: &Node) -> Option<(&str, &Node)> {
    match &node.value {
        Value::Tagged(tag, arg) => Some((tag.as_str(), arg)),
        Value::Map(entries) => match entries.as_slice() {
            [(k, _, arg)] if k == "Ref" || k == "Condition" => Some((k.as_str(), arg)),
            [(k, _, arg)] => k.strip_prefix("Fn::").map(|f| (f, arg)),
            _ => None,
        },
        _ => None,
    }
}

/// A template's parameters and mappings, for resolving values.
pub struct Template<'t> {
    parameters: Option<&'t Node>,
    mappings: Option<&'t Node>,
    /// Strings may hold `{placeholders}` already (Serverless variables resolved to
    /// them); plain CloudFormation strings never do.
    placeholders_in_strings: bool,
}

/// How deep functions may nest before a value is called unknown (a template that
/// nests deeper is not one a person wrote; this bounds the work on hostile input).
const MAX_NESTING: usize = 16;

impl<'t> Template<'t> {
    pub fn new(doc: &'t Node) -> Self {
        Self {
            parameters: doc.get("Parameters"),
            mappings: doc.get("Mappings"),
            placeholders_in_strings: false,
        }
    }

    /// For a document whose strings carry `{placeholders}` already.
    pub fn with_placeholders(doc: &'t Node) -> Self {
        Self {
            placeholders_in_strings: true,
            ..Self::new(doc)
        }
    }

    /// `!Ref P` of a parameter `P` with no `Default`: a value only the deployment
    /// knows (another stack's output, typically).
    fn parameter_without_default<'n>(&self, node: &'n Node) -> Option<&'n str> {
        let ("Ref", arg) = intrinsic(node)? else {
            return None;
        };
        let name = arg.text()?;
        let p = self.parameters?.get(name)?;
        p.get("Default").is_none().then_some(name)
    }

    /// A parameter's `Default`, when it has one.
    fn default_of(&self, name: &str) -> Option<&'t Node> {
        self.parameters?.get(name)?.get("Default")
    }

    /// The value a node certainly has: literals, parameter defaults, mappings and the
    /// functions over them.
    fn value(&self, node: &Node, depth: usize) -> Option<String> {
        if depth > MAX_NESTING {
            return None;
        }
        if let Some(t) = node.text() {
            if self.placeholders_in_strings && t.contains('{') {
                return None;
            }
            return Some(t.to_string());
        }
        let (f, arg) = intrinsic(node)?;
        match f {
            "Ref" => {
                let name = arg.text()?;
                self.default_of(name).and_then(|d| self.value(d, depth + 1))
            }
            "Join" => {
                let [sep, list] = arg.items() else {
                    return None;
                };
                let sep = sep.text()?;
                let parts: Option<Vec<String>> = list
                    .items()
                    .iter()
                    .map(|p| self.value(p, depth + 1))
                    .collect();
                Some(parts?.join(sep))
            }
            "Select" => {
                let [i, list] = arg.items() else {
                    return None;
                };
                let i: usize = self.value(i, depth + 1)?.parse().ok()?;
                self.value(list.items().get(i)?, depth + 1)
            }
            "FindInMap" => {
                let [map, top, second, ..] = arg.items() else {
                    return None;
                };
                let map = self.value(map, depth + 1)?;
                let top = self.value(top, depth + 1)?;
                let second = self.value(second, depth + 1)?;
                let v = self.mappings?.get(&map)?.get(&top)?.get(&second)?;
                self.value(v, depth + 1)
            }
            "If" => {
                // Either branch may be deployed: known only when both agree.
                let [_, a, b] = arg.items() else {
                    return None;
                };
                let a = self.value(a, depth + 1)?;
                (self.value(b, depth + 1)? == a).then_some(a)
            }
            "Sub" => {
                let t = self.sub_template(arg, depth + 1)?;
                (!t.contains('{')).then_some(t)
            }
            _ => None,
        }
    }

    /// A table name, keeping what a deployment fills in as `{placeholders}`.
    pub fn name(&self, node: &Node) -> Option<String> {
        // A name that is one parameter (`TableName: !Ref OrdersTableName`) is its
        // default: the parameter exists to name the table, not to vary a part of it.
        if let Some(("Ref", arg)) = intrinsic(node) {
            let default = arg.text().and_then(|n| self.default_of(n));
            if let Some(v) = default.and_then(|d| self.value(d, 1)) {
                return Some(v);
            }
        }
        self.template(node, 0)
    }

    fn template(&self, node: &Node, depth: usize) -> Option<String> {
        if depth > MAX_NESTING {
            return None;
        }
        if let Some(t) = node.text() {
            if self.placeholders_in_strings {
                return KeyTemplate::parse(t).ok().map(|_| t.to_string());
            }
            // Braces are not in DynamoDB's table-name alphabet; a literal holding one
            // would read as a placeholder.
            return (!t.contains(['{', '}'])).then(|| t.to_string());
        }
        let (f, arg) = intrinsic(node)?;
        match f {
            "Ref" => {
                let name = arg.text()?;
                Some(placeholder(name))
            }
            "Sub" => self.sub_template(arg, depth + 1),
            "Join" => {
                let [sep, list] = arg.items() else {
                    return None;
                };
                let sep = sep.text()?;
                let parts: Option<Vec<String>> = list
                    .items()
                    .iter()
                    .map(|p| self.template(p, depth + 1))
                    .collect();
                Some(parts?.join(sep))
            }
            _ => self.value(node, depth + 1),
        }
    }

    /// `!Sub "${Stage}-orders"` or `!Sub ["${Stage}-${Name}", {Name: orders}]` as a
    /// name template: variables given a value are filled in, the others kept.
    fn sub_template(&self, arg: &Node, depth: usize) -> Option<String> {
        let (text, vars) = match (arg.text(), arg.items()) {
            (Some(t), _) => (t, None),
            (None, [t, vars]) => (t.text()?, Some(vars)),
            _ => return None,
        };
        let mut out = String::new();
        let mut rest = text;
        while let Some(i) = rest.find("${") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 2..];
            let end = after.find('}')?;
            let var = &after[..end];
            if var.starts_with('!') {
                // `${!Literal}` writes `${Literal}`: braces no name can hold.
                return None;
            }
            match vars.and_then(|v| v.get(var)) {
                Some(v) => out.push_str(&self.template(v, depth + 1)?),
                None => out.push_str(&placeholder(var)),
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        KeyTemplate::parse(&out).ok().map(|_| out)
    }
}

/// `{Stage}` for a parameter, `{StackName}` for a pseudo parameter (`AWS::StackName`),
/// `{Orders.Arn}` for an attribute; other characters become `_` so the result is a
/// key-template placeholder.
fn placeholder(name: &str) -> String {
    let name = name.strip_prefix("AWS::").unwrap_or(name);
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{{{clean}}}")
}

impl Eval for Template<'_> {
    fn text(&self, node: &Node) -> Option<String> {
        self.value(node, 0)
    }

    fn list<'n>(&self, node: &'n Node) -> Option<&'n [Node]> {
        match &node.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }
}

/// The table an environment variable's value names: `!Ref OrdersTable`,
/// `!Sub "${OrdersTable}"`, `!GetAtt OrdersTable.Arn` (the SDK takes an ARN as a table
/// name), or the table's name itself.
fn table_named_by(value: &Node, tables: &TablesBy, cfn: &Template<'_>) -> Option<usize> {
    let by_id = |id: &str| tables.id.get(id).copied();
    if let Some((f, arg)) = intrinsic(value) {
        match f {
            "Ref" => {
                if let Some(i) = arg.text().and_then(by_id) {
                    return Some(i);
                }
            }
            "GetAtt" => {
                let id = match (arg.text(), arg.items()) {
                    (Some(t), _) => t.split('.').next(),
                    (None, [id, attr]) if attr.text() == Some("Arn") => id.text(),
                    _ => None,
                };
                if let Some(i) = id.and_then(by_id) {
                    return Some(i);
                }
            }
            "Sub" => {
                let text = arg.text().unwrap_or_default();
                let inner = text.strip_prefix("${").and_then(|t| t.strip_suffix('}'));
                if let Some(i) = inner.and_then(|v| by_id(v.split('.').next().unwrap_or(v))) {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    let name = cfn.name(value)?;
    tables.name.get(name.as_str()).copied()
}

/// The first of the tables with each logical id and each name: a template's function
/// per table finds its table at once, not by a search of every table.
struct TablesBy {
    id: HashMap<String, usize>,
    name: HashMap<String, usize>,
}

impl TablesBy {
    fn new(tables: &[Table]) -> Self {
        let mut by = Self {
            id: HashMap::new(),
            name: HashMap::new(),
        };
        for (i, t) in tables.iter().enumerate() {
            if let Some(id) = &t.origin.id {
                by.id.entry(id.clone()).or_insert(i);
            }
            by.name.entry(t.name.clone()).or_insert(i);
        }
        by
    }
}

/// True for a name with literal text: `{Stage}` alone could be any table.
fn names_something(name: &str) -> bool {
    KeyTemplate::parse(name).is_ok_and(|t| !t.literal_parts_empty())
}

/// Every environment variable the document hands to something (a function, a
/// container, SAM's `Globals`) whose value names one of `found`'s tables becomes one of
/// that table's `refs`.
pub fn add_env_refs(cfn: &Template<'_>, doc: &Node, found: &mut Found) {
    let mut pairs = Vec::new();
    env_vars(doc, 0, &mut pairs);
    // Refs are added below; ids and names do not change.
    let by = TablesBy::new(&found.tables);
    for (var, value) in pairs {
        if let Some(i) = table_named_by(value, &by, cfn) {
            let refs = &mut found.tables[i].refs;
            if !refs.iter().any(|r| r == var) {
                refs.push(var.to_string());
            }
        } else if let Some(name) = cfn.name(value).filter(|n| names_something(n)) {
            found.env_names.push((var.to_string(), name));
        } else if let Some(param) = cfn.parameter_without_default(value) {
            found.env_params.push((var.to_string(), param.to_string()));
        }
    }
}

/// `(name, value)` of every environment variable: `Environment: {Variables: {..}}`
/// (Lambda, SAM), `Environment: [{Name, Value}]` (ECS containers), and Serverless
/// Framework's `environment: {..}`.
fn env_vars<'n>(node: &'n Node, depth: usize, out: &mut Vec<(&'n str, &'n Node)>) {
    if depth > 64 {
        return;
    }
    match &node.value {
        Value::Map(entries) => {
            for (k, _, v) in entries {
                match k.as_str() {
                    "Environment" => {
                        for (name, _, value) in
                            v.get("Variables").map(Node::entries).unwrap_or_default()
                        {
                            out.push((name, value));
                        }
                        for item in v.items() {
                            if let (Some(name), Some(value)) =
                                (item.get("Name").and_then(Node::text), item.get("Value"))
                            {
                                out.push((name, value));
                            }
                        }
                    }
                    "environment" => {
                        for (name, _, value) in v.entries() {
                            out.push((name, value));
                        }
                    }
                    _ => {}
                }
                env_vars(v, depth + 1, out);
            }
        }
        Value::Seq(items) => {
            for i in items {
                env_vars(i, depth + 1, out);
            }
        }
        Value::Tagged(_, inner) => env_vars(inner, depth + 1, out),
        _ => {}
    }
}
