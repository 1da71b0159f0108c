//! `freshlab`: the command-line face of the laboratory (see `freshlab help`).

mod cli;

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if let Err(failure) = cli::main_with(&argv) {
        eprintln!("freshlab: {}", failure.message);
        std::process::exit(failure.code);
    }
}
