//! The results file: one tab-separated line per finished game, appended as games end, so an
//! interrupted match can be resumed without losing anything.

use super::config::MatchConfig;
use super::referee::Outcome;
use super::schedule::Job;
use std::collections::BTreeMap;
use std::io::Write;

/// A finished game as the match keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// Schedule index.
    pub index: usize,
    /// Red's name.
    pub red: String,
    /// Black's name.
    pub black: String,
    /// Result.
    pub outcome: Outcome,
    /// Plies played by the engines.
    pub plies: usize,
    /// Why it ended.
    pub reason: String,
}

/// The first line of a results file.
pub const HEADER: &str = "# pao-tools match results: index\tred\tblack\tresult\tplies\treason";

/// The comment line that names the settings a results file's games were played with.
const SETTINGS: &str = "# settings ";

/// A hash of everything that decides a match's games but their number: engines, limits,
/// openings, rules (`fnv1a:` and 16 hex digits).
pub fn settings_of(cfg: &MatchConfig) -> String {
    let described = format!("{:?}\n{:?}\n{:?}", cfg.engines, cfg.game, cfg.openings);
    format!(
        "fnv1a:{:016x}",
        pao::eval::nnue::file::fnv1a(described.as_bytes())
    )
}

/// A results file's text, empty when there is no file yet.
pub fn read_existing(path: &str) -> Result<String, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(format!("cannot read '{path}': {e}")),
    }
}

/// The first two lines of a results file: the header and the settings line.
pub fn head(settings: &str) -> String {
    format!("{HEADER}\n{SETTINGS}{settings}\n")
}

/// Starts the results file `path` with the header and a line naming `settings`, or checks
/// the settings line it has, so that a match continued with other engines, limits, openings
/// or rules is refused instead of mixing two matches' games. A file without the line (written
/// before it existed) is taken as it is.
pub fn prepare(path: &str, settings: &str) -> Result<(), String> {
    let text = read_existing(path)?;
    if text.is_empty() {
        return append(path, &head(settings));
    }
    match text.lines().find_map(|l| l.strip_prefix(SETTINGS)) {
        Some(theirs) if theirs.trim() != settings => Err(format!(
            "{path} holds games of another match (engines, openings, limits or rules differ): \
             give another results file"
        )),
        _ => Ok(()),
    }
}

/// One line of the file (tabs and newlines in the reason are replaced by spaces).
pub fn format_line(r: &GameResult) -> String {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}",
        r.index,
        clean(&r.red),
        clean(&r.black),
        r.outcome.pgn(),
        r.plies,
        clean(&r.reason)
    )
}

fn parse_line(line: &str) -> Result<GameResult, String> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() != 6 {
        return Err(format!(
            "expected 6 tab-separated fields, found {}",
            f.len()
        ));
    }
    Ok(GameResult {
        index: f[0].parse().map_err(|_| format!("bad index '{}'", f[0]))?,
        red: f[1].to_string(),
        black: f[2].to_string(),
        outcome: Outcome::from_pgn(f[3]).ok_or_else(|| format!("bad result '{}'", f[3]))?,
        plies: f[4]
            .parse()
            .map_err(|_| format!("bad ply count '{}'", f[4]))?,
        reason: f[5].to_string(),
    })
}

/// Reads finished games from `text`, checking each against the schedule (same index, same
/// engines in the same colours). A torn last line (no newline at the end) is ignored.
pub fn parse(
    text: &str,
    jobs: &[Job],
    names: &[String],
) -> Result<BTreeMap<usize, GameResult>, String> {
    let mut out = BTreeMap::new();
    let complete = if text.ends_with('\n') || text.is_empty() {
        text
    } else {
        text.rsplit_once('\n').map(|(head, _)| head).unwrap_or("")
    };
    for (n, line) in complete.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let r = parse_line(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let job = jobs.get(r.index).ok_or_else(|| {
            // `--games` counts games per pairing; a continuation needs whole pairs.
            let pairings = jobs.iter().map(|j| j.pairing + 1).max().unwrap_or(1);
            format!(
                "line {}: game {} is beyond this match's --games {} (the file holds a longer \
                     match: give --games {} or more to continue it)",
                n + 1,
                r.index,
                jobs.len() / pairings,
                (r.index / pairings + 2) / 2 * 2
            )
        })?;
        if names[job.red] != r.red || names[job.black] != r.black {
            return Err(format!(
                "line {}: game {} was {} - {}, but this match schedules {} - {}",
                n + 1,
                r.index,
                r.red,
                r.black,
                names[job.red],
                names[job.black]
            ));
        }
        out.insert(r.index, r);
    }
    Ok(out)
}

/// Loads the results file if it exists, cutting off a torn last line (a run killed while
/// writing) so that new results start on a line of their own.
pub fn load(
    path: &str,
    jobs: &[Job],
    names: &[String],
) -> Result<BTreeMap<usize, GameResult>, String> {
    let text = read_existing(path)?;
    let results = parse(&text, jobs, names).map_err(|e| format!("{path}: {e}"))?;
    if !text.is_empty() && !text.ends_with('\n') {
        let keep = text.rfind('\n').map(|i| i + 1).unwrap_or(0);
        std::fs::write(path, &text[..keep]).map_err(|e| format!("cannot repair '{path}': {e}"))?;
    }
    Ok(results)
}

/// Appends text to a file (creating it), flushed at once.
pub fn append(path: &str, text: &str) -> Result<(), String> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open '{path}': {e}"))?;
    f.write_all(text.as_bytes())
        .and_then(|_| f.flush())
        .map_err(|e| format!("cannot write '{path}': {e}"))
}

/// Appends one result, writing the header first when the file is new or empty.
pub fn append_result(path: &str, r: &GameResult) -> Result<(), String> {
    let fresh = std::fs::metadata(path)
        .map(|m| m.len() == 0)
        .unwrap_or(true);
    let mut text = String::new();
    if fresh {
        text.push_str(HEADER);
        text.push('\n');
    }
    text.push_str(&format_line(r));
    text.push('\n');
    append(path, &text)
}

#[cfg(test)]
mod tests {
    use super::super::schedule::schedule;
    use super::*;

    #[test]
    fn round_trip_and_checks() {
        let names = vec!["A".to_string(), "B".to_string()];
        let jobs = schedule(2, false, 4, 2);
        let r = GameResult {
            index: 1,
            red: "B".into(),
            black: "A".into(),
            outcome: Outcome::BlackWins,
            plies: 37,
            reason: "illegal\tmove".into(),
        };
        let line = format_line(&r);
        assert_eq!(line, "1\tB\tA\t0-1\t37\tillegal move");
        let text = format!("{HEADER}\n{line}\n2\tA\tB\t1/2-1/2\t10\tdr");
        let got = parse(&text, &jobs, &names).unwrap();
        // The torn last line is dropped.
        assert_eq!(got.len(), 1);
        assert_eq!(got[&1].outcome, Outcome::BlackWins);
        assert_eq!(got[&1].reason, "illegal move");
        assert!(parse("0\tB\tA\t1-0\t1\tx\n", &jobs, &names).is_err());
        // A game beyond the schedule: the file holds a longer match, and the error says the
        // games that continue it (whole pairs).
        assert_eq!(
            parse("4\tA\tB\t1-0\t1\tx\n", &jobs, &names).unwrap_err(),
            "line 1: game 4 is beyond this match's --games 4 (the file holds a longer match: \
             give --games 6 or more to continue it)"
        );
        assert!(parse("0\tA\tB\t2-0\t1\tx\n", &jobs, &names).is_err());
    }
}
