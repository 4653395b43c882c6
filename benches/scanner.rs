//! Scanner throughput on a generated tree (≥ 500k lines), side by side with the time
//! tree-sitter alone takes to parse the same files. Prints files/s, MB/s and peak
//! memory. Targets: whole pipeline ≤ 1.5× parse-only on a DynamoDB-heavy mix, and
//! faster than parse-only on a tree where 10% of files touch DynamoDB.
//!
//! Run with `cargo bench --bench scanner`.

// The `dynalint` binary's allocator (src/main.rs): figures are the product's, and a
// parse-only pass parses with the same allocator as `check`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use dynalint::scanner::{index_file, link, parse_only, scan, FileIndex, ScanSettings};
use dynalint::source::SourceFile;
use rayon::prelude::*;

/// A file full of DynamoDB calls in the shapes real repositories use.
fn dynamo_file(i: usize) -> String {
    let mut s = format!(
        "use aws_sdk_dynamodb::types::AttributeValue;\nuse aws_sdk_dynamodb::Client;\nuse std::collections::HashMap;\n\nconst TABLE_{i}: &str = \"Table{i}\";\n\npub struct Repo{i} {{\n    client: Client,\n    table: String,\n}}\n\nimpl Repo{i} {{\n    pub fn new(client: Client) -> Self {{\n        Self {{ client, table: std::env::var(\"TABLE_{i}\").unwrap() }}\n    }}\n"
    );
    for j in 0..12 {
        s.push_str(&format!(
            r##"
    pub async fn list_{j}(&self, user: &str, open: bool) -> Result<usize, Error> {{
        let mut q = self
            .client
            .query()
            .table_name(TABLE_{i})
            .index_name("GSI{j}")
            .key_condition_expression("#pk = :pk AND begins_with(#sk, :sk)")
            .expression_attribute_names("#pk", "PK")
            .expression_attribute_names("#sk", "SK")
            .expression_attribute_values(":pk", AttributeValue::S(format!("USER#{{}}", user)))
            .expression_attribute_values(":sk", AttributeValue::S("ORDER#".into()));
        if open {{
            q = q.filter_expression("status = :s").expression_attribute_values(":s", AttributeValue::S("OPEN".into()));
        }}
        let out = q.limit(25).send().await?;
        Ok(out.count() as usize)
    }}

    pub async fn put_{j}(&self, id: &str, n: u64) -> Result<(), Error> {{
        let mut item = HashMap::new();
        item.insert("PK".to_string(), AttributeValue::S(format!("ITEM#{{}}", id)));
        item.insert("n".to_string(), AttributeValue::N(n.to_string()));
        self.client.put_item().table_name(&self.table).set_item(Some(item)).condition_expression("attribute_not_exists(PK)").send().await?;
        Ok(())
    }}
"##
        ));
    }
    s.push_str("}\n");
    s
}

/// Ordinary application code with no DynamoDB in it.
fn plain_file(i: usize) -> String {
    let mut s = format!(
        "use std::collections::BTreeMap;\nuse std::fmt;\n\n/// Settings {i}.\n#[derive(Debug, Clone, Default)]\npub struct Settings{i} {{\n    pub name: String,\n    pub retries: u32,\n    pub weights: Vec<f64>,\n}}\n\npub const LIMIT_{i}: usize = {i};\n\nimpl Settings{i} {{\n"
    );
    for j in 0..14 {
        s.push_str(&format!(
            r#"
    /// Computes something {j}.
    pub fn compute_{j}(&self, input: &[u64]) -> Result<BTreeMap<String, u64>, String> {{
        let mut out = BTreeMap::new();
        for (k, v) in input.iter().enumerate() {{
            let key = format!("{{}}-{{}}", self.name, k);
            let value = match v % 3 {{
                0 => v.saturating_mul(2),
                1 => v / 2 + self.retries as u64,
                _ => {{
                    let w = self.weights.get(k).copied().unwrap_or(1.0);
                    (*v as f64 * w) as u64
                }}
            }};
            if value > LIMIT_{i} as u64 {{
                out.insert(key, value);
            }} else if let Some(prev) = out.get_mut("total") {{
                *prev += value;
            }}
        }}
        helper_{j}(&out).map_err(|e| e.to_string())?;
        Ok(out)
    }}
"#
        ));
    }
    s.push_str("}\n\n");
    for j in 0..14 {
        s.push_str(&format!(
            "fn helper_{j}(m: &BTreeMap<String, u64>) -> Result<usize, fmt::Error> {{\n    let total: u64 = m.values().sum();\n    Ok(total as usize + m.len())\n}}\n\n"
        ));
    }
    s
}

