//! `pao-tools wdlfit`: fits the win/draw/loss model of UCI_ShowWDL to game outcomes. Every
//! engine move's score in the PGN comments (`{+0.25/12 0.512s}`, from the mover's view) is
//! one sample, labelled with the game's result from the mover's view. The model is
//! P(win | s) = 1 / (1 + exp((A - s) / B)), P(loss | s) = P(win | -s), and A, B maximise the
//! likelihood (a coarse grid, then a fine one). Games decided by a forfeit (illegal move,
//! time, crash) say nothing about the position and are left out, as are mate scores.

use crate::common::Failure;

/// `pao-tools wdlfit`: fits A and B of the WDL model to the scores in `pao-tools match` PGN
/// comments and the games' results; prints the data, the fit, and observed against predicted
/// per score band.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Fits A and B of the WDL model to the scores in `pao-tools match` PGN \
comments and the games' results; prints the data, the fit, and observed against predicted \
per score band."
)]
pub struct WdlfitArgs {
    /// PGN files written by `pao-tools match --pgnout`
    #[arg(value_name = "FILE.pgn", required = true)]
    files: Vec<String>,
}

/// One sample: the mover's score in centipawns and the outcome for the mover (1, 0.5, 0).
#[derive(Clone, Copy)]
struct Sample {
    cp: f64,
    outcome: f64,
}

fn tag<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let start = game.find(&format!("[{name} \""))? + name.len() + 3;
    let end = game[start..].find('"')?;
    Some(&game[start..start + end])
}

/// The samples of one game, or why it is left out.
fn samples_of(game: &str) -> Result<Vec<Sample>, String> {
    let red_result = match tag(game, "Result") {
        Some("1-0") => 1.0,
        Some("0-1") => 0.0,
        Some("1/2-1/2") => 0.5,
        other => return Err(format!("result {other:?}")),
    };
    let termination = tag(game, "Termination").unwrap_or("");
    if ["illegal", "forfeit", "crash", "error", "no move"]
        .iter()
        .any(|w| termination.contains(w))
    {
        return Err(termination.to_string());
    }
    let mut red_to_move = tag(game, "FEN").is_none_or(|f| f.split_whitespace().nth(1) != Some("b"));
    let body = game.split("\n\n").nth(1).unwrap_or("");
    let mut out = Vec::new();
    let mut mover_is_red = true;
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            let end = rest.find('}').unwrap_or(rest.len() - 1);
            let comment = &rest[1..end];
            rest = &rest[end + 1..];
            let score = comment.split('/').next().unwrap_or("");
            if score.contains('M') {
                continue;
            }
            if let Ok(pawns) = score.trim().parse::<f64>() {
                let outcome = if mover_is_red {
                    red_result
                } else {
                    1.0 - red_result
                };
                out.push(Sample {
                    cp: (pawns * 100.0).round(),
                    outcome,
                });
            }
            continue;
        }
        let end = rest
            .find(|ch: char| ch.is_whitespace() || ch == '{')
            .unwrap_or(rest.len());
        let word = &rest[..end];
        rest = rest[end..].trim_start();
        // ICCS moves look like `H2-E2`; each one hands the move to the other side.
        if word.len() == 5 && word.as_bytes()[2] == b'-' {
            mover_is_red = red_to_move;
            red_to_move = !red_to_move;
        }
    }
    Ok(out)
}

fn probabilities(cp: f64, a: f64, b: f64) -> (f64, f64, f64) {
    let win = 1.0 / (1.0 + ((a - cp) / b).exp());
    let loss = 1.0 / (1.0 + ((a + cp) / b).exp());
    (win, (1.0 - win - loss).max(1e-9), loss)
}

fn log_likelihood(data: &[Sample], a: f64, b: f64) -> f64 {
    data.iter()
        .map(|s| {
            let (w, d, l) = probabilities(s.cp, a, b);
            let p = if s.outcome == 1.0 {
                w
            } else if s.outcome == 0.0 {
                l
            } else {
                d
            };
            p.max(1e-12).ln()
        })
        .sum()
}

