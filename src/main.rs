//! The `pao` command line: no arguments starts the daemon; `perft`, `bench`, `help`.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
