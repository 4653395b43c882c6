//! PartiQL for DynamoDB: `ExecuteStatement`, `BatchExecuteStatement` and
//! `ExecuteTransaction`, for the statements DynamoDB runs: `SELECT` (a Query when the
//! `WHERE` fixes the partition key by equality, a Scan otherwise), `INSERT ... VALUE`
//! (never an upsert), `UPDATE ... SET/REMOVE ... WHERE <key>` (the item must exist) and
//! `DELETE FROM ... WHERE <key>`.
//!
//! A statement is parsed, then written as the request it stands for (expressions with
//! `#p`/`:p` placeholders of their own, `?` bound to `Parameters` in order), and run
//! by the engine's own operations: one evaluator, one set of rules.

use serde_json::{json, Map, Value};

use super::db::Engine;
use super::error::{DynamoError, DynamoResult, ErrorKind};
use super::eval::{get_path, Step};
use super::ops;
use super::validate::Constraints;
use super::value::Item;
use super::wire::{item_from_json, item_to_json, Body};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// A bare word: keyword or unquoted name.
    Word(String),
    /// A `"quoted"` name.
    Quoted(String),
    /// A `'string'`.
    Str(String),
    Num(String),
    /// Punctuation, including `<=`, `<>`, `!=`, `<<`, `>>`.
    P(&'static str),
}

fn malformed(detail: impl std::fmt::Display) -> DynamoError {
    DynamoError::validation(format!(
        "Statement wasn't well formed, can't be processed: {detail}"
    ))
}

fn lex(src: &str) -> DynamoResult<Vec<Tok>> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    const PUNCT: [&str; 20] = [
        "<<", ">>", "<=", ">=", "<>", "!=", "=", "<", ">", ",", ".", "[", "]", "{", "}", "(", ")",
        ":", "?", "*",
    ];
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '\'' || c == '"' {
            let mut s = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err(malformed("unterminated quoted text")),
                    Some(&q) if q == c && chars.get(i + 1) == Some(&c) => {
                        s.push(c);
                        i += 2;
                    }
                    Some(&q) if q == c => {
                        i += 1;
                        break;
                    }
                    Some(&o) => {
                        s.push(o);
                        i += 1;
                    }
                }
            }
            out.push(if c == '\'' {
                Tok::Str(s)
            } else {
                Tok::Quoted(s)
            });
        } else if c.is_ascii_digit()
            || (c == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            let start = i;
            i += 1;
            while chars
                .get(i)
                .is_some_and(|d| d.is_ascii_alphanumeric() || matches!(d, '.' | '+' | '-'))
            {
                // `e-5`, `1.5`: a sign only right after an exponent mark.
                if matches!(chars[i], '+' | '-') && !matches!(chars[i - 1], 'e' | 'E') {
                    break;
                }
                i += 1;
            }
            out.push(Tok::Num(chars[start..i].iter().collect()));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while chars
                .get(i)
                .is_some_and(|d| d.is_alphanumeric() || *d == '_')
            {
                i += 1;
            }
            out.push(Tok::Word(chars[start..i].iter().collect()));
        } else {
            let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let Some(p) = PUNCT.iter().find(|p| rest.starts_with(**p)) else {
                return Err(malformed(format!("Unexpected character: {c}")));
            };
            out.push(Tok::P(p));
            i += p.len();
        }
    }
    Ok(out)
}

/// One top-level `AND` part of a `WHERE`: its expression text, the top-level
/// attributes it names, and the value when it is `attribute = value`.
#[derive(Debug, Clone)]
struct Conjunct {
    text: String,
    attrs: Vec<String>,
    equals: Option<(String, Value)>,
}

/// A parsed statement, its expressions already written with placeholders.
#[derive(Debug)]
enum Statement {
    Select {
        table: String,
        index: Option<String>,
        /// `None` for `*`.
        paths: Option<Vec<Vec<Step>>>,
        conjuncts: Vec<Conjunct>,
    },
    Insert {
        table: String,
        item: Value,
    },
    Update {
        table: String,
        update: String,
        conjuncts: Vec<Conjunct>,
    },
    Delete {
        table: String,
        conjuncts: Vec<Conjunct>,
    },
}

