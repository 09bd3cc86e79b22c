//! `pao-tools book build|show`: Pao's own opening book from game records, and a look inside
//! any book (Pao's or ElephantEye's BOOK.DAT).

use crate::common::Failure;
use pao::board::{Position, START_FEN};
use pao::book::builder::{build, parse_games, BuildOptions};
use pao::book::Book;

/// `pao-tools book`: Pao's opening book from game records, or the moves a book holds.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(clap::Subcommand, Debug)]
enum BookCommand {
    /// Build a book from games: PGN (ICCS moves, [Result], optional [FEN]) or one game per line
    /// as `<1-0|0-1|1/2-1/2> <moves ...>`; a move weighs 2 x wins + draws of the side that
    /// played it
    Build(BuildArgs),
    /// The book moves of a position with their weights (Pao's book or ElephantEye's BOOK.DAT)
    Show(ShowArgs),
}

#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// The games file
    #[arg(value_name = "GAMES")]
    input: String,
    /// The book file to write
    #[arg(short = 'o', long = "output", value_name = "BOOK")]
    output: String,
    /// A move needs this many games
    #[arg(long = "min-games", value_name = "N", default_value_t = BuildOptions::default().min_games)]
    min_games: u32,
    /// Only positions within this many plies of the start
    #[arg(long = "max-ply", value_name = "N", default_value_t = BuildOptions::default().max_ply)]
    max_ply: usize,
}

#[derive(clap::Args, Debug)]
struct ShowArgs {
    /// A FEN (as several words) or `startpos`
    #[arg(value_name = "FEN|startpos", required = true, num_args = 1..)]
    fen: Vec<String>,
    /// The book file
    #[arg(long, value_name = "FILE", default_value = "book.bin")]
    book: String,
}

impl BookArgs {
    /// Whether it only prints a report or a listing (`main.rs` says what that changes).
    pub fn only_prints(&self) -> bool {
        matches!(self.command, BookCommand::Show(_))
    }
}

/// Runs `book build` or `book show`.
pub fn run(args: BookArgs) -> Result<(), Failure> {
    match args.command {
        BookCommand::Build(a) => build_cmd(a),
        BookCommand::Show(a) => show_cmd(a),
    }
}

fn build_cmd(args: BuildArgs) -> Result<(), Failure> {
    let options = BuildOptions {
        min_games: args.min_games,
        max_ply: args.max_ply,
    };
    let (input, output) = (&args.input, &args.output);
    let text = std::fs::read_to_string(input)
        .map_err(|e| Failure::Usage(format!("cannot read '{input}': {e}")))?;
    let games = parse_games(&text).map_err(Failure::Usage)?;
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

fn show_cmd(args: ShowArgs) -> Result<(), Failure> {
    let fen = match args.fen.as_slice() {
        [one] if one == "startpos" => START_FEN.to_string(),
        words => words.join(" "),
    };
    let mut pos = Position::from_fen(&fen).map_err(|e| Failure::Usage(format!("bad FEN: {e}")))?;
    let book = Book::open(&args.book).map_err(Failure::Usage)?;
    let moves = book.moves(&mut pos);
    if moves.is_empty() {
        println!("not in book");
    }
    for b in moves {
        println!("{} {}", b.mv, b.weight);
    }
    Ok(())
}
