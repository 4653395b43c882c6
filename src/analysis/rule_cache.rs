//! Findings of the rules' `check_operation` kept from one run to the next.
//!
//! `check_operation` is pure over (operation, model, level): an operation equal to
//! one of the previous run — same file, span, arguments and context, so a call that
//! became hot through another file's edit is not equal — gets that run's findings
//! back without running the rules again. The LSP re-analyses a project on every
//! keystroke; with this, only the calls of the edited file are checked again.
//! Project-wide checks (`check_model`, `check_project`) always run. Each file's
//! allow comments are kept the same way, by text ([`AllowCache`]).

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::model::Model;
use crate::rules::{RuleContext, RuleSelection, REGISTRY};
use crate::scanner::{OpKind, Operation};
use crate::source::{FilePath, Span};

use crate::facts::BoundOperation;

use super::suppress::AllowCache;

type Key = (PathKey, Span, OpKind);

/// A file's path hashed and compared as its bytes: `Path`'s own hash walks its
/// components, and every operation's key is hashed twice per keystroke. Equal bytes
/// are an equal path; and a hit is still compared as a whole operation.
#[derive(Clone)]
struct PathKey(FilePath);

impl PartialEq for PathKey {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_os_str().as_encoded_bytes() == other.0.as_os_str().as_encoded_bytes()
    }
}

impl Eq for PathKey {}

impl std::hash::Hash for PathKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.as_os_str().as_encoded_bytes().hash(state);
    }
}

/// Per-rule findings of one operation, by index in [`REGISTRY`].
type Findings = Vec<Vec<Diagnostic>>;

/// What the LSP keeps from one analysis to the next.
#[derive(Default)]
pub struct RuleCache {
    pub(super) findings: FindingCache,
    pub(super) allows: AllowCache,
}

impl RuleCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of operations remembered.
    pub fn len(&self) -> usize {
        self.findings.entries.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Per-operation findings; valid for one model and rule selection, cleared when
/// they change.
#[derive(Default)]
pub(super) struct FindingCache {
    model: Option<Model>,
    only: Option<Vec<String>>,
    entries: HashMap<Key, Vec<Entry>, foldhash::fast::RandomState>,
    /// Counts runs: an entry a run used carries its number.
    run: u64,
}

struct Entry {
    op: Operation,
    findings: Findings,
    /// The last run that used it.
    used: u64,
}

impl FindingCache {
    /// The per-rule `check_operation` findings of every bound operation, in order:
    /// from the cache when the operation is unchanged, else by running the rules.
    /// Afterwards the cache holds exactly these operations.
    ///
    /// The map is kept and updated in place: a keystroke changes a few operations of
    /// hundreds, and building a new map each run (and freeing the old one, operations
    /// and all) cost more than the look-ups.
    ///
    /// `reused[i]`: `bound[i]` is an operation of the last run, as it was (the LSP's
    /// re-link says so of those it kept, `ScanResult::reused`). The only entry at its
    /// place is then that operation, found without comparing the two (comparing every
    /// operation of a workspace was most of this).
    pub(super) fn findings(
        &mut self,
        model: &Model,
        bound: &[BoundOperation<'_>],
        reused: &[bool],
        selection: &RuleSelection,
    ) -> Vec<Findings> {
        if self.model.as_ref() != Some(model) || self.only != selection.only {
            self.entries.clear();
            self.model = Some(model.clone());
            self.only = selection.only.clone();
        }
        self.run += 1;
        let run = self.run;
        let mut out = Vec::with_capacity(bound.len());
        for (i, b) in bound.iter().enumerate() {
            let key = (PathKey(b.op.file.clone()), b.op.span, b.op.kind);
            let slot = self.entries.entry(key).or_default();
            let known = reused.get(i) == Some(&true)
                && matches!(slot.as_slice(), [only] if only.used + 1 == run);
            // Two equal operations at one place (a helper's builder sent twice the
            // same way) each take an entry of their own, as they did when made.
            let hit = match known {
                true => slot.first_mut(),
                false => slot.iter_mut().find(|e| e.used != run && e.op == *b.op),
            };
            match hit {
                Some(hit) => {
                    hit.used = run;
                    out.push(hit.findings.clone());
                }
                None => {
                    let findings = check(model, b, selection);
                    out.push(findings.clone());
                    slot.push(Entry {
                        op: b.op.clone(),
                        findings,
                        used: run,
                    });
                }
            }
        }
        self.entries.retain(|_, v| {
            v.retain(|e| e.used == run);
            !v.is_empty()
        });
        out
    }
}

/// Runs every enabled rule's `check_operation` on one operation.
fn check(model: &Model, b: &BoundOperation<'_>, selection: &RuleSelection) -> Findings {
    REGISTRY
        .iter()
        .map(|rule| match selection.severity(rule.meta(), model) {
            Some(severity) => {
                let mut cx = RuleContext::new(model, *rule, severity);
                rule.check_operation(&mut cx, b);
                cx.into_diagnostics()
            }
            None => Vec::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::analysis::{analyze, Input};
    use crate::scanner::{self, ScanSettings};
    use crate::source::SourceFile;

    fn fixture() -> (Model, Vec<SourceFile>) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("test-fixtures/_lsp");
        let model = crate::model::load_file(&root.join("dynalint.toml")).unwrap();
        let files = ["main.rs", "handlers.rs", "repo.rs"]
            .iter()
            .map(|f| {
                let p = root.join("src").join(f);
                SourceFile::new(&p, std::fs::read_to_string(&p).unwrap())
            })
            .collect();
        (model, files)
    }

    fn run(model: &Model, files: &[SourceFile], cache: Option<&mut RuleCache>) -> Vec<Diagnostic> {
        let scanned = scanner::scan(files, &ScanSettings::from_model(model));
        let sel = RuleSelection::default();
        analyze(Input::new(model, files, &sel), scanned, cache).diagnostics
    }

    #[test]
    fn cached_runs_find_what_a_fresh_run_finds() {
        let (model, mut files) = fixture();
        let mut cache = RuleCache::new();
        let fresh = run(&model, &files, None);
        assert!(!fresh.is_empty());
        assert_eq!(run(&model, &files, Some(&mut cache)), fresh);
        let remembered = cache.len();
        assert!(remembered > 0);
        // Same operations: served from the cache, same answer.
        assert_eq!(run(&model, &files, Some(&mut cache)), fresh);
        assert_eq!(cache.len(), remembered);

        // Unrouting the handler (another file) changes the scan's context: the cache
        // must not hand back the stale "hot" finding.
        let main = files[0]
            .text
            .replace("get(handlers::list_posts)", "get(|| async { 1 })");
        files[0] = SourceFile::new(files[0].path.to_path_buf(), main);
        let fresh2 = run(&model, &files, None);
        assert_ne!(fresh2, fresh);
        assert_eq!(run(&model, &files, Some(&mut cache)), fresh2);
    }
}