fn grid(data: &[Sample], a: (f64, f64, f64), b: (f64, f64, f64)) -> (f64, f64, f64) {
    let mut best = (0.0, 1.0, f64::NEG_INFINITY);
    let mut x = a.0;
    while x <= a.1 {
        let mut y = b.0;
        while y <= b.1 {
            let ll = log_likelihood(data, x, y);
            if ll > best.2 {
                best = (x, y, ll);
            }
            y += b.2;
        }
        x += a.2;
    }
    best
}

/// Runs the fit.
pub fn run(args: WdlfitArgs) -> Result<(), Failure> {
    let mut data = Vec::new();
    let (mut games, mut skipped) = (0usize, 0usize);
    let mut results = [0usize; 3];
    for path in &args.files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for game in text.split("[Game ").skip(1) {
            match samples_of(game) {
                Ok(s) => {
                    games += 1;
                    match tag(game, "Result") {
                        Some("1-0") => results[0] += 1,
                        Some("1/2-1/2") => results[1] += 1,
                        _ => results[2] += 1,
                    }
                    data.extend(s);
                }
                Err(_) => skipped += 1,
            }
        }
    }
    if data.is_empty() {
        return Err("no scored moves in the games".to_string().into());
    }
    println!(
        "games {games} (red wins {}, draws {}, black wins {}), left out {skipped} (forfeits), samples {}",
        results[0], results[1], results[2], data.len()
    );
    let coarse = grid(&data, (0.0, 2000.0, 20.0), (10.0, 1000.0, 10.0));
    let fine = grid(
        &data,
        ((coarse.0 - 20.0).max(0.0), coarse.0 + 20.0, 1.0),
        ((coarse.1 - 10.0).max(1.0), coarse.1 + 10.0, 1.0),
    );
    println!(
        "fit A {:.0} B {:.0} mean log-likelihood {:.4}",
        fine.0,
        fine.1,
        fine.2 / data.len() as f64
    );
    println!(
        "{:>14} {:>7} {:>21} {:>21}",
        "score band", "samples", "observed W/D/L", "model W/D/L"
    );
    let edges = [
        -100000.0, -400.0, -200.0, -100.0, -50.0, 50.0, 100.0, 200.0, 400.0, 100000.0,
    ];
    for pair in edges.windows(2) {
        let band: Vec<&Sample> = data
            .iter()
            .filter(|s| s.cp >= pair[0] && s.cp < pair[1])
            .collect();
        if band.is_empty() {
            continue;
        }
        let n = band.len() as f64;
        let count = |o: f64| band.iter().filter(|s| s.outcome == o).count() as f64 * 1000.0 / n;
        let mut model = (0.0, 0.0, 0.0);
        for s in &band {
            let (w, d, l) = probabilities(s.cp, fine.0, fine.1);
            model = (model.0 + w, model.1 + d, model.2 + l);
        }
        let label = format!("[{}, {})", pair[0].max(-9999.0), pair[1].min(9999.0));
        println!(
            "{label:>14} {:>7} {:>6.0} {:>6.0} {:>6.0}  {:>6.0} {:>6.0} {:>6.0}",
            band.len(),
            count(1.0),
            count(0.5),
            count(0.0),
            model.0 * 1000.0 / n,
            model.1 * 1000.0 / n,
            model.2 * 1000.0 / n
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_take_the_movers_view_and_skip_forfeits() {
        let game = "[Game \"Chinese Chess\"]\n[Result \"0-1\"]\n[Termination \"checkmate\"]\n\n\
                    1. H2-E2 H9-G7 2. H0-G2 {+0.25/12 0.512s} I9-H9 {-0.10/11 1.000s} 3. I0-H0\n\
                    {+M3/5 0.1s} {checkmate} 0-1\n";
        let s = samples_of(game).expect("scored game");
        let got: Vec<(f64, f64)> = s.iter().map(|s| (s.cp, s.outcome)).collect();
        // Red's move scored +25 and red lost; black's -10 and black won; the mate is left out.
        assert_eq!(got, vec![(25.0, 0.0), (-10.0, 1.0)]);
        let forfeit = game.replace("checkmate\"]", "illegal move 'a0a0' by X\"]");
        assert!(samples_of(&forfeit).is_err());
    }
}
