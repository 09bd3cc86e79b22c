//! `pao-tools match`: engine-versus-engine tournaments. This file turns the command line into a
//! `MatchConfig`; the modules below run it. Beside it, the commands around engine games: `judge`
//! (a ruling by the rules the referee applies), `wdlfit` (the WDL model fitted to match PGNs)
//! and `fake-engine` (a scripted engine the runner's tests play).

mod adjudication;
pub mod client;
pub mod clock;
pub mod config;
pub mod fake_engine;
pub mod game;
mod gsprt;
pub mod judge;
mod merge;
mod pgn;
mod plan;
mod pool;
mod progress;
pub mod referee;
mod report;
pub mod results_sprt;
pub mod runner;
pub mod schedule;
mod shard_file;
pub mod state;
mod stats;
mod termination;
pub mod wdlfit;

use crate::common::openings;
use crate::common::shard::Shard;
use crate::common::Failure;
use adjudication::{DrawRule, ResignRule};
use clock::{parse_seconds, parse_tc, Limit};
use config::MatchConfig;
use game::GameConfig;
use runner::run_match;
use stats::Sprt;

/// What follows the options in `pao-tools match --help`.
const AFTER_HELP: &str = "\
Engine keys (after --engine or --each):
  name=NAME          display name (default: the command's file name)
  cmd=PATH           program to run (required)
  arg=ARG            one program argument (repeat for several)
  proto=ucci|uci|auto  protocol (default auto: try ucci, then uci)
  dir=DIR            working directory
  option.NAME=VALUE  an engine option, e.g. option.hashsize=64 option.Threads=2
  rankbase=0|1       ranks 0-9 or 1-10 in UCI moves (default 0; 1 for UCI engines
                     that advertise UCI_Variant)
  tc=TC | st=SECONDS | depth=D | nodes=N
                     this engine's own limit, in place of --tc/--st/--depth/--nodes
                     (time odds: each clock runs by its own control); one per engine

Defaults: a round robin of --games 2 per pairing at --tc 10+0.1, over the 18 built-in
balanced openings (each twice, colours swapped), one game at a time, --timemargin 50 ms,
--maxplies 600; no adjudication (--resign, --draw), no SPRT, no PGN, no results file. An
engine keeps its own option defaults: the runner sends usemillisec to a UCCI engine that has
it, UCI_Variant xiangqi to a UCI engine that offers it, and the option.NAME=VALUE given.

Rules: illegal or malformed move, crash, no reply in time, nobestmove with legal moves =
loss; no legal move = loss (mate or stalemate); Pao's rules for the rest: on the third
occurrence of a position, perpetual check loses, then perpetual chase loses, otherwise draw;
60 moves per side without capture and no attacking piece on either side = draw (see
`pao-tools judge`). Every game ends with one of the terminations listed in docs/tools.md
(match), written to the PGN's [Termination] tag.";

/// `pao-tools match`: plays engine-versus-engine games (UCCI or UCI), refereed with Pao's rules.
#[derive(clap::Args, Debug)]
#[command(
    after_help = AFTER_HELP,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
pub struct MatchArgs {
    #[command(subcommand)]
    command: Option<MatchCommand>,
    #[command(flatten)]
    engines: EngineGroups,
    /// Engine settings applied to every engine (an engine's own settings win)
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<String>,
    /// The first engine plays each other one (default: round robin)
    #[arg(long)]
    gauntlet: bool,
    /// Games per pairing; openings are played twice with colours swapped, so keep N even
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = positive)]
    games: usize,
    /// One opening per line: a FEN (optionally '... moves m1 m2') or ICCS moves from the start
    /// position; '#' comments. Default: 18 built-in balanced openings
    #[arg(long, value_name = "FILE")]
    openings: Option<String>,
    /// At fixed nodes or depth, play more games than twice the openings (refused by default:
    /// a one-thread engine plays the same game again from the same opening and colours)
    #[arg(long = "replay-openings")]
    replay_openings: bool,
    /// Clock as [MOVES/]SECONDS[+INC], e.g. 40/60+0.5 or 10+0.1 (default 10+0.1)
    #[arg(long, value_name = "TC", value_parser = parse_tc, group = "limit")]
    tc: Option<Limit>,
    /// Fixed time per move in seconds
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, group = "limit")]
    st: Option<u64>,
    /// Fixed depth per move
    #[arg(long, value_name = "D", group = "limit")]
    depth: Option<u32>,
    /// Fixed nodes per move
    #[arg(long, value_name = "N", group = "limit")]
    nodes: Option<u64>,
    /// Grace in ms beyond the clock before a time forfeit
    #[arg(long, value_name = "MS", default_value_t = 50)]
    timemargin: u64,
    /// With --depth/--nodes: a move taking longer (seconds) is a loss
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_seconds)]
    movetimeout: u64,
    /// Time allowed for the handshake (ucci/uci and isready), in ms
    #[arg(long = "handshake-timeout", value_name = "MS", default_value_t = 5000)]
    handshake_timeout: u64,
    /// Draw after N engine plies
    #[arg(long, value_name = "N", default_value_t = 600)]
    maxplies: usize,
    /// Games played at once
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = positive)]
    concurrency: usize,
    /// Append the games to FILE as PGN
    #[arg(long, value_name = "FILE")]
    pgnout: Option<String>,
    /// Results file (TSV): finished games listed there are skipped, new results are appended
    /// as each game ends
    #[arg(long, value_name = "FILE")]
    resume: Option<String>,
    /// PGN event name
    #[arg(long, value_name = "NAME", default_value = "pao-tools match")]
    event: String,
    /// Stop when the SPRT (first engine against the others) decides; defaults elo0=0 elo1=10
    /// alpha=0.05 beta=0.05 model=normalized min-games=200 (bounds in normalised Elo; model=logistic
    /// for logistic Elo)
    #[arg(long, value_name = "KEY=VALUE", num_args = 0..)]
    sprt: Option<Vec<String>>,
    /// Adjudicate a loss by the engines' scores: score=CP count=N
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    resign: Option<Vec<String>>,
    /// Adjudicate a draw by the engines' scores: movenumber=M score=CP count=N
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    draw: Option<Vec<String>>,
    /// Play shard I of N: every N-th game pair from pair I - 1, results to --resume (needed);
    /// `match merge` then reports the whole match
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Start at opening pair K of the book: the pairs before it were played by earlier runs of
    /// the same test (the report's `continue with:` line gives K)
    #[arg(long = "first-pair", value_name = "K", default_value_t = 0)]
    first_pair: usize,
    /// Game pairs of earlier runs of the same test, N0,N1,N2,N3,N4 (the report's pentanomial),
    /// pooled into the Elo and the SPRT; repeat for several runs
    #[arg(long, value_name = "N0,N1,N2,N3,N4")]
    prior: Vec<String>,
}

