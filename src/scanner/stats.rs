//! What a scan worked on and how long each phase took, for `check --stats`: the
//! figures that show where a large tree's time goes (see `benches/realcode.rs`).

use std::sync::Arc;
use std::time::Duration;

use super::FileIndex;

/// Counts and phase times of one scan. Times are zero when a caller links indexes it
/// kept (the LSP) rather than scanning.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScanStats {
    /// Files indexed.
    pub files: usize,
    /// Files the byte pre-filter let through, parsed in full for calls.
    pub parsed: usize,
    /// Files the pre-filter ruled out: tokenized, with only their items parsed.
    pub skipped_by_prefilter: usize,
    /// Of those, the files whose items were not parsed when indexed (`deferred.rs`):
    /// the link parses them only when it looks up a name they hold (counted in
    /// `reparsed` then).
    pub deferred: usize,
    /// Files never read past their header, an SDK's generated code
    /// (`index::generated_sdk_code`).
    pub generated_sdk: usize,
    /// Files parsed again at link time (they chain a helper's builder: skipped by the
    /// pre-filter, or indexed lean).
    pub reparsed: usize,
    /// Functions in the call graph.
    pub functions: usize,
    /// Call names in the call graph (each function's distinct callees).
    pub call_edges: usize,
    /// Operations the link produced.
    pub operations: usize,
    /// Time spent indexing every file (tokenize, pre-filter, parse, fold).
    pub index: Duration,
    /// Time spent linking (cross-file resolution, hot/cold, loops at call sites).
    pub link: Duration,
}

impl ScanStats {
    /// The counts of a set of file indexes (times and link figures left at zero).
    pub fn count(files: &[Arc<FileIndex>]) -> Self {
        let mut s = Self {
            files: files.len(),
            ..Self::default()
        };
        for f in files {
            if f.generated {
                s.generated_sdk += 1;
            } else if f.candidate {
                s.parsed += 1;
            } else {
                s.skipped_by_prefilter += 1;
                s.deferred += usize::from(f.deferred.is_some());
            }
            s.functions += f.fns.len();
            s.call_edges += f.fns.iter().map(|n| n.calls.len()).sum::<usize>();
        }
        s
    }
}
