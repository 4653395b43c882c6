terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

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
