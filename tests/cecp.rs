//! Process-level CECP (xboard protocol 2) transcripts: the real binary, driven line by line
//! as XBoard drives it.

mod common;

use common::{Engine, TIMEOUT};
use pao::board::{parse_move, Position, RankBase};
use std::time::{Duration, Instant};

/// Applies `moves` (ICCS, ranks 0-9: XBoard's squares for xiangqi) to `fen` or the start.
fn play(fen: Option<&str>, moves: &[String]) -> Position {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).expect("fen"),
        None => Position::startpos(),
    };
    for m in moves {
        let mv = pos
            .parse_legal_move(m, RankBase::Zero)
            .unwrap_or_else(|e| panic!("{e} after {moves:?}"));
        pos.make_move(mv);
    }
    pos
}

/// Reads up to the engine's next `move` line and returns the move.
fn engine_move(e: &mut Engine) -> String {
    let (line, _) = e.expect_prefix("move ");
    line["move ".len()..].to_string()
}

/// Parses a thinking line `ply score time nodes pv...`; `None` for other lines.
fn thinking(line: &str) -> Option<(u32, i64, u64, u64, Vec<String>)> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.len() < 5 {
        return None;
    }
    Some((
        w[0].parse().ok()?,
        w[1].parse().ok()?,
        w[2].parse().ok()?,
        w[3].parse().ok()?,
        w[4..].iter().map(|s| s.to_string()).collect(),
    ))
}

#[test]
fn handshake_answers_protover_with_features() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let lines = e.expect_exact_eventually("feature done=1");
    let features = lines.join(" ");
    for f in [
        "myname=\"Pao ",
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "playother=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "analyze=1",
        "memory=1",
        "smp=1",
    ] {
        assert!(features.contains(f), "missing {f} in {lines:?}");
    }
    for option in [
        "feature option=\"Move Overhead -spin 30 0 10000\"",
        "feature option=\"OwnBook -check 1\"",
        "feature option=\"SearchDriver -combo *pvs /// mtdf /// sssstar /// bstar\"",
        "feature option=\"Clear Hash -button\"",
    ] {
        assert!(lines.iter().any(|l| l == option), "missing {option}");
    }
    assert!(lines.iter().all(|l| l.starts_with("feature ")), "{lines:?}");
    e.send("quit");
    assert_eq!(e.wait_exit(TIMEOUT), Some(0));
}

#[test]
fn a_game_in_force_and_go_modes_keeps_track_of_the_turn() {
    let mut e = Engine::cecp();
    // Force mode: moves of both sides are taken and answered by nothing.
    e.send("force");
    let mut moves: Vec<String> = vec!["h2e2".into(), "h9g7".into()];
    for m in &moves {
        e.send(&format!("usermove {m}"));
    }
    // `go`: the engine plays red, the side to move, and goes on playing red.
    e.send("go");
    for reply in ["b9c7", "a9a8", "i9i8"] {
        let m = engine_move(&mut e);
        let mut pos = play(None, &moves);
        assert!(pos.parse_legal_move(&m, RankBase::Zero).is_ok(), "{m}");
        moves.push(m);
        pos = play(None, &moves);
        // The reply of black, if it is legal here; else any legal black move.
        let reply = match pos.parse_legal_move(reply, RankBase::Zero) {
            Ok(_) => reply.to_string(),
            Err(_) => pos.legal_moves()[0].to_string(),
        };
        e.send(&format!("usermove {reply}"));
        moves.push(reply);
    }
    let m = engine_move(&mut e);
    assert!(play(None, &moves)
        .parse_legal_move(&m, RankBase::Zero)
        .is_ok());
    // playother from force mode: the engine plays the side not to move (black, after m).
    moves.push(m);
    e.send("force");
    e.send("playother");
    e.send("ping 2");
    e.expect_exact("pong 2");
    let mut pos = play(None, &moves);
    let red = pos.legal_moves()[0].to_string();
    moves.push(red.clone());
    e.send(&red);
    let m = engine_move(&mut e);
    assert!(play(None, &moves)
        .parse_legal_move(&m, RankBase::Zero)
        .is_ok());
}

