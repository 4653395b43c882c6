//! What both phases read the text with, knowing nothing of DynamoDB: the tokenizer
//! and the macro shadow text (`lex`), the per-thread tree-sitter parser and the reuse
//! of a file's last parse (`parse`), helpers over tree-sitter nodes with the tree's
//! parent links (`nodes`), local name lookup (`scope`) and the interned names every
//! index keeps (`names`). Nothing here imports the index, the link or the LSP's
//! incremental path.

pub mod lex;
pub mod names;
pub mod nodes;
pub mod parse;
pub mod scope;