#[derive(clap::Subcommand, Debug)]
enum MatchCommand {
    /// The report of a match played in shards (`--shard I/N`), from their results files
    Merge(merge::MergeArgs),
    /// An SPRT and the Elo read from counts (W-L-D, pentanomials) of one or more runs
    Sprt(pool::PoolArgs),
    /// What an SPRT's bounds buy: the chance of accepting and the games it needs, by true Elo
    Plan(plan::PlanArgs),
}

/// The words of each `--engine` occurrence, kept apart (clap's derive flattens repeated
/// multi-value options, so this one argument is declared and read by hand).
#[derive(Debug, Default)]
struct EngineGroups(Vec<Vec<String>>);

impl clap::FromArgMatches for EngineGroups {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|o| o.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineGroups(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for EngineGroups {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .value_name("KEY=VALUE")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .required(true)
                .help(
                    "One engine as KEY=VALUE settings (see below); once per engine, at least twice",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// A count of at least one.
fn positive(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("'{text}' is not a positive whole number")),
    }
}

/// Turns the parsed arguments into a match; the errors are usage errors (bad settings).
pub fn config(args: MatchArgs) -> Result<MatchConfig, String> {
    let limit = if let Some(tc) = args.tc {
        tc
    } else if let Some(ms) = args.st {
        Limit::MoveTime(ms)
    } else if let Some(d) = args.depth {
        Limit::Depth(d)
    } else if let Some(n) = args.nodes {
        Limit::Nodes(n)
    } else {
        Limit::Clock {
            moves: None,
            base_ms: 10_000,
            inc_ms: 100,
        }
    };
    let mut engines = Vec::new();
    for words in &args.engines.0 {
        engines.push(client::spec::parse_engine(&args.each, words)?);
    }
    if engines.len() < 2 {
        return Err("--engine: give at least two engines".to_string());
    }
    if args.shard.is_some() {
        if args.resume.is_none() {
            return Err("--shard needs --resume FILE: the shard's results file".to_string());
        }
        if args.sprt.is_some() {
            return Err(
                "--sprt with --shard: shards play their whole share; give --sprt to `match merge`"
                    .to_string(),
            );
        }
    }
    let mut openings = openings::load(args.openings.as_deref())?;
    if !args.replay_openings {
        let limits: Vec<&Limit> = engines
            .iter()
            .map(|e| e.limit.as_ref().unwrap_or(&limit))
            .collect();
        let games = args.games + 2 * args.first_pair;
        if let Some(e) = schedule::replays(&limits, games, openings.len()) {
            return Err(e);
        }
    }
    let mut prior = stats::Pentanomial::default();
    for word in &args.prior {
        prior.add(&pool::parse_pentanomial(word).map_err(|e| format!("--prior {e}"))?);
    }
    if (prior.pairs() > 0 || args.first_pair > 0) && (engines.len() != 2 || args.shard.is_some()) {
        return Err(
            "--prior and --first-pair continue a test of two engines, not in shards".to_string(),
        );
    }
    // Pair k of this run plays the book's pair first_pair + k.
    if !openings.is_empty() {
        let k = args.first_pair % openings.len();
        openings.rotate_left(k);
    }
    Ok(MatchConfig {
        engines,
        gauntlet: args.gauntlet,
        games: args.games,
        openings,
        game: GameConfig {
            limit,
            margin_ms: args.timemargin,
            move_timeout_ms: args.movetimeout,
            handshake_timeout_ms: args.handshake_timeout,
            max_plies: args.maxplies,
            resign: args.resign.as_deref().map(ResignRule::parse).transpose()?,
            draw: args.draw.as_deref().map(DrawRule::parse).transpose()?,
        },
        concurrency: args.concurrency,
        pgnout: args.pgnout,
        resume: args.resume,
        sprt: args.sprt.as_deref().map(Sprt::parse).transpose()?,
        event: args.event,
        shard: args.shard,
        prior,
        first_pair: args.first_pair,
    })
}

impl MatchArgs {
    /// Whether it only prints a report or a listing (`main.rs` says what that changes).
    pub fn only_prints(&self) -> bool {
        // `merge --out` has written its results file before the report is printed.
        match self.command {
            Some(MatchCommand::Merge(_) | MatchCommand::Sprt(_) | MatchCommand::Plan(_)) => true,
            None => false,
        }
    }
}

/// Runs `pao-tools match`.
pub fn run(args: MatchArgs) -> Result<(), Failure> {
    if let Some(MatchCommand::Merge(m)) = &args.command {
        let sprt = merge::sprt_of(m).map_err(Failure::Usage)?;
        print!("{}", merge::merge(m, sprt.as_ref())?);
        return Ok(());
    }
    if let Some(MatchCommand::Sprt(p)) = &args.command {
        let (sprt, games, pairs) = pool::prepare(p).map_err(Failure::Usage)?;
        if let Some(warning) = pool::warning(p) {
            eprintln!("{warning}");
        }
        print!("{}", pool::report(&sprt, &games, &pairs));
        return Ok(());
    }
    if let Some(MatchCommand::Plan(p)) = &args.command {
        print!("{}", plan::plan(p).map_err(Failure::Usage)?);
        return Ok(());
    }
    let cfg = config(args).map_err(Failure::Usage)?;
    let text = run_match(&cfg)?;
    print!("{text}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn parse(line: &str) -> Result<MatchConfig, String> {
        let words = std::iter::once("match").chain(line.split_whitespace());
        let cli = Cli::try_parse_from(words).map_err(|e| e.to_string())?;
        config(cli.args)
    }

    #[test]
    fn parses_a_full_command() {
        let c = parse(
            "--engine name=a cmd=x --engine cmd=/bin/y proto=uci --each option.Hash=16 \
             --gauntlet --games 4 --tc 40/60+0.5 --timemargin 20 --concurrency 2 \
             --sprt elo0=0 elo1=10 --resign score=600 count=3 --pgnout p.pgn --resume r.tsv",
        )
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
        assert_eq!(c.openings.len(), openings::BUILTIN.len());
        assert_eq!(c.resume.as_deref(), Some("r.tsv"));
    }

    #[test]
    fn defaults_and_a_bare_sprt() {
        let c = parse("--engine cmd=x --engine cmd=y --sprt --st 0.5").unwrap();
        assert_eq!(c.game.limit, Limit::MoveTime(500));
        assert_eq!((c.games, c.concurrency, c.game.max_plies), (2, 1, 600));
        assert_eq!(c.sprt, Some(stats::Sprt::parse(&[]).unwrap()));
        assert_eq!(c.sprt.map(|s| (s.elo0, s.elo1)), Some((0.0, 10.0)));
        assert_eq!(c.event, "pao-tools match");
        // The defaults the help's "Defaults:" paragraph states, one by one.
        let c = parse("--engine cmd=x --engine cmd=y").unwrap();
        assert_eq!(c.game.limit.to_string(), "10+0.1");
        assert!(!c.gauntlet);
        assert_eq!((c.games, c.concurrency, c.game.max_plies), (2, 1, 600));
        assert_eq!((c.openings.len(), openings::BUILTIN.len()), (18, 18));
        assert_eq!(c.game.margin_ms, 50);
        assert!(c.game.resign.is_none() && c.game.draw.is_none() && c.sprt.is_none());
        assert!(c.pgnout.is_none() && c.resume.is_none());
        assert!(c.engines.iter().all(|e| e.options.is_empty()));
        assert!(AFTER_HELP.contains(
            "Defaults: a round robin of --games 2 per pairing at --tc 10+0.1, over the 18 built-in"
        ));
    }

    #[test]
    fn time_odds() {
        let c = parse("--engine cmd=x tc=2.5+0.025 --engine cmd=y --tc 10+0.1").unwrap();
        assert_eq!(
            c.engines[0].limit,
            Some(Limit::Clock {
                moves: None,
                base_ms: 2500,
                inc_ms: 25
            })
        );
        assert_eq!(c.engines[1].limit, None);
        assert_eq!(c.game.limit.to_string(), "10+0.1");
        let c = parse("--engine cmd=x nodes=100 --engine cmd=y --each depth=2").unwrap();
        assert_eq!(c.engines[0].limit, Some(Limit::Nodes(100)));
        assert_eq!(c.engines[1].limit, Some(Limit::Depth(2)));
    }

    #[test]
    fn rejects_bad_commands() {
        for bad in [
            "--engine cmd=x",
            "--engine cmd=x --engine cmd=y --st 1 --depth 3",
            "--engine cmd=x --engine cmd=y --games",
            "--engine cmd=x --engine cmd=y --bogus",
            "--engine cmd=x --engine cmd=y --games 0",
            "--engine cmd=x --engine cmd=y --tc 0+0",
            "--engine cmd=x --engine name=y",
            "--engine cmd=x tc=10 depth=3 --engine cmd=y",
            "--engine cmd=x --engine cmd=y --each st=1 nodes=5",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
