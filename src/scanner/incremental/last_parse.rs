//! What the LSP keeps of an open file's last parse so that its next version's index
//! reuses it: the parse itself (tree-sitter re-parses a one-character edit of a
//! 2,000-line file in a fraction of a first parse's time) and the file's index item by
//! item, whose items the edit left as they were are kept.

use tree_sitter::Tree;

use crate::scanner::incremental::reindex::ItemIndexes;

/// A file's last parse, which the caller keeps so that the parse of the file's next
/// version reuses it: the LSP indexes an open file again on every keystroke, and
/// tree-sitter parses a one-character edit of a 2,000-line file in a fraction of a
/// full parse's time.
#[derive(Clone)]
pub struct LastParse {
    /// The text parsed (the shadow or sparse text, not the file's own).
    text: Vec<u8>,
    tree: Tree,
    /// The file's index item by item, when it was made so (`reindex.rs`): the next
    /// version's re-index keeps the items an edit leaves as they were.
    items: Option<ItemIndexes>,
}

impl LastParse {
    pub(super) fn new(text: Vec<u8>, tree: Tree) -> Self {
        Self {
            text,
            tree,
            items: None,
        }
    }

    /// This parse, with the index made from it item by item.
    pub(super) fn with_items(self, items: ItemIndexes) -> Self {
        Self {
            items: Some(items),
            ..self
        }
    }

    /// The index made from this parse item by item, if it was, with the tree parsed
    /// (of the shadow text, whose offsets are the file's): taken, so that the next
    /// version's re-index moves the items it keeps instead of copying them.
    pub(super) fn into_items(self) -> Option<(ItemIndexes, Tree)> {
        Some((self.items?, self.tree))
    }

    /// The index made from this parse item by item, if it was.
    #[cfg(test)]
    pub(super) fn items(&self) -> Option<&ItemIndexes> {
        self.items.as_ref()
    }

    /// The text parsed and its tree, for `parse_reusing_within`.
    pub(super) fn parse(&self) -> (&[u8], &Tree) {
        (&self.text, &self.tree)
    }

    /// How many items the re-index that made this parse's index kept from the last
    /// one (`None` when it was indexed whole).
    pub fn items_kept(&self) -> Option<usize> {
        self.items.as_ref().map(|i| i.kept)
    }
}
