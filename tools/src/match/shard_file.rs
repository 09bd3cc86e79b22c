//! A shard's results file (`match --shard I/N --resume FILE`) names its shard and its match in
//! a comment line under the usual header, so that `match merge` can rebuild the schedule and
//! refuse files of another match, and a shard continued with other settings is refused (`<TAB>`
//! stands for a tab):
//!
//! ```text
//! # pao-tools match results: index <TAB> red <TAB> black <TAB> result <TAB> plies <TAB> reason
//! # shard 2/4 <TAB> games 20 <TAB> gauntlet no <TAB> settings fnv1a:0123456789abcdef <TAB> engines <TAB> new <TAB> old
//! ```
//!
//! The unit shared out is a game pair (one opening, colours swapped): pair k of pairing p is
//! unit `k * pairings + p`, which numbers the pairs in the order their first games are
//! scheduled.

use super::config::MatchConfig;
use super::schedule::{pairings, Job};
use super::state;
use crate::common::shard::Shard;

/// What a shard's results file says about its match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardHeader {
    /// Which shard.
    pub shard: Shard,
    /// Games per pairing.
    pub games: usize,
    /// First engine against the others only.
    pub gauntlet: bool,
    /// Hash of everything else that decides the games (engines, limits, openings, rules).
    pub settings: String,
    /// The engines' names, in order.
    pub names: Vec<String>,
}

const PREFIX: &str = "# shard ";

impl ShardHeader {
    /// The header of `cfg`'s shard `shard`.
    pub fn of(cfg: &MatchConfig, shard: Shard) -> ShardHeader {
        ShardHeader {
            shard,
            games: cfg.games,
            gauntlet: cfg.gauntlet,
            settings: state::settings_of(cfg),
            names: cfg.engines.iter().map(|e| e.name.clone()).collect(),
        }
    }

    /// Whether `job` is this shard's to play.
    pub fn owns(&self, job: &Job) -> bool {
        let pairings = pairings(self.names.len(), self.gauntlet).len();
        self.shard.owns((job.pair * pairings + job.pairing) as u64)
    }

    /// The same match, whatever the shard.
    pub fn same_match(&self, other: &ShardHeader) -> bool {
        ShardHeader {
            shard: other.shard,
            ..self.clone()
        } == *other
    }

    /// The comment line.
    pub fn line(&self) -> String {
        let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        let mut line = format!(
            "{PREFIX}{}\tgames {}\tgauntlet {}\tsettings {}\tengines",
            self.shard,
            self.games,
            if self.gauntlet { "yes" } else { "no" },
            self.settings
        );
        for n in &self.names {
            line.push('\t');
            line.push_str(&clean(n));
        }
        line
    }

    fn parse_line(line: &str) -> Result<ShardHeader, String> {
        let bad = || format!("bad shard line '{line}'");
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 7 || f[4] != "engines" {
            return Err(bad());
        }
        let value = |field: &str, key: &str| -> Result<String, String> {
            field
                .strip_prefix(key)
                .and_then(|v| v.strip_prefix(' '))
                .map(str::to_string)
                .ok_or_else(bad)
        };
        Ok(ShardHeader {
            shard: f[0].strip_prefix(PREFIX).ok_or_else(bad)?.parse()?,
            games: value(f[1], "games")?.parse().map_err(|_| bad())?,
            gauntlet: match value(f[2], "gauntlet")?.as_str() {
                "yes" => true,
                "no" => false,
                _ => return Err(bad()),
            },
            settings: value(f[3], "settings")?,
            names: f[5..].iter().map(|s| s.to_string()).collect(),
        })
    }

    /// The header in a results file's text.
    pub fn from_text(text: &str) -> Result<ShardHeader, String> {
        let line = text
            .lines()
            .find(|l| l.starts_with(PREFIX))
            .ok_or("not a shard's results file (no '# shard' line)")?;
        ShardHeader::parse_line(line)
    }

    /// Starts the results file `path` with the header, or checks the header it has.
    pub fn prepare(&self, path: &str) -> Result<(), String> {
        let text = state::read_existing(path)?;
        if text.is_empty() {
            let head = format!("{}\n{}\n", state::HEADER, self.line());
            return state::append(path, &head);
        }
        let theirs = ShardHeader::from_text(&text).map_err(|e| format!("{path}: {e}"))?;
        if theirs.shard != self.shard {
            return Err(format!(
                "{path} holds shard {}, not {}",
                theirs.shard, self.shard
            ));
        }
        if !self.same_match(&theirs) {
            return Err(format!(
                "{path} holds games of another match (engines, games, openings, limits or \
                 rules differ)"
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::schedule::schedule;
    use super::*;

    fn header(i: u64, n: u64, names: &[&str], gauntlet: bool) -> ShardHeader {
        ShardHeader {
            shard: Shard::new(i, n).expect("valid"),
            games: 6,
            gauntlet,
            settings: "fnv1a:00000000000000ff".into(),
            names: names.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn the_line_round_trips() {
        let h = header(2, 3, &["new one", "old"], false);
        assert_eq!(
            h.line(),
            "# shard 2/3\tgames 6\tgauntlet no\tsettings fnv1a:00000000000000ff\tengines\tnew one\told"
        );
        let text = format!("{}\n{}\n0\tx\n", state::HEADER, h.line());
        assert_eq!(ShardHeader::from_text(&text), Ok(h.clone()));
        assert!(h.same_match(&header(1, 3, &["new one", "old"], false)));
        assert!(!h.same_match(&header(1, 3, &["new one", "older"], false)));
        assert!(ShardHeader::from_text(state::HEADER).is_err());
        assert!(ShardHeader::parse_line("# shard 2/3\tgames x").is_err());
    }

    #[test]
    fn shards_share_out_whole_pairs() {
        // Three engines round robin: 3 pairings, 4 games each = 6 pairs, 12 games.
        let jobs = schedule(3, false, 4, 2);
        let shards: Vec<ShardHeader> = (1..=4)
            .map(|i| header(i, 4, &["a", "b", "c"], false))
            .collect();
        for j in &jobs {
            let owners: Vec<u64> = shards
                .iter()
                .filter(|h| h.owns(j))
                .map(|h| h.shard.index())
                .collect();
            assert_eq!(owners.len(), 1, "{j:?}");
            // The game with colours swapped has the same owner.
            let twin = jobs
                .iter()
                .find(|k| k.pairing == j.pairing && k.pair == j.pair && k.index != j.index)
                .expect("every game has its twin");
            assert!(shards[owners[0] as usize - 1].owns(twin));
        }
        let of = |i: usize| -> Vec<usize> {
            jobs.iter()
                .filter(|j| shards[i].owns(j))
                .map(|j| j.index)
                .collect()
        };
        // Pairs in the order of their first games: (0,3), (1,4), (2,5), (6,9), (7,10), (8,11).
        assert_eq!(of(0), vec![0, 3, 7, 10]);
        assert_eq!(of(1), vec![1, 4, 8, 11]);
        assert_eq!(of(2), vec![2, 5]);
        assert_eq!(of(3), vec![6, 9]);
    }
}
