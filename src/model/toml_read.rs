//! Reading spanned TOML tables field by field, collecting every problem instead of
//! stopping at the first (serde's derive stops at the first error, and we want the user
//! to fix the whole file in one go).

use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned;

use super::problem::{suggestion_help, ModelProblem, ProblemKind};
use crate::source::Span;

/// A spanned TOML value, as the parser hands it out.
pub type Value<'i> = Spanned<DeValue<'i>>;

/// The byte span of a spanned value.
pub fn span_of<T>(v: &Spanned<T>) -> Span {
    Span::from(v.span())
}

/// The span covering a value and everything inside it. The parser gives a
/// `[[table]]` only its header's span; findings about a whole table want its body too.
pub fn extent(v: &Value<'_>) -> Span {
    let mut span = span_of(v);
    match v.get_ref() {
        DeValue::Table(t) => {
            for (k, v) in t.iter() {
                span = span.cover(span_of(k)).cover(extent(v));
            }
        }
        DeValue::Array(a) => {
            for v in a.iter() {
                span = span.cover(extent(v));
            }
        }
        _ => {}
    }
    span
}

/// A table's entries in the order they appear in the file (the parser's map sorts
/// keys; declared order matters for `show` and for "first defined here").
pub fn entries<'t, 'i>(t: &'t DeTable<'i>) -> Vec<(&'t str, Span, &'t Value<'i>)> {
    let mut v: Vec<_> = t
        .iter()
        .map(|(k, v)| (k.get_ref().as_ref(), span_of(k), v))
        .collect();
    v.sort_by_key(|(_, s, _)| s.start);
    v
}

