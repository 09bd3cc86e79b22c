//! `pao-tools judge <FEN|startpos> [moves ...]`: the ruling on a game by Pao's rules.

/// Help text.
pub fn usage() -> String {
    "usage: pao-tools judge <FEN|startpos> [moves ...]\n\
     Plays the moves (ICCS, ranks 0-9) and prints `ongoing`, or `red wins` / `black wins` /\n\
     `draw` with the reason (checkmate, stalemate, perpetual check, perpetual chase,\n\
     repetition, sixty-move rule, insufficient material).\n"
        .to_string()
}

/// The FEN may be given as several words (`... w - - 0 1`) or `startpos`; moves follow it.
pub fn run(args: &[String]) -> Result<(), String> {
    let Some(first) = args.first() else {
        return Err(format!("needs a FEN\n{}", usage()));
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
    println!("{}", pao::board::rules::judge(&fen, &moves)?);
    Ok(())
}
