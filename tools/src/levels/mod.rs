//! `pao-tools levels`: measures the rating of every `Skill Level` in games, for the table of
//! docs/strength-limit.md and `UCI_Elo`'s `CALIBRATION`. Neighbouring levels play each other
//! (`plan.rs`), each pairing as a match of its own with its own results file (`play.rs`), and
//! one fit of all the games gives every level's rating on the anchor's scale (`fit.rs`),
//! printed as a table and as the array to paste (`report.rs`).

mod fit;
mod plan;
mod play;
mod report;
mod settings;

use crate::common::engine::default_engine;
use crate::common::{openings, Failure};
use crate::r#match::clock::{parse_tc, Limit};
use fit::{FitError, Tally};
use plan::{Pairing, PlanConfig, Player, FULL};
use play::{Players, Table};
use std::path::PathBuf;

/// Pao's settings for every level unless `--each` says otherwise: one thread (a level
/// searches on one anyway; full strength as the anchor's statement says), no book.
const BASE_EACH: [&str; 4] = [
    "option.Threads=1",
    "option.Hash=64",
    "option.OwnBook=false",
    "option.PinThreads=false",
];

/// The levels that play full strength unless `--against-full` says otherwise.
const DEFAULT_AGAINST_FULL: [u8; 1] = [16];

/// `pao-tools levels`: the ratings of Pao's levels, measured.
#[derive(clap::Args, Debug)]
pub struct LevelsArgs {
    /// The levels measured: a range and/or a list (`0-20`, `0,4,8`); 20 is full strength
    #[arg(long, value_name = "LIST", default_value = "0-20", value_parser = plan::parse_levels)]
    levels: ::std::vec::Vec<u8>,
    /// Each level plays the levels this many places above it in the list
    #[arg(
        long,
        value_name = "LIST",
        default_value = "1,2",
        value_delimiter = ','
    )]
    steps: Vec<usize>,
    /// Levels that also play full strength (level 20) [default: 16, when measured]
    #[arg(long = "against-full", value_name = "LIST", value_parser = plan::parse_levels)]
    against_full: Option<::std::vec::Vec<u8>>,
    /// Games per pairing (each opening twice, colours swapped: keep it even)
    #[arg(long, value_name = "N", default_value_t = 100)]
    games: usize,
    /// The scale's clock: full strength's and the anchor's
    #[arg(long, value_name = "TC", default_value = "10+0.1", value_parser = parse_tc)]
    tc: Limit,
    /// The levels' clock: generous, so that a level stops at its node budget, not its clock
    #[arg(long = "level-tc", value_name = "TC", default_value = "120+1", value_parser = parse_tc)]
    level_tc: Limit,
    /// Games played at once
    #[arg(long, value_name = "K", default_value_t = 1)]
    concurrency: usize,
    /// Directory of the results (one results file per pairing: a stopped run continues),
    /// the games and the table
    #[arg(long, value_name = "DIR", default_value = "levels")]
    out: PathBuf,
    /// Openings file (one line each, as `match --openings` takes them)
    #[arg(
        long,
        value_name = "FILE",
        default_value = "tools/data/balanced-openings.txt"
    )]
    openings: String,
    /// Pao (default: the pao beside pao-tools, else on PATH)
    #[arg(long, value_name = "PATH")]
    engine: Option<String>,
    /// Settings for every Pao, as `match --each` (after the defaults option.Threads=1
    /// option.Hash=64 option.OwnBook=false option.PinThreads=false)
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<String>,
    /// The anchor: an engine whose rating at --tc is stated (--anchor-rating)
    #[arg(long = "anchor-cmd", value_name = "PATH")]
    anchor_cmd: Option<String>,
    /// The anchor's other settings as `match --engine` takes them: proto=ucci, dir=DIR,
    /// option.NAME=VALUE, arg=ARG
    #[arg(long = "anchor-engine", value_name = "KEY=VALUE", num_args = 1..)]
    anchor_engine: Vec<String>,
    /// The anchor's name in the games and the table
    #[arg(long = "anchor-name", value_name = "NAME", default_value = "anchor")]
    anchor_name: String,
    /// The anchor's rating at --tc: the scale. Without an anchor, the highest level measured
    /// is held at it instead
    #[arg(long = "anchor-rating", value_name = "ELO", default_value_t = 2000.0)]
    anchor_rating: f64,
    /// The anchor's first opponent (default: the highest level measured); its second is the
    /// level then nearest it
    #[arg(long = "anchor-first", value_name = "LEVEL")]
    anchor_first: Option<u8>,
    /// The anchor's only opponent (no second match)
    #[arg(
        long = "anchor-level",
        value_name = "LEVEL",
        conflicts_with = "anchor_first"
    )]
    anchor_level: Option<u8>,
    /// Print the matches to play and stop
    #[arg(long, conflicts_with = "report")]
    plan: bool,
    /// Play nothing: the table from the results already in --out
    #[arg(long)]
    report: bool,
}

