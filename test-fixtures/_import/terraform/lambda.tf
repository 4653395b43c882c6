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