#[test]
fn square_names_are_files_a_to_i_and_ranks_0_to_9() {
    let mut e = Engine::cecp();
    e.send("force");
    // Ranks counted from 0 on red's side, as XBoard counts them on a 10-rank board: the
    // cannon h2e2 and black's horse b9c7 are legal; their 1-10 spellings are not moves here.
    e.send("usermove h3e3");
    e.expect_exact("Illegal move: h3e3");
    e.send("usermove h2e2");
    e.send("usermove b10c8");
    e.expect_exact("Illegal move: b10c8");
    e.send("usermove b9c7");
    e.send("go");
    let m = engine_move(&mut e);
    let mut before = play(None, &["h2e2".into(), "b9c7".into()]);
    assert!(
        parse_move(&m, RankBase::Zero).is_ok_and(|mv| before.is_legal(mv)),
        "{m}"
    );
}

#[test]
fn setboard_mate_is_played_and_claimed() {
    let mut e = Engine::cecp();
    // Red mates with i0i9: the rook on h8 covers e8, the general on d0 covers d9 (the black
    // soldier keeps a stalemate from winning too).
    e.send("setboard 4k4/7R1/9/9/9/p8/9/9/9/3K4R w - - 0 1");
    e.send("go");
    let (line, _) = e.expect_prefix("move ");
    assert_eq!(line, "move i0i9");
    e.expect_exact("1-0 {Red wins (checkmate)}");
    // The engine mated: asked to move as black, it only states the result.
    e.send("new");
    e.send("force");
    e.send("setboard 4k3R/7R1/9/9/9/9/9/9/9/3K5 b - - 0 1");
    e.send("go");
    e.expect_exact("1-0 {Red wins (checkmate)}");
    e.send("ping 3");
    e.expect_exact("pong 3");
}

/// A perpetual check is not claimed (XBoard would call the claim false and forfeit it): both
/// sides play on, and XBoard rules the repetition by its own count.
#[test]
fn a_perpetual_check_is_not_claimed_and_play_goes_on() {
    // Red's rook checks from h9 and h8, black's general steps between f8 and f9 (its only
    // answers); black's soldier keeps it from being stalemated when red stops checking.
    let fen = "5k3/7R1/9/9/9/9/p8/9/9/3K5 w - - 0 1";
    let cycle = ["h8h9", "f9f8", "h9h8", "f8f9"];
    let no_claim = |e: &mut Engine, ping: u32| {
        e.send(&format!("ping {ping}"));
        let (_, before) = e.expect_prefix(&format!("pong {ping}"));
        // A claim is a result line (or a resignation, or a draw offer): none of them.
        let claims: Vec<&String> = before
            .iter()
            .filter(|l| {
                ["1-0", "0-1", "1/2-1/2", "resign", "offer draw"]
                    .iter()
                    .any(|r| l.starts_with(r))
            })
            .collect();
        assert!(claims.is_empty(), "{before:?}");
    };
    let mut e = Engine::cecp();
    e.send("force");
    e.send(&format!("setboard {fen}"));
    // Twice round: the start comes back a third time, red to move, red checking throughout.
    let twice: Vec<String> = cycle.iter().chain(&cycle).map(|m| m.to_string()).collect();
    for m in &twice {
        e.send(&format!("usermove {m}"));
    }
    e.send("go");
    let m = engine_move(&mut e);
    let mut pos = play(Some(fen), &twice);
    assert!(
        parse_move(&m, RankBase::Zero).is_ok_and(|mv| pos.is_legal(mv)),
        "{m}"
    );
    no_claim(&mut e, 1);
    // Black's engine makes the third occurrence itself (the repetition it wins by rule): its
    // move, and no claim after it.
    e.send("new");
    e.send("force");
    e.send(&format!("setboard {fen}"));
    for m in &twice[..7] {
        e.send(&format!("usermove {m}"));
    }
    e.send("go");
    assert_eq!(engine_move(&mut e), "f8f9");
    no_claim(&mut e, 2);
}

