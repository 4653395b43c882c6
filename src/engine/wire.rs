//! DynamoDB's JSON protocol: attribute values (`{"S": "x"}`, `{"N": "1"}`, base64 for
//! binary), a typed reader over request bodies that answers DynamoDB's errors for
//! malformed input, and the `__type`/`message` error shape.

use base64::Engine as _;
use serde_json::{json, Map, Value};

use super::error::{DynamoError, DynamoResult, ErrorKind};
use super::number::Number;
use super::value::{AttributeValue, Item};

fn invalid(message: impl Into<String>) -> DynamoError {
    DynamoError::validation(format!(
        "One or more parameter values were invalid: {}",
        message.into()
    ))
}

/// Reads one attribute value in wire format.
pub fn value_from_json(v: &Value) -> DynamoResult<AttributeValue> {
    let Some(obj) = v.as_object() else {
        return Err(DynamoError::serialization(
            "Unexpected value type in payload: expected an AttributeValue object",
        ));
    };
    let mut entries = obj.iter().filter(|(_, v)| !v.is_null());
    let (Some((ty, inner)), None) = (entries.next(), entries.next()) else {
        return Err(DynamoError::validation(
            "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes",
        ));
    };
    let as_str = |x: &Value| -> DynamoResult<String> {
        x.as_str().map(str::to_string).ok_or_else(|| {
            DynamoError::serialization(format!("Unexpected value type in payload for {ty}"))
        })
    };
    let as_list = |x: &Value| -> DynamoResult<Vec<Value>> {
        x.as_array().cloned().ok_or_else(|| {
            DynamoError::serialization(format!("Unexpected value type in payload for {ty}"))
        })
    };
    let number = |s: &str| Number::parse(s).map_err(|e| DynamoError::validation(e.to_string()));
    match ty.as_str() {
        "S" => Ok(AttributeValue::S(as_str(inner)?)),
        "N" => Ok(AttributeValue::N(number(&as_str(inner)?)?)),
        "B" => Ok(AttributeValue::B(decode_b64(&as_str(inner)?)?)),
        "BOOL" => inner
            .as_bool()
            .map(AttributeValue::Bool)
            .ok_or_else(|| DynamoError::serialization("Unexpected value type in payload for BOOL")),
        "NULL" => match inner.as_bool() {
            Some(true) => Ok(AttributeValue::Null),
            Some(false) => Err(invalid(
                "Null attribute value types must have the value of true",
            )),
            None => Err(DynamoError::serialization(
                "Unexpected value type in payload for NULL",
            )),
        },
        "M" => {
            let m = inner.as_object().ok_or_else(|| {
                DynamoError::serialization("Unexpected value type in payload for M")
            })?;
            let mut out = std::collections::BTreeMap::new();
            for (k, v) in m {
                out.insert(k.clone(), value_from_json(v)?);
            }
            Ok(AttributeValue::M(out))
        }
        "L" => Ok(AttributeValue::L(
            as_list(inner)?
                .iter()
                .map(value_from_json)
                .collect::<DynamoResult<_>>()?,
        )),
        "SS" => {
            let raw: Vec<String> = as_list(inner)?
                .iter()
                .map(as_str)
                .collect::<DynamoResult<_>>()?;
            check_set("string", &raw, raw.clone())?;
            Ok(AttributeValue::string_set(raw))
        }
        "NS" => {
            let raw: Vec<String> = as_list(inner)?
                .iter()
                .map(as_str)
                .collect::<DynamoResult<_>>()?;
            let nums: Vec<Number> = raw.iter().map(|s| number(s)).collect::<DynamoResult<_>>()?;
            check_set("number", &raw, nums.clone())?;
            Ok(AttributeValue::number_set(nums))
        }
        "BS" => {
            let raw: Vec<String> = as_list(inner)?
                .iter()
                .map(as_str)
                .collect::<DynamoResult<_>>()?;
            let bytes: Vec<Vec<u8>> = raw
                .iter()
                .map(|s| decode_b64(s))
                .collect::<DynamoResult<_>>()?;
            check_set("binary", &raw, bytes.clone())?;
            Ok(AttributeValue::binary_set(bytes))
        }
        _ => Err(DynamoError::validation(
            "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes",
        )),
    }
}

