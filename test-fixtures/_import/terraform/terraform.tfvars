gsi_projection = "KEYS_ONLY"
