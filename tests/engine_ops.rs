//! Engine behaviour beyond the recorded conformance cases, through the wire entry
//! point: transactions, batch writes, update semantics, GSI projection rules.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use dynalint::engine::{Engine, ErrorKind};
use serde_json::{json, Value};

fn engine() -> Engine {
    let mut e = Engine::new();
    e.handle(
        "CreateTable",
        &json!({
            "TableName": "Orders",
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "status", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "GlobalSecondaryIndexes": [
                {"IndexName": "ByStatus", "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                 "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["amt"]}}]
        }),
    )
    .unwrap();
    e
}

fn put(e: &mut Engine, item: Value) {
    e.handle("PutItem", &json!({"TableName": "Orders", "Item": item}))
        .unwrap();
}

fn get(e: &mut Engine, pk: &str) -> Value {
    e.handle(
        "GetItem",
        &json!({"TableName": "Orders", "Key": {"pk": {"S": pk}}, "ConsistentRead": true}),
    )
    .unwrap()
}

#[test]
fn gsi_leaves_out_unprojected_attributes() {
    let mut e = engine();
    put(
        &mut e,
        json!({"pk": {"S": "a"}, "status": {"S": "OPEN"}, "amt": {"N": "3"}, "note": {"S": "x"}}),
    );
    let ok = e
        .handle("Query", &json!({"TableName": "Orders", "IndexName": "ByStatus",
            "KeyConditionExpression": "#s = :s", "ProjectionExpression": "pk, amt",
            "ExpressionAttributeNames": {"#s": "status"}, "ExpressionAttributeValues": {":s": {"S": "OPEN"}}}))
        .unwrap();
    assert_eq!(ok["Items"], json!([{"pk": {"S": "a"}, "amt": {"N": "3"}}]));
    // DynamoDB accepts a projection naming what the GSI does not store: it is
    // silently missing from every item.
    let partial = e
        .handle("Query", &json!({"TableName": "Orders", "IndexName": "ByStatus",
            "KeyConditionExpression": "#s = :s", "ProjectionExpression": "note, amt",
            "ExpressionAttributeNames": {"#s": "status"}, "ExpressionAttributeValues": {":s": {"S": "OPEN"}}}))
        .unwrap();
    assert_eq!(partial["Items"], json!([{"amt": {"N": "3"}}]));
}

