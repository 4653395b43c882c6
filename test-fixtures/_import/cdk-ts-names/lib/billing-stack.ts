import { Duration, RemovalPolicy, Stack, StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Function, Runtime, Code } from 'aws-cdk-lib/aws-lambda';

const CUSTOMERS_TABLE = 'billing-customers';

export interface BillingStackProps extends StackProps {
  readonly invoicesTableName: string;
  readonly ledgerTableName: string;
}

export class BillingStack extends Stack {
  constructor(scope: Construct, id: string, props: BillingStackProps) {
    super(scope, id, props);

    // Named by a constant of this file.
    const customers = new Table(this, 'Customers', {
      tableName: CUSTOMERS_TABLE,
      partitionKey: { name: 'customerId', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
    });

    // Named by a prop every instance of the stack gives the same value.
    const invoices = new Table(this, 'Invoices', {
      tableName: props.invoicesTableName,
      partitionKey: { name: 'customerId', type: AttributeType.STRING },
      sortKey: { name: 'invoiceId', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Named by a prop the two instances give different values: not known here.
    const ledger = new Table(this, 'Ledger', {
      tableName: props.ledgerTableName,
      partitionKey: { name: 'accountId', type: AttributeType.STRING },
      sortKey: { name: 'entryId', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
    });

    // Named at deploy time, with a default.
    const payments = new Table(this, 'Payments', {
      tableName: process.env.PAYMENTS_TABLE ?? 'billing-payments',
      partitionKey: { name: 'paymentId', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
    });

    // Named at deploy time only: it goes by its construct id.
    const refunds = new Table(this, 'Refunds', {
      tableName: process.env.REFUNDS_TABLE,
      partitionKey: { name: 'refundId', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
    });

    // Two tables whose names come from context: told apart by construct id.
    const rates = new Table(this, 'Rates', {
      tableName: this.node.tryGetContext('ratesTable'),
      partitionKey: { name: 'currency', type: AttributeType.STRING },
    });
    const holidays = new Table(this, 'Holidays', {
      tableName: this.node.tryGetContext('holidaysTable'),
      partitionKey: { name: 'date', type: AttributeType.STRING },
    });

    const api = new Function(this, 'BillingApi', {
      runtime: Runtime.PROVIDED_AL2023,
      handler: 'bootstrap',
      code: Code.fromAsset('../target/lambda/billing-api'),
      timeout: Duration.seconds(10),
      environment: {
        CUSTOMERS_TABLE: customers.tableName,
        INVOICES_TABLE: invoices.tableName,
        LEDGER_TABLE: ledger.tableName,
        RATES_TABLE: rates.tableName,
        HOLIDAYS_TABLE: holidays.tableName,
      },
    });
    for (const t of [customers, invoices, ledger, payments, refunds, rates, holidays]) {
      t.grantReadWriteData(api);
    }
  }
}