/// Everything the run needs, checked.
struct Calibration {
    plan: PlanConfig,
    players: Players,
    table: Table,
    anchor_rating: f64,
    plan_only: bool,
    report_only: bool,
}

/// Checks the arguments (usage errors) and loads the openings.
fn calibration(a: LevelsArgs) -> Result<Calibration, String> {
    if a.levels.len() < 2 {
        return Err("--levels: give at least two levels".to_string());
    }
    if a.steps.is_empty() || a.steps.contains(&0) {
        return Err("--steps: give positive steps".to_string());
    }
    if a.games == 0 || a.concurrency == 0 {
        return Err("--games and --concurrency must be positive".to_string());
    }
    let against_full = a.against_full.unwrap_or_else(|| {
        DEFAULT_AGAINST_FULL
            .iter()
            .copied()
            .filter(|l| a.levels.contains(l))
            .collect()
    });
    for l in against_full
        .iter()
        .chain(&a.anchor_first)
        .chain(&a.anchor_level)
    {
        if !a.levels.contains(l) {
            return Err(format!("level {l} is not among --levels"));
        }
    }
    let name = &a.anchor_name;
    if name.is_empty() || plan::parse_levels(name.trim_start_matches('L')).is_ok() {
        return Err(format!("--anchor-name '{name}' is empty or a level's name"));
    }
    if a.anchor_engine
        .iter()
        .any(|w| w.starts_with("name=") || w.starts_with("cmd="))
    {
        return Err(
            "--anchor-engine: give the name with --anchor-name, the program with --anchor-cmd"
                .to_string(),
        );
    }
    if a.anchor_cmd.is_none()
        && (!a.anchor_engine.is_empty() || a.anchor_first.is_some() || a.anchor_level.is_some())
    {
        return Err("the anchor's settings need --anchor-cmd".to_string());
    }
    let anchor = a.anchor_cmd.as_ref().map(|cmd| {
        let mut words = vec![format!("cmd={cmd}")];
        words.extend(a.anchor_engine.iter().cloned());
        words
    });
    let mut each: Vec<String> = BASE_EACH.iter().map(|s| s.to_string()).collect();
    each.extend(a.each.iter().cloned());
    let players = Players {
        engine: a.engine.unwrap_or_else(default_engine),
        each,
        level_tc: a.level_tc,
        tc: a.tc,
        anchor,
        anchor_name: a.anchor_name,
    };
    // Every engine's settings parse before anything runs.
    for &l in &a.levels {
        players.spec(Player::Level(l))?;
    }
    if players.anchor.is_some() {
        players.spec(Player::Anchor)?;
    }
    let plan = PlanConfig {
        levels: a.levels,
        steps: a.steps,
        against_full,
        anchor: players.anchor.is_some(),
        anchor_first: a.anchor_first,
        anchor_only: a.anchor_level,
    };
    // Only games need them (a results file names no opening).
    let openings = if a.plan || a.report {
        Vec::new()
    } else {
        openings::load(Some(&a.openings))?
    };
    Ok(Calibration {
        plan,
        players,
        table: Table {
            dir: a.out,
            games: a.games,
            openings,
            concurrency: a.concurrency,
        },
        anchor_rating: a.anchor_rating,
        plan_only: a.plan,
        report_only: a.report,
    })
}

impl LevelsArgs {
    /// Whether it only prints a report or a listing (`main.rs` says what that changes).
    pub fn only_prints(&self) -> bool {
        // `--report` writes the table into --out as well.
        self.plan
    }
}

/// Runs `pao-tools levels`.
pub fn run(args: LevelsArgs) -> Result<(), Failure> {
    let c = calibration(args).map_err(Failure::Usage)?;
    if c.plan_only {
        print!("{}", plan_text(&c));
        return Ok(());
    }
    if !c.report_only {
        std::fs::create_dir_all(&c.table.dir)
            .map_err(|e| format!("cannot create '{}': {e}", c.table.dir.display()))?;
    }
    settings::check(&c.table.dir, &c.players, !c.report_only)?;
    let mut pairings = plan::first_round(&c.plan);
    let mut scores = Vec::new();
    for p in &pairings {
        scores.push(settle(p, &c)?);
    }
    if c.plan.anchor {
        let (fit, _) = fit_all(&c, &pairings, &scores)?;
        let players = fitted_players(&c);
        let anchor_elo = fit.ratings[players.len() - 1].elo;
        let level_elos: Vec<(u8, f64)> = players
            .iter()
            .zip(&fit.ratings)
            .filter_map(|(p, r)| match p {
                Player::Level(l) => Some((*l, r.elo)),
                Player::Anchor => None,
            })
            .collect();
        if let Some(second) = plan::second_round(&c.plan, anchor_elo, &level_elos) {
            println!(
                "the anchor's second match: {}",
                second.stem(&c.players.anchor_name)
            );
            scores.push(settle(&second, &c)?);
            pairings.push(second);
        }
        // The anchor's games against other levels (an earlier run's second match, when more
        // games moved its nearest level) count too.
        for &l in &c.plan.levels {
            let p = Pairing::new(Player::Anchor, Player::Level(l));
            if !pairings.contains(&p) {
                let score = play::score(&p, &c.players, &c.table)?;
                if score.0 > 0 {
                    pairings.push(p);
                    scores.push(score);
                }
            }
        }
    }
    let (fit, note) = fit_all(&c, &pairings, &scores)?;
    let players = fitted_players(&c);
    let games: Vec<usize> = players
        .iter()
        .map(|&p| {
            pairings
                .iter()
                .zip(&scores)
                .filter(|(q, _)| q.has(p))
                .map(|(_, s)| s.0)
                .sum()
        })
        .collect();
    let total: usize = scores.iter().map(|s| s.0).sum();
    let cx = report::Context {
        players: &players,
        games: &games,
        anchor_name: &c.players.anchor_name,
        anchored: c.plan.anchor,
        scale: format!(
            "{} ({total} games in {} pairings)",
            scale(&c),
            pairings.len()
        ),
        note,
    };
    let text = report::report(&fit, &cx);
    let path = c.table.dir.join("table.md");
    std::fs::write(&path, &text).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
    print!("{text}");
    Ok(())
}

