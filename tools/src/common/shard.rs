//! `--shard I/N`: one of N parts of a run that is spread over several machines (a Slurm array
//! job, see docs/cluster.md). A run is a sequence of numbered units (datagen's games, a match's
//! game pairs); shard I plays every N-th unit starting with unit I - 1, so the shards together
//! play each unit once and a merge can put their output back in the order of one run.

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count`, `1 <= index <= count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// Shard `index` of `count`; `None` unless `1 <= index <= count`.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index >= 1 && index <= count).then_some(Shard { index, count })
    }

    /// I, from 1.
    pub fn index(self) -> u64 {
        self.index
    }

    /// Whether unit `unit` (from 0) of the run is this shard's.
    pub fn owns(self, unit: u64) -> bool {
        unit % self.count == self.index - 1
    }

    /// The run's unit number of this shard's `local`-th unit (both from 0).
    pub fn unit(self, local: u64) -> u64 {
        self.index - 1 + local * self.count
    }

    /// How many of units `0..total` are this shard's.
    pub fn share(self, total: u64) -> u64 {
        total.saturating_sub(self.index - 1).div_ceil(self.count)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N` with `1 <= I <= N`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not a shard I/N with 1 <= I <= N");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let i: u64 = i.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        Shard::new(i, n).ok_or_else(bad)
    }
}

/// Checks that `shards` are exactly shards 1 to N of one N, in any order; returns N.
pub fn check_complete(shards: &[Shard]) -> Result<u64, String> {
    let Some(first) = shards.first() else {
        return Err("no shard files given".into());
    };
    let n = first.count;
    if let Some(other) = shards.iter().find(|s| s.count != n) {
        return Err(format!(
            "shard {other} does not belong with shard {first}: every shard must be one of {n}"
        ));
    }
    let mut seen = vec![false; n as usize];
    for s in shards {
        let slot = &mut seen[(s.index - 1) as usize];
        if *slot {
            return Err(format!("shard {s} is given twice"));
        }
        *slot = true;
    }
    match seen.iter().position(|&s| !s) {
        Some(missing) => Err(format!("shard {}/{n} is missing", missing + 1)),
        None => Ok(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_refuses() {
        let s: Shard = "2/3".parse().expect("valid");
        assert_eq!(s, Shard::new(2, 3).expect("valid"));
        assert_eq!(s.to_string(), "2/3");
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "1/-2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn every_unit_belongs_to_exactly_one_shard() {
        let shards: Vec<Shard> = (1..=3).map(|i| Shard::new(i, 3).expect("valid")).collect();
        for unit in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.owns(unit)).count(), 1);
        }
        assert_eq!(
            (0..3).map(|k| shards[1].unit(k)).collect::<Vec<_>>(),
            vec![1, 4, 7]
        );
        // 7 units: 0 3 6 | 1 4 | 2 5.
        assert_eq!(
            shards.iter().map(|s| s.share(7)).collect::<Vec<_>>(),
            vec![3, 2, 2]
        );
        assert_eq!(shards[2].share(2), 0);
        for total in 0..12 {
            let owned = |s: &Shard| (0..total).filter(|&u| s.owns(u)).count() as u64;
            for s in &shards {
                assert_eq!(s.share(total), owned(s), "{s} of {total}");
            }
        }
    }

    #[test]
    fn a_complete_set_is_checked() {
        let s = |i, n| Shard::new(i, n).expect("valid");
        assert_eq!(check_complete(&[s(2, 2), s(1, 2)]), Ok(2));
        assert_eq!(
            check_complete(&[s(1, 3), s(3, 3)]),
            Err("shard 2/3 is missing".into())
        );
        assert_eq!(
            check_complete(&[s(1, 2), s(1, 2)]),
            Err("shard 1/2 is given twice".into())
        );
        assert!(check_complete(&[s(1, 2), s(2, 3)]).is_err());
        assert!(check_complete(&[]).is_err());
    }
}
