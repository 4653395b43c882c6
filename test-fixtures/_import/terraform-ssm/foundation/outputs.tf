# Later stacks read the tables from Parameter Store, not from this state.
resource "aws_ssm_parameter" "orders_table_name" {
  name  = "${local.prefix_parameter}/DynamoDB/OrdersTable/Name"
  type  = "String"
  value = aws_dynamodb_table.orders.name
}

resource "aws_ssm_parameter" "orders_table_arn" {
  name  = "${local.prefix_parameter}/DynamoDB/OrdersTable/Arn"
  type  = "String"
  value = aws_dynamodb_table.orders.arn
}

resource "aws_ssm_parameter" "invoices_table_name" {
  name  = "${local.prefix_parameter}/DynamoDB/InvoicesTable/Name"
  type  = "String"
  value = aws_dynamodb_table.invoices.name
}
