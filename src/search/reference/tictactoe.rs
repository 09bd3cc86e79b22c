//! Tic-tac-toe, the game small enough to solve: a test bed for the reference searches.

use super::game::Game;

/// The eight lines of three.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A tic-tac-toe position: cells 0..9 row by row, X moves first.
#[derive(Clone, Debug, Default)]
pub struct TicTacToe {
    /// 0 empty, 1 X, 2 O.
    cells: [u8; 9],
    /// The cells played, in order.
    history: Vec<usize>,
}

impl TicTacToe {
    /// The empty board, X to move.
    pub fn new() -> TicTacToe {
        TicTacToe::default()
    }

    /// The mark of the side to move (1 = X, 2 = O).
    fn to_move(&self) -> u8 {
        1 + (self.history.len() % 2) as u8
    }
}

impl Game for TicTacToe {
    type Move = usize;

    /// Empty cells in index order.
    fn moves(&mut self) -> Vec<usize> {
        (0..9).filter(|&c| self.cells[c] == 0).collect()
    }

    fn make(&mut self, m: usize) {
        self.cells[m] = self.to_move();
        self.history.push(m);
    }

    fn unmake(&mut self) {
        if let Some(m) = self.history.pop() {
            self.cells[m] = 0;
        }
    }

    /// -1 when the last move made a line (the side to move has lost), 0 on a full board.
    fn terminal(&mut self, _ply: usize) -> Option<i32> {
        let last = *self.history.last()?;
        let mark = self.cells[last];
        let line = LINES
            .iter()
            .any(|l| l.contains(&last) && l.iter().all(|&c| self.cells[c] == mark));
        if line {
            Some(-1)
        } else if self.history.len() == 9 {
            Some(0)
        } else {
            None
        }
    }

    fn evaluate(&mut self) -> i32 {
        0
    }

    /// The cells in base 3 (the side to move follows from the count of marks).
    fn key(&self) -> u64 {
        self.cells.iter().fold(0, |k, &c| k * 3 + u64::from(c))
    }
}
