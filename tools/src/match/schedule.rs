//! The order of games in a match: pairings, colours and openings.

use super::clock::Limit;

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

/// The book of many openings, for matches at fixed nodes or depth (its header has the command).
pub const LARGE_BOOK: &str = "tools/data/balanced-openings-8ply.txt";

/// Why a match of `games` games per pairing over `openings` openings would replay games, if
/// it would: at fixed nodes or depth (every engine's limit, `limits`) a one-thread engine
/// plays the same game again from the same opening and colours, so the games after each
/// opening's pair repeat earlier ones and only look like more evidence.
pub fn replays(limits: &[&Limit], games: usize, openings: usize) -> Option<String> {
    let fixed = limits
        .iter()
        .all(|l| matches!(l, Limit::Nodes(_) | Limit::Depth(_)));
    let most = 2 * openings;
    if !fixed || games <= most {
        return None;
    }
    Some(format!(
        "--games {games} at fixed nodes or depth would replay games: each of the {openings} \
         openings is played twice (colours swapped) and then the same games again; give a \
         book of at least {} openings (--openings, such as {LARGE_BOOK}), at most \
         {most} games, or --replay-openings when the engines' searches vary (several threads)",
        games.div_ceil(2)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_limits_refuse_games_that_replay_the_book() {
        let nodes = Limit::Nodes(30_000);
        let depth = Limit::Depth(8);
        let clock = Limit::MoveTime(100);
        assert_eq!(replays(&[&nodes, &nodes], 600, 300), None);
        let e = replays(&[&nodes, &depth], 602, 300).expect("refused");
        assert!(
            e.starts_with(
                "--games 602 at fixed nodes or depth would replay games: each of the 300 openings"
            ),
            "{e}"
        );
        assert!(e.contains("a book of at least 301 openings"), "{e}");
        assert!(e.contains("at most 600 games"), "{e}");
        // A clock on either side varies the games.
        assert_eq!(replays(&[&nodes, &clock], 20_000, 300), None);
    }

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
