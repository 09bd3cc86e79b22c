//! End-to-end matches between scripted engines (`pao-tools fake-engine`), driven through the
//! real `pao-tools match` command.

mod support;

use pao::board::{Position, RankBase, START_FEN};
use support::{Scratch, BIN};

/// `--engine` words for a fake engine.
fn fake(name: &str, proto: &str, extra: &str) -> String {
    let mut s = format!(
        "--engine name={name} cmd={BIN} arg=fake-engine arg=--proto arg={proto} proto={proto}"
    );
    for a in extra.split_whitespace() {
        s.push_str(&format!(" arg={a}"));
    }
    s
}

fn run_match(args: &str) -> (bool, String, String) {
    let words: Vec<&str> = std::iter::once("match")
        .chain(args.split_whitespace())
        .collect();
    let (code, out, err) = support::tools(&words);
    (code == 0, out, err)
}

/// Results file rows: (red, black, result, reason).
fn results(path: &str) -> Vec<(String, String, String, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[1].into(), f[2].into(), f[3].into(), f[5].into())
        })
        .collect()
}

/// Plays a misbehaving engine B against a random engine A, two games, and returns the rows.
fn misbehaviour(
    name: &str,
    behaviour: &str,
    proto: &str,
    limit: &str,
) -> Vec<(String, String, String, String)> {
    let dir = Scratch::new(name);
    let res = dir.path("r.tsv");
    let args = format!(
        "{} {} --games 2 {limit} --resume {res}",
        fake("A", "ucci", "--seed 1"),
        fake(
            "B",
            proto,
            &format!("--behaviour {behaviour} --after 2 --delay-ms 1500")
        )
    );
    let (ok, out, err) = run_match(&args);
    assert!(ok, "stdout {out}\nstderr {err}");
    let rows = results(&res);
    assert_eq!(rows.len(), 2, "{out}");
    // B loses with either colour: game 1 B is black, game 2 B is red.
    assert_eq!((rows[0].1.as_str(), rows[0].2.as_str()), ("B", "1-0"));
    assert_eq!((rows[1].0.as_str(), rows[1].2.as_str()), ("B", "0-1"));
    assert!(
        out.contains("\nA           2     2      0     0     2.0 100.0%  +inf\n"),
        "{out}"
    );
    // Both games ended the same way: one entry of the fixed list, counted twice, and each
    // reason starts with its name.
    let tally = out
        .lines()
        .find_map(|l| l.strip_prefix("terminations: "))
        .unwrap_or_else(|| panic!("no terminations line in {out}"));
    let name = tally
        .strip_suffix(" 2")
        .unwrap_or_else(|| panic!("{tally}"));
    assert!(
        rows.iter().all(|r| r.3.starts_with(name)),
        "{tally} {rows:?}"
    );
    rows
}

#[test]
fn illegal_move_loses() {
    let rows = misbehaviour("illegal", "illegal", "ucci", "--depth 1");
    assert!(rows[0].3.starts_with("illegal move '"), "{rows:?}");
    assert!(rows[0].3.ends_with("' by B"), "{rows:?}");
}

#[test]
fn crash_loses() {
    let rows = misbehaviour("crash", "crash", "uci", "--depth 1");
    assert_eq!(rows[0].3, "crash (engine exited) by B");
}

#[test]
fn hang_loses_on_time() {
    let rows = misbehaviour("hang", "hang", "ucci", "--st 0.2 --timemargin 400");
    assert_eq!(rows[1].3, "time forfeit (no move) by B");
}

#[test]
fn hang_with_depth_limit_loses_after_move_timeout() {
    let rows = misbehaviour("hangdepth", "hang", "uci", "--depth 3 --movetimeout 1");
    assert_eq!(rows[0].3, "hang (no move within 1000 ms) by B");
}

#[test]
fn slow_move_forfeits() {
    // The reply would come after 1500 ms; the runner stops waiting at 300 + 200 ms.
    let rows = misbehaviour("slow", "slow", "ucci", "--st 0.3 --timemargin 200");
    assert_eq!(rows[0].3, "time forfeit (no move) by B");
    // On a 1-second clock the first slow move runs out of time.
    let rows = misbehaviour("slowclock", "slow", "uci", "--tc 1 --timemargin 100");
    assert_eq!(rows[1].3, "time forfeit (no move) by B");
}

#[test]
fn garbage_loses() {
    let rows = misbehaviour("garbage", "garbage", "uci", "--tc 5+0.1");
    assert_eq!(rows[0].3, "garbage move 'zz99' by B");
}

