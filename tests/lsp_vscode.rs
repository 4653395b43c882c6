//! A real VS Code as the client: code-server (VS Code's workbench and extension host,
//! served to a browser) with the packaged extension (`editors/vscode/dynalint.vsix`)
//! installed, driven in headless Chromium by `tests/vscode_e2e/drive.mjs`. It checks:
//! - activation: VS Code activates the extension, on an event its manifest names;
//! - the settings: `dynalint.server.path` names the binary (a wrapper that records its
//!   arguments and environment, then runs the binary under test; no `dynalint` is on
//!   `PATH`), `dynalint.server.extraEnv` reaches it, and `dynalint.trace.server` logs
//!   the protocol to the output channel;
//! - the findings in the Problems panel, at their lines and columns;
//! - the "dynalint: Restart Server" command starts the server again.
//!
//! code-server, playwright-core and Chromium come from `scripts/install-test-tools.sh`
//! (target/test-tools/code-server, Debian's /usr/bin/chromium or `$DYNALINT_CHROMIUM`);
//! the .vsix from `scripts/test`. Without them the test fails under CI and is skipped,
//! loudly, elsewhere.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod lsp_support;

use std::io::{BufRead, BufReader, Write as _};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use lsp_support::{copy_of, fixture_copy};
use serde_json::{json, Value};

struct Tools {
    code_server: PathBuf,
    playwright: PathBuf,
    chromium: PathBuf,
    vsix: PathBuf,
}

fn tools() -> Result<Tools, String> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = repo.join("target/test-tools/code-server/node_modules");
    let t = Tools {
        code_server: dir.join(".bin/code-server"),
        playwright: dir.join("playwright-core"),
        chromium: std::env::var_os("DYNALINT_CHROMIUM")
            .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from),
        vsix: repo.join("editors/vscode/dynalint.vsix"),
    };
    for p in [&t.code_server, &t.playwright, &t.chromium, &t.vsix] {
        if !p.exists() {
            return Err(format!("{} not found", p.display()));
        }
    }
    if Command::new("node").arg("--version").output().is_err() {
        return Err("node not found".into());
    }
    Ok(t)
}

/// code-server in its own process group, ended with everything it started (the
/// extension host, the language server) when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", "--", &format!("-{}", self.0.id())])
            .status();
        let _ = self.0.wait();
    }
}

fn files_named(dir: &Path, suffix: &str, found: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            files_named(&p, suffix, found);
        } else if p.to_string_lossy().ends_with(suffix) {
            found.push(p);
        }
    }
}

fn read_all(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap_or_default())
        .collect()
}

/// What a run of VS Code on a project showed and left behind.
struct Run {
    /// `{ before: [row], after: [row] }`: the Problems panel's rows, before and after
    /// the restart command (the same rows without a restart).
    report: Value,
    /// The dynalint output channel's log.
    channel: String,
    /// One line per server start, as the wrapper the setting names recorded it.
    calls: String,
}

