//! Which matches a calibration plays: neighbouring levels chained, some levels against full
//! strength, and the anchor first against one level, then against the level nearest it.

use std::fmt;

/// The level of full strength.
pub const FULL: u8 = 20;

/// A player of the calibration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Player {
    /// Pao at a `Skill Level` (20: full strength).
    Level(u8),
    /// The engine whose rating is stated.
    Anchor,
}

impl Player {
    /// The name in the games and results files: `L0` ... `L20`, or the anchor's name.
    pub fn name(&self, anchor: &str) -> String {
        match self {
            Player::Level(l) => format!("L{l}"),
            Player::Anchor => anchor.to_string(),
        }
    }
}

/// Two players that meet, the lower level (or the anchor) first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The first player (plays red in the first game of each pair of games).
    pub a: Player,
    /// The second.
    pub b: Player,
}

impl Pairing {
    pub fn new(a: Player, b: Player) -> Pairing {
        Pairing { a, b }
    }

    /// The file stem of the pairing's results and games: `L4-L5`, `anchor-L20`.
    pub fn stem(&self, anchor: &str) -> String {
        format!("{}-{}", self.a.name(anchor), self.b.name(anchor))
    }

    /// True when `p` plays in this pairing.
    pub fn has(&self, p: Player) -> bool {
        self.a == p || self.b == p
    }
}

impl fmt::Display for Pairing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.stem("anchor"))
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanConfig {
    /// The levels measured, ascending, no repeats.
    pub levels: Vec<u8>,
    /// Each level meets the levels this many places above it in `levels`.
    pub steps: Vec<usize>,
    /// Levels that also meet full strength (when full strength is among `levels`).
    pub against_full: Vec<u8>,
    /// Whether an anchor plays.
    pub anchor: bool,
    /// The anchor's first opponent; `None`: the highest level.
    pub anchor_first: Option<u8>,
    /// The anchor's only opponent: no second match against the nearest level.
    pub anchor_only: Option<u8>,
}

/// The matches that do not depend on results: the chain, the matches against full strength,
/// and the anchor's first match.
pub fn first_round(cfg: &PlanConfig) -> Vec<Pairing> {
    let mut out: Vec<Pairing> = Vec::new();
    let mut add = |p: Pairing| {
        let same = |q: &Pairing| (q.a, q.b) == (p.a, p.b) || (q.a, q.b) == (p.b, p.a);
        if p.a != p.b && !out.iter().any(same) {
            out.push(p);
        }
    };
    for &step in &cfg.steps {
        for (i, &low) in cfg.levels.iter().enumerate() {
            if let Some(&high) = cfg.levels.get(i + step) {
                add(Pairing::new(Player::Level(low), Player::Level(high)));
            }
        }
    }
    if cfg.levels.contains(&FULL) {
        for &l in &cfg.against_full {
            add(Pairing::new(Player::Level(l), Player::Level(FULL)));
        }
    }
    if cfg.anchor {
        if let Some(first) = anchor_first(cfg) {
            add(Pairing::new(Player::Anchor, Player::Level(first)));
        }
    }
    out
}

/// The anchor's first opponent.
fn anchor_first(cfg: &PlanConfig) -> Option<u8> {
    cfg.anchor_only
        .or(cfg.anchor_first)
        .or(cfg.levels.last().copied())
}

/// The anchor's second match, against the level whose rating (fitted from the first round) is
/// nearest its own; none when that is the level it already met, or when told its opponent.
pub fn second_round(
    cfg: &PlanConfig,
    anchor_elo: f64,
    level_elos: &[(u8, f64)],
) -> Option<Pairing> {
    if !cfg.anchor || cfg.anchor_only.is_some() {
        return None;
    }
    let nearest = level_elos
        .iter()
        .min_by(|x, y| {
            (x.1 - anchor_elo)
                .abs()
                .total_cmp(&(y.1 - anchor_elo).abs())
        })?
        .0;
    (Some(nearest) != anchor_first(cfg))
        .then(|| Pairing::new(Player::Anchor, Player::Level(nearest)))
}

/// Parses levels as `0-20`, `0,2,4` or a mix (`0-4,8,12-20`): ascending, no repeats.
pub fn parse_levels(text: &str) -> Result<Vec<u8>, String> {
    let level = |s: &str| match s.trim().parse::<u8>() {
        Ok(l) if l <= FULL => Ok(l),
        _ => Err(format!("'{s}' is not a level from 0 to {FULL}")),
    };
    let mut out = Vec::new();
    for part in text.split(',').filter(|p| !p.trim().is_empty()) {
        match part.split_once('-') {
            Some((lo, hi)) => {
                let (lo, hi) = (level(lo)?, level(hi)?);
                if lo > hi {
                    return Err(format!("'{part}' runs downwards"));
                }
                out.extend(lo..=hi);
            }
            None => out.push(level(part)?),
        }
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Player::{Anchor, Level};

    fn cfg(levels: &str, steps: &[usize], full: &[u8], anchor: bool) -> PlanConfig {
        PlanConfig {
            levels: parse_levels(levels).unwrap(),
            steps: steps.to_vec(),
            against_full: full.to_vec(),
            anchor,
            anchor_first: None,
            anchor_only: None,
        }
    }

    fn stems(p: &[Pairing]) -> Vec<String> {
        p.iter().map(|p| p.stem("EE")).collect()
    }

    #[test]
    fn chains_neighbours_full_strength_and_the_anchor() {
        let c = cfg("16-20", &[1, 2], &[16, 19], true);
        assert_eq!(
            stems(&first_round(&c)),
            [
                "L16-L17", "L17-L18", "L18-L19", "L19-L20", "L16-L18", "L17-L19", "L18-L20",
                "L16-L20", "EE-L20"
            ]
        );
        // The anchor's second match is against the nearest level, unless it met it already.
        let elos = [
            (16, 1500.0),
            (17, 1700.0),
            (18, 1900.0),
            (19, 2050.0),
            (20, 2400.0),
        ];
        assert_eq!(
            second_round(&c, 1810.0, &elos),
            Some(Pairing::new(Anchor, Level(18)))
        );
        assert_eq!(second_round(&c, 2300.0, &elos), None);
        let only = PlanConfig {
            anchor_only: Some(18),
            ..c.clone()
        };
        assert_eq!(
            first_round(&only).last(),
            Some(&Pairing::new(Anchor, Level(18)))
        );
        assert_eq!(second_round(&only, 1500.0, &elos), None);
        // Without full strength among the levels, no match against it; the anchor meets the top.
        let c = cfg("0,4,8", &[1], &[4], true);
        assert_eq!(stems(&first_round(&c)), ["L0-L4", "L4-L8", "EE-L8"]);
        assert_eq!(
            second_round(&cfg("0,4", &[1], &[], false), 0.0, &elos),
            None
        );
    }

    #[test]
    fn level_lists() {
        assert_eq!(parse_levels("0-3,8,2").unwrap(), [0, 1, 2, 3, 8]);
        assert_eq!(parse_levels("20").unwrap(), [20]);
        assert!(parse_levels("3-1").is_err());
        assert!(parse_levels("21").is_err());
        assert!(parse_levels("x").is_err());
    }
}
