//! The strength limit in a search: the level's limits at `go`, its candidate lines as the
//! iterations come, and the move drawn among them at `bestmove` (the policy is `crate::skill`);
//! and the seed of UCCI `randomness`, which shares `Skill Seed`.

use super::Coordinator;
use crate::board::zobrist::mix;
use crate::protocol::{self, Dialect};
use crate::search::{Iteration, Limits, RootLine, RootNoise, SearchResult};
use crate::skill::Skill;
use std::io::Write;

/// Keeps the noise's seed apart from the level's ticket when both come from `Skill Seed`.
const NOISE_SALT: u64 = 0x5241_4E44_4F4D_4E53;

/// A limited search's choice in the making.
pub(super) struct SkillPlay {
    skill: Skill,
    /// The ticket this move is drawn with.
    draw: u64,
    /// Lines in a complete iteration (fewer than the candidates when the root has fewer moves).
    wanted: usize,
    /// The last complete iteration: its lines, depth and selective depth.
    candidates: Vec<RootLine>,
    depth: u32,
    seldepth: u32,
}

impl SkillPlay {
    /// An iteration completed: a complete one replaces the candidates.
    pub(super) fn note(&mut self, it: &Iteration) {
        if it.lines.len() >= self.wanted {
            self.candidates.clone_from(&it.lines);
            self.depth = it.depth;
            self.seldepth = it.seldepth;
        }
    }

    /// Replaces the search's answer by the line drawn among the candidates; returns that line
    /// when it is not the answer's. Without a complete iteration the answer stands.
    fn apply(&self, result: &mut SearchResult) -> Option<RootLine> {
        let line = self
            .candidates
            .get(self.skill.choose(&self.candidates, self.draw))?;
        let first = line.pv.first().copied();
        if first.is_none() || first == result.best_move {
            return None;
        }
        result.best_move = first;
        result.ponder = line.pv.get(1).copied();
        result.score = line.score;
        result.pv.clone_from(&line.pv);
        Some(line.clone())
    }
}

impl<W: Write> Coordinator<W> {
    /// The next number of the clock-seeded generator (xorshift64), for the book's and the
    /// levels' draws.
    pub(super) fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// At `go`: the limit in force, if any, tightens `limits` for a root with `root_moves`
    /// moves to choose from, and its draw is made.
    pub(super) fn start_skill(
        &mut self,
        limits: &mut Limits,
        root_moves: usize,
    ) -> Option<SkillPlay> {
        let skill = self.options.strength.skill()?;
        skill.limit(limits);
        let draw = match self.options.strength.seed {
            0 => self.next_random(),
            seed => mix(seed ^ self.position.key()),
        };
        Some(SkillPlay {
            skill,
            draw,
            wanted: limits.multipv.min(root_moves).max(1),
            candidates: Vec::new(),
            depth: 0,
            seldepth: 0,
        })
    }

    /// At `go`: the root noise of UCCI `randomness` (none by default). Its seed is drawn from
    /// the clock-seeded generator, or, with a `Skill Seed`, made from the seed and the
    /// position, so that a seeded engine plays the same move in the same position.
    pub(super) fn root_noise(&mut self) -> RootNoise {
        let mask = self.options.randomness.noise_cp();
        if mask == 0 {
            return RootNoise::NONE;
        }
        let seed = match self.options.strength.seed {
            0 => self.next_random(),
            seed => mix(seed ^ self.position.key() ^ NOISE_SALT),
        };
        RootNoise { mask, seed }
    }

    /// At `bestmove`: the drawn line becomes the answer; when it is not the search's best, an
    /// `info` line shows it (UCCI and UCI), so that the GUI's last line is the move played.
    pub(super) fn finish_skill(&mut self, play: &SkillPlay, result: &mut SearchResult, ms: u64) {
        let Some(line) = play.apply(result) else {
            return;
        };
        let dialect = self.dialect.unwrap_or(Dialect::Ucci);
        if dialect == Dialect::Cecp {
            return;
        }
        let info = protocol::InfoLine {
            depth: play.depth,
            seldepth: play.seldepth,
            score: line.score,
            time_ms: ms,
            nodes: self.pool.nodes().max(result.nodes),
            hashfull: self.tt.hashfull(),
            pv: line.pv,
            multipv: None,
            wdl: (dialect == Dialect::Uci && self.options.show_wdl)
                .then(|| crate::search::wdl::wdl(line.score)),
            tbhits: self.tablebases_in_use().map(|t| t.hits()),
        };
        let text = protocol::format_info(dialect, &info, self.rank_base());
        self.line(&text);
    }
}
