//! The order of games in a match: pairings, colours and openings.

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Position in the schedule (also the PGN round and the key in the results file).
    pub index: usize,
    /// Which pairing (pair of engines).
    pub pairing: usize,
    /// Engine index playing red.
    pub red: usize,
    /// Engine index playing black.
    pub black: usize,
    /// Opening index.
    pub opening: usize,
    /// Games `2k` and `2k + 1` of a pairing play the same opening with colours swapped: this is `k`.
    pub pair: usize,
}

/// The pairings: every engine against every other, or the first against each other (gauntlet).
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            if !gauntlet || a == 0 {
                out.push((a, b));
            }
        }
    }
    out
}

/// `games` games per pairing, interleaved so that every pairing progresses at the same rate;
/// each opening is played twice, colours swapped, and the openings are used in turn.
pub fn schedule(engines: usize, gauntlet: bool, games: usize, openings: usize) -> Vec<Job> {
    let pairs = pairings(engines, gauntlet);
    let mut jobs = Vec::with_capacity(pairs.len() * games);
    for g in 0..games {
        for (p, &(a, b)) in pairs.iter().enumerate() {
            let (red, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
            jobs.push(Job {
                index: jobs.len(),
                pairing: p,
                red,
                black,
                opening: (g / 2) % openings.max(1),
                pair: g / 2,
            });
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet() {
        assert_eq!(pairings(3, false), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(3, true), vec![(0, 1), (0, 2)]);
        let s = schedule(2, false, 5, 2);
        let view: Vec<(usize, usize, usize, usize)> = s
            .iter()
            .map(|j| (j.red, j.black, j.opening, j.pair))
            .collect();
        assert_eq!(
            view,
            vec![
                (0, 1, 0, 0),
                (1, 0, 0, 0),
                (0, 1, 1, 1),
                (1, 0, 1, 1),
                (0, 1, 0, 2)
            ]
        );
        let g = schedule(3, true, 2, 10);
        assert_eq!(g.len(), 4);
        assert_eq!((g[1].red, g[1].black, g[1].pairing), (0, 2, 1));
        assert_eq!((g[3].red, g[3].black, g[3].index), (2, 0, 3));
    }
}
