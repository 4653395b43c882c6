//! What DynamoDB charges, as data and arithmetic: the bundled list prices
//! (`prices.toml`, dated, every figure with its source), the model's `[pricing]`
//! figures laid over them ([`Prices`]), and capacity units turned into dollars a month
//! on-demand and provisioned ([`bill`]). Knows nothing of source code: the units come
//! from `facts::call_cost` and `simulate`.

pub mod bill;
pub mod book;

pub use crate::model::price_figure::Figure;
pub use bill::{dollars, monthly, CapacityMode, Monthly, UnitsPerSecond};
pub use book::{bundled, MissingPrice, Price, PriceBook, Prices};
