//! The language server's incremental analysis (each file's index kept, the link
//! reused when an edit leaves what a file offers the others unchanged) must find
//! exactly what a check from scratch finds. Random edits to the files of
//! `test-fixtures/_lsp-edits/` (calls whose table, heat and loops come from other
//! files, builders returned to and finished by callers, a table-name parameter
//! followed through two calls to what they pass), each followed by an incremental
//! analysis and a full one of the same texts.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dynalint::model::Model;
use dynalint::project::{Analyzed, Cancel, Project};
use dynalint::rules::RuleSelection;
use dynalint::source::SourceFile;
use proptest::prelude::*;

const FILES: &[&str] = &[
    "src/main.rs",
    "src/names.rs",
    "src/repo.rs",
    "src/handlers.rs",
    "src/bin/backfill.rs",
];

fn root() -> PathBuf {
    std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("test-fixtures/_lsp-edits"))
        .unwrap()
}

/// One edit: in file `file`, at the `at`-th char boundary (mod the length), remove
/// `remove` chars and insert `text`.
#[derive(Debug, Clone)]
struct Edit {
    file: usize,
    at: usize,
    remove: usize,
    text: String,
}

fn edit() -> impl Strategy<Value = Edit> {
    // Mostly what typing does: a character, a space, a new line, a comment; now and
    // then a bracket or quote that breaks the syntax.
    let text = prop_oneof![
        4 => Just("x".to_string()),
        2 => Just(" ".to_string()),
        2 => Just("\n".to_string()),
        1 => Just("// note\n".to_string()),
        1 => Just("_".to_string()),
        1 => Just("(".to_string()),
        1 => Just("}".to_string()),
        1 => Just("\"".to_string()),
        1 => Just(String::new()),
        // A function added (or, with `remove`, a few characters of one cut).
        1 => Just("\nfn added(t: &str) -> usize { tally(t) }\n".to_string()),
    ];
    (0..FILES.len(), any::<usize>(), 0usize..3, text).prop_map(|(file, at, remove, text)| Edit {
        file,
        at,
        remove,
        text,
    })
}

fn apply(text: &str, e: &Edit) -> String {
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let start = bounds[e.at % bounds.len()];
    let end = bounds
        .iter()
        .copied()
        .filter(|b| *b >= start)
        .nth(e.remove)
        .unwrap_or(text.len());
    format!("{}{}{}", &text[..start], e.text, &text[end..])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn incremental_diagnostics_are_those_of_a_full_check(edits in prop::collection::vec(edit(), 1..8)) {
        let root = root();
        let mut project = Project::watched(root.join("dynalint.toml"), None);
        let mut texts: BTreeMap<PathBuf, String> = FILES
            .iter()
            .map(|f| {
                let p = root.join(f);
                let t = std::fs::read_to_string(&p).unwrap();
                (p, t)
            })
            .collect();
        project.analyze_edits(&[], None, &Cancel::new()).unwrap();
        for e in &edits {
            let path = root.join(FILES[e.file]);
            let next = apply(&texts[&path], e);
            texts.insert(path, next);
            // Every file is open in the editor, as after a few edits in each.
            let open: Vec<SourceFile> = texts
                .iter()
                .map(|(p, t)| SourceFile::new(p.clone(), t.as_str()))
                .collect();
            let refs: Vec<&SourceFile> = open.iter().collect();
            project.analyze_edits(&refs, None, &Cancel::new()).unwrap();
            let incremental = &project.snapshot().unwrap().analysis;
            let full = full_analysis(project.loaded_model().unwrap(),
                &open,
                &RuleSelection::default());
            prop_assert_eq!(&incremental.operations, &full.operations, "after {:?}", e);
            prop_assert_eq!(&incremental.diagnostics, &full.diagnostics, "after {:?}", e);
            prop_assert_eq!(&incremental.problems, &full.problems, "after {:?}", e);
            // The snapshot's texts (what hover, quick fixes and publishing read) are
            // the edited ones, and only the project's files and its model.
            let snap = project.snapshot().unwrap();
            prop_assert_eq!(snap.files.len(), texts.len() + 1);
            for (p, t) in &texts {
                prop_assert_eq!(snap.file(p).map(|f| &*f.text), Some(t.as_str()));
            }
        }
    }
}

