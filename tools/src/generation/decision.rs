//! How a generation is decided, and what it leaves when the SPRT accepts: the rules and files
//! shared by `pao-tools generation` (one machine) and `pao-tools generation decide` (the last
//! job of the Slurm pipeline), so that both take the same nets and write the same rows.

use crate::train::init;
use pao::eval::nnue::Network;
use std::path::{Path, PathBuf};

/// The fields of a `result: elo=X err=Y llr=Z w=W l=L d=D games=N sprt=V` line.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Elo of the first engine, and its 95% error.
    pub elo: f64,
    /// The 95% error (infinite before any game).
    pub err: f64,
    /// Wins, losses, draws of the first engine.
    pub wld: (u64, u64, u64),
    /// `accepted`, `rejected`, `running` or `off`.
    pub sprt: String,
}

/// Reads a match's `result:` line.
pub fn outcome(line: &str) -> Option<Outcome> {
    let field = |key: &str| {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
    };
    let number = |key: &str| field(key).and_then(|v| v.parse::<f64>().ok());
    let count = |key: &str| field(key).and_then(|v| v.parse::<u64>().ok());
    Some(Outcome {
        elo: number("elo")?,
        err: number("err")?,
        wld: (count("w")?, count("l")?, count("d")?),
        sprt: field("sprt")?.to_string(),
    })
}

impl Outcome {
    /// `+X ± Y (W-L-D)`.
    pub fn summary(&self) -> String {
        format!(
            "{:+.1} ± {:.1} ({}-{}-{})",
            self.elo, self.err, self.wld.0, self.wld.1, self.wld.2
        )
    }

    fn games(&self) -> u64 {
        self.wld.0 + self.wld.1 + self.wld.2
    }
}

/// The screen's line for the state and the row, and the decision when the screen ends the
/// generation: the candidate is clearly worse (the top of its 95% interval below zero).
pub fn screen(result: &Outcome, nodes: u64) -> (String, Option<String>) {
    let line = format!(
        "{} in {} games at {nodes} nodes per move",
        result.summary(),
        result.games()
    );
    let decision =
        (result.elo + result.err < 0.0).then(|| format!("rejected by the screen: {line}"));
    (line, decision)
}

/// The SPRT's limit as its line states it: nodes per move when given, else the clock.
pub fn sprt_limit(nodes: Option<u64>, tc: &str) -> String {
    match nodes {
        Some(n) => format!("{n} nodes per move"),
        None => tc.to_string(),
    }
}

/// The SPRT's line for the state and the row (`limit`: its clock or nodes per move), and the
/// decision unless the SPRT accepted the candidate.
pub fn sprt(result: &Outcome, limit: &str) -> (String, Option<String>) {
    let line = format!("{} {}, {}", result.summary(), result.sprt, limit);
    let decision = (result.sprt != "accepted").then(|| {
        format!(
            "not taken: the SPRT {} it ({line})",
            match result.sprt.as_str() {
                "rejected" => "rejected",
                _ => "did not accept",
            }
        )
    });
    (line, decision)
}

/// The decision when the SPRT is still undecided at the cap of games the user gave.
pub fn undecided_at_cap(line: &str, cap: u64, asked: bool) -> String {
    let why = if asked {
        "rejected as asked"
    } else {
        "every opening of the book played twice"
    };
    format!("not taken: the SPRT was undecided at cap {cap}, {why} ({line})")
}

/// What the accepted net's provenance and the row say about the generation.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// The current net as it was given (`embedded` or a file).
    pub net: String,
    /// Its body checksum.
    pub checksum: u64,
    /// Self-play: seed, nodes per move, positions, minutes.
    pub seed: u64,
    pub nodes: u64,
    pub data_positions: String,
    pub data_minutes: f64,
    /// The training window as recorded (`path=positions,...`).
    pub window: String,
    pub epochs: usize,
    pub train_minutes: f64,
    /// The screen's and the SPRT's lines (`-` when there was none).
    pub screen: String,
    pub sprt: String,
}

