import * as cdk from 'aws-cdk-lib';
import { Construct } from 'constructs';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { AuditTable } from './constructs/audit-table';

export class ShopStack extends cdk.Stack {
  constructor(scope: Construct, id: string, props?: cdk.StackProps) {
    super(scope, id, props);

    // Orders: single-table design, a GSI for lookups by status.
    const ordersTable: dynamodb.Table = new dynamodb.Table(this, 'Orders', {
      tableName: `orders-${props?.env?.region}`,
      partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'SK', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PROVISIONED,
      readCapacity: 10,
      writeCapacity: 5,
      removalPolicy: cdk.RemovalPolicy.RETAIN,
    });
    ordersTable.addGlobalSecondaryIndex({
      indexName: 'ByStatus',
      partitionKey: { name: 'status', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'createdAt', type: dynamodb.AttributeType.NUMBER },
      projectionType: dynamodb.ProjectionType.INCLUDE,
      nonKeyAttributes: ['total'],
    });

    const carts = new dynamodb.TableV2(this, 'Carts', {
      partitionKey: { name: 'cartId', type: dynamodb.AttributeType.STRING },
      globalSecondaryIndexes: [
        {
          indexName: 'ByUser',
          partitionKey: { name: 'userId', type: dynamodb.AttributeType.STRING },
          projectionType: dynamodb.ProjectionType.KEYS_ONLY,
        },
      ],
    });

    const audit = new AuditTable(this, 'Audit', {
      tableName: 'audit',
      partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING },
    });

    const api = new lambda.Function(this, 'Api', {
      runtime: lambda.Runtime.PROVIDED_AL2023,
      handler: 'bootstrap',
      code: lambda.Code.fromAsset('../target/lambda/api'),
      environment: {
        ORDERS_TABLE: ordersTable.tableName,
        CARTS_TABLE: carts.tableName,
        AUDIT_TABLE: audit.table.tableName,
        RUST_LOG: 'info',
      },
    });
    ordersTable.grantReadWriteData(api);
  }
}