/// DynamoDB's checks on a set as written: not empty, no duplicates (by value).
fn check_set<T: Ord + Clone>(what: &str, raw: &[String], mut values: Vec<T>) -> DynamoResult<()> {
    if values.is_empty() {
        // DynamoDB words the empty binary set differently from the other two.
        return Err(invalid(if what == "binary" {
            "Binary sets should not be empty".to_string()
        } else {
            format!("An {what} set  may not be empty")
        }));
    }
    values.sort();
    let len = values.len();
    values.dedup();
    if values.len() != len {
        return Err(invalid(format!(
            "Input collection [{}] contains duplicates.",
            raw.join(", ")
        )));
    }
    Ok(())
}

fn decode_b64(s: &str) -> DynamoResult<Vec<u8>> {
    base64::engine::general_purpose::STANDARD
        .decode(s)
        .map_err(|_| DynamoError::serialization("Base64 encoded length is expected a multiple of 4 bytes but found: invalid binary value"))
}

/// Writes one attribute value in wire format.
pub fn value_to_json(v: &AttributeValue) -> Value {
    let b64 = |b: &[u8]| Value::String(base64::engine::general_purpose::STANDARD.encode(b));
    match v {
        AttributeValue::S(s) => json!({ "S": s }),
        AttributeValue::N(n) => json!({ "N": n.to_string() }),
        AttributeValue::B(b) => json!({ "B": b64(b) }),
        AttributeValue::Bool(b) => json!({ "BOOL": b }),
        AttributeValue::Null => json!({ "NULL": true }),
        AttributeValue::M(m) => json!({ "M": item_to_json(m) }),
        AttributeValue::L(l) => json!({ "L": l.iter().map(value_to_json).collect::<Vec<_>>() }),
        AttributeValue::SS(s) => json!({ "SS": s }),
        AttributeValue::NS(n) => {
            json!({ "NS": n.iter().map(|n| n.to_string()).collect::<Vec<_>>() })
        }
        AttributeValue::BS(b) => json!({ "BS": b.iter().map(|b| b64(b)).collect::<Vec<_>>() }),
    }
}

/// Reads an item (or key, or value map) in wire format.
pub fn item_from_json(v: &Value) -> DynamoResult<Item> {
    let obj = v.as_object().ok_or_else(|| {
        DynamoError::serialization("Unexpected value type in payload: expected a map")
    })?;
    obj.iter()
        .map(|(k, v)| Ok((k.clone(), value_from_json(v)?)))
        .collect()
}

/// Writes an item in wire format.
pub fn item_to_json(item: &Item) -> Value {
    Value::Object(
        item.iter()
            .map(|(k, v)| (k.clone(), value_to_json(v)))
            .collect(),
    )
}

/// The error body a client receives.
pub fn error_to_json(e: &DynamoError) -> Value {
    let mut body = Map::new();
    body.insert("__type".into(), Value::String(e.kind.wire_type()));
    body.insert("message".into(), Value::String(e.message.clone()));
    if let Some(item) = &e.item {
        body.insert("Item".into(), item_to_json(item));
    }
    if e.kind == ErrorKind::TransactionCanceled {
        let reasons: Vec<Value> = e
            .cancellation_reasons
            .iter()
            .map(|r| {
                let mut o = Map::new();
                o.insert("Code".into(), Value::String(r.code.clone()));
                if let Some(m) = &r.message {
                    o.insert("Message".into(), Value::String(m.clone()));
                }
                if let Some(i) = &r.item {
                    o.insert("Item".into(), item_to_json(i));
                }
                Value::Object(o)
            })
            .collect();
        body.insert("CancellationReasons".into(), Value::Array(reasons));
    }
    Value::Object(body)
}

/// A request body being read, field by field, with DynamoDB's errors for fields of
/// the wrong JSON type.
#[derive(Debug, Clone, Copy)]
pub struct Body<'a> {
    obj: &'a Map<String, Value>,
}

static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();

impl<'a> Body<'a> {
    /// Wraps a request body; anything but a JSON object is a `SerializationException`.
    pub fn new(v: &'a Value) -> DynamoResult<Body<'a>> {
        match v {
            Value::Object(obj) => Ok(Body { obj }),
            Value::Null => Ok(Body {
                obj: EMPTY.get_or_init(Map::new),
            }),
            _ => Err(DynamoError::serialization(
                "Start of structure or map found where not expected",
            )),
        }
    }

    /// The raw field, `None` when absent or JSON `null`.
    pub fn raw(&self, name: &str) -> Option<&'a Value> {
        self.obj.get(name).filter(|v| !v.is_null())
    }

