//! One test per rule of movement, each on a position where the rule decides the move list.

use pao::board::{GenKind, Move, MoveList, Position, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sorted(list: &MoveList) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Legal moves of the piece on `from` (ICCS), sorted.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    let mut p = pos(fen);
    let all = p.legal_moves();
    let mut v: Vec<String> = all
        .iter()
        .map(|m| m.to_string())
        .filter(|m| m.starts_with(from))
        .collect();
    v.sort();
    v
}

fn list(moves: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn general_stays_in_the_palace() {
    assert_eq!(
        moves_from("5k3/9/9/9/9/9/9/9/9/3K5 w", "d0"),
        list(&["d0d1", "d0e0"])
    );
}

#[test]
fn advisors_move_diagonally_in_the_palace() {
    let fen = "5k3/9/9/9/9/9/9/9/4A4/3K5 w";
    assert_eq!(moves_from(fen, "e1"), list(&["e1d2", "e1f0", "e1f2"]));
}

#[test]
fn elephants_stay_home_and_respect_the_eye() {
    // c4 may not cross to a6/e6; the horse on d3 blocks the eye towards e2.
    let fen = "5k3/9/9/9/9/2B6/3N5/9/9/3K5 w";
    assert_eq!(moves_from(fen, "c4"), list(&["c4a2"]));
}

#[test]
fn horses_are_blocked_by_their_legs() {
    // Legs: e5 (rook) blocks d6/f6, d4 (cannon) blocks c5/c3; f4 and e3 are free.
    let fen = "5k3/9/9/9/4R4/3CN4/9/9/9/3K5 w";
    assert_eq!(
        moves_from(fen, "e4"),
        list(&["e4d2", "e4f2", "e4g3", "e4g5"])
    );
}

#[test]
fn cannons_slide_like_rooks_and_capture_over_one_screen() {
    // From the start: h7 (no screen) cannot be taken, h9 over the h7 screen can.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
    let expected = [
        "h2c2", "h2d2", "h2e2", "h2f2", "h2g2", "h2i2", "h2h1", "h2h3", "h2h4", "h2h5", "h2h6",
        "h2h9",
    ];
    assert_eq!(moves_from(fen, "h2"), list(&expected));
    // Two screens: nothing behind them is attacked.
    let fen = "3k5/9/9/9/C1pn1r3/9/9/9/9/4K4 w";
    let moves = moves_from(fen, "a5");
    assert!(moves.contains(&"a5d5".to_string()) && !moves.contains(&"a5f5".to_string()));
    assert!(!moves.contains(&"a5c5".to_string()));
}

#[test]
fn soldiers_move_forward_then_sideways_never_back() {
    let fen = "3k5/9/9/9/4P4/9/4P4/9/9/5K3 w";
    assert_eq!(moves_from(fen, "e3"), list(&["e3e4"]));
    assert_eq!(moves_from(fen, "e5"), list(&["e5d5", "e5e6", "e5f5"]));
    // On the last rank only sideways.
    assert_eq!(
        moves_from("3k5/4P4/9/9/9/9/9/9/9/5K3 w", "e8"),
        list(&["e8d8", "e8e9", "e8f8"])
    );
    assert_eq!(
        moves_from("4P4/3k5/9/9/9/9/9/9/9/5K3 w", "e9"),
        list(&["e9d9", "e9f9"])
    );
}

#[test]
fn generals_may_not_face_each_other() {
    // The horse between the generals may not leave the file.
    assert_eq!(
        moves_from("4k4/9/9/9/9/4N4/9/9/9/4K4 w", "e4"),
        Vec::<String>::new()
    );
    // The general may not step onto the open file of the other.
    assert_eq!(
        moves_from("3k5/9/9/9/9/9/9/9/9/4K4 w", "e0"),
        list(&["e0e1", "e0f0"])
    );
}

#[test]
fn moves_that_leave_the_general_attacked_are_illegal() {
    // A pinned rook moves only along the pin.
    let fen = "3k5/4r4/9/9/9/9/4R4/9/9/4K4 w";
    assert_eq!(
        moves_from(fen, "e3"),
        list(&["e3e1", "e3e2", "e3e4", "e3e5", "e3e6", "e3e7", "e3e8"])
    );
    // Becoming a cannon's screen is illegal.
    let fen = "3k5/9/4c4/9/9/9/9/R8/9/4K4 w";
    assert!(!moves_from(fen, "a2").contains(&"a2e2".to_string()));
    assert!(moves_from(fen, "a2").contains(&"a2d2".to_string()));
    // The rook on f1 holds the leg of the horse on g1: it may only take the horse.
    assert_eq!(
        moves_from("3k5/9/9/9/9/9/9/9/5Rn2/4K4 w", "f1"),
        list(&["f1g1"])
    );
}

#[test]
fn in_check_only_evasions_are_legal() {
    let mut p = pos("3k5/9/9/9/4r4/9/9/9/9/4K4 w");
    assert!(p.in_check());
    assert_eq!(sorted(&p.legal_moves()), list(&["e0f0"]));
    // Block, capture or step aside: every reply found by the slow reference too.
    let mut p = pos("3k5/9/9/9/4r4/9/2R6/9/9/3AK4 w");
    assert!(p.in_check());
    assert_eq!(sorted(&p.legal_moves()), sorted(&p.legal_moves_reference()));
    assert_eq!(sorted(&p.legal_moves()), list(&["c3e3", "d0e1", "e0f0"]));
}

#[test]
fn checkmate_and_stalemate_leave_no_move() {
    let mut mate = pos("3aka3/9/9/9/4C4/4C4/9/9/9/3K5 b");
    assert!(mate.in_check() && mate.has_no_legal_move());
    let mut stalemate = pos("4k4/3R5/9/9/9/9/9/9/9/5K3 b");
    assert!(!stalemate.in_check() && stalemate.has_no_legal_move());
}

#[test]
fn pseudo_legality_of_foreign_moves() {
    let fens = pao::bench::parse_fens(pao::bench::BENCH_FENS);
    for fen in fens {
        let mut p = pos(fen);
        let legal = p.legal_moves();
        let mut all = MoveList::new();
        p.generate_pseudo(GenKind::All, &mut all);
        for raw in 0..(1u16 << 14) {
            let Some(m) = Move::from_raw(raw) else {
                continue;
            };
            assert_eq!(p.is_pseudo_legal(m), all.contains(m), "{fen} {m}");
            assert_eq!(p.is_legal(m), legal.contains(m), "{fen} {m}");
        }
    }
    // Wrong side, blocked horse, cannon capture without a screen.
    let p = Position::startpos();
    let sq = |s: &str| -> Square {
        pao::board::parse_move(&format!("{s}a0"), pao::board::RankBase::Zero)
            .map(|m| m.from())
            .unwrap_or(Square::from_index(0))
    };
    for (from, to) in [("h9", "g7"), ("b0", "d1"), ("h2", "h7")] {
        assert!(
            !p.is_pseudo_legal(Move::new(sq(from), sq(to))),
            "{from}{to}"
        );
    }
}

#[test]
fn capture_and_quiet_generation_partition_all_moves() {
    for fen in pao::bench::parse_fens(pao::bench::BENCH_FENS) {
        let mut p = pos(fen);
        let (mut all, mut caps, mut quiets) = (MoveList::new(), MoveList::new(), MoveList::new());
        p.generate_pseudo(GenKind::All, &mut all);
        p.generate_pseudo(GenKind::Captures, &mut caps);
        p.generate_pseudo(GenKind::Quiets, &mut quiets);
        let mut union: Vec<String> = sorted(&caps);
        union.extend(sorted(&quiets));
        union.sort();
        assert_eq!(union, sorted(&all), "{fen}");
        assert!(caps.iter().all(|&m| p.is_capture(m)));
        let mut legal_caps = MoveList::new();
        p.generate_legal_captures(&mut legal_caps);
        let legal = p.legal_moves();
        let expected: Vec<String> = {
            let mut v: Vec<String> = legal
                .iter()
                .filter(|&&m| p.is_capture(m))
                .map(|m| m.to_string())
                .collect();
            v.sort();
            v
        };
        assert_eq!(sorted(&legal_caps), expected, "{fen}");
        for &m in legal.iter() {
            let gives = p.gives_check(m);
            p.make_move(m);
            assert_eq!(gives, p.in_check(), "{fen} {m}");
            p.unmake_move();
        }
    }
}
