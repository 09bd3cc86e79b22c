//! Material signatures: which pieces a table covers, their names (`KRKAABB`) and the
//! orientation that maps a position's material onto a stored table.
//!
//! A table is stored for one canonical order of its two sides: the first-named side plays
//! red in the table's own coordinates. A position whose red pieces match the second-named
//! side is probed through the colour flip (ranks reversed, colours and side to move swapped).

use crate::board::{Color, PieceKind, Position};

/// Pieces of one side besides its general.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct SideMaterial {
    /// Rooks, horses, cannons, soldiers, advisors, elephants (the order of the name).
    pub counts: [u8; 6],
}

/// The kinds in the order of a signature's name, strongest attacker first.
pub const NAME_ORDER: [PieceKind; 6] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// Most pieces of each kind of `NAME_ORDER` a table may hold for one side.
const MAX_COUNTS: [u8; 6] = [2, 2, 2, 2, 2, 2];

impl SideMaterial {
    /// How many pieces of `kind` (0 for the general, which every side has once).
    pub fn count(&self, kind: PieceKind) -> u8 {
        NAME_ORDER
            .iter()
            .position(|&k| k == kind)
            .map_or(0, |i| self.counts[i])
    }

    /// Attacking pieces: rooks, horses, cannons and soldiers.
    pub fn attackers(&self) -> u8 {
        self.counts[..4].iter().sum()
    }

    /// Pieces besides the general.
    pub fn pieces(&self) -> u8 {
        self.counts.iter().sum()
    }

    /// The material of `color` in a position; `None` when it has more than a table holds.
    pub fn of(pos: &Position, color: Color) -> Option<SideMaterial> {
        let mut m = SideMaterial::default();
        for (i, &kind) in NAME_ORDER.iter().enumerate() {
            let n = pos.count(color, kind);
            if n > MAX_COUNTS[i] as u32 {
                return None;
            }
            m.counts[i] = n as u8;
        }
        Some(m)
    }

    /// Strength order for naming: more attackers first, then the kinds in name order.
    fn rank_key(&self) -> (u8, [u8; 6]) {
        (self.attackers(), self.counts)
    }

    fn name(&self) -> String {
        let mut s = String::from("K");
        for (i, kind) in NAME_ORDER.iter().enumerate() {
            for _ in 0..self.counts[i] {
                s.push(kind.letter());
            }
        }
        s
    }
}

/// A table's material: side 0 plays red in the table's coordinates.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    /// The first-named side (red in the table) and the second.
    pub sides: [SideMaterial; 2],
}

/// Why a signature's name was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialError(pub String);

impl std::fmt::Display for MaterialError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MaterialError {}

impl Material {
    /// The signature in canonical order (stronger side first); `flipped` tells whether the
    /// given order had to be swapped.
    pub fn canonical(a: SideMaterial, b: SideMaterial) -> (Material, bool) {
        if b.rank_key() > a.rank_key() {
            (Material { sides: [b, a] }, true)
        } else {
            (Material { sides: [a, b] }, false)
        }
    }

    /// The table a position belongs to, and whether it is probed through the colour flip
    /// (its black pieces are the table's first side). `None` when a side has more pieces of a
    /// kind than any table holds.
    pub fn of_position(pos: &Position) -> Option<(Material, bool)> {
        let red = SideMaterial::of(pos, Color::Red)?;
        let black = SideMaterial::of(pos, Color::Black)?;
        Some(Material::canonical(red, black))
    }

    /// Parses a name such as `KRKAABB` or `KNPKAA` (letters `R N C P A B`, `H` and `E` too).
    /// The sides may be given in either order; the result is canonical.
    pub fn parse(name: &str) -> Result<Material, MaterialError> {
        let upper = name.trim().to_ascii_uppercase();
        let err = |why: &str| MaterialError(format!("bad material '{}': {why}", name.trim()));
        let Some(rest) = upper.strip_prefix('K') else {
            return Err(err("it must start with K"));
        };
        let Some(split) = rest.find('K') else {
            return Err(err("it needs a K for each side"));
        };
        let (first, second) = (&rest[..split], &rest[split + 1..]);
        let side = |text: &str| -> Result<SideMaterial, MaterialError> {
            let mut m = SideMaterial::default();
            for c in text.chars() {
                let kind = match c {
                    'R' => PieceKind::Rook,
                    'N' | 'H' => PieceKind::Horse,
                    'C' => PieceKind::Cannon,
                    'P' => PieceKind::Soldier,
                    'A' => PieceKind::Advisor,
                    'B' | 'E' => PieceKind::Elephant,
                    _ => return Err(err(&format!("unknown piece letter '{c}'"))),
                };
                let Some(i) = NAME_ORDER.iter().position(|&k| k == kind) else {
                    return Err(err("unknown piece"));
                };
                m.counts[i] += 1;
                if m.counts[i] > MAX_COUNTS[i] {
                    return Err(err(&format!("more than {} of '{c}'", MAX_COUNTS[i])));
                }
            }
            Ok(m)
        };
        let (a, b) = (side(first)?, side(second)?);
        if a.attackers() + b.attackers() == 0 {
            return Err(err(
                "neither side has a rook, horse, cannon or soldier (a dead draw)",
            ));
        }
        Ok(Material::canonical(a, b).0)
    }

