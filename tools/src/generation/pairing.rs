//! The match between a candidate net and the current one, as the screen and the SPRT play it:
//! written once here for `pao-tools generation` and, through `generation match-args`, for the
//! Slurm pipeline (tools/cluster/slurm/submit-generation.sh).

use crate::train::init;
use pao::eval::nnue::Network;

/// Who plays and how: the candidate first, then the current net, each loaded from its file
/// (never the net the engine embeds, which may be another), each on one thread, without its
/// book, from the balanced openings, with resignation and draw adjudication.
pub struct Pairing<'a> {
    /// The engine program both sides run.
    pub engine: &'a str,
    /// The candidate net file.
    pub candidate: &'a str,
    /// The current net's file (a generation's `current.nnue`).
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
        [
            "--engine".into(),
            "name=candidate".into(),
            format!("cmd={}", self.engine),
            format!("option.EvalFile={}", self.candidate),
            "--engine".into(),
            "name=current".into(),
            format!("cmd={}", self.engine),
            format!("option.EvalFile={}", self.net),
        ]
        .into_iter()
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

/// Prints the pairing's arguments one per line, for a shell to read with `mapfile -t`. The
/// current net must be a file that loads: `embedded` is refused, since the engine's built-in
/// net need not be the net the generation started from.
pub fn print(pairing: &Pairing) -> Result<(), String> {
    let args = pairing.args();
    if let Some(arg) = args.iter().find(|a| a.contains('\n')) {
        return Err(format!("an argument holds a line break: {arg:?}"));
    }
    if pairing.net == init::EMBEDDED {
        return Err(format!(
            "--net {}: the current side would play whatever net the engine was built with; give \
             the generation's current.nnue (pao-tools generation write-net --net NET --out \
             DIR/current.nnue writes it)",
            init::EMBEDDED
        ));
    }
    Network::load(pairing.net).map_err(|e| format!("--net {}: {e}", pairing.net))?;
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
    fn both_nets_are_loaded_from_their_files() {
        let args = pairing("/g/current.nnue").args();
        assert_eq!(
            args[..15],
            [
                "--engine",
                "name=candidate",
                "cmd=/bin/pao",
                "option.EvalFile=/g/candidate.nnue",
                "--engine",
                "name=current",
                "cmd=/bin/pao",
                "option.EvalFile=/g/current.nnue",
                "--each",
                "option.Threads=1",
                "option.Hash=16",
                "option.PinThreads=false",
                "option.OwnBook=false",
                "--openings",
                "/g/openings.txt"
            ]
        );
        assert_eq!(args.len(), 22);
    }

    #[test]
    fn the_embedded_net_a_missing_net_and_a_line_break_are_refused() {
        let err = print(&pairing("embedded")).unwrap_err();
        assert!(
            err.starts_with("--net embedded: the current side would play whatever net"),
            "{err}"
        );
        let err = print(&pairing("/nonexistent/current.nnue")).unwrap_err();
        assert!(
            err.starts_with("--net /nonexistent/current.nnue: "),
            "{err}"
        );
        let mut p = pairing("embedded");
        p.openings = "/g/open\nings.txt";
        assert!(print(&p).unwrap_err().contains("line break"));
    }
}
