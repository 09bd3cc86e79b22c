//! The stages of a generation, in order: data, train, screen, SPRT (stages/sprt.rs), and the
//! decision. Each one skips itself when `state.txt` says it is done, and runs its program as a
//! child process (see child.rs) with the files of the generation's directory.

use super::child::{self, Ended};
use super::decision::{self, field, outcome, Facts};
use super::pairing::Pairing;
use super::state::State;
use super::GenerationArgs;
use super::{attempt, settings, window};
use crate::common::{atomic, lock};
use crate::train::init;
use pao::eval::nnue::Network;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod sprt;

/// The current net's bytes in the generation's directory.
const CURRENT: &str = "current.nnue";

/// The committed book of many balanced openings, written into the generation's directory for
/// its matches: at fixed nodes a game played twice from one opening and colours is the same
/// game, so a long SPRT needs an opening for every pair it plays.
const OPENINGS: &str = include_str!("../../data/balanced-openings-8ply.txt");

/// How far a stage got in this run.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    /// Finished.
    Done,
    /// The budget ran out, or a signal came, before it finished.
    Stopped,
    /// The SPRT is undecided and waits for the next run (it said so).
    Waits,
}

/// A stage.
type Stage = fn(&mut Generation) -> Result<Step, String>;

/// The state key of an SPRT left undecided, waiting for the next run: its games and LLR then,
/// and its results file.
const SPRT_UNDECIDED: &str = "sprt_undecided";

/// One generation being made.
pub struct Generation {
    args: GenerationArgs,
    /// The data directory (every generation's directory is in it).
    root: PathBuf,
    /// This generation's directory: its data, the current net's bytes, the first attempt.
    base: PathBuf,
    /// This attempt's directory (`base`, or `base/attempt-N` after `--retry`).
    dir: PathBuf,
    engine: PathBuf,
    program: PathBuf,
    checksum: u64,
    threads: usize,
    seed: u64,
    state: State,
    /// When this run must stop: the budget less what earlier runs spent, or the whole budget
    /// when an SPRT continues.
    deadline: Instant,
    /// The seconds earlier runs spent (`spent_seconds` when this run started).
    spent_before: f64,
    /// Whether an SPRT left undecided by an earlier run continues with this run's whole
    /// budget: the lines then count this run's minutes apart from the earlier runs'.
    sprt_continues: bool,
    /// The generation's lock: one run at a time.
    _lock: lock::Lock,
}

impl Generation {
    /// Opens (or creates) the directory of the generation that starts from `args.net`, takes
    /// its lock, writes the current net's bytes into it, and opens the attempt (a new one with
    /// `--retry`), checking its recorded settings.
    pub fn open(
        args: GenerationArgs,
        root: PathBuf,
        engine: PathBuf,
        program: PathBuf,
    ) -> Result<Generation, String> {
        let root = std::path::absolute(&root).map_err(|e| format!("{}: {e}", root.display()))?;
        let bytes = init::load(&args.net)?.to_bytes();
        let checksum = super::body_checksum(&bytes);
        let base = root.join(format!("gen-{checksum:016x}"));
        std::fs::create_dir_all(&base).map_err(|e| format!("{}: {e}", base.display()))?;
        let lock = lock::acquire(
            &base.join("generation"),
            &format!("pao-tools generation --net {}", args.net),
        )?;
        let current = base.join(CURRENT);
        if !current.exists() {
            atomic::write(&current, &bytes)?;
        }
        let seed = args.seed.unwrap_or(super::default_seed(checksum));
        let (dir, mut state) = attempt::open(&base, args.retry)?;
        if state.get("net").is_none() {
            state.set("net", format!("{} {checksum:016x}", args.net))?;
        }
        settings::check_and_record(&mut state, &args, seed)?;
        let spent = state.number("spent_seconds");
        // An SPRT left undecided by an earlier run continues with this run's whole budget.
        let sprt_continues = state.get(SPRT_UNDECIDED).is_some();
        let left = if sprt_continues {
            args.minutes * 60.0
        } else {
            (args.minutes * 60.0 - spent).max(0.0)
        };
        let threads = args.threads.unwrap_or_else(num_cpus::get).max(1);
        Ok(Generation {
            args,
            root,
            base,
            dir,
            engine,
            program,
            checksum,
            threads,
            seed,
            state,
            deadline: Instant::now() + Duration::from_secs_f64(left),
            spent_before: spent,
            sprt_continues,
            _lock: lock,
        })
    }

    /// The current net's file in the generation's directory, after checking that it is still
    /// the net the directory is named by: every stage plays and trains with these bytes.
    fn current(&self) -> Result<String, String> {
        let path = self.base.join(CURRENT);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let found = super::body_checksum(&bytes);
        if found != self.checksum {
            return Err(format!(
                "{}: body checksum {found:016x}, not the generation's {:016x}; put back the \
                 current net's bytes (pao-tools generation writes them when the file is missing)",
                path.display(),
                self.checksum
            ));
        }
        Ok(path.display().to_string())
    }

