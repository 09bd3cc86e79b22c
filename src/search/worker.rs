//! One thread's search: iterative deepening with aspiration windows (or MTD(f)) over `pvs`.

use super::config::{Driver, SearchConfig};
use super::heuristics::Heuristics;
use super::limits::Limits;
use super::score::{is_decisive, INFINITE, MAX_PLY};
use crate::board::{Move, Piece, Position};
use crate::eval;
use crate::eval::nnue::{AccumulatorStack, Network};
use crate::eval::PsqStack;
use crate::tt::TranspositionTable;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How often (in nodes) the search looks at the clock, the node budget and the stop flag.
const POLL_INTERVAL: u64 = 2048;

/// Most pieces (generals included) of a position the endgame scales or bitbases can know.
const FEW_PIECES: u32 = if eval::endgame::MAX_PIECES > eval::bitbase::MAX_PIECES {
    eval::endgame::MAX_PIECES
} else {
    eval::bitbase::MAX_PIECES
};

/// Iterations in a row with the same decided score after which `stop_when_decided` ends the
/// search.
const DECIDED_ITERATIONS: u32 = 4;

/// Per-ply scratch data.
#[derive(Copy, Clone)]
pub(crate) struct StackEntry {
    pub(crate) mv: Move,
    pub(crate) piece: Option<Piece>,
    pub(crate) static_eval: i32,
    /// The move a singular-extension search at this ply leaves out (`Move::NONE`: none).
    pub(crate) excluded: Move,
    /// Double extensions on the line from the root to this node (they are bounded per line).
    pub(crate) doubles: u8,
}

/// One root line of an iteration (MultiPV): its score and principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine {
    /// Score from the root side to move's view.
    pub score: i32,
    /// Principal variation (first move = the line's root move).
    pub pv: Vec<Move>,
}

/// The root move the main thread is searching, for `info currmove` (written at the root only).
#[derive(Debug, Default)]
pub struct RootProgress {
    /// Raw move in the low 16 bits, its 1-based number among the root moves above them.
    current: std::sync::atomic::AtomicU32,
    /// Iteration depth.
    depth: std::sync::atomic::AtomicU32,
}

impl RootProgress {
    /// The move being searched, its number (from 1) and the depth; `None` before the first.
    pub fn current(&self) -> Option<(Move, u32, u32)> {
        let v = self.current.load(Ordering::Relaxed);
        let mv = Move::from_raw(v as u16).filter(|m| !m.is_none())?;
        Some((mv, v >> 16, self.depth.load(Ordering::Relaxed)))
    }

    /// Forgets the move (a new search starts).
    pub fn reset(&self) {
        self.current.store(0, Ordering::Relaxed);
    }
}

/// What one completed iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Score from the root side to move's view.
    pub score: i32,
    /// Principal variation (first move = best move).
    pub pv: Vec<Move>,
    /// Nodes searched so far by this searcher.
    pub nodes: u64,
    /// The root lines best first (MultiPV); the first is `score` and `pv`. Fewer than asked
    /// when the search stopped inside the iteration.
    pub lines: Vec<RootLine>,
    /// B* only: the root moves with their (pessimistic, optimistic) values.
    pub bounds: Vec<(Move, i32, i32)>,
    /// B* only: whether the first PV move is proven best.
    pub proven: Option<bool>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// Best move (`None` when the root has no legal move).
    pub best_move: Option<Move>,
    /// Expected reply, when the PV has one.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Principal variation of that iteration.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
}