/// Installs the packaged extension in a fresh code-server, opens `root` in headless
/// Chromium, opens `file` and reads the Problems panel once `count` rows name `code`;
/// with `restart`, runs "dynalint: Restart Server" and reads it again.
fn run(
    tools: &Tools,
    t: &Path,
    root: &Path,
    (file, code, count): (&str, &str, usize),
    restart: bool,
) -> Run {
    let starts = if restart { 2 } else { 1 };
    let home = t.join("home");
    let user_data = t.join("user-data");
    let extensions = t.join("extensions");
    std::fs::create_dir_all(user_data.join("User")).unwrap();
    std::fs::create_dir_all(&home).unwrap();

    // The server as the setting names it: records how it was started, then runs the
    // binary under test.
    let calls = t.join("server-calls");
    let wrapper = t.join("bin/dynalint-under-test");
    std::fs::create_dir_all(wrapper.parent().unwrap()).unwrap();
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho \"args=$* extra=$DYNALINT_E2E_EXTRA\" >> {calls:?}\nexec {bin:?} \"$@\"\n",
            calls = calls.display().to_string(),
            bin = env!("CARGO_BIN_EXE_dynalint"),
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let settings = json!({
        "dynalint.server.path": wrapper,
        "dynalint.server.extraEnv": { "DYNALINT_E2E_EXTRA": "from-settings" },
        "dynalint.trace.server": "messages",
        "workbench.startupEditor": "none",
        "security.workspace.trust.enabled": false,
        "telemetry.telemetryLevel": "off",
        "extensions.autoCheckUpdates": false,
        "extensions.autoUpdate": false,
    });
    std::fs::write(
        user_data.join("User/settings.json"),
        serde_json::to_string_pretty(&settings).unwrap(),
    )
    .unwrap();

    // No `dynalint` on PATH: only the setting can find the server.
    let path: Vec<PathBuf> = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .filter(|d| !d.join("dynalint").exists())
        .collect();
    let path = std::env::join_paths(path).unwrap();
    let code_server = |args: &[&std::ffi::OsStr]| {
        let mut c = Command::new(&tools.code_server);
        c.env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_DATA_HOME", home.join(".local/share"))
            .env("XDG_CACHE_HOME", home.join(".cache"))
            .env("PATH", &path)
            .arg("--user-data-dir")
            .arg(&user_data)
            .arg("--extensions-dir")
            .arg(&extensions)
            .args(args);
        c
    };

    let install = code_server(&["--install-extension".as_ref(), tools.vsix.as_os_str()])
        .output()
        .unwrap();
    assert!(
        install.status.success(),
        "installing the .vsix: {}{}",
        String::from_utf8_lossy(&install.stdout),
        String::from_utf8_lossy(&install.stderr)
    );

    let mut server = code_server(&[
        "--auth".as_ref(),
        "none".as_ref(),
        "--bind-addr".as_ref(),
        "127.0.0.1:0".as_ref(),
        "--disable-telemetry".as_ref(),
        "--disable-update-check".as_ref(),
        "--disable-workspace-trust".as_ref(),
        "--disable-getting-started-override".as_ref(),
    ])
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .process_group(0)
    .spawn()
    .unwrap();
    let stdout = server.stdout.take().unwrap();
    let _server = Server(server);
    let mut lines = BufReader::new(stdout).lines();
    let deadline = Instant::now() + Duration::from_secs(60);
    let url = loop {
        assert!(Instant::now() < deadline, "code-server did not start");
        let line = lines
            .next()
            .expect("code-server exited before listening")
            .unwrap();
        if let Some(at) = line.find("HTTP server listening on ") {
            break line[at + "HTTP server listening on ".len()..]
                .trim()
                .to_string();
        }
    };
    // Keep reading its log so it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));

    let drive = Command::new("node")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vscode_e2e/drive.mjs"))
        .env(
            "DYNALINT_E2E_URL",
            format!("{url}?folder={}", root.display()),
        )
        .env("DYNALINT_E2E_FILE", file)
        .env("DYNALINT_E2E_CODE", code)
        .env("DYNALINT_E2E_COUNT", count.to_string())
        .env("DYNALINT_E2E_RESTART", if restart { "1" } else { "0" })
        .env("PLAYWRIGHT_CORE", &tools.playwright)
        .env("CHROMIUM", &tools.chromium)
        .env("HOME", &home)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&drive.stdout);
    // VS Code writes its logs in the background: wait for what the checks read.
    let logs = || {
        let mut found = Vec::new();
        files_named(&user_data.join("logs"), ".log", &mut found);
        found
    };
    let channel = || {
        let mut found = Vec::new();
        files_named(&user_data.join("logs"), "-dynalint.log", &mut found);
        read_all(&found)
    };
    // By an event the manifest names: opening a Rust file or the folder's
    // dynalint.toml, whichever VS Code sees first.
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode/package.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let events: Vec<String> = manifest["activationEvents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| format!("activationEvent: '{}'", e.as_str().unwrap()))
        .collect();
    let activated = |log: &str| {
        log.lines().any(|l| {
            l.contains("_doActivateExtension dynalint.dynalint")
                && events.iter().any(|e| l.contains(e.as_str()))
        })
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while drive.status.success()
        && Instant::now() < deadline
        && !(activated(&read_all(&logs()))
            && channel().matches("Sending request 'initialize").count() >= starts)
    {
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        drive.status.success(),
        "the browser run failed:\n{report}\n{}\nserver calls: {}\nlogs:\n{}",
        String::from_utf8_lossy(&drive.stderr),
        std::fs::read_to_string(&calls).unwrap_or_default(),
        read_all(&logs()),
    );
    let report: Value = serde_json::from_str(report.trim()).unwrap();
    let log = read_all(&logs());
    assert!(
        activated(&log),
        "no activation in the extension host's log:\n{log}"
    );
    Run {
        report,
        channel: channel(),
        calls: std::fs::read_to_string(&calls).unwrap_or_default(),
    }
}

/// The missing-tools skip (a failure under CI).
fn skip(test: &str, why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{why}: run scripts/install-test-tools.sh and scripts/test"
    );
    // Straight to stderr: the test harness captures `eprintln!` of passing tests.
    let _ = writeln!(
        std::io::stderr().lock(),
        "\n\n  ***** SKIPPED {test}: {why}. *****\n  \
         Run scripts/install-test-tools.sh, then scripts/test, to test the VS Code extension.\n"
    );
}

