//! Reading `[pricing]`: the region, the target utilisation of provisioned capacity,
//! price figures that replace the bundled ones (for the model's region, the
//! `STANDARD_INFREQUENT_ACCESS` class, other regions) and a reserved capacity offer.

use toml::de::DeTable;

use super::problem::{ModelProblem, ProblemKind};
use super::read::bad_choice;
use super::toml_read::{entries, Fields};
use super::types::{PriceOverride, PricingSettings, ReservedCapacity, TableClass};
use crate::model::price_figure::Figure;
use crate::source::Span;

const IA: &str = "standard-infrequent-access";
const RESERVED_FIELDS: &[&str] = &[
    "term-years",
    "read-upfront",
    "read-hourly",
    "write-upfront",
    "write-hourly",
];

/// The keys a table of figures may hold, besides the figures: its other fields.
fn known(extra: &[&'static str]) -> Vec<&'static str> {
    Figure::keys().chain(extra.iter().copied()).collect()
}

/// Reads `[pricing]`.
pub fn pricing(t: &DeTable<'_>, at: Span, problems: &mut Vec<ModelProblem>) -> PricingSettings {
    let keys = known(&[
        "region",
        "target-utilization",
        IA,
        "reserved-capacity",
        "regions",
    ]);
    let f = Fields::new(t, at, "`[pricing]`", &keys, problems);
    let mut out = PricingSettings::default();
    if let Some((r, span)) = f.string("region", problems) {
        out.fields.insert("region", span);
        out.region = Some(r);
    }
    if let Some((u, span)) = f.number("target-utilization", problems) {
        out.fields.insert("target-utilization", span);
        if u > 0.0 && u <= 1.0 {
            out.target_utilization = Some(u);
        } else {
            problems.push(
                ModelProblem::of(
                    ProblemKind::InvalidValue,
                    span,
                    format!("`target-utilization` in `[pricing]` must be in (0, 1], not {u}"),
                )
                .with_help("write the share of provisioned capacity used on average, e.g. `0.7`"),
            );
        }
    }
    figures(&f, None, TableClass::Standard, &mut out.overrides, problems);
    if let Some((ia, span)) = f.table(IA, problems) {
        out.fields.insert(IA, span);
        let g = Fields::new(
            ia,
            span,
            "`[pricing.standard-infrequent-access]`",
            &known(&[]),
            problems,
        );
        figures(
            &g,
            None,
            TableClass::StandardInfrequentAccess,
            &mut out.overrides,
            problems,
        );
    }
    if let Some((rt, span)) = f.table("reserved-capacity", problems) {
        out.fields.insert("reserved-capacity", span);
        out.reserved = Some(reserved(rt, span, problems));
    }
    if let Some((regions, span)) = f.table("regions", problems) {
        out.fields.insert("regions", span);
        for (code, key_span, v) in entries(regions) {
            let what = format!("`[pricing.regions.{code}]`");
            let Some(rt) = v.get_ref().as_table() else {
                problems.push(ModelProblem::of(
                    ProblemKind::WrongType,
                    key_span,
                    format!("{what} must be a table of prices"),
                ));
                continue;
            };
            let g = Fields::new(rt, key_span, what.clone(), &known(&[IA]), problems);
            figures(
                &g,
                Some(code),
                TableClass::Standard,
                &mut out.overrides,
                problems,
            );
            if let Some((ia, ia_span)) = g.table(IA, problems) {
                let h = Fields::new(
                    ia,
                    ia_span,
                    format!("`[pricing.regions.{code}.{IA}]`"),
                    &known(&[]),
                    problems,
                );
                figures(
                    &h,
                    Some(code),
                    TableClass::StandardInfrequentAccess,
                    &mut out.overrides,
                    problems,
                );
            }
        }
    }
    out
}

/// Every figure key of one table of prices.
fn figures(
    f: &Fields<'_, '_>,
    region: Option<&str>,
    class: TableClass,
    out: &mut Vec<PriceOverride>,
    problems: &mut Vec<ModelProblem>,
) {
    for figure in Figure::ALL {
        if let Some((value, span)) = f.number(figure.key(), problems) {
            out.push(PriceOverride {
                region: region.map(str::to_string),
                class,
                figure,
                value,
                span,
            });
        }
    }
}

fn reserved(t: &DeTable<'_>, at: Span, problems: &mut Vec<ModelProblem>) -> ReservedCapacity {
    let f = Fields::new(
        t,
        at,
        "`[pricing.reserved-capacity]`",
        RESERVED_FIELDS,
        problems,
    );
    let term_years = match f.count("term-years", problems) {
        Some((n @ (1 | 3), _)) => n as u32,
        Some((n, span)) => {
            problems.push(bad_choice(
                span,
                format!("`term-years` cannot be `{n}`"),
                &n.to_string(),
                &["1", "3"],
            ));
            1
        }
        None => 1,
    };
    let num = |k: &str, problems: &mut Vec<ModelProblem>| f.number(k, problems).map(|(n, _)| n);
    ReservedCapacity {
        term_years,
        read_upfront: num("read-upfront", problems),
        read_hourly: num("read-hourly", problems),
        write_upfront: num("write-upfront", problems),
        write_hourly: num("write-hourly", problems),
        span: at,
    }
}
