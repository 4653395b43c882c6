"""boto3 (the AWS SDK for Python) against `dynalint serve`, as a team's tests use it:
the low-level client, the resource API with Decimal numbers, paginators, waiters,
batches, transactions, PartiQL, and DynamoDB's errors as boto3 raises them.

    python3 tests/sdk/boto3_e2e.py http://127.0.0.1:PORT

Run by tests/sdk_e2e.rs with the boto3 that scripts/install-test-tools.sh pins.
Prints one line per check and exits non-zero at the first that fails.
"""

import sys
from decimal import Decimal

import boto3
from boto3.dynamodb.conditions import Attr, Key
from botocore.config import Config

endpoint = sys.argv[1]
session = boto3.session.Session(
    aws_access_key_id="dummy", aws_secret_access_key="dummy", region_name="us-east-1"
)
# No retries: an error the server gives is the error the test sees.
config = Config(retries={"max_attempts": 1, "mode": "standard"})
db = session.client("dynamodb", endpoint_url=endpoint, config=config)
resource = session.resource("dynamodb", endpoint_url=endpoint, config=config)
checks = 0


def check(what, ok, detail=""):
    global checks
    if not ok:
        print(f"FAILED: {what} {detail}")
        sys.exit(1)
    checks += 1
    print(f"ok: {what}")


def error_of(call):
    try:
        call()
    except db.exceptions.ClientError as e:
        return e
    return None


db.create_table(
    TableName="Orders",
    BillingMode="PAY_PER_REQUEST",
    AttributeDefinitions=[
        {"AttributeName": "customer", "AttributeType": "S"},
        {"AttributeName": "orderId", "AttributeType": "S"},
        {"AttributeName": "status", "AttributeType": "S"},
    ],
    KeySchema=[
        {"AttributeName": "customer", "KeyType": "HASH"},
        {"AttributeName": "orderId", "KeyType": "RANGE"},
    ],
    GlobalSecondaryIndexes=[
        {
            "IndexName": "ByStatus",
            "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
        }
    ],
)
db.get_waiter("table_exists").wait(TableName="Orders", WaiterConfig={"Delay": 1})
described = db.describe_table(TableName="Orders")["Table"]
check("create_table and the table_exists waiter", described["TableStatus"] == "ACTIVE")

for i in range(12):
    db.put_item(
        TableName="Orders",
        Item={
            "customer": {"S": "c1"},
            "orderId": {"S": f"o{i:02}"},
            "status": {"S": "OPEN" if i % 3 else "DONE"},
            "amount": {"N": f"{i}.50"},
        },
    )
got = db.get_item(TableName="Orders", Key={"customer": {"S": "c1"}, "orderId": {"S": "o03"}})
check("put_item then get_item", got["Item"]["amount"] == {"N": "3.5"}, got)

pages = db.get_paginator("query").paginate(
    TableName="Orders",
    KeyConditionExpression="customer = :c AND begins_with(orderId, :o)",
    ExpressionAttributeValues={":c": {"S": "c1"}, ":o": {"S": "o"}},
    PaginationConfig={"PageSize": 5},
)
counts = [page["Count"] for page in pages]
check("query paginator over LastEvaluatedKey", counts == [5, 5, 2], counts)

open_orders = db.query(
    TableName="Orders",
    IndexName="ByStatus",
    KeyConditionExpression="#s = :s",
    ExpressionAttributeNames={"#s": "status"},
    ExpressionAttributeValues={":s": {"S": "OPEN"}},
)
check("query a global secondary index", open_orders["Count"] == 8, open_orders["Count"])

e = error_of(
    lambda: db.put_item(
        TableName="Orders",
        Item={"customer": {"S": "c1"}, "orderId": {"S": "o01"}},
        ConditionExpression="attribute_not_exists(orderId)",
    )
)
check(
    "a failed condition raises ConditionalCheckFailedException",
    isinstance(e, db.exceptions.ConditionalCheckFailedException),
    e,
)

e = error_of(
    lambda: db.query(
        TableName="Orders",
        IndexName="ByStatus",
        ConsistentRead=True,
        KeyConditionExpression="#s = :s",
        ExpressionAttributeNames={"#s": "status"},
        ExpressionAttributeValues={":s": {"S": "OPEN"}},
    )
)
check(
    "DynamoDB's ValidationException, word for word",
    e is not None
    and e.response["Error"]["Code"] == "ValidationException"
    and e.response["Error"]["Message"]
    == "Consistent reads are not supported on global secondary indexes",
    e,
)

