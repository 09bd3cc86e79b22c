//! Perft against the reference counts in `tests/data/perft.tsv` (agreed by Pikafish and
//! Fairy-Stockfish). The normal run checks every row up to a node cap; the ignored test checks all.

use pao::board::perft::perft;
use pao::board::Position;

/// Rows with more leaves than this run only in the ignored full test.
const NODE_CAP: u64 = 20_000_000;

struct Row {
    fen: String,
    depth: u32,
    nodes: u64,
}

fn rows() -> Vec<Row> {
    let text = include_str!("data/perft.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "bad row: {l}");
            Row {
                fen: cols[0].to_string(),
                depth: cols[1].parse().expect("depth"),
                nodes: cols[2].parse().expect("nodes"),
            }
        })
        .collect()
}

fn check(max_nodes: u64) -> usize {
    let mut checked = 0;
    let mut failures = Vec::new();
    for row in rows().iter().filter(|r| r.nodes <= max_nodes) {
        let mut pos = Position::from_fen(&row.fen).expect("reference FEN parses");
        let got = perft(&mut pos, row.depth);
        if got != row.nodes {
            failures.push(format!(
                "{} depth {}: expected {}, got {}",
                row.fen, row.depth, row.nodes, got
            ));
        }
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    checked
}

#[test]
fn perft_reference_rows_up_to_cap() {
    let checked = check(NODE_CAP);
    let total = rows().len();
    assert!(
        checked * 10 >= total * 9,
        "only {checked} of {total} rows under the cap"
    );
}

#[test]
#[ignore = "all rows, including the largest; run with --ignored"]
fn perft_reference_all_rows() {
    assert_eq!(check(u64::MAX), rows().len());
}