#[test]
fn a_composed_position_is_searched() {
    let mut e = Engine::cecp();
    // Soldiers behind their start, advisors and elephants off their usual points.
    let fen = "3ka4/3a5/1p7/2b6/9/1c5R1/3B5/P8/3A5/P4K3 w - - 0 1";
    e.send(&format!("setboard {fen}"));
    e.send("go");
    let m = engine_move(&mut e);
    assert!(
        play(Some(fen), &[])
            .parse_legal_move(&m, RankBase::Zero)
            .is_ok(),
        "{m}"
    );
}

#[test]
fn undo_and_remove_take_moves_back() {
    let mut e = Engine::cecp();
    e.send("force");
    e.send("undo");
    e.expect_exact("Error (command not legal now): undo");
    for m in ["h2e2", "h9g7", "h0g2"] {
        e.send(&format!("usermove {m}"));
    }
    // After undo, h0g2 can be played again; after remove, so can h2e2 and h9g7.
    e.send("undo");
    e.send("usermove h0g2");
    e.send("undo");
    e.send("remove");
    e.send("usermove h2e2");
    e.send("usermove h9g7");
    e.send("usermove h9g7");
    e.expect_exact("Illegal move: h9g7");
    e.send("ping 4");
    e.expect_exact("pong 4");
}

#[test]
fn analyze_follows_the_game_until_exit() {
    let mut e = Engine::cecp();
    e.send("force");
    e.send("post");
    e.send("analyze");
    // Thinking lines about the start position: red's moves.
    let (first, _) = e.read_until("a thinking line", |l| thinking(l).is_some());
    let (_, _, _, _, pv) = thinking(&first).expect("thinking");
    assert!(
        play(None, &[])
            .parse_legal_move(&pv[0], RankBase::Zero)
            .is_ok(),
        "{first}"
    );
    e.send(".");
    let (stat, _) = e.expect_prefix("stat01: ");
    let w: Vec<u64> = stat["stat01: ".len()..]
        .split_whitespace()
        .map(|x| x.parse().expect("number"))
        .collect();
    assert_eq!((w.len(), w[4]), (5, 44), "{stat}");
    // A move: the analysis goes on in the new position, black to move.
    e.send("usermove h2e2");
    e.send("ping 5");
    e.expect_exact_eventually("pong 5");
    let black = play(None, &["h2e2".into()]);
    for _ in 0..3 {
        let (line, _) = e.read_until("a thinking line", |l| thinking(l).is_some());
        let pv = thinking(&line).expect("thinking").4;
        assert!(
            black
                .clone()
                .parse_legal_move(&pv[0], RankBase::Zero)
                .is_ok(),
            "{line}"
        );
    }
    e.send("undo");
    e.send("ping 6");
    e.expect_exact_eventually("pong 6");
    let (line, _) = e.read_until("a thinking line", |l| thinking(l).is_some());
    let pv = thinking(&line).expect("thinking").4;
    assert!(
        play(None, &[])
            .parse_legal_move(&pv[0], RankBase::Zero)
            .is_ok(),
        "{line}"
    );
    // exit: the analysis stops; nothing follows the pong.
    e.send("exit");
    e.send("ping 7");
    e.expect_exact_eventually("pong 7");
    e.expect_silence(Duration::from_millis(500));
}

#[test]
fn ping_during_the_engines_move_is_answered_after_the_move() {
    let mut e = Engine::cecp();
    e.send("st 1");
    e.send("usermove h2e2");
    e.send("ping 8");
    let (line, _) = e.read_until("move or pong", |l| l.starts_with("move ") || l == "pong 8");
    assert!(line.starts_with("move "), "pong came before the move");
    e.expect_exact("pong 8");
}

/// A moment in a test whose searches had 30 s or more (`st`) and should move at once on `?`.
struct Since {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Since {
    fn now(e: &Engine) -> Since {
        Since {
            wall: Instant::now(),
            cpu: e.cpu_time(),
        }
    }

