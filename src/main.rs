//! The `dynalint` binary: everything lives in the library; this only exits.

// A tree of thousands of files is parsed by tree-sitter, whose C code allocates every
// syntax node: with glibc's malloc, allocation was a seventh of `check` on the 1x real
// tree (issue 16). mimalloc serves Rust's allocations, and, built to override `malloc`
// and `free` (the `override` feature), tree-sitter's too, from per-thread pages.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(dynalint::cli::main(std::env::args_os().collect()));
}