/// TOML's name for a value's type, with an article, for "found a string".
pub fn type_name(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a datetime",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

/// One TOML table being read as a dynalint item (`[[table]]`, `[[table.index]]`, ...).
/// Creating it reports every key that is not one of `known`.
pub struct Fields<'t, 'i> {
    table: &'t DeTable<'i>,
    /// Where a missing field is reported: the table's header.
    pub at: Span,
    /// How messages name this item: "`[[table]]`".
    pub what: String,
}

impl<'t, 'i> Fields<'t, 'i> {
    /// Starts reading `table`; unknown keys are reported with a "did you mean".
    pub fn new(
        table: &'t DeTable<'i>,
        at: Span,
        what: impl Into<String>,
        known: &[&str],
        problems: &mut Vec<ModelProblem>,
    ) -> Self {
        let what = what.into();
        for (key, span, _) in entries(table) {
            if !known.contains(&key) {
                problems.push(
                    ModelProblem::of(
                        ProblemKind::UnknownField,
                        span,
                        format!("unknown field `{key}` in {what}"),
                    )
                    .with_help(suggestion_help(key, known)),
                );
            }
        }
        Self { table, at, what }
    }

    /// The raw value of a field.
    pub fn get(&self, key: &str) -> Option<&'t Value<'i>> {
        self.table.get(key)
    }

    fn wrong_type(&self, key: &str, v: &Value<'_>, expected: &str) -> ModelProblem {
        ModelProblem::of(
            ProblemKind::WrongType,
            span_of(v),
            format!(
                "`{key}` in {} must be {expected}, found {}",
                self.what,
                type_name(v.get_ref())
            ),
        )
    }

    fn missing(&self, key: &str) -> ModelProblem {
        ModelProblem::of(
            ProblemKind::MissingField,
            self.at,
            format!("{} is missing the required field `{key}`", self.what),
        )
    }

    /// A string field.
    pub fn string(&self, key: &str, problems: &mut Vec<ModelProblem>) -> Option<(String, Span)> {
        let v = self.get(key)?;
        match v.get_ref() {
            DeValue::String(s) => Some((s.to_string(), span_of(v))),
            _ => {
                problems.push(self.wrong_type(key, v, "a string"));
                None
            }
        }
    }

    /// A string field that must be present (and not empty).
    pub fn required_string(
        &self,
        key: &str,
        problems: &mut Vec<ModelProblem>,
    ) -> Option<(String, Span)> {
        if self.get(key).is_none() {
            problems.push(self.missing(key));
            return None;
        }
        let (s, span) = self.string(key, problems)?;
        if s.is_empty() {
            problems.push(ModelProblem::of(
                ProblemKind::InvalidValue,
                span,
                format!("`{key}` in {} cannot be empty", self.what),
            ));
            return None;
        }
        Some((s, span))
    }

    /// A non-negative integer field (counts, sizes, limits).
    pub fn count(&self, key: &str, problems: &mut Vec<ModelProblem>) -> Option<(u64, Span)> {
        let v = self.get(key)?;
        let r = count_value(v).map_err(|e| match e {
            NumberError::Type => self.wrong_type(key, v, "a whole number"),
            NumberError::Negative => ModelProblem::of(
                ProblemKind::Negative,
                span_of(v),
                format!("`{key}` in {} cannot be negative", self.what),
            ),
            NumberError::Range => ModelProblem::of(
                ProblemKind::InvalidValue,
                span_of(v),
                format!("`{key}` in {} is too large", self.what),
            ),
        });
        keep(r, problems).map(|n| (n, span_of(v)))
    }

    /// A non-negative number field, integer or float (rates, shares).
    pub fn number(&self, key: &str, problems: &mut Vec<ModelProblem>) -> Option<(f64, Span)> {
        let v = self.get(key)?;
        let r = number_value(v).map_err(|e| match e {
            NumberError::Type => self.wrong_type(key, v, "a number"),
            // `nan`, `inf`, `1e400`: a float, but not one a rate can be.
            NumberError::Range => ModelProblem::of(
                ProblemKind::InvalidValue,
                span_of(v),
                format!("`{key}` in {} must be a finite number", self.what),
            ),
            NumberError::Negative => ModelProblem::of(
                ProblemKind::Negative,
                span_of(v),
                format!("`{key}` in {} cannot be negative", self.what),
            ),
        });
        keep(r, problems).map(|n| (n, span_of(v)))
    }

    /// A boolean field.
    pub fn boolean(&self, key: &str, problems: &mut Vec<ModelProblem>) -> Option<(bool, Span)> {
        let v = self.get(key)?;
        match v.get_ref() {
            DeValue::Boolean(b) => Some((*b, span_of(v))),
            _ => {
                problems.push(self.wrong_type(key, v, "`true` or `false`"));
                None
            }
        }
    }

    /// An array of strings; elements of another type are reported and skipped.
    pub fn strings(
        &self,
        key: &str,
        problems: &mut Vec<ModelProblem>,
    ) -> Option<(Vec<(String, Span)>, Span)> {
        let v = self.get(key)?;
        let Some(a) = v.get_ref().as_array() else {
            problems.push(self.wrong_type(key, v, "an array of strings"));
            return None;
        };
        Some((self.string_items(key, a, problems), span_of(v)))
    }

    fn string_items(
        &self,
        key: &str,
        a: &DeArray<'_>,
        problems: &mut Vec<ModelProblem>,
    ) -> Vec<(String, Span)> {
        let mut out = Vec::new();
        for item in a.iter() {
            match item.get_ref() {
                DeValue::String(s) => out.push((s.to_string(), span_of(item))),
                other => problems.push(ModelProblem::of(
                    ProblemKind::WrongType,
                    span_of(item),
                    format!(
                        "items of `{key}` in {} must be strings, found {}",
                        self.what,
                        type_name(other)
                    ),
                )),
            }
        }
        out
    }

    /// A sub-table (`keys = { .. }` or `[table.attributes]`).
    pub fn table(
        &self,
        key: &str,
        problems: &mut Vec<ModelProblem>,
    ) -> Option<(&'t DeTable<'i>, Span)> {
        let v = self.get(key)?;
        match v.get_ref() {
            DeValue::Table(t) => Some((t, span_of(v))),
            _ => {
                problems.push(self.wrong_type(key, v, "a table"));
                None
            }
        }
    }

    /// An array of tables (`[[table.index]]`); a plain `[table.index]` is reported with
    /// the fix, since it is the most common slip.
    pub fn tables(&self, key: &str, problems: &mut Vec<ModelProblem>) -> Vec<&'t Value<'i>> {
        array_of_tables(self.get(key), key, &self.what, problems)
    }
}

/// The items of an array of tables, reporting anything else.
pub fn array_of_tables<'t, 'i>(
    v: Option<&'t Value<'i>>,
    key: &str,
    what: &str,
    problems: &mut Vec<ModelProblem>,
) -> Vec<&'t Value<'i>> {
    let Some(v) = v else { return Vec::new() };
    match v.get_ref() {
        DeValue::Array(a) => {
            let mut out = Vec::new();
            for item in a.iter() {
                if item.get_ref().is_table() {
                    out.push(item);
                } else {
                    problems.push(ModelProblem::of(
                        ProblemKind::WrongType,
                        span_of(item),
                        format!(
                            "items of `{key}` in {what} must be tables, found {}",
                            type_name(item.get_ref())
                        ),
                    ));
                }
            }
            out
        }
        other => {
            let mut p = ModelProblem::of(
                ProblemKind::WrongType,
                span_of(v),
                format!(
                    "`{key}` in {what} must be an array of tables, found {}",
                    type_name(other)
                ),
            );
            if other.is_table() {
                p = p.with_help(format!(
                    "write the header with double brackets: `[[{key}]]`"
                ));
            }
            problems.push(p);
            Vec::new()
        }
    }
}

/// Why a value is not the number wanted.
pub enum NumberError {
    Type,
    Negative,
    Range,
}

/// A TOML integer as a `u64`.
pub fn count_value(v: &Value<'_>) -> Result<u64, NumberError> {
    match v.get_ref() {
        DeValue::Integer(i) => {
            let digits = i.as_str();
            if digits.starts_with('-') {
                // `-0` is zero, not negative.
                return match i128::from_str_radix(digits, i.radix()) {
                    Ok(0) => Ok(0),
                    Ok(_) => Err(NumberError::Negative),
                    Err(_) => Err(NumberError::Range),
                };
            }
            u64::from_str_radix(digits.trim_start_matches('+'), i.radix())
                .map_err(|_| NumberError::Range)
        }
        _ => Err(NumberError::Type),
    }
}

/// A TOML integer or float as a finite non-negative `f64`.
pub fn number_value(v: &Value<'_>) -> Result<f64, NumberError> {
    let f = match v.get_ref() {
        DeValue::Integer(i) => {
            i128::from_str_radix(i.as_str(), i.radix()).map_err(|_| NumberError::Range)? as f64
        }
        DeValue::Float(f) => f
            .as_str()
            .replace('_', "")
            .parse::<f64>()
            .map_err(|_| NumberError::Range)?,
        _ => return Err(NumberError::Type),
    };
    if !f.is_finite() {
        Err(NumberError::Range)
    } else if f < 0.0 {
        Err(NumberError::Negative)
    } else {
        Ok(f)
    }
}

/// Pushes the error, keeps the value.
pub fn keep<T>(r: Result<T, ModelProblem>, problems: &mut Vec<ModelProblem>) -> Option<T> {
    r.map_err(|p| problems.push(p)).ok()
}

/// Converts a parsed TOML value to an owned `toml::Value` (for rule options, which
/// rules read as plain TOML). Integers beyond `i64` become an error message.
pub fn to_plain(v: &Value<'_>) -> Result<toml::Value, ModelProblem> {
    Ok(match v.get_ref() {
        DeValue::String(s) => toml::Value::String(s.to_string()),
        DeValue::Integer(i) => {
            toml::Value::Integer(i64::from_str_radix(i.as_str(), i.radix()).map_err(|_| {
                ModelProblem::of(
                    ProblemKind::InvalidValue,
                    span_of(v),
                    "integer does not fit in 64 bits",
                )
            })?)
        }
        DeValue::Float(_) => toml::Value::Float(number_like(v)?),
        DeValue::Boolean(b) => toml::Value::Boolean(*b),
        DeValue::Datetime(d) => toml::Value::Datetime(*d),
        DeValue::Array(a) => toml::Value::Array(a.iter().map(to_plain).collect::<Result<_, _>>()?),
        DeValue::Table(t) => toml::Value::Table(to_plain_table(t)?),
    })
}

/// [`to_plain`] for a table, keeping file order.
pub fn to_plain_table(t: &DeTable<'_>) -> Result<toml::Table, ModelProblem> {
    let mut out = toml::Table::new();
    for (k, _, v) in entries(t) {
        out.insert(k.to_string(), to_plain(v)?);
    }
    Ok(out)
}

/// A float's value including `inf`/`nan`, which options may legitimately hold.
fn number_like(v: &Value<'_>) -> Result<f64, ModelProblem> {
    let text = match v.get_ref() {
        DeValue::Float(f) => f.as_str().replace('_', ""),
        _ => String::new(),
    };
    text.parse::<f64>().map_err(|_| {
        ModelProblem::of(
            ProblemKind::InvalidValue,
            span_of(v),
            format!("`{text}` is not a number"),
        )
    })
}
