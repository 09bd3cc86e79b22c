//! The network's input features, seen from one side (a perspective).
//!
//! The plain set: a piece of colour `c` and kind `k` on square `s` is feature
//! `((c == p ? 0 : 1) * 7 + k) * 90 + s'` from perspective `p`, where `s' = s` for red and `s`
//! with its rank flipped (rank `9 - r`, same file) for black. One weight matrix then serves
//! both sides: each side sees its own pieces as "ours", marching up the board from rank 0.
//!
//! The king-bucket set adds where the perspective's own general stands. The general lives on
//! the nine squares of its palace; seen from its own side, a general on file f is mirrored
//! left-right to file d (the rules are symmetric under that mirror), which leaves six buckets
//! (three ranks x files d and e). A feature is `bucket * 1260 + plain feature` of the
//! (mirrored) board: every piece's weights depend on where the defending general stands, as in
//! Pikafish's general-relative inputs, at six times the plain set's weights.

use crate::board::{Color, Piece, PieceKind, Square, FILES, RANKS, SQUARES};

/// Number of plain input features per perspective: 2 colours x 7 kinds x 90 squares.
pub const INPUTS: usize = 2 * PieceKind::ALL.len() * SQUARES;

/// Buckets of the king-bucket set: the own general's rank (3) x file d or e (2).
pub const KING_BUCKETS: usize = 6;

/// Which inputs a net reads (the net file records it).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FeatureSet {
    /// Piece x square (1,260 inputs).
    Plain,
    /// Piece x square x the own general's bucket, mirrored so the general is on file d or e
    /// (7,560 inputs).
    KingBuckets,
}

/// Where a perspective's own general puts its features: the bucket's first feature and
/// whether files are mirrored. The plain set has one frame.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct Frame {
    offset: u32,
    mirror: bool,
}

impl FeatureSet {
    /// Every set, in the order of their file ids.
    pub const ALL: [FeatureSet; 2] = [FeatureSet::Plain, FeatureSet::KingBuckets];

    /// The id a net file stores.
    pub fn id(self) -> u8 {
        match self {
            FeatureSet::Plain => 0,
            FeatureSet::KingBuckets => 1,
        }
    }

    /// The set of a file id.
    pub fn from_id(id: u8) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|s| s.id() == id)
    }

    /// The name the trainer's `--features` takes.
    pub fn name(self) -> &'static str {
        match self {
            FeatureSet::Plain => "plain",
            FeatureSet::KingBuckets => "king-buckets",
        }
    }

    /// The set of a name.
    pub fn from_name(name: &str) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Input features per perspective.
    pub fn inputs(self) -> usize {
        match self {
            FeatureSet::Plain => INPUTS,
            FeatureSet::KingBuckets => KING_BUCKETS * INPUTS,
        }
    }

    /// The frame of `perspective` when its own general stands on `general`.
    #[inline(always)]
    pub fn frame(self, perspective: Color, general: Square) -> Frame {
        match self {
            FeatureSet::Plain => Frame::default(),
            FeatureSet::KingBuckets => {
                let o = oriented(perspective, general);
                let (rank, file) = ((o / FILES).min(2), o % FILES);
                let mirror = file > FILES / 2;
                let file = if mirror { FILES - 1 - file } else { file };
                // Composed positions may put a general anywhere: clamp to the palace's files.
                let column = file.clamp(3, 4) - 3;
                Frame {
                    offset: ((rank * 2 + column) * INPUTS) as u32,
                    mirror,
                }
            }
        }
    }

    /// The feature of `piece` on `sq` from `perspective`'s side in `frame`.
    #[inline(always)]
    pub fn index(frame: Frame, perspective: Color, piece: Piece, sq: Square) -> usize {
        let sq = if frame.mirror { sq.mirror_file() } else { sq };
        frame.offset as usize + index(perspective, piece, sq)
    }

    /// The plain feature a feature of this set shares its weights with when the trainer
    /// factorises (the same piece and square in every bucket).
    #[inline]
    pub fn factor(feature: usize) -> usize {
        feature % INPUTS
    }
}

/// Black's view of each square: the rank flipped, the file kept.
const FLIPPED: [u8; SQUARES] = {
    let mut t = [0u8; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        t[i] = ((RANKS - 1 - i / FILES) * FILES + i % FILES) as u8;
        i += 1;
    }
    t
};

