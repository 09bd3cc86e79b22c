//! `pao-tools match sprt`: an SPRT read from counts alone, for a test whose games are spread
//! over several runs (a run's results file may not outlive it, its counts do) or whose
//! results file is kept elsewhere.
//!
//! Counts of one kind add exactly: W-L-D counts sum into one trinomial, pentanomials into one
//! pentanomial. Counts of the two kinds are independent data, so their log-likelihood ratios
//! add, and the Elo comes from every game's points with the variance of each part's own kind.

use super::gsprt;
use super::report::{elo_text, nelo_line, result_fields, sprt_line, sprt_word};
use super::stats::{pooled_elo, Pentanomial, Sprt, Trinomial};

/// `pao-tools match sprt`.
#[derive(clap::Args, Debug)]
pub struct PoolArgs {
    /// Counts of the first engine, one run each: W-L-D (wins-losses-draws, as a match's
    /// `result:` line gives w, l, d) or a pentanomial N0,N1,N2,N3,N4 (game pairs scoring 0,
    /// 1/2, 1, 3/2 and 2 points, as a match's report lists them)
    #[arg(required = true, value_name = "COUNTS")]
    counts: Vec<String>,
    /// Read the same counts for the other engine: W-L-D as L-W-D, pentanomials reversed
    #[arg(long = "other-side")]
    other_side: bool,
    /// The SPRT, as `match --sprt` (after the counts); defaults elo0=0 elo1=10 alpha=0.05
    /// beta=0.05 model=normalized min-games=200
    #[arg(long, value_name = "KEY=VALUE", num_args = 0..)]
    sprt: Option<Vec<String>>,
}

/// One run's counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counts {
    Games(Trinomial),
    Pairs(Pentanomial),
}

/// Reads `W-L-D` or `N0,N1,N2,N3,N4` (brackets and spaces allowed around the numbers).
fn parse_counts(word: &str) -> Result<Counts, String> {
    let bad = || {
        format!(
            "'{word}': give W-L-D (wins-losses-draws, e.g. 576-549-1202) or a pentanomial \
             N0,N1,N2,N3,N4 (e.g. 51,246,545,268,53)"
        )
    };
    let inner = word.trim().trim_start_matches('[').trim_end_matches(']');
    let separator = if inner.contains(',') { ',' } else { '-' };
    let numbers = inner
        .split(separator)
        .map(|n| n.trim().parse::<u64>())
        .collect::<Result<Vec<u64>, _>>()
        .map_err(|_| bad())?;
    match (separator, numbers.as_slice()) {
        ('-', &[wins, losses, draws]) => Ok(Counts::Games(Trinomial {
            wins,
            losses,
            draws,
        })),
        (',', &[a, b, c, d, e]) => Ok(Counts::Pairs(Pentanomial {
            counts: [a, b, c, d, e],
        })),
        _ => Err(bad()),
    }
}

/// Reads a pentanomial `N0,N1,N2,N3,N4` (brackets and spaces allowed).
pub fn parse_pentanomial(word: &str) -> Result<Pentanomial, String> {
    match parse_counts(word) {
        Ok(Counts::Pairs(p)) => Ok(p),
        _ => Err(format!(
            "'{word}': give a pentanomial N0,N1,N2,N3,N4 (game pairs scoring 0, 1/2, 1, 3/2 and \
             2 points, e.g. 51,246,545,268,53)"
        )),
    }
}

/// The counts summed by kind, each read for the first engine or (`other_side`) the other.
fn sum(words: &[String], other_side: bool) -> Result<(Trinomial, Pentanomial), String> {
    let mut games = Trinomial::default();
    let mut pairs = Pentanomial::default();
    for word in words {
        match parse_counts(word)? {
            Counts::Games(t) => {
                let (w, l) = if other_side {
                    (t.losses, t.wins)
                } else {
                    (t.wins, t.losses)
                };
                games.wins += w;
                games.losses += l;
                games.draws += t.draws;
            }
            Counts::Pairs(p) => {
                for (k, c) in p.counts.iter().enumerate() {
                    pairs.counts[if other_side { 4 - k } else { k }] += c;
                }
            }
        }
    }
    if games.games() + pairs.pairs() == 0 {
        return Err("no game counted: every count given is zero".to_string());
    }
    Ok((games, pairs))
}

