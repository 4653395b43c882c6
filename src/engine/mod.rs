//! An in-memory DynamoDB: its semantics, its validation word for word, its costs.
