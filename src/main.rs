//! The `pao` command line: no arguments starts the daemon; `perft`, `bench`, `help`.

mod cli;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(cli::run(&args));
}