    /// A search left to run its time takes its 30 s by the wall, however busy the machine,
    /// and a core for as much of them as the machine gives it; searches that moved at once
    /// used little CPU, however long other jobs held the engine off the cores.
    fn assert_moved_at_once(&self, e: &Engine) {
        let took = self.wall.elapsed();
        let cpu = self.cpu(e);
        assert!(
            took < Duration::from_secs(25) && cpu.is_none_or(|c| c < Duration::from_secs(2)),
            "{took:?}, engine CPU {cpu:?}"
        );
    }

    /// The move came at once: within `bound` of wall time, or, on a runner too busy for that,
    /// with less than `bound` of the engine's CPU (one search thread): it waited for a core, it
    /// did not search on.
    fn assert_at_once(&self, e: &Engine, bound: Duration) {
        let wall = self.wall.elapsed();
        let cpu = self.cpu(e);
        assert!(
            wall < bound || cpu.is_some_and(|c| c < bound),
            "wall {wall:?}, engine CPU {cpu:?}, bound {bound:?}"
        );
    }

    /// The engine's CPU time since then; None where /proc cannot say.
    fn cpu(&self, e: &Engine) -> Option<Duration> {
        self.cpu.zip(e.cpu_time()).map(|(a, b)| b.saturating_sub(a))
    }
}

#[test]
fn question_mark_moves_now() {
    let mut e = Engine::cecp();
    e.send("st 60");
    e.send("post");
    e.send("usermove h2e2");
    e.read_until("a thinking line", |l| thinking(l).is_some_and(|t| t.0 >= 3));
    let since = Since::now(&e);
    e.send("?");
    let m = engine_move(&mut e);
    since.assert_moved_at_once(&e);
    assert!(play(None, &["h2e2".into()])
        .parse_legal_move(&m, RankBase::Zero)
        .is_ok());
}

#[test]
fn question_mark_also_moves_in_the_search_a_waiting_move_starts() {
    let mut e = Engine::cecp();
    // Long moves: the engine plays red and thinks for 30 s.
    e.send("st 30");
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    // Black's reply waits for red's move; `?` moves now, and the reply gives the engine its
    // turn again: that search moves at once as well, and the pong follows without waiting
    // for it (it once waited the whole 30 s).
    let since = Since::now(&e);
    e.send_burst(&["usermove i9i8", "?", "ping 5"]);
    let first = engine_move(&mut e);
    let second = engine_move(&mut e);
    e.expect_exact("pong 5");
    since.assert_moved_at_once(&e);
    let mut moves = vec![first];
    moves.push("i9i8".into());
    assert!(play(None, &moves)
        .parse_legal_move(&second, RankBase::Zero)
        .is_ok());
}

#[test]
fn question_mark_behind_a_clear_also_moves_in_the_search_a_waiting_go_starts() {
    let mut e = Engine::cecp();
    e.send("st 30");
    // `new` clears the table: the lines behind it wait, and the drain after the clear meets
    // the `?` while the first `go` searches, ahead of the second `go` (which waits for the
    // move). The second search, black's, moves at once too (it once ran its 30 s).
    let since = Since::now(&e);
    e.send_burst(&["new", "go", "go", "?", "ping 6"]);
    let red = engine_move(&mut e);
    let black = engine_move(&mut e);
    e.expect_exact("pong 6");
    since.assert_moved_at_once(&e);
    assert!(play(None, &[red])
        .parse_legal_move(&black, RankBase::Zero)
        .is_ok());
}

#[test]
fn question_mark_moves_a_search_that_starts_behind_other_waiting_lines() {
    let mut e = Engine::cecp();
    e.send("st 30");
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    // While red thinks: `go` (black's turn after the move), then lines that wait for the move
    // too, then `?`. The ? moves red's search at once and black's as soon as it starts, from
    // behind `variant` and `ping 3` (it once waited behind them for black's 30 s).
    let since = Since::now(&e);
    e.send_burst(&["go", "variant xiangqi", "ping 3", "?", "ping 4"]);
    let red = engine_move(&mut e);
    let black = engine_move(&mut e);
    e.expect_exact("pong 3");
    e.expect_exact("pong 4");
    since.assert_moved_at_once(&e);
    assert!(play(None, &[red])
        .parse_legal_move(&black, RankBase::Zero)
        .is_ok());
}

#[test]
fn the_clock_from_level_and_time_is_kept() {
    let mut e = Engine::cecp();
    // 2 seconds for the game: the move must come well inside the clock.
    e.send("level 0 0:02 0");
    e.send("time 200");
    e.send("otim 200");
    let since = Since::now(&e);
    e.send("usermove h2e2");
    engine_move(&mut e);
    let used = since.wall.elapsed();
    // The engine's CPU time (one search thread) judges what it spent, whatever else holds
    // the cores; the wall clock only bounds a search that never stopped.
    if let Some(cpu) = since.cpu(&e) {
        assert!(
            cpu < Duration::from_millis(1000),
            "{cpu:?} of CPU on a 2 s clock"
        );
    }
    assert!(used < Duration::from_secs(20), "{used:?} of a 2 s clock");
    // sd limits the depth of the thinking lines.
    e.send("new");
    e.send("level 0 10 0");
    e.send("sd 3");
    e.send("post");
    e.send("usermove h2e2");
    let (_, lines) = e.expect_prefix("move ");
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| thinking(l))
        .map(|t| t.0)
        .collect();
    assert_eq!(depths.last(), Some(&3), "{lines:?}");
}

