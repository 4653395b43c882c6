// The AWS SDK for JavaScript v3 against `dynalint serve`, as a team's tests use it:
// DynamoDBClient with its commands, the paginators and waiters, batches,
// transactions, PartiQL, the DocumentClient (lib-dynamodb) with plain JS values, and
// DynamoDB's errors as the SDK throws them.
//
//   NODE_PATH=target/test-tools/js-sdk/node_modules node tests/sdk/js_sdk_e2e.cjs http://127.0.0.1:PORT
//
// Run by tests/sdk_e2e.rs with the SDK that scripts/install-test-tools.sh pins
// (tests/sdk/js/package-lock.json). Prints one line per check and exits non-zero at
// the first that fails.
'use strict'

const ddb = require('@aws-sdk/client-dynamodb')
const lib = require('@aws-sdk/lib-dynamodb')

const endpoint = process.argv[2]
// No retries: an error the server gives is the error the test sees.
const client = new ddb.DynamoDBClient({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'dummy', secretAccessKey: 'dummy' },
  maxAttempts: 1,
})
const doc = lib.DynamoDBDocumentClient.from(client)
let checks = 0

function check (what, ok, detail) {
  if (!ok) {
    console.log(`FAILED: ${what} ${JSON.stringify(detail)}`)
    process.exit(1)
  }
  checks++
  console.log(`ok: ${what}`)
}

async function errorOf (promise) {
  try {
    await promise
  } catch (e) {
    return e
  }
  return null
}

