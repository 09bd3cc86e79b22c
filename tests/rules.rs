//! Game-result rules: every ruling of `tests/data/rules.tsv`, plus mate, stalemate, the
//! sixty-move rule, insufficient material and the judge's output and errors.

use pao::board::chase::chased_pieces;
use pao::board::rules::{
    find_repetition, game_result, judge, most_checks_since_capture, repetition_verdict,
    sixty_move_rule_reached, GameResult, Reason, RepetitionVerdict,
};
use pao::board::{Color, Position, RankBase};

struct Ruling {
    line: usize,
    fen: String,
    moves: Vec<String>,
    over: bool,
    result: String,
    case: String,
}

fn rulings() -> Vec<Ruling> {
    let text = include_str!("data/rules.tsv");
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "line {}: {line}", i + 1);
        rows.push(Ruling {
            line: i + 1,
            fen: cols[0].to_string(),
            moves: cols[1].split_whitespace().map(str::to_string).collect(),
            over: cols[2] == "True",
            result: cols[3].to_string(),
            case: cols[4].to_string(),
        });
    }
    rows
}

fn play(fen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen).expect("test FEN");
    for m in moves {
        let mv = pos
            .parse_legal_move(m, RankBase::Zero)
            .expect("legal test move");
        pos.make_move(mv);
    }
    pos
}

/// The ruling of one row, as the data file words it.
fn ruling_of(pos: &mut Position) -> (bool, String) {
    let side = pos.side_to_move();
    match game_result(pos) {
        GameResult::Ongoing => (false, "ongoing".into()),
        GameResult::Draw { .. } => (true, "draw".into()),
        GameResult::Win { winner, .. } if winner == side => (true, "side-to-move-wins".into()),
        GameResult::Win { .. } => (true, "side-to-move-loses".into()),
    }
}

#[test]
fn data_file_has_32_rulings() {
    assert_eq!(rulings().len(), 32);
}

/// Checks row `index` (0-based, comments skipped) of the data file.
fn check_row(index: usize) {
    let rows = rulings();
    let r = &rows[index];
    let moves: Vec<&str> = r.moves.iter().map(String::as_str).collect();
    let mut pos = play(&r.fen, &moves);
    assert_eq!(
        ruling_of(&mut pos),
        (r.over, r.result.clone()),
        "line {} ({})",
        r.line,
        r.case
    );
}

macro_rules! ruling_tests {
    ($($name:ident: $index:expr,)*) => {
        $(
            #[test]
            fn $name() {
                check_row($index);
            }
        )*
    };
}

ruling_tests! {
    ruling_01: 0,
    ruling_02: 1,
    ruling_03: 2,
    ruling_04: 3,
    ruling_05: 4,
    ruling_06: 5,
    ruling_07: 6,
    ruling_08: 7,
    ruling_09: 8,
    ruling_10: 9,
    ruling_11: 10,
    ruling_12: 11,
    ruling_13: 12,
    ruling_14: 13,
    ruling_15: 14,
    ruling_16: 15,
    ruling_17: 16,
    ruling_18: 17,
    ruling_19: 18,
    ruling_20: 19,
    ruling_21: 20,
    ruling_22: 21,
    ruling_23: 22,
    ruling_24: 23,
    ruling_25: 24,
    ruling_26: 25,
    ruling_27: 26,
    ruling_28: 27,
    ruling_29: 28,
    ruling_30: 29,
    ruling_31: 30,
    ruling_32: 31,
}

#[test]
fn replaying_a_cycle_restores_the_position() {
    for r in rulings() {
        let moves: Vec<&str> = r.moves.iter().map(String::as_str).collect();
        let mut pos = play(&r.fen, &moves);
        let copy = pos.clone();
        let _ = game_result(&mut pos);
        assert_eq!(pos, copy, "line {}", r.line);
        assert_eq!(pos.history().len(), moves.len());
    }
}

