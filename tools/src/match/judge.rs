//! `pao-tools judge <FEN|startpos> [moves ...]`: the ruling on a game by Pao's rules.

use crate::common::Failure;

/// `pao-tools judge`: plays the moves (ICCS, ranks 0-9) and prints `ongoing`, or `red wins` /
/// `black wins` / `draw` with the reason (checkmate, stalemate, perpetual check, perpetual
/// chase, repetition, sixty-move rule, insufficient material).
#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    /// A FEN (as several words) or `startpos`, then the moves
    #[arg(value_name = "FEN|startpos [MOVES]", required = true, num_args = 1..)]
    words: Vec<String>,
}

/// The FEN may be given as several words (`... w - - 0 1`) or `startpos`; moves follow it.
pub fn run(args: JudgeArgs) -> Result<(), Failure> {
    let args = &args.words;
    let Some(first) = args.first() else {
        return Err(Failure::Usage("needs a FEN".to_string()));
    };
    let (fen, moves) = if first == "startpos" {
        (pao::board::START_FEN.to_string(), &args[1..])
    } else {
        let is_move = |w: &str| pao::board::parse_move(w, pao::board::RankBase::Zero).is_ok();
        let end = args
            .iter()
            .skip(1)
            .position(|w| is_move(w))
            .map_or(args.len(), |i| i + 1);
        (args[..end].join(" "), &args[end..])
    };
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    let ruling = pao::board::rules::judge(&fen, &moves).map_err(Failure::Usage)?;
    println!("{ruling}");
    Ok(())
}
