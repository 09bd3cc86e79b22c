//! `pao-tools tune`: SPSA over the search's parameters (`pao::search::params`), by game pairs
//! at fixed nodes between θ+ and θ− of a `tune` build of the engine. Several pairs are in
//! flight at once; each finished pair updates the state file under its lock, so several
//! processes (a Slurm array) can share one state and take turns to write it. SIGINT or SIGTERM
//! stops a run in order: no pair is handed out after it, and the pairs in flight still count if
//! they finish (a Ctrl-C at a terminal also ends the engines, whose pairs are then lost).

pub mod play;
pub mod spsa;
pub mod state;

use crate::common::rng::SplitMix64;
use crate::common::{atomic, lock, openings, signals, Failure};
use crate::r#match::client::spec::parse_engine;
use crate::r#match::clock::Limit;
use crate::r#match::game::GameConfig;
use pao::search::params::{Param, PARAMS};
use pao::search::SearchConfig;
use play::Arena;
use spsa::Schedule;
use state::State;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// `pao-tools tune`: tunes the search's parameters by SPSA over game pairs.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct TuneArgs {
    #[command(subcommand)]
    command: Option<TuneCommand>,
    /// The state file: created by the first run, continued by the next ones
    #[arg(
        long,
        value_name = "FILE",
        default_value = "tools/data/tune/search.txt"
    )]
    state: PathBuf,
    /// The engine, a build made with `--features tune`, as KEY=VALUE settings like
    /// `match --engine` (cmd=PATH, arg=, option.NAME=VALUE, proto=)
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., required = true)]
    engine: Vec<String>,
    /// Nodes per move
    #[arg(long, value_name = "N", default_value_t = 20_000)]
    nodes: u64,
    /// Iterations (game pairs) of the whole run: the schedule reaches c_end and r_end there
    #[arg(long, value_name = "N", default_value_t = 5_000)]
    iterations: u64,
    /// Spall's A as a fraction of the iterations
    #[arg(long = "a-ratio", value_name = "X", default_value_t = 0.1)]
    a_ratio: f64,
    /// The learning rate a/c² at the final iteration
    #[arg(long = "r-end", value_name = "X", default_value_t = 0.002)]
    r_end: f64,
    /// Seed of the perturbations and of the openings' order
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Openings, one a line (as `match --openings`)
    #[arg(
        long,
        value_name = "FILE",
        default_value = "tools/data/balanced-openings.txt"
    )]
    openings: String,
    /// Draw after N engine plies
    #[arg(long, value_name = "N", default_value_t = 400)]
    maxplies: usize,
    /// Game pairs in flight at once (default: one per core)
    #[arg(long, value_name = "K")]
    concurrency: Option<usize>,
    /// Continue a state made with other settings (or another parameter table) with these
    #[arg(long = "new-settings")]
    new_settings: bool,
}

#[derive(clap::Subcommand, Debug)]
enum TuneCommand {
    /// Print a state's values and the `option.NAME=V` words that play them in `pao-tools match`
    Show {
        /// The state file
        #[arg(value_name = "STATE")]
        state: PathBuf,
    },
}

/// The settings that must stay the same over a run, as the state's `settings` line.
fn settings_line(args: &TuneArgs, engine: &crate::r#match::client::spec::EngineSpec) -> String {
    let list = |items: Vec<String>| {
        if items.is_empty() {
            "-".to_string()
        } else {
            items.join(",")
        }
    };
    let options = engine.options.iter().map(|(n, v)| format!("{n}={v}"));
    format!(
        "nodes={} iterations={} a-ratio={} r-end={} seed={} maxplies={} openings={} \
         engine-args={} engine-options={}",
        args.nodes,
        args.iterations,
        args.a_ratio,
        args.r_end,
        args.seed,
        args.maxplies,
        args.openings,
        list(engine.args.clone()),
        list(options.collect())
    )
}

/// Which parameters the run holds: those of a search switch that is off in the engine as the
/// run plays it (the engine's defaults, changed by an `option.SearchSwitches` of `--engine`).
/// The search never reads them there, so perturbing them would only let them drift with the
/// other parameters' results.
fn held_params(options: &[(String, String)]) -> Result<Vec<bool>, String> {
    let switches = options
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("SearchSwitches"))
        .map_or("", |(_, value)| value.as_str());
    let config = SearchConfig::FULL
        .with_switches(switches)
        .map_err(|e| format!("--engine option.SearchSwitches: {e}"))?;
    Ok(PARAMS
        .iter()
        .map(|p| p.switch.is_some_and(|s| config.is_on(s) == Some(false)))
        .collect())
}

/// Reads the state file, or `None` when there is none yet.
fn read(path: &Path) -> Result<Option<State>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => State::parse(&text)
            .map(Some)
            .map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// One read-modify-write of the state under its lock (waiting for another writer's turn).
/// The settings are checked each time: another process may have changed them.
fn with_state<T>(
    path: &Path,
    settings: &str,
    change: impl FnOnce(&mut State) -> T,
) -> Result<T, String> {
    let _lock = lock::wait(path, "pao-tools tune")?;
    let mut state =
        read(path)?.ok_or_else(|| format!("{}: removed during the run", path.display()))?;
    state
        .check(settings, PARAMS)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let out = change(&mut state);
    atomic::write(path, state.to_text().as_bytes())?;
    Ok(out)
}