#[test]
fn game_is_not_over_before_the_third_occurrence() {
    // Direct chase by cannon: the position after the first move recurs after moves 5 and 9.
    let r = &rulings()[0];
    let moves: Vec<&str> = r.moves.iter().map(String::as_str).collect();
    let mut pos = play(&r.fen, &moves[..8]);
    assert_eq!(game_result(&mut pos), GameResult::Ongoing);
    let mut pos = play(&r.fen, &moves[..5]);
    assert_eq!(game_result(&mut pos), GameResult::Ongoing);
    // ...but the search's first-repetition verdict already sees red's chase.
    assert_eq!(
        repetition_verdict(&mut pos),
        Some(RepetitionVerdict::WinForSideToMove)
    );
    assert_eq!(find_repetition(&mut pos, 2).map(|r| r.distance), Some(4));
    assert_eq!(find_repetition(&mut pos, 3), None);
}

#[test]
fn no_repetition_in_a_fresh_position() {
    let mut pos = Position::startpos();
    assert_eq!(repetition_verdict(&mut pos), None);
    assert_eq!(game_result(&mut pos), GameResult::Ongoing);
}

#[test]
fn checkmate_loses() {
    // The a8 rook holds the eighth rank, the other rook checks on the ninth.
    let mut pos = play("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", &["b0b9"]);
    assert!(pos.in_check());
    assert_eq!(
        game_result(&mut pos),
        GameResult::Win {
            winner: Color::Red,
            reason: Reason::Checkmate
        }
    );
}

#[test]
fn stalemate_loses() {
    // Black's general on d9 is not in check: d8 is covered by the rook on c8, e9 by the red
    // general along the open e-file (flying general), and black has nothing else.
    let mut pos = Position::from_fen("3k5/2R6/9/9/9/9/9/9/9/4K4 b - - 0 1").expect("FEN");
    assert!(!pos.in_check());
    assert_eq!(
        game_result(&mut pos),
        GameResult::Win {
            winner: Color::Red,
            reason: Reason::Stalemate
        }
    );
    assert_eq!(game_result(&mut pos).to_string(), "red wins (stalemate)");
}

#[test]
fn sixty_moves_without_capture_draw() {
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 119 80";
    let mut before = Position::from_fen(fen).expect("FEN");
    assert_eq!(game_result(&mut before), GameResult::Ongoing);
    let mut pos = play(fen, &["e1f1"]);
    assert_eq!(pos.plies_since_capture(), 120);
    assert_eq!(
        game_result(&mut pos),
        GameResult::Draw {
            reason: Reason::SixtyMoveRule
        }
    );
}

#[test]
fn sixty_move_limit_stretches_past_ten_checks() {
    assert!(!sixty_move_rule_reached(119, 0));
    assert!(sixty_move_rule_reached(120, 0));
    assert!(sixty_move_rule_reached(120, 10));
    assert!(!sixty_move_rule_reached(120, 11));
    assert!(!sixty_move_rule_reached(121, 11));
    assert!(sixty_move_rule_reached(122, 11));
    assert!(!sixty_move_rule_reached(129, 15));
    assert!(sixty_move_rule_reached(130, 15));
}

/// `first`, then the first `plies - 1` moves of a repeated four-move shuttle.
fn shuttle(first: &'static str, moves: [&'static str; 4], plies: usize) -> Vec<&'static str> {
    std::iter::once(first)
        .chain((0..plies - 1).map(|i| moves[i % 4]))
        .collect()
}

/// Red checks with every move: the rook follows the general between e9 and e8.
fn checking(plies: usize) -> Vec<&'static str> {
    shuttle("a0a9", ["e9e8", "a9a8", "e8e9", "a8a9"], plies)
}

#[test]
fn quiet_shuffling_hits_the_sixty_move_rule_first() {
    // 22 quiet plies from a clock of 98: the limit is reached before the repetition rules.
    let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 98 80";
    let mut pos = play(fen, &shuttle("a0a1", ["e9e8", "a1a0", "e8e9", "a0a1"], 22));
    assert_eq!(pos.plies_since_capture(), 120);
    assert_eq!(
        game_result(&mut pos),
        GameResult::Draw {
            reason: Reason::SixtyMoveRule
        }
    );
}