fn tree(files: usize, dynamo_every: usize) -> Vec<SourceFile> {
    (0..files)
        .map(|i| {
            let text = if i % dynamo_every == 0 {
                dynamo_file(i)
            } else {
                plain_file(i)
            };
            SourceFile::new(format!("src/gen/m{i}.rs"), text)
        })
        .collect()
}

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed());
        last = Some(v);
    }
    (best, last.expect("at least one run"))
}

fn peak_memory() -> String {
    support::peak_kb().map_or_else(|| "n/a".into(), |kb| format!("{kb} kB"))
}

fn report(label: &str, files: &[SourceFile]) {
    let bytes: usize = files.iter().map(|f| f.text.len()).sum();
    let lines: usize = files.iter().map(|f| f.line_count()).sum();
    let settings = ScanSettings::default();
    // Alternated, best of three each: the machine may be shared, and a load that comes
    // and goes should not land on one side of the ratio only.
    let (mut parse_t, mut scan_t) = (Duration::MAX, Duration::MAX);
    let (mut parsed, mut result) = (0, None);
    for _ in 0..3 {
        let (t, p) = best_of(1, || files.par_iter().filter(|f| parse_only(f)).count());
        parse_t = parse_t.min(t);
        parsed = p;
        let (t, r) = best_of(1, || scan(files, &settings));
        scan_t = scan_t.min(t);
        result = Some(r);
    }
    let result = result.expect("three runs");
    let mb = bytes as f64 / 1e6;
    println!("{label}: {} files, {lines} lines, {mb:.1} MB", files.len());
    println!(
        "  parse only : {:>8.1} ms  {:>8.0} files/s  {:>6.1} MB/s  ({parsed} parsed)",
        parse_t.as_secs_f64() * 1e3,
        files.len() as f64 / parse_t.as_secs_f64(),
        mb / parse_t.as_secs_f64()
    );
    println!(
        "  scanner    : {:>8.1} ms  {:>8.0} files/s  {:>6.1} MB/s  ({} operations, {} problems)",
        scan_t.as_secs_f64() * 1e3,
        files.len() as f64 / scan_t.as_secs_f64(),
        mb / scan_t.as_secs_f64(),
        result.operations.len(),
        result.problems.len()
    );
    println!(
        "  scanner / parse-only = {:.2}x",
        scan_t.as_secs_f64() / parse_t.as_secs_f64()
    );
    // The two phases apart, so a regression shows where it is (one run each).
    let t = Instant::now();
    let indexes: Vec<Arc<FileIndex>> = files
        .par_iter()
        .map(|f| Arc::new(index_file(f, &settings)))
        .collect();
    let index_t = t.elapsed();
    let candidates = indexes.iter().filter(|i| i.candidate).count();
    let t = Instant::now();
    let linked = link(&indexes, &settings);
    let link_t = t.elapsed();
    println!(
        "  phases     : index {:.1} ms ({candidates} files parsed for calls), link {:.1} ms ({} operations)",
        index_t.as_secs_f64() * 1e3,
        link_t.as_secs_f64() * 1e3,
        linked.operations.len()
    );
}

fn main() {
    println!("threads: {}", rayon::current_num_threads());
    // ~600k lines each.
    report("mixed tree (50% DynamoDB files)", &tree(2200, 2));
    report("sparse tree (10% DynamoDB files)", &tree(2400, 10));
    println!("peak memory (VmHWM): {}", peak_memory());
}
