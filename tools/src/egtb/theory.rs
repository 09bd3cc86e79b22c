//! `pao-tools egtb theory`: the classic endgames as the tables see them, for comparison with
//! the endgame literature: the share of legal positions won by the stronger side with each
//! side to move, the longest mate, and, for some, the share with the defenders standing in a
//! named formation.

use super::tables::open;
use crate::common::Failure;
use pao::board::{Color, Piece, PieceKind, Square};
use pao::egtb::{value, Material};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct TheoryArgs {
    /// Directory of table files
    #[arg(long)]
    dir: PathBuf,
}

/// A classic endgame: its material and, optionally, the weaker side's pieces fixed on
/// squares (black in the table's coordinates), with a name for the formation.
struct Row {
    material: &'static str,
    what: &'static str,
    formation: Option<(&'static str, &'static [(PieceKind, &'static str)])>,
}

const ROWS: &[Row] = &[
    Row {
        material: "KRK",
        what: "rook against a bare general",
        formation: None,
    },
    Row {
        material: "KNK",
        what: "horse against a bare general",
        formation: None,
    },
    Row {
        material: "KCK",
        what: "cannon against a bare general",
        formation: None,
    },
    Row {
        material: "KPK",
        what: "soldier against a bare general",
        formation: None,
    },
    Row {
        material: "KNKA",
        what: "horse against one advisor",
        formation: None,
    },
    Row {
        material: "KNKB",
        what: "horse against one elephant",
        formation: None,
    },
    Row {
        material: "KNKAA",
        what: "horse against two advisors",
        formation: None,
    },
    Row {
        material: "KNKBB",
        what: "horse against two elephants",
        formation: None,
    },
    Row {
        material: "KPKA",
        what: "soldier against one advisor",
        formation: None,
    },
    Row {
        material: "KPPKAA",
        what: "two soldiers against two advisors",
        formation: None,
    },
    Row {
        material: "KRKNAA",
        what: "rook against horse and two advisors",
        formation: None,
    },
    Row {
        material: "KRKCAA",
        what: "rook against cannon and two advisors",
        formation: None,
    },
    Row {
        material: "KRKAABB",
        what: "rook against full advisors and elephants",
        formation: None,
    },
    Row {
        material: "KRKAABB",
        what: "rook against full advisors and elephants",
        formation: Some((
            "defenders at home (general e9, advisors d9 f9, elephants c9 g9)",
            &[
                (PieceKind::General, "e9"),
                (PieceKind::Advisor, "d9"),
                (PieceKind::Advisor, "f9"),
                (PieceKind::Elephant, "c9"),
                (PieceKind::Elephant, "g9"),
            ],
        )),
    },
    Row {
        material: "KRKAABB",
        what: "rook against full advisors and elephants",
        formation: Some((
            "compact (general e9, advisors d9 e8, elephants c9 e7)",
            &[
                (PieceKind::General, "e9"),
                (PieceKind::Advisor, "d9"),
                (PieceKind::Advisor, "e8"),
                (PieceKind::Elephant, "c9"),
                (PieceKind::Elephant, "e7"),
            ],
        )),
    },
];

fn square(name: &str) -> Option<Square> {
    let b = name.as_bytes();
    Square::new((b[0] - b'a') as usize, (b[1] - b'0') as usize)
}

/// Prints the table as Markdown rows.
pub fn run(a: TheoryArgs) -> Result<(), Failure> {
    let tables = open(&a.dir);
    println!("| endgame | table | positions | stronger side to move: won | weaker side to move: lost | longest mate (plies) |");
    println!("|---|---|---:|---:|---:|---:|");
    for row in ROWS {
        let m = Material::parse(row.material).map_err(|e| e.to_string())?;
        let Some(t) = tables.table(&m) else {
            println!(
                "| {} | {} | (table not generated) | | | |",
                row.what, row.material
            );
            continue;
        };
        let fixed: Vec<(Piece, Square)> = match row.formation {
            None => Vec::new(),
            Some((_, pieces)) => pieces
                .iter()
                .filter_map(|&(k, s)| square(s).map(|sq| (Piece::new(Color::Black, k), sq)))
                .collect(),
        };
        let index = t.index();
        // [side to move][won, drawn, lost, total]
        let mut tally = [[0u64; 4]; 2];
        let mut longest = 0u16;
        for i in 0..index.len() {
            let code = t.code(i).map_err(|e| e.to_string())?;
            let Some(outcome) = value::outcome(code) else {
                continue;
            };
            if !fixed.is_empty() {
                let Some((pl, _)) = index.decode(i) else {
                    continue;
                };
                let black: Vec<(Piece, Square)> = pl
                    .iter()
                    .copied()
                    .filter(|(p, _)| p.color() == Color::Black)
                    .collect();
                let mirrored: Vec<(Piece, Square)> =
                    black.iter().map(|&(p, s)| (p, s.mirror_file())).collect();
                let same = |set: &[(Piece, Square)]| {
                    set.len() == fixed.len() && fixed.iter().all(|f| set.contains(f))
                };
                if !same(&black) && !same(&mirrored) {
                    continue;
                }
            }
            let side = usize::from(i >= index.per_side());
            let slot = match outcome.wdl() {
                1 => 0,
                0 => 1,
                _ => 2,
            };
            tally[side][slot] += 1;
            tally[side][3] += 1;
            if let Some(p) = value::plies(code) {
                longest = longest.max(p);
            }
        }
        let pct = |n: u64, d: u64| {
            if d == 0 {
                0.0
            } else {
                100.0 * n as f64 / d as f64
            }
        };
        let name = match row.formation {
            None => row.what.to_string(),
            Some((f, _)) => format!("{}, {f}", row.what),
        };
        println!(
            "| {name} | {} | {} | {:.1} % | {:.1} % | {longest} |",
            row.material,
            tally[0][3] + tally[1][3],
            pct(tally[0][0], tally[0][3]),
            pct(tally[1][2], tally[1][3]),
        );
    }
    Ok(())
}