#[test]
fn nobestmove_loses() {
    let rows = misbehaviour("nobest", "nobestmove", "ucci", "--tc 40/5");
    assert_eq!(rows[0].3, "no move given while legal moves exist by B");
    let rows = misbehaviour("nobestuci", "nobestmove", "uci", "--depth 2");
    assert_eq!(rows[1].3, "no move given while legal moves exist by B");
}

/// Replays every PGN game and checks legality and the final ruling.
fn check_pgn(pgn: &str) -> usize {
    let mut games = 0;
    for game in pgn.split("[Game \"Chinese Chess\"]").skip(1) {
        games += 1;
        let fen = game
            .lines()
            .find_map(|l| {
                l.strip_prefix("[FEN \"")
                    .map(|f| f.trim_end_matches("\"]").to_string())
            })
            .unwrap_or_else(|| START_FEN.to_string());
        let mut pos = Position::from_fen(&fen).unwrap();
        let body: String = game
            .lines()
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        // After each move: its mover and whether it gave check.
        let mut checks: Vec<(pao::board::Color, bool)> = Vec::new();
        let moves = support::pgn_moves(&body);
        for tok in &moves {
            let m = pos
                .parse_legal_move(&tok.replace('-', "").to_lowercase(), RankBase::Zero)
                .unwrap_or_else(|e| panic!("{e} in game {games}"));
            let mover = pos.side_to_move();
            pos.make_move(m);
            checks.push((mover, pos.in_check()));
        }
        let termination = game
            .lines()
            .find_map(|l| {
                l.strip_prefix("[Termination \"")
                    .map(|f| f.trim_end_matches("\"]").to_string())
            })
            .unwrap();
        let result = game
            .lines()
            .find_map(|l| {
                l.strip_prefix("[Result \"")
                    .map(|f| f.trim_end_matches("\"]").to_string())
            })
            .unwrap();
        match termination.as_str() {
            "checkmate" | "stalemate" => {
                assert!(pos.legal_moves().is_empty(), "game {games}: {termination}");
                let red_lost = pos.side_to_move() == pao::board::Color::Red;
                assert_eq!(result, if red_lost { "0-1" } else { "1-0" });
            }
            "repetition" | "sixty-move rule" | "insufficient material" => {
                assert_eq!(result, "1/2-1/2", "game {games}")
            }
            "perpetual check" | "perpetual chase" => {
                // The rules rule the final position so, and the winner is the one in the tag.
                let ruled = pao::board::rules::game_result(&mut pos);
                let (winner, ruling) = match result.as_str() {
                    "1-0" => (Some(pao::board::Color::Red), "red wins"),
                    "0-1" => (Some(pao::board::Color::Black), "black wins"),
                    // Both sides checked (or chased) throughout: a draw.
                    _ => (None, "draw"),
                };
                assert_eq!(
                    ruled.to_string(),
                    format!("{ruling} ({termination})"),
                    "game {games}"
                );
                if let (Some(winner), "perpetual check") = (winner, termination.as_str()) {
                    // Counted here: the loser checked with every move of the game's last
                    // cycle, the plies since the final position stood on the board before.
                    let cycle = cycle_length(&fen, &moves, games);
                    let loser_moves: Vec<bool> = checks[checks.len() - cycle..]
                        .iter()
                        .filter(|(mover, _)| *mover != winner)
                        .map(|&(_, check)| check)
                        .collect();
                    assert!(
                        !loser_moves.is_empty() && loser_moves.iter().all(|&c| c),
                        "game {games}: {loser_moves:?}"
                    );
                }
            }
            "ply limit" => {
                // A draw, and a game the rules had not yet ended.
                assert_eq!(result, "1/2-1/2", "game {games}");
                assert_eq!(
                    pao::board::rules::game_result(&mut pos),
                    pao::board::rules::GameResult::Ongoing,
                    "game {games}"
                );
            }
            t => panic!("game {games}: unexpected termination '{t}'"),
        }
    }
    games
}

