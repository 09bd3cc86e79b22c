//! One thread's search state: its position and evaluation stacks, heuristics, PV and ply stack.

use super::config::SearchConfig;
use super::heuristics::Heuristics;
use super::limits::Limits;
use super::report::RootProgress;
use super::score::MAX_PLY;
use crate::board::{Move, Piece, Position};
use crate::eval;
use crate::eval::nnue::{AccumulatorStack, Network};
use crate::eval::PsqStack;
use crate::tt::TranspositionTable;
use crossbeam_utils::CachePadded;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

/// How often (in nodes) the search looks at the clock, the node budget and the stop flag.
pub(super) const POLL_INTERVAL: u64 = 2048;

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

/// A search thread's state: its own position copy and heuristics; the TT is shared.
pub struct Searcher {
    pub(crate) pos: Position,
    pub(crate) tt: Arc<TranspositionTable>,
    pub(crate) heur: Heuristics,
    pub(crate) eval_cache: eval::KnowledgeCache,
    /// The network's accumulators, when the network evaluates.
    pub(super) nnue: Option<AccumulatorStack>,
    /// The hand-written evaluation's material and piece-square sums, kept when no network
    /// evaluates.
    pub(super) psq: PsqStack,
    /// Endgame tables probed at nodes whose material they cover.
    pub(crate) tablebases: Option<Arc<crate::egtb::Tablebases>>,
    pub(crate) config: SearchConfig,
    pub(crate) nodes: u64,
    pub(crate) seldepth: usize,
    pub(crate) stopped: bool,
    pub(crate) root_best: Move,
    /// With noise (UCCI `randomness`), the own value of the root's last move searched with a
    /// non-zero amount; written by noisy root searches only.
    pub(crate) root_raw: i32,
    /// `root_best`'s own value: its score without the noise (without noise, its score).
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
    pub(super) next_poll: u64,
    /// Give up the CPU at every poll (more workers than cores: let the protocol threads in).
    pub(super) yield_at_poll: bool,
    pub(super) shared_nodes: Option<Arc<CachePadded<AtomicU64>>>,
    pub(super) published: u64,
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

    /// Publishes the root move being searched to `progress` (the main thread, for `currmove`).
    pub fn set_root_progress(&mut self, progress: Arc<RootProgress>) {
        self.root_progress = Some(progress);
    }

    /// Called at the root for each move tried.
    #[inline]
    pub(crate) fn note_root_move(&self, m: Move, number: usize, depth: i32) {
        if let Some(p) = &self.root_progress {
            p.set(m, number, depth);
        }
    }

    /// Forgets the ordering heuristics (new game).
    pub fn clear_heuristics(&mut self) {
        self.heur.clear();
    }

    /// Nodes searched by the last (or current) search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Probes `tables` in the search (`None`: no tables).
    pub fn set_tablebases(&mut self, tables: Option<Arc<crate::egtb::Tablebases>>) {
        self.tablebases = tables.filter(|t| !t.is_empty());
    }
}