#[test]
fn vscode_shows_dynalint_diagnostics() {
    let tools = match tools() {
        Ok(t) => t,
        Err(why) => return skip("vscode_shows_dynalint_diagnostics", &why),
    };
    let (tmp, root) = fixture_copy();
    let Run {
        report,
        channel,
        calls,
    } = run(
        &tools,
        tmp.path(),
        &root,
        ("repo.rs", "scan-in-hot-path", 2),
        true,
    );

    // The settings: the binary they name, run as `<path> lsp` with the extra
    // environment; once at start and once more for the restart command.
    let starts: Vec<&str> = calls.lines().collect();
    assert_eq!(
        starts,
        [
            "args=lsp extra=from-settings",
            "args=lsp extra=from-settings"
        ],
        "started at activation and by the restart command"
    );
    assert_eq!(
        channel.matches("Sending request 'initialize").count(),
        2,
        "`dynalint.trace.server` logs the protocol, for both starts:\n{channel}"
    );

    // The findings, as the Problems panel shows them (message, source, rule, position).
    for key in ["before", "after"] {
        let rows: Vec<&str> = report[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        let mut hot: Vec<(String, &str)> = rows
            .iter()
            .filter_map(|r| {
                let fields: Vec<&str> = r.lines().collect();
                let at = fields.iter().position(|f| *f == "scan-in-hot-path")?;
                assert_eq!(fields[at - 1], "dynalint", "the source: {r}");
                Some((fields[at + 1].to_string(), fields[0]))
            })
            .collect();
        hot.sort();
        assert_eq!(hot.len(), 2, "{key}: {rows:#?}");
        assert_eq!(hot[0].0, "[Ln 13, Col 35]", "{key}: {rows:#?}");
        assert!(hot[0].1.contains("every request"), "{key}: {rows:#?}");
        assert_eq!(hot[1].0, "[Ln 33, Col 24]", "{key}: {rows:#?}");
        assert!(hot[1].1.contains("per iteration"), "{key}: {rows:#?}");
    }
}

#[test]
fn vscode_starts_without_a_dynalint_toml_on_a_sam_project() {
    let tools = match tools() {
        Ok(t) => t,
        Err(why) => {
            return skip(
                "vscode_starts_without_a_dynalint_toml_on_a_sam_project",
                &why,
            )
        }
    };
    // A cargo project whose only declaration is its SAM template: the server binds
    // the handler's calls to the template's table.
    let (tmp, root) = copy_of("_no-model/sam-handler");
    std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"orders\"\n").unwrap();
    let Run { report, .. } = run(
        &tools,
        tmp.path(),
        &root,
        ("main.rs", "rejected-request", 1),
        false,
    );
    let rows: Vec<&str> = report["before"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    for code in ["rejected-request", "unprojected-attribute"] {
        assert!(
            rows.iter().any(|r| r.lines().any(|f| f == code)),
            "{code}: {rows:#?}"
        );
    }
    assert!(
        rows.iter().any(|r| r.contains("rejected-request")
            && r.contains("missed key schema element: PK")
            && r.contains("[Ln 16, Col 36]")),
        "the key condition that misses the partition key: {rows:#?}"
    );
}
