//! The price table as data: the bundled `prices.toml` (dated, each figure with its
//! source), and the prices one model pays, the bundled figures with its `[pricing]`
//! ones laid over them.

use std::fmt;
use std::sync::LazyLock;

use indexmap::IndexMap;

use crate::model::price_figure::Figure;
use crate::model::{Model, ReservedCapacity, TableClass};

/// The region a model's tables are in when `[pricing]` does not say.
pub const DEFAULT_REGION: &str = "us-east-1";
/// Auto scaling's default target: provisioned capacity used on average.
pub const DEFAULT_TARGET_UTILIZATION: f64 = 0.7;

/// The bundled price table, as shipped.
pub const BUNDLED: &str = include_str!("prices.toml");

/// A price table: figures per region and table class, with where they came from.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PriceBook {
    /// The day the figures were read.
    pub date: String,
    /// Where they were read, in general (each region says per figure).
    pub source: String,
    /// Hours a month is billed as (AWS's 730).
    pub hours_per_month: f64,
    /// Bytes DynamoDB adds to every item (and index entry) when it bills storage.
    pub item_overhead_bytes: f64,
    /// Bytes in a billed GB.
    pub gb_bytes: f64,
    pub regions: Vec<RegionPrices>,
}

/// One region's figures.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RegionPrices {
    /// `us-east-1`.
    pub code: String,
    /// `US East (N. Virginia)`.
    pub name: String,
    /// The `STANDARD` class's figures; a figure not confirmed is absent.
    pub standard: IndexMap<Figure, f64>,
    /// The `STANDARD_INFREQUENT_ACCESS` class's figures.
    pub infrequent_access: IndexMap<Figure, f64>,
    /// Figure key (or `standard-infrequent-access`) → where it was read.
    pub sources: IndexMap<String, String>,
}

impl RegionPrices {
    fn figures(&self, class: TableClass) -> &IndexMap<Figure, f64> {
        match class {
            TableClass::Standard => &self.standard,
            TableClass::StandardInfrequentAccess => &self.infrequent_access,
        }
    }
}

/// The bundled table, read once. A bundled table that did not read (a test keeps it
/// reading) would be an empty one: every price missing, never a wrong one.
pub fn bundled() -> &'static PriceBook {
    static BOOK: LazyLock<PriceBook> = LazyLock::new(|| parse(BUNDLED).unwrap_or_default());
    &BOOK
}

/// Reads a price table in `prices.toml`'s format.
pub fn parse(text: &str) -> Result<PriceBook, String> {
    let doc: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    let string = |t: &toml::Table, k: &str| -> Result<String, String> {
        t.get(k)
            .and_then(toml::Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("`{k}` is missing or not a string"))
    };
    let number = |v: &toml::Value| v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
    let mut book = PriceBook {
        date: string(&doc, "date")?,
        source: string(&doc, "source")?,
        hours_per_month: doc
            .get("hours-per-month")
            .and_then(number)
            .ok_or("`hours-per-month` is missing")?,
        item_overhead_bytes: doc
            .get("item-overhead-bytes")
            .and_then(number)
            .ok_or("`item-overhead-bytes` is missing")?,
        gb_bytes: doc
            .get("gb-bytes")
            .and_then(number)
            .ok_or("`gb-bytes` is missing")?,
        regions: Vec::new(),
    };
    let regions = doc
        .get("region")
        .and_then(toml::Value::as_table)
        .ok_or("`[region.<code>]` tables are missing")?;
    for (code, v) in regions {
        let t = v
            .as_table()
            .ok_or_else(|| format!("`region.{code}` is not a table"))?;
        let mut r = RegionPrices {
            code: code.clone(),
            name: string(t, "name")?,
            ..RegionPrices::default()
        };
        let figures = |t: &toml::Table, out: &mut IndexMap<Figure, f64>| -> Result<(), String> {
            for (k, v) in t {
                let Some(f) = Figure::parse(k) else { continue };
                let n = number(v)
                    .filter(|n| n.is_finite() && *n >= 0.0)
                    .ok_or_else(|| format!("`{k}` of region `{code}` is not a price"))?;
                out.insert(f, n);
            }
            Ok(())
        };
        figures(t, &mut r.standard)?;
        if let Some(ia) = t
            .get("standard-infrequent-access")
            .and_then(toml::Value::as_table)
        {
            figures(ia, &mut r.infrequent_access)?;
        }
        for (k, v) in t
            .get("sources")
            .and_then(toml::Value::as_table)
            .into_iter()
            .flatten()
        {
            if let Some(s) = v.as_str() {
                r.sources.insert(k.clone(), s.to_string());
            }
        }
        for k in t.keys() {
            let known = Figure::parse(k).is_some()
                || matches!(
                    k.as_str(),
                    "name" | "standard-infrequent-access" | "sources"
                );
            if !known {
                return Err(format!("unknown key `{k}` in region `{code}`"));
            }
        }
        book.regions.push(r);
    }
    Ok(book)
}