async function main () {
  await client.send(new ddb.CreateTableCommand({
    TableName: 'Orders',
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: 'customer', AttributeType: 'S' },
      { AttributeName: 'orderId', AttributeType: 'S' },
      { AttributeName: 'status', AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: 'customer', KeyType: 'HASH' },
      { AttributeName: 'orderId', KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [{
      IndexName: 'ByStatus',
      KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }],
      Projection: { ProjectionType: 'ALL' },
    }],
  }))
  const waited = await ddb.waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1 }, { TableName: 'Orders' })
  check('CreateTable and waitUntilTableExists', waited.state === 'SUCCESS', waited)

  for (let i = 0; i < 12; i++) {
    await client.send(new ddb.PutItemCommand({
      TableName: 'Orders',
      Item: {
        customer: { S: 'c1' },
        orderId: { S: `o${String(i).padStart(2, '0')}` },
        status: { S: i % 3 ? 'OPEN' : 'DONE' },
        amount: { N: `${i}.50` },
      },
    }))
  }
  const got = await client.send(new ddb.GetItemCommand({
    TableName: 'Orders', Key: { customer: { S: 'c1' }, orderId: { S: 'o03' } },
  }))
  check('PutItem then GetItem', got.Item.amount.N === '3.5', got.Item)

  const counts = []
  for await (const page of ddb.paginateQuery({ client, pageSize: 5 }, {
    TableName: 'Orders',
    KeyConditionExpression: 'customer = :c AND begins_with(orderId, :o)',
    ExpressionAttributeValues: { ':c': { S: 'c1' }, ':o': { S: 'o' } },
  })) {
    counts.push(page.Count)
  }
  check('paginateQuery over LastEvaluatedKey', JSON.stringify(counts) === '[5,5,2]', counts)

  const open = await client.send(new ddb.QueryCommand({
    TableName: 'Orders',
    IndexName: 'ByStatus',
    KeyConditionExpression: '#s = :s',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':s': { S: 'OPEN' } },
  }))
  check('Query a global secondary index', open.Count === 8, open.Count)

  let e = await errorOf(client.send(new ddb.PutItemCommand({
    TableName: 'Orders',
    Item: { customer: { S: 'c1' }, orderId: { S: 'o01' } },
    ConditionExpression: 'attribute_not_exists(orderId)',
  })))
  check('a failed condition throws ConditionalCheckFailedException',
    e instanceof ddb.ConditionalCheckFailedException, e && e.name)

  e = await errorOf(client.send(new ddb.QueryCommand({
    TableName: 'Orders',
    IndexName: 'ByStatus',
    ConsistentRead: true,
    KeyConditionExpression: '#s = :s',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':s': { S: 'OPEN' } },
  })))
  check("DynamoDB's ValidationException, word for word",
    e && e.name === 'ValidationException' &&
      e.message === 'Consistent reads are not supported on global secondary indexes' &&
      e.$metadata.httpStatusCode === 400,
    e && [e.name, e.message])

  const updated = await client.send(new ddb.UpdateItemCommand({
    TableName: 'Orders',
    Key: { customer: { S: 'c1' }, orderId: { S: 'o01' } },
    UpdateExpression: 'SET #s = :s ADD amount :one',
    ExpressionAttributeNames: { '#s': 'status' },
    ExpressionAttributeValues: { ':s': { S: 'SHIPPED' }, ':one': { N: '1' } },
    ReturnValues: 'ALL_NEW',
  }))
  check('UpdateItem with ReturnValues',
    updated.Attributes.amount.N === '2.5' && updated.Attributes.status.S === 'SHIPPED', updated.Attributes)

  await client.send(new ddb.BatchWriteItemCommand({
    RequestItems: {
      Orders: Array.from({ length: 25 }, (_, i) => ({
        PutRequest: { Item: { customer: { S: 'c2' }, orderId: { S: `b${String(i).padStart(2, '0')}` }, status: { S: 'OPEN' } } },
      })),
    },
  }))
  const batch = await client.send(new ddb.BatchGetItemCommand({
    RequestItems: {
      Orders: { Keys: [0, 5, 10, 15, 20].map(i => ({ customer: { S: 'c2' }, orderId: { S: `b${String(i).padStart(2, '0')}` } })) },
    },
  }))
  check('BatchWriteItem then BatchGetItem', batch.Responses.Orders.length === 5, batch.Responses.Orders.length)

  e = await errorOf(client.send(new ddb.TransactWriteItemsCommand({
    TransactItems: [
      { Put: { TableName: 'Orders', Item: { customer: { S: 'c3' }, orderId: { S: 't1' } } } },
      {
        ConditionCheck: {
          TableName: 'Orders',
          Key: { customer: { S: 'c1' }, orderId: { S: 'o00' } },
          ConditionExpression: '#s = :open',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':open': { S: 'OPEN' } },
        },
      },
    ],
  })))
  const reasons = e && (e.CancellationReasons || []).map(r => r.Code)
  check('a cancelled transaction, with its reasons',
    e instanceof ddb.TransactionCanceledException && JSON.stringify(reasons) === '["None","ConditionalCheckFailed"]',
    reasons)
  const missing = await client.send(new ddb.GetItemCommand({
    TableName: 'Orders', Key: { customer: { S: 'c3' }, orderId: { S: 't1' } },
  }))
  check('a cancelled transaction writes nothing', missing.Item === undefined, missing.Item)

  const statement = await client.send(new ddb.ExecuteStatementCommand({
    Statement: 'SELECT orderId FROM Orders WHERE customer = ? AND orderId = ?',
    Parameters: [{ S: 'c1' }, { S: 'o02' }],
  }))
  check('PartiQL ExecuteStatement',
    JSON.stringify(statement.Items) === '[{"orderId":{"S":"o02"}}]', statement.Items)

  await doc.send(new lib.PutCommand({
    TableName: 'Orders',
    Item: { customer: 'c4', orderId: 'r1', amount: 12.25, tags: new Set(['a', 'b']), nested: { list: [1, 'two', null] } },
  }))
  const item = (await doc.send(new lib.GetCommand({ TableName: 'Orders', Key: { customer: 'c4', orderId: 'r1' } }))).Item
  check('the DocumentClient with plain values, sets and nesting',
    item.amount === 12.25 && item.tags.has('a') && item.tags.size === 2 &&
      JSON.stringify(item.nested) === '{"list":[1,"two",null]}',
    item)
  const queried = await doc.send(new lib.QueryCommand({
    TableName: 'Orders',
    KeyConditionExpression: 'customer = :c',
    FilterExpression: 'amount > :n',
    ExpressionAttributeValues: { ':c': 'c1', ':n': 9 },
  }))
  check("the DocumentClient's Query with a filter", queried.Count === 3, queried.Count)

  const deleted = await client.send(new ddb.DeleteItemCommand({
    TableName: 'Orders', Key: { customer: { S: 'c4' }, orderId: { S: 'r1' } }, ReturnValues: 'ALL_OLD',
  }))
  check('DeleteItem with ReturnValues', deleted.Attributes.orderId.S === 'r1', deleted.Attributes)

  await client.send(new ddb.DeleteTableCommand({ TableName: 'Orders' }))
  e = await errorOf(client.send(new ddb.GetItemCommand({
    TableName: 'Orders', Key: { customer: { S: 'c1' }, orderId: { S: 'o01' } },
  })))
  check('a deleted table throws ResourceNotFoundException', e instanceof ddb.ResourceNotFoundException, e && e.name)

  const version = require('@aws-sdk/client-dynamodb/package.json').version
  console.log(`@aws-sdk/client-dynamodb ${version}: ${checks} checks passed`)
}

main().catch(e => {
  console.log(`FAILED: ${e && e.stack}`)
  process.exit(1)
})