/// A warning when a W-L-D and a pentanomial among `words` count the same games and the same
/// points: most likely one run's two readings (a report prints both), which the sum would count
/// twice, since each count is a run of its own.
fn same_run_twice(words: &[String]) -> Option<String> {
    let parsed: Vec<(&String, Counts)> = words
        .iter()
        .filter_map(|w| parse_counts(w).ok().map(|c| (w, c)))
        .collect();
    for (wld, games) in &parsed {
        let Counts::Games(t) = games else { continue };
        for (pent, pairs) in &parsed {
            let Counts::Pairs(p) = pairs else { continue };
            // Points are whole or half numbers: exact in f64.
            if t.games() == 2 * p.pairs() && t.points() == p.points() {
                return Some(format!(
                    "warning: {wld} and {pent} count the same {} games and {} points: if they \
                     are one run's two readings, give only the pentanomial (each count is a \
                     run of its own, and they are added)",
                    t.games(),
                    t.points()
                ));
            }
        }
    }
    None
}

/// The warning of `same_run_twice` for the command's counts.
pub fn warning(args: &PoolArgs) -> Option<String> {
    same_run_twice(&args.counts)
}

/// Parses the arguments (usage errors) and returns the SPRT and the summed counts.
pub fn prepare(args: &PoolArgs) -> Result<(Sprt, Trinomial, Pentanomial), String> {
    let sprt = Sprt::parse(args.sprt.as_deref().unwrap_or(&[]))?;
    let (games, pairs) = sum(&args.counts, args.other_side)?;
    Ok((sprt, games, pairs))
}

