//! The editor set-ups, read as files: Helix's `languages.toml` parses and starts
//! `dynalint lsp` for Rust and TOML in a Rust project, with or without a `dynalint.toml`. (A real Helix is driven
//! with this file in tests/lsp_helix.rs, a real Neovim in tests/lsp_neovim.rs.)
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

fn helix() -> toml::Table {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/helix/languages.toml");
    std::fs::read_to_string(path).unwrap().parse().unwrap()
}

#[test]
fn helix_languages_toml_names_the_server_for_rust_and_toml() {
    let t = helix();
    let server = &t["language-server"]["dynalint"];
    assert_eq!(server["command"].as_str(), Some("dynalint"));
    let args: Vec<&str> = server["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(args, ["lsp"], "the subcommand that exists: {args:?}");
    // Zero configuration: a cargo project or a folder of Rust files starts it too.
    let roots: Vec<&str> = server["required-root-patterns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(roots, ["dynalint.toml", "Cargo.toml", "*.rs"]);
    let languages = t["language"].as_array().unwrap();
    for name in ["rust", "toml"] {
        let lang = languages
            .iter()
            .find(|l| l["name"].as_str() == Some(name))
            .unwrap_or_else(|| panic!("no [[language]] {name}"));
        let servers = lang["language-servers"].as_array().unwrap();
        assert!(
            servers.iter().any(|s| s.as_str() == Some("dynalint")),
            "{name}: {servers:?}"
        );
    }
}

#[test]
fn the_helix_command_is_a_subcommand_the_binary_has() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.lines().any(|l| l.trim_start().starts_with("lsp ")),
        "{help}"
    );
}
