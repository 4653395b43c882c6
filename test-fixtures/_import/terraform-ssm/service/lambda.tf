resource "aws_lambda_function" "api" {
  package_type  = "Image"
  image_uri     = var.image_uri
  function_name = "${local.prefix}-API"
  role          = aws_iam_role.api.arn
  timeout       = 5
  environment {
    variables = {
      ORDERS_TABLE_NAME = data.aws_ssm_parameter.orders_table_name.insecure_value
      RUST_LOG          = "info"
    }
  }
}

variable "image_uri" {
  type = string
}