    /// True when the field is present.
    pub fn has(&self, name: &str) -> bool {
        self.raw(name).is_some()
    }

    fn wrong_type(name: &str, expected: &str) -> DynamoError {
        DynamoError::serialization(format!(
            "Unexpected value type in payload for {name}: expected {expected}"
        ))
    }

    /// A string field.
    pub fn str(&self, name: &str) -> DynamoResult<Option<&'a str>> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(Self::wrong_type(name, "a string")),
        }
    }

    /// A required string field; DynamoDB's "must not be null" when absent.
    pub fn required_str(&self, name: &str, path: &str) -> DynamoResult<&'a str> {
        self.str(name)?
            .ok_or_else(|| DynamoError::missing_member(path))
    }

    /// A boolean field.
    pub fn bool(&self, name: &str) -> DynamoResult<Option<bool>> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(Self::wrong_type(name, "a boolean")),
        }
    }

    /// An integer field.
    pub fn int(&self, name: &str) -> DynamoResult<Option<i64>> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_i64()
                .map(Some)
                .ok_or_else(|| Self::wrong_type(name, "an integer")),
            Some(_) => Err(Self::wrong_type(name, "an integer")),
        }
    }

    /// A nested object field.
    pub fn object(&self, name: &str) -> DynamoResult<Option<Body<'a>>> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::Object(obj)) => Ok(Some(Body { obj })),
            Some(_) => Err(Self::wrong_type(name, "a structure")),
        }
    }

    /// A list field.
    pub fn list(&self, name: &str) -> DynamoResult<Option<&'a Vec<Value>>> {
        match self.raw(name) {
            None => Ok(None),
            Some(Value::Array(a)) => Ok(Some(a)),
            Some(_) => Err(Self::wrong_type(name, "a list")),
        }
    }

    /// An item-shaped field (`Item`, `Key`, `ExclusiveStartKey`).
    pub fn item(&self, name: &str) -> DynamoResult<Option<Item>> {
        self.raw(name).map(item_from_json).transpose()
    }

    /// A map of strings (`ExpressionAttributeNames`).
    pub fn string_map(&self, name: &str) -> DynamoResult<Option<Vec<(String, String)>>> {
        let Some(obj) = self.object(name)? else {
            return Ok(None);
        };
        obj.obj
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                _ => Err(Self::wrong_type(name, "a string")),
            })
            .collect::<DynamoResult<Vec<_>>>()
            .map(Some)
    }

    /// Field names and values of this object, in order.
    pub fn entries(&self) -> impl Iterator<Item = (&'a String, &'a Value)> {
        self.obj.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip() {
        let v = json!({"M": {"a": {"L": [{"N": "1.50"}, {"B": "AAE="}, {"NULL": true}]},
                             "s": {"SS": ["b", "a"]}, "t": {"BOOL": false}}});
        let parsed = value_from_json(&v).unwrap();
        let back = value_to_json(&parsed);
        assert_eq!(
            back,
            json!({"M": {"a": {"L": [{"N": "1.5"}, {"B": "AAE="}, {"NULL": true}]},
                         "s": {"SS": ["a", "b"]}, "t": {"BOOL": false}}})
        );
    }

    #[test]
    fn rejects_bad_values_in_dynamodb_words() {
        let msg = |v: Value| value_from_json(&v).unwrap_err().message;
        assert_eq!(
            msg(json!({"SS": ["a", "a"]})),
            "One or more parameter values were invalid: Input collection [a, a] contains duplicates."
        );
        assert_eq!(
            msg(json!({"SS": []})),
            "One or more parameter values were invalid: An string set  may not be empty"
        );
        assert_eq!(
            msg(json!({"N": "abc"})),
            "The parameter cannot be converted to a numeric value: abc"
        );
        assert!(msg(json!({"NULL": false})).contains("Null attribute value"));
        assert!(msg(json!({"S": "a", "N": "1"})).contains("more than one datatypes"));
        assert_eq!(
            value_from_json(&json!("x")).unwrap_err().kind,
            ErrorKind::Serialization
        );
    }

    #[test]
    fn error_shape() {
        let e = DynamoError::validation("bad");
        assert_eq!(
            error_to_json(&e),
            json!({"__type": "com.amazon.coral.validate#ValidationException", "message": "bad"})
        );
    }
}
