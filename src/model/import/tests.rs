//! Each importer on the files of `test-fixtures/_import/`, written the way projects
//! write them (intrinsic tags, parameters, several stacks and files), broken ones too.

use std::path::{Path, PathBuf};

use super::*;
use crate::attr::AttributeType;
use crate::model::types::*;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("test-fixtures/_import")
        .join(rel)
}

fn import(rel: &str) -> Imported {
    let p = fixture(rel);
    let text = std::fs::read_to_string(&p).unwrap();
    import_file(&p, &text)
}

fn table<'a>(i: &'a Imported, name: &str) -> &'a Table {
    i.tables
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no table {name} in {:#?}", names(i)))
}

fn names(i: &Imported) -> Vec<&str> {
    i.tables.iter().map(|t| t.name.as_str()).collect()
}

fn notes(i: &Imported) -> String {
    i.notes
        .iter()
        .map(|n| format!("{}: {}", n.line, n.message))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The text a span covers in a fixture file.
fn slice(t: &Table, span: crate::source::Span) -> String {
    let text = std::fs::read_to_string(&*t.origin.path).unwrap();
    text[span.start..span.end].to_string()
}

#[test]
fn sam_template_with_tags_parameters_globals_and_simple_tables() {
    let i = import("sam/template.yaml");
    assert_eq!(
        names(&i),
        [
            "{Stage}-orders",
            "sessions",
            "{StackName}-CountersTable-{suffix}"
        ]
    );
    let orders = table(&i, "{Stage}-orders");
    assert_eq!(orders.origin.kind, OriginKind::Sam);
    assert_eq!(orders.origin.id.as_deref(), Some("OrdersTable"));
    assert_eq!(orders.origin.line, 37);
    assert_eq!(orders.partition_key, "PK");
    // `!FindInMap [KeyNames, Orders, Sort]` resolves through `Mappings`.
    assert_eq!(orders.sort_key.as_deref(), Some("SK"));
    assert_eq!(orders.attribute("createdAt").unwrap().ty, AttributeType::N);
    assert_eq!(orders.billing_mode, Some(BillingMode::Provisioned));
    // `!Ref OrdersReadCapacity` is the parameter's default.
    assert_eq!(
        orders.provisioned,
        Some(Throughput {
            read: Some(5),
            write: Some(2)
        })
    );
    let gsi = orders.index("GSI1").unwrap();
    assert_eq!(gsi.kind, IndexKind::Global);
    assert_eq!(
        gsi.projection,
        Projection::Include(vec!["status".into(), "total".into()])
    );
    assert_eq!(gsi.provisioned.unwrap().read, Some(1));
    let lsi = orders.index("ByCreatedAt").unwrap();
    assert_eq!(lsi.kind, IndexKind::Local);
    assert_eq!(lsi.projection, Projection::KeysOnly);
    assert_eq!(lsi.sort_key.as_deref(), Some("createdAt"));
    // SAM's `Globals` hand the table to every function.
    assert_eq!(orders.refs, ["ORDERS_TABLE"]);
    assert_eq!(slice(orders, orders.name_span), "!Sub \"${Stage}-orders\"");
    assert_eq!(
        slice(orders, orders.fields.get("partition-key").unwrap()),
        "PK"
    );
    assert!(orders.name_template().is_some());

    // A whole name from one parameter is its default.
    let sessions = table(&i, "sessions");
    assert_eq!(sessions.partition_key, "sessionId");
    assert_eq!(
        sessions.attribute("sessionId").unwrap().ty,
        AttributeType::S
    );
    assert_eq!(sessions.billing_mode, Some(BillingMode::PayPerRequest));
    assert_eq!(sessions.refs, ["SESSIONS"]);
    // No `PrimaryKey`: SAM's `id` of type String; the ARN names it too.
    let counters = table(&i, "{StackName}-CountersTable-{suffix}");
    assert_eq!(counters.partition_key, "id");
    assert_eq!(counters.refs, ["COUNTERS_TABLE_ARN"]);
    assert!(i.notes.is_empty(), "{}", notes(&i));
    assert_eq!(i.files.len(), 1);
    assert_eq!(i.files[0].tables, 3);
}

#[test]
fn cloudformation_json_with_long_form_functions_and_containers() {
    let i = import("cfn-json/stack.json");
    let t = table(&i, "inventory-{Env}");
    assert_eq!(t.origin.kind, OriginKind::CloudFormation);
    assert_eq!(
        (t.partition_key.as_str(), t.sort_key.as_deref()),
        ("sku", Some("warehouse"))
    );
    assert_eq!(
        t.provisioned,
        Some(Throughput {
            read: Some(3),
            write: Some(1)
        })
    );
    // `billing-mode` is not written: provisioned throughput says which.
    assert_eq!(t.billing_mode, None);
    assert_eq!(t.index("ByWarehouse").unwrap().sort_key, None);
    assert_eq!(t.refs, ["INVENTORY_TABLE"]);
    assert!(i.notes.is_empty(), "{}", notes(&i));
}

#[test]
fn serverless_resources_with_variables_and_function_environments() {
    let i = import("serverless/serverless.yml");
    let notes_table = table(&i, "notes-api-notes-{stage}");
    assert_eq!(notes_table.origin.kind, OriginKind::Serverless);
    assert_eq!(notes_table.partition_key, "userId");
    assert_eq!(notes_table.sort_key.as_deref(), Some("noteId"));
    assert_eq!(notes_table.provisioned.unwrap().write, Some(4));
    // The provider's `environment` carries the same resolved name.
    assert_eq!(notes_table.refs, ["NOTES_TABLE"]);
    let audit = table(&i, "{StackName}-AuditTable-{suffix}");
    assert_eq!(audit.refs, ["AUDIT_TABLE"]);
    assert_eq!(audit.billing_mode, Some(BillingMode::PayPerRequest));
    assert!(i.notes.is_empty(), "{}", notes(&i));
}

#[test]
fn terraform_module_across_files_with_variables_locals_and_the_community_module() {
    let dir = fixture("terraform");
    let mut files = Vec::new();
    for name in ["dynamodb.tf", "lambda.tf", "variables.tf"] {
        let p = dir.join(name);
        files.push((
            std::sync::Arc::from(p.as_path()),
            std::fs::read_to_string(&p).unwrap(),
        ));
    }
    let i = terraform::import_module(&files);
    assert_eq!(names(&i), ["shop-{env}-carts", "events", "{env}-sessions"]);
    let carts = table(&i, "shop-{env}-carts");
    assert_eq!(carts.origin.kind, OriginKind::Terraform);
    assert_eq!(carts.origin.id.as_deref(), Some("aws_dynamodb_table.carts"));
    assert_eq!(carts.origin.line, 6);
    // `hash_key = local.user_key`.
    assert_eq!(carts.partition_key, "userId");
    assert_eq!(carts.attribute("addedAt").unwrap().ty, AttributeType::N);
    assert_eq!(
        carts.provisioned,
        Some(Throughput {
            read: Some(10),
            write: Some(5)
        })
    );
    let by_item = carts.index("ByItem").unwrap();
    assert_eq!(
        by_item.projection,
        Projection::Include(vec!["quantity".into()])
    );
    // `key_schema` blocks name the keys.
    let by_coupon = carts.index("ByCoupon").unwrap();
    assert_eq!(
        (
            by_coupon.partition_key.as_str(),
            by_coupon.sort_key.as_deref()
        ),
        ("couponId", Some("addedAt"))
    );
    let lsi = carts.index("ByAddedAt").unwrap();
    assert_eq!(
        (lsi.kind, lsi.partition_key.as_str()),
        (IndexKind::Local, "userId")
    );
    assert_eq!(carts.refs, ["CARTS_TABLE", "CARTS"]);

    let events = table(&i, "events");
    assert_eq!(events.billing_mode, Some(BillingMode::PayPerRequest));
    assert_eq!(events.refs, ["EVENTS_TABLE"]);
    // `projection_type = var.gsi_projection` has no default: the index is a note.
    assert!(events.indexes.is_empty());
    let n = notes(&i);
    assert!(
        n.contains("an index of `aws_dynamodb_table.events` is not imported"),
        "{n}"
    );

    let sessions = table(&i, "{env}-sessions");
    assert_eq!(sessions.origin.id.as_deref(), Some("module.sessions"));
    assert_eq!(sessions.sort_key.as_deref(), Some("created"));
    assert_eq!(sessions.attribute("created").unwrap().ty, AttributeType::N);
    assert_eq!(sessions.billing_mode, Some(BillingMode::PayPerRequest));
    assert_eq!(sessions.refs, ["SESSIONS"]);
}

#[test]
fn cdk_output_workbench_and_describe_table() {
    let i = import("cdk/cdk.out/AppStack.template.json");
    let users = table(&i, "{StackName}-UsersTable9725E9C8-{suffix}");
    assert_eq!(users.origin.kind, OriginKind::Cdk);
    assert_eq!(users.refs, ["USERS_TABLE"]);
    assert_eq!(
        users.index("ByEmail").unwrap().projection,
        Projection::KeysOnly
    );

    let i = import("workbench/orders-model.json");
    let orders = table(&i, "Orders");
    assert_eq!(orders.origin.kind, OriginKind::NoSqlWorkbench);
    assert_eq!(orders.sort_key.as_deref(), Some("SK"));
    assert_eq!(orders.attribute("status").unwrap().ty, AttributeType::S);
    assert_eq!(
        orders.index("GSI1").unwrap().projection,
        Projection::Include(vec!["status".into()])
    );
    assert_eq!(orders.provisioned.unwrap().read, Some(5));

    let i = import("describe/payments.json");
    let p = table(&i, "payments");
    assert_eq!(p.origin.kind, OriginKind::DescribeTable);
    assert_eq!(p.item_count, Some(204_800));
    assert_eq!(p.avg_item_size, Some(256));
    assert_eq!(p.billing_mode, Some(BillingMode::PayPerRequest));
    // On-demand tables report zero capacity: no throughput at all.
    assert_eq!(p.provisioned, None);
    assert_eq!(
        p.index("ByCustomer").unwrap().sort_key.as_deref(),
        Some("paidAt")
    );

    let i = import("describe/create-table.json");
    let a = table(&i, "audit-log");
    assert_eq!(a.provisioned.unwrap().write, Some(1));
    assert_eq!(a.item_count, None);
}

#[test]
fn broken_files_are_notes_with_locations() {
    let i = import("broken/template.yaml");
    assert!(i.tables.is_empty());
    assert_eq!(i.notes.len(), 1, "{}", notes(&i));
    assert!(i.notes[0]
        .message
        .starts_with("cannot read this file as YAML or JSON"));
    assert!(i.notes[0].line >= 9, "{}", notes(&i));

    let i = import("broken/main.tf");
    assert!(i.tables.is_empty());
    assert!(
        notes(&i).contains("cannot read this file as Terraform"),
        "{}",
        notes(&i)
    );

    let i = import("broken/no-keys.yaml");
    // Only the table whose keys are known is imported; its name depends on a
    // condition, so it binds through refs alone.
    assert_eq!(names(&i), ["ConditionalIndexes"]);
    let n = notes(&i);
    assert!(n.contains("table `no-keys` has no `KeySchema`"), "{n}");
    assert!(
        n.contains("a key of table `param-key` has no known `AttributeName`"),
        "{n}"
    );
    assert!(n.contains("`GlobalSecondaryIndexes` of table"), "{n}");
    assert!(
        n.contains("the `TableName` of `ConditionalIndexes` is not known"),
        "{n}"
    );
    assert!(i.notes.iter().all(|n| n.line > 0), "{n}");

    let i = import_file(Path::new("notes.yaml"), "just: text\n");
    assert!(i.tables.is_empty());
    assert!(notes(&i).contains("not a CloudFormation"), "{}", notes(&i));
}

#[test]
fn discover_walks_a_project_and_notes_conflicts() {
    let i = discover(&fixture("two-stacks"));
    assert_eq!(names(&i), ["orders"]);
    assert_eq!(i.tables[0].partition_key, "orderId");
    assert_eq!(i.notes.len(), 1);
    let n = &i.notes[0];
    assert!(n.path.ends_with("orders-v2/template.yaml"), "{n}");
    assert!(
        n.message
            .contains("keys (PK, SK) here and with keys (orderId) at")
            && n.message.contains("orders-v1/template.yaml:2"),
        "{n}"
    );

    // The whole fixture tree: every format found, cdk.out beside cdk.json, broken files
    // as notes, Terraform files of one folder read together.
    let all = discover(&fixture(""));
    let kinds: std::collections::BTreeSet<OriginKind> = all.files.iter().map(|f| f.kind).collect();
    for k in [
        OriginKind::Sam,
        OriginKind::CloudFormation,
        OriginKind::Cdk,
        OriginKind::Serverless,
        OriginKind::Terraform,
        OriginKind::NoSqlWorkbench,
        OriginKind::DescribeTable,
    ] {
        assert!(kinds.contains(&k), "{k:?} missing from {kinds:?}");
    }
    assert!(table(&all, "shop-{env}-carts")
        .refs
        .contains(&"CARTS_TABLE".to_string()));
    let n = notes(&all);
    assert!(n.contains("cannot read this file as Terraform"), "{n}");
    assert!(n.contains("cannot read this file as YAML or JSON"), "{n}");
}

#[test]
fn toml_tables_win_over_imports_and_conflicts_are_noted() {
    let toml = r#"
[[table]]
name = "orders"
partition-key = "orderId"
item-count = 1000
[table.attributes]
orderId = "S"
"#;
    let mut m = crate::model::load_str(Path::new("dynalint.toml"), toml).unwrap();
    let i = discover(&fixture("two-stacks"));
    let notes = apply_to_model(&mut m, i);
    assert_eq!(m.tables.len(), 1);
    assert_eq!(m.tables[0].origin.kind, OriginKind::DynalintToml);
    assert_eq!(m.tables[0].item_count, Some(1000));
    // v1 agrees with the TOML; v2 is the conflict discover already noted.
    assert_eq!(notes.len(), 1, "{notes:?}");
}

#[test]
fn dynalint_toml_imports_a_template_and_adds_figures() {
    let m = crate::model::load_file(&fixture("with-toml/dynalint.toml"))
        .unwrap_or_else(|e| panic!("{e:?}"));
    let orders = m
        .tables
        .iter()
        .find(|t| t.name == "{Stage}-orders")
        .unwrap();
    // Keys from the template, figures and entities from the TOML.
    assert_eq!(orders.origin.kind, OriginKind::DynalintToml);
    assert_eq!(
        (orders.partition_key.as_str(), orders.sort_key.as_deref()),
        ("PK", Some("SK"))
    );
    assert_eq!(orders.item_count, Some(2_000_000));
    assert_eq!(orders.entities.len(), 1);
    assert!(orders.index("GSI1").is_some());
    assert_eq!(orders.refs, ["ORDERS_TABLE"]);
    assert_eq!(
        orders
            .attribute("status")
            .unwrap()
            .values
            .as_ref()
            .unwrap()
            .len(),
        3
    );
    // The TOML's own keys win over the template's, and the difference is a note.
    let sessions = m.tables.iter().find(|t| t.name == "sessions").unwrap();
    assert_eq!(sessions.partition_key, "token");
    assert_eq!(m.import_notes.len(), 1, "{:?}", m.import_notes);
    assert!(m.import_notes[0]
        .message
        .contains("keys (sessionId) here and with keys (token)"));
    // The template's other table joins as it is.
    assert!(m
        .tables
        .iter()
        .any(|t| t.name == "{StackName}-CountersTable-{suffix}"));
    let shown = crate::model::show::render(&m);
    assert!(
        shown.contains("from       ../sam/template.yaml:"),
        "{shown}"
    );
}

#[test]
fn an_import_that_cannot_be_read_is_a_model_problem() {
    let err = crate::model::load_str(
        &fixture("with-toml/dynalint.toml"),
        "import = [\"missing.yaml\"]\n",
    )
    .unwrap_err();
    assert_eq!(err.len(), 1);
    assert!(err[0]
        .message
        .starts_with("cannot read `missing.yaml` named in `import`"));
    assert_eq!(err[0].span, crate::source::Span::new(10, 24));
}

/// Every fixture cut short at many points (a file saved half-way, a bad merge): each
/// import ends with tables or notes, never a panic, and every span lies in the text.
#[test]
fn truncated_files_never_panic() {
    let files = [
        "sam/template.yaml",
        "cfn-json/stack.json",
        "serverless/serverless.yml",
        "terraform/dynamodb.tf",
        "terraform/lambda.tf",
        "cdk/cdk.out/AppStack.template.json",
        "workbench/orders-model.json",
        "describe/payments.json",
        "broken/no-keys.yaml",
        "cdk-ts/lib/shop-stack.ts",
        "cdk-ts-names/lib/billing-stack.ts",
        "cdk-ts-names/bin/billing.ts",
    ];
    for rel in files {
        let p = fixture(rel);
        let text = std::fs::read_to_string(&p).unwrap();
        let step = (text.len() / 150).max(1);
        for cut in (0..text.len()).step_by(step) {
            if !text.is_char_boundary(cut) {
                continue;
            }
            let part = &text[..cut];
            let i = import_file(&p, part);
            for n in &i.notes {
                assert!(n.span.end <= part.len(), "{rel} cut at {cut}: {n}");
            }
            for t in &i.tables {
                assert!(t.span.end <= part.len(), "{rel} cut at {cut}: {}", t.name);
                assert!(
                    !t.partition_key.is_empty(),
                    "{rel} cut at {cut}: {}",
                    t.name
                );
            }
        }
    }
}

/// Hostile nesting: deep flow sequences and deep intrinsic functions end in notes.
#[test]
fn deep_nesting_is_bounded() {
    let deep_yaml = format!(
        "Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: {}x{}\n",
        "!Join [\"-\", [".repeat(200),
        "]]".repeat(200)
    );
    let i = import_file(Path::new("t.yaml"), &deep_yaml);
    assert!(i.tables.is_empty());
    let deep_tf = format!(
        "resource \"aws_dynamodb_table\" \"t\" {{\n  name = {}\"x\"{}\n  hash_key = \"id\"\n}}\n",
        "(".repeat(300),
        ")".repeat(300)
    );
    let _ = import_file(Path::new("main.tf"), &deep_tf);
}

#[test]
fn a_key_of_several_attributes_is_a_note() {
    let tf = r#"
resource "aws_dynamodb_table" "stores" {
  name     = "stores"
  hash_key = "id"
  attribute {
    name = "id"
    type = "S"
  }
  global_secondary_index {
    name = "ByRegionAndStore"
    key_schema {
      attribute_name = "region"
      key_type       = "HASH"
    }
    key_schema {
      attribute_name = "storeId"
      key_type       = "HASH"
    }
    projection_type = "ALL"
  }
}
"#;
    let i = import_file(Path::new("main.tf"), tf);
    assert!(table(&i, "stores").indexes.is_empty());
    assert!(
        notes(&i).contains("`ByRegionAndStore` is keyed on 2 partition and 0 sort key attributes"),
        "{}",
        notes(&i)
    );
}

#[test]
fn tfvars_give_variables_their_values() {
    // `discover` reads the folder's `.tfvars` with its `.tf` files.
    let i = discover(&fixture("terraform"));
    let events = table(&i, "events");
    assert_eq!(
        events.index("ByGsi").unwrap().projection,
        Projection::KeysOnly
    );
    assert!(i.notes.is_empty(), "{}", notes(&i));
    // Names keep the deployment's part as a placeholder whatever a `.tfvars` says.
    assert!(i.tables.iter().any(|t| t.name == "shop-{env}-carts"));
}

#[test]
fn a_function_in_one_template_names_a_table_of_another() {
    // `functions.yaml` sorts first: its variable waits for the table.
    let i = discover(&fixture("split-stacks"));
    assert_eq!(names(&i), ["orders-{Stage}"]);
    assert_eq!(i.tables[0].refs, ["ORDERS_TABLE"]);
}

#[test]
fn cdk_typescript_when_cdk_out_is_not_there() {
    let i = discover(&fixture("cdk-ts"));
    assert_eq!(
        names(&i),
        ["orders-{region}", "{StackName}-Carts-{suffix}", "audit"],
        "{}",
        notes(&i)
    );
    let orders = table(&i, "orders-{region}");
    assert_eq!(orders.origin.kind, OriginKind::Cdk);
    assert_eq!(orders.origin.id.as_deref(), Some("Orders"));
    assert_eq!(orders.origin.line, 12);
    assert_eq!(orders.sort_key.as_deref(), Some("SK"));
    assert_eq!(orders.billing_mode, Some(BillingMode::Provisioned));
    assert_eq!(orders.provisioned.unwrap().read, Some(10));
    let by_status = orders.index("ByStatus").unwrap();
    assert_eq!(by_status.sort_key.as_deref(), Some("createdAt"));
    assert_eq!(
        by_status.projection,
        Projection::Include(vec!["total".into()])
    );
    assert_eq!(orders.refs, ["ORDERS_TABLE"]);
    let carts = table(&i, "{StackName}-Carts-{suffix}");
    assert_eq!(carts.billing_mode, Some(BillingMode::PayPerRequest));
    assert_eq!(
        carts.index("ByUser").unwrap().projection,
        Projection::KeysOnly
    );
    assert_eq!(carts.refs, ["CARTS_TABLE"]);
    // A project's own construct given the keys; `audit.table.tableName` names it.
    let audit = table(&i, "audit");
    assert_eq!(audit.partition_key, "id");
    assert_eq!(audit.refs, ["AUDIT_TABLE"]);
    // The wrapper's inner `new Table(this, 'Table', {...props})` names no keys itself,
    // and tests are not read.
    assert!(i.notes.is_empty(), "{}", notes(&i));
    assert!(!i.tables.iter().any(|t| t.partition_key == "x"));
}

/// A stack's `tableName` as CDK apps write it: a constant of the file, a prop the app
/// gives the stack, an environment variable read at deploy time. Tables whose names
/// stay unknown go by their construct ids, each its own table.
#[test]
fn cdk_typescript_table_names_from_constants_props_and_the_environment() {
    let i = discover(&fixture("cdk-ts-names"));
    assert_eq!(
        names(&i),
        [
            "billing-customers",
            "billing-invoices",
            "Ledger",
            "billing-payments",
            "Refunds",
            "Rates",
            "Holidays"
        ],
        "{}",
        notes(&i)
    );
    assert_eq!(table(&i, "billing-customers").refs, ["CUSTOMERS_TABLE"]);
    let invoices = table(&i, "billing-invoices");
    assert_eq!(invoices.sort_key.as_deref(), Some("invoiceId"));
    assert_eq!(invoices.refs, ["INVOICES_TABLE"]);
    // Named by the deploying environment: code reading the same variable binds to it.
    assert_eq!(table(&i, "billing-payments").refs, ["PAYMENTS_TABLE"]);
    assert_eq!(table(&i, "Refunds").refs, ["REFUNDS_TABLE"]);
    assert_eq!(table(&i, "Rates").partition_key, "currency");
    assert_eq!(table(&i, "Holidays").partition_key, "date");
    // The two stack instances name their ledgers differently: not a name to guess.
    let n = notes(&i);
    assert!(
        n.contains("the `tableName` of `Ledger` is not known statically"),
        "{n}"
    );
    assert!(
        !n.contains("`Invoices`") && !n.contains("`Customers`"),
        "{n}"
    );
}

/// Spans of imported fields stay inside their file, even for a value cut off at the end.
#[test]
fn field_spans_stay_inside_the_file() {
    let text =
        "const t = new Table(this, 'T', { partitionKey: { name: 'id', type: AttributeType.STRING";
    let i = import_file(Path::new("stack.ts"), text);
    let t = table(&i, "{StackName}-T-{suffix}");
    for (_, s) in t.fields.iter() {
        assert!(s.end <= text.len());
    }
}

#[test]
fn serverless_resources_in_included_files_read_with_the_service_variables() {
    let i = discover(&fixture("serverless-split"));
    assert_eq!(names(&i), ["billing-invoices-{stage}"], "{}", notes(&i));
    let t = &i.tables[0];
    assert_eq!(t.partition_key, "invoiceId");
    assert!(t.origin.path.ends_with("resources/dynamodb.yml"));
    assert_eq!(t.origin.line, 2);
    assert_eq!(t.refs, ["INVOICES_TABLE"]);
    // The included file is not read a second time on its own; a missing one is a note.
    assert_eq!(i.notes.len(), 1, "{}", notes(&i));
    assert!(i.notes[0]
        .message
        .starts_with("cannot read `resources/missing.yml`"));
}

/// A CDK app checked out without its `cdk.json` (the repository's infrastructure
/// folder alone, or an app driven from a parent folder): the TypeScript that imports
/// the CDK is the app, read as if `cdk.json` were there; other TypeScript is not.
#[test]
fn cdk_typescript_without_cdk_json() {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap().flatten() {
            if e.file_name() == "cdk.json" {
                continue;
            }
            if e.path().is_dir() {
                copy(&e.path(), &to.join(e.file_name()));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let app = tmp.path().join("infra");
    copy(&fixture("cdk-ts"), &app);
    // A front end's TypeScript that names a `partitionKey` is no CDK app.
    std::fs::create_dir_all(tmp.path().join("web")).unwrap();
    std::fs::write(
        tmp.path().join("web/api.ts"),
        "export const q = { partitionKey: { name: 'x', type: 'S' } };\n",
    )
    .unwrap();
    let i = discover(tmp.path());
    assert_eq!(
        names(&i),
        ["orders-{region}", "{StackName}-Carts-{suffix}", "audit"],
        "{}",
        notes(&i)
    );
    assert_eq!(table(&i, "orders-{region}").refs, ["ORDERS_TABLE"]);
    assert_eq!(table(&i, "audit").partition_key, "id");
    assert!(!i.tables.iter().any(|t| t.partition_key == "x"));
}

/// A function's stack takes another stack's table name as a parameter with no default:
/// a parameter named after one table (its logical id or name, `Name` after it) names
/// it; one named after no table (`AuditTableName`) or not after a table (`Stage`) names
/// none.
#[test]
fn a_stack_parameter_named_after_a_table_of_another_stack_names_it() {
    let i = discover(&fixture("cross-stack-parameter"));
    assert_eq!(
        names(&i),
        ["Accounts", "{StackName}-Ledger-{suffix}"],
        "{}",
        notes(&i)
    );
    assert_eq!(table(&i, "Accounts").refs, ["TABLE_NAME"]);
    assert_eq!(table(&i, "{StackName}-Ledger-{suffix}").refs, ["LEDGER"]);
    assert!(i.notes.is_empty(), "{}", notes(&i));
}

/// One Terraform module declares a table and stores its name in Parameter Store; the
/// module that deploys the code reads the parameter back by the same name and hands
/// it to the function: the function's variable names that table. A parameter that
/// holds an ARN is the table too; one no function is handed names nothing.
#[test]
fn a_table_name_handed_on_through_an_ssm_parameter_names_it() {
    let i = discover(&fixture("terraform-ssm"));
    assert_eq!(
        names(&i),
        ["aws_dynamodb_table.orders", "aws_dynamodb_table.invoices"],
        "{}",
        notes(&i)
    );
    assert_eq!(
        table(&i, "aws_dynamodb_table.orders").refs,
        ["ORDERS_TABLE_NAME"]
    );
    assert!(table(&i, "aws_dynamodb_table.invoices").refs.is_empty());
    // The same parameter name, resolved in either module, is the only tie: a module
    // whose locals differ does not read this parameter.
    let parameters: Vec<&str> = i.parameter_tables.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        parameters,
        [
            "{local.prefix_parameter}/DynamoDB/OrdersTable/Name",
            "{local.prefix_parameter}/DynamoDB/OrdersTable/Arn",
            "{local.prefix_parameter}/DynamoDB/InvoicesTable/Name",
        ]
    );
}

/// A CDK app in Python: constructs are calls with keyword arguments, read as the props
/// objects they stand for; Python that does not import the CDK declares nothing.
#[test]
fn cdk_python() {
    let i = discover(&fixture("cdk-py"));
    assert_eq!(
        names(&i),
        ["orders", "{StackName}-Carts-{suffix}"],
        "{}",
        notes(&i)
    );
    let orders = table(&i, "orders");
    assert_eq!(orders.origin.kind, OriginKind::Cdk);
    assert_eq!(orders.origin.id.as_deref(), Some("Orders"));
    assert_eq!(orders.origin.line, 16);
    assert_eq!(orders.partition_key, "PK");
    assert_eq!(orders.sort_key.as_deref(), Some("SK"));
    assert_eq!(orders.billing_mode, Some(BillingMode::PayPerRequest));
    let by_status = orders.index("ByStatus").unwrap();
    assert_eq!(by_status.partition_key, "status");
    assert_eq!(by_status.projection, Projection::KeysOnly);
    assert_eq!(orders.refs, ["ORDERS_TABLE"]);
    let carts = table(&i, "{StackName}-Carts-{suffix}");
    assert_eq!(carts.attribute("cartId").map(|a| a.ty.as_str()), Some("N"));
    assert_eq!(carts.refs, ["CARTS_TABLE"]);
    assert!(i.notes.is_empty(), "{}", notes(&i));
}

/// Python cut off anywhere (inside a docstring, a call, a keyword) imports without a
/// panic, every span inside the text.
#[test]
fn cdk_python_cut_anywhere() {
    let text = std::fs::read_to_string(fixture("cdk-py/shop/shop_stack.py")).unwrap();
    for end in (0..text.len()).filter(|e| text.is_char_boundary(*e)) {
        let cut = &text[..end];
        let i = import_file(Path::new("stack.py"), cut);
        for t in &i.tables {
            assert!(t.span.end <= cut.len());
            for (_, s) in t.fields.iter() {
                assert!(s.end <= cut.len(), "{end}");
            }
        }
    }
}

/// `for_each` over a local map (one table per key, `each.key`/`each.value.x`),
/// `dynamic` blocks over a literal list (with and without `iterator`), `count` copies
/// named by `{index}`; a `dynamic` over what only the plan knows is a note.
#[test]
fn terraform_for_each_dynamic_and_count() {
    let i = discover(&fixture("terraform-each"));
    assert_eq!(
        names(&i),
        [
            "orders-{env}",
            "carts-{env}",
            "users-{env}",
            "events-{index}"
        ],
        "{}",
        notes(&i)
    );
    let orders = table(&i, "orders-{env}");
    let by_status = orders.index("by-status").unwrap();
    assert_eq!(by_status.partition_key, "status");
    assert_eq!(by_status.sort_key.as_deref(), Some("sk"));
    assert_eq!(by_status.projection, Projection::KeysOnly);
    assert!(orders.index("by-customer").is_some());
    assert_eq!(
        orders.attribute("customer").map(|a| a.ty.as_str()),
        Some("S")
    );
    let carts = table(&i, "carts-{env}");
    assert_eq!(carts.partition_key, "cartId");
    assert_eq!(carts.provisioned.unwrap().read, Some(5));
    assert_eq!(
        carts.origin.id.as_deref(),
        Some("aws_dynamodb_table.each[\"carts\"]")
    );
    assert_eq!(carts.refs, ["CARTS_TABLE"]);
    assert_eq!(table(&i, "users-{env}").provisioned.unwrap().read, Some(10));
    assert_eq!(table(&i, "events-{index}").refs, ["EVENTS_TABLE"]);
    assert_eq!(i.notes.len(), 1, "{}", notes(&i));
    assert!(i.notes[0].message.contains("known only at plan time"));
}

/// A YAML stream of several templates (`---` between them): each one's tables, the
/// file counted once.
#[test]
fn every_document_of_a_yaml_stream() {
    let text = "---\nAWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Orders:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: orders\n      KeySchema: [{AttributeName: id, KeyType: HASH}]\n      AttributeDefinitions: [{AttributeName: id, AttributeType: S}]\n---\n# not a template\nkind: ConfigMap\n---\nResources:\n  Users:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: users\n      KeySchema: [{AttributeName: uid, KeyType: HASH}]\n      AttributeDefinitions: [{AttributeName: uid, AttributeType: S}]\n";
    let i = import_file(Path::new("stacks.yaml"), text);
    assert_eq!(names(&i), ["orders", "users"], "{}", notes(&i));
    assert_eq!(table(&i, "users").origin.line, 15);
    assert_eq!(i.files.len(), 1);
    assert_eq!(i.files[0].tables, 2);
}

#[test]
fn a_table_class_is_read_from_cloudformation_and_terraform() {
    let cfn = "Resources:\n  Archive:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      TableName: archive\n      TableClass: STANDARD_INFREQUENT_ACCESS\n      BillingMode: PAY_PER_REQUEST\n      AttributeDefinitions:\n        - AttributeName: id\n          AttributeType: S\n      KeySchema:\n        - AttributeName: id\n          KeyType: HASH\n";
    let i = import_file(Path::new("template.yaml"), cfn);
    assert_eq!(
        table(&i, "archive").table_class,
        Some(TableClass::StandardInfrequentAccess),
        "{}",
        notes(&i)
    );
    let tf = "resource \"aws_dynamodb_table\" \"archive\" {\n  name         = \"archive\"\n  billing_mode = \"PAY_PER_REQUEST\"\n  hash_key     = \"id\"\n  table_class  = \"STANDARD_INFREQUENT_ACCESS\"\n  attribute {\n    name = \"id\"\n    type = \"S\"\n  }\n}\n";
    let i = import_file(Path::new("main.tf"), tf);
    assert_eq!(
        table(&i, "archive").table_class,
        Some(TableClass::StandardInfrequentAccess),
        "{}",
        notes(&i)
    );
}
