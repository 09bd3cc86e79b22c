//! `pao-tools book build|show`: Pao's own opening book from game records, and a look inside
//! any book (Pao's or ElephantEye's BOOK.DAT).

use pao::board::{Position, START_FEN};
use pao::book::builder::{build, parse_games, BuildOptions};
use pao::book::Book;

/// Help text.
pub fn usage() -> String {
    "usage: pao-tools book build <games.pgn | games.txt> -o book.bin [--min-games N] [--max-ply N]\n\
     \x20      pao-tools book show <FEN|startpos> [--book FILE]\n\
     build: games as PGN (ICCS moves, [Result], optional [FEN]) or one per line as\n\
     `<1-0|0-1|1/2-1/2> <moves ...>`; weight = 2 x wins + draws for the side that moved,\n\
     positions within the first --max-ply plies (default 20), moves seen in at least\n\
     --min-games games (default 2).\n\
     show: the book moves of a position with their weights (default book: book.bin).\n"
        .to_string()
}

/// Runs `book build` or `book show`.
pub fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("build") => build_cmd(&args[1..]),
        Some("show") => show_cmd(&args[1..]),
        _ => Err(usage()),
    }
}

fn build_cmd(args: &[String]) -> Result<(), String> {
    let mut input: Option<&str> = None;
    let mut output: Option<&str> = None;
    let mut options = BuildOptions::default();
    let mut i = 0;
    while i < args.len() {
        let value = || {
            args.get(i + 1)
                .map(String::as_str)
                .ok_or(format!("{} needs a value", args[i]))
        };
        match args[i].as_str() {
            "-o" | "--output" => output = Some(value()?),
            "--min-games" => {
                options.min_games = value()?.parse().map_err(|_| "--min-games needs a number")?
            }
            "--max-ply" => {
                options.max_ply = value()?.parse().map_err(|_| "--max-ply needs a number")?
            }
            other if input.is_none() && !other.starts_with('-') => {
                input = Some(other);
                i += 1;
                continue;
            }
            other => return Err(format!("unexpected argument '{other}'")),
        }
        i += 2;
    }
    let input = input.ok_or("book build needs a games file")?;
    let output = output.ok_or("book build needs -o <book.bin>")?;
    let text = std::fs::read_to_string(input).map_err(|e| format!("cannot read '{input}': {e}"))?;
    let games = parse_games(&text)?;
    let entries = build(&games, &options)?;
    std::fs::write(output, Book::pao_bytes(&entries))
        .map_err(|e| format!("cannot write '{output}': {e}"))?;
    println!(
        "{} games, {} book entries written to {output}",
        games.len(),
        entries.len()
    );
    Ok(())
}

fn show_cmd(args: &[String]) -> Result<(), String> {
    let mut book_path = "book.bin".to_string();
    let mut fen_words: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--book" {
            book_path = args.get(i + 1).ok_or("--book needs a file")?.clone();
            i += 2;
        } else {
            fen_words.push(&args[i]);
            i += 1;
        }
    }
    let fen = match fen_words.as_slice() {
        [] => return Err("book show needs a FEN or startpos".to_string()),
        ["startpos"] => START_FEN.to_string(),
        words => words.join(" "),
    };
    let mut pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN: {e}"))?;
    let book = Book::open(&book_path)?;
    let moves = book.moves(&mut pos);
    if moves.is_empty() {
        println!("not in book");
    }
    for b in moves {
        println!("{} {}", b.mv, b.weight);
    }
    Ok(())
}
