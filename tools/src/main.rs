//! `pao-tools`: tournament runner, thread-scaling report and book builder for xiangqi engines.

mod adjudication;
mod book_cmd;
mod clock;
mod engine;
mod fake_engine;
mod game;
mod judge;
mod latency;
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
mod soak;
mod spec;
mod state;
mod stats;
mod tournament;
mod wdlfit;

/// A subcommand: its name, one line of help, the full help, and its entry point.
struct Command {
    name: &'static str,
    summary: &'static str,
    usage: fn() -> String,
    run: fn(&[String]) -> Result<(), String>,
    hidden: bool,
}

const fn command(
    name: &'static str,
    summary: &'static str,
    usage: fn() -> String,
    run: fn(&[String]) -> Result<(), String>,
) -> Command {
    Command {
        name,
        summary,
        usage,
        run,
        hidden: false,
    }
}

/// Every subcommand. Adding one is one row here (plus its `mod` line above), e.g.
/// `command("book", "build an opening book", book_cmd::usage, book_cmd::run),`.
#[rustfmt::skip]
const COMMANDS: &[Command] = &[
    command("match", "engine-versus-engine tournaments (UCCI/UCI)", match_cmd::usage, match_cmd::run),
    command("scaling", "thread-scaling report from `pao bench` (CSV, SVG, table)", scaling::usage, scaling::run),
    command("book", "build Pao's opening book from games, or show a book's moves", book_cmd::usage, book_cmd::run),
    command("judge", "rule on a game: ongoing, or who won and why", judge::usage, judge::run),
    command("latency", "stop-to-bestmove times at several thread counts", latency::usage, latency::run),
    command("wdlfit", "fit UCI_ShowWDL's win/draw/loss model to match PGNs", wdlfit::usage, wdlfit::run),
    command("soak", "long go-infinite run: memory, counters, depth > 100, a PASS/FAIL line", soak::usage, soak::run),
    Command { hidden: true, ..command("fake-engine", "scripted engine for tests", fake_engine::usage, fake_engine::run) },
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
