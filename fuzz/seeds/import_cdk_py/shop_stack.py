"""The shop's tables and functions.

It's written the way `cdk init app --language python` starts one.
"""
from aws_cdk import Stack, Duration
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from constructs import Construct


class ShopStack(Stack):
    def __init__(self, scope: Construct, construct_id: str, **kwargs) -> None:
        super().__init__(scope, construct_id, **kwargs)

        # Orders: one item collection per customer.
        orders = dynamodb.Table(
            self,
            "Orders",
            table_name="orders",
            partition_key=dynamodb.Attribute(
                name="PK", type=dynamodb.AttributeType.STRING
            ),
            sort_key=dynamodb.Attribute(name="SK", type=dynamodb.AttributeType.STRING),
            billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
        )
        orders.add_global_secondary_index(
            index_name="ByStatus",
            partition_key=dynamodb.Attribute(
                name="status", type=dynamodb.AttributeType.STRING
            ),
            projection_type=dynamodb.ProjectionType.KEYS_ONLY,
        )
        carts = dynamodb.Table(
            self,
            "Carts",
            partition_key=dynamodb.Attribute(name="cartId", type=dynamodb.AttributeType.NUMBER),
        )

        lambda_.Function(
            self,
            "Api",
            runtime=lambda_.Runtime.PROVIDED_AL2023,
            handler="bootstrap",
            code=lambda_.Code.from_asset("../target/lambda/api"),
            timeout=Duration.seconds(10),
            environment={
                "ORDERS_TABLE": orders.table_name,
                "CARTS_TABLE": carts.table_name,
            },
        )
