//! The match between a candidate net and the current one, as the screen and the SPRT play it:
//! written once here for `pao-tools generation` and, through `generation match-args`, for the
//! Slurm pipeline (tools/cluster/slurm/submit-generation.sh).

use crate::train::init;

/// Who plays and how: the candidate first, then the current net, each on one thread, without
/// its book, from the balanced openings, with resignation and draw adjudication.
pub struct Pairing<'a> {
    /// The engine program both sides run.
    pub engine: &'a str,
    /// The candidate net file.
    pub candidate: &'a str,
    /// The current net: a net file, or `embedded`.
    pub net: &'a str,
    /// Table size of each engine, MiB.
    pub hash: usize,
    /// The openings file.
    pub openings: &'a str,
}

impl Pairing<'_> {
    /// `pao-tools match` arguments for the engines, their options, the openings and the
    /// adjudication (the caller adds the games, the clock or nodes, and where results go).
    pub fn args(&self) -> Vec<String> {
        // The engine plays with its embedded net unless told to load another.
        let current = (self.net != init::EMBEDDED).then(|| format!("option.EvalFile={}", self.net));
        [
            "--engine".into(),
            "name=candidate".into(),
            format!("cmd={}", self.engine),
            format!("option.EvalFile={}", self.candidate),
            "--engine".into(),
            "name=current".into(),
            format!("cmd={}", self.engine),
        ]
        .into_iter()
        .chain(current)
        .chain(
            [
                "--each",
                "option.Threads=1",
                &format!("option.Hash={}", self.hash),
                "option.PinThreads=false",
                "option.OwnBook=false",
                "--openings",
                self.openings,
                "--resign",
                "score=600",
                "count=4",
                "--draw",
                "movenumber=40",
                "score=10",
                "count=8",
            ]
            .map(String::from),
        )
        .collect()
    }
}

/// Prints the pairing's arguments one per line, for a shell to read with `mapfile -t`.
pub fn print(pairing: &Pairing) -> Result<(), String> {
    let args = pairing.args();
    if let Some(arg) = args.iter().find(|a| a.contains('\n')) {
        return Err(format!("an argument holds a line break: {arg:?}"));
    }
    for arg in args {
        println!("{arg}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairing(net: &str) -> Pairing<'_> {
        Pairing {
            engine: "/bin/pao",
            candidate: "/g/candidate.nnue",
            net,
            hash: 16,
            openings: "/g/openings.txt",
        }
    }

    #[test]
    fn the_embedded_net_loads_no_file_and_a_net_file_is_loaded() {
        let embedded = pairing("embedded").args();
        assert_eq!(
            embedded[..7],
            [
                "--engine",
                "name=candidate",
                "cmd=/bin/pao",
                "option.EvalFile=/g/candidate.nnue",
                "--engine",
                "name=current",
                "cmd=/bin/pao"
            ]
        );
        assert_eq!(embedded[7], "--each");
        assert_eq!(embedded.len(), 21);
        let file = pairing("/g/g3.nnue").args();
        assert_eq!(file[7], "option.EvalFile=/g/g3.nnue");
        assert_eq!(file[8..], embedded[7..]);
        assert_eq!(
            file[8..15],
            [
                "--each",
                "option.Threads=1",
                "option.Hash=16",
                "option.PinThreads=false",
                "option.OwnBook=false",
                "--openings",
                "/g/openings.txt"
            ]
        );
    }

    #[test]
    fn a_line_break_in_a_path_is_refused() {
        let mut p = pairing("embedded");
        p.openings = "/g/open\nings.txt";
        assert!(print(&p).unwrap_err().contains("line break"));
    }
}
