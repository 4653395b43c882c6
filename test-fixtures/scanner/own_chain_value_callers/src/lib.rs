pub mod repo;
pub mod stats;
