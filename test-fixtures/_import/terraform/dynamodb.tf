locals {
  prefix   = "shop-${var.env}"
  user_key = "userId"
}

resource "aws_dynamodb_table" "carts" {
  name           = "${local.prefix}-carts"
  billing_mode   = "PROVISIONED"
  read_capacity  = 10
  write_capacity = 5
  hash_key       = local.user_key
  range_key      = "itemId"

  attribute {
    name = local.user_key
    type = "S"
  }

  attribute {
    name = "itemId"
    type = "S"
  }

  attribute {
    name = "addedAt"
    type = "N"
  }

  attribute {
    name = "couponId"
    type = "S"
  }

  global_secondary_index {
    name               = "ByItem"
    hash_key           = "itemId"
    range_key          = "addedAt"
    projection_type    = "INCLUDE"
    non_key_attributes = ["quantity"]
    read_capacity      = 2
    write_capacity     = 2
  }

  # The AWS provider's `key_schema` blocks in place of hash_key / range_key.
  global_secondary_index {
    name = "ByCoupon"
    key_schema {
      attribute_name = "couponId"
      key_type       = "HASH"
    }
    key_schema {
      attribute_name = "addedAt"
      key_type       = "RANGE"
    }
    projection_type = "KEYS_ONLY"
  }

  local_secondary_index {
    name            = "ByAddedAt"
    range_key       = "addedAt"
    projection_type = "KEYS_ONLY"
  }

  ttl {
    attribute_name = "expiresAt"
    enabled        = true
  }

  tags = {
    Environment = var.env
  }
}

resource "aws_dynamodb_table" "events" {
  name         = var.events_table_name
  billing_mode = "PAY_PER_REQUEST"
  hash_key     = "pk"

  attribute {
    name = "pk"
    type = "S"
  }

  attribute {
    name = "gsi"
    type = "S"
  }

  global_secondary_index {
    name            = "ByGsi"
    hash_key        = "gsi"
    projection_type = var.gsi_projection
  }
}

module "sessions" {
  source  = "terraform-aws-modules/dynamodb-table/aws"
  version = "~> 4.0"

  name      = format("%s-sessions", var.env)
  hash_key  = "sid"
  range_key = "created"

  attributes = [
    { name = "sid", type = "S" },
    { name = "created", type = "N" },
  ]
}