/// Creates the state, or checks (or, with `--new-settings`, takes) the settings of one there.
fn open(path: &Path, settings: &str, new_settings: bool) -> Result<State, String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let _lock = lock::wait(path, "pao-tools tune")?;
    let mut state = match read(path)? {
        Some(s) => s,
        None => State::new(settings, PARAMS),
    };
    if let Err(e) = state.check(settings, PARAMS) {
        if !new_settings {
            return Err(format!("{}: {e}", path.display()));
        }
        state.adopt(settings, PARAMS);
    }
    atomic::write(path, state.to_text().as_bytes())?;
    Ok(state)
}

/// Everything a worker needs, shared by all.
struct Run<'a> {
    path: &'a Path,
    settings: String,
    schedule: Schedule,
    seed: u64,
    openings: Vec<openings::Opening>,
    arena: Arena,
    params: &'static [Param],
    /// The parameters neither perturbed nor moved (`held_params`).
    held: Vec<bool>,
    failed: AtomicBool,
}

impl Run<'_> {
    /// Plays pairs until the schedule's last iteration has been handed out, or a signal asks
    /// the run to stop.
    fn work(&self) -> Result<(), String> {
        while !self.failed.load(Ordering::Relaxed) && signals::stopped().is_none() {
            let claimed = with_state(self.path, &self.settings, |s| {
                (s.started < self.schedule.iterations).then(|| {
                    s.started += 1;
                    (s.started, s.theta())
                })
            })?;
            let Some((k, theta)) = claimed else {
                return Ok(());
            };
            let mut delta = spsa::perturbation(self.seed, k, self.params.len());
            for (d, _) in delta.iter_mut().zip(&self.held).filter(|(_, &h)| h) {
                *d = 0.0;
            }
            let [plus, minus] = spsa::players(self.params, &theta, &delta, &self.schedule, k);
            let opening =
                &self.openings[SplitMix64::for_game(self.seed, k).below(self.openings.len())];
            let wdl = match self.arena.pair(self.params, &plus, &minus, opening) {
                Ok(wdl) => wdl,
                // Its engines were stopped with the run (a terminal's Ctrl-C reaches them
                // too): the pair is lost, as in a kill, and the state stays as it was.
                Err(_) if signals::stopped().is_some() => return Ok(()),
                Err(e) => return Err(e),
            };
            let result = wdl[0] as f64 - wdl[1] as f64;
            let line = with_state(self.path, &self.settings, |s| {
                let mut theta = s.theta();
                spsa::update(self.params, &mut theta, &delta, &self.schedule, k, result);
                for (e, t) in s.params.iter_mut().zip(theta) {
                    e.value = t;
                }
                s.iteration += 1;
                s.games += 2;
                for (total, n) in s.wdl.iter_mut().zip(wdl) {
                    *total += n;
                }
                format!(
                    "tune: iteration {} of {} (pair {k}: plus {}-{}-{}); plus against minus \
                     {}-{}-{}",
                    s.iteration,
                    self.schedule.iterations,
                    wdl[0],
                    wdl[1],
                    wdl[2],
                    s.wdl[0],
                    s.wdl[1],
                    s.wdl[2]
                )
            })?;
            eprintln!("{line}");
        }
        Ok(())
    }
}

impl TuneArgs {
    /// Whether it only prints a report or a listing (`main.rs` says what that changes).
    pub fn only_prints(&self) -> bool {
        matches!(self.command, Some(TuneCommand::Show { .. }))
    }
}