/// Plies since the final position of a game's moves (`moves`, from `fen`) last stood on the
/// board with the same side to move.
fn cycle_length(fen: &str, moves: &[String], game: usize) -> usize {
    let mut pos = Position::from_fen(fen).unwrap();
    let mut keys = vec![pos.key()];
    for tok in moves {
        let m = pos
            .parse_legal_move(&tok.replace('-', "").to_lowercase(), RankBase::Zero)
            .unwrap();
        pos.make_move(m);
        keys.push(pos.key());
    }
    let last = keys.len() - 1;
    let earlier = keys[..last]
        .iter()
        .rposition(|&k| k == keys[last])
        .unwrap_or_else(|| panic!("game {game}: no repetition"));
    last - earlier
}

#[test]
fn normal_games_finish_with_legal_results_and_uci_ranks_one_to_ten() {
    let dir = Scratch::new("normal");
    let (pgn, res) = (dir.path("g.pgn"), dir.path("r.tsv"));
    // B speaks UCI with UCI_Variant: the runner must switch to ranks 1-10 for it.
    let args = format!(
        "{} {} --games 6 --depth 1 --concurrency 2 --pgnout {pgn} --resume {res} --event T",
        fake("A", "ucci", "--seed 7"),
        fake("B", "uci", "--seed 9 --variant")
    );
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    let rows = results(&res);
    assert_eq!(rows.len(), 6);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(check_pgn(&text), 6);
    assert!(text.contains("[Event \"T\"]\n"));
    assert!(
        out.contains("pentanomial [0, 1/2, 1, 3/2, 2] over 3 pairs"),
        "{out}"
    );
    let tally = out
        .lines()
        .find_map(|l| l.strip_prefix("terminations: "))
        .unwrap_or_else(|| panic!("no terminations line in {out}"));
    let counted: usize = tally
        .split(", ")
        .map(|part| part.rsplit_once(' ').unwrap().1.parse::<usize>().unwrap())
        .sum();
    assert_eq!(counted, 6, "{tally}");
    for r in &rows {
        assert!(
            !r.3.contains("by A") && !r.3.contains("by B"),
            "engine fault: {r:?}"
        );
    }
}

#[test]
fn wrong_rank_base_is_caught_as_bad_moves() {
    let dir = Scratch::new("rankbase");
    let res = dir.path("r.tsv");
    // B numbers ranks 1-10 but is forced to 0-9: its moves come out wrong.
    let args = format!(
        "{} {} rankbase=0 --games 2 --depth 1 --resume {res}",
        fake("A", "ucci", ""),
        fake("B", "uci", "--variant")
    );
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    let rows = results(&res);
    assert_eq!(rows.len(), 2, "{out}");
    for r in rows {
        assert!(r.3.ends_with("by B"), "{r:?}");
    }
}

#[test]
fn protocols_are_detected() {
    let dir = Scratch::new("auto");
    let res = dir.path("r.tsv");
    let a = format!("--engine name=A cmd={BIN} arg=fake-engine arg=--proto arg=ucci");
    let b = format!("--engine name=B cmd={BIN} arg=fake-engine arg=--proto arg=uci proto=auto");
    let args = format!("{a} {b} --games 2 --depth 1 --handshake-timeout 1500 --resume {res}");
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    assert_eq!(results(&res).len(), 2);
    // An engine that speaks neither is reported.
    let c = format!("--engine name=C cmd={BIN} arg=fake-engine arg=--proto arg=uci proto=ucci");
    let (ok, _, err) = run_match(&format!("{a} {c} --depth 1 --handshake-timeout 500"));
    assert!(!ok);
    assert!(err.contains("engine 'C' answered neither ucci"), "{err}");
}

