//! `cargo dynalint …`: cargo runs this as `cargo-dynalint dynalint …`.
fn main() {
    let argv = dynalint::cli::cargo_shim_args(std::env::args_os().collect());
    std::process::exit(dynalint::cli::main(argv));
}
