#!/usr/bin/env node
import 'source-map-support/register';
import * as cdk from 'aws-cdk-lib';
import { BillingStack } from '../lib/billing-stack';

const app = new cdk.App();
const stage = app.node.tryGetContext('stage') ?? 'dev';

new BillingStack(app, `Billing-${stage}`, {
  invoicesTableName: 'billing-invoices',
  ledgerTableName: 'ledger-eu',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: 'eu-west-1' },
});

// The same stack in a second region writes its ledger to another table.
new BillingStack(app, `Billing-${stage}-us`, {
  invoicesTableName: 'billing-invoices',
  ledgerTableName: 'ledger-us',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: 'us-east-1' },
});