#[test]
fn resume_continues_where_it_stopped() {
    let dir = Scratch::new("resume");
    let (full, part) = (dir.path("full.tsv"), dir.path("part.tsv"));
    let engines = format!(
        "{} {}",
        fake("A", "ucci", "--seed 3"),
        fake("B", "uci", "--seed 4")
    );
    let (ok, out, _) = run_match(&format!("{engines} --games 4 --depth 1 --resume {full}"));
    assert!(ok, "{out}");
    let full_text = std::fs::read_to_string(&full).unwrap();
    // Keep the header, the settings line and two games, plus a torn third line, as after a
    // kill.
    let lines: Vec<&str> = full_text.lines().collect();
    assert!(lines[1].starts_with("# settings fnv1a:"), "{full_text}");
    std::fs::write(&part, format!("{}\n3\tA\tB", lines[..4].join("\n"))).unwrap();
    let pgn = dir.path("p.pgn");
    let (ok, out, err) = run_match(&format!(
        "{engines} --games 4 --depth 1 --resume {part} --pgnout {pgn}"
    ));
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("resuming: 2 of 4 games already played"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(&pgn)
            .unwrap()
            .matches("[Round ")
            .count(),
        2
    );
    // The torn line was cut off; the games are exactly those of the uninterrupted run.
    assert_eq!(std::fs::read_to_string(&part).unwrap(), full_text);
    // A results file of another match is refused, other engines or the same ones at another
    // limit, and nothing is written to it.
    let other = format!("{} {}", fake("X", "ucci", ""), fake("B", "uci", ""));
    for args in [
        format!("{other} --games 4 --depth 1 --resume {full}"),
        format!("{engines} --games 4 --depth 2 --resume {full}"),
    ] {
        let (ok, _, err) = run_match(&args);
        assert!(!ok);
        assert!(
            err.contains(
                "holds games of another match (engines, openings, limits or rules differ)"
            ),
            "{err}"
        );
    }
    assert_eq!(std::fs::read_to_string(&full).unwrap(), full_text);
    // A file without the settings line (made before the line existed) is taken as it is, its
    // games still checked against the schedule.
    let old = dir.path("old.tsv");
    let without: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.starts_with("# settings"))
        .collect();
    std::fs::write(&old, format!("{}\n", without.join("\n"))).unwrap();
    let (ok, _, err) = run_match(&format!("{other} --games 4 --depth 1 --resume {old}"));
    assert!(!ok);
    assert!(err.contains("but this match schedules X - B"), "{err}");
    // More games of the same match continue it.
    for file in [&full, &old] {
        let (ok, out, err) = run_match(&format!("{engines} --games 6 --depth 1 --resume {file}"));
        assert!(ok, "{out}\n{err}");
        assert!(
            out.contains("resuming: 4 of 6 games already played"),
            "{out}"
        );
        assert_eq!(results(file).len(), 6);
    }
}

#[test]
fn sprt_stops_early() {
    let engines = format!(
        "{} {}",
        fake("A", "ucci", "--seed 11"),
        fake("B", "ucci", "--seed 12")
    );
    let (ok, out, err) = run_match(&format!(
        "{engines} --games 200 --depth 1 --maxplies 200 --replay-openings --sprt elo0=0 elo1=200 min-games=20"
    ));
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains(
            "SPRT elo0=0 elo1=200 alpha=0.05 beta=0.05 model=normalized min-games=20: LLR"
        ),
        "{out}"
    );
    assert!(out.contains("accepted\n"), "{out}");
    assert!(out.contains("of 200 scheduled games played"), "{out}");
    // The last line is the one a script reads (H0 accepted: the change is rejected); each
    // game also left a status line.
    let last = out.lines().last().unwrap_or("");
    assert!(last.starts_with("result: elo="), "{last}");
    assert!(last.ends_with(" sprt=rejected"), "{last}");
    assert!(out.contains("status: elo="), "{out}");
    // `match sprt` reads the report's pentanomial as the match read it: the same Elo, error,
    // LLR and verdict.
    let counts = out
        .lines()
        .find_map(|l| l.strip_prefix("pentanomial [0, 1/2, 1, 3/2, 2] over "))
        .and_then(|l| l.split_once(": "))
        .map(|(_, counts)| counts.to_string())
        .expect(&out);
    let (code, pooled, err) = support::tools(&[
        "match",
        "sprt",
        &counts,
        "--sprt",
        "elo0=0",
        "elo1=200",
        "min-games=20",
    ]);
    assert_eq!((code, err.as_str()), (0, ""), "{pooled}");
    let fields = |line: &str| -> Vec<String> {
        line.split_whitespace()
            .filter(|f| {
                ["elo=", "err=", "llr=", "sprt="]
                    .iter()
                    .any(|k| f.starts_with(k))
            })
            .map(String::from)
            .collect()
    };
    assert_eq!(
        fields(pooled.lines().last().unwrap_or("")),
        fields(last),
        "{pooled}"
    );
}

#[test]
fn draw_adjudication_by_scores() {
    let dir = Scratch::new("adjdraw");
    let res = dir.path("r.tsv");
    // The fake engines report scores within +-20: the rule fires at move 5.
    let args = format!(
        "{} {} --games 2 --depth 1 --draw movenumber=5 score=20 count=2 --resume {res}",
        fake("A", "ucci", ""),
        fake("B", "uci", "")
    );
    let (ok, out, err) = run_match(&args);
    assert!(ok, "{out}\n{err}");
    let rows = results(&res);
    assert_eq!(rows.len(), 2, "{out}");
    for r in rows {
        assert_eq!(
            (r.2.as_str(), r.3.as_str()),
            ("1/2-1/2", "adjudication: draw by scores")
        );
    }
    assert!(
        out.contains("(adjudication: draw by scores, 10 plies)"),
        "{out}"
    );
}

