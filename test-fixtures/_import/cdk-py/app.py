#!/usr/bin/env python3
import aws_cdk as cdk

from shop.shop_stack import ShopStack

app = cdk.App()
ShopStack(app, "ShopStack")
app.synth()
