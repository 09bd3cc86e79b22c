//! `pao-tools`: tools for people who test xiangqi engines, built on Pao's rules library.

mod latency;

use std::process::ExitCode;

const USAGE: &str = "usage: pao-tools judge <FEN|startpos> [moves ...]   rule on a game: ongoing, or the result and why
       pao-tools latency [--engine PATH] [--threads 1,2,16] [--runs N]   stop-to-bestmove times
       pao-tools help";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("judge") => judge(&args[1..]),
        Some("latency") => latency::run(&args[1..]),
        Some("help") | Some("--help") | Some("-h") | None => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `judge <FEN> [moves]`: the FEN may be given as several words (`... w - - 0 1`) or `startpos`;
/// moves in ICCS follow it.
fn judge(args: &[String]) -> Result<(), String> {
    let Some(first) = args.first() else {
        return Err(format!("judge needs a FEN\n{USAGE}"));
    };
    let (fen, moves) = if first == "startpos" {
        (pao::board::START_FEN.to_string(), &args[1..])
    } else {
        // The FEN is the placement plus whatever fields follow before the first move.
        let is_move = |w: &str| pao::board::parse_move(w, pao::board::RankBase::Zero).is_ok();
        let end = args
            .iter()
            .skip(1)
            .position(|w| is_move(w))
            .map_or(args.len(), |i| i + 1);
        (args[..end].join(" "), &args[end..])
    };
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    let ruling = pao::board::rules::judge(&fen, &moves)?;
    println!("{ruling}");
    Ok(())
}
