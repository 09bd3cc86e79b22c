//! The SPRT stage: the candidate against the current net, continued from its results file run
//! after run until its LLR crosses a bound (or the cap the user gave), and the state it
//! leaves for the next run when it is still undecided.

use super::super::child::Ended;
use super::super::decision::{self, outcome};
use super::{Generation, Step, SPRT_UNDECIDED};
use crate::r#match::results_sprt::{self, SprtState};

impl Generation {
    /// Where the SPRT stands on the games of its results file.
    fn sprt_state(&self) -> Result<SprtState, String> {
        let words: Vec<String> = self
            .args
            .sprt
            .split_whitespace()
            .map(String::from)
            .collect();
        let names = ["candidate".to_string(), "current".to_string()];
        results_sprt::read(&self.path("sprt.tsv").display().to_string(), &names, &words)
    }

    /// Records the SPRT as undecided and waiting for the next run, with its results file.
    fn sprt_waits(&mut self) -> Result<String, String> {
        let now = self.sprt_state()?;
        let progress = progress(&now);
        let results = self.path("sprt.tsv");
        self.state
            .set(SPRT_UNDECIDED, format!("{progress}, {}", results.display()))?;
        Ok(format!(
            "the SPRT of candidate {} is undecided after {progress} (bounds {:.2}, {:.2})",
            self.state.get("candidate").unwrap_or("-"),
            now.bounds.0,
            now.bounds.1
        ))
    }

    /// The SPRT against the current net, continued from its results file, at most
    /// `--sprt-games` games in this run. Undecided after them, or when the budget runs out, it
    /// waits for the next run; it rejects the candidate only when its LLR crosses the lower
    /// bound, or at the cap the user gave (`--sprt-cap`).
    pub(super) fn sprt(&mut self) -> Result<Step, String> {
        let before = self.sprt_state()?;
        if before.games > 0 {
            self.say(&format!(
                "continuing the SPRT of candidate {}: {}",
                self.state.get("candidate").unwrap_or("-"),
                progress(&before)
            ));
        }
        let mut args = self.match_args("sprt.tsv")?;
        let cap = self.sprt_cap()?;
        let mut games = before.games + self.args.sprt_games;
        if let Some(cap) = cap {
            games = games.min(cap);
        }
        // Never fewer than the file holds: a match refuses games beyond its number.
        let games = games.max(before.next as u64);
        args.extend([
            "--games".into(),
            games.to_string(),
            "--pgnout".into(),
            self.path("sprt.pgn").display().to_string(),
        ]);
        match self.args.sprt_nodes {
            Some(n) => args.extend(["--nodes".into(), n.to_string()]),
            None => args.extend(["--tc".into(), self.args.sprt_tc.clone()]),
        }
        args.push("--sprt".into());
        args.extend(self.args.sprt.split_whitespace().map(String::from));
        let deadline = self.deadline;
        let result = match self.child("sprt", args, deadline)? {
            Ended::Stopped(_) => {
                self.sprt_waits()?;
                return Ok(Step::Stopped);
            }
            Ended::OutOfTime(_) => {
                let line = self.sprt_waits()?;
                self.say(&format!(
                    "out of time in the sprt stage: {line}; run the same command to continue it \
                     (with its --minutes)"
                ));
                return Ok(Step::Waits);
            }
            Ended::Finished(r) => r.and_then(|r| outcome(&r)),
        };
        let result = result.ok_or("the SPRT printed no result line (see sprt.log)")?;
        let limit = decision::sprt_limit(self.args.sprt_nodes, &self.args.sprt_tc);
        let (line, decision) = decision::sprt(&result, &limit);
        self.say(&format!("sprt: {line}"));
        self.state.set("sprt", &line)?;
        let decision =
            match (result.sprt.as_str(), cap) {
                ("accepted", _) => None,
                ("rejected", _) => decision,
                (_, Some(cap)) if self.sprt_state()?.games >= cap => Some(
                    decision::undecided_at_cap(&line, cap, self.args.sprt_cap == Some(cap)),
                ),
                _ => {
                    let line = self.sprt_waits()?;
                    self.say(&format!(
                        "{line}: run the same command to continue it, or give --sprt-cap N to \
                     reject the candidate when it is still undecided after N games"
                    ));
                    return Ok(Step::Waits);
                }
            };
        self.state.remove(SPRT_UNDECIDED)?;
        if let Some(decision) = decision {
            self.state.set("decision", decision)?;
        }
        Ok(Step::Done)
    }
}

impl Generation {
    /// The most games of the SPRT: the user's `--sprt-cap`, and at fixed nodes twice the
    /// openings of the book (after them the same games would be played again).
    fn sprt_cap(&self) -> Result<Option<u64>, String> {
        let book = match self.args.sprt_nodes {
            Some(_) => {
                let path = self.path("openings.txt").display().to_string();
                Some(2 * crate::common::openings::load(Some(&path))?.len() as u64)
            }
            None => None,
        };
        Ok(match (self.args.sprt_cap, book) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        })
    }
}

/// `N games, LLR x`: the SPRT's progress, as the lines and the state say it.
fn progress(state: &SprtState) -> String {
    format!("{} games, LLR {:.2}", state.games, state.llr)
}