struct Parser<'a> {
    toks: Vec<Tok>,
    at: usize,
    params: &'a [Value],
    next_param: usize,
    names: Map<String, Value>,
    values: Map<String, Value>,
    /// Top-level attribute names seen since the last reset (per conjunct).
    seen: Vec<String>,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.at).cloned();
        self.at += 1;
        t
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(x)) if x.eq_ignore_ascii_case(w))
    }

    fn eat_word(&mut self, w: &str) -> bool {
        let yes = self.is_word(w);
        if yes {
            self.at += 1;
        }
        yes
    }

    fn expect_word(&mut self, w: &str) -> DynamoResult<()> {
        if self.eat_word(w) {
            Ok(())
        } else {
            Err(malformed(format!("Expected {w}")))
        }
    }

    fn eat(&mut self, p: &str) -> bool {
        let yes = matches!(self.peek(), Some(Tok::P(x)) if *x == p);
        if yes {
            self.at += 1;
        }
        yes
    }

    fn expect(&mut self, p: &str) -> DynamoResult<()> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(malformed(format!("Expected {p}")))
        }
    }

    fn name_placeholder(&mut self, n: &str) -> String {
        if let Some((k, _)) = self.names.iter().find(|(_, v)| v.as_str() == Some(n)) {
            return k.clone();
        }
        let k = format!("#p{}", self.names.len());
        self.names.insert(k.clone(), Value::String(n.to_string()));
        k
    }

    fn value_placeholder(&mut self, v: Value) -> String {
        let k = format!(":p{}", self.values.len());
        self.values.insert(k.clone(), v);
        k
    }

    fn identifier(&mut self) -> DynamoResult<String> {
        match self.next() {
            Some(Tok::Word(w)) | Some(Tok::Quoted(w)) => Ok(w),
            _ => Err(malformed("Expected identifier")),
        }
    }

    /// `"Table"` or `"Table"."Index"`.
    fn table_ref(&mut self) -> DynamoResult<(String, Option<String>)> {
        let table = self.identifier()?;
        let index = if self.eat(".") {
            Some(self.identifier()?)
        } else {
            None
        };
        Ok((table, index))
    }

    /// A document path: its expression text and its steps.
    fn path(&mut self) -> DynamoResult<(String, Vec<Step>)> {
        let first = self.identifier()?;
        self.seen.push(first.clone());
        let mut text = self.name_placeholder(&first);
        let mut steps = vec![Step::Key(first)];
        loop {
            if self.eat(".") {
                let n = self.identifier()?;
                text.push('.');
                text.push_str(&self.name_placeholder(&n));
                steps.push(Step::Key(n));
            } else if self.eat("[") {
                let Some(Tok::Num(n)) = self.next() else {
                    return Err(malformed("Expected a list index"));
                };
                let i: usize = n.parse().map_err(|_| malformed("Invalid list index"))?;
                self.expect("]")?;
                text.push_str(&format!("[{i}]"));
                steps.push(Step::Index(i));
            } else {
                return Ok((text, steps));
            }
        }
    }

    /// A literal or `?`, as an attribute value in wire format.
    fn literal(&mut self) -> DynamoResult<Value> {
        match self.next() {
            Some(Tok::Str(s)) => Ok(json!({ "S": s })),
            Some(Tok::Num(n)) => Ok(json!({ "N": n })),
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("true") => Ok(json!({"BOOL": true})),
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("false") => Ok(json!({"BOOL": false})),
            Some(Tok::Word(w)) if w.eq_ignore_ascii_case("null") => Ok(json!({"NULL": true})),
            Some(Tok::P("?")) => {
                let v = self.params.get(self.next_param).cloned().ok_or_else(|| {
                    DynamoError::validation(
                        "Number of parameters in request and statement don't match.",
                    )
                })?;
                self.next_param += 1;
                Ok(v)
            }
            Some(Tok::P("{")) => {
                let mut m = Map::new();
                if !self.eat("}") {
                    loop {
                        let key = match self.next() {
                            Some(Tok::Str(s)) | Some(Tok::Quoted(s)) | Some(Tok::Word(s)) => s,
                            _ => return Err(malformed("Expected a map key")),
                        };
                        self.expect(":")?;
                        m.insert(key, self.literal()?);
                        if self.eat("}") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                Ok(json!({ "M": m }))
            }
            Some(Tok::P("[")) => {
                let mut l = Vec::new();
                if !self.eat("]") {
                    loop {
                        l.push(self.literal()?);
                        if self.eat("]") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                Ok(json!({ "L": l }))
            }
            Some(Tok::P("<<")) => {
                let mut l = Vec::new();
                loop {
                    l.push(self.literal()?);
                    if self.eat(">>") {
                        break;
                    }
                    self.expect(",")?;
                }
                let first = l
                    .first()
                    .and_then(|v| v.as_object())
                    .and_then(|o| o.keys().next().cloned())
                    .unwrap_or_default();
                let set = match first.as_str() {
                    "S" => "SS",
                    "N" => "NS",
                    "B" => "BS",
                    _ => return Err(malformed("A set holds strings, numbers or binaries")),
                };
                let members: Vec<Value> = l
                    .iter()
                    .map(|v| v.get(first.as_str()).cloned().unwrap_or(Value::Null))
                    .collect();
                Ok(json!({ set: members }))
            }
            _ => Err(malformed("Expected a value")),
        }
    }

    /// An operand of a condition: a path, or a value written as a placeholder.
    fn operand(&mut self) -> DynamoResult<String> {
        match self.peek() {
            Some(Tok::Word(w))
                if !["true", "false", "null"]
                    .iter()
                    .any(|k| w.eq_ignore_ascii_case(k)) =>
            {
                if w.eq_ignore_ascii_case("size")
                    && self.toks.get(self.at + 1) == Some(&Tok::P("("))
                {
                    self.at += 2;
                    let inner = self.operand()?;
                    self.expect(")")?;
                    return Ok(format!("size({inner})"));
                }
                Ok(self.path()?.0)
            }
            Some(Tok::Quoted(_)) => Ok(self.path()?.0),
            _ => {
                let v = self.literal()?;
                Ok(self.value_placeholder(v))
            }
        }
    }

    fn condition(&mut self) -> DynamoResult<String> {
        let mut text = self.and_condition()?;
        while self.eat_word("OR") {
            text = format!("{text} OR {}", self.and_condition()?);
        }
        Ok(text)
    }

    fn and_condition(&mut self) -> DynamoResult<String> {
        let mut text = self.not_condition()?;
        while self.eat_word("AND") {
            text = format!("{text} AND {}", self.not_condition()?);
        }
        Ok(text)
    }

    fn not_condition(&mut self) -> DynamoResult<String> {
        if self.eat_word("NOT") {
            return Ok(format!("NOT {}", self.not_condition()?));
        }
        self.primary()
    }

    const FUNCTIONS: [&'static str; 5] = [
        "begins_with",
        "contains",
        "attribute_type",
        "attribute_exists",
        "attribute_not_exists",
    ];

    fn primary(&mut self) -> DynamoResult<String> {
        if self.eat("(") {
            let inner = self.condition()?;
            self.expect(")")?;
            return Ok(format!("({inner})"));
        }
        if let Some(Tok::Word(w)) = self.peek().cloned() {
            let lower = w.to_ascii_lowercase();
            if Self::FUNCTIONS.contains(&lower.as_str())
                && self.toks.get(self.at + 1) == Some(&Tok::P("("))
            {
                self.at += 2;
                let mut args = vec![self.operand()?];
                while self.eat(",") {
                    args.push(self.operand()?);
                }
                self.expect(")")?;
                return Ok(format!("{lower}({})", args.join(", ")));
            }
        }
        let left = self.operand()?;
        if self.eat_word("IS") {
            let not = self.eat_word("NOT");
            if self.eat_word("MISSING") {
                return Ok(if not {
                    format!("attribute_exists({left})")
                } else {
                    format!("attribute_not_exists({left})")
                });
            }
            if self.eat_word("NULL") {
                let v = self.value_placeholder(json!({"S": "NULL"}));
                return Ok(if not {
                    format!("NOT attribute_type({left}, {v})")
                } else {
                    format!("attribute_type({left}, {v})")
                });
            }
            return Err(malformed("Expected MISSING or NULL"));
        }
        if self.eat_word("BETWEEN") {
            let lo = self.operand()?;
            self.expect_word("AND")?;
            let hi = self.operand()?;
            return Ok(format!("{left} BETWEEN {lo} AND {hi}"));
        }
        if self.eat_word("IN") {
            let close = if self.eat("[") {
                "]"
            } else {
                self.expect("(")?;
                ")"
            };
            let mut list = vec![self.operand()?];
            while self.eat(",") {
                list.push(self.operand()?);
            }
            self.expect(close)?;
            return Ok(format!("{left} IN ({})", list.join(", ")));
        }
        let op = match self.next() {
            Some(Tok::P(p @ ("=" | "<>" | "<" | "<=" | ">" | ">="))) => p,
            Some(Tok::P("!=")) => "<>",
            _ => return Err(malformed("Expected a comparison")),
        };
        let right = self.operand()?;
        Ok(format!("{left} {op} {right}"))
    }

    /// A `WHERE` clause as its top-level `AND` parts.
    fn where_clause(&mut self) -> DynamoResult<Vec<Conjunct>> {
        let mut out = Vec::new();
        loop {
            self.seen.clear();
            let start = self.at;
            let values_before = self.values.len();
            let text = self.or_part()?;
            // `attribute = value`: a key the statement may address.
            let equals = match &self.toks[start..self.at] {
                [Tok::Word(a) | Tok::Quoted(a), Tok::P("="), _, ..]
                    if self.values.len() == values_before + 1 =>
                {
                    self.values
                        .values()
                        .next_back()
                        .cloned()
                        .map(|v| (a.clone(), v))
                }
                _ => None,
            }
            .filter(|_| text.split(' ').count() == 3);
            out.push(Conjunct {
                text,
                attrs: std::mem::take(&mut self.seen),
                equals,
            });
            if !self.eat_word("AND") {
                return Ok(out);
            }
        }
    }

    /// One `AND` part: a NOT-condition, or an `OR` chain in parentheses' stead.
    fn or_part(&mut self) -> DynamoResult<String> {
        let mut text = self.not_condition()?;
        while self.eat_word("OR") {
            text = format!("({text} OR {})", self.and_condition()?);
        }
        Ok(text)
    }

    fn statement(&mut self) -> DynamoResult<Statement> {
        let st = if self.eat_word("SELECT") {
            let paths = if self.eat("*") {
                None
            } else {
                let mut paths = vec![self.path()?.1];
                while self.eat(",") {
                    paths.push(self.path()?.1);
                }
                Some(paths)
            };
            self.expect_word("FROM")?;
            let (table, index) = self.table_ref()?;
            let conjuncts = if self.eat_word("WHERE") {
                self.where_clause()?
            } else {
                Vec::new()
            };
            Statement::Select {
                table,
                index,
                paths,
                conjuncts,
            }
        } else if self.eat_word("INSERT") {
            self.expect_word("INTO")?;
            let (table, _) = self.table_ref()?;
            self.expect_word("VALUE")?;
            let item = self.literal()?;
            let Some(m) = item.get("M").cloned() else {
                return Err(malformed("INSERT takes a map as its VALUE"));
            };
            Statement::Insert { table, item: m }
        } else if self.eat_word("UPDATE") {
            let (table, _) = self.table_ref()?;
            let (mut sets, mut removes) = (Vec::new(), Vec::new());
            loop {
                if self.eat_word("SET") {
                    loop {
                        let (p, _) = self.path()?;
                        self.expect("=")?;
                        let v = self.operand()?;
                        let v = if self.eat_word("+") || self.eat("+") {
                            format!("{v} + {}", self.operand()?)
                        } else {
                            v
                        };
                        sets.push(format!("{p} = {v}"));
                        if !self.eat(",") {
                            break;
                        }
                    }
                } else if self.eat_word("REMOVE") {
                    loop {
                        removes.push(self.path()?.0);
                        if !self.eat(",") {
                            break;
                        }
                    }
                } else {
                    break;
                }
            }
            if sets.is_empty() && removes.is_empty() {
                return Err(malformed("Expected SET or REMOVE"));
            }
            self.expect_word("WHERE")?;
            let mut update = Vec::new();
            if !sets.is_empty() {
                update.push(format!("SET {}", sets.join(", ")));
            }
            if !removes.is_empty() {
                update.push(format!("REMOVE {}", removes.join(", ")));
            }
            let conjuncts = self.where_clause()?;
            Statement::Update {
                table,
                update: update.join(" "),
                conjuncts,
            }
        } else if self.eat_word("DELETE") {
            self.expect_word("FROM")?;
            let (table, _) = self.table_ref()?;
            self.expect_word("WHERE")?;
            let conjuncts = self.where_clause()?;
            Statement::Delete { table, conjuncts }
        } else {
            return Err(malformed("Expected SELECT, INSERT, UPDATE or DELETE"));
        };
        if self.at < self.toks.len() {
            return Err(malformed("Unexpected text after the statement"));
        }
        if self.next_param != self.params.len() {
            return Err(DynamoError::validation(
                "Number of parameters in request and statement don't match.",
            ));
        }
        Ok(st)
    }
}

/// A statement parsed, with its placeholder maps.
struct Parsed {
    statement: Statement,
    names: Map<String, Value>,
    values: Map<String, Value>,
}

fn parse(text: &str, params: &[Value]) -> DynamoResult<Parsed> {
    let mut p = Parser {
        toks: lex(text)?,
        at: 0,
        params,
        next_param: 0,
        names: Map::new(),
        values: Map::new(),
        seen: Vec::new(),
    };
    let statement = p.statement()?;
    Ok(Parsed {
        statement,
        names: p.names,
        values: p.values,
    })
}

/// Adds the placeholder maps a request's expressions use (only those it uses: the
/// engine refuses unused ones).
fn with_placeholders(body: Map<String, Value>, parsed: &Parsed) -> Value {
    with_maps(body, &parsed.names, &parsed.values)
}

/// [`with_placeholders`] from the maps themselves.
fn with_maps(
    mut body: Map<String, Value>,
    all_names: &Map<String, Value>,
    all_values: &Map<String, Value>,
) -> Value {
    let text: String = [
        "KeyConditionExpression",
        "FilterExpression",
        "ConditionExpression",
        "UpdateExpression",
    ]
    .iter()
    .filter_map(|k| body.get(*k).and_then(Value::as_str))
    .collect::<Vec<_>>()
    .join(" ");
    let used = |k: &str| {
        text.match_indices(k).any(|(i, _)| {
            !text[i + k.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    };
    let names: Map<String, Value> = all_names
        .iter()
        .filter(|(k, _)| used(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let values: Map<String, Value> = all_values
        .iter()
        .filter(|(k, _)| used(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if !names.is_empty() {
        body.insert("ExpressionAttributeNames".into(), Value::Object(names));
    }
    if !values.is_empty() {
        body.insert("ExpressionAttributeValues".into(), Value::Object(values));
    }
    Value::Object(body)
}

/// True when a condition on the sort key can be part of a key condition expression
/// (a comparison other than `<>`, `BETWEEN`, or `begins_with`).
fn key_condition_ok(text: &str) -> bool {
    let parts: Vec<&str> = text.split(' ').collect();
    text.starts_with("begins_with(")
        || (parts.len() == 5 && parts[1] == "BETWEEN")
        || (parts.len() == 3 && matches!(parts[1], "=" | "<" | "<=" | ">" | ">="))
}

fn join(conjuncts: &[&Conjunct]) -> Option<String> {
    if conjuncts.is_empty() {
        None
    } else {
        Some(
            conjuncts
                .iter()
                .map(|c| c.text.as_str())
                .collect::<Vec<_>>()
                .join(" AND "),
        )
    }
}

/// The key a write or single-item read addresses: an equality on every key
/// attribute, and the other conditions.
fn key_of<'c>(
    engine: &Engine,
    table: &str,
    conjuncts: &'c [Conjunct],
) -> DynamoResult<(Value, Vec<&'c Conjunct>)> {
    let schema = &engine.table(table)?.schema;
    let mut key = Map::new();
    let mut rest = Vec::new();
    for c in conjuncts {
        match &c.equals {
            Some((a, v)) if schema.keys.contains(a) && !key.contains_key(a) => {
                key.insert(a.clone(), v.clone());
            }
            _ => rest.push(c),
        }
    }
    if key.len() != schema.keys.attributes().count() {
        return Err(DynamoError::validation(
            "Where clause does not contain a mandatory equality on all key attributes",
        ));
    }
    Ok((Value::Object(key), rest))
}

/// PartiQL's projection: each path's value under its last name.
fn project(item: &Item, paths: &Option<Vec<Vec<Step>>>) -> Item {
    let Some(paths) = paths else {
        return item.clone();
    };
    let mut out = Item::new();
    for p in paths {
        if let (Some(v), Some(Step::Key(last))) = (
            get_path(item, p),
            p.iter().rev().find(|s| matches!(s, Step::Key(_))),
        ) {
            out.insert(last.clone(), v.clone());
        }
    }
    out
}

/// What one statement's run gives back.
enum Outcome {
    Items(Vec<Item>, Option<Value>),
    Written,
}

/// Runs one parsed statement.
fn run(
    engine: &mut Engine,
    parsed: &Parsed,
    options: &Map<String, Value>,
) -> DynamoResult<Outcome> {
    match &parsed.statement {
        Statement::Select {
            table,
            index,
            paths,
            conjuncts,
        } => {
            let schema = engine.table(table)?.schema.clone();
            let keys = match index {
                Some(i) => {
                    &schema
                        .index(i)
                        .ok_or_else(|| {
                            DynamoError::validation(format!(
                                "The table does not have the specified index: {i}"
                            ))
                        })?
                        .keys
                }
                None => &schema.keys,
            };
            let mut body = options.clone();
            body.insert("TableName".into(), json!(table));
            if let Some(i) = index {
                body.insert("IndexName".into(), json!(i));
            }
            let hash = conjuncts
                .iter()
                .position(|c| c.equals.as_ref().is_some_and(|(a, _)| *a == keys.hash.name));
            // A Query when the partition key is fixed and no other part names a key
            // attribute except one condition on the sort key; a Scan otherwise.
            let op = match hash {
                Some(h) => {
                    let sort = keys.range.as_ref().and_then(|r| {
                        conjuncts
                            .iter()
                            .position(|c| c.attrs == [r.name.clone()] && key_condition_ok(&c.text))
                    });
                    let rest: Vec<&Conjunct> = conjuncts
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != h && Some(*i) != sort)
                        .map(|(_, c)| c)
                        .collect();
                    if rest
                        .iter()
                        .any(|c| c.attrs.iter().any(|a| keys.contains(a)))
                    {
                        None
                    } else {
                        let mut kc = vec![&conjuncts[h]];
                        kc.extend(sort.map(|s| &conjuncts[s]));
                        body.insert("KeyConditionExpression".into(), json!(join(&kc)));
                        if let Some(f) = join(&rest) {
                            body.insert("FilterExpression".into(), json!(f));
                        }
                        Some("Query")
                    }
                }
                None => None,
            };
            let op = op.unwrap_or_else(|| {
                body.remove("KeyConditionExpression");
                body.remove("FilterExpression");
                if let Some(f) = join(&conjuncts.iter().collect::<Vec<_>>()) {
                    body.insert("FilterExpression".into(), json!(f));
                }
                "Scan"
            });
            let answer = ops::request(engine, op, &with_placeholders(body, parsed))?;
            let items = answer["Items"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(item_from_json)
                        .collect::<DynamoResult<Vec<_>>>()
                })
                .transpose()?
                .unwrap_or_default();
            Ok(Outcome::Items(
                items.iter().map(|i| project(i, paths)).collect(),
                answer.get("LastEvaluatedKey").cloned(),
            ))
        }
        Statement::Insert { table, item } => {
            let schema = engine.table(table)?.schema.clone();
            let hash = &schema.keys.hash.name;
            let body = json!({
                "TableName": table, "Item": item,
                "ConditionExpression": "attribute_not_exists(#k)",
                "ExpressionAttributeNames": {"#k": hash},
            });
            match ops::request(engine, "PutItem", &body) {
                Err(e) if e.kind == ErrorKind::ConditionalCheckFailed => Err(DynamoError::new(
                    ErrorKind::DuplicateItem,
                    "Duplicate primary key exists in table",
                )),
                other => other.map(|_| Outcome::Written),
            }
        }
        Statement::Update {
            table,
            update,
            conjuncts,
        } => {
            let (key, rest) = key_of(engine, table, conjuncts)?;
            let hash = engine.table(table)?.schema.keys.hash.name.clone();
            let mut names = parsed.names.clone();
            names.insert("#pk_exists".into(), json!(hash));
            let mut cond = vec!["attribute_exists(#pk_exists)".to_string()];
            cond.extend(rest.iter().map(|c| c.text.clone()));
            let mut body = Map::new();
            body.insert("TableName".into(), json!(table));
            body.insert("Key".into(), key);
            body.insert("UpdateExpression".into(), json!(update));
            body.insert("ConditionExpression".into(), json!(cond.join(" AND ")));
            ops::request(
                engine,
                "UpdateItem",
                &with_maps(body, &names, &parsed.values),
            )?;
            Ok(Outcome::Written)
        }
        Statement::Delete { table, conjuncts } => {
            let (key, rest) = key_of(engine, table, conjuncts)?;
            let mut body = Map::new();
            body.insert("TableName".into(), json!(table));
            body.insert("Key".into(), key);
            if let Some(c) = join(&rest) {
                body.insert("ConditionExpression".into(), json!(c));
            }
            ops::request(engine, "DeleteItem", &with_placeholders(body, parsed))?;
            Ok(Outcome::Written)
        }
    }
}

fn parameters(b: &Body<'_>) -> DynamoResult<Vec<Value>> {
    Ok(b.list("Parameters")?.cloned().unwrap_or_default())
}

/// `ExecuteStatement`.
pub fn execute_statement(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let text = b.str("Statement")?;
    let mut c = Constraints::new();
    c.not_null(text.is_some(), "statement");
    if let Some(t) = text {
        c.length(t.chars().count(), t, "statement", 1, Some(8192));
    }
    if let Some(p) = b.list("Parameters")? {
        c.length(p.len(), "[...]", "parameters", 1, None);
    }
    c.finish()?;
    let parsed = parse(text.unwrap_or_default(), &parameters(&b)?)?;
    let mut options = Map::new();
    if let Some(v) = b.raw("ConsistentRead") {
        options.insert("ConsistentRead".into(), v.clone());
    }
    if let Some(v) = b.raw("Limit") {
        options.insert("Limit".into(), v.clone());
    }
    if let Some(token) = b.str("NextToken")? {
        let start: Value = serde_json::from_str(token)
            .map_err(|_| DynamoError::validation("Invalid NextToken"))?;
        options.insert("ExclusiveStartKey".into(), start);
    }
    let mut out = Map::new();
    match run(engine, &parsed, &options)? {
        Outcome::Items(items, last) => {
            out.insert(
                "Items".into(),
                Value::Array(items.iter().map(item_to_json).collect()),
            );
            if let Some(k) = last {
                out.insert("NextToken".into(), Value::String(k.to_string()));
            }
        }
        Outcome::Written => {
            out.insert("Items".into(), json!([]));
        }
    }
    Ok(Value::Object(out))
}

/// The `Code` of an error in a batch response: the exception's name without
/// `Exception` (`ValidationError` for a validation error).
fn batch_code(kind: ErrorKind) -> String {
    match kind {
        ErrorKind::Validation => "ValidationError".into(),
        other => other.name().trim_end_matches("Exception").to_string(),
    }
}

/// `BatchExecuteStatement`: up to 25 statements, each answered on its own.
pub fn batch_execute_statement(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let list = b.list("Statements")?;
    let mut c = Constraints::new();
    c.not_null(list.is_some(), "statements");
    if let Some(l) = list {
        c.length(l.len(), "[...]", "statements", 1, Some(25));
    }
    c.finish()?;
    let mut responses = Vec::new();
    for s in list.into_iter().flatten() {
        let s = Body::new(s)?;
        let text = s.str("Statement")?.unwrap_or_default();
        let result = parse(text, &parameters(&s)?).and_then(|p| {
            let table = match &p.statement {
                Statement::Select { table, .. }
                | Statement::Insert { table, .. }
                | Statement::Update { table, .. }
                | Statement::Delete { table, .. } => table.clone(),
            };
            let mut options = Map::new();
            if let Some(v) = s.raw("ConsistentRead") {
                options.insert("ConsistentRead".into(), v.clone());
            }
            run(engine, &p, &options).map(|o| (table, o))
        });
        responses.push(match result {
            Ok((table, Outcome::Items(items, _))) => match items.first() {
                Some(i) => json!({"TableName": table, "Item": item_to_json(i)}),
                None => json!({"TableName": table}),
            },
            Ok((table, Outcome::Written)) => json!({ "TableName": table }),
            Err(e) => json!({"Error": {"Code": batch_code(e.kind), "Message": e.message}}),
        });
    }
    Ok(json!({ "Responses": responses }))
}

/// `ExecuteTransaction`: reads only (as TransactGetItems) or writes only (as
/// TransactWriteItems), all or nothing.
pub fn execute_transaction(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let list = b.list("TransactStatements")?;
    let mut c = Constraints::new();
    c.not_null(list.is_some(), "transactStatements");
    if let Some(l) = list {
        c.length(l.len(), "[...]", "transactStatements", 1, Some(100));
    }
    c.finish()?;
    let mut gets = Vec::new();
    let mut writes = Vec::new();
    for s in list.into_iter().flatten() {
        let s = Body::new(s)?;
        let parsed = parse(s.str("Statement")?.unwrap_or_default(), &parameters(&s)?)?;
        match &parsed.statement {
            Statement::Select {
                table, conjuncts, ..
            } => {
                let (key, _) = key_of(engine, table, conjuncts)?;
                gets.push(json!({"Get": {"TableName": table, "Key": key}}));
            }
            Statement::Insert { table, item } => {
                let hash = engine.table(table)?.schema.keys.hash.name.clone();
                writes.push(json!({"Put": {"TableName": table, "Item": item,
                    "ConditionExpression": "attribute_not_exists(#k)",
                    "ExpressionAttributeNames": {"#k": hash}}}));
            }
            Statement::Update {
                table,
                update,
                conjuncts,
            } => {
                let (key, rest) = key_of(engine, table, conjuncts)?;
                let mut m = Map::new();
                m.insert("TableName".into(), json!(table));
                m.insert("Key".into(), key);
                m.insert("UpdateExpression".into(), json!(update));
                if let Some(c) = join(&rest) {
                    m.insert("ConditionExpression".into(), json!(c));
                }
                writes.push(json!({ "Update": with_placeholders(m, &parsed) }));
            }
            Statement::Delete { table, conjuncts } => {
                let (key, rest) = key_of(engine, table, conjuncts)?;
                let mut m = Map::new();
                m.insert("TableName".into(), json!(table));
                m.insert("Key".into(), key);
                if let Some(c) = join(&rest) {
                    m.insert("ConditionExpression".into(), json!(c));
                }
                writes.push(json!({ "Delete": with_placeholders(m, &parsed) }));
            }
        }
    }
    if !gets.is_empty() && !writes.is_empty() {
        return Err(DynamoError::validation(
            "Transaction must contain either read or write statements, not both",
        ));
    }
    if gets.is_empty() {
        ops::request(
            engine,
            "TransactWriteItems",
            &json!({ "TransactItems": writes }),
        )?;
        return Ok(json!({}));
    }
    let answer = ops::request(
        engine,
        "TransactGetItems",
        &json!({ "TransactItems": gets }),
    )?;
    let responses: Vec<Value> = answer["Responses"].as_array().cloned().unwrap_or_default();
    Ok(json!({ "Responses": responses }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        let mut e = Engine::new();
        e.handle(
            "CreateTable",
            &json!({"TableName": "Tbl", "BillingMode": "PAY_PER_REQUEST",
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "sk", "AttributeType": "S"}],
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}]}),
        )
        .unwrap();
        e
    }

    fn exec(e: &mut Engine, s: &str) -> DynamoResult<Value> {
        execute_statement(e, &json!({ "Statement": s }))
    }

    #[test]
    fn insert_select_update_delete() {
        let mut e = engine();
        exec(
            &mut e,
            "INSERT INTO \"Tbl\" VALUE {'pk': 'a', 'sk': 'x1', 'n': 1, 'm': {'k': 'v'}}",
        )
        .unwrap();
        exec(
            &mut e,
            "INSERT INTO Tbl VALUE {'pk': 'a', 'sk': 'y1', 'n': 5}",
        )
        .unwrap();
        let dup = exec(&mut e, "INSERT INTO Tbl VALUE {'pk': 'a', 'sk': 'x1'}").unwrap_err();
        assert_eq!(dup.kind, ErrorKind::DuplicateItem);
        let r = exec(
            &mut e,
            "SELECT m.k, n FROM Tbl WHERE pk = 'a' AND begins_with(sk, 'x')",
        )
        .unwrap();
        assert_eq!(r["Items"], json!([{"k": {"S": "v"}, "n": {"N": "1"}}]));
        let r = exec(&mut e, "SELECT * FROM Tbl WHERE n > 2").unwrap();
        assert_eq!(r["Items"][0]["sk"], json!({"S": "y1"}));
        exec(
            &mut e,
            "UPDATE Tbl SET n = 7 REMOVE m WHERE pk = 'a' AND sk = 'x1'",
        )
        .unwrap();
        let r = exec(&mut e, "SELECT * FROM Tbl WHERE pk = 'a' AND sk = 'x1'").unwrap();
        assert_eq!(
            r["Items"],
            json!([{"pk": {"S": "a"}, "sk": {"S": "x1"}, "n": {"N": "7"}}])
        );
        let missing =
            exec(&mut e, "UPDATE Tbl SET n = 1 WHERE pk = 'a' AND sk = 'zz'").unwrap_err();
        assert_eq!(missing.kind, ErrorKind::ConditionalCheckFailed);
        exec(&mut e, "DELETE FROM Tbl WHERE pk = 'a' AND sk = 'x1'").unwrap();
        let r = exec(&mut e, "SELECT * FROM Tbl WHERE pk = 'a'").unwrap();
        assert_eq!(r["Items"].as_array().unwrap().len(), 1);
        let r = execute_statement(
            &mut e,
            &json!({"Statement": "SELECT * FROM Tbl WHERE pk = ? AND sk = ?",
                    "Parameters": [{"S": "a"}, {"S": "y1"}]}),
        )
        .unwrap();
        assert_eq!(r["Items"][0]["n"], json!({"N": "5"}));
    }

    #[test]
    fn errors_in_dynamodb_words() {
        let mut e = engine();
        assert!(exec(&mut e, "SELECTT * FROMM T")
            .unwrap_err()
            .message
            .starts_with("Statement wasn't well formed"));
        assert_eq!(
            exec(&mut e, "SELECT * FROM Nope WHERE pk = 'a'")
                .unwrap_err()
                .kind,
            ErrorKind::ResourceNotFound
        );
        assert_eq!(
            exec(&mut e, "DELETE FROM Tbl WHERE pk = 'a'")
                .unwrap_err()
                .message,
            "Where clause does not contain a mandatory equality on all key attributes"
        );
        let r = batch_execute_statement(
            &mut e,
            &json!({"Statements": [{"Statement": "SELECT * FROM Tbl WHERE pk = 'a' AND sk = 'b'"},
                                   {"Statement": "SELECT * FROM Nope WHERE pk = 'a'"}]}),
        )
        .unwrap();
        assert_eq!(r["Responses"][1]["Error"]["Code"], "ResourceNotFound");
    }
}
