#!/usr/bin/env node
import * as cdk from 'aws-cdk-lib';
import { ShopStack } from '../lib/shop-stack';

const app = new cdk.App();
new ShopStack(app, 'ShopStack', { env: { region: 'eu-west-1' } });
