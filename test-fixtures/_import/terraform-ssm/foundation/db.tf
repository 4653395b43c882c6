resource "aws_dynamodb_table" "orders" {
  name         = "${local.prefix}-Orders"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "CustomerId"
  range_key    = "OrderId"
  attribute {
    name = "CustomerId"
    type = "S"
  }
  attribute {
    name = "OrderId"
    type = "S"
  }
}

resource "aws_dynamodb_table" "invoices" {
  name         = "${local.prefix}-Invoices"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "InvoiceId"
  attribute {
    name = "InvoiceId"
    type = "S"
  }
}
