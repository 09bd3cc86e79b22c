//! The committed balanced openings in the three formats: `tools/data/balanced-openings.txt`
//! (ICCS lines for `pao-tools match`), `.epd` and `.pgn` (for cutechess-cli, fastchess and the
//! GUIs). Each EPD and PGN record is checked against the position that Pao's rules reach by
//! replaying the ICCS line, and the files are exactly what `pao-tools openings --from ... --format`
//! writes today, so the three cannot drift apart.

mod support;

use pao::board::{Position, RankBase};
use support::tools;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/balanced-openings");

fn read(ext: &str) -> String {
    std::fs::read_to_string(format!("{DATA}.{ext}"))
        .unwrap_or_else(|e| panic!("balanced-openings.{ext}: {e}"))
}

/// The ICCS lines of the committed file, without its header.
fn lines() -> Vec<String> {
    read("txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The position a line of ICCS moves reaches from the start, every move checked legal.
fn replay(line: &str) -> Position {
    let mut pos = Position::startpos();
    for text in line.split_whitespace() {
        let m = pos
            .parse_legal_move(text, RankBase::Zero)
            .unwrap_or_else(|e| panic!("{e} in '{line}'"));
        pos.make_move(m);
    }
    pos
}

/// The text between `open` and the next `close` after it.
fn between<'a>(text: &'a str, open: &str, close: &str) -> &'a str {
    let start = text
        .find(open)
        .unwrap_or_else(|| panic!("no {open} in {text}"))
        + open.len();
    let len = text[start..].find(close).expect("closed");
    &text[start..start + len]
}

#[test]
fn epd_lines_are_the_positions_the_iccs_lines_reach() {
    let lines = lines();
    let epd = read("epd");
    let records: Vec<&str> = epd.lines().collect();
    assert_eq!(lines.len(), 300);
    assert_eq!(records.len(), lines.len());
    for (line, record) in lines.iter().zip(&records) {
        let pos = replay(line);
        let fen = pos.to_fen();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        // cutechess-cli reads four FEN fields, then operations.
        let expected = format!(
            "{} hmvc {}; fmvn {}; c0 \"{line}\";",
            fields[..4].join(" "),
            fields[4],
            fields[5]
        );
        assert_eq!(*record, expected);
        // Four fields alone are a position Pao reads back as the same one.
        let head: Vec<&str> = record.split_whitespace().take(4).collect();
        let back = Position::from_fen(&head.join(" ")).expect("EPD position");
        assert_eq!(back.key(), pos.key(), "{record}");
        assert_eq!(back.side_to_move(), pos.side_to_move());
    }
}

#[test]
fn pgn_records_set_up_the_positions_the_iccs_lines_reach() {
    let lines = lines();
    let pgn = read("pgn");
    let records: Vec<&str> = pgn.split("\n\n[").collect();
    assert_eq!(records.len(), lines.len());
    for (i, (line, record)) in lines.iter().zip(&records).enumerate() {
        let pos = replay(line);
        assert!(
            record.contains(&format!("[Round \"{}\"]\n", i + 1)),
            "{record}"
        );
        assert!(
            record.contains("[Variant \"xiangqi\"]\n[SetUp \"1\"]\n"),
            "{record}"
        );
        assert_eq!(between(record, "[FEN \"", "\"]"), pos.to_fen());
        assert_eq!(between(record, "\n\n{", "}"), line);
        assert!(record.trim_end().ends_with("} *"), "{record}");
    }
}

#[test]
fn the_committed_files_are_what_the_tool_writes() {
    let from = format!("{DATA}.txt");
    for ext in ["epd", "pgn"] {
        let (code, out, err) = tools(&["openings", "--from", &from, "--format", ext]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out == read(ext),
            "balanced-openings.{ext} differs from the tool's output"
        );
    }
    let (code, out, err) = tools(&["openings", "--from", &from, "--format", "iccs"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, lines().join("\n") + "\n");
}

#[test]
fn an_epd_file_is_read_back_by_the_match_runner() {
    // `pao-tools openings --from FILE.epd` reads the EPD as `match --openings` does and writes
    // each position back as a FEN line.
    let from = format!("{DATA}.epd");
    let (code, out, err) = tools(&["openings", "--from", &from, "--format", "iccs"]);
    assert_eq!(code, 0, "{err}");
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), 300);
    let first = replay(&lines()[0]).to_fen();
    assert_eq!(got[0], first);
}
