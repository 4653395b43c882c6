// Tests are not read: they build stacks with other keys on purpose.
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
new dynamodb.Table(stack, 'Fake', { partitionKey: { name: 'x', type: dynamodb.AttributeType.STRING } });
