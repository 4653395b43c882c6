data "aws_ssm_parameter" "orders_table_name" {
  name = "${local.prefix_parameter}/DynamoDB/OrdersTable/Name"
}

data "aws_ssm_parameter" "orders_table_arn" {
  name = "${local.prefix_parameter}/DynamoDB/OrdersTable/Arn"
}

# Read by nobody: a parameter this module does not hand to the function.
data "aws_ssm_parameter" "invoices_table_name" {
  name = "${local.prefix_parameter}/DynamoDB/InvoicesTable/Name"
}
