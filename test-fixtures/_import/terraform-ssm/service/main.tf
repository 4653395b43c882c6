module "naming" {
  source      = "../../modules/naming"
  environment = var.environment
}

locals {
  prefix           = module.naming.prefix
  prefix_parameter = module.naming.prefix_parameter
}

variable "environment" {
  type = string
}