/// Where a price came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The bundled table.
    Bundled,
    /// The model's `[pricing]`.
    Model,
}

/// A price the model pays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    pub value: f64,
    pub origin: Origin,
}

/// A price neither the bundled table nor `[pricing]` gives: which, and how to give it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MissingPrice {
    pub region: String,
    pub class: TableClass,
    pub figure: Figure,
    /// The `[pricing]` table to set it in: `[pricing]`, `[pricing.regions.eu-west-1]`.
    pub set_in: String,
}

impl fmt::Display for MissingPrice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the price `{}` ({}) of {} tables in {} (set `{}` under `{}`)",
            self.figure,
            self.figure.unit(),
            self.class.as_str(),
            self.region,
            self.figure,
            self.set_in
        )
    }
}

/// The prices one model pays: its region's bundled figures, with `[pricing]` laid
/// over them.
#[derive(Debug, Clone, PartialEq)]
pub struct Prices {
    /// The tables' region.
    pub region: String,
    /// The bundled table's date.
    pub date: String,
    /// Hours in a billed month.
    pub hours_per_month: f64,
    /// Bytes billed per item besides its own.
    pub item_overhead_bytes: f64,
    /// Bytes in a billed GB.
    pub gb_bytes: f64,
    /// Provisioned capacity's average use, for provisioned figures.
    pub target_utilization: f64,
    /// Reserved capacity to compare, when `[pricing.reserved-capacity]` gives it.
    pub reserved: Option<ReservedCapacity>,
    /// Prices the model sets, by (region, class, figure).
    overrides: Vec<(String, TableClass, Figure, f64)>,
    book: &'static PriceBook,
}

impl Prices {
    /// The prices of `model`'s `[pricing]` over the bundled table.
    pub fn for_model(model: &Model) -> Self {
        Self::with_book(model, bundled())
    }

    /// The prices of `model`'s `[pricing]` over `book`.
    pub fn with_book(model: &Model, book: &'static PriceBook) -> Self {
        let p = &model.pricing;
        let region = p
            .region
            .clone()
            .unwrap_or_else(|| DEFAULT_REGION.to_string());
        let overrides = p
            .overrides
            .iter()
            .map(|o| {
                (
                    o.region.clone().unwrap_or_else(|| region.clone()),
                    o.class,
                    o.figure,
                    o.value,
                )
            })
            .collect();
        Self {
            region,
            date: book.date.clone(),
            hours_per_month: book.hours_per_month,
            item_overhead_bytes: book.item_overhead_bytes,
            gb_bytes: book.gb_bytes,
            target_utilization: p.target_utilization.unwrap_or(DEFAULT_TARGET_UTILIZATION),
            reserved: p.reserved.clone(),
            overrides,
            book,
        }
    }

    /// Seconds in a billed month.
    pub fn seconds_per_month(&self) -> f64 {
        self.hours_per_month * 3600.0
    }

