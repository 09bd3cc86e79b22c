//! The command parser: exact typed results for every command form, exact errors for bad
//! input, and a property test that no line, random or mutated, makes it panic.

use pao::board::{parse_move, RankBase, START_FEN};
use pao::protocol::{parse_command, Command, Dialect, GoParams, ParseContext};
use proptest::prelude::*;

fn ctx(dialect: Dialect) -> ParseContext {
    ParseContext {
        dialect: Some(dialect),
        rank_base: RankBase::Zero,
        usemillisec: true,
    }
}

fn parse(line: &str, d: Dialect) -> Command {
    parse_command(line, &ctx(d))
        .expect("parses")
        .expect("a command")
}

fn error(line: &str, d: Dialect) -> String {
    parse_command(line, &ctx(d))
        .expect_err("rejected")
        .to_string()
}

fn mv(s: &str, base: RankBase) -> pao::board::Move {
    parse_move(s, base).expect("move")
}

#[test]
fn simple_commands() {
    use Command::*;
    for (line, cmd) in [
        ("ucci", Ucci),
        ("uci", Uci),
        ("  isready\r", IsReady),
        ("ucinewgame", NewGame),
        ("stop", Stop),
        ("QUIT", Quit),
        ("bye", Quit),
        ("ponderhit", PonderHit { draw: false }),
        ("ponderhit draw", PonderHit { draw: true }),
    ] {
        assert_eq!(parse(line, Dialect::Ucci), cmd, "{line}");
    }
    assert_eq!(parse_command("   ", &ctx(Dialect::Ucci)), Ok(None));
}

#[test]
fn positions_with_moves_in_both_rank_bases() {
    let cmd = parse("position startpos moves h2e2 h9g7", Dialect::Ucci);
    assert_eq!(
        cmd,
        Command::Position {
            fen: START_FEN.to_string(),
            moves: vec![mv("h2e2", RankBase::Zero), mv("h9g7", RankBase::Zero)]
        }
    );
    let one = ParseContext {
        rank_base: RankBase::One,
        ..ctx(Dialect::Uci)
    };
    let cmd = parse_command("position startpos moves h3e3 h10g8", &one).expect("ok");
    assert_eq!(
        cmd,
        Some(Command::Position {
            fen: START_FEN.to_string(),
            moves: vec![mv("h2e2", RankBase::Zero), mv("h9g7", RankBase::Zero)]
        })
    );
    let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    assert_eq!(
        parse(&format!("position fen {fen} moves a0a9"), Dialect::Ucci),
        Command::Position {
            fen: fen.to_string(),
            moves: vec![mv("a0a9", RankBase::Zero)]
        }
    );
}

#[test]
fn setoption_forms() {
    assert_eq!(
        parse("setoption hashsize 128", Dialect::Ucci),
        Command::SetOption {
            name: "hashsize".into(),
            value: "128".into()
        }
    );
    assert_eq!(
        parse("setoption bookfiles a.dat;b.dat", Dialect::Ucci),
        Command::SetOption {
            name: "bookfiles".into(),
            value: "a.dat;b.dat".into()
        }
    );
    assert_eq!(
        parse("setoption name Move Overhead value 50", Dialect::Uci),
        Command::SetOption {
            name: "Move Overhead".into(),
            value: "50".into()
        }
    );
    assert_eq!(
        parse("setoption name Clear Hash", Dialect::Uci),
        Command::SetOption {
            name: "Clear Hash".into(),
            value: "".into()
        }
    );
}