/// A search thread's state: its own position copy and heuristics; the TT is shared.
pub struct Searcher {
    pub(crate) pos: Position,
    pub(crate) tt: Arc<TranspositionTable>,
    pub(crate) heur: Heuristics,
    pub(crate) eval_cache: eval::KnowledgeCache,
    /// The network's accumulators, when the network evaluates.
    nnue: Option<AccumulatorStack>,
    /// The hand-written evaluation's material and piece-square sums, kept when no network
    /// evaluates.
    psq: PsqStack,
    /// Endgame tables probed at nodes whose material they cover.
    pub(crate) tablebases: Option<Arc<crate::egtb::Tablebases>>,
    pub(crate) config: SearchConfig,
    pub(crate) nodes: u64,
    pub(crate) seldepth: usize,
    pub(crate) stopped: bool,
    pub(crate) root_best: Move,
    /// The root's last searched move's own value, and `root_best`'s: without noise they are
    /// the root's scores, with it (UCCI `randomness`) the scores without the noise.
    pub(crate) root_raw: i32,
    pub(crate) root_best_raw: i32,
    pub(crate) root_moves: Vec<Move>,
    /// A later MultiPV line searches the root: its restricted result is not the root's value,
    /// so it is not stored in the table.
    pub(crate) skip_root_store: bool,
    root_progress: Option<Arc<RootProgress>>,
    pub(crate) pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub(crate) pv_len: [usize; MAX_PLY + 2],
    pub(crate) stack: [StackEntry; MAX_PLY + 4],
    /// Set when the current iteration's value rests on its depth horizon somewhere (a leaf,
    /// a pruned move, a table cutoff). An iteration that never set it solved the tree
    /// outright (every line ended in mate, stalemate or a ruled repetition).
    pub(crate) horizon: bool,
    pub(crate) limits: Limits,
    /// The node count at which a running mate proof gives up (`u64::MAX`: none running).
    pub(crate) proof_limit: u64,
    /// Set when the mate proof reached its node limit.
    pub(crate) proof_aborted: bool,
    next_poll: u64,
    /// Give up the CPU at every poll (more workers than cores: let the protocol threads in).
    yield_at_poll: bool,
    shared_nodes: Option<Arc<CachePadded<AtomicU64>>>,
    published: u64,
}

