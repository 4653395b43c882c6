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

  global_secondary_index {
    name               = "ByItem"
    hash_key           = "itemId"
    range_key          = "addedAt"
    projection_type    = "INCLUDE"
    non_key_attributes = ["quantity"]
    read_capacity      = 2
    write_capacity     = 2
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
resource "aws_lambda_function" "api" {
  function_name = "shop-api-${var.env}"
  role          = aws_iam_role.api.arn
  handler       = "bootstrap"
  runtime       = "provided.al2023"
  filename      = "target/lambda/api/bootstrap.zip"

  environment {
    variables = {
      CARTS_TABLE  = aws_dynamodb_table.carts.name
      EVENTS_TABLE = "${aws_dynamodb_table.events.id}"
      SESSIONS     = module.sessions.dynamodb_table_id
      RUST_LOG     = "info"
    }
  }
}

resource "aws_ecs_task_definition" "worker" {
  family = "worker"
  container_definitions = jsonencode([
    {
      name  = "worker"
      image = "worker:latest"
      environment = [
        { name = "CARTS", value = aws_dynamodb_table.carts.arn },
      ]
    }
  ])
}
variable "env" {
  description = "deployment environment"
  type        = string
  default     = "dev"
}

variable "events_table_name" {
  type    = string
  default = "events"
}

variable "gsi_projection" {
  type = string
}