/// The SPRT accepted `candidate`: writes `dir/accepted.nnue` (the candidate with the generation
/// appended to its provenance) and `dir/row.md` (a row for the generations table of
/// docs/strength-log.md). Returns the accepted net's path.
pub fn accept(dir: &Path, candidate: &Path, facts: &Facts) -> Result<PathBuf, String> {
    let mut net = Network::load(&candidate.display().to_string())
        .map_err(|e| format!("{}: {e}", candidate.display()))?;
    net.provenance = format!(
        "{}; generation from {} (body checksum {:016x}): self-play {} positions, seed {}, {} \
         nodes per move; screen {}; SPRT {}",
        net.provenance,
        crate::train::provenance::relative_path(&facts.net, None),
        facts.checksum,
        facts.data_positions,
        facts.seed,
        facts.nodes,
        facts.screen,
        facts.sprt
    );
    let accepted = dir.join("accepted.nnue");
    crate::common::atomic::write(&accepted, &net.to_bytes())?;
    let row = format!(
        "| {date} | {data} positions of self-play by the current net ({nodes} nodes/move, seed \
         {seed}, {data_min:.0} min) + window: {window} | {shape}, {kib} KiB | {epochs} epochs \
         warm-started from {from}, {train_min:.1} min, val loss {val} | screen: {screen}; \
         SPRT: {sprt} |\n",
        date = crate::common::date::today().replace('.', "-"),
        data = facts.data_positions,
        nodes = facts.nodes,
        seed = facts.seed,
        data_min = facts.data_minutes,
        window = facts
            .window
            .split(',')
            .map(|e| e.rsplit('/').next().unwrap_or(e).to_string())
            .collect::<Vec<_>>()
            .join(", "),
        shape = init::shape(net.features, net.hidden, net.activation),
        kib = net.to_bytes().len() / 1024,
        epochs = facts.epochs,
        from = facts.net,
        train_min = facts.train_minutes,
        val = field(&net.provenance, "val loss ").unwrap_or("-"),
        screen = facts.screen,
        sprt = facts.sprt,
    );
    let path = dir.join("row.md");
    crate::common::atomic::write(&path, row.as_bytes())?;
    Ok(accepted)
}

/// The word after `key` in a provenance text (up to the next `;`).
pub fn field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let rest = &text[text.find(key)? + key.len()..];
    Some(rest.split(';').next().unwrap_or(rest).trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lines_are_read_and_summarised() {
        let o = outcome("result: elo=+12.5 err=30.1 llr=1.2 w=40 l=30 d=30 games=100 sprt=running")
            .expect("a result");
        assert_eq!(o.elo, 12.5);
        assert_eq!(o.wld, (40, 30, 30));
        assert_eq!(o.sprt, "running");
        assert_eq!(o.summary(), "+12.5 ± 30.1 (40-30-30)");
        assert_eq!(
            outcome("result: elo=+1.0 err=inf llr=- w=0 l=0 d=0 games=0 sprt=off").map(|o| o.err),
            Some(f64::INFINITY)
        );
        assert_eq!(outcome("status: nothing"), None);
    }

    #[test]
    fn the_screen_rejects_only_a_clearly_worse_net_and_the_sprt_only_takes_an_accepted_one() {
        let result = |line: &str| outcome(line).expect("a result");
        let worse = result("result: elo=-80.0 err=50.0 llr=- w=1 l=9 d=0 games=10 sprt=off");
        let (line, decision) = screen(&worse, 300);
        assert_eq!(
            line,
            "-80.0 ± 50.0 (1-9-0) in 10 games at 300 nodes per move"
        );
        assert_eq!(
            decision.as_deref(),
            Some("rejected by the screen: -80.0 ± 50.0 (1-9-0) in 10 games at 300 nodes per move")
        );
        let unclear = result("result: elo=-30.0 err=50.0 llr=- w=4 l=6 d=0 games=10 sprt=off");
        assert_eq!(screen(&unclear, 300).1, None);
        let accepted =
            result("result: elo=+9.0 err=4.0 llr=2.95 w=5 l=2 d=3 games=10 sprt=accepted");
        assert_eq!(sprt_limit(None, "3+0.03"), "3+0.03");
        assert_eq!(sprt_limit(Some(300), "3+0.03"), "300 nodes per move");
        assert_eq!(
            sprt(&accepted, "3+0.03"),
            ("+9.0 ± 4.0 (5-2-3) accepted, 3+0.03".to_string(), None)
        );
        for (verdict, says) in [
            ("rejected", "the SPRT rejected it"),
            ("running", "the SPRT did not accept it"),
            ("off", "the SPRT did not accept it"),
        ] {
            let r = result(&format!(
                "result: elo=+1.0 err=9.0 llr=0.1 w=1 l=1 d=0 games=2 sprt={verdict}"
            ));
            let decision = sprt(&r, "300 nodes per move").1.expect("not taken");
            assert!(
                decision.starts_with(&format!("not taken: {says} (+1.0 ± 9.0 (1-1-0) ")),
                "{decision}"
            );
        }
    }

    #[test]
    fn an_undecided_sprt_is_rejected_at_the_cap_given() {
        assert_eq!(
            undecided_at_cap("+1.0 ± 9.0 (1-1-2) running, 300 nodes per move", 4, true),
            "not taken: the SPRT was undecided at cap 4, rejected as asked (+1.0 ± 9.0 (1-1-2) \
             running, 300 nodes per move)"
        );
        assert_eq!(
            undecided_at_cap(
                "+1.0 ± 9.0 (1-1-2) running, 300 nodes per move",
                20_000,
                false
            ),
            "not taken: the SPRT was undecided at cap 20000, every opening of the book played \
             twice (+1.0 ± 9.0 (1-1-2) running, 300 nodes per move)"
        );
    }

    #[test]
    fn provenance_fields() {
        assert_eq!(
            field("a; K 263.4; val loss 0.009253; init x", "val loss "),
            Some("0.009253")
        );
        assert_eq!(field("a; val loss 0.1", "val loss "), Some("0.1"));
        assert_eq!(field("a", "val loss "), None);
    }
}