updated = db.update_item(
    TableName="Orders",
    Key={"customer": {"S": "c1"}, "orderId": {"S": "o01"}},
    UpdateExpression="SET #s = :s ADD amount :one",
    ExpressionAttributeNames={"#s": "status"},
    ExpressionAttributeValues={":s": {"S": "SHIPPED"}, ":one": {"N": "1"}},
    ReturnValues="ALL_NEW",
)
check(
    "update_item with ReturnValues",
    updated["Attributes"]["amount"] == {"N": "2.5"}
    and updated["Attributes"]["status"] == {"S": "SHIPPED"},
    updated,
)

db.batch_write_item(
    RequestItems={
        "Orders": [
            {"PutRequest": {"Item": {"customer": {"S": "c2"}, "orderId": {"S": f"b{i:02}"}, "status": {"S": "OPEN"}}}}
            for i in range(25)
        ]
    }
)
batch = db.batch_get_item(
    RequestItems={
        "Orders": {"Keys": [{"customer": {"S": "c2"}, "orderId": {"S": f"b{i:02}"}} for i in range(0, 25, 5)]}
    }
)
check("batch_write_item then batch_get_item", len(batch["Responses"]["Orders"]) == 5, batch)

e = error_of(
    lambda: db.transact_write_items(
        TransactItems=[
            {"Put": {"TableName": "Orders", "Item": {"customer": {"S": "c3"}, "orderId": {"S": "t1"}}}},
            {
                "ConditionCheck": {
                    "TableName": "Orders",
                    "Key": {"customer": {"S": "c1"}, "orderId": {"S": "o00"}},
                    "ConditionExpression": "#s = :open",
                    "ExpressionAttributeNames": {"#s": "status"},
                    "ExpressionAttributeValues": {":open": {"S": "OPEN"}},
                }
            },
        ]
    )
)
reasons = [r["Code"] for r in e.response.get("CancellationReasons", [])] if e else None
check(
    "a cancelled transaction, with its reasons",
    isinstance(e, db.exceptions.TransactionCanceledException)
    and reasons == ["None", "ConditionalCheckFailed"],
    reasons,
)
missing = db.get_item(TableName="Orders", Key={"customer": {"S": "c3"}, "orderId": {"S": "t1"}})
check("a cancelled transaction writes nothing", "Item" not in missing, missing)

statement = db.execute_statement(
    Statement="SELECT orderId FROM Orders WHERE customer = ? AND orderId = ?",
    Parameters=[{"S": "c1"}, {"S": "o02"}],
)
check("PartiQL execute_statement", statement["Items"] == [{"orderId": {"S": "o02"}}], statement)

table = resource.Table("Orders")
table.put_item(Item={"customer": "c4", "orderId": "r1", "amount": Decimal("12.25"), "tags": {"a", "b"}})
item = table.get_item(Key={"customer": "c4", "orderId": "r1"})["Item"]
check(
    "the resource API with Decimal numbers and sets",
    item["amount"] == Decimal("12.25") and item["tags"] == {"a", "b"},
    item,
)
queried = table.query(KeyConditionExpression=Key("customer").eq("c1"), FilterExpression=Attr("amount").gt(Decimal(9)))
check("the resource API's conditions", queried["Count"] == 3, queried["Count"])
with table.batch_writer() as writer:
    for i in range(30):
        writer.put_item(Item={"customer": "c5", "orderId": f"w{i:02}"})
scanned = table.scan(FilterExpression=Attr("customer").eq("c5"), Select="COUNT")
check("the resource API's batch_writer", scanned["Count"] == 30, scanned["Count"])

deleted = db.delete_item(
    TableName="Orders", Key={"customer": {"S": "c4"}, "orderId": {"S": "r1"}}, ReturnValues="ALL_OLD"
)
check("delete_item with ReturnValues", deleted["Attributes"]["orderId"] == {"S": "r1"}, deleted)

db.delete_table(TableName="Orders")
e = error_of(lambda: db.get_item(TableName="Orders", Key={"customer": {"S": "c1"}, "orderId": {"S": "o01"}}))
check(
    "a deleted table raises ResourceNotFoundException",
    isinstance(e, db.exceptions.ResourceNotFoundException),
    e,
)
print(f"boto3 {boto3.__version__}: {checks} checks passed")