/// The edits above do take the incremental path: a new line in a comment (every
/// function after it moves, and so do the hot chain and the loop that calls in other
/// files cite), a character in a body, and a call's argument that a parameter in
/// another file is followed to (the files that read it are linked again).
#[test]
fn an_edit_inside_a_comment_or_body_reuses_the_link() {
    let root = root();
    let read = |f: &str| std::fs::read_to_string(root.join(f)).unwrap();
    let (repo, handlers) = (read("src/repo.rs"), read("src/handlers.rs"));
    for (file, edited) in [
        (
            "src/repo.rs",
            repo.replacen("//! Data access", "//!\n//! Data access", 1),
        ),
        (
            "src/repo.rs",
            repo.replacen("out.count() as usize", "out.count()  as usize", 1),
        ),
        (
            "src/handlers.rs",
            handlers.replacen("//! Request handlers.", "//! Request\n//! handlers.", 1),
        ),
        (
            "src/handlers.rs",
            handlers.replacen("(&client, \"Orders\")", "(&client, \"Ordres\")", 1),
        ),
        (
            "src/handlers.rs",
            handlers.replacen("let mut n = 0;", "let mut nx = 0;", 1),
        ),
    ] {
        let mut project = Project::watched(root.join("dynalint.toml"), None);
        project.analyze_edits(&[], None, &Cancel::new()).unwrap();
        assert!(!project.link_was_incremental());
        let file = SourceFile::new(root.join(file), edited);
        project
            .analyze_edits(&[&file], None, &Cancel::new())
            .unwrap();
        assert!(project.link_was_incremental(), "{}", file.path.display());
        let full = full_analysis(
            project.loaded_model().unwrap(),
            &project_files(&root, &file),
            &RuleSelection::default(),
        );
        let snap = project.snapshot().unwrap();
        assert_eq!(snap.analysis.diagnostics, full.diagnostics);
        assert_eq!(snap.analysis.operations, full.operations);
        assert!(!full.diagnostics.is_empty());
    }
}

fn project_files(root: &Path, edited: &SourceFile) -> Vec<SourceFile> {
    FILES
        .iter()
        .map(|f| {
            let p = root.join(f);
            if p == *edited.path {
                edited.clone()
            } else {
                SourceFile::new(p.clone(), std::fs::read_to_string(&p).unwrap())
            }
        })
        .collect()
}

/// Edits one after another on one project, as typing makes them: each analysis reuses
/// what the one before kept (the link's operations are lent to the snapshot and given
/// back), and each must be what a check from scratch of the same texts finds: a
/// comment, a body, a table's name, a call added (a whole link), then a comment again
/// (incremental once more).
#[test]
fn successive_edits_match_a_check_from_scratch() {
    let root = root();
    let repo = std::fs::read_to_string(root.join("src/repo.rs")).unwrap();
    let steps: Vec<(String, bool)> = {
        let comment = repo.replacen("/// Every order:", "/// Every orderx:", 1);
        let body = comment.replacen("out.count() as usize", "out.count()  as usize", 1);
        let table = body.replacen(
            ".table_name(&self.table)\n            .key(",
            ".table_name(\"Users\")\n            .key(",
            1,
        );
        let call = table.replacen(
            "    pub async fn save(",
            "    pub async fn again(&self) -> usize {\n        let out = self.client.scan().table_name(ORDERS_TABLE).send().await.unwrap();\n        out.count() as usize\n    }\n\n    pub async fn save(",
            1,
        );
        let comment_again = call.replacen("/// Every orderx:", "/// Every order:", 1);
        vec![
            (comment, true),
            (body, true),
            (table, false),
            (call, false),
            (comment_again, true),
        ]
    };
    let mut project = Project::watched(root.join("dynalint.toml"), None);
    project.analyze_edits(&[], None, &Cancel::new()).unwrap();
    for (i, (text, incremental)) in steps.into_iter().enumerate() {
        assert_ne!(text, repo, "step {i} edits nothing");
        let file = SourceFile::new(root.join("src/repo.rs"), text);
        project
            .analyze_edits(&[&file], None, &Cancel::new())
            .unwrap();
        if incremental {
            assert!(project.link_was_incremental(), "step {i}");
        }
        let full = full_analysis(
            project.loaded_model().unwrap(),
            &project_files(&root, &file),
            &RuleSelection::default(),
        );
        let snap = project.snapshot().unwrap();
        assert_eq!(snap.analysis.diagnostics, full.diagnostics, "step {i}");
        assert_eq!(snap.analysis.operations, full.operations, "step {i}");
    }
}