    /// The name, first side first: `KRKAABB`.
    pub fn name(&self) -> String {
        format!("{}{}", self.sides[0].name(), self.sides[1].name())
    }

    /// True when neither side can mate (no attacking piece): a draw by the rules.
    pub fn is_dead_draw(&self) -> bool {
        self.sides[0].attackers() + self.sides[1].attackers() == 0
    }

    /// Every signature reached by one capture (the tables this one's generation reads),
    /// without dead draws.
    pub fn captures(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for s in 0..2 {
            for i in 0..6 {
                if self.sides[s].counts[i] == 0 {
                    continue;
                }
                let mut sides = self.sides;
                sides[s].counts[i] -= 1;
                let (m, _) = Material::canonical(sides[0], sides[1]);
                if !m.is_dead_draw() && !out.contains(&m) {
                    out.push(m);
                }
            }
        }
        out
    }

    /// The signatures `--all` generates: every one with at most one attacking piece a side,
    /// and every one with two attacking pieces against a side with none; each side with any
    /// advisors and elephants (0-2 each). Sorted so that a table comes after those it reads.
    pub fn all_targets() -> Vec<Material> {
        let mut attack_sets: Vec<[u8; 4]> = Vec::new();
        for r in 0..=2u8 {
            for n in 0..=2u8 {
                for c in 0..=2u8 {
                    for p in 0..=2u8 {
                        if r + n + c + p <= 2 {
                            attack_sets.push([r, n, c, p]);
                        }
                    }
                }
            }
        }
        let mut sides = Vec::new();
        for atk in &attack_sets {
            for a in 0..=2u8 {
                for b in 0..=2u8 {
                    sides.push(SideMaterial {
                        counts: [atk[0], atk[1], atk[2], atk[3], a, b],
                    });
                }
            }
        }
        let mut out = Vec::new();
        for x in &sides {
            for y in &sides {
                let fits = match (x.attackers(), y.attackers()) {
                    (0, 0) => false,
                    (ax, ay) if ax <= 1 && ay <= 1 => true,
                    (2, 0) | (0, 2) => true,
                    _ => false,
                };
                if !fits {
                    continue;
                }
                let (m, _) = Material::canonical(*x, *y);
                if !out.contains(&m) {
                    out.push(m);
                }
            }
        }
        out.sort_by_key(|m| (m.sides[0].pieces() + m.sides[1].pieces(), m.name()));
        out
    }
}

impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_to_canonical_order() {
        let m = Material::parse("KAABBKR").expect("valid");
        assert_eq!(m.name(), "KRKAABB");
        assert_eq!(Material::parse("kr k").map(|m| m.name()).ok(), None);
        assert_eq!(Material::parse("KRK").expect("valid").name(), "KRK");
        assert_eq!(Material::parse("KNPKAA").expect("valid").name(), "KNPKAA");
        assert_eq!(Material::parse("KHKE").expect("valid").name(), "KNKB");
        assert!(Material::parse("KAKB").is_err());
        assert!(Material::parse("KRRRK").is_err());
        assert!(Material::parse("KXK").is_err());
    }

    #[test]
    fn captures_drop_one_piece_and_skip_dead_draws() {
        let m = Material::parse("KRKN").expect("valid");
        let names: Vec<String> = m.captures().iter().map(|c| c.name()).collect();
        assert_eq!(names, vec!["KNK".to_string(), "KRK".to_string()]);
        let m = Material::parse("KPKA").expect("valid");
        let names: Vec<String> = m.captures().iter().map(|c| c.name()).collect();
        assert_eq!(names, vec!["KPK".to_string()]);
    }

    #[test]
    fn all_targets_are_closed_under_captures() {
        let all = Material::all_targets();
        for m in &all {
            for c in m.captures() {
                let pos_c = all.iter().position(|x| *x == c);
                let pos_m = all.iter().position(|x| x == m);
                assert!(pos_c < pos_m, "{c} comes before {m}");
            }
        }
        assert!(all.iter().any(|m| m.name() == "KRKAABB"));
        assert!(all.iter().any(|m| m.name() == "KRPKAABB"));
        assert!(!all.iter().any(|m| m.name() == "KRPKP"));
    }
}