/// Plays a pairing (or, with --report, only reads its results) and says how it stands.
fn settle(p: &Pairing, c: &Calibration) -> Result<play::Score, String> {
    let score = if c.report_only {
        play::score(p, &c.players, &c.table)?
    } else {
        play::play(p, &c.players, &c.table)?
    };
    let anchor = &c.players.anchor_name;
    println!(
        "{}: {} games, {} {} points",
        p.stem(anchor),
        score.0,
        p.a.name(anchor),
        score.1
    );
    Ok(score)
}

/// The players of the fit: the levels in order, then the anchor if there is one.
fn fitted_players(c: &Calibration) -> Vec<Player> {
    let mut players: Vec<Player> = c.plan.levels.iter().map(|&l| Player::Level(l)).collect();
    if c.plan.anchor {
        players.push(Player::Anchor);
    }
    players
}

/// The scale in one sentence.
fn scale(c: &Calibration) -> String {
    let levels = format!(
        "levels at {} (bound by their nodes), full strength at {}",
        c.players.level_tc, c.players.tc
    );
    if c.plan.anchor {
        format!(
            "scale: {} at {} = {}; {levels}",
            c.players.anchor_name, c.players.tc, c.anchor_rating
        )
    } else {
        let top = c.plan.levels.last().copied().unwrap_or(FULL);
        format!(
            "scale: no anchor, level {top} held at {} (relative ratings); {levels}",
            c.anchor_rating
        )
    }
}

/// The fit of all the games so far; when it has no finite solution, the fit again with one
/// drawn game added to each pairing, and a note saying so.
fn fit_all(
    c: &Calibration,
    pairings: &[Pairing],
    scores: &[play::Score],
) -> Result<(fit::Fit, Option<String>), String> {
    let players = fitted_players(c);
    let index = |p: Player| players.iter().position(|&q| q == p).unwrap_or(0);
    let tallies: Vec<Tally> = pairings
        .iter()
        .zip(scores)
        .filter(|(_, s)| s.0 > 0)
        .map(|(p, s)| Tally {
            a: index(p.a),
            b: index(p.b),
            games: s.0 as f64,
            points: s.1,
        })
        .collect();
    let anchor = players.len() - 1;
    let name = |i: usize| match players[i] {
        Player::Level(l) => format!("level {l}"),
        Player::Anchor => c.players.anchor_name.clone(),
    };
    let explain = |e: FitError| match e {
        FitError::Unconnected(i) => format!(
            "{} has no games linking it to {}: its matches are not played yet",
            name(i),
            name(anchor)
        ),
        e => e.to_string(),
    };
    match fit::fit(players.len(), &tallies, anchor, c.anchor_rating) {
        Ok(f) => Ok((f, None)),
        Err(FitError::NoFiniteFit) => {
            let padded: Vec<Tally> = tallies
                .iter()
                .map(|t| Tally {
                    games: t.games + 1.0,
                    points: t.points + 0.5,
                    ..*t
                })
                .collect();
            let f = fit::fit(players.len(), &padded, anchor, c.anchor_rating).map_err(explain)?;
            let note = "a player won or lost every game linking it to the others, so one drawn \
                        game was added to each pairing to fit the ratings; play more games";
            Ok((f, Some(note.to_string())))
        }
        Err(e) => Err(explain(e)),
    }
}

/// `--plan`: the matches in order.
fn plan_text(c: &Calibration) -> String {
    let anchor = &c.players.anchor_name;
    let mut out = format!("{}\n", scale(c));
    let first = plan::first_round(&c.plan);
    for p in &first {
        out.push_str(&format!("{} games: {}\n", c.table.games, p.stem(anchor)));
    }
    if c.plan.anchor && c.plan.anchor_only.is_none() {
        out.push_str(&format!(
            "{} games: {anchor} against the level nearest it after these (unless it met it already)\n",
            c.table.games
        ));
    }
    out
}
