# Seeds a local table with boto3: no CDK here, and its `partition_key` declares nothing.
import boto3

partition_key = "PK"
boto3.resource("dynamodb").Table("orders").put_item(Item={partition_key: "x"})
