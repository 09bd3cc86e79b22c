//! `pao-tools`: tournament runner, thread-scaling report and book builder for xiangqi engines.

mod adjudication;
mod clock;
mod engine;
mod fake_engine;
mod game;
mod match_cmd;
mod openings;
mod pgn;
mod player;
mod plot;
mod progress;
mod protocol;
mod referee;
mod report;
mod scaling;
mod schedule;
mod spec;
mod state;
mod stats;
mod tournament;

/// A subcommand: its name, one line of help, the full help, and its entry point.
struct Command {
    name: &'static str,
    summary: &'static str,
    usage: fn() -> String,
    run: fn(&[String]) -> Result<(), String>,
    hidden: bool,
}

/// Every subcommand. Adding one (`judge`, `book`) is one row here, plus its `mod` line.
const COMMANDS: &[Command] = &[
    Command {
        name: "match",
        summary: "engine-versus-engine tournaments (UCCI/UCI)",
        usage: match_cmd::usage,
        run: match_cmd::run,
        hidden: false,
    },
    Command {
        name: "scaling",
        summary: "thread-scaling report from `pao bench` (CSV, SVG, table)",
        usage: scaling::usage,
        run: scaling::run,
        hidden: false,
    },
    Command {
        name: "fake-engine",
        summary: "scripted engine for tests",
        usage: || {
            "pao-tools fake-engine --proto ucci|uci [--behaviour random|illegal|crash|hang|garbage|nobestmove|slow] [--after N] [--delay-ms MS] [--seed S] [--variant] [--no-millisec]".to_string()
        },
        run: fake_engine::run,
        hidden: true,
    },
];

fn help(topic: Option<&str>) -> String {
    if let Some(c) = topic.and_then(|t| COMMANDS.iter().find(|c| c.name == t)) {
        return (c.usage)();
    }
    let mut s = String::from("usage: pao-tools <command> [arguments]\ncommands:\n");
    for c in COMMANDS.iter().filter(|c| !c.hidden) {
        s.push_str(&format!("  {:<10} {}\n", c.name, c.summary));
    }
    s.push_str("  help [COMMAND]  this text, or a command's options\n");
    s
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let status = match args.first().map(String::as_str) {
        None | Some("help") | Some("--help") | Some("-h") => {
            print!("{}", help(args.get(1).map(String::as_str)));
            if args.is_empty() {
                2
            } else {
                0
            }
        }
        Some(name) => match COMMANDS.iter().find(|c| c.name == name) {
            Some(c) => match (c.run)(&args[1..]) {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("pao-tools {name}: {e}");
                    1
                }
            },
            None => {
                eprintln!("pao-tools: unknown command '{name}'\n{}", help(None));
                2
            }
        },
    };
    std::process::exit(status);
}