impl Searcher {
    /// A searcher using `tt`, with fresh heuristics.
    pub fn new(tt: Arc<TranspositionTable>, config: SearchConfig) -> Searcher {
        Searcher {
            pos: Position::startpos(),
            tt,
            heur: Heuristics::new(),
            eval_cache: eval::KnowledgeCache::new(),
            nnue: None,
            psq: PsqStack::new(MAX_PLY + 4),
            tablebases: None,
            config,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_best: Move::NONE,
            root_raw: 0,
            root_best_raw: 0,
            root_moves: Vec::new(),
            skip_root_store: false,
            root_progress: None,
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 2],
            stack: [StackEntry {
                mv: Move::NONE,
                piece: None,
                static_eval: 0,
                excluded: Move::NONE,
                doubles: 0,
            }; MAX_PLY + 4],
            horizon: false,
            limits: Limits::depth(1),
            proof_limit: u64::MAX,
            proof_aborted: false,
            next_poll: POLL_INTERVAL,
            yield_at_poll: false,
            shared_nodes: None,
            published: 0,
        }
    }

    /// Changes the enhancement switches.
    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
    }

    /// The enhancement switches in use.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Evaluates with `net` (`None`: the hand-written evaluation).
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        let same = match (&self.nnue, &net) {
            (Some(stack), Some(net)) => Arc::ptr_eq(stack.network(), net),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.nnue = net.map(|n| AccumulatorStack::new(n, MAX_PLY + 4));
        }
    }

    /// True when the network evaluates.
    pub fn uses_network(&self) -> bool {
        self.nnue.is_some()
    }

    /// Makes `m` in the search position, recording it for the accumulators.
    #[inline]
    pub(crate) fn make_move(&mut self, m: Move) {
        match &mut self.nnue {
            Some(stack) => stack.push_move(&self.pos, m),
            None => self.psq.push_move(&self.pos, m),
        }
        self.pos.make_move(m);
    }

    /// Unmakes the last move of the search position.
    #[inline]
    pub(crate) fn unmake_move(&mut self) {
        match &mut self.nnue {
            Some(stack) => stack.pop(),
            None => self.psq.pop(),
        }
        self.pos.unmake_move();
    }

    /// Passes the move (null-move pruning).
    #[inline]
    pub(crate) fn make_null(&mut self) {
        match &mut self.nnue {
            Some(stack) => stack.push_null(),
            None => self.psq.push_null(),
        }
        self.pos.make_null();
    }

    /// Takes back a null move.
    #[inline]
    pub(crate) fn unmake_null(&mut self) {
        match &mut self.nnue {
            Some(stack) => stack.pop(),
            None => self.psq.pop(),
        }
        self.pos.unmake_null();
    }

    /// Sets the search position to `root` (and refreshes the accumulators).
    pub(crate) fn set_root(&mut self, root: &Position) {
        self.pos = root.clone();
        match &mut self.nnue {
            Some(stack) => stack.refresh(&self.pos),
            None => self.psq.refresh(&self.pos),
        }
    }

    /// Publishes this searcher's node count to `counter` (in batches) while it searches.
    pub fn set_node_counter(&mut self, counter: Arc<CachePadded<AtomicU64>>) {
        self.shared_nodes = Some(counter);
    }

    /// Publishes the root move being searched to `progress` (the main thread, for `currmove`).
    pub fn set_root_progress(&mut self, progress: Arc<RootProgress>) {
        self.root_progress = Some(progress);
    }

    /// Called at the root for each move tried.
    #[inline]
    pub(crate) fn note_root_move(&self, m: Move, number: usize, depth: i32) {
        if let Some(p) = &self.root_progress {
            p.depth.store(depth as u32, Ordering::Relaxed);
            p.current.store(
                u32::from(m.raw()) | (number.min(0xffff) as u32) << 16,
                Ordering::Relaxed,
            );
        }
    }

    /// With `on`, the searcher yields its core at every limit poll (every few thousand nodes).
    /// The pool sets it when it has more workers than the machine has cores: the scheduler
    /// then runs the woken input thread within a fraction of a millisecond instead of at the
    /// next tick.
    pub fn set_yield_at_poll(&mut self, on: bool) {
        self.yield_at_poll = on;
    }

    /// Forgets the ordering heuristics (new game).
    pub fn clear_heuristics(&mut self) {
        self.heur.clear();
    }

    /// Nodes searched by the last (or current) search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Static evaluation with this searcher's knowledge switch.
    #[inline]
    pub(crate) fn evaluate(&mut self) -> i32 {
        self.evaluate_lazy(-i32::MAX, i32::MAX)
    }

    /// Static evaluation, lazy outside (alpha, beta), through this thread's knowledge cache.
    #[inline]
    pub(crate) fn evaluate_lazy(&mut self, alpha: i32, beta: i32) -> i32 {
        if self.config.sixty_move_fade {
            // A lazy bound would not survive the scaling: evaluate in full, then fade.
            let v = self.evaluate_unfaded(-i32::MAX, i32::MAX);
            return super::repetition::sixty_move_fade(v, self.pos.plies_since_capture());
        }
        self.evaluate_unfaded(alpha, beta)
    }

    #[inline]
    fn evaluate_unfaded(&mut self, alpha: i32, beta: i32) -> i32 {
        if self.config.endgame_scale || self.config.endgame_bitbase {
            // A lazy bound would not survive the adjustment: few pieces are evaluated in full.
            let occupied = self.pos.pieces_of(crate::board::Color::Red)
                | self.pos.pieces_of(crate::board::Color::Black);
            if occupied.count_ones() <= FEW_PIECES {
                return self.evaluate_few_pieces();
            }
        }
        self.evaluate_unscaled(alpha, beta)
    }

    /// The evaluation of a position of few pieces: the bitbase's verdict where it holds the
    /// material (exact, so it comes first), else the endgame scales.
    #[inline(never)]
    fn evaluate_few_pieces(&mut self) -> i32 {
        let v = self.evaluate_unscaled(-i32::MAX, i32::MAX);
        if self.config.endgame_bitbase {
            if let Some(wdl) = eval::bitbase::probe(&self.pos) {
                return eval::bitbase::adjust(wdl, v);
            }
        }
        if self.config.endgame_scale {
            return eval::endgame::scale(&self.pos, v);
        }
        v
    }

    #[inline]
    fn evaluate_unscaled(&mut self, alpha: i32, beta: i32) -> i32 {
        if let Some(stack) = &mut self.nnue {
            return eval::scale_network(&self.pos, stack.evaluate(&self.pos));
        }
        eval::evaluate_cached(
            &self.pos,
            self.psq.current(),
            self.config.knowledge,
            alpha,
            beta,
            &mut self.eval_cache,
        )
    }

    /// Leaf value when quiescence is off: the static evaluation, or the mate/stalemate score.
    pub(crate) fn leaf_eval(&mut self, ply: usize) -> i32 {
        self.nodes += 1;
        if self.pos.has_no_legal_move() {
            return super::score::mated_in(ply);
        }
        self.evaluate()
    }

    /// Checks the limits every `POLL_INTERVAL` nodes; sets and returns `stopped`.
    #[inline]
    pub(crate) fn poll_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes < self.next_poll {
            return false;
        }
        // Oversubscribed: poll (and yield) four times as often.
        let interval = if self.yield_at_poll {
            POLL_INTERVAL / 4
        } else {
            POLL_INTERVAL
        };
        // Never poll past the node budget: `go nodes N` and datagen stop at exactly N.
        self.next_poll = (self.nodes + interval).min(self.limits.nodes.max(1));
        self.publish_nodes();
        if self.yield_at_poll {
            std::thread::yield_now();
        }
        if self.limits.stopped()
            || self.nodes >= self.limits.nodes
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Probes `tables` in the search (`None`: no tables).
    pub fn set_tablebases(&mut self, tables: Option<Arc<crate::egtb::Tablebases>>) {
        self.tablebases = tables.filter(|t| !t.is_empty());
    }

    fn publish_nodes(&mut self) {
        if let Some(counter) = &self.shared_nodes {
            counter.fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
        }
    }

    /// Searches `root` under `limits`, calling `report` after each completed iteration.
    /// `allowed` restricts the root moves (banmoves); empty means all legal moves.
    pub fn search(
        &mut self,
        root: &Position,
        limits: &Limits,
        allowed: &[Move],
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.search_from(root, limits, allowed, 1, &mut |_| true, report)
    }

    /// Iterative deepening from `first_depth`; `skip(depth)` returning false skips an iteration
    /// (Lazy SMP helpers use it to spread over depths).
    pub fn search_from(
        &mut self,
        root: &Position,
        limits: &Limits,
        allowed: &[Move],
        first_depth: u32,
        skip: &mut dyn FnMut(u32) -> bool,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        if self.config.driver == Driver::BStar {
            let mut legal = root.clone().legal_moves();
            if !allowed.is_empty() {
                legal.retain(|m| allowed.contains(&m));
            }
            if !legal.is_empty() {
                return self.bstar_search(root, legal.as_slice(), limits, report).0;
            }
        }
        self.start(root, limits, allowed);
        let mut legal = self.pos.legal_moves();
        if !allowed.is_empty() {
            legal.retain(|m| allowed.contains(&m));
        }
        let mut result = SearchResult {
            best_move: legal.as_slice().first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            pv: legal.as_slice().first().copied().into_iter().collect(),
            nodes: 0,
        };
        if legal.is_empty() {
            result.score = super::score::mated_in(0);
            return result;
        }
        let mut decided_iterations = 0;
        let max_depth = limits.depth.clamp(1, (MAX_PLY - 8) as u32);
        let wanted = limits.multipv.clamp(1, legal.len());
        let base_moves = std::mem::take(&mut self.root_moves);
        // Each line's score at the previous iteration: the centre of its aspiration window.
        let mut previous = vec![0; wanted];
        for depth in first_depth.max(1)..=max_depth {
            if depth > first_depth && !skip(depth) {
                continue;
            }
            self.seldepth = 0;
            self.horizon = false;
            let mut lines: Vec<RootLine> = Vec::with_capacity(wanted);
            let mut ranks: Vec<i32> = Vec::with_capacity(wanted);
            for (line, &centre) in previous.iter().enumerate() {
                // Line i searches the root without the moves of lines 1..i-1.
                self.root_moves = if line == 0 {
                    base_moves.clone()
                } else {
                    legal
                        .iter()
                        .copied()
                        .filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m)))
                        .collect()
                };
                self.skip_root_store = line > 0;
                self.root_best = Move::NONE;
                let s = match self.config.driver {
                    Driver::Mtdf => self.mtdf(depth as i32, centre),
                    // SSS* as MTD(+inf): every null window from the top down.
                    Driver::SssStar => self.mtdf(depth as i32, INFINITE),
                    Driver::Pvs | Driver::BStar => self.aspiration(depth as i32, centre),
                };
                if self.stopped {
                    break;
                }
                let pv: Vec<Move> = if self.pv_len[0] > 0 {
                    self.pv[0][..self.pv_len[0]].to_vec()
                } else if !self.root_best.is_none() {
                    vec![self.root_best]
                } else if line == 0 {
                    result.pv.clone()
                } else {
                    // Nothing beat the window: the line's first allowed move stands for it.
                    self.root_moves.first().copied().into_iter().collect()
                };
                // With noise (UCCI `randomness`) `s` ranks the line; its move's own value
                // is the score shown.
                let score = if self.limits.noise.mask > 0
                    && !self.root_best.is_none()
                    && pv.first() == Some(&self.root_best)
                {
                    self.root_best_raw
                } else {
                    s
                };
                ranks.push(s);
                lines.push(RootLine { score, pv });
            }
            self.root_moves = base_moves.clone();
            self.skip_root_store = false;
            if lines.is_empty() {
                break;
            }
            // Search instability can rank a later line above an earlier one: best first.
            let mut ranked: Vec<(i32, RootLine)> = ranks.drain(..).zip(lines).collect();
            ranked.sort_by_key(|(rank, _)| std::cmp::Reverse(*rank));
            for (p, (rank, _)) in previous.iter_mut().zip(&ranked) {
                *p = *rank;
            }
            let lines: Vec<RootLine> = ranked.into_iter().map(|(_, l)| l).collect();
            let score = lines[0].score;
            decided_iterations = match (
                is_decisive(score),
                result.depth > 0 && score == result.score,
            ) {
                (true, true) => decided_iterations + 1,
                (true, false) => 1,
                (false, _) => 0,
            };
            let pv = lines[0].pv.clone();
            result.best_move = pv.first().copied();
            result.ponder = pv.get(1).copied();
            result.score = score;
            result.depth = depth;
            result.pv = pv.clone();
            result.nodes = self.nodes;
            self.publish_nodes();
            let iteration = Iteration {
                depth,
                seldepth: self.seldepth.max(depth as usize) as u32,
                score,
                pv,
                nodes: self.nodes,
                lines,
                bounds: Vec::new(),
                proven: None,
            };
            report(&iteration);
            if self.stopped
                || self.nodes >= limits.soft_nodes
                || limits.soft_deadline.is_some_and(|d| Instant::now() >= d)
            {
                break;
            }
            // `go mate N`: a mate in N moves is N * 2 - 1 plies.
            if let (Some(n), Some(plies)) = (limits.mate, super::score::mate_plies(score)) {
                if plies > 0 && plies < 2 * n as i32 {
                    break;
                }
            }
            if limits.stop_when_decided
                && (decided_iterations >= DECIDED_ITERATIONS || !self.horizon)
                && self.decided_stop(iteration, &mut result, report)
            {
                break;
            }
        }
        self.root_moves = base_moves;
        self.publish_nodes();
        result.nodes = self.nodes;
        result
    }

    /// Resets the per-search state for a search of `root` under `limits`.
    pub(crate) fn start(&mut self, root: &Position, limits: &Limits, allowed: &[Move]) {
        self.set_root(root);
        self.limits = limits.clone();
        self.nodes = 0;
        self.published = 0;
        self.next_poll = POLL_INTERVAL.min(limits.nodes.max(1));
        self.stopped = false;
        self.seldepth = 0;
        self.root_moves = allowed.to_vec();
        self.heur.age();
    }

    /// Publishes the node count now (the end of a search).
    pub(crate) fn publish(&mut self) {
        self.publish_nodes();
    }

    /// The quiescence value of `root` (UCCI `go depth 0`).
    pub fn quiescence(&mut self, root: &Position) -> i32 {
        self.set_root(root);
        self.limits = Limits::depth(1);
        self.nodes = 0;
        self.next_poll = POLL_INTERVAL;
        self.stopped = false;
        self.qsearch(-INFINITE, INFINITE, 0)
    }

    /// One iteration with an aspiration window around `previous` (full window when off or shallow).
    fn aspiration(&mut self, depth: i32, previous: i32) -> i32 {
        if !self.config.aspiration || depth < 5 {
            return self.pvs(depth, -INFINITE, INFINITE, 0, true, true);
        }
        let mut delta = super::params::aspiration_delta();
        let mut alpha = (previous - delta).max(-INFINITE);
        let mut beta = (previous + delta).min(INFINITE);
        loop {
            let score = self.pvs(depth, alpha, beta, 0, true, true);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta += delta / 2 + 10;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// MTD(f): null-window searches around a guess until the bounds meet.
    fn mtdf(&mut self, depth: i32, guess: i32) -> i32 {
        let mut g = guess;
        let mut lower = -INFINITE;
        let mut upper = INFINITE;
        let mut best_pv: Vec<Move> = Vec::new();
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = self.pvs(depth, beta - 1, beta, 0, false, true);
            if self.stopped {
                return g;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
                best_pv = self.pv[0][..self.pv_len[0]].to_vec();
            }
        }
        // Keep the PV of the last fail-high: the fail-low searches leave none at the root.
        for (i, &m) in best_pv.iter().enumerate() {
            self.pv[0][i] = m;
        }
        self.pv_len[0] = best_pv.len();
        g
    }
}
