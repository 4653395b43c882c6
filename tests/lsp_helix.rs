//! A real editor as the client: Helix, in a terminal that tmux runs, configured only
//! with the shipped `editors/helix/languages.toml` (the server found as `dynalint` on
//! `PATH`, the binary under test), opens a fixture file; the test reads dynalint's
//! findings back off the screen: the gutter and end-of-line messages on the lines with
//! findings, the diagnostics picker (`<space>d`: severity, rule id, message), and the
//! line the picker jumps to for each finding.
//!
//! Helix comes from `scripts/install-test-tools.sh` (target/test-tools/bin/hx) or
//! `$DYNALINT_HX`. Without it (or tmux) the test fails under CI and is skipped, loudly,
//! elsewhere.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod lsp_support;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use lsp_support::{copy_of, fixture_copy};

fn hx() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DYNALINT_HX") {
        return Some(PathBuf::from(p));
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-tools/bin/hx");
    p.is_file().then_some(p)
}

fn have_tmux() -> bool {
    Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A tmux server of the test's own (its socket in the test's folder), killed on drop
/// with everything it runs.
struct Tmux {
    socket: PathBuf,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap()
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "hx"]).stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "hx"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success(), "send-keys {keys:?}");
    }

    fn text(&self, text: &str) {
        assert!(self
            .run(&["send-keys", "-t", "hx", "-l", text])
            .status
            .success());
    }

    /// Polls the screen until `ready` holds; panics with the last screen otherwise.
    fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "Helix did not show {what} within 90 s; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// The editor row showing 1-based line `n` (Helix's gutter: the diagnostic marker,
/// then the right-aligned line number).
fn row(screen: &str, n: usize) -> Option<&str> {
    screen.lines().find(|l| {
        let mut words = l.split_whitespace();
        let first = words.next();
        first == Some(&n.to_string())
            || (first == Some("●") && words.next() == Some(&n.to_string()))
    })
}

/// The cursor's `line:column` at the end of the status line.
fn cursor_line(screen: &str) -> Option<usize> {
    let status = screen.lines().find(|l| l.contains(" sel "))?;
    let pos = status.split_whitespace().last()?;
    pos.split(':').next()?.parse().ok()
}

/// The document picker's rows that name `code`, each as (selected, severity, message
/// shown).
fn picker_rows<'a>(screen: &'a str, code: &str) -> Vec<(bool, &'a str, &'a str)> {
    screen
        .lines()
        .filter_map(|l| {
            let list = l.split('│').nth(1)?;
            let selected = list.trim_start().starts_with('>');
            let mut words = list.trim_start_matches([' ', '>']).splitn(2, ' ');
            let severity = words.next()?;
            let message = words.next()?.trim_start().strip_prefix(code)?.trim();
            Some((selected, severity, message))
        })
        .collect()
}

/// Starts Helix with the shipped `languages.toml` in `root` on `file`, in a tmux
/// server of its own (socket and home under `tmp`).
fn start_helix(hx: &Path, tmp: &Path, root: &Path, file: &str) -> Tmux {
    let home = tmp.join("home");
    let config = home.join(".config/helix");
    std::fs::create_dir_all(&config).unwrap();
    // The user's side of the set-up: the shipped languages.toml as it is, and one
    // display choice so the test can read each finding's message on its line.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/helix/languages.toml"),
        config.join("languages.toml"),
    )
    .unwrap();
    std::fs::write(
        config.join("config.toml"),
        "[editor]\nend-of-line-diagnostics = \"hint\"\n",
    )
    .unwrap();
    // `command = "dynalint"` finds the binary under test first on PATH.
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_dynalint")).parent().unwrap();
    let path = format!(
        "PATH={}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let var = |k: &str, v: &Path| format!("{k}={}", v.display());
    let tmux = Tmux {
        socket: tmp.join("tmux.sock"),
    };
    let started = tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "hx",
        "-x",
        "220",
        "-y",
        "50",
        "-c",
        root.to_str().unwrap(),
        "env",
        &var("HOME", &home),
        &var("XDG_CONFIG_HOME", &home.join(".config")),
        &var("XDG_CACHE_HOME", &home.join(".cache")),
        &var("XDG_DATA_HOME", &home.join(".local/share")),
        &var("XDG_STATE_HOME", &home.join(".local/state")),
        &path,
        hx.to_str().unwrap(),
        file,
    ]);
    assert!(
        started.status.success(),
        "tmux: {}",
        String::from_utf8_lossy(&started.stderr)
    );

    tmux
}

