//! The key model: `dynalint.toml` — tables, keys, indexes, entities, access patterns
//! and the figures that say how big and hot they are. Knows nothing of source code.

pub mod load;
pub mod types;

pub use load::{discover, load_file, load_str, ModelError, ModelProblem, CONFIG_FILE_NAME};
pub use types::*;