/// Reads thinking lines printed after the engine's move, before any reply is sent: the ponder
/// search on the position after the expected reply (`moves` + `expected`). Returns how many
/// came while waiting (`wait`, longer while the engine has had less CPU than that and printed
/// nothing); each must be a line of that position.
fn ponder_lines(e: &mut Engine, moves: &[String], expected: &str, wait: Duration) -> usize {
    let mut after: Vec<String> = moves.to_vec();
    after.push(expected.to_string());
    let start = Instant::now();
    let cpu_at_start = e.cpu_time();
    // The engine's CPU time since the start; None where /proc cannot say.
    let cpu = |e: &Engine| {
        cpu_at_start
            .zip(e.cpu_time())
            .map(|(a, b)| b.saturating_sub(a))
    };
    let mut count = 0;
    loop {
        // Enough: `wait` has passed with a line read, or the engine has had `wait` of CPU (a
        // busy machine can hold it off the cores for longer: then its clock, not the wall's,
        // is the measure); never longer than the protocol tests' timeout.
        let waited = start.elapsed();
        let enough = count > 0 || cpu(e).is_none_or(|c| c >= wait);
        if (enough && waited >= wait) || waited >= common::TIMEOUT {
            break;
        }
        let Some(l) = e.next_line(Duration::from_millis(50)) else {
            continue;
        };
        let pv = thinking(&l)
            .unwrap_or_else(|| panic!("'{l}' while pondering: {:?}", e.transcript))
            .4;
        assert!(
            play(None, &after)
                .parse_legal_move(&pv[0], RankBase::Zero)
                .is_ok(),
            "ponder line '{l}' is not about the position after {expected}"
        );
        count += 1;
    }
    e.assert_alive();
    count
}

