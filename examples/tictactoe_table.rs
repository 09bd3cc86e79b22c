//! Prints the tic-tac-toe table of docs/results.md (Search algorithms compared): the nodes and
//! leaves of each reference search solving the game from the empty board, natural move order.
//! `cargo run --release --example tictactoe_table`; `tests/docs_figures.rs` holds the page's
//! table against `table()`.

use pao::search::reference::{
    alphabeta, alphabeta_tt, minimax, negamax, sss_star, Counter, Table, TicTacToe,
};
use pao::search::score::INFINITE;

fn main() {
    print!("{}", table());
}

/// The table as markdown: a header, then one row per search.
pub fn table() -> String {
    let mut rows: Vec<(&str, i32, Counter)> = Vec::new();
    let mut c = Counter::default();
    rows.push(("minimax", minimax(&mut TicTacToe::new(), 9, 0, &mut c), c));
    let mut c = Counter::default();
    rows.push(("negamax", negamax(&mut TicTacToe::new(), 9, 0, &mut c), c));
    let mut c = Counter::default();
    let v = alphabeta(&mut TicTacToe::new(), 9, -INFINITE, INFINITE, 0, &mut c);
    rows.push(("alpha-beta", v, c));
    let mut c = Counter::default();
    rows.push(("SSS*", sss_star(&mut TicTacToe::new(), 9, &mut c), c));
    let mut c = Counter::default();
    let mut table = Table::default();
    let v = alphabeta_tt(
        &mut TicTacToe::new(),
        9,
        -INFINITE,
        INFINITE,
        0,
        &mut table,
        &mut c,
    );
    rows.push(("alpha-beta with TT", v, c));
    let mut out = String::from("| search | value | nodes | leaves |\n|---|---:|---:|---:|\n");
    for (name, value, c) in rows {
        out.push_str(&format!(
            "| {name} | {value} | {} | {} |\n",
            c.nodes, c.leaves
        ));
    }
    out
}