#[test]
fn transactions_are_all_or_nothing() {
    let mut e = engine();
    put(&mut e, json!({"pk": {"S": "a"}, "n": {"N": "1"}}));
    let err = e
        .handle("TransactWriteItems", &json!({"TransactItems": [
            {"Put": {"TableName": "Orders", "Item": {"pk": {"S": "b"}}}},
            {"Update": {"TableName": "Orders", "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET n = n + :one",
                        "ConditionExpression": "n = :two",
                        "ExpressionAttributeValues": {":one": {"N": "1"}, ":two": {"N": "2"}}}}]}))
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::TransactionCanceled);
    assert_eq!(
        err.message,
        "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]"
    );
    assert_eq!(get(&mut e, "b"), json!({}), "nothing written");

    let ok = e
        .handle("TransactWriteItems", &json!({"ReturnConsumedCapacity": "TOTAL", "TransactItems": [
            {"Put": {"TableName": "Orders", "Item": {"pk": {"S": "b"}}}},
            {"Update": {"TableName": "Orders", "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET n = n + :one",
                        "ConditionExpression": "n = :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}}]}))
        .unwrap();
    // Two 1-WCU writes, doubled for the transaction.
    assert_eq!(ok["ConsumedCapacity"][0]["CapacityUnits"], json!(4.0));
    assert_eq!(get(&mut e, "a")["Item"]["n"], json!({"N": "2"}));

    let got = e
        .handle(
            "TransactGetItems",
            &json!({"TransactItems": [
            {"Get": {"TableName": "Orders", "Key": {"pk": {"S": "a"}}}},
            {"Get": {"TableName": "Orders", "Key": {"pk": {"S": "zz"}}}}]}),
        )
        .unwrap();
    assert_eq!(got["Responses"][1], json!({}));
    assert_eq!(got["Responses"][0]["Item"]["pk"], json!({"S": "a"}));
}

#[test]
fn batch_write_limits_and_effects() {
    let mut e = engine();
    let puts: Vec<Value> = (0..26)
        .map(|i| json!({"PutRequest": {"Item": {"pk": {"S": format!("k{i}")}}}}))
        .collect();
    let err = e
        .handle("BatchWriteItem", &json!({"RequestItems": {"Orders": puts}}))
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Validation);
    let ok = e
        .handle(
            "BatchWriteItem",
            &json!({"RequestItems": {"Orders": [
            {"PutRequest": {"Item": {"pk": {"S": "x"}}}},
            {"DeleteRequest": {"Key": {"pk": {"S": "nothing"}}}}]}}),
        )
        .unwrap();
    assert_eq!(ok["UnprocessedItems"], json!({}));
    assert_eq!(get(&mut e, "x")["Item"]["pk"], json!({"S": "x"}));
}

#[test]
fn update_semantics() {
    let mut e = engine();
    put(
        &mut e,
        json!({"pk": {"S": "a"}, "tags": {"SS": ["x", "y"]}, "lst": {"L": [{"N": "1"}]},
                      "m": {"M": {"dp1": {"N": "5"}}}}),
    );
    let r = e
        .handle("UpdateItem", &json!({"TableName": "Orders", "Key": {"pk": {"S": "a"}},
            "UpdateExpression": "ADD tags :t, cnt :one DELETE tags :x SET lst = list_append(lst, :l), m.dp1 = m.dp1 + :one, made1 = if_not_exists(made1, :now) REMOVE old1",
            "ExpressionAttributeValues": {":t": {"SS": ["z"]}, ":one": {"N": "1"}, ":x": {"SS": ["x"]},
                                          ":l": {"L": [{"N": "2"}]}, ":now": {"S": "today"}},
            "ReturnValues": "ALL_NEW"}))
        .unwrap_err();
    // ADD and DELETE on the same path overlap: DynamoDB rejects the expression.
    assert!(
        r.message.contains("Two document paths overlap"),
        "{}",
        r.message
    );

    let r = e
        .handle("UpdateItem", &json!({"TableName": "Orders", "Key": {"pk": {"S": "a"}},
            "UpdateExpression": "ADD tags :t, cnt :one SET lst = list_append(lst, :l), m.dp1 = m.dp1 + :one, made1 = if_not_exists(made1, :now)",
            "ExpressionAttributeValues": {":t": {"SS": ["z"]}, ":one": {"N": "1"},
                                          ":l": {"L": [{"N": "2"}]}, ":now": {"S": "today"}},
            "ReturnValues": "UPDATED_NEW"}))
        .unwrap();
    let a = &r["Attributes"];
    assert_eq!(a["cnt"], json!({"N": "1"}));
    assert_eq!(a["lst"], json!({"L": [{"N": "1"}, {"N": "2"}]}));
    assert_eq!(a["m"], json!({"M": {"dp1": {"N": "6"}}}));
    assert_eq!(a["made1"], json!({"S": "today"}));
    let mut tags: Vec<String> = a["tags"]["SS"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    tags.sort();
    assert_eq!(tags, ["x", "y", "z"]);

    let err = e
        .handle(
            "UpdateItem",
            &json!({"TableName": "Orders", "Key": {"pk": {"S": "a"}},
            "UpdateExpression": "SET pk = :v", "ExpressionAttributeValues": {":v": {"S": "b"}}}),
        )
        .unwrap_err();
    assert_eq!(
        err.message,
        "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"
    );
}

#[test]
fn tables_lifecycle() {
    let mut e = engine();
    let err = e
        .handle(
            "CreateTable",
            &json!({"TableName": "Orders",
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}),
        )
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::ResourceInUse);
    let d = e
        .handle("DescribeTable", &json!({"TableName": "Orders"}))
        .unwrap();
    assert_eq!(
        d["Table"]["GlobalSecondaryIndexes"][0]["Projection"]["NonKeyAttributes"],
        json!(["amt"])
    );
    assert_eq!(
        e.handle("ListTables", &json!({})).unwrap()["TableNames"],
        json!(["Orders"])
    );
    e.handle("DeleteTable", &json!({"TableName": "Orders"}))
        .unwrap();
    assert_eq!(
        e.handle("DescribeTable", &json!({"TableName": "Orders"}))
            .unwrap_err()
            .kind,
        ErrorKind::ResourceNotFound
    );
    assert_eq!(
        e.handle("Frobnicate", &json!({})).unwrap_err().kind,
        ErrorKind::UnknownOperation
    );
}

#[test]
fn starting_keys_outside_the_read_are_named() {
    let mut e = Engine::new();
    e.handle(
        "CreateTable",
        &json!({"TableName": "Seq", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                     {"AttributeName": "sk", "AttributeType": "N"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}]}),
    )
    .unwrap();
    let query = |e: &mut Engine, kce: &str, start: Value| {
        e.handle(
            "Query",
            &json!({"TableName": "Seq", "KeyConditionExpression": kce,
                "ExpressionAttributeValues": {":p": {"S": "a"}, ":lo": {"N": "5"}},
                "ExclusiveStartKey": start}),
        )
        .map(|_| ())
        .map_err(|err| err.message)
    };
    let key = |pk: &str, sk: &str| json!({"pk": {"S": pk}, "sk": {"N": sk}});
    assert_eq!(query(&mut e, "pk = :p AND sk > :lo", key("a", "7")), Ok(()));
    assert_eq!(
        query(&mut e, "pk = :p AND sk > :lo", key("a", "2")),
        Err("The provided starting key does not match the range key predicate".into())
    );
    assert_eq!(
        query(&mut e, "pk = :p AND sk > :lo", key("b", "7")),
        Err("The query can return at most one row and cannot be restarted".into())
    );
    let e2 = e
        .handle(
            "Query",
            &json!({"TableName": "Seq", "KeyConditionExpression": "pk = :p",
                "ExpressionAttributeValues": {":p": {"S": "a"}}, "ExclusiveStartKey": key("b", "1")}),
        )
        .unwrap_err();
    assert_eq!(
        e2.message,
        "The provided starting key is outside query boundaries based on provided conditions"
    );
    let scan = e
        .handle(
            "Scan",
            &json!({"TableName": "Seq", "ExclusiveStartKey": {"pk": {"S": "a"}}}),
        )
        .unwrap_err();
    assert_eq!(
        scan.message,
        "The provided starting key is invalid: The provided key element does not match the schema"
    );
}

#[test]
fn operand_types_are_checked_before_reading() {
    let mut e = engine();
    let scan = |e: &mut Engine, filter: &str, values: Value| {
        e.handle(
            "Scan",
            &json!({"TableName": "Orders", "FilterExpression": filter,
                    "ExpressionAttributeValues": values}),
        )
        .unwrap_err()
        .message
    };
    assert_eq!(
        scan(&mut e, "n BETWEEN :a AND :b", json!({":a": {"N": "1"}, ":b": {"S": "x"}})),
        "Invalid FilterExpression: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:x}"
    );
    assert_eq!(
        scan(&mut e, "n BETWEEN :a AND :b", json!({":a": {"N": "5"}, ":b": {"N": "1"}})),
        "Invalid FilterExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper bound operand: AttributeValue: {N:1}"
    );
    assert_eq!(
        scan(&mut e, "size(:a) > n", json!({":a": {"N": "5"}})),
        "Invalid FilterExpression: Incorrect operand type for operator or function; operator or function: size, operand type: N"
    );
}

#[test]
fn operand_and_operator_limits() {
    let mut e = engine();
    let scan = |e: &mut Engine, filter: String, n: usize| {
        let values: serde_json::Map<String, Value> = (0..n)
            .map(|i| (format!(":v{i}"), json!({"N": i.to_string()})))
            .collect();
        e.handle(
            "Scan",
            &json!({"TableName": "Orders", "FilterExpression": filter,
                    "ExpressionAttributeValues": values}),
        )
        .map(|_| ())
        .map_err(|err| err.message)
    };
    let list = |n: usize| (0..n).map(|i| format!(":v{i}")).collect::<Vec<_>>();
    assert_eq!(
        scan(&mut e, format!("n IN ({})", list(100).join(", ")), 100),
        Ok(())
    );
    assert_eq!(
        scan(&mut e, format!("n IN ({})", list(101).join(", ")), 101),
        Err("Invalid FilterExpression: The IN operator is provided with too many operands; number of operands: 101".into())
    );
    // 151 comparisons joined by 150 ORs: 301 operators.
    let many = list(151)
        .iter()
        .map(|v| format!("n = {v}"))
        .collect::<Vec<_>>()
        .join(" OR ");
    assert_eq!(
        scan(&mut e, many, 151),
        Err("Invalid FilterExpression: The expression contains too many operators; operator count: 301".into())
    );
}

#[test]
fn update_table_adds_and_drops_indexes() {
    let mut e = engine();
    put(&mut e, json!({"pk": {"S": "a"}, "color": {"S": "red"}}));
    put(&mut e, json!({"pk": {"S": "b"}, "color": {"S": "blue"}}));
    e.handle(
        "UpdateTable",
        &json!({"TableName": "Orders",
            "AttributeDefinitions": [{"AttributeName": "color", "AttributeType": "S"}],
            "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "ByColor",
                "KeySchema": [{"AttributeName": "color", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}),
    )
    .unwrap();
    let q = e
        .handle(
            "Query",
            &json!({"TableName": "Orders", "IndexName": "ByColor",
                "KeyConditionExpression": "color = :c", "ExpressionAttributeValues": {":c": {"S": "red"}}}),
        )
        .unwrap();
    assert_eq!(
        q["Items"],
        json!([{"pk": {"S": "a"}, "color": {"S": "red"}}])
    );
    let again = e
        .handle(
            "UpdateTable",
            &json!({"TableName": "Orders",
                "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "ByColor",
                    "KeySchema": [{"AttributeName": "color", "KeyType": "HASH"}],
                    "Projection": {"ProjectionType": "ALL"}}}]}),
        )
        .unwrap_err();
    assert_eq!(
        again.message,
        "Attempting to create an index which already exists"
    );
    e.handle(
        "UpdateTable",
        &json!({"TableName": "Orders", "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "ByColor"}}]}),
    )
    .unwrap();
    let gone = e
        .handle(
            "UpdateTable",
            &json!({"TableName": "Orders", "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "ByColor"}}]}),
        )
        .unwrap_err();
    assert_eq!(gone.kind, ErrorKind::ResourceNotFound);
}
