pub mod backup;
pub mod cache;
pub mod dynamodb;
pub mod model;
pub mod tracker;
