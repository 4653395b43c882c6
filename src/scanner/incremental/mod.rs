//! What an edit re-does (the LSP, on every keystroke): the edited file parsed again
//! reusing its last parse and re-indexed item by item, keeping the items the edit left
//! as they were (`last_parse`, `reindex`), and the link again keeping every other
//! file's operations when what the file offers the others is unchanged (`relink`,
//! with the link's lookup tables updated file by file). Above both phases: it reuses
//! the index's passes and the link's tables; neither of them knows it.

mod last_parse;
pub(super) mod reindex;
pub mod relink;

pub use last_parse::LastParse;

use crate::scanner::index::fold::HelperChains;
use crate::scanner::index::{self, ArgValues, FileIndex, Indexed};
use crate::scanner::ScanSettings;
use crate::source::SourceFile;

/// [`crate::scanner::index_file`] of an edited file, reusing the parse of its version
/// before (see [`LastParse`]); gives this version's parse, for the next edit.
pub fn index_file_again(
    file: &SourceFile,
    settings: &ScanSettings,
    last: Option<LastParse>,
) -> (FileIndex, Option<LastParse>) {
    let _ = settings;
    let mut parsed =
        match index::parse_again(&file.path, &file.text, last.as_ref().map(LastParse::parse)) {
            Indexed::Done(idx, _) => return (idx, None),
            Indexed::Parsed(parsed) => parsed,
        };
    // Indexed item by item, keeping the items the edit left as they were
    // (`reindex.rs`).
    if parsed.idx.candidate && !parsed.tree.root_node().has_error() {
        // The last parse is taken, not lent: the items the edit keeps are moved into
        // this version's, not copied (a copy of every item per keystroke).
        let (last_items, last_tree) = match last.and_then(LastParse::into_items) {
            Some((items, tree)) => (Some(items), Some(tree)),
            None => (None, None),
        };
        let last = last_items.zip(last_tree.as_ref());
        if let Some(items) = reindex::index_by_items(
            &mut parsed.idx,
            &file.text,
            &parsed.tokens,
            &parsed.tree,
            last,
        ) {
            let mut idx = parsed.idx;
            index::shrink(&mut idx);
            let kept = LastParse::new(parsed.parse_text, parsed.tree).with_items(items);
            return (idx, Some(kept));
        }
    }
    let (idx, text, tree, _) = index::index_parsed(
        &file.path,
        &file.text,
        parsed,
        HelperChains::Fold,
        ArgValues::Resolved,
    );
    (idx, Some(LastParse::new(text, tree)))
}