/// The report: the counts, the Elo over every game, the LLR by part and its decision, and a
/// last line a script reads: `result: elo=+X err=Y llr=Z games=N sprt=accepted|rejected|running`.
pub fn report(sprt: &Sprt, games: &Trinomial, pairs: &Pentanomial) -> String {
    let mut out = String::new();
    if games.games() > 0 {
        out.push_str(&format!(
            "single games: +{} -{} ={} over {} games\n",
            games.wins,
            games.losses,
            games.draws,
            games.games()
        ));
    }
    if pairs.pairs() > 0 {
        out.push_str(&format!(
            "pentanomial [0, 1/2, 1, 3/2, 2] over {} pairs: {:?}\n",
            pairs.pairs(),
            pairs.counts
        ));
    }
    let total = games.games() + 2 * pairs.pairs();
    let elo = pooled_elo(games, pairs);
    out.push_str(&format!("elo ({total} games): {}\n", elo_text(elo)));
    let by_games = sprt.llr_trinomial(games);
    let by_pairs = sprt.llr_pentanomial(pairs);
    let llr = by_games + by_pairs;
    let basis = match (games.games() > 0, pairs.pairs() > 0) {
        (true, true) => format!("trinomial {by_games:.3} + pentanomial {by_pairs:.3}"),
        (true, false) => "trinomial".to_string(),
        _ => "pentanomial".to_string(),
    };
    let (decision, line) = sprt_line(sprt, llr, &basis, total);
    // Normalised Elo is read on one kind of counts: pairs when there are any.
    let nelo = if pairs.pairs() > 0 {
        nelo_line(gsprt::nelo(&pairs.counts), "pentanomial")
    } else {
        nelo_line(
            gsprt::nelo(&[games.losses, games.draws, games.wins]),
            "trinomial",
        )
    };
    out.push_str(&nelo);
    out.push_str(&line);
    let (elo, err) = result_fields(elo);
    out.push_str(&format!(
        "result: elo={elo} err={err} llr={llr:.2} games={total} sprt={}\n",
        sprt_word(decision)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn one_run_given_as_both_kinds_is_warned_about() {
        // The A/A run's report: 953-893-1154 and its pairs, the same 3,000 games.
        let twice = words(&["953-893-1154", "117,326,573,348,136"]);
        let warning = same_run_twice(&twice).expect("a warning");
        assert_eq!(
            warning,
            "warning: 953-893-1154 and 117,326,573,348,136 count the same 3000 games and 1530 \
             points: if they are one run's two readings, give only the pentanomial (each count \
             is a run of its own, and they are added)"
        );
        // Two runs that differ in games or in points: no warning.
        assert_eq!(
            same_run_twice(&words(&["953-893-1152", "117,326,573,348,136"])),
            None
        );
        assert_eq!(
            same_run_twice(&words(&["952-894-1154", "117,326,573,348,136"])),
            None
        );
        assert_eq!(same_run_twice(&words(&["117,326,573,348,136"])), None);
        assert_eq!(same_run_twice(&words(&["953-893-1154", "1-2-3"])), None);
    }

    #[test]
    fn reads_both_kinds_of_counts() {
        assert_eq!(
            parse_counts("576-549-1202"),
            Ok(Counts::Games(Trinomial {
                wins: 576,
                losses: 549,
                draws: 1202
            }))
        );
        let pairs = Ok(Counts::Pairs(Pentanomial {
            counts: [51, 246, 545, 268, 53],
        }));
        assert_eq!(parse_counts("51,246,545,268,53"), pairs);
        assert_eq!(parse_counts("[51, 246, 545, 268, 53]"), pairs);
        for bad in [
            "",
            "1-2",
            "1-2-3-4",
            "1,2,3,4",
            "1,2,3,4,5,6",
            "a-b-c",
            "-1-2-3",
            "1-2-x",
            "1,2-3",
        ] {
            let e = parse_counts(bad).unwrap_err();
            assert!(e.starts_with(&format!("'{bad}': give W-L-D")), "{e}");
        }
    }

    #[test]
    fn counts_of_one_kind_add_and_the_other_side_mirrors_them() {
        let (g, p) = sum(
            &words(&["676-725-1847", "576-549-1202", "1,2,3,4,5", "10,0,0,0,1"]),
            false,
        )
        .unwrap();
        assert_eq!((g.wins, g.losses, g.draws), (1252, 1274, 3049));
        assert_eq!(p.counts, [11, 2, 3, 4, 6]);
        let (g, p) = sum(&words(&["676-725-1847", "1,2,3,4,5"]), true).unwrap();
        assert_eq!((g.wins, g.losses, g.draws), (725, 676, 1847));
        assert_eq!(p.counts, [5, 4, 3, 2, 1]);
        assert!(sum(&words(&["0-0-0", "0,0,0,0,0"]), false)
            .unwrap_err()
            .starts_with("no game counted"));
    }

    #[test]
    fn one_kind_alone_reads_as_the_match_reads_it() {
        let sprt = Sprt::parse(&words(&["elo0=-5", "elo1=0"])).unwrap();
        let t = Trinomial {
            wins: 1252,
            losses: 1274,
            draws: 3049,
        };
        let text = report(&sprt, &t, &Pentanomial::default());
        let llr = sprt.llr_trinomial(&t);
        assert!(
            text.contains(&format!("LLR {llr:.3} (trinomial)")),
            "{text}"
        );
        assert!(text.contains("elo (5575 games): -1.4 +/- 6.1\n"), "{text}");
        assert!(text.ends_with(&format!(
            "result: elo=-1.4 err=6.1 llr={llr:.2} games=5575 sprt=running\n"
        )));
        let p = Pentanomial {
            counts: [51, 246, 545, 268, 53],
        };
        let text = report(&sprt, &Trinomial::default(), &p);
        assert_eq!(pooled_elo(&Trinomial::default(), &p), p.elo());
        assert!(text.contains("(pentanomial) bounds [-2.944, 2.944]: undecided"));
        assert!(text.contains(&format!("LLR {:.3} ", sprt.llr_pentanomial(&p))));
    }

    #[test]
    fn the_two_kinds_add_their_likelihood_ratios() {
        let sprt = Sprt::parse(&[]).unwrap();
        let t = Trinomial {
            wins: 400,
            losses: 300,
            draws: 500,
        };
        let p = Pentanomial {
            counts: [20, 100, 300, 150, 30],
        };
        let text = report(&sprt, &t, &p);
        let (a, b) = (sprt.llr_trinomial(&t), sprt.llr_pentanomial(&p));
        assert!(text.contains(&format!(
            "LLR {:.3} (trinomial {a:.3} + pentanomial {b:.3})",
            a + b
        )));
        assert!(text.contains("games=2400 sprt="), "{text}");
        // Every game's points: 400 + 250 + (100 / 2 + 300 + 150 * 3 / 2 + 30 * 2).
        let e = pooled_elo(&t, &p).unwrap();
        assert!((e.score - (650.0 + 635.0) / 2400.0).abs() < 1e-12);
    }
}