#[test]
fn pondering_on_the_expected_reply_and_on_another() {
    let mut e = Engine::cecp();
    e.send("hard");
    e.send("post");
    e.send("st 1");
    e.send("usermove h2e2");
    let (line, lines) = e.expect_prefix("move ");
    let mut moves: Vec<String> = vec!["h2e2".into(), line["move ".len()..].to_string()];
    // The expected reply is the second move of the last principal variation.
    let pv = lines
        .iter()
        .rev()
        .find_map(|l| thinking(l))
        .expect("thinking")
        .4;
    assert_eq!(pv[0], moves[1]);
    let expected = pv.get(1).cloned().expect("a ponder move");
    // The engine thinks on the opponent's time: thinking lines about the position after the
    // expected reply, before any reply comes.
    let pondered = ponder_lines(&mut e, &moves, &expected, Duration::from_millis(600));
    assert!(pondered > 0, "no ponder search: {:?}", e.transcript);
    e.send("time 6000");
    e.send("otim 6000");
    // The expected reply: a ponder hit, the search goes on as the engine's move, which comes
    // within its second (`st 1`) counted from the reply.
    let since = Since::now(&e);
    e.send(&format!("usermove {expected}"));
    moves.push(expected);
    let m = engine_move(&mut e);
    // Late by the wall only while the engine had less CPU than its second and the margin: it
    // waited for a core, the search did not overrun.
    since.assert_at_once(&e, Duration::from_millis(1500));
    assert!(
        play(None, &moves)
            .parse_legal_move(&m, RankBase::Zero)
            .is_ok(),
        "{m}"
    );
    moves.push(m);
    let pv = e
        .transcript
        .iter()
        .rev()
        .filter_map(|l| l.strip_prefix("< "))
        .find_map(thinking)
        .expect("thinking")
        .4;
    let expected = pv.get(1).cloned().expect("a ponder move");
    let pondered = ponder_lines(&mut e, &moves, &expected, Duration::from_millis(600));
    assert!(pondered > 0, "no ponder search: {:?}", e.transcript);
    // Another reply than the expected one: the ponder move is taken back first.
    let mut pos = play(None, &moves);
    let other = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .find(|m| *m != expected)
        .expect("another move");
    e.send(&format!("usermove {other}"));
    moves.push(other);
    let m = engine_move(&mut e);
    assert!(
        play(None, &moves)
            .parse_legal_move(&m, RankBase::Zero)
            .is_ok(),
        "{m}"
    );
}

#[test]
fn bad_input_gets_one_error_line_and_changes_nothing() {
    let mut e = Engine::cecp();
    e.send("force");
    for (bad, reply) in [
        ("frobnicate", "Error (unknown command): frobnicate"),
        ("usermove a0a5", "Illegal move: a0a5"),
        ("usermove zz", "Illegal move: zz"),
        ("i0i5", "Illegal move: i0i5"),
        (
            "level 40 x 0",
            "Error ('x' is not MIN or MIN:SEC): level 40 x 0",
        ),
        ("sd deep", "Error (depth is not a number): sd deep"),
        ("ping", "Error (missing ping number): ping"),
        (
            "variant shogi",
            "Error (only xiangqi is supported): variant shogi",
        ),
        (
            "option Bogus=1",
            "Error (unknown option 'Bogus'): option Bogus=1",
        ),
        (
            "option OwnBook=maybe",
            "Error (option OwnBook: 'maybe' is not true or false): option OwnBook=maybe",
        ),
    ] {
        e.send(bad);
        e.expect_exact(reply);
    }
    // The game is untouched: the start position, red to move.
    e.send("usermove h2e2");
    e.send("go");
    let m = engine_move(&mut e);
    assert!(play(None, &["h2e2".into()])
        .parse_legal_move(&m, RankBase::Zero)
        .is_ok());
}

#[test]
fn result_and_quit_end_the_game_without_a_move() {
    let mut e = Engine::cecp();
    e.send("st 30");
    e.send("usermove h2e2");
    std::thread::sleep(Duration::from_millis(200));
    e.send("result 1-0 {Black resigns}");
    e.send("ping 9");
    e.expect_exact("pong 9");
    e.send("quit");
    assert_eq!(e.wait_exit(TIMEOUT), Some(0));
    assert!(
        !e.transcript.iter().any(|l| l.starts_with("< move")),
        "{:?}",
        e.transcript
    );
}

#[test]
fn the_sixty_move_draw_is_offered_and_play_goes_on() {
    let mut e = Engine::cecp();
    // 125 plies without a capture: a draw by Pao's rules, which XBoard would count otherwise.
    e.send("setboard 3k5/9/9/9/9/9/9/9/4A4/4K3R w - - 125 90");
    e.send("go");
    e.expect_exact("offer draw");
    let m = engine_move(&mut e);
    let fen = "3k5/9/9/9/9/9/9/9/4A4/4K3R w - - 125 90";
    assert!(
        play(Some(fen), &[])
            .parse_legal_move(&m, RankBase::Zero)
            .is_ok(),
        "{m}"
    );
    e.send("ping 10");
    e.expect_exact("pong 10");
}

