//! `UCI_Elo`: the levels' ratings (to be measured in games, docs/strength-limit.md), and a rating
//! turned back into a (fractional) level by interpolating between the calibrated ones.

/// Levels and their ratings, by level; ratings rise with the level. Placeholders until
/// `pao-tools levels` measures them (docs/strength-limit.md): paste its array here.
pub const CALIBRATION: [(f64, i32); 5] = [
    (0.0, 1000),
    (4.0, 1300),
    (8.0, 1600),
    (12.0, 1900),
    (16.0, 2200),
];

/// The lowest rating offered: level 0's.
pub const MIN_ELO: i32 = CALIBRATION[0].1;
/// The highest rating offered: the highest measured level's.
pub const MAX_ELO: i32 = CALIBRATION[CALIBRATION.len() - 1].1;
/// `UCI_Elo`'s default: the lowest, as GUIs expect from other engines.
pub const DEFAULT_ELO: i32 = MIN_ELO;

/// The level that plays at `elo`, linear between the measured levels (clamped to the range).
pub fn level_for_elo(elo: i32) -> f64 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    for pair in CALIBRATION.windows(2) {
        let ((l0, e0), (l1, e1)) = (pair[0], pair[1]);
        if elo <= e1 {
            return l0 + (l1 - l0) * f64::from(elo - e0) / f64::from(e1 - e0);
        }
    }
    CALIBRATION[CALIBRATION.len() - 1].0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_rises_and_interpolates() {
        assert!(CALIBRATION
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        assert_eq!(level_for_elo(MIN_ELO), 0.0);
        assert_eq!(level_for_elo(MIN_ELO - 500), 0.0);
        assert_eq!(level_for_elo(MAX_ELO), CALIBRATION[CALIBRATION.len() - 1].0);
        assert_eq!(
            level_for_elo(i32::MAX),
            CALIBRATION[CALIBRATION.len() - 1].0
        );
        for &(level, elo) in &CALIBRATION {
            assert!((level_for_elo(elo) - level).abs() < 1e-9);
        }
        let (l0, e0) = CALIBRATION[1];
        let (l1, e1) = CALIBRATION[2];
        let mid = level_for_elo((e0 + e1) / 2);
        assert!(l0 < mid && mid < l1, "{mid}");
    }
}
