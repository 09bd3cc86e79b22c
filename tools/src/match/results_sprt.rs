//! The SPRT over a match's results file as it stands between runs: what `pao-tools generation`
//! reads to say where an SPRT left undecided stands, and to continue it by the games it has.

use super::report;
use super::schedule::schedule;
use super::state;
use super::stats::Sprt;

/// Where an SPRT stands on the games of a results file.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtState {
    /// Finished games.
    pub games: u64,
    /// One past the highest game index finished (games missing below it are played first).
    pub next: usize,
    /// The log-likelihood ratio, and its (lower, upper) bounds.
    pub llr: f64,
    pub bounds: (f64, f64),
    /// `accepted`, `rejected` or `running`, as a `result:` line says it.
    pub verdict: &'static str,
}

/// The SPRT `words` (as `match --sprt` takes them) over the results file `path` of a match
/// between two engines named `names` (nothing played when there is no file yet).
pub fn read(path: &str, names: &[String; 2], words: &[String]) -> Result<SprtState, String> {
    let sprt = Sprt::parse(words)?;
    let text = state::read_existing(path)?;
    // A schedule long enough for every index in the file (a torn last line's too).
    let scheduled = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split('\t').next()?.trim().parse::<usize>().ok())
        .max()
        .map_or(0, |last| last + 1);
    let jobs = schedule(names.len(), false, scheduled, 1);
    let results = state::parse(&text, &jobs, names).map_err(|e| format!("{path}: {e}"))?;
    let next = results.keys().next_back().map_or(0, |last| last + 1);
    let summary = report::summarize(names.len(), &jobs, &results);
    let (llr, decision, _) = report::sprt_status(&sprt, &summary);
    Ok(SprtState {
        games: summary.first.games(),
        next,
        llr,
        bounds: sprt.bounds(),
        verdict: report::sprt_word(decision),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sprt_of_a_results_file_and_of_none() {
        let dir = std::env::temp_dir().join(format!("pao-results-sprt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("sprt.tsv").display().to_string();
        let names = ["new".to_string(), "old".to_string()];
        let words: Vec<String> = ["elo0=0", "elo1=10", "min-games=2"]
            .map(String::from)
            .into();
        let none = read(&path, &names, &words).expect("no file yet");
        assert_eq!((none.games, none.next, none.verdict), (0, 0, "running"));
        // Games 0, 1 and 3 (2 is missing), and a torn last line a killed run left.
        let lines = "0\tnew\told\t1-0\t40\tmate\n\
                     1\told\tnew\t1/2-1/2\t80\tdraw\n\
                     3\told\tnew\t0-1\t60\tmate\n\
                     4\tnew\told\t1-";
        let text = format!("{}{lines}", state::head("fnv1a:0"));
        std::fs::write(&path, text).expect("written");
        let three = read(&path, &names, &words).expect("reads");
        assert_eq!((three.games, three.next, three.verdict), (3, 4, "running"));
        let (lo, hi) = three.bounds;
        assert!((lo + 2.944_438_979).abs() < 1e-6 && (hi - 2.944_438_979).abs() < 1e-6);
        // One complete pair (games 0 and 1: 1.5 of 2 points), read as the match reads it.
        assert_eq!(
            three.llr,
            super::super::gsprt::llr_normalized(&[0, 0, 0, 1, 0], 0.0, 10.0)
        );
        assert_eq!(format!("{:.4}", three.llr), "0.0280");
        assert!(read(&path, &names, &["elo1=x".to_string()]).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
