//! Synthetic data from the model, replayed against the engine for cost figures.

pub mod shards;
