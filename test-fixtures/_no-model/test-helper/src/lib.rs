//! Notes, kept in DynamoDB by the caller's client.
