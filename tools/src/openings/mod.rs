//! Opening material made with Pao's search and games: balanced openings for matches
//! (`openings`, in `balanced.rs`, written by `formats.rs`) and Pao's opening book (`book`).

pub mod balanced;
pub mod book;
pub mod formats;
