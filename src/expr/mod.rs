//! DynamoDB's expression languages: key condition, condition/filter, projection and
//! update expressions. Knows nothing of tables.