    /// The bundled table these prices start from.
    pub fn book(&self) -> &'static PriceBook {
        self.book
    }

    /// One price in the model's region (`region` = `None`) or another.
    pub fn get(
        &self,
        region: Option<&str>,
        class: TableClass,
        figure: Figure,
    ) -> Result<Price, MissingPrice> {
        let region = region.unwrap_or(&self.region);
        let set = self
            .overrides
            .iter()
            .rev()
            .find(|(r, c, f, _)| r == region && *c == class && *f == figure);
        if let Some((.., v)) = set {
            return Ok(Price {
                value: *v,
                origin: Origin::Model,
            });
        }
        let bundled = self
            .book
            .regions
            .iter()
            .find(|r| r.code == region)
            .and_then(|r| r.figures(class).get(&figure));
        match bundled {
            Some(v) => Ok(Price {
                value: *v,
                origin: Origin::Bundled,
            }),
            None => Err(self.missing(region, class, figure)),
        }
    }

    fn missing(&self, region: &str, class: TableClass, figure: Figure) -> MissingPrice {
        let mut set_in = if region == self.region {
            "[pricing]".to_string()
        } else {
            format!("[pricing.regions.{region}]")
        };
        if class == TableClass::StandardInfrequentAccess {
            set_in.insert_str(set_in.len() - 1, ".standard-infrequent-access");
        }
        MissingPrice {
            region: region.to_string(),
            class,
            figure,
            set_in,
        }
    }

    /// `us-east-1 prices of 2026-11-28`, or with the figures the model sets.
    pub fn describe(&self) -> String {
        let own = self.overrides.len();
        let known = self.book.regions.iter().any(|r| r.code == self.region);
        let mut s = if known {
            format!(
                "{} list prices of {} (bundled)",
                self.region, self.book.date
            )
        } else {
            format!(
                "{}: no bundled prices (the bundled table of {} has {})",
                self.region,
                self.book.date,
                self.book
                    .regions
                    .iter()
                    .map(|r| r.code.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        if own > 0 {
            s.push_str(&format!(
                ", {own} figure{} from `[pricing]`",
                if own == 1 { "" } else { "s" }
            ));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::load_str;
    use std::path::Path;

    #[test]
    fn the_bundled_table_reads_and_every_figure_has_a_source() {
        let book = parse(BUNDLED).unwrap();
        assert_eq!(book.hours_per_month, 730.0);
        let us = book.regions.iter().find(|r| r.code == "us-east-1").unwrap();
        assert_eq!(us.standard.get(&Figure::WriteRequestUnits), Some(&0.625));
        assert_eq!(us.standard.get(&Figure::ReadRequestUnits), Some(&0.125));
        assert_eq!(
            us.infrequent_access.get(&Figure::StorageGbMonths),
            Some(&0.10)
        );
        for f in us.standard.keys() {
            assert!(us.sources.contains_key(f.key()), "{f} has no source");
        }
        if !us.infrequent_access.is_empty() {
            assert!(us.sources.contains_key("standard-infrequent-access"));
        }
        assert_eq!(bundled(), &book);
    }

    #[test]
    fn the_model_overrides_and_names_what_is_missing() {
        let m = load_str(
            Path::new("dynalint.toml"),
            "[pricing]\nregion = \"eu-west-1\"\nwrite-request-units = 0.7\n\n[pricing.regions.us-east-1]\nread-request-units = 0.2\n",
        )
        .unwrap();
        let p = Prices::for_model(&m);
        assert_eq!(p.region, "eu-west-1");
        let w = p
            .get(None, TableClass::Standard, Figure::WriteRequestUnits)
            .unwrap();
        assert_eq!((w.value, w.origin), (0.7, Origin::Model));
        let r = p
            .get(None, TableClass::Standard, Figure::ReadRequestUnits)
            .unwrap_err();
        assert_eq!(r.set_in, "[pricing]");
        assert!(r.to_string().contains("`read-request-units`"), "{r}");
        let ia = p
            .get(
                None,
                TableClass::StandardInfrequentAccess,
                Figure::StorageGbMonths,
            )
            .unwrap_err();
        assert_eq!(ia.set_in, "[pricing.standard-infrequent-access]");
        let us = p
            .get(
                Some("us-east-1"),
                TableClass::Standard,
                Figure::ReadRequestUnits,
            )
            .unwrap();
        assert_eq!(us.value, 0.2);
        let bundled = p
            .get(
                Some("us-east-1"),
                TableClass::Standard,
                Figure::WriteRequestUnits,
            )
            .unwrap();
        assert_eq!((bundled.value, bundled.origin), (0.625, Origin::Bundled));
    }
}