#[test]
fn checks_beyond_the_tenth_stretch_the_limit() {
    // The same count, but every red move checks: 11 checks stretch the limit to 122 plies,
    // so the perpetual check is what ends the game.
    let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 98 80";
    let mut pos = play(fen, &checking(22));
    assert_eq!(pos.plies_since_capture(), 120);
    assert_eq!(most_checks_since_capture(&pos), 11);
    assert_eq!(
        game_result(&mut pos),
        GameResult::Win {
            winner: Color::Black,
            reason: Reason::PerpetualCheck
        }
    );
    // Ten checks count like any move: from a clock of 100, 20 plies with 10 checks draw.
    let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 100 80";
    let mut pos = play(fen, &checking(20));
    assert_eq!(most_checks_since_capture(&pos), 10);
    assert_eq!(
        game_result(&mut pos),
        GameResult::Draw {
            reason: Reason::SixtyMoveRule
        }
    );
}

#[test]
fn insufficient_material_draws() {
    let mut pos = Position::from_fen("3aka3/9/4b4/9/9/9/9/4B4/4A4/3K5 w - - 0 1").expect("FEN");
    assert_eq!(
        game_result(&mut pos),
        GameResult::Draw {
            reason: Reason::InsufficientMaterial
        }
    );
    // One soldier anywhere keeps the game going.
    let mut pos = Position::from_fen("3aka3/9/4b4/9/9/9/p8/4B4/4A4/3K5 w - - 0 1").expect("FEN");
    assert_eq!(game_result(&mut pos), GameResult::Ongoing);
}

#[test]
fn judge_output_strings() {
    let rows = rulings();
    let text = |r: &Ruling| {
        let moves: Vec<&str> = r.moves.iter().map(String::as_str).collect();
        judge(&r.fen, &moves)
    };
    assert_eq!(text(&rows[0]), Ok("black wins (perpetual chase)".into()));
    assert_eq!(text(&rows[1]), Ok("black wins (perpetual chase)".into()));
    assert_eq!(text(&rows[3]), Ok("draw (repetition)".into()));
    assert_eq!(text(&rows[6]), Ok("red wins (perpetual check)".into()));
    assert_eq!(text(&rows[15]), Ok("draw (perpetual check)".into()));
    assert_eq!(text(&rows[5]), Ok("draw (perpetual chase)".into()));
    assert_eq!(
        judge(pao::board::START_FEN, &["h2e2", "h9g7"]),
        Ok("ongoing".into())
    );
    assert_eq!(
        judge("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", &["b0b9"]),
        Ok("red wins (checkmate)".into())
    );
}

#[test]
fn judge_errors_name_the_bad_move() {
    let err = judge(pao::board::START_FEN, &["h2e2", "h2e2"]).unwrap_err();
    assert!(err.starts_with("move 2 (h2e2): "), "{err}");
    assert!(err.contains("illegal"), "{err}");
    let err = judge(pao::board::START_FEN, &["h2e2", "zz99"]).unwrap_err();
    assert!(err.starts_with("move 2 (zz99): "), "{err}");
    let err = judge("not a fen", &[]).unwrap_err();
    assert!(err.starts_with("bad FEN"), "{err}");
}

#[test]
fn chased_pieces_of_a_cannon_move() {
    // Row 1: the red cannon goes to a2 and, over the a5 soldier, attacks the black rook on a7:
    // a cannon attacking a rook chases it even though the rook is protected.
    let r = &rulings()[0];
    let mut pos = Position::from_fen(&r.fen).expect("FEN");
    let mv = pos.parse_legal_move("c2a2", RankBase::Zero).expect("legal");
    pos.make_move(mv);
    let a7 = 1u128 << (7 * 9);
    assert_eq!(chased_pieces(&mut pos, mv), a7);
    // Not the last move: nothing is reported.
    let other = pos.parse_legal_move("a7b7", RankBase::Zero).expect("legal");
    assert_eq!(chased_pieces(&mut pos, other), 0);
    // Soldiers attack freely: b5b6 attacks the rook on b7 but chases nothing.
    pos.make_move(other);
    let soldier = pos.parse_legal_move("b5b6", RankBase::Zero).expect("legal");
    pos.make_move(soldier);
    assert_eq!(chased_pieces(&mut pos, soldier), 0);
}
