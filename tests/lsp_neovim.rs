//! A real editor as the client: headless Neovim, configured only from
//! `editors/neovim/lsp/dynalint.lua`, opens a fixture file and reads dynalint's
//! findings back through `vim.diagnostic.get()`.
//!
//! Neovim comes from `scripts/install-test-tools.sh` (target/test-tools/bin/nvim) or
//! `$DYNALINT_NVIM`. Without it the test fails under CI and is skipped, loudly,
//! elsewhere.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod lsp_support;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lsp_support::{copy_of, fixture_copy};
use serde_json::Value;

fn nvim() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DYNALINT_NVIM") {
        return Some(PathBuf::from(p));
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-tools/bin/nvim");
    p.is_file().then_some(p)
}

fn lua_string(p: &Path) -> String {
    format!("{:?}", p.display().to_string())
}

/// Runs headless Neovim with the shipped set-up in `root` on `file` until at least
/// `wanted` diagnostics arrive; returns what it saw: `ok`, `diagnostics`, `clients`.
fn neovim_report(nvim: &Path, tmp: &Path, root: &Path, file: &str, wanted: usize) -> Value {
    let home = tmp.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let out = tmp.join("diagnostics.json");
    let editors = Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/neovim");
    // The user's side of the set-up: the shipped config on the runtimepath, the
    // binary under test instead of the one on PATH, and `vim.lsp.enable`.
    let init = format!(
        r#"
vim.opt.rtp:prepend({editors})
vim.lsp.config('dynalint', {{ cmd = {{ {bin}, 'lsp' }} }})
vim.lsp.enable('dynalint')
"#,
        editors = lua_string(&editors),
        bin = lua_string(Path::new(env!("CARGO_BIN_EXE_dynalint"))),
    );
    let probe = format!(
        r#"
local ok = vim.wait(60000, function() return #vim.diagnostic.get(0) >= {wanted} end, 50)
local found = {{}}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, {{ lnum = d.lnum, col = d.col, code = d.code, source = d.source,
                        severity = d.severity, message = d.message }})
end
local clients = {{}}
for _, c in ipairs(vim.lsp.get_clients({{ bufnr = 0 }})) do
  table.insert(clients, {{ name = c.name, root = c.config.root_dir }})
end
vim.fn.writefile({{ vim.json.encode({{ ok = ok, diagnostics = found, clients = clients }}) }}, {out})
vim.cmd('qa!')
"#,
        out = lua_string(&out),
    );
    std::fs::write(tmp.join("init.lua"), init).unwrap();
    std::fs::write(tmp.join("probe.lua"), probe).unwrap();

    let mut child = Command::new(nvim)
        .current_dir(root)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(tmp.join("init.lua"))
        .arg(file)
        .arg("-c")
        .arg(format!("luafile {}", tmp.join("probe.lua").display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("nvim did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let result = child.wait_with_output().unwrap();
    let report = std::fs::read_to_string(&out).unwrap_or_else(|e| {
        panic!(
            "nvim wrote no result ({e}); stderr:\n{}",
            String::from_utf8_lossy(&result.stderr)
        )
    });
    serde_json::from_str(&report).unwrap()
}

/// The missing-Neovim skip (a failure under CI).
fn skip(test: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "nvim not found: run scripts/install-test-tools.sh (or set DYNALINT_NVIM)"
    );
    // Straight to stderr: the test harness captures `eprintln!` of passing tests.
    let _ = writeln!(
        std::io::stderr().lock(),
        "\n\n  ***** SKIPPED {test}: no nvim. *****\n  \
         Run scripts/install-test-tools.sh (or set DYNALINT_NVIM) to test the Neovim set-up.\n"
    );
}

#[test]
fn neovim_shows_dynalint_diagnostics() {
    let Some(nvim) = nvim() else {
        return skip("neovim_shows_dynalint_diagnostics");
    };
    let (tmp, root) = fixture_copy();
    let report = neovim_report(&nvim, tmp.path(), &root, "src/repo.rs", 2);
    let clients = report["clients"].as_array().unwrap();
    assert!(
        clients
            .iter()
            .any(|c| c["name"] == "dynalint" && c["root"] == root.display().to_string()),
        "the dynalint client is attached at the project root: {report:#}"
    );
    assert_eq!(report["ok"], true, "diagnostics arrived: {report:#}");
    let mut lines: Vec<(i64, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "scan-in-hot-path")
        .map(|d| {
            assert_eq!(d["source"], "dynalint");
            assert_eq!(d["severity"], 2, "WARN");
            (
                d["lnum"].as_i64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    lines.sort();
    assert_eq!(lines.len(), 2, "{report:#}");
    assert_eq!(lines[0].0, 12);
    assert!(lines[0].1.contains("every request"), "{report:#}");
    assert_eq!(lines[1].0, 32);
    assert!(lines[1].1.contains("per iteration"), "{report:#}");
}

#[test]
fn neovim_starts_without_a_dynalint_toml_on_a_sam_project() {
    let Some(nvim) = nvim() else {
        return skip("neovim_starts_without_a_dynalint_toml_on_a_sam_project");
    };
    // A cargo project whose only declaration is its SAM template: the server starts at
    // the project's root and binds the handler's calls to the template's table.
    let (tmp, root) = copy_of("_no-model/sam-handler");
    std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"orders\"\n").unwrap();
    let report = neovim_report(&nvim, tmp.path(), &root, "src/main.rs", 2);
    let clients = report["clients"].as_array().unwrap();
    assert!(
        clients
            .iter()
            .any(|c| c["name"] == "dynalint" && c["root"] == root.display().to_string()),
        "the dynalint client is attached at the cargo project's root: {report:#}"
    );
    assert_eq!(report["ok"], true, "diagnostics arrived: {report:#}");
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect();
    for code in ["rejected-request", "unprojected-attribute"] {
        assert!(codes.contains(&code), "{code}: {report:#}");
    }
}