#[test]
fn a_test_continues_in_a_new_results_file_from_its_counts() {
    let dir = Scratch::new("continue");
    let engines = format!(
        "{} {}",
        fake("A", "ucci", "--seed 5"),
        fake("B", "ucci", "--seed 6")
    );
    let sprt = "--sprt elo0=0 elo1=200 min-games=1000";
    // The whole test in one run: five pairs.
    let (full, full_pgn) = (dir.path("full.tsv"), dir.path("full.pgn"));
    let (ok, out, err) = run_match(&format!(
        "{engines} --games 10 --depth 1 --maxplies 40 --resume {full} --pgnout {full_pgn} {sprt}"
    ));
    assert!(ok, "{out}\n{err}");
    let whole = out
        .lines()
        .find_map(|l| l.strip_prefix("continue with: "))
        .expect("a continue line")
        .to_string();
    assert!(whole.starts_with("--first-pair 5 --prior "), "{whole}");
    // The same test in two runs whose first results file is gone: three pairs, then the
    // words the first run printed.
    let (ok, out, err) = run_match(&format!(
        "{engines} --games 6 --depth 1 --maxplies 40 --resume {} {sprt}",
        dir.path("one.tsv")
    ));
    assert!(ok, "{out}\n{err}");
    let words = out
        .lines()
        .find_map(|l| l.strip_prefix("continue with: "))
        .expect("a continue line")
        .to_string();
    assert!(words.starts_with("--first-pair 3 --prior "), "{words}");
    let prior = words.rsplit(' ').next().unwrap_or("").to_string();
    let two_pgn = dir.path("two.pgn");
    let (ok, out, err) = run_match(&format!(
        "{engines} --games 4 --depth 1 --maxplies 40 --resume {} --pgnout {two_pgn} {sprt} {words}",
        dir.path("two.tsv")
    ));
    assert!(ok, "{out}\n{err}");
    let pairs: Vec<u64> = prior.split(',').map(|n| n.parse().unwrap()).collect();
    assert_eq!(pairs.iter().sum::<u64>(), 3, "{prior}");
    assert!(
        out.contains(&format!(
            "earlier runs: 3 pairs {pairs:?}, pooled into the pentanomial, the Elo and the SPRT\n"
        )),
        "{out}"
    );
    // The second run played the book's pairs 3 and 4, the games of the whole run.
    let moves = |path: &str| -> Vec<Vec<String>> {
        let games = support::pgn_games(&std::fs::read_to_string(path).unwrap());
        games.into_iter().map(|(_, moves)| moves).collect()
    };
    let (full_games, two_games) = (moves(&full_pgn), moves(&two_pgn));
    assert_eq!(full_games.len(), 10);
    assert!(full_games.iter().all(|g| g.len() >= 10), "{full_games:?}");
    assert_eq!(two_games, full_games[6..].to_vec());
    // Pooled, the two runs are the whole test: the same pairs, Elo and LLR.
    assert!(out.contains(&format!("continue with: {whole}\n")), "{out}");
    let last = |text: &str| {
        let line = text.lines().last().unwrap_or("").to_string();
        let fields: Vec<&str> = line.split(' ').collect();
        // elo, err and llr; w, l, d and games are this run's own.
        fields[1..4].join(" ")
    };
    let (_, full_out, _) = run_match(&format!(
        "{engines} --games 10 --depth 1 --maxplies 40 --resume {full} {sprt}"
    ));
    assert_eq!(last(&out), last(&full_out), "{out}\n{full_out}");
    // Earlier pairs are counts of a test of two engines, not of a round robin or a shard.
    let (ok, _, err) = run_match(&format!(
        "{engines} {} --games 2 --depth 1 --prior 1,0,0,0,0",
        fake("C", "ucci", "")
    ));
    assert!(!ok);
    assert!(
        err.contains("--prior and --first-pair continue a test of two engines, not in shards"),
        "{err}"
    );
    let (ok, _, err) = run_match(&format!("{engines} --games 2 --depth 1 --prior 1-0-0"));
    assert!(!ok);
    assert!(err.contains("--prior '1-0-0': give a pentanomial"), "{err}");
}
