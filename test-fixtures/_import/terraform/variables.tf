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
