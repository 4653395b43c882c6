resource "aws_dynamodb_table" "broken" {
  name     = "broken"
  hash_key = "id"
  attribute {
    name = "id"
