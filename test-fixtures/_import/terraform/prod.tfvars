gsi_projection = "KEYS_ONLY"
env            = "prod"