/// A whole analysis of `files`, from scratch, through the project host.
fn full_analysis(model: &Model, files: &[SourceFile], selection: &RuleSelection) -> Analyzed {
    Project::in_memory(model.clone(), files.to_vec())
        .analyze(selection, &|_, _, _| {}, &Cancel::new())
        .expect("never cancelled")
}

/// A file the pre-filter rules out (it names no SDK marker) that starts calling a
/// helper whose table parameter is followed: a check reads that file again for what
/// its call passes (the helper is linked once per caller), and so must the LSP,
/// whether the file is whole or broken by the edit (inside its `//!`, as a random
/// case of the test above once found).
#[test]
fn a_new_call_in_a_ruled_out_file_is_read_for_its_arguments() {
    let root = root();
    let names = root.join("src/names.rs");
    let text = std::fs::read_to_string(&names).unwrap();
    let added = "\nfn added(t: &str) -> usize { tally(t) }\n";
    for edited in [format!("{text}{added}"), format!("/{added}{}", &text[1..])] {
        let mut project = Project::watched(root.join("dynalint.toml"), None);
        project.analyze_edits(&[], None, &Cancel::new()).unwrap();
        let file = SourceFile::new(names.clone(), edited);
        project
            .analyze_edits(&[&file], None, &Cancel::new())
            .unwrap();
        let full = full_analysis(
            project.loaded_model().unwrap(),
            &project_files(&root, &file),
            &RuleSelection::default(),
        );
        let snap = project.snapshot().unwrap();
        assert_eq!(snap.analysis.operations, full.operations);
        assert_eq!(snap.analysis.diagnostics, full.diagnostics);
    }
}

/// A call of the followed helper added to a file the pre-filter rules out, broken by
/// the same edit (its `//!` cut to `/!`), then a handler broken: its closing brace cut
/// (every function after it is nested in the one before), or the followed helper's
/// parameter list. The incremental analysis of each step must be a full check's
/// (random cases of the test above found the second step losing the table of the
/// chains `by_status` returns).
#[test]
fn a_handler_broken_after_a_ruled_out_file_gained_a_call() {
    let root = root();
    let names = root.join("src/names.rs");
    let handlers = root.join("src/handlers.rs");
    let names_text = std::fs::read_to_string(&names).unwrap();
    let handlers_text = std::fs::read_to_string(&handlers).unwrap();
    let names_edited = format!(
        "\nfn added(t: &str) -> usize {{ tally(t) }}\n{}",
        &names_text[1..]
    );
    for (cut, by) in [
        ("+ shipped\n}\n", "+ shipped\nx\n"),
        ("Client, table: &str", "Clientxtable: &str"),
    ] {
        let handlers_edited = handlers_text.replacen(cut, by, 1);
        assert_ne!(handlers_edited, handlers_text);
        let mut project = Project::watched(root.join("dynalint.toml"), None);
        project.analyze_edits(&[], None, &Cancel::new()).unwrap();
        let mut open: Vec<SourceFile> = FILES
            .iter()
            .map(|f| {
                let p = root.join(f);
                SourceFile::new(p.clone(), std::fs::read_to_string(&p).unwrap())
            })
            .collect();
        for (i, (path, text)) in [(&names, &names_edited), (&handlers, &handlers_edited)]
            .into_iter()
            .enumerate()
        {
            for f in open.iter_mut().filter(|f| *f.path == **path) {
                *f = SourceFile::new(path.clone(), text.clone());
            }
            let refs: Vec<&SourceFile> = open.iter().collect();
            project.analyze_edits(&refs, None, &Cancel::new()).unwrap();
            let full = full_analysis(
                project.loaded_model().unwrap(),
                &open,
                &RuleSelection::default(),
            );
            let snap = project.snapshot().unwrap();
            assert_eq!(snap.analysis.operations, full.operations, "{by:?} step {i}");
            assert_eq!(
                snap.analysis.diagnostics, full.diagnostics,
                "{by:?} step {i}"
            );
        }
    }
}
