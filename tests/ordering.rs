//! The staged move picker hands out exactly the legal moves of a node, each once, whatever the
//! hints (TT move, killers, counter-move: right, wrong or illegal here) and the switches.

use pao::board::{Move, Position};
use pao::search::heuristics::{cont_key, Heuristics, NO_CONT};
use pao::search::ordering::{MovePicker, OrderingHints};
use pao::search::SearchConfig;
use proptest::prelude::*;

fn sorted(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    let mut v: Vec<String> = moves.into_iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Drains a picker and checks it against the legal move list; returns the order handed out.
fn drain(pos: &mut Position, mut picker: MovePicker, config: &SearchConfig) -> Vec<Move> {
    let heur = Heuristics::new();
    let mut out = Vec::new();
    while let Some(m) = picker.next_move(pos, &heur, config) {
        out.push(m);
    }
    assert_eq!(picker.yielded(), out.len());
    out
}

fn check_node(pos: &mut Position, hint_picks: [usize; 4], stray: Move) {
    let legal = pos.legal_moves();
    let fen = pos.to_fen();
    let pick = |i: usize| {
        if legal.is_empty() || i % 5 == 4 {
            stray
        } else {
            legal[i % legal.len()]
        }
    };
    // A TT move is always pseudo-legal when the search hands it over.
    let tt = pick(hint_picks[0]);
    let tt = if pos.is_pseudo_legal(tt) {
        tt
    } else {
        Move::NONE
    };
    let hints = OrderingHints {
        tt_move: tt,
        killers: [pick(hint_picks[1]), pick(hint_picks[2])],
        counter: pick(hint_picks[3]),
        cont: [NO_CONT; 2],
    };
    let with_see = SearchConfig {
        see: true,
        ..SearchConfig::FULL
    };
    for config in [SearchConfig::FULL, with_see, SearchConfig::PLAIN] {
        let picker = MovePicker::new(pos, &hints, &config);
        let got = drain(pos, picker, &config);
        assert_eq!(sorted(got.clone()), sorted(legal.iter().copied()), "{fen}");
        if config.tt_move && !tt.is_none() && pos.is_legal(tt) {
            assert_eq!(got[0], tt, "TT move first in {fen}");
        }
        if config == SearchConfig::PLAIN {
            // Every switch off: generation order.
            assert_eq!(got, legal.iter().copied().collect::<Vec<_>>(), "{fen}");
        }
    }
    if pos.in_check() {
        let picker = MovePicker::evasions(pos, hints.killers, &SearchConfig::FULL);
        let got = drain(pos, picker, &SearchConfig::FULL);
        assert_eq!(sorted(got), sorted(legal.iter().copied()), "{fen}");
    } else {
        let mut captures = pao::board::MoveList::new();
        pos.generate_legal_captures(&mut captures);
        let picker = MovePicker::captures(pos);
        let got = drain(pos, picker, &SearchConfig::FULL);
        assert_eq!(sorted(got), sorted(captures.iter().copied()), "{fen}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn picker_yields_exactly_the_legal_moves(
        fen_index in 0usize..49,
        choices in proptest::collection::vec(any::<usize>(), 0..40),
        hints in any::<[usize; 4]>(),
        stray_raw in any::<u16>(),
    ) {
        let fens = pao::bench::parse_fens(pao::bench::BENCH_FENS);
        let mut pos = Position::from_fen(fens[fen_index % fens.len()]).expect("bench FEN");
        let stray = Move::from_raw(stray_raw & 0x3fff).unwrap_or(Move::NONE);
        for &c in &choices {
            check_node(&mut pos, hints, stray);
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.make_move(legal[c % legal.len()]);
        }
    }
}

#[test]
fn captures_losing_by_exchange_come_after_the_quiet_moves() {
    // The red rook on e4 can take the horse on c4 (defended by the soldier on c5: a loss) or
    // the undefended soldier on i4: first the soldier, then the quiet moves, then the horse.
    let mut pos = Position::from_fen("3k5/9/9/9/2p6/2n1R3p/9/9/9/5K3 w").expect("FEN");
    let config = SearchConfig::FULL;
    assert!(config.see, "SEE is on in the engine as it plays");
    let hints = OrderingHints {
        tt_move: Move::NONE,
        killers: [Move::NONE; 2],
        counter: Move::NONE,
        cont: [NO_CONT; 2],
    };
    let picker = MovePicker::new(&pos, &hints, &config);
    let got: Vec<String> = drain(&mut pos, picker, &config)
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(got.first().map(String::as_str), Some("e4i4"));
    assert_eq!(got.last().map(String::as_str), Some("e4c4"));
    // Without SEE the horse (the bigger victim) comes first.
    let plain = SearchConfig {
        see: false,
        ..SearchConfig::FULL
    };
    let picker = MovePicker::new(&pos, &hints, &plain);
    let got = drain(&mut pos, picker, &plain);
    assert_eq!(got[0].to_string(), "e4c4");
}

#[test]
fn captures_come_most_valuable_victim_first() {
    // Red rook on e5 can take a black rook (a9... here e9 file) or a soldier: the rook first.
    let mut pos = Position::from_fen("3k5/9/9/9/r3R3p/9/9/9/9/4K4 w").expect("FEN");
    let picker = MovePicker::captures(&pos);
    let got = drain(&mut pos, picker, &SearchConfig::FULL);
    let names: Vec<String> = got.iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["e5a5", "e5i5"]);
}

/// The quiet moves of the start position in the order a picker hands them out after the
/// opponent's move `prev` (piece `prev_piece`), with `heur` and the continuation-history switch.
fn quiet_order(heur: &Heuristics, cont_history: bool, prev: [usize; 2]) -> Vec<String> {
    let mut pos = Position::startpos();
    let config = SearchConfig {
        cont_history,
        ..SearchConfig::FULL
    };
    let hints = OrderingHints {
        tt_move: Move::NONE,
        killers: [Move::NONE; 2],
        counter: Move::NONE,
        cont: prev,
    };
    let mut picker = MovePicker::new(&pos, &hints, &config);
    let mut out = Vec::new();
    while let Some(m) = picker.next_move(&mut pos, heur, &config) {
        if !pos.is_capture(m) {
            out.push(m.to_string());
        }
    }
    out
}

/// The moving piece and the move `text` in `fen`.
fn piece_and_move(fen: &str, text: &str) -> (pao::board::Piece, Move) {
    let mut pos = Position::from_fen(fen).expect("FEN");
    let m = pos
        .parse_legal_move(text, pao::board::RankBase::Zero)
        .expect("legal");
    (pos.piece_at(m.from()).expect("piece"), m)
}

#[test]
fn continuation_history_orders_the_quiet_move_that_answered_the_previous_move() {
    let red = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    // Pretend black's last move was h9g7 and, two plies back, red's b0c2.
    let (bp, bm) = piece_and_move(black, "h9g7");
    let (rp, rm) = piece_and_move(red, "b0c2");
    let prev = [cont_key(bp, bm), cont_key(rp, rm)];
    let mut heur = Heuristics::new();
    // Reward, after h9g7 only, the quiet move handed out last with no history at all.
    let plain = quiet_order(&heur, true, prev);
    let target = plain.last().expect("quiet moves").clone();
    let (p, m) = piece_and_move(red, &target);
    heur.update_cont_history(prev[0], p, m, 2000);
    let with = quiet_order(&heur, true, prev);
    assert_eq!(with[0], target);
    // Switched off, or after another previous move, the entry is not read.
    let without = quiet_order(&heur, false, prev);
    assert_eq!(without, plain);
    let other = quiet_order(&heur, true, [NO_CONT, prev[1]]);
    assert_eq!(other, plain);
    // The same moves either way, only a0a1's place differs.
    let mut a = with.clone();
    let mut b = without.clone();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

/// The captures of `fen` in the order quiescence's picker hands them out.
fn capture_order(fen: &str, heur: &Heuristics) -> Vec<String> {
    let mut pos = Position::from_fen(fen).expect("FEN");
    let mut picker = MovePicker::captures(&pos);
    let mut out = Vec::new();
    while let Some(m) = picker.next_move(&mut pos, heur, &SearchConfig::FULL) {
        out.push(m.to_string());
    }
    out
}

#[test]
fn captures_of_like_victims_come_cheaper_attacker_first_whatever_the_history() {
    // The rook (b0) and the horse (c3) can both take the soldier on b5.
    let fen = "4k4/9/9/9/1p7/9/2N6/9/9/1R1K5 w - - 0 1";
    let mut heur = Heuristics::new();
    assert_eq!(capture_order(fen, &heur), ["c3b5", "b0b5"]);
    // Captures are ordered by MVV-LVA alone: a history of the rook's move changes nothing.
    let (p, m) = piece_and_move(fen, "b0b5");
    heur.update_history(p, m, 16384);
    assert_eq!(capture_order(fen, &heur), ["c3b5", "b0b5"]);
}
