//! Match results as numbers and text: standings, Elo with error bars, pentanomial, SPRT.

use super::gsprt;
use super::schedule::Job;
use super::state::GameResult;
#[cfg(test)]
use super::stats::EloModel;
use super::stats::{EloEstimate, Pentanomial, Sprt, SprtDecision, Trinomial};
use super::termination::Termination;
use pao::board::Color;
use std::collections::BTreeMap;

/// Everything the final report shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Per engine, its results against everyone.
    pub per_engine: Vec<Trinomial>,
    /// The first engine's results against the others.
    pub first: Trinomial,
    /// The first engine's game pairs (same opening, colours swapped).
    pub pairs: Pentanomial,
}

/// Tallies finished games.
pub fn summarize(engines: usize, jobs: &[Job], results: &BTreeMap<usize, GameResult>) -> Summary {
    let mut s = Summary {
        per_engine: vec![Trinomial::default(); engines],
        ..Summary::default()
    };
    // The first engine's points per (pairing, pair) for the pentanomial.
    let mut halves: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
    for (idx, r) in results {
        let Some(job) = jobs.get(*idx) else { continue };
        for (engine, color) in [(job.red, Color::Red), (job.black, Color::Black)] {
            let points = r.outcome.points_for(color);
            let t = &mut s.per_engine[engine];
            match points {
                p if p > 0.75 => t.wins += 1,
                p if p < 0.25 => t.losses += 1,
                _ => t.draws += 1,
            }
            if engine == 0 {
                halves
                    .entry((job.pairing, job.pair))
                    .or_default()
                    .push(points);
            }
        }
    }
    s.first = s.per_engine.first().copied().unwrap_or_default();
    for v in halves.values() {
        if let [a, b] = v[..] {
            s.pairs.add_pair(a, b);
        }
    }
    s
}

/// An estimate as `+X +/- Y`.
pub fn elo_text(e: Option<EloEstimate>) -> String {
    match e {
        Some(e) if e.elo.is_finite() && e.margin.is_finite() => {
            format!("{:+.1} +/- {:.1}", e.elo + 0.0, e.margin)
        }
        Some(e) if e.elo.is_finite() => format!("{:+.1} +/- inf", e.elo + 0.0),
        Some(e) => format!("{}inf", if e.elo > 0.0 { '+' } else { '-' }),
        None => "-".to_string(),
    }
}

/// The standings table, best score first.
pub fn table(names: &[String], s: &Summary) -> String {
    let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
    let mut out = format!(
        "{:<width$} {:>6} {:>5} {:>6} {:>5} {:>7} {:>6}  {}\n",
        "engine", "games", "wins", "losses", "draws", "points", "score", "elo (95%)"
    );
    let mut order: Vec<usize> = (0..names.len()).collect();
    let pct = |t: &Trinomial| {
        if t.games() == 0 {
            0.0
        } else {
            t.points() / t.games() as f64
        }
    };
    order.sort_by(|&a, &b| {
        pct(&s.per_engine[b])
            .total_cmp(&pct(&s.per_engine[a]))
            .then(a.cmp(&b))
    });
    for i in order {
        let t = &s.per_engine[i];
        out.push_str(&format!(
            "{:<width$} {:>6} {:>5} {:>6} {:>5} {:>7.1} {:>5.1}%  {}\n",
            names[i],
            t.games(),
            t.wins,
            t.losses,
            t.draws,
            t.points(),
            100.0 * pct(t),
            elo_text(t.elo())
        ));
    }
    out
}

/// The first engine against the field: Elo by games and by pairs, pentanomial counts.
pub fn head_to_head(names: &[String], s: &Summary) -> String {
    let t = &s.first;
    let p = &s.pairs;
    let field = if names.len() == 2 {
        names[1].clone()
    } else {
        "the others".to_string()
    };
    let mut out = format!(
        "{} vs {}: +{} -{} ={}  score {:.1}/{}\n",
        names.first().map(String::as_str).unwrap_or("?"),
        field,
        t.wins,
        t.losses,
        t.draws,
        t.points(),
        t.games()
    );
    out.push_str(&format!("elo (games, trinomial): {}\n", elo_text(t.elo())));
    out.push_str(&format!(
        "pentanomial [0, 1/2, 1, 3/2, 2] over {} pairs: {:?}\n",
        p.pairs(),
        p.counts
    ));
    out.push_str(&format!(
        "elo (pairs, pentanomial): {}\n",
        elo_text(p.elo())
    ));
    out
}