/// Reads up to `pong N`, which must come within `within`, with no `move` line before it;
/// returns the lines before it.
fn prompt_pong(e: &mut Engine, n: u32, within: Duration) -> Vec<String> {
    let start = Instant::now();
    let before = e.expect_exact_eventually(&format!("pong {n}"));
    let took = start.elapsed();
    assert!(took < within, "pong {n} after {took:?}: {:?}", e.transcript);
    assert!(
        !before.iter().any(|l| l.starts_with("move ")),
        "a move before pong {n}: {:?}",
        e.transcript
    );
    before
}

#[test]
fn force_is_not_held_up_by_a_time_control_sent_during_the_move() {
    let mut e = Engine::cecp();
    // 40 moves in 5 minutes: the engine would think for seconds on its move.
    e.send("level 40 5 0");
    // `new` clears the table, so the lines behind it wait in the queue and run from there
    // (the case that held `force` behind `st 0` until the move was made).
    e.send_burst(&["new", "go", "st 0", "force", "ping 2"]);
    prompt_pong(&mut e, 2, Duration::from_secs(1));
    // No move comes after `force` either.
    e.expect_silence(Duration::from_millis(1500));
    // `st 0` applies to the next search: the move comes at once, not after seconds.
    let since = Since::now(&e);
    e.send("go");
    let m = engine_move(&mut e);
    since.assert_at_once(&e, Duration::from_secs(1));
    assert!(Position::startpos()
        .parse_legal_move(&m, RankBase::Zero)
        .is_ok());
}

#[test]
fn a_depth_limit_sent_during_the_move_applies_to_the_next_search() {
    let mut e = Engine::cecp();
    e.send("st 30");
    e.send("post");
    e.send("go");
    e.read_until("a thinking line", |l| thinking(l).is_some());
    // Live this time: `sd 3` arrives while the engine thinks, `force` stops it.
    e.send("sd 3");
    e.send("force");
    e.send("ping 2");
    prompt_pong(&mut e, 2, Duration::from_secs(1));
    // The next search stops at depth 3, long before its 30 seconds.
    let since = Since::now(&e);
    e.send("go");
    let (_, lines) = e.expect_prefix("move ");
    let depths: Vec<u32> = lines
        .iter()
        .filter_map(|l| thinking(l))
        .map(|t| t.0)
        .collect();
    assert_eq!(depths.last(), Some(&3), "{lines:?}");
    since.assert_at_once(&e, Duration::from_secs(5));
}

#[test]
fn question_mark_new_and_quit_behind_a_time_control_act_at_once() {
    let mut e = Engine::cecp();
    e.send("level 40 5 0");
    // Each burst starts with `new`, so the lines behind it run from the queue.
    // `?` behind `sd 2`: the move comes at once, then the pong.
    let since = Since::now(&e);
    e.send_burst(&["new", "go", "sd 2", "?", "ping 2"]);
    engine_move(&mut e);
    since.assert_at_once(&e, Duration::from_secs(1));
    e.expect_exact("pong 2");
    // `new` behind `level`: the game ends at once without a move.
    e.send_burst(&["new", "go", "level 40 10 0", "new", "ping 3"]);
    prompt_pong(&mut e, 3, Duration::from_secs(1));
    // `quit` behind `st 0`: the engine exits at once.
    e.send_burst(&["new", "go", "st 0", "quit"]);
    let start = Instant::now();
    assert_eq!(e.wait_exit(TIMEOUT), Some(0));
    // The exited engine's CPU cannot be read: the bound tells an exit at once from one after
    // the search the time control would give (about 7 s), with room for a busy runner.
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
    // Everything the engine wrote: the only move is the one `?` asked for.
    while e.next_line(Duration::from_millis(100)).is_some() {}
    let moves = e.transcript.iter().filter(|l| l.starts_with("< move "));
    assert_eq!(moves.count(), 1, "{:?}", e.transcript);
}
