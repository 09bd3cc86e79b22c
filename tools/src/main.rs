//! `pao-tools`: tournament runner, thread-scaling report and book builder for xiangqi engines.

fn main() {
    eprintln!("pao-tools: no command yet");
    std::process::exit(2);
}
