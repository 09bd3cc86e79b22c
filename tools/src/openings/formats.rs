//! The file formats `pao-tools openings` writes: Pao's own lines of ICCS moves, EPD and PGN.
//! EPD and PGN give each opening as the position it ends in, which is what cutechess-cli,
//! fastchess and the GUIs read from any opening file; the moves that lead there ride along in
//! a comment (EPD's `c0`, a PGN `{...}`), so that the line can be read back.

use crate::common::openings::Opening;
use pao::board::pgn::PgnWriter;

/// The format of an openings file.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One opening a line: ICCS moves from the start position (or `FEN moves ...`), as
    /// `pao-tools match --openings` reads them
    Iccs,
    /// One position a line: the FEN's four fields, then `hmvc`, `fmvn` and the moves as `c0`
    /// (cutechess-cli `-openings format=epd`, fastchess)
    Epd,
    /// One record per opening with `[Variant "xiangqi"]`, `[SetUp "1"]` and the position as
    /// `[FEN]` (cutechess-cli `-openings format=pgn`, the GUIs)
    Pgn,
}

/// The opening's moves as ICCS text, after its FEN when it does not start from the start
/// position.
fn line(opening: &Opening) -> String {
    let moves: Vec<String> = opening.moves.iter().map(|m| m.to_string()).collect();
    match (opening.is_startpos(), moves.is_empty()) {
        (true, _) => moves.join(" "),
        (false, true) => opening.fen.clone(),
        (false, false) => format!("{} moves {}", opening.fen, moves.join(" ")),
    }
}

/// The FEN of the position the opening ends in.
fn final_fen(opening: &Opening) -> Result<String, String> {
    Ok(opening.position()?.to_fen())
}

/// Opening number `index` (from 1) in `format`, ending with a newline (PGN: a blank line).
pub fn record(opening: &Opening, index: usize, format: Format) -> Result<String, String> {
    match format {
        Format::Iccs => Ok(format!("{}\n", line(opening))),
        Format::Epd => {
            let fen = final_fen(opening)?;
            let fields: Vec<&str> = fen.split_whitespace().collect();
            let (head, clock, fullmove) = (fields[..4].join(" "), fields[4], fields[5]);
            Ok(format!(
                "{head} hmvc {clock}; fmvn {fullmove}; c0 \"{}\";\n",
                line(opening)
            ))
        }
        Format::Pgn => {
            let mut pgn = PgnWriter::new();
            pgn.tag("Event", "Balanced opening");
            pgn.tag("Site", "?");
            pgn.tag("Date", "????.??.??");
            pgn.tag("Round", &index.to_string());
            pgn.tag("White", "?");
            pgn.tag("Black", "?");
            pgn.tag("Result", "*");
            pgn.tag("Variant", "xiangqi");
            pgn.tag("SetUp", "1");
            pgn.tag("FEN", &final_fen(opening)?);
            pgn.comment(&line(opening));
            pgn.token("*");
            Ok(pgn.finish() + "\n")
        }
    }
}

/// A whole file of `openings` in `format`.
pub fn file(openings: &[Opening], format: Format) -> Result<String, String> {
    let mut out = String::new();
    for (i, o) in openings.iter().enumerate() {
        out.push_str(&record(o, i + 1, format)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::openings::parse_line;

    #[test]
    fn one_opening_in_each_format() {
        let o = parse_line("h2e2 h9g7 h0g2 i9h9").unwrap();
        assert_eq!(
            record(&o, 1, Format::Iccs).unwrap(),
            "h2e2 h9g7 h0g2 i9h9\n"
        );
        let epd = "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - \
                   hmvc 4; fmvn 3; c0 \"h2e2 h9g7 h0g2 i9h9\";\n";
        assert_eq!(record(&o, 1, Format::Epd).unwrap(), epd);
        let pgn = record(&o, 7, Format::Pgn).unwrap();
        assert!(pgn.contains("[Round \"7\"]\n"), "{pgn}");
        assert!(
            pgn.contains("[Variant \"xiangqi\"]\n[SetUp \"1\"]\n"),
            "{pgn}"
        );
        assert!(
            pgn.contains("[FEN \"rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3\"]"),
            "{pgn}"
        );
        assert!(pgn.ends_with("{h2e2 h9g7 h0g2 i9h9} *\n\n"), "{pgn}");
        // An opening from another position keeps its FEN in the line.
        let o = parse_line("3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1 moves e3e4").unwrap();
        assert_eq!(
            record(&o, 1, Format::Iccs).unwrap(),
            "3k5/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1 moves e3e4\n"
        );
    }
}