/// Runs `pao-tools tune` (or `tune show`).
pub fn run(args: TuneArgs) -> Result<(), Failure> {
    if let Some(TuneCommand::Show { state }) = &args.command {
        let s = read(state)?.ok_or_else(|| format!("{}: no such file", state.display()))?;
        print!("{}", show(&s));
        return Ok(());
    }
    if args.iterations == 0 || args.nodes == 0 {
        return Err(Failure::Usage(
            "--iterations and --nodes must be at least 1".to_string(),
        ));
    }
    if !(args.r_end > 0.0 && args.a_ratio >= 0.0) {
        return Err(Failure::Usage(
            "--r-end must be above 0 and --a-ratio at least 0".to_string(),
        ));
    }
    let engine = parse_engine(&[], &args.engine).map_err(Failure::Usage)?;
    if engine.limit.is_some() {
        return Err(Failure::Usage(
            "--engine: the limit is --nodes, not the engine's own".to_string(),
        ));
    }
    let openings = openings::load(Some(&args.openings)).map_err(Failure::Usage)?;
    let held = held_params(&engine.options).map_err(Failure::Usage)?;
    let settings = settings_line(&args, &engine);
    let game = GameConfig {
        limit: Limit::Nodes(args.nodes),
        margin_ms: 50,
        move_timeout_ms: 60_000,
        handshake_timeout_ms: 10_000,
        max_plies: args.maxplies,
        resign: None,
        draw: None,
    };
    let arena = Arena::new(engine, game, PARAMS)?;
    let start = open(&args.state, &settings, args.new_settings)?;
    signals::install();
    let concurrency = args.concurrency.unwrap_or_else(num_cpus::get).max(1);
    let held_count = held.iter().filter(|&&h| h).count();
    let held_note = if held_count == 0 {
        String::new()
    } else {
        format!(" ({held_count} held: their search switches are off)")
    };
    eprintln!(
        "tune: {} parameters{held_note}, iteration {} of {}, {concurrency} pairs at a time, {} \
         nodes per move",
        PARAMS.len(),
        start.iteration,
        args.iterations,
        args.nodes
    );
    let run = Run {
        path: &args.state,
        settings,
        schedule: Schedule {
            iterations: args.iterations,
            a_ratio: args.a_ratio,
            r_end: args.r_end,
        },
        seed: args.seed,
        openings,
        arena,
        params: PARAMS,
        held,
        failed: AtomicBool::new(false),
    };
    let errors: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..concurrency)
            .map(|_| {
                scope.spawn(|| {
                    let r = run.work();
                    if r.is_err() {
                        run.failed.store(true, Ordering::Relaxed);
                    }
                    r
                })
            })
            .collect();
        workers
            .into_iter()
            .filter_map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err("a worker panicked".into()))
                    .err()
            })
            .collect()
    });
    if let Some(e) = errors.into_iter().next() {
        return Err(Failure::Run(e));
    }
    let end = read(&args.state)?.ok_or_else(|| "the state file is gone".to_string())?;
    if let (Some(name), Some(signal)) = (signals::stopped(), signals::stopped_by()) {
        eprintln!(
            "tune: stopped by {name} at iteration {} of {} ({} handed out); the same command \
             continues",
            end.iteration, args.iterations, end.started
        );
        return Err(Failure::Interrupted(signal));
    }
    print!("{}", show(&end));
    Ok(())
}

/// The values of a state and the option words that play them.
pub fn show(s: &State) -> String {
    let iterations = s
        .settings
        .split(' ')
        .find_map(|w| w.strip_prefix("iterations="))
        .unwrap_or("?");
    let mut out = format!(
        "iteration {} of {iterations} ({} started), {} games, plus against minus {}-{}-{}\n\
         {:<20} {:>10} {:>8} {:>6} {:>6} {:>6}\n",
        s.iteration,
        s.started,
        s.games,
        s.wdl[0],
        s.wdl[1],
        s.wdl[2],
        "parameter",
        "value",
        "default",
        "min",
        "max",
        "c_end"
    );
    for e in &s.params {
        let default = PARAMS
            .iter()
            .find(|p| p.name == e.name)
            .map_or("-".to_string(), |p| p.default.to_string());
        out.push_str(&format!(
            "{:<20} {:>10.2} {:>8} {:>6} {:>6} {:>6}\n",
            e.name, e.value, default, e.min, e.max, e.c_end
        ));
    }
    let words: Vec<String> = s
        .params
        .iter()
        .map(|e| format!("option.{}={}", e.name, e.value.round() as i64))
        .collect();
    out.push_str(&words.join(" "));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parameters_of_switches_that_are_off_are_held() {
        let names = |held: Vec<bool>| -> Vec<&str> {
            PARAMS
                .iter()
                .zip(held)
                .filter(|(_, h)| *h)
                .map(|(p, _)| p.name)
                .collect()
        };
        let defaults = held_params(&[]).expect("the defaults");
        assert_eq!(
            names(defaults),
            [
                "RazorDepth",
                "RazorMargin",
                "NmpEvalDivisor",
                "SingularDepth",
                "SingularMargin",
                "HistoryPruneDepth",
                "HistoryPruneMargin",
                "IirDepth",
                "DeltaMargin"
            ]
        );
        let options = |v: &str| vec![("searchswitches".to_string(), v.to_string())];
        let singular = held_params(&options("singular,-lmp")).expect("known switches");
        let singular = names(singular);
        assert!(!singular.contains(&"SingularDepth") && !singular.contains(&"SingularMargin"));
        assert!(singular.contains(&"LmpDepth") && singular.contains(&"LmpBase"));
        assert_eq!(
            held_params(&options("nosuch")),
            Err("--engine option.SearchSwitches: unknown search switch 'nosuch'".to_string())
        );
    }

    #[test]
    fn show_lists_the_values_and_the_option_words() {
        let mut s = State::new("nodes=1 iterations=40 seed=1", PARAMS);
        s.params[0].value = 121.6;
        s.iteration = 3;
        s.started = 4;
        s.games = 6;
        s.wdl = [2, 1, 3];
        let text = show(&s);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "iteration 3 of 40 (4 started), 6 games, plus against minus 2-1-3"
        );
        assert_eq!(
            lines[2],
            "FutilityMargin1          121.60      122     20    400     10"
        );
        assert!(lines
            .last()
            .unwrap()
            .starts_with("option.FutilityMargin1=122 option.FutilityMargin2=216 "));
        assert_eq!(lines.len(), 2 + PARAMS.len() + 1);
    }
}
