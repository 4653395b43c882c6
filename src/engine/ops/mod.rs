//! The operations, one file per family. Each reads a JSON request body and answers
//! DynamoDB's JSON response or DynamoDB's error.

pub mod batch;
pub mod items;
pub mod read;
pub mod settings;
pub mod streams;
pub mod tables;
pub mod transact;
