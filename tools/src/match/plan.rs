//! `pao-tools match plan`: what an SPRT with given bounds does before its games are played:
//! for a range of true differences, the chance that it accepts H1 and the games it plays on
//! average (Wald's approximation). In normalised Elo the figures hold at every draw rate;
//! `--like` converts them to logistic Elo by the spread of a match's pentanomial counts.

use super::gsprt::{self, NELO_PER_T};
use super::stats::{EloModel, Sprt};

/// `pao-tools match plan`.
#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// The SPRT, as `match --sprt` takes it (normalised Elo only)
    #[arg(long, value_name = "KEY=VALUE", num_args = 0..)]
    sprt: Option<Vec<String>>,
    /// Pentanomial counts N0,N1,N2,N3,N4 of a match like the one planned: its spread
    /// converts normalised Elo to logistic Elo
    #[arg(long, value_name = "COUNTS")]
    like: Option<String>,
}

/// Logistic Elo per normalised Elo near 0 for pentanomial counts: a game's spread is sqrt(2)
/// times the pair's, and logistic Elo is 1600 / ln 10 times the score's excess near 1/2.
fn logistic_per_nelo(counts: &[u64; 5]) -> f64 {
    let (_, law) = gsprt::empirical(counts);
    let (_, var) = gsprt::moments(&law);
    let sigma_game = (2.0 * var).sqrt();
    sigma_game / NELO_PER_T * 1600.0 / std::f64::consts::LN_10
}

fn parse_like(word: &str) -> Result<[u64; 5], String> {
    let numbers: Vec<u64> = word
        .trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .map(|n| n.trim().parse())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("--like '{word}': give N0,N1,N2,N3,N4"))?;
    numbers
        .try_into()
        .map_err(|_| format!("--like '{word}': give five counts N0,N1,N2,N3,N4"))
}

/// The plan's table.
pub fn plan(args: &PlanArgs) -> Result<String, String> {
    let sprt = Sprt::parse(args.sprt.as_deref().unwrap_or(&[]))?;
    if sprt.model != EloModel::Normalized {
        return Err(
            "match plan: only model=normalized has lengths that hold at every draw rate".into(),
        );
    }
    let scale = args
        .like
        .as_deref()
        .map(parse_like)
        .transpose()?
        .map(|c| logistic_per_nelo(&c));
    let (lower, upper) = sprt.bounds();
    let mut out = format!("SPRT {}\n", sprt.describe());
    if let Some(k) = scale {
        out.push_str(&format!(
            "logistic Elo = {k:.3} x normalised Elo (from --like)\n"
        ));
    }
    out.push_str("true nElo  logistic  P(accept H1)  games (mean)\n");
    let width = sprt.elo1 - sprt.elo0;
    for step in 0..=12 {
        let nelo = sprt.elo0 - width + width * step as f64 / 4.0;
        let (p, games) = gsprt::operating_point(sprt.elo0, sprt.elo1, lower, upper, nelo);
        let games = games.max(sprt.min_games as f64);
        let logistic = scale.map_or("-".to_string(), |k| format!("{:+.1}", k * nelo));
        out.push_str(&format!(
            "{:>+9.2}  {:>8}  {:>12.3}  {:>12.0}\n",
            nelo + 0.0,
            logistic,
            p,
            games
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_its_bounds_and_reads_the_hypotheses() {
        let args = PlanArgs {
            sprt: Some(vec!["elo0=0".into(), "elo1=10".into()]),
            like: Some("88,450,864,432,94".into()),
        };
        let text = plan(&args).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized min-games=200"
        );
        // The pairs' spread: variance 0.0522 per pair, 0.323 per game; 0.646 logistic per nElo.
        assert!(lines[1].starts_with("logistic Elo = 0.64"), "{}", lines[1]);
        // Rows from -10 to +20 nElo by 2.5; at 0 and 10 the chosen error rates.
        let at = |nelo: &str| {
            lines
                .iter()
                .find(|l| l.trim_start().starts_with(nelo))
                .unwrap()
        };
        assert!(at("+0.00").contains(" 0.050 "), "{}", at("+0.00"));
        assert!(at("+10.00").contains(" 0.950 "), "{}", at("+10.00"));
        assert!(at("+5.00").contains(" 0.500 "), "{}", at("+5.00"));
        assert_eq!(lines.len(), 3 + 13);
        let logistic_only = Sprt::parse(&["model=logistic".into()]).unwrap();
        assert_eq!(logistic_only.model, EloModel::Logistic);
        let refused = PlanArgs {
            sprt: Some(vec!["model=logistic".into()]),
            like: None,
        };
        assert!(plan(&refused).is_err());
        assert!(parse_like("1,2,3").is_err());
    }
}
