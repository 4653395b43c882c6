# Tables made from one description: a `for_each` over a local map, indexes from a
# `dynamic` block over a literal list, copies by `count`.
variable "env" {
  type = string
}

variable "indexed" {
  default = ["status", "customer"]
}

locals {
  tables = {
    carts = { hash = "cartId", read = 5 }
    users = { hash = "userId", read = 10 }
  }
}

resource "aws_dynamodb_table" "orders" {
  name         = "orders-${var.env}"
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"
  range_key    = "sk"

  attribute {
    name = "pk"
    type = "S"
  }
  attribute {
    name = "sk"
    type = "S"
  }
  dynamic "attribute" {
    for_each = toset(var.indexed)
    content {
      name = attribute.value
      type = "S"
    }
  }
  dynamic "global_secondary_index" {
    for_each = var.indexed
    iterator = gsi
    content {
      name            = "by-${gsi.value}"
      hash_key        = gsi.value
      range_key       = "sk"
      projection_type = "KEYS_ONLY"
    }
  }
  # Over a collection only the plan knows: a note, never a guess.
  dynamic "local_secondary_index" {
    for_each = data.external.lsis.result
    content {
      name            = local_secondary_index.key
      range_key       = local_secondary_index.value
      projection_type = "ALL"
    }
  }
}

resource "aws_dynamodb_table" "each" {
  for_each     = local.tables
  name         = "${each.key}-${var.env}"
  hash_key     = each.value.hash
  billing_mode = "PROVISIONED"
  read_capacity  = each.value.read
  write_capacity = 1
  attribute {
    name = each.value.hash
    type = "S"
  }
}

resource "aws_dynamodb_table" "shards" {
  count        = 4
  name         = "events-${count.index}"
  hash_key     = "id"
  billing_mode = "PAY_PER_REQUEST"
  attribute {
    name = "id"
    type = "S"
  }
}

resource "aws_lambda_function" "api" {
  function_name = "api"
  environment {
    variables = {
      CARTS_TABLE  = aws_dynamodb_table.each["carts"].name
      EVENTS_TABLE = aws_dynamodb_table.shards[0].name
    }
  }
}
