//! End-to-end: projects with no `dynalint.toml`, written the way real services are.
//! The model is inferred from what they declare; the first run already binds calls to
//! tables, and `dynalint init` writes a `dynalint.toml` that `model check` accepts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::{Path, PathBuf};

use common::{dynalint, root};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// The fixture copied into a fresh folder with a `Cargo.toml`, as a real crate is.
fn project(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(name);
    copy_dir(&root().join("test-fixtures/_no-model").join(name), &dir);
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"orders-service\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    (tmp, dir)
}

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Each diagnostic of a `check --format json` report: rule, severity, line, message.
fn diagnostics(report: &serde_json::Value) -> Vec<(&str, &str, u64, &str)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap(),
                d["severity"].as_str().unwrap(),
                d["line"].as_u64().unwrap(),
                d["message"].as_str().unwrap(),
            )
        })
        .collect()
}

/// The table each call of `calls --format json` binds to (`?`: none).
fn call_tables(dir: &Path) -> Vec<String> {
    let (out, err, code) = dynalint(dir, &["calls", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    json(&out)["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["table"]["name"].as_str().unwrap_or("?").to_string())
        .collect()
}

#[test]
fn a_setup_binary_s_create_table_is_the_model_on_the_first_run() {
    let (_tmp, dir) = project("setup-binary");
    let (out, err, code) = dynalint(&dir, &["check"]);
    assert_eq!(code, 1, "{out}{err}");
    // Model-based: the query's key condition misses the partition key the binary
    // creates the table with.
    assert!(out.contains("error[rejected-request]"), "{out}");
    assert!(out.contains("customer_id"), "{out}");
    // Needs no model, and still runs.
    assert!(out.contains("warning[scan-in-hot-path]"), "{out}");
    // A finding that needs a figure names the field that would decide it.
    assert!(out.contains("`item-count` of table `orders`"), "{out}");
    assert!(
        out.contains("model: 1 table inferred from src/bin/setup.rs"),
        "{out}"
    );

    let (out, _, _) = dynalint(&dir, &["check", "--format", "json"]);
    let v = json(&out);
    assert_eq!(v["summary"]["model"]["source"], "inferred");
    assert_eq!(v["summary"]["model"]["files"][0], "src/bin/setup.rs");

    let (out, _, code) = dynalint(&dir, &["model", "show"]);
    assert_eq!(code, 0);
    assert!(out.contains("src/bin/setup.rs:8 (Rust code)"), "{out}");

    let tables = call_tables(&dir);
    assert_eq!(tables, ["orders", "orders"]);
}

#[test]
fn init_writes_a_model_that_model_check_accepts_and_never_overwrites_it() {
    let (_tmp, dir) = project("setup-binary");
    let (_, err, code) = dynalint(&dir, &["init"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wrote `dynalint.toml`: 1 table"), "{err}");
    let text = std::fs::read_to_string(dir.join("dynalint.toml")).unwrap();
    assert!(text.contains("# from src/bin/setup.rs:8"), "{text}");
    assert!(text.contains("refs = [\"ORDERS_TABLE\"]"), "{text}");
    assert!(text.contains("# item-count = "), "{text}");
    assert!(text.contains("# [[access-pattern]]"), "{text}");

    let (out, err, code) = dynalint(&dir, &["model", "check"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 table(s)"), "{out}");

    // The written file is now the model, with the same findings.
    let (out, _, code) = dynalint(&dir, &["check"]);
    assert_eq!(code, 1);
    assert!(out.contains("error[rejected-request]"), "{out}");
    assert!(out.contains("model: dynalint.toml"), "{out}");

    let (_, err, code) = dynalint(&dir, &["init"]);
    assert_eq!(code, 2);
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("dynalint.toml")).unwrap(),
        text
    );
}

#[test]
fn a_table_declared_twice_with_different_keys_is_a_note_with_both_places() {
    let (_tmp, dir) = project("conflict");
    let (out, err, _) = dynalint(&dir, &["check"]);
    let note = err
        .lines()
        .find(|l| l.contains("declared with keys"))
        .unwrap_or_else(|| panic!("no conflict note: {err}\n{out}"));
    assert!(note.contains("src/bin/setup.rs:8"), "{note}");
    assert!(note.contains("src/lib.rs:11"), "{note}");
    assert!(note.contains("(order_id)"), "{note}");
    assert!(note.contains("(customer_id, order_id)"), "{note}");
}

#[test]
fn with_nothing_declared_the_rules_that_need_no_model_still_run() {
    let (_tmp, dir) = project("setup-binary");
    std::fs::remove_file(dir.join("src/bin/setup.rs")).unwrap();
    let (out, err, code) = dynalint(&dir, &["check"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("warning[scan-in-hot-path]"), "{out}");
    assert!(!out.contains("rejected-request"), "{out}");
    assert!(out.contains("model: none"), "{out}");
    // A `dynalint.toml` with no table would turn inference off: nothing is written.
    let (out, err, code) = dynalint(&dir, &["init"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("nothing to write"), "{err}");
    assert!(!dir.join("dynalint.toml").exists());
    let (out2, err2, code) = dynalint(&dir, &["init", "--stdout"]);
    assert_eq!((out.as_str(), out2.as_str(), code), ("", "", 0), "{err2}");
    let (out, err, code) = dynalint(&dir, &["model", "check"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("there is no model to check"), "{out}");
    let (out, err, code) = dynalint(&dir, &["simulate"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("simulated no model"), "{out}");
}

#[test]
fn a_sam_template_and_its_handler_give_model_based_findings_on_the_first_run() {
    let (_tmp, dir) = project("sam-handler");
    let (out, err, code) = dynalint(&dir, &["check"]);
    assert_eq!(code, 1, "{out}{err}");
    // The handler names the table by the env var the template hands it.
    assert!(out.contains("error[rejected-request]"), "{out}");
    assert!(out.contains("missed key schema element: PK"), "{out}");
    assert!(out.contains("warning[unprojected-attribute]"), "{out}");
    // The index's projection is shown where the template declares it.
    assert!(out.contains("template.yaml:"), "{out}");
    assert!(out.contains("`ByStatus` projects KEYS_ONLY"), "{out}");
    assert!(
        out.contains("model: 1 table inferred from template.yaml"),
        "{out}"
    );

    let (out, err, code) = dynalint(&dir, &["model", "show"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("model inferred from template.yaml"), "{out}");
    assert!(
        out.contains("from       template.yaml:18 (SAM OrdersTable)"),
        "{out}"
    );
    // `model check` and `simulate` use the model `check` does.
    let (out, err, code) = dynalint(&dir, &["model", "check"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("the model inferred from template.yaml is valid: 1 table(s), 1 GSI(s)"),
        "{out}"
    );
    let (out, err, code) = dynalint(&dir, &["simulate"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("simulated the model inferred from template.yaml (no `dynalint.toml`)"),
        "{out}"
    );

    let (_, err, code) = dynalint(&dir, &["init"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("dynalint.toml")).unwrap();
    assert!(
        text.contains("# from template.yaml:18 (SAM OrdersTable)"),
        "{text}"
    );
    assert!(text.contains("name = \"{Stage}-orders\""), "{text}");
    assert!(text.contains("\"TABLE_NAME\""), "{text}");
    let (out, err, code) = dynalint(&dir, &["model", "check"]);
    assert_eq!(code, 0, "{out}{err}");
    let (out, _, _) = dynalint(&dir, &["check"]);
    assert!(out.contains("missed key schema element: PK"), "{out}");
    assert!(out.contains("model: dynalint.toml"), "{out}");
}

#[test]
fn cargo_dynalint_runs_without_a_model_too() {
    let (_tmp, dir) = project("sam-handler");
    let out = common::run_in(env!("CARGO_BIN_EXE_cargo-dynalint"), &dir, &["dynalint"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("error[rejected-request]"), "{stdout}");
    assert!(
        stdout.contains("model: 1 table inferred from template.yaml"),
        "{stdout}"
    );
}

#[test]
fn an_imported_template_s_notes_are_shown_with_a_dynalint_toml() {
    let (_tmp, dir) = project("sam-handler");
    std::fs::write(
        dir.join("broken.yaml"),
        "Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: t\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("dynalint.toml"),
        "import = [\"template.yaml\", \"broken.yaml\"]\n",
    )
    .unwrap();
    let (out, err, code) = dynalint(&dir, &["check"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("missed key schema element: PK"), "{out}");
    assert!(err.contains("note: broken.yaml:"), "{err}");
}

/// `init` on every import fixture (each format, several stacks, broken files, a
/// conflict): whatever it writes, `model check` accepts unchanged.
#[test]
fn init_output_passes_model_check_for_every_template_format() {
    let fixtures = root().join("test-fixtures/_import");
    let mut checked = 0;
    for e in std::fs::read_dir(&fixtures).unwrap().flatten() {
        let from = e.path();
        if !from.is_dir() || from.join("dynalint.toml").exists() {
            continue;
        }
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("project");
        copy_dir(&from, &dir);
        let (_, err, code) = dynalint(&dir, &["init"]);
        assert_eq!(code, 0, "{}: {err}", from.display());
        let text = std::fs::read_to_string(dir.join("dynalint.toml")).unwrap();
        let (out, err, code) = dynalint(&dir, &["model", "check"]);
        assert_eq!(code, 0, "{}:\n{out}{err}\n{text}", from.display());
        checked += 1;
    }
    assert!(checked >= 6, "{checked}");
}

#[test]
fn a_test_helper_s_create_table_is_named_by_what_the_tests_pass() {
    let (_tmp, dir) = project("test-helper");
    let (out, err, code) = dynalint(&dir, &["model", "show"]);
    assert_eq!(code, 0, "{err}");
    // `create_table(client, table_name)` ← `setup(client, table_name)` ←
    // `setup(&client, &config.table_name)`, `config` from `Config::local()`.
    assert!(out.contains("table notes-test"), "{out}{err}");
    assert!(out.contains("tests/support/mod.rs:19 (Rust code)"), "{out}");
    let tables = call_tables(&dir);
    assert_eq!(tables, ["notes-test", "notes-test"]);
}

#[test]
fn a_table_declared_nowhere_is_keyed_by_its_calls_and_gives_warnings_only() {
    let (_tmp, dir) = project("declared-nowhere");
    let (out, err, _) = dynalint(&dir, &["check"]);
    // The put misses the key the get and the delete use: with the key only inferred
    // from the calls, a warning that says why, never an error.
    assert!(out.contains("warning[rejected-request]"), "{out}{err}");
    assert!(!out.contains("error["), "{out}");
    assert!(
        out.contains("no file declares `Pets`: its key is inferred from how the code uses it"),
        "{out}"
    );
    assert!(
        out.contains("declared nowhere, keyed as the code's calls use it: `Pets`"),
        "{out}"
    );
    let (out, _, _) = dynalint(&dir, &["check", "--format", "json"]);
    assert_eq!(
        json(&out)["summary"]["model"]["declared_nowhere"][0],
        "Pets"
    );
    let (out, _, code) = dynalint(&dir, &["model", "show"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("src/lib.rs:7 (inferred from how the code uses it)"),
        "{out}"
    );
    assert!(out.contains("partition petID (S)"), "{out}");
    // `init` writes it with its origin, and `model check` accepts it; then the
    // declared table wins and the finding is an error.
    let (_, err, code) = dynalint(&dir, &["init"]);
    assert_eq!(code, 0, "{err}");
    let toml = std::fs::read_to_string(dir.join("dynalint.toml")).unwrap();
    assert!(
        toml.contains("# from src/lib.rs:7 (inferred from how the code uses it)"),
        "{toml}"
    );
    assert!(
        toml.contains("# CHECK: no file declares this table"),
        "{toml}"
    );
    let (_, err, code) = dynalint(&dir, &["model", "check"]);
    assert_eq!(code, 0, "{err}");
    let (out, _, _) = dynalint(&dir, &["check"]);
    assert!(out.contains("error[rejected-request]"), "{out}");
}

/// A template may declare every service's tables; without a `dynalint.toml`, a table
/// only it declares and no checked code calls is not said unread (another service may
/// read it). Once `dynalint.toml` declares it, it is this code's table and is judged.
#[test]
fn a_template_table_no_code_calls_is_not_said_unread_until_declared() {
    let (_tmp, dir) = project("sam-handler");
    let template = dir.join("template.yaml");
    let mut text = std::fs::read_to_string(&template).unwrap();
    let audit = "  AuditTable:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: audit\n      BillingMode: PAY_PER_REQUEST\n      AttributeDefinitions:\n        - AttributeName: id\n          AttributeType: S\n        - AttributeName: actor\n          AttributeType: S\n      KeySchema:\n        - AttributeName: id\n          KeyType: HASH\n      GlobalSecondaryIndexes:\n        - IndexName: ByActor\n          KeySchema:\n            - AttributeName: actor\n              KeyType: HASH\n          Projection:\n            ProjectionType: ALL\n\n";
    text = text.replacen("  OrdersTable:\n", &format!("{audit}  OrdersTable:\n"), 1);
    std::fs::write(&template, text).unwrap();
    std::fs::write(
        dir.join("src/util.rs"),
        "pub fn stage() -> &'static str { \"dev\" }\n",
    )
    .unwrap();
    let (out, err, _) = dynalint(&dir, &["check", "--format", "json"]);
    let v = json(&out);
    assert_eq!(v["summary"]["model"]["source"], "inferred", "{err}");
    let unread = |v: &serde_json::Value| {
        v["diagnostics"].as_array().unwrap().iter().any(|d| {
            d["rule"] == "unused-index" && d["message"].as_str().unwrap().contains("ByActor")
        })
    };
    assert!(!unread(&v), "{out}");
    let (_, err, code) = dynalint(&dir, &["init"]);
    assert_eq!(code, 0, "{err}");
    let (out, _, _) = dynalint(&dir, &["check", "--format", "json"]);
    assert!(unread(&json(&out)), "{out}");
}

#[test]
fn a_loose_file_is_a_project_of_its_folder_s_own_files() {
    // A scratch file in a shared folder (the temp folder) with no `Cargo.toml` or `.git`
    // above it, beside its template and an unrelated project's.
    let tmp = tempfile::tempdir().unwrap();
    let shared = std::fs::canonicalize(tmp.path()).unwrap();
    let fixture = root().join("test-fixtures/_no-model/sam-handler");
    std::fs::copy(fixture.join("src/main.rs"), shared.join("scratch.rs")).unwrap();
    std::fs::copy(fixture.join("template.yaml"), shared.join("template.yaml")).unwrap();
    let other = shared.join("someone-else/infra");
    std::fs::create_dir_all(&other).unwrap();
    let unrelated = std::fs::read_to_string(fixture.join("template.yaml"))
        .unwrap()
        .replace("OrdersTable", "InvoicesTable")
        .replace("-orders", "-invoices");
    std::fs::write(other.join("template.yaml"), unrelated).unwrap();

    let (out, err, code) = dynalint(&shared, &["check", "scratch.rs", "--format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v = json(&out);
    assert_eq!(
        v["summary"]["model"]["files"],
        serde_json::json!(["template.yaml"]),
        "the template beside it, not those of the folders below: {out}"
    );
    assert!(out.contains("missed key schema element: PK"), "{out}");
    // Piped in as that file, the same.
    let (out, err, _) = dynalint(
        &shared,
        &[
            "check",
            "-",
            "--stdin-filename",
            "scratch.rs",
            "--format",
            "json",
        ],
    );
    assert_eq!(
        json(&out)["summary"]["model"]["files"],
        serde_json::json!(["template.yaml"]),
        "{out}{err}"
    );
    // A folder named to check is the project, whole.
    let (out, _, _) = dynalint(&shared, &["check", ".", "--format", "json"]);
    assert_eq!(
        json(&out)["summary"]["model"]["files"]
            .as_array()
            .map(Vec::len),
        Some(2),
        "{out}"
    );

    // Directly in the home folder (a dotfiles repository in it, too), a loose file is
    // its own project: the home folder is never searched.
    let home = shared.join("home");
    std::fs::create_dir_all(home.join(".git")).unwrap();
    std::fs::copy(fixture.join("src/main.rs"), home.join("scratch.rs")).unwrap();
    std::fs::copy(fixture.join("template.yaml"), home.join("template.yaml")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .args(["check", "scratch.rs", "--format", "json"])
        .current_dir(&home)
        .env("HOME", &home)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        json(&stdout)["summary"]["model"]["source"],
        "none",
        "{stdout}"
    );
}

#[test]
fn a_helper_s_table_parameter_is_what_its_callers_pass_or_unknown() {
    let (_tmp, dir) = project("helper-parameter");
    // `open_orders(client, &table_name)` with `TABLE_NAME` from the template: its
    // table; `get`, which nothing calls: unknown, not a table named `{table}`.
    assert_eq!(call_tables(&dir), ["{Stage}-orders", "?"]);
    let (out, err, _) = dynalint(&dir, &["check"]);
    assert!(
        out.contains("model: 1 table inferred from template.yaml (no"),
        "{out}{err}"
    );
    assert!(!out.contains("{table}"), "{out}");
    let (text, err, code) = dynalint(&dir, &["init", "--stdout"]);
    assert_eq!(code, 0, "{err}");
    assert!(!text.contains("{table}"), "{text}");
}

#[test]
fn a_template_saved_as_utf16_or_with_a_byte_order_mark_is_read() {
    let utf16 = |text: &str, be: bool| -> Vec<u8> {
        let mut out: Vec<u8> = if be {
            vec![0xFE, 0xFF]
        } else {
            vec![0xFF, 0xFE]
        };
        for u in text.encode_utf16() {
            out.extend(if be { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        out
    };
    let (_tmp, dir) = project("sam-handler");
    let text = std::fs::read_to_string(dir.join("template.yaml")).unwrap();
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend(text.as_bytes());
    for (saved_as, bytes) in [
        ("UTF-16LE", utf16(&text, false)),
        ("UTF-16BE", utf16(&text, true)),
        ("UTF-8 with a BOM", bom),
    ] {
        std::fs::write(dir.join("template.yaml"), bytes).unwrap();
        let (out, err, code) = dynalint(&dir, &["check"]);
        assert_eq!(code, 1, "{saved_as}: {out}{err}");
        assert!(
            out.contains("model: 1 table inferred from template.yaml"),
            "{saved_as}: {out}{err}"
        );
        assert!(
            out.contains("missed key schema element: PK"),
            "{saved_as}: {out}"
        );
        // The index's projection is shown where the template declares it, on the
        // line it is on.
        assert!(out.contains("template.yaml:41:13"), "{saved_as}: {out}");
        assert!(!err.contains("not UTF-8"), "{saved_as}: {err}");
    }
}

#[test]
fn a_logical_id_written_twice_is_a_note_with_both_places() {
    let (_tmp, dir) = project("sam-handler");
    let text = std::fs::read_to_string(dir.join("template.yaml")).unwrap();
    let again = "\n  OrdersTable:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: !Sub \"${Stage}-orders\"\n      AttributeDefinitions:\n        - AttributeName: id\n          AttributeType: S\n      KeySchema:\n        - AttributeName: id\n          KeyType: HASH\n";
    let text = text.replace(
        "\n  OrdersFunction:",
        &format!("{again}\n  OrdersFunction:"),
    );
    std::fs::write(dir.join("template.yaml"), &text).unwrap();
    let line = text
        .lines()
        .enumerate()
        .filter(|(_, l)| *l == "  OrdersTable:")
        .map(|(i, _)| i + 1)
        .collect::<Vec<_>>();
    assert_eq!(line.len(), 2);
    let (out, err, _) = dynalint(&dir, &["check"]);
    let note = err
        .lines()
        .find(|l| l.contains("written twice"))
        .unwrap_or_else(|| panic!("no note: {err}\n{out}"));
    assert_eq!(
        note,
        format!(
            "note: template.yaml:{}: logical id `OrdersTable` is written twice in `Resources`, at line {} and at line {}: only the one at line {} is read; rename or remove the other",
            line[1], line[0], line[1], line[1]
        )
    );
    // The one read is the second: keyed by `id`.
    let (out, _, _) = dynalint(&dir, &["model", "show"]);
    assert!(out.contains("key        partition id (S)"), "{out}");
}

#[test]
fn a_variable_two_apps_bind_to_their_own_tables_binds_neither() {
    // Two SAM apps in one repository, each handing its function `TABLE_NAME` for its
    // own table: the model has no folder scope for a ref, so neither table is guessed.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("two-apps");
    copy_dir(&root().join("test-fixtures/_no-model/two-apps"), &dir);
    assert_eq!(call_tables(&dir), ["?", "?"]);
    let (out, err, code) = dynalint(&dir, &["check"]);
    // Bound to the orders table, payments' `get_item` was a rejected-request error.
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("rejected-request"), "{out}");
    let note = err
        .lines()
        .find(|l| l.contains("`TABLE_NAME` names 2 tables"))
        .unwrap_or_else(|| panic!("no note on the shared variable: {err}"));
    assert!(note.contains("orders/template.yaml:6"), "{note}");
    assert!(note.contains("payments/template.yaml:6"), "{note}");

    let (out, err, code) = dynalint(&dir, &["model", "check"]);
    assert_eq!(code, 0, "{out}{err}");
    let (_, err, code) = dynalint(&dir, &["init"]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(dir.join("dynalint.toml")).unwrap();
    assert!(!text.contains("refs = [\"TABLE_NAME\"]"), "{text}");
    assert!(text.contains("`TABLE_NAME` names 2 tables"), "{text}");
    let (out, err, code) = dynalint(&dir, &["model", "check"]);
    assert_eq!(code, 0, "{out}{err}\n{text}");
}

#[test]
fn an_index_of_a_table_declared_nowhere_is_not_said_to_be_missing() {
    // Inference knows the key the calls use, not the indexes the table has: a query
    // of `invite_code-index` is no rejected request (DynamoDB's "does not have the
    // specified index" is what the guess lacks, not what the table lacks).
    let (_tmp, dir) = project("guessed-table");
    let (out, err, _) = dynalint(&dir, &["model", "show"]);
    assert!(
        out.contains("inferred from how the code uses it"),
        "{out}{err}"
    );
    let (out, err, _) = dynalint(&dir, &["check", "--format", "json"]);
    let report = json(&out);
    let found: Vec<&str> = diagnostics(&report).iter().map(|d| d.0).collect();
    assert!(!found.contains(&"rejected-request"), "{out}{err}");
}

/// A single-table design made in the console: the index the Queries name is inferred
/// with its key, so a Scan filtering on that key and the constant entity types it
/// holds are found on the first run, as warnings, and every output says the index is
/// inferred from the Queries.
#[test]
fn an_index_the_queries_name_is_inferred_and_gives_warnings_only() {
    let (_tmp, dir) = project("queried-index");
    let (out, err, _) = dynalint(&dir, &["check", "--format", "json"]);
    let report = json(&out);
    let found: Vec<(&str, &str, u64)> = diagnostics(&report)
        .into_iter()
        .map(|(rule, severity, line, _)| (rule, severity, line))
        .collect();
    for expected in [
        ("filter-instead-of-index", "warning", 89),
        ("low-cardinality-pk", "warning", 73),
        ("unpaginated-query", "warning", 74),
    ] {
        assert!(found.contains(&expected), "{expected:?} in {found:?}{err}");
    }
    assert!(found.iter().all(|(_, s, _)| *s != "error"), "{found:?}");
    let (out, _, _) = dynalint(&dir, &["check"]);
    assert!(
        out.contains("`shop` (with the index its queries name: `by-entity-type`)"),
        "{out}"
    );
    let (out, _, _) = dynalint(&dir, &["model", "show"]);
    assert!(
        out.contains("by-entity-type (global) partition entity_type (S)")
            && out.contains("from     the code's Queries that name it"),
        "{out}"
    );
    let (_, err, code) = dynalint(&dir, &["init"]);
    assert_eq!(code, 0, "{err}");
    let toml = std::fs::read_to_string(dir.join("dynalint.toml")).unwrap();
    assert!(
        toml.contains("# CHECK: keyed as the code's Queries that name this index"),
        "{toml}"
    );
    let (_, err, code) = dynalint(&dir, &["model", "check"]);
    assert_eq!(code, 0, "{err}");
}

/// A GSI every lookup of which reads one item (`items.into_iter().next()`) is keyed by a
/// unique attribute: with nothing reading the table by `id`, `unused-partition-key`
/// warns, saying why the key is taken as unique, and `init` writes `unique = true` for
/// the user to check. A GSI listed per user is not unique, and a table read by `id`
/// is keyed as it should be: no finding on either.
#[test]
fn an_index_every_read_of_which_finds_one_item_is_keyed_by_a_unique_attribute() {
    let (_tmp, dir) = project("one-item-index");
    let (out, err, _) = dynalint(&dir, &["check", "--format", "json"]);
    let report = json(&out);
    let found: Vec<(&str, &str, &str)> = diagnostics(&report)
        .into_iter()
        .map(|(rule, severity, _, message)| (rule, severity, message))
        .collect();
    let upk: Vec<&(&str, &str, &str)> = found
        .iter()
        .filter(|d| d.0 == "unused-partition-key")
        .collect();
    assert_eq!(upk.len(), 1, "{found:?}{err}");
    assert_eq!(upk[0].1, "warning");
    assert!(
        upk[0].2.contains("`{1}verification_tokens`")
            && upk[0]
                .2
                .contains("`token_hash-index` is keyed by `token_hash`"),
        "{upk:?}"
    );
    let (out, _, _) = dynalint(&dir, &["check"]);
    assert!(
        out.contains("`token_hash` is taken as unique because every query of `token_hash-index` in the code reads at most its first item"),
        "{out}"
    );
    let (_, err, code) = dynalint(&dir, &["init"]);
    assert_eq!(code, 0, "{err}");
    let toml = std::fs::read_to_string(dir.join("dynalint.toml")).unwrap();
    assert!(
        toml.contains("token_hash = { type = \"S\", unique = true }")
            && toml.contains("user_id = \"S\"\n"),
        "{toml}"
    );
    let (_, err, code) = dynalint(&dir, &["model", "check"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn names_a_config_test_sets_otherwise_are_the_ones_the_library_defaults_to() {
    let (_tmp, dir) = project("config-tests");
    let (out, err, code) = dynalint(&dir, &["model", "show"]);
    assert_eq!(code, 0, "{err}");
    // `TableNames::default()` names the table and its GSI; the config test's
    // `custom-outbox` is a test's instance, not the service's.
    assert!(out.contains("table outbox\n"), "{out}{err}");
    assert!(
        out.contains("outbox-status-index (global) partition status (S)"),
        "{out}"
    );
    assert!(!err.contains("is skipped"), "{err}");
    assert_eq!(call_tables(&dir), ["outbox", "outbox"]);
    let (out, _, _) = dynalint(&dir, &["check"]);
    assert!(
        out.contains("warning[unused-index]: index `outbox-status-index` of `outbox`"),
        "{out}"
    );
    assert!(out.contains("every write sets it to `PENDING`"), "{out}");
}
