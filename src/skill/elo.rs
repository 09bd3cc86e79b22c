//! `UCI_Elo`: the levels' ratings (measured in games, docs/strength-limit.md), and a rating
//! turned back into a (fractional) level by interpolating between the calibrated ones.

/// Levels and their ratings, by level; ratings rise with the level. Measured by
/// `pao-tools levels` (docs/strength-limit.md, "Measured": 1,680 games, ElephantEye 3.31 at
/// 10 s + 0.1 s = 2000); a new calibration pastes its array here.
pub const CALIBRATION: [(f64, i32); 20] = [
    (0.0, 302),
    (1.0, 313),
    (2.0, 378),
    (3.0, 459),
    (4.0, 535),
    (5.0, 613),
    (6.0, 812),
    (7.0, 929),
    (8.0, 1084),
    (9.0, 1215),
    (10.0, 1413),
    (11.0, 1594),
    (12.0, 1750),
    (13.0, 1915),
    (14.0, 2073),
    (15.0, 2315),
    (16.0, 2525),
    (17.0, 2726),
    (18.0, 2883),
    (19.0, 3047),
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