/// The square as `perspective` sees it: ranks flipped for black.
#[inline(always)]
pub fn oriented(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::Red => sq.index(),
        Color::Black => FLIPPED[sq.index()] as usize,
    }
}

/// The plain feature of `piece` on `sq` from `perspective`'s side.
#[inline(always)]
pub fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relative = (piece.color() != perspective) as usize;
    (relative * PieceKind::ALL.len() + piece.kind().index()) * SQUARES + oriented(perspective, sq)
}

/// The feature of the left-right mirror image (file `f` -> `8 - f`) of plain `feature`: the
/// rules are symmetric under that mirror, so it is a free augmentation for training.
#[inline]
pub fn mirrored(feature: usize) -> usize {
    let sq = feature % SQUARES;
    let (rank, file) = (sq / FILES, sq % FILES);
    feature - sq + rank * FILES + (FILES - 1 - file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(file: usize, rank: usize) -> Square {
        Square::new(file, rank).expect("on the board")
    }

    #[test]
    fn red_and_black_see_each_other_symmetrically() {
        let red_rook = Piece::new(Color::Red, PieceKind::Rook);
        let black_rook = Piece::new(Color::Black, PieceKind::Rook);
        let (a0, a9) = (sq(0, 0), sq(0, 9));
        // Red's own rook on a0 is feature "ours, rook, square 0" from red's side, and black's
        // own rook on a9 is the same feature from black's side.
        assert_eq!(index(Color::Red, red_rook, a0), 4 * 90);
        assert_eq!(index(Color::Black, black_rook, a9), 4 * 90);
        assert_eq!(index(Color::Black, red_rook, a0), (7 + 4) * 90 + 81);
        assert_eq!(index(Color::Red, black_rook, a9), (7 + 4) * 90 + 81);
        assert!(Square::all().all(|s| {
            let f = index(Color::Black, black_rook, s);
            f < INPUTS && mirrored(mirrored(f)) == f
        }));
        assert_eq!(mirrored(4 * 90), 4 * 90 + 8);
    }

    #[test]
    fn king_buckets_follow_the_own_general_and_mirror_file_f() {
        let set = FeatureSet::KingBuckets;
        let red_rook = Piece::new(Color::Red, PieceKind::Rook);
        // Red's general on e0: bucket 1 (rank 0, file e), no mirror.
        let e0 = set.frame(Color::Red, sq(4, 0));
        assert_eq!(
            FeatureSet::index(e0, Color::Red, red_rook, sq(0, 0)),
            INPUTS + 4 * 90
        );
        // On f0 the board is mirrored: a rook on i0 is seen as on a0, in bucket 0 (file d).
        let f0 = set.frame(Color::Red, sq(5, 0));
        assert_eq!(f0, set.frame(Color::Red, sq(3, 0)).mirrored_for_test());
        assert_eq!(
            FeatureSet::index(f0, Color::Red, red_rook, sq(8, 0)),
            4 * 90
        );
        // Black's general on e7 is rank 2 of its own palace: bucket 5.
        let black_rook = Piece::new(Color::Black, PieceKind::Rook);
        let e7 = set.frame(Color::Black, sq(4, 7));
        assert_eq!(
            FeatureSet::index(e7, Color::Black, black_rook, sq(0, 9)),
            5 * INPUTS + 4 * 90
        );
        // Every palace square gives a feature in range, and the nine squares give six buckets.
        let mut offsets: Vec<u32> = (3..6)
            .flat_map(|f| (0..3).map(move |r| set.frame(Color::Red, sq(f, r)).offset))
            .collect();
        offsets.sort_unstable();
        offsets.dedup();
        assert_eq!(offsets.len(), KING_BUCKETS);
        assert!(offsets.iter().all(|&o| o as usize + INPUTS <= set.inputs()));
        // The plain set ignores the general.
        assert_eq!(
            FeatureSet::Plain.frame(Color::Red, sq(5, 2)),
            Frame::default()
        );
        assert_eq!(FeatureSet::factor(3 * INPUTS + 17), 17);
        for s in FeatureSet::ALL {
            assert_eq!(FeatureSet::from_id(s.id()), Some(s));
            assert_eq!(FeatureSet::from_name(s.name()), Some(s));
        }
    }

    impl Frame {
        fn mirrored_for_test(self) -> Frame {
            Frame {
                mirror: !self.mirror,
                ..self
            }
        }
    }
}
