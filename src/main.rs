//! The `dynalint` binary: everything lives in the library; this only exits.
fn main() {
    std::process::exit(dynalint::cli::main(std::env::args_os().collect()));
}