/// The SPRT state: LLR, bounds and decision. Pairs are used when there are any.
pub fn sprt_status(sprt: &Sprt, s: &Summary) -> (f64, SprtDecision, String) {
    let (llr, basis) = if s.pairs.pairs() > 0 {
        (sprt.llr_pentanomial(&s.pairs), "pentanomial")
    } else {
        (sprt.llr_trinomial(&s.first), "trinomial")
    };
    let games = s.first.games();
    let (d, text) = sprt_line(sprt, llr, basis, games);
    let nelo = if s.pairs.pairs() > 0 {
        gsprt::nelo(&s.pairs.counts)
    } else {
        let t = &s.first;
        gsprt::nelo(&[t.losses, t.draws, t.wins])
    };
    (llr, d, format!("{}{text}", nelo_line(nelo, basis)))
}

/// The normalised Elo of a report, read on `basis`.
pub fn nelo_line(nelo: Option<(f64, f64)>, basis: &str) -> String {
    match nelo {
        Some((e, margin)) => format!(
            "normalised elo ({basis}): {:+.1} +/- {margin:.1}\n",
            e + 0.0
        ),
        None => String::new(),
    }
}

/// The SPRT line of a report for an LLR read on `basis` after `games` games, and the
/// decision.
pub fn sprt_line(sprt: &Sprt, llr: f64, basis: &str, games: u64) -> (SprtDecision, String) {
    let (lo, hi) = sprt.bounds();
    let d = sprt.decide(llr, games);
    let verdict = match d {
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::AcceptH1 => "H1 accepted",
        SprtDecision::Continue if games < sprt.min_games => "undecided (below min-games)",
        SprtDecision::Continue => "undecided",
    };
    let text = format!(
        "SPRT {}: LLR {:.3} ({basis}) bounds [{:.3}, {:.3}]: {verdict}\n",
        sprt.describe(),
        llr,
        lo,
        hi
    );
    (d, text)
}

/// The `sprt=` word of a `result:` line for a decision.
pub fn sprt_word(d: SprtDecision) -> &'static str {
    match d {
        SprtDecision::AcceptH1 => "accepted",
        SprtDecision::AcceptH0 => "rejected",
        SprtDecision::Continue => "running",
    }
}

/// The report printed at the end of a match: standings, the first engine against the field,
/// terminations, the SPRT state, the games still missing of the `scheduled`, the result line.
/// It depends on the finished games alone, not on the order they were played in, which is
/// what lets `match merge` print the report of one run from its shards.
pub fn final_report(
    names: &[String],
    summary: &Summary,
    results: &BTreeMap<usize, GameResult>,
    sprt: Option<&Sprt>,
    scheduled: usize,
    more: &str,
) -> String {
    let mut text = table(names, summary);
    text.push('\n');
    text.push_str(&head_to_head(names, summary));
    let reasons = results.values().map(|r| r.reason.as_str());
    text.push_str(&format!("terminations: {}\n", Termination::tally(reasons)));
    if let Some(sp) = sprt {
        text.push_str(&sprt_status(sp, summary).2);
    }
    if results.len() < scheduled {
        text.push_str(&format!(
            "{} of {} scheduled games played\n",
            results.len(),
            scheduled
        ));
    }
    text.push_str(more);
    text.push_str(&result_line("result", sprt, summary));
    text
}

/// For a test of two engines: the earlier runs pooled in (`prior`), and the words that
/// continue the test in a new results file (its next opening pair and every pair so far), for
/// when this one does not outlive the run. `first_pair` is the book's pair this run started at.
pub fn continuation(
    engines: usize,
    first_pair: usize,
    prior: &Pentanomial,
    jobs: &[Job],
    results: &BTreeMap<usize, GameResult>,
    summary: &Summary,
) -> String {
    if engines != 2 {
        return String::new();
    }
    let mut text = String::new();
    let earlier = prior.pairs();
    if earlier > 0 {
        text.push_str(&format!(
            "earlier runs: {earlier} pairs {:?}, pooled into the pentanomial, the Elo and the SPRT\n",
            prior.counts
        ));
    }
    let played = results
        .keys()
        .filter_map(|&i| jobs.get(i))
        .map(|j| j.pair + 1)
        .max()
        .unwrap_or(0);
    if played > 0 || earlier > 0 {
        let c = summary.pairs.counts;
        text.push_str(&format!(
            "continue with: --first-pair {} --prior {},{},{},{},{}\n",
            first_pair + played,
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        ));
    }
    text
}

