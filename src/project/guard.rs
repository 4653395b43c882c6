//! Analysis behind `catch_unwind`: a panic while analysing one file must cost that
//! file's findings, not the server.
//!
//! The whole project is analysed at once (the call graph crosses files). When that
//! panics, each file is analysed alone to find the culprit(s), and the project is
//! analysed again without them. Panics are rare, so the extra work only happens then.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::analysis::Analysis;
use crate::source::{FilePath, SourceFile};

/// A file whose analysis panicked, and the panic's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crash {
    pub file: FilePath,
    pub message: String,
}

/// An analysis and the files left out of it because they made it panic.
#[derive(Debug, Default)]
pub struct Guarded {
    pub analysis: Analysis,
    pub crashed: Vec<Crash>,
}

/// Runs `analyze` over `files`, isolating the files that make it panic.
pub fn analyze_guarded(
    files: &[SourceFile],
    analyze: &dyn Fn(&[SourceFile]) -> Analysis,
) -> Guarded {
    let first = match catch_unwind(AssertUnwindSafe(|| analyze(files))) {
        Ok(analysis) => {
            return Guarded {
                analysis,
                crashed: Vec::new(),
            }
        }
        Err(payload) => panic_message(payload.as_ref()),
    };
    let mut crashed = Vec::new();
    let mut healthy = Vec::new();
    for f in files {
        match catch_unwind(AssertUnwindSafe(|| analyze(std::slice::from_ref(f)))) {
            Ok(_) => healthy.push(f.clone()),
            Err(payload) => crashed.push(Crash {
                file: f.path.clone(),
                message: panic_message(payload.as_ref()),
            }),
        }
    }
    match catch_unwind(AssertUnwindSafe(|| analyze(&healthy))) {
        Ok(analysis) => Guarded { analysis, crashed },
        // Only the combination panics: no file can be blamed, so every file is.
        Err(payload) => {
            let message = format!(
                "{} (the project panics as a whole; first: {first})",
                panic_message(payload.as_ref())
            );
            Guarded {
                analysis: Analysis::default(),
                crashed: files
                    .iter()
                    .map(|f| Crash {
                        file: f.path.clone(),
                        message: message.clone(),
                    })
                    .collect(),
            }
        }
    }
}

/// The text of a panic payload (`panic!("..")` gives a `&str` or a `String`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-text payload".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Category, Diagnostic, Severity};
    use crate::source::Span;

    /// One finding per file, and a panic for files containing `boom`.
    fn fake(files: &[SourceFile]) -> Analysis {
        let mut a = Analysis::default();
        for f in files {
            assert!(!f.text.contains("boom"), "analysis blew up on purpose");
            a.diagnostics.push(Diagnostic::new(
                "scan-in-hot-path",
                Category::Perf,
                Severity::Warning,
                f.path.clone(),
                Span::new(0, 1),
                "x",
            ));
        }
        a
    }

    #[test]
    fn a_panicking_file_is_isolated_and_the_rest_is_analysed() {
        let files = vec![
            SourceFile::new("/p/a.rs", "fine"),
            SourceFile::new("/p/b.rs", "boom"),
            SourceFile::new("/p/c.rs", "fine"),
        ];
        let g = analyze_guarded(&files, &fake);
        assert_eq!(g.crashed.len(), 1);
        assert_eq!(&*g.crashed[0].file, std::path::Path::new("/p/b.rs"));
        assert!(g.crashed[0].message.contains("blew up on purpose"));
        assert_eq!(g.analysis.diagnostics.len(), 2);
    }

    #[test]
    fn no_panic_means_one_plain_run() {
        let files = vec![SourceFile::new("/p/a.rs", "fine")];
        let g = analyze_guarded(&files, &fake);
        assert!(g.crashed.is_empty());
        assert_eq!(g.analysis.diagnostics.len(), 1);
    }
}
