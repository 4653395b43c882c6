import { Construct } from 'constructs';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';

/** A table with the team's defaults; callers give the keys. */
export class AuditTable extends Construct {
  public readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: { tableName: string; partitionKey: dynamodb.Attribute }) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      ...props,
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecovery: true,
    });
  }
}
