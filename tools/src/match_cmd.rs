//! `pao-tools match`: the command line turned into a `MatchConfig`.

use crate::adjudication::{DrawRule, ResignRule};
use crate::clock::{parse_seconds, parse_tc, Limit};
use crate::game::GameConfig;
use crate::spec::{parse_engine, ENGINE_KEYS};
use crate::stats::Sprt;
use crate::tournament::{run_match, MatchConfig};

/// Help for `match`.
pub fn usage() -> String {
    format!(
        "pao-tools match --engine KEY=VALUE... --engine KEY=VALUE... [options]
  Plays engine-versus-engine games (UCCI or UCI), refereed with Pao's rules.
{ENGINE_KEYS}
  options:
    --each KEY=VALUE...    engine keys applied to every engine (each engine's own win)
    --gauntlet             first engine against each other (default: round robin)
    --games N              games per pairing (default 2); openings are played twice,
                           colours swapped, so keep N even
    --openings FILE        one opening per line: a FEN (optionally '... moves m1 m2'),
                           or ICCS moves from the start position; '#' comments.
                           Default: 18 built-in balanced openings
    --tc [MOVES/]SECONDS[+INC]  clock, e.g. 40/60+0.5 or 10+0.1 (default 10+0.1)
    --st SECONDS           fixed time per move
    --depth D | --nodes N  fixed depth or nodes per move
    --timemargin MS        grace beyond the clock before a time forfeit (default 50)
    --movetimeout SECONDS  with --depth/--nodes: a move taking longer is a loss (default 60)
    --handshake-timeout MS time allowed for ucci/uci and isready (default 5000)
    --maxplies N           draw after N engine plies (default 600)
    --concurrency K        games played at once (default 1)
    --pgnout FILE          append games to FILE as PGN
    --resume FILE          results file (TSV): finished games listed there are skipped,
                           new results are appended as each game ends
    --event NAME           PGN event (default 'pao-tools match')
    --sprt [elo0=0] [elo1=5] [alpha=0.05] [beta=0.05]
                           stop when the SPRT (first engine vs the others) decides
    --resign score=CP count=N            adjudicate a loss by the engines' scores
    --draw movenumber=M score=CP count=N adjudicate a draw by the engines' scores
  Rules: illegal or malformed move, crash, no reply in time, nobestmove with legal
  moves = loss; no legal move = loss (mate or stalemate); Pao's rules for the rest:
  on the third occurrence of a position, perpetual check loses, then perpetual
  chase loses, otherwise draw; 60 moves per side without capture and no attacking
  piece on either side = draw (see `pao-tools judge`)."
    )
}

/// Tokens after a flag up to the next `--flag`.
fn words(args: &[String], i: &mut usize) -> Vec<String> {
    let mut out = Vec::new();
    while *i + 1 < args.len() && !args[*i + 1].starts_with("--") {
        *i += 1;
        out.push(args[*i].clone());
    }
    out
}

fn one(args: &[String], i: &mut usize) -> Result<String, String> {
    *i += 1;
    args.get(*i)
        .cloned()
        .ok_or_else(|| format!("{} needs a value", args[*i - 1]))
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{flag}: '{v}' is not a valid number"))
}

/// Parses the arguments after `match`.
pub fn parse(args: &[String]) -> Result<MatchConfig, String> {
    let mut engine_words: Vec<Vec<String>> = Vec::new();
    let mut each = Vec::new();
    let mut limits: Vec<Limit> = Vec::new();
    let mut openings_file = None;
    let mut cfg = MatchConfig {
        engines: Vec::new(),
        gauntlet: false,
        games: 2,
        openings: Vec::new(),
        game: GameConfig {
            limit: Limit::Clock {
                moves: None,
                base_ms: 10_000,
                inc_ms: 100,
            },
            margin_ms: 50,
            move_timeout_ms: 60_000,
            handshake_timeout_ms: 5_000,
            max_plies: 600,
            resign: None,
            draw: None,
        },
        concurrency: 1,
        pgnout: None,
        resume: None,
        sprt: None,
        event: "pao-tools match".to_string(),
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        match flag {
            "--engine" => engine_words.push(words(args, &mut i)),
            "--each" => each.extend(words(args, &mut i)),
            "--gauntlet" => cfg.gauntlet = true,
            "--games" => cfg.games = number(flag, &one(args, &mut i)?)?,
            "--openings" => openings_file = Some(one(args, &mut i)?),
            "--tc" => limits.push(parse_tc(&one(args, &mut i)?)?),
            "--st" => limits.push(Limit::MoveTime(
                parse_seconds(&one(args, &mut i)?).map_err(|e| format!("--st: {e}"))?,
            )),
            "--depth" => limits.push(Limit::Depth(number(flag, &one(args, &mut i)?)?)),
            "--nodes" => limits.push(Limit::Nodes(number(flag, &one(args, &mut i)?)?)),
            "--timemargin" => cfg.game.margin_ms = number(flag, &one(args, &mut i)?)?,
            "--movetimeout" => {
                cfg.game.move_timeout_ms =
                    parse_seconds(&one(args, &mut i)?).map_err(|e| format!("{flag}: {e}"))?
            }
            "--handshake-timeout" => {
                cfg.game.handshake_timeout_ms = number(flag, &one(args, &mut i)?)?
            }
            "--maxplies" => cfg.game.max_plies = number(flag, &one(args, &mut i)?)?,
            "--concurrency" => cfg.concurrency = number(flag, &one(args, &mut i)?)?,
            "--pgnout" => cfg.pgnout = Some(one(args, &mut i)?),
            "--resume" => cfg.resume = Some(one(args, &mut i)?),
            "--event" => cfg.event = one(args, &mut i)?,
            "--sprt" => cfg.sprt = Some(Sprt::parse(&words(args, &mut i))?),
            "--resign" => cfg.game.resign = Some(ResignRule::parse(&words(args, &mut i))?),
            "--draw" => cfg.game.draw = Some(DrawRule::parse(&words(args, &mut i))?),
            _ => {
                return Err(format!(
                    "match: unknown argument '{flag}' (see pao-tools help match)"
                ))
            }
        }
        i += 1;
    }
    for w in &engine_words {
        cfg.engines.push(parse_engine(&each, w)?);
    }
    if cfg.engines.len() < 2 {
        return Err("match: give at least two --engine".to_string());
    }
    match limits.len() {
        0 => {}
        1 => cfg.game.limit = limits.remove(0),
        _ => return Err("match: give only one of --tc, --st, --depth, --nodes".to_string()),
    }
    if cfg.games == 0 || cfg.concurrency == 0 {
        return Err("match: --games and --concurrency must be positive".to_string());
    }
    cfg.openings = crate::openings::load(openings_file.as_deref())?;
    Ok(cfg)
}

/// Runs `pao-tools match ARGS`.
pub fn run(args: &[String]) -> Result<(), String> {
    let cfg = parse(args)?;
    let text = run_match(&cfg)?;
    print!("{text}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_a_full_command() {
        let c = parse(&argv(
            "--engine name=a cmd=x --engine cmd=/bin/y proto=uci --each option.Hash=16 \
             --gauntlet --games 4 --tc 40/60+0.5 --timemargin 20 --concurrency 2 \
             --sprt elo0=0 elo1=10 --resign score=600 count=3 --pgnout p.pgn --resume r.tsv",
        ))
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[1].name, "y");
        assert_eq!(
            c.engines[0].options,
            vec![("Hash".to_string(), "16".to_string())]
        );
        assert!(c.gauntlet);
        assert_eq!((c.games, c.concurrency, c.game.margin_ms), (4, 2, 20));
        assert_eq!(
            c.game.limit,
            Limit::Clock {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 500
            }
        );
        assert_eq!(c.sprt.map(|s| s.elo1), Some(10.0));
        assert_eq!(
            c.game.resign,
            Some(ResignRule {
                score: 600,
                count: 3
            })
        );
        assert_eq!(c.openings.len(), crate::openings::BUILTIN.len());
        assert_eq!(c.resume.as_deref(), Some("r.tsv"));
    }

    #[test]
    fn rejects_bad_commands() {
        assert!(parse(&argv("--engine cmd=x")).is_err());
        assert!(parse(&argv("--engine cmd=x --engine cmd=y --st 1 --depth 3")).is_err());
        assert!(parse(&argv("--engine cmd=x --engine cmd=y --games")).is_err());
        assert!(parse(&argv("--engine cmd=x --engine cmd=y --bogus")).is_err());
        assert!(parse(&argv("--engine cmd=x --engine cmd=y --games 0")).is_err());
    }
}
