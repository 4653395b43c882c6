#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The key model against its fixtures: every example model loads cleanly (and its
//! `model show` output is snapshotted); every failing model under
//! `test-fixtures/_model-errors/` reports exactly what its `.stderr` beside it says,
//! rendered by the CLI's human reporter.
//! Regenerate the `.stderr` files with `DYNALINT_BLESS=1 cargo test --test model`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use dynalint::model::{self, ModelProblem, ProblemKind};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test-fixtures")
}

fn example_models() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(fixtures().join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path().join("dynalint.toml"))
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

#[test]
fn example_models_load_without_problems() {
    let models = example_models();
    let names: Vec<String> = models
        .iter()
        .map(|p| {
            p.parent()
                .unwrap()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    for expected in [
        "design",
        "orders",
        "business-search",
        "blog",
        "games",
        "invoices",
        "hr-orders",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "missing example {expected}"
        );
    }
    for (path, name) in models.iter().zip(&names) {
        let m = match model::load_file(path) {
            Ok(m) => m,
            Err(model::ModelError::Invalid { text, problems, .. }) => {
                panic!("{}", render(path, &text, &problems))
            }
            Err(e) => panic!("{e}"),
        };
        assert!(!m.tables.is_empty(), "{name} declares no table");
        insta::assert_snapshot!(format!("show-{name}"), model::show::render(&m));
    }
}

/// The derived facts the worked examples exist to show.
#[test]
fn example_facts() {
    let load = |name: &str| {
        model::load_file(&fixtures().join("examples").join(name).join("dynalint.toml")).unwrap()
    };

    // Blog: users write no createdAt, so ByFacet is sparse for them.
    let blog = load("blog");
    let t = &blog.tables[0];
    let by_facet = t.index("ByFacet").unwrap();
    assert!(by_facet.is_sparse(t));
    let user = t.entity("User").unwrap();
    assert_eq!(user.presence_in(t, by_facet), model::Presence::Absent);
    assert_eq!(t.cardinality("facet"), model::Cardinality::Values(4));

    // HR/orders: GSI2 holds only orders and their items, spread over 15 shards.
    let hr = load("hr-orders");
    let t = &hr.tables[0];
    let gsi2 = t.index("GSI2").unwrap();
    let present: Vec<&str> = t
        .entities_in(gsi2)
        .into_iter()
        .filter(|(_, p)| *p == model::Presence::Present)
        .map(|(e, _)| e.name.as_str())
        .collect();
    assert_eq!(present, ["Order", "OrderItem"]);
    let c = t.item_collection(Some(gsi2)).unwrap();
    assert_eq!(c.items, 11_500_000);
    assert_eq!(c.keys, model::Cardinality::Values(15));
    // GSI1 is overloaded: every entity writes its keys (SK and Data)...
    let gsi1 = t.index("GSI1").unwrap();
    assert!(gsi1.is_sparse(t), "entities without Data are absent");
    assert!(
        !gsi1.projects(t, "nothing-special") || matches!(gsi1.projection, model::Projection::All)
    );

    // Games: only ranked scores land in the leaderboard index.
    let games = load("games");
    let scores = games.table("UserGameScores").unwrap();
    let rank = scores.index("UserGameRank").unwrap();
    assert!(rank.is_sparse(scores));
    assert_eq!(scores.items_in(Some(rank)), Some(900));

    // Orders: 20% of 3M orders are `Ordered`.
    let orders = load("orders");
    let t = &orders.tables[0];
    let status = t.attribute("Status").unwrap().values.as_ref().unwrap();
    assert_eq!(status.share("Ordered"), Some(0.2));
    assert_eq!(t.size_bytes(), Some(750_000_000));
}

/// The problems as the CLI shows them (`report::human`, codespan, no colour), with
/// the file named by its bare name so snapshots do not depend on the checkout path.
fn render(path: &Path, text: &str, problems: &[ModelProblem]) -> String {
    let name = Path::new(path.file_name().unwrap());
    dynalint::report::human::render_model_problems(name, text, problems, false)
}

#[test]
fn failing_models_match_their_snapshots() {
    let dir = fixtures().join("_model-errors");
    let bless = std::env::var_os("DYNALINT_BLESS").is_some();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    let mut kinds = BTreeSet::new();
    let mut failures = Vec::new();
    for case in &cases {
        match case.extension().and_then(|e| e.to_str()) {
            Some("toml") => {}
            Some("stderr") => {
                assert!(
                    case.with_extension("toml").is_file(),
                    "orphan snapshot {}",
                    case.display()
                );
                continue;
            }
            _ => panic!("unexpected file {}", case.display()),
        }
        let text = std::fs::read_to_string(case).unwrap();
        let problems = match model::load_str(case, &text) {
            Ok(_) => panic!("{} loads without problems", case.display()),
            Err(p) => p,
        };
        kinds.extend(problems.iter().map(|p| p.kind));
        let actual = render(case, &text, &problems);
        let expected_path = case.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!("{}:\n{actual}", case.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "mismatched snapshots (bless with DYNALINT_BLESS=1):\n{}",
        failures.join("\n")
    );
    for kind in ProblemKind::ALL {
        assert!(
            kinds.contains(&kind),
            "no failing model demonstrates {kind:?}"
        );
    }
}
