//! FEN in and out, and move text in both rank numberings.

use pao::board::{format_move, parse_move, MoveTextError, Position, RankBase, START_FEN};

fn fens() -> Vec<String> {
    let mut all: Vec<String> = pao::bench::parse_fens(include_str!("data/bench.fens"))
        .into_iter()
        .map(str::to_string)
        .collect();
    for line in include_str!("data/perft.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
    {
        if let Some(fen) = line.split('\t').next() {
            all.push(fen.to_string());
        }
    }
    all
}

#[test]
fn round_trips() {
    for fen in fens() {
        let pos = Position::from_fen(&fen).expect("reference FEN");
        assert_eq!(pos.to_fen(), fen, "written back exactly");
        let again = Position::from_fen(&pos.to_fen()).expect("own FEN");
        assert_eq!(again, pos);
        assert_eq!(again.key(), pos.key());
    }
}

#[test]
fn accepted_variants() {
    let start = Position::from_fen(START_FEN).expect("start");
    let placement = START_FEN.split(' ').next().expect("placement");
    for variant in [
        format!("{placement} r - - 0 1"),
        format!("{placement} w"),
        placement.to_string(),
        START_FEN
            .replace('n', "h")
            .replace('N', "H")
            .replace('b', "e")
            .replace('B', "E")
            .replacen(" e ", " w ", 1),
    ] {
        let pos = Position::from_fen(&variant).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_eq!(pos.key(), start.key(), "{variant}");
    }
    let black = Position::from_fen(&format!("{placement} b - - 0 1")).expect("black to move");
    assert_ne!(black.key(), start.key());
    assert_eq!(black.side_to_move(), pao::board::Color::Black);
}

fn error(fen: &str) -> String {
    Position::from_fen(fen).expect_err("rejected").to_string()
}

#[test]
fn every_error_says_what_and_where() {
    assert_eq!(error(""), "empty FEN");
    assert_eq!(error("rnbakabnr/9/1c5c1 w"), "FEN has 3 ranks, expected 10");
    assert_eq!(
        error("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w"),
        "FEN rank 0 has 10 files, expected 9"
    );
    assert_eq!(
        error("rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        "FEN rank 8 has 8 files, expected 9"
    );
    assert_eq!(
        error("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w"),
        "unknown letter 'X' in FEN rank 0"
    );
    assert_eq!(
        error("9/9/9/9/9/9/9/9/9/4K4 w"),
        "black has 0 generals, expected exactly 1"
    );
    assert_eq!(
        error("k8/9/9/9/9/9/9/9/9/4K4 w"),
        "piece 'k' on a9 can never stand there"
    );
    assert_eq!(
        error("3k1k3/9/9/9/9/9/9/9/9/4K4 w"),
        "black has 2 generals, expected exactly 1"
    );
    assert_eq!(
        error("4k4/9/9/9/9/9/9/9/9/A3K4 w"),
        "piece 'A' on a0 can never stand there"
    );
    assert_eq!(
        error("4k4/9/9/9/B8/9/9/9/9/3K5 w"),
        "piece 'B' on a5 can never stand there"
    );
    assert_eq!(
        error("3k5/9/9/9/9/9/9/9/9/2K6 w"),
        "piece 'K' on c0 can never stand there"
    );
    assert_eq!(
        error("4k4/9/9/9/9/9/9/9/9/2aK5 w"),
        "piece 'a' on c0 can never stand there"
    );
    assert_eq!(
        error("4k4/9/9/9/9/9/9/9/9/3K1b3 w"),
        "piece 'b' on f0 can never stand there"
    );
    assert_eq!(
        error("4k4/9/9/9/9/9/9/9/PPPPPP3/3K5 w"),
        "6 pieces 'P' on the board, more than a side owns"
    );
    assert_eq!(
        error("4k4/9/9/9/9/9/9/9/9/4K4 w"),
        "the generals face each other on an open file"
    );
    assert_eq!(
        error("4k4/9/9/9/4R4/9/9/9/9/3K5 w"),
        "the side not to move is in check"
    );
    assert_eq!(
        error("4k4/9/9/9/9/9/9/9/9/3K5 x"),
        "side to move 'x' is not w, r or b"
    );
    assert_eq!(
        error("4k4/9/9/9/9/9/9/9/9/3K5 w - - abc 1"),
        "move counter 'abc' is not a number"
    );
    assert_eq!(
        error("4k4/9/9/9/RRR6/9/9/9/9/3K5 w"),
        "3 pieces 'R' on the board, more than a side owns"
    );
}

#[test]
fn move_text_in_both_numberings() {
    let m = parse_move("h2e2", RankBase::Zero).expect("h2e2");
    assert_eq!(m.to_string(), "h2e2");
    assert_eq!(format_move(m, RankBase::One), "h3e3");
    assert_eq!(parse_move("h3e3", RankBase::One), Ok(m));
    let long = parse_move("b3b10", RankBase::One).expect("b3b10");
    assert_eq!(long.to_string(), "b2b9");
    assert_eq!(format_move(long, RankBase::One), "b3b10");
    assert_eq!(
        format_move(
            parse_move("a1a10", RankBase::One).expect("a1a10"),
            RankBase::Zero
        ),
        "a0a9"
    );
    for bad in ["", "h2", "z2e2", "h2e", "a0a0", "h2e2e", "h10e2", "i9j9"] {
        assert!(
            matches!(
                parse_move(bad, RankBase::Zero),
                Err(MoveTextError::Malformed(_))
            ),
            "'{bad}' should be malformed"
        );
    }
    for bad in ["a11a1", "a0a1", "b3b01"] {
        assert!(parse_move(bad, RankBase::One).is_err(), "'{bad}' base one");
    }
    let mut pos = Position::startpos();
    assert_eq!(pos.parse_legal_move("h2e2", RankBase::Zero), Ok(m));
    assert_eq!(
        pos.parse_legal_move("a0a5", RankBase::Zero),
        Err(MoveTextError::Illegal("a0a5".to_string()))
    );
}

/// Composed positions (studies, puzzles) with pieces where no game could put them: accepted,
/// and their move trees counted exactly. The counts were produced by Fairy-Stockfish (its
/// Python binding pyffish 0.0.90, legal_moves recursively) for the same FENs.
#[test]
fn composed_positions_are_accepted_and_move_correctly() {
    use pao::board::perft::perft;
    for (fen, counts) in [
        // Advisors on e9 and d8 (palace points off the diagonals), an elephant on c6, a black
        // soldier behind its start on b7, red soldiers on a2 and a0, a red elephant on d3,
        // a red advisor on d1.
        (
            "3ka4/3a5/1p7/2b6/9/1c5R1/3B5/P8/3A5/P4K3 w - - 0 1",
            [24u64, 372, 8236, 129_750],
        ),
        // A black soldier on its own back rank, an advisor on f8, an elephant on e6, a red
        // elephant on d0 and a red soldier on e0, black to move.
        (
            "3kp4/5a3/9/4b4/R8/9/9/9/4K4/3BP3r b - - 0 1",
            [18, 321, 5432, 92_432],
        ),
    ] {
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(pos.to_fen(), fen);
        for (depth, &expected) in counts.iter().enumerate() {
            assert_eq!(
                perft(&mut pos, depth as u32 + 1),
                expected,
                "{fen} depth {}",
                depth + 1
            );
        }
    }
}
