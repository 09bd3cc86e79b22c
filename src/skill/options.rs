//! The strength options in every dialect: UCI's `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`
//! and `Skill Seed`; UCCI's one-word `skilllevel`, `limitstrength`, `elo` and `skillseed`;
//! the same names as XBoard `feature option` lines.

use super::{level_for_elo, Skill, DEFAULT_ELO, FULL_LEVEL, MAX_ELO, MIN_ELO};
use crate::protocol::{parse_bool, parse_range};

/// Largest `Skill Seed` (GUIs hold spin values in 32-bit integers).
pub const MAX_SEED: u64 = i32::MAX as u64;

/// The strength options' values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrengthOptions {
    /// `Skill Level`, 0..=20; 20 is full strength.
    pub level: u8,
    /// `UCI_LimitStrength`: play at `elo` (and ignore `level`).
    pub limit_strength: bool,
    /// `UCI_Elo`, `MIN_ELO..=MAX_ELO`.
    pub elo: i32,
    /// `Skill Seed`: 0 draws each choice from the clock-seeded generator; any other value
    /// makes a level's choice in a position the same every time.
    pub seed: u64,
}

impl Default for StrengthOptions {
    fn default() -> Self {
        StrengthOptions {
            level: FULL_LEVEL,
            limit_strength: false,
            elo: DEFAULT_ELO,
            seed: 0,
        }
    }
}

impl StrengthOptions {
    /// The limit in force, `None` at full strength.
    pub fn skill(&self) -> Option<Skill> {
        if self.limit_strength {
            Some(Skill::new(level_for_elo(self.elo)))
        } else if self.level < FULL_LEVEL {
            Some(Skill::new(f64::from(self.level)))
        } else {
            None
        }
    }

    /// Sets the option whose name, lower case without spaces and underscores, is `key`
    /// (`name` as given, for the error). `None` when `key` is not a strength option.
    pub fn set(&mut self, key: &str, name: &str, value: &str) -> Option<Result<(), String>> {
        let range = |min: i64, max: i64| {
            parse_range(name, value, min.max(0) as u64, max as u64).map(|v| v as i64)
        };
        Some(match key {
            "skilllevel" => range(0, i64::from(FULL_LEVEL)).map(|v| self.level = v as u8),
            "ucilimitstrength" | "limitstrength" => parse_bool(value)
                .map(|b| self.limit_strength = b)
                .ok_or_else(|| format!("option {name}: '{value}' is not true or false")),
            "ucielo" | "elo" => {
                range(i64::from(MIN_ELO), i64::from(MAX_ELO)).map(|v| self.elo = v as i32)
            }
            "skillseed" => range(0, MAX_SEED as i64).map(|v| self.seed = v as u64),
            _ => return None,
        })
    }

    /// The `option` lines of the UCCI handshake.
    pub fn ucci_lines(&self) -> Vec<String> {
        vec![
            format!("option skilllevel type spin min 0 max {FULL_LEVEL} default {FULL_LEVEL}"),
            "option limitstrength type check default false".to_string(),
            format!("option elo type spin min {MIN_ELO} max {MAX_ELO} default {DEFAULT_ELO}"),
            format!("option skillseed type spin min 0 max {MAX_SEED} default 0"),
        ]
    }

    /// The `option name ...` lines of the UCI handshake.
    pub fn uci_lines(&self) -> Vec<String> {
        vec![
            format!(
                "option name Skill Level type spin default {FULL_LEVEL} min 0 max {FULL_LEVEL}"
            ),
            "option name UCI_LimitStrength type check default false".to_string(),
            format!(
                "option name UCI_Elo type spin default {DEFAULT_ELO} min {MIN_ELO} max {MAX_ELO}"
            ),
            format!("option name Skill Seed type spin default 0 min 0 max {MAX_SEED}"),
        ]
    }

    /// The options offered to a CECP GUI (`feature option="..."`), with their current values.
    pub fn cecp_lines(&self) -> Vec<String> {
        vec![
            format!("Skill Level -spin {} 0 {FULL_LEVEL}", self.level),
            format!("UCI_LimitStrength -check {}", u8::from(self.limit_strength)),
            format!("UCI_Elo -spin {} {MIN_ELO} {MAX_ELO}", self.elo),
            format!("Skill Seed -spin {} 0 {MAX_SEED}", self.seed),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_values_and_the_limit_in_force() {
        let mut o = StrengthOptions::default();
        assert_eq!(o.skill(), None);
        assert_eq!(o.set("threads", "Threads", "2"), None);
        assert_eq!(o.set("skilllevel", "Skill Level", "5"), Some(Ok(())));
        assert_eq!(o.skill(), Some(Skill::new(5.0)));
        assert_eq!(
            o.set("skilllevel", "Skill Level", "21"),
            Some(Err(
                "option Skill Level: '21' is not a number in 0..20".to_string()
            ))
        );
        assert_eq!(o.level, 5);
        assert_eq!(o.set("elo", "elo", &MIN_ELO.to_string()), Some(Ok(())));
        assert_eq!(
            o.set("limitstrength", "limitstrength", "true"),
            Some(Ok(()))
        );
        // The rating wins over the level, as UCI GUIs expect.
        assert_eq!(o.skill(), Some(Skill::new(0.0)));
        assert_eq!(
            o.set("ucielo", "UCI_Elo", &(MIN_ELO - 1).to_string()),
            Some(Err(format!(
                "option UCI_Elo: '{}' is not a number in {MIN_ELO}..{MAX_ELO}",
                MIN_ELO - 1
            )))
        );
        assert_eq!(
            o.set("ucilimitstrength", "UCI_LimitStrength", "maybe"),
            Some(Err(
                "option UCI_LimitStrength: 'maybe' is not true or false".to_string()
            ))
        );
        assert_eq!(o.set("skillseed", "Skill Seed", "2147483647"), Some(Ok(())));
        assert_eq!(o.seed, MAX_SEED);
        assert!(o
            .set("skillseed", "Skill Seed", "2147483648")
            .is_some_and(|r| r.is_err()));
    }
}