/// The `elo=` and `err=` values of a `result:` line: `err=inf` while the spread is unknown.
pub fn result_fields(e: Option<EloEstimate>) -> (String, String) {
    match e {
        Some(e) if e.elo.is_finite() => {
            (format!("{:+.1}", e.elo + 0.0), format!("{:.1}", e.margin))
        }
        Some(e) => (
            format!("{}inf", if e.elo > 0.0 { '+' } else { '-' }),
            "inf".into(),
        ),
        None => ("+0.0".to_string(), "inf".to_string()),
    }
}

/// One line a script can read, the last of a match's output (and, prefixed `status:`, after
/// each game): `result: elo=+X err=Y llr=Z w=W l=L d=D games=N sprt=accepted|rejected|running|off`.
/// Elo and its 95 % error come from the game pairs when there are any, else from single games;
/// `err=inf` while the spread is unknown. W, L, D are the first engine's.
pub fn result_line(prefix: &str, sprt: Option<&Sprt>, s: &Summary) -> String {
    let e = if s.pairs.pairs() > 0 {
        s.pairs.elo()
    } else {
        s.first.elo()
    };
    let (elo, err) = result_fields(e);
    let (llr, verdict) = match sprt {
        Some(sp) => {
            let (llr, d, _) = sprt_status(sp, s);
            (format!("{llr:.2}"), sprt_word(d))
        }
        None => ("-".to_string(), "off"),
    };
    let t = &s.first;
    format!(
        "{prefix}: elo={elo} err={err} llr={llr} w={} l={} d={} games={} sprt={verdict}\n",
        t.wins,
        t.losses,
        t.draws,
        t.games()
    )
}

#[cfg(test)]
mod tests {
    use super::super::referee::Outcome;
    use super::super::schedule::schedule;
    use super::*;

    fn result(index: usize, jobs: &[Job], names: &[String], o: Outcome) -> (usize, GameResult) {
        let j = jobs[index];
        (
            index,
            GameResult {
                index,
                red: names[j.red].clone(),
                black: names[j.black].clone(),
                outcome: o,
                plies: 10,
                reason: "x".into(),
            },
        )
    }

    #[test]
    fn summary_and_text() {
        let names = vec!["A".to_string(), "Bee".to_string()];
        let jobs = schedule(2, false, 6, 3);
        // Games: A red wins; A black draws; A red loses; A black wins; A red wins; (5 missing).
        let outcomes = [
            Outcome::RedWins,
            Outcome::Draw,
            Outcome::BlackWins,
            Outcome::BlackWins,
            Outcome::RedWins,
        ];
        let results: BTreeMap<_, _> = outcomes
            .iter()
            .enumerate()
            .map(|(i, &o)| result(i, &jobs, &names, o))
            .collect();
        let s = summarize(2, &jobs, &results);
        assert_eq!(
            s.first,
            Trinomial {
                wins: 3,
                losses: 1,
                draws: 1
            }
        );
        assert_eq!(
            s.per_engine[1],
            Trinomial {
                wins: 1,
                losses: 3,
                draws: 1
            }
        );
        assert_eq!(s.pairs.counts, [0, 0, 1, 1, 0]);
        let t = table(&names, &s);
        assert_eq!(
            t,
            "engine  games  wins losses draws  points  score  elo (95%)\n\
             A           5     3      1     1     3.5  70.0%  +147.2 +/- inf\n\
             Bee         5     1      3     1     1.5  30.0%  -147.2 +/- inf\n"
        );
        let h = head_to_head(&names, &s);
        assert!(h.starts_with("A vs Bee: +3 -1 =1  score 3.5/5\n"), "{h}");
        assert!(h.contains("over 2 pairs: [0, 0, 1, 1, 0]\n"), "{h}");
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
            min_games: 0,
        };
        let (_, d, text) = sprt_status(&sprt, &s);
        assert_eq!(d, SprtDecision::Continue);
        assert!(
            text.contains("(pentanomial) bounds [-2.944, 2.944]: undecided"),
            "{text}"
        );
        // Pairs scored 1 and 1.5 of 2: mean 0.625, variance 0.015625, stderr 0.088388; LLR 2 x 0.00719 x 0.24281 / 0.03125.
        assert_eq!(
            result_line("result", Some(&sprt), &s),
            "result: elo=+88.7 err=136.3 llr=0.11 w=3 l=1 d=1 games=5 sprt=running\n"
        );
        assert_eq!(
            result_line("status", None, &Summary::default()),
            "status: elo=+0.0 err=inf llr=- w=0 l=0 d=0 games=0 sprt=off\n"
        );
    }
}
