//! Optional adjudication by the engines' own scores: resign and draw rules.

use super::client::protocol::Score;
use pao::board::Color;

/// Ends a game when one engine has seen a loss of at least `score` for `count` moves in a row
/// and its opponent agreed (saw the same win) over its own last `count` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Centipawn threshold.
    pub score: i64,
    /// Consecutive moves of each engine.
    pub count: usize,
}

/// Draws a game after `movenumber` full moves when both engines' last `count` scores are
/// within `score` of zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// First full move at which the rule applies.
    pub movenumber: u32,
    /// Centipawn bound.
    pub score: i64,
    /// Consecutive moves of each engine.
    pub count: usize,
}

fn parse_keys(flag: &str, words: &[String], keys: &[&str]) -> Result<Vec<i64>, String> {
    let mut values = vec![None; keys.len()];
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("{flag}: expected key=value, got '{w}'"))?;
        let i = keys
            .iter()
            .position(|x| *x == k)
            .ok_or_else(|| format!("{flag}: unknown key '{k}' (keys: {})", keys.join(", ")))?;
        let v: i64 = v
            .parse()
            .map_err(|_| format!("{flag}: '{v}' is not an integer"))?;
        if v < 0 {
            return Err(format!("{flag}: {k} must not be negative"));
        }
        values[i] = Some(v);
    }
    keys.iter()
        .zip(values)
        .map(|(k, v)| v.ok_or_else(|| format!("{flag}: {k}= is required")))
        .collect()
}

impl ResignRule {
    /// Parses `score=600 count=3`.
    pub fn parse(words: &[String]) -> Result<ResignRule, String> {
        let v = parse_keys("--resign", words, &["score", "count"])?;
        Ok(ResignRule {
            score: v[0],
            count: v[1].max(1) as usize,
        })
    }
}

impl DrawRule {
    /// Parses `movenumber=40 score=10 count=8`.
    pub fn parse(words: &[String]) -> Result<DrawRule, String> {
        let v = parse_keys("--draw", words, &["movenumber", "score", "count"])?;
        Ok(DrawRule {
            movenumber: v[0] as u32,
            score: v[1],
            count: v[2].max(1) as usize,
        })
    }
}

/// Scores each side reported on its moves, in order (None: no score given).
#[derive(Clone, Debug, Default)]
pub struct ScoreHistory {
    by_side: [Vec<Option<Score>>; 2],
}

impl ScoreHistory {
    /// Records the score of a move by `side`.
    pub fn push(&mut self, side: Color, score: Option<Score>) {
        self.by_side[side.index()].push(score);
    }

    /// True when the last `count` scores of `side` all satisfy `test`.
    fn last_all(&self, side: Color, count: usize, test: impl Fn(i64) -> bool) -> bool {
        let v = &self.by_side[side.index()];
        v.len() >= count
            && v[v.len() - count..]
                .iter()
                .all(|s| s.is_some_and(|s| test(s.value())))
    }

    /// The side that should resign under `rule`, if any.
    pub fn resign(&self, rule: &ResignRule) -> Option<Color> {
        Color::BOTH.into_iter().find(|&side| {
            self.last_all(side, rule.count, |v| v <= -rule.score)
                && self.last_all(side.flip(), rule.count, |v| v >= rule.score)
        })
    }

    /// Whether the game should be drawn under `rule` after `full_moves` moves of the game.
    pub fn draw(&self, rule: &DrawRule, full_moves: u32) -> bool {
        full_moves >= rule.movenumber
            && Color::BOTH
                .into_iter()
                .all(|side| self.last_all(side, rule.count, |v| v.abs() <= rule.score))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_rules() {
        assert_eq!(
            ResignRule::parse(&words("score=600 count=3")),
            Ok(ResignRule {
                score: 600,
                count: 3
            })
        );
        assert_eq!(
            DrawRule::parse(&words("count=8 movenumber=40 score=10")),
            Ok(DrawRule {
                movenumber: 40,
                score: 10,
                count: 8
            })
        );
        assert!(ResignRule::parse(&words("score=600")).is_err());
        assert!(ResignRule::parse(&words("score=x count=1")).is_err());
        assert!(DrawRule::parse(&words("movenumber=1 score=1 count=1 foo=2")).is_err());
    }

    #[test]
    fn resign_needs_both_sides_to_agree() {
        let rule = ResignRule {
            score: 600,
            count: 2,
        };
        let mut h = ScoreHistory::default();
        h.push(Color::Red, Some(Score::Cp(700)));
        h.push(Color::Black, Some(Score::Cp(-650)));
        h.push(Color::Red, Some(Score::Cp(800)));
        assert_eq!(h.resign(&rule), None);
        h.push(Color::Black, Some(Score::Mate(-4)));
        assert_eq!(h.resign(&rule), Some(Color::Black));
        h.push(Color::Red, None);
        assert_eq!(h.resign(&rule), None);
    }

    #[test]
    fn draw_after_move_number() {
        let rule = DrawRule {
            movenumber: 3,
            score: 10,
            count: 1,
        };
        let mut h = ScoreHistory::default();
        h.push(Color::Red, Some(Score::Cp(5)));
        h.push(Color::Black, Some(Score::Cp(-10)));
        assert!(!h.draw(&rule, 2));
        assert!(h.draw(&rule, 3));
        h.push(Color::Red, Some(Score::Cp(11)));
        assert!(!h.draw(&rule, 3));
    }
}