/// The missing-Helix skip (a failure under CI).
fn skip(test: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "hx or tmux not found: run scripts/install-test-tools.sh (or set DYNALINT_HX)"
    );
    // Straight to stderr: the test harness captures `eprintln!` of passing tests.
    let _ = writeln!(
        std::io::stderr().lock(),
        "\n\n  ***** SKIPPED {test}: no hx or tmux. *****\n  \
         Run scripts/install-test-tools.sh (or set DYNALINT_HX) to test the Helix set-up.\n"
    );
}

#[test]
fn helix_shows_dynalint_diagnostics() {
    let (Some(hx), true) = (hx(), have_tmux()) else {
        return skip("helix_shows_dynalint_diagnostics");
    };
    let (tmp, root) = fixture_copy();
    let tmux = start_helix(&hx, tmp.path(), &root, "src/repo.rs");

    // The two scans (lines 13 and 33): a marker in the gutter and a dynalint message
    // at the end of each.
    tmux.wait_for("diagnostics on lines 13 and 33", |s| {
        [13, 33].iter().all(|&n| {
            row(s, n).is_some_and(|r| r.starts_with('●') && r.contains("`scan` of `BlogApp`"))
        })
    });

    // The document's diagnostics picker: rule ids, severities and messages.
    tmux.keys(&["Space", "d"]);
    let screen = tmux.wait_for("the diagnostics picker", |s| {
        picker_rows(s, "scan-in-hot-path").len() == 2
    });
    let mut hot = picker_rows(&screen, "scan-in-hot-path");
    hot.sort();
    assert!(
        hot.iter().all(|(_, severity, _)| *severity == "WARN"),
        "{hot:?}\n{screen}"
    );
    assert!(
        hot.iter().any(|(_, _, m)| m.contains("every request")),
        "{hot:?}\n{screen}"
    );
    assert!(
        hot.iter().any(|(_, _, m)| m.contains("once per iteration")),
        "{hot:?}\n{screen}"
    );
    tmux.keys(&["Escape"]);

    // Each finding's position: pick it by its message and see where Helix jumps.
    for (message, line) in [("every request", 13), ("once per iteration", 33)] {
        tmux.wait_for("the picker closed", |s| !s.contains("severity"));
        tmux.keys(&["g", "g"]);
        tmux.wait_for("the cursor on line 1", |s| cursor_line(s) == Some(1));
        tmux.keys(&["Space", "d"]);
        tmux.wait_for("the diagnostics picker", |s| s.contains("scan-in-hot-path"));
        tmux.text(message);
        // The best match comes first, selected.
        tmux.wait_for(&format!("the picker on {message:?}"), |s| {
            picker_rows(s, "scan-in-hot-path")
                .first()
                .is_some_and(|&(selected, _, m)| selected && m.contains(message))
        });
        tmux.keys(&["Enter"]);
        tmux.wait_for(&format!("the cursor on line {line} ({message})"), |s| {
            !s.contains("severity") && cursor_line(s) == Some(line)
        });
    }
    tmux.text(":q!");
    tmux.keys(&["Enter"]);
}

#[test]
fn helix_starts_without_a_dynalint_toml_on_a_sam_project() {
    let (Some(hx), true) = (hx(), have_tmux()) else {
        return skip("helix_starts_without_a_dynalint_toml_on_a_sam_project");
    };
    // A cargo project whose only declaration is its SAM template: the root patterns
    // start the server, which binds the handler's calls to the template's table.
    let (tmp, root) = copy_of("_no-model/sam-handler");
    std::fs::write(root.join("Cargo.toml"), "[package]\nname = \"orders\"\n").unwrap();
    let tmux = start_helix(&hx, tmp.path(), &root, "src/main.rs");
    // The key condition that misses the partition key (line 16: a rejected Query
    // returns no page, so it gets no pagination warning) and the unpaginated GSI
    // read (line 22).
    tmux.wait_for("diagnostics on lines 16 and 22", |s| {
        [16, 22]
            .iter()
            .all(|&n| row(s, n).is_some_and(|r| r.starts_with('●')))
    });
    tmux.keys(&["Space", "d"]);
    let screen = tmux.wait_for("the diagnostics picker", |s| {
        !picker_rows(s, "rejected-request").is_empty()
            && !picker_rows(s, "unprojected-attribute").is_empty()
    });
    let rejected = picker_rows(&screen, "rejected-request");
    assert!(
        rejected
            .iter()
            .any(|(_, severity, m)| *severity == "ERROR" && m.contains("is rejected")),
        "{rejected:?}\n{screen}"
    );
    tmux.keys(&["Escape"]);
    tmux.text(":q!");
    tmux.keys(&["Enter"]);
}