#[test]
fn go_variants() {
    let go = |line: &str, d: Dialect| match parse(line, d) {
        Command::Go(p) => p,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        go("go depth 7", Dialect::Ucci),
        GoParams {
            depth: Some(7),
            ..GoParams::default()
        }
    );
    assert_eq!(
        go("go", Dialect::Ucci),
        GoParams {
            infinite: true,
            ..GoParams::default()
        }
    );
    assert_eq!(
        go(
            "go ponder time 60000 increment 1000 opptime 50000 oppincrement 1000",
            Dialect::Ucci
        ),
        GoParams {
            ponder: true,
            time: Some(60000),
            increment: Some(1000),
            opptime: Some(50000),
            oppincrement: Some(1000),
            ..GoParams::default()
        }
    );
    assert_eq!(
        go("go draw time 300 movestogo 40", Dialect::Ucci),
        GoParams {
            draw: true,
            time: Some(300),
            movestogo: Some(40),
            ..GoParams::default()
        }
    );
    // Seconds when usemillisec is off.
    let secs = ParseContext {
        usemillisec: false,
        ..ctx(Dialect::Ucci)
    };
    assert_eq!(
        parse_command("go time 30 increment 2", &secs).expect("ok"),
        Some(Command::Go(GoParams {
            time: Some(30_000),
            increment: Some(2_000),
            ..GoParams::default()
        }))
    );
    assert_eq!(
        go(
            "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5",
            Dialect::Uci
        ),
        GoParams {
            wtime: Some(1000),
            btime: Some(2000),
            winc: Some(10),
            binc: Some(20),
            movestogo: Some(5),
            ..GoParams::default()
        }
    );
    assert_eq!(
        go("go nodes 5000", Dialect::Uci),
        GoParams {
            nodes: Some(5000),
            ..GoParams::default()
        }
    );
    assert_eq!(
        go("go movetime 250", Dialect::Uci),
        GoParams {
            movetime: Some(250),
            ..GoParams::default()
        }
    );
}

#[test]
fn banmoves_and_probe() {
    assert_eq!(
        parse("banmoves h2e2 b2e2", Dialect::Ucci),
        Command::BanMoves(vec![mv("h2e2", RankBase::Zero), mv("b2e2", RankBase::Zero)])
    );
    assert_eq!(
        parse("probe startpos moves h2e2", Dialect::Ucci),
        Command::Probe {
            fen: START_FEN.to_string(),
            moves: vec![mv("h2e2", RankBase::Zero)]
        }
    );
}

#[test]
fn errors_name_the_problem() {
    let u = Dialect::Ucci;
    assert_eq!(error("foo bar", u), "unknown command 'foo'");
    assert_eq!(
        error("position startpos moves h2e2 h9h0", u),
        "position: illegal move 'h9h0' at position 2 in moves"
    );
    assert_eq!(
        error("position startpos moves h2x2", u),
        "position: malformed move 'h2x2' at position 1 in moves"
    );
    assert_eq!(
        error("position fen 9/9 w", u),
        "position: bad FEN: FEN has 2 ranks, expected 10"
    );
    assert_eq!(
        error("position", u),
        "position: expected 'startpos' or 'fen <FEN>'"
    );
    assert_eq!(
        error("go depth abc", u),
        "go: 'depth' needs a non-negative number, got 'abc'"
    );
    assert_eq!(
        error("go depth -1", u),
        "go: 'depth' needs a non-negative number, got '-1'"
    );
    assert_eq!(error("go depth", u), "go: 'depth' needs a number");
    assert_eq!(
        error("go nodes 99999999999999999999999", u),
        "go: 'nodes' needs a non-negative number, got '99999999999999999999999'"
    );
    assert_eq!(
        error("go sideways 3", u),
        "go: unknown parameter 'sideways'"
    );
    assert_eq!(
        error("go ponder draw time 5", u),
        "go: 'ponder' and 'draw' exclude each other"
    );
    assert_eq!(
        error("banmoves h2e2 q1", u),
        "banmoves: malformed move 'q1' at position 2"
    );
    assert_eq!(error("ponderhit now", u), "ponderhit: unexpected 'now'");
    assert_eq!(error("setoption", u), "setoption: missing option name");
}

const VALID: [&str; 8] = [
    "position startpos moves h2e2 h9g7 h0g2",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2",
    "go time 60000 increment 1000 opptime 60000 oppincrement 1000",
    "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 3",
    "setoption name Hash value 128",
    "banmoves h2e2 b2e2",
    "probe startpos moves h2e2",
    "go depth 12 nodes 100000",
];

proptest! {
    #[test]
    fn random_lines_never_panic(line in "\\PC{0,120}") {
        for d in [Dialect::Ucci, Dialect::Uci] {
            let _ = parse_command(&line, &ctx(d));
        }
    }

    #[test]
    fn mutated_commands_never_panic(index in 0usize..VALID.len(), cut in 0usize..200,
                                    pos in 0usize..200, byte in 0u8..128) {
        let mut bytes = VALID[index].as_bytes().to_vec();
        let p = pos % (bytes.len() + 1);
        bytes.insert(p, byte);
        bytes.truncate(cut.max(1));
        let line = String::from_utf8_lossy(&bytes);
        for d in [Dialect::Ucci, Dialect::Uci] {
            let _ = parse_command(&line, &ctx(d));
        }
    }
}
