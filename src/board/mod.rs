//! The rules of xiangqi and their texts (FEN, move notation, PGN), and nothing about search.

pub mod attackers;
pub mod attacks;
pub mod chase;
mod diagram;
mod evasion;
pub mod fen;
mod key_filter;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod piece;
pub mod position;
pub mod rules;
pub mod square;
pub mod zobrist;

pub use fen::{FenError, START_FEN};
pub use movegen::GenKind;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use notation::{format_move, parse_move, MoveTextError, RankBase};
pub use piece::{Color, Piece, PieceKind};
pub use position::{Position, Undo};
pub use square::{Square, FILES, RANKS, SQUARES};