    /// This generation's self-play data (kept by every attempt).
    fn data_path(&self) -> PathBuf {
        self.base.join("data.bin")
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn say(&self, line: &str) {
        println!("generation: {line}");
    }

    fn seconds_left(&self) -> f64 {
        self.deadline
            .saturating_duration_since(Instant::now())
            .as_secs_f64()
    }

    /// Runs a stage's program until it ends, the budget does or a signal comes; the time goes
    /// to `STAGE_seconds` and to the generation's total as it passes.
    fn child(
        &mut self,
        stage: &str,
        args: Vec<String>,
        deadline: Instant,
    ) -> Result<Ended, String> {
        let every = Duration::from_secs(self.args.report_every.max(1));
        let log = self.path(&format!("{stage}.log"));
        let key = format!("{stage}_seconds");
        let state = &mut self.state;
        let mut tick = |seconds: f64| -> Result<(), String> {
            state.add_seconds(&key, seconds)?;
            state.add_seconds("spent_seconds", seconds)
        };
        let ended = child::run(
            &self.program,
            &args,
            &log,
            deadline,
            every,
            &|line| println!("generation: {stage}: {line}"),
            &mut tick,
        )?;
        if let Ended::Stopped(signal) = ended {
            self.say(&format!(
                "stopped by {signal} in the {stage} stage, its child with it; {}; run the same \
                 command to continue",
                self.spent()
            ));
        }
        Ok(ended)
    }

    /// The time this run may spend, as the first line says it: what is left of the budget
    /// over every run, or, when an SPRT continues, the whole budget for this run beside what
    /// the earlier runs spent.
    fn budget(&self) -> String {
        if self.sprt_continues {
            format!(
                "the SPRT continues: {} minutes for this run ({:.1} spent by earlier runs)",
                self.args.minutes,
                self.spent_before / 60.0
            )
        } else {
            format!(
                "{:.0} of {} minutes left",
                self.seconds_left() / 60.0,
                self.args.minutes
            )
        }
    }

    /// The time spent so far, as the line of a stopped run says it: against the budget over
    /// every run, or, when an SPRT continues, against this run's own budget and in all.
    fn spent(&self) -> String {
        let all = self.state.number("spent_seconds");
        if self.sprt_continues {
            format!(
                "{:.1} of this run's {} minutes spent ({:.1} in all)",
                (all - self.spent_before) / 60.0,
                self.args.minutes,
                all / 60.0
            )
        } else {
            format!("{:.1} of {} minutes spent", all / 60.0, self.args.minutes)
        }
    }

    /// All stages in order; stops early, with a line saying so, when the budget runs out.
    pub fn run(mut self) -> Result<(), String> {
        self.say(&format!(
            "{} (current net {}, seed {}), {}",
            self.dir.display(),
            self.args.net,
            self.seed,
            self.budget()
        ));
        if let Some(decision) = self.state.get("decision") {
            self.say(&format!("already decided: {decision}"));
            return Ok(());
        }
        let stages: [(&str, Stage); 4] = [
            ("data", Generation::data),
            ("train", Generation::train),
            ("screen", Generation::screen),
            ("sprt", Generation::sprt),
        ];
        for (n, (name, stage)) in stages.into_iter().enumerate() {
            if self.state.get(&format!("{name}_done")).is_some() {
                continue;
            }
            self.say(&format!("stage {}/4: {name}", n + 1));
            let step = stage(&mut self)?;
            if step == Step::Waits {
                return Ok(());
            }
            if step == Step::Stopped {
                if crate::common::signals::stopped().is_none() {
                    self.say(&format!(
                        "out of time in the {name} stage; run the same command with a larger \
                         --minutes to continue where it stopped"
                    ));
                }
                return Ok(());
            }
            self.state.set(&format!("{name}_done"), "yes")?;
            if let Some(decision) = self.state.get("decision") {
                self.say(&format!("decided: {decision}"));
                return Ok(());
            }
        }
        self.decide()
    }

    /// Self-play with the current net until its share of the budget (or --data-positions).
    fn data(&mut self) -> Result<Step, String> {
        let share = self.args.minutes * 60.0 * self.args.data_share;
        let seconds = (share - self.state.number("data_seconds"))
            .min(self.seconds_left())
            .floor();
        let out = self.data_path();
        let have = if out.exists() {
            window::positions(&out)?
        } else {
            0
        };
        let enough = self.args.data_positions.is_some_and(|p| have >= p);
        if seconds >= 1.0 && !enough {
            let mut args = vec![
                "datagen".to_string(),
                "--out".into(),
                out.display().to_string(),
                "--threads".into(),
                self.threads.to_string(),
                "--nodes".into(),
                self.args.nodes.to_string(),
                "--seed".into(),
                self.seed.to_string(),
                "--seconds".into(),
                format!("{seconds:.0}"),
                "--report-every".into(),
                self.args.report_every.to_string(),
            ];
            args.extend(["--evalfile".into(), self.current()?]);
            if let Some(p) = self.args.data_positions {
                args.extend(["--positions".into(), p.to_string()]);
            }
            // Games under way finish after --seconds: allow them ten minutes.
            let deadline = Instant::now() + Duration::from_secs_f64(seconds + 600.0);
            if !matches!(self.child("data", args, deadline)?, Ended::Finished(_)) {
                return Ok(Step::Stopped);
            }
        }
        let positions = if out.exists() {
            window::positions(&out)?
        } else {
            0
        };
        if positions == 0 {
            return Err(format!(
                "no self-play data in {} (the data share of the budget is {:.0} s)",
                out.display(),
                share
            ));
        }
        self.state.set("data_positions", positions)?;
        self.say(&format!(
            "data: {positions} positions in {:.1} min (seed {}, {} nodes per move)",
            self.state.number("data_seconds") / 60.0,
            self.seed,
            self.args.nodes
        ));
        Ok(Step::Done)
    }

    /// The window, as recorded when training started (so that a resumed run trains on the
    /// same files; one that cannot be read is an error, never a reason to start again), or
    /// chosen now by lineage.
    fn window(&mut self) -> Result<Vec<window::Entry>, String> {
        if let Some(recorded) = self.state.get("window") {
            return window::recorded(recorded, self.state.path());
        }
        let current = Network::load(&self.current()?).map_err(|e| e.to_string())?;
        let mut others: Vec<PathBuf> = self
            .args
            .window
            .iter()
            .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone()))
            .collect();
        others.extend(window::lineage(
            &self.root,
            self.checksum,
            &current.provenance,
        ));
        let mut notes = Vec::new();
        let own = self.data_path();
        let (limit, files) = (self.args.window_positions, self.args.window_files);
        let chosen = window::choose(&own, &others, limit, files, &mut |n| notes.push(n))?;
        for n in notes {
            self.say(&format!("window: {n}"));
        }
        let recorded: Vec<String> = chosen
            .iter()
            .map(|e| format!("{}={}", e.path.display(), e.positions))
            .collect();
        self.state.set("window", recorded.join(","))?;
        Ok(chosen)
    }

    /// Training warm-started from the current net, resumed from its last checkpoint.
    fn train(&mut self) -> Result<Step, String> {
        let chosen = self.window()?;
        let total: u64 = chosen.iter().map(|e| e.positions).sum();
        self.say(&format!(
            "train: {total} positions in {} file(s), from {}",
            chosen.len(),
            self.args.net
        ));
        let checkpoints = self.path("train");
        let mut args = vec!["train".to_string(), "--data".into()];
        args.extend(chosen.iter().map(|e| e.path.display().to_string()));
        args.extend([
            "--init".into(),
            self.current()?,
            "--epochs".into(),
            self.args.epochs.to_string(),
            "--lr".into(),
            self.args.lr.to_string(),
            "--warmup".into(),
            self.args.warmup.to_string(),
            "--weight-decay".into(),
            self.args.weight_decay.to_string(),
            "--threads".into(),
            self.threads.to_string(),
            "--seed".into(),
            "1".into(),
            "--out".into(),
            self.path("candidate.nnue").display().to_string(),
            "--checkpoint-dir".into(),
            checkpoints.display().to_string(),
        ]);
        if let Some(h) = self.args.hidden {
            args.extend(["--hidden".into(), h.to_string()]);
        }
        if let Some(last) = last_checkpoint(&checkpoints) {
            self.say(&format!("train: resuming from {}", last.display()));
            args.extend(["--resume".into(), last.display().to_string()]);
        } else if let Some(parent) = window::accepted_in(&self.root, self.checksum) {
            // The training that made the current net, continued where it exists.
            if let Some(state) = last_checkpoint(&parent.join("train")) {
                args.extend(["--init-state".into(), state.display().to_string()]);
            }
        }
        let deadline = self.deadline;
        if !matches!(self.child("train", args, deadline)?, Ended::Finished(_)) {
            return Ok(Step::Stopped);
        }
        let bytes = std::fs::read(self.path("candidate.nnue"))
            .map_err(|e| format!("the trained net: {e}"))?;
        let candidate = Network::from_bytes(&bytes).map_err(|e| format!("the trained net: {e}"))?;
        self.state.set(
            "candidate",
            format!("{:016x}", super::body_checksum(&bytes)),
        )?;
        self.say(&format!(
            "train: candidate.nnue, {}, val loss {} in {:.1} min",
            init::shape(candidate.features, candidate.hidden, candidate.activation),
            field(&candidate.provenance, "val loss ").unwrap_or("-"),
            self.state.number("train_seconds") / 60.0
        ));
        Ok(Step::Done)
    }

    /// The match arguments shared by the screen and the SPRT: the candidate first, both nets
    /// given to the engine as files (the current net's bytes from the generation's directory,
    /// whatever net the engine embeds). The candidate must be the one training wrote: a match
    /// resumes only for the same bytes.
    fn match_args(&self, results: &str) -> Result<Vec<String>, String> {
        let candidate = self.path("candidate.nnue");
        let bytes =
            std::fs::read(&candidate).map_err(|e| format!("{}: {e}", candidate.display()))?;
        let trained = self.state.get("candidate").unwrap_or("-");
        let found = format!("{:016x}", super::body_checksum(&bytes));
        if found != trained {
            return Err(format!(
                "{}: body checksum {found}, not {trained} as training wrote it; the matches \
                 resume only for the same net: put it back, or give --retry to train a new \
                 attempt",
                candidate.display()
            ));
        }
        let openings = self.path("openings.txt");
        if !openings.exists() {
            atomic::write(&openings, OPENINGS.as_bytes())?;
        }
        let current = self.current()?;
        let pairing = Pairing {
            engine: &self.engine.display().to_string(),
            candidate: &candidate.display().to_string(),
            net: &current,
            hash: self.args.hash,
            openings: &openings.display().to_string(),
        };
        let mut args = vec!["match".to_string()];
        args.extend(pairing.args());
        args.extend([
            "--concurrency".into(),
            self.threads.to_string(),
            "--resume".into(),
            self.path(results).display().to_string(),
        ]);
        Ok(args)
    }

    /// A fixed-node match; the generation ends here when the candidate is clearly worse (the
    /// top of its 95% interval below zero).
    fn screen(&mut self) -> Result<Step, String> {
        if self.args.screen_games == 0 {
            return Ok(Step::Done);
        }
        let mut args = self.match_args("screen.tsv")?;
        args.extend([
            "--games".into(),
            self.args.screen_games.to_string(),
            "--nodes".into(),
            self.args.screen_nodes.to_string(),
        ]);
        let deadline = self.deadline;
        let result = match self.child("screen", args, deadline)? {
            Ended::OutOfTime(_) | Ended::Stopped(_) => return Ok(Step::Stopped),
            Ended::Finished(r) => r.and_then(|r| outcome(&r)),
        };
        let result = result.ok_or("the screen printed no result line (see screen.log)")?;
        let (line, decision) = decision::screen(&result, self.args.screen_nodes);
        self.say(&format!("screen: {line}"));
        self.state.set("screen", &line)?;
        if let Some(decision) = decision {
            self.state.set("decision", decision)?;
        }
        Ok(Step::Done)
    }

    /// The SPRT accepted the candidate: the new net with its provenance, and its row.
    fn decide(&mut self) -> Result<(), String> {
        let get = |k: &str| self.state.get(k).unwrap_or("-").to_string();
        let facts = Facts {
            net: self.args.net.clone(),
            checksum: self.checksum,
            seed: self.seed,
            nodes: self.args.nodes,
            data_positions: get("data_positions"),
            data_minutes: self.state.number("data_seconds") / 60.0,
            window: get("window"),
            epochs: self.args.epochs,
            train_minutes: self.state.number("train_seconds") / 60.0,
            screen: get("screen"),
            sprt: get("sprt"),
        };
        let accepted = decision::accept(&self.dir, &self.path("candidate.nnue"), &facts)?;
        self.state
            .set("decision", format!("accepted: {}", accepted.display()))?;
        self.say(&format!(
            "accepted: {} (row for the generations table: {})",
            accepted.display(),
            self.path("row.md").display()
        ));
        Ok(())
    }
}

/// The last `epoch-N.ckpt` in `dir`.
fn last_checkpoint(dir: &Path) -> Option<PathBuf> {
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let n: usize = name
                .strip_prefix("epoch-")?
                .strip_suffix(".ckpt")?
                .parse()
                .ok()?;
            Some((n, e.path()))
        })
        .max_by_key(|(n, _)| *n)
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_checkpoint() {
        let dir = std::env::temp_dir().join(format!("pao-gen-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        assert_eq!(last_checkpoint(&dir), None);
        for n in [1, 2, 10] {
            std::fs::write(dir.join(format!("epoch-{n}.ckpt")), b"").expect("written");
        }
        assert_eq!(last_checkpoint(&dir), Some(dir.join("epoch-10.ckpt")));
        std::fs::remove_dir_all(&dir).ok();
    }
}
