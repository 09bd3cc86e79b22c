//! The worker pool: Lazy SMP. Threads are created once (and again only when the count
//! changes), pinned to cores, parked on a condvar between searches. Every worker runs iterative
//! deepening on the same root with its own position and heuristics; they share only the
//! transposition table, the stop flag and per-thread node counters on their own cache lines.
//! By default every thread runs the same iterations and the main thread answers; the depth
//! stagger and the vote are options (`DEFAULT_STAGGER`, `DEFAULT_VOTE`).

use crate::board::{Move, Position};
use crate::eval::nnue::Network;
use crate::search::{Iteration, Limits, RootProgress, SearchConfig, SearchResult, Searcher};
use crate::tt::TranspositionTable;
use crossbeam_channel::Sender;
use crossbeam_utils::CachePadded;
use parking_lot::{Condvar, Mutex};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// What the pool tells its owner.
#[derive(Debug)]
pub enum PoolEvent {
    /// The main thread completed an iteration of the search `id`.
    Iteration {
        /// The job id given to `start`.
        id: u64,
        /// What the iteration found.
        iteration: Iteration,
    },
    /// Every worker has parked; the voted result of the search `id`.
    Finished {
        /// The job id given to `start`.
        id: u64,
        /// The chosen result.
        result: SearchResult,
    },
    /// Every worker has cleared its slice of the table (`start_clear`).
    Cleared {
        /// The id given to `start_clear`.
        id: u64,
    },
}

/// What the workers do when woken.
#[derive(Clone)]
enum Work {
    Search(Arc<Job>),
    /// Clear the table, one slice per worker.
    Clear(u64),
}

/// One search for the pool.
pub struct Job {
    /// Caller's id, echoed in `PoolEvent::Finished`.
    pub id: u64,
    /// Root position with its game history.
    pub root: Position,
    /// Limits (the stop flag inside is ignored: the pool's own flag is used).
    pub limits: Limits,
    /// Allowed root moves (empty = all).
    pub allowed: Vec<Move>,
    /// Search switches.
    pub config: SearchConfig,
    /// The network to evaluate with (`None`: the hand-written evaluation).
    pub network: Option<Arc<Network>>,
    /// When true, the result is the main thread's (fixed-depth searches are reproducible).
    pub main_thread_result: bool,
    /// Endgame tables to probe (`None`: none).
    pub tablebases: Option<Arc<crate::egtb::Tablebases>>,
    /// The main thread searches alone; the helpers sit this search out (the strength limit:
    /// a level plays the same on any number of threads).
    pub solo: bool,
}

struct State {
    generation: u64,
    work: Option<Work>,
    running: usize,
    results: Vec<Option<SearchResult>>,
    quit: bool,
    clear_heuristics: bool,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    idle: Condvar,
    stop: Arc<AtomicBool>,
    nodes: Vec<Arc<CachePadded<AtomicU64>>>,
    tt: Arc<TranspositionTable>,
    events: Sender<PoolEvent>,
    stagger: AtomicBool,
    /// The iteration the main thread is in (helpers keep ahead of it).
    main_depth: AtomicU32,
    /// The root move the main thread is searching.
    root_progress: Arc<RootProgress>,
}

/// A pool of search threads sharing one transposition table.
pub struct WorkerPool {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
}

// Lazy SMP depth schedule. Helpers keep ahead of the main thread: an iteration at or below
// the one it is in would only repeat what it is storing in the table, while the next one fills
// the table with the entries its next iteration needs (at 2 threads this measured 1.57x time
// to depth against 1.49x for the classic alternating schedule). Helper 1 runs every depth
// ahead; helpers 2.. also skip iteration d when ((d + PHASE[i]) / SIZE[i]) is odd (the classic
// Stockfish schedule), so that a large pool spreads over main+1, main+2, main+3.
/// The pool's defaults, which won in games against the stagger with the vote (docs/strength-log.md:
/// "Threads in games"): every thread runs the same iterations...
pub const DEFAULT_STAGGER: bool = false;
/// ...and a timed search answers with the main thread's result, not the threads' vote.
pub const DEFAULT_VOTE: bool = false;

const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// True when helper `index` (> 0) searches iteration `depth` under the stagger schedule while
/// the main thread is in iteration `main_depth`.
pub fn helper_runs_depth(index: usize, depth: u32, main_depth: u32) -> bool {
    if depth <= main_depth {
        return false;
    }
    if index <= 1 {
        return true;
    }
    let i = (index - 2) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]).is_multiple_of(2)
}

impl WorkerPool {
    /// Starts `threads` workers (at least 1), pinned to cores when `pin` is set.
    pub fn new(
        threads: usize,
        pin: bool,
        tt: Arc<TranspositionTable>,
        events: Sender<PoolEvent>,
    ) -> WorkerPool {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                generation: 0,
                work: None,
                running: 0,
                results: vec![None; threads],
                quit: false,
                clear_heuristics: false,
            }),
            wake: Condvar::new(),
            idle: Condvar::new(),
            stop: Arc::new(AtomicBool::new(false)),
            nodes: (0..threads)
                .map(|_| Arc::new(CachePadded::new(AtomicU64::new(0))))
                .collect(),
            tt,
            events,
            stagger: AtomicBool::new(DEFAULT_STAGGER),
            main_depth: AtomicU32::new(0),
            root_progress: Arc::new(RootProgress::default()),
        });
        let cores = if pin {
            core_affinity::get_core_ids().unwrap_or_default()
        } else {
            Vec::new()
        };
        let handles = (0..threads)
            .map(|index| {
                let shared = Arc::clone(&shared);
                let core = if cores.is_empty() {
                    None
                } else {
                    Some(cores[index % cores.len()])
                };
                std::thread::Builder::new()
                    .name(format!("pao-worker-{index}"))
                    .stack_size(8 << 20)
                    .spawn(move || worker_loop(index, core, shared))
            })
            .filter_map(Result::ok)
            .collect();
        WorkerPool { shared, handles }
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.handles.len()
    }

    /// The shared stop flag (raise it to stop the current search).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.shared.stop)
    }

    /// Turns the Lazy SMP depth stagger on or off.
    pub fn set_stagger(&self, on: bool) {
        self.shared.stagger.store(on, Ordering::Relaxed);
    }

    /// Asks every worker to forget its heuristics before the next search (new game).
    pub fn clear_heuristics(&self) {
        self.shared.state.lock().clear_heuristics = true;
    }

    /// Nodes searched so far in the current (or last) search, all threads together.
    pub fn nodes(&self) -> u64 {
        self.shared
            .nodes
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }

    /// The root move the main thread is searching: (move, its number from 1, depth).
    pub fn current_move(&self) -> Option<(Move, u32, u32)> {
        self.shared.root_progress.current()
    }

    /// True while a search (or a clear) runs.
    pub fn is_searching(&self) -> bool {
        self.shared.state.lock().running > 0
    }

    /// Starts a search, first waiting for the workers of a stopped one to park.
    pub fn start(&self, job: Job) {
        let mut state = self.shared.state.lock();
        while state.running > 0 {
            self.shared.idle.wait(&mut state);
        }
        self.shared.stop.store(false, Ordering::SeqCst);
        for n in &self.shared.nodes {
            n.store(0, Ordering::Relaxed);
        }
        for r in state.results.iter_mut() {
            *r = None;
        }
        self.shared.root_progress.reset();
        self.dispatch(&mut state, Work::Search(Arc::new(job)));
    }

    /// Clears the transposition table in parallel, one slice per worker, first waiting for the
    /// workers of a stopped search to park. `PoolEvent::Cleared { id }` says when it is done.
    pub fn start_clear(&self, id: u64) {
        let mut state = self.shared.state.lock();
        while state.running > 0 {
            self.shared.idle.wait(&mut state);
        }
        self.dispatch(&mut state, Work::Clear(id));
    }

    fn dispatch(&self, state: &mut State, work: Work) {
        state.work = Some(work);
        state.generation += 1;
        state.running = self.handles.len();
        self.shared.wake.notify_all();
    }

    /// Raises the stop flag.
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// Blocks until every worker is parked.
    pub fn wait_idle(&self) {
        let mut state = self.shared.state.lock();
        while state.running > 0 {
            self.shared.idle.wait(&mut state);
        }
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        self.stop();
        {
            let mut state = self.shared.state.lock();
            state.quit = true;
            self.shared.wake.notify_all();
        }
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

fn worker_loop(index: usize, core: Option<core_affinity::CoreId>, shared: Arc<Shared>) {
    if let Some(core) = core {
        // Pinning can fail (containers, restricted cpusets): searching unpinned is fine.
        let _ = core_affinity::set_for_current(core);
    }
    let mut searcher = Searcher::new(Arc::clone(&shared.tt), SearchConfig::FULL);
    searcher.set_node_counter(Arc::clone(&shared.nodes[index]));
    searcher.set_yield_at_poll(shared.nodes.len() > num_cpus::get());
    if index == 0 {
        searcher.set_root_progress(Arc::clone(&shared.root_progress));
    }
    let mut seen = 0u64;
    loop {
        let job = {
            let mut state = shared.state.lock();
            while state.generation == seen && !state.quit {
                shared.wake.wait(&mut state);
            }
            if state.quit {
                return;
            }
            seen = state.generation;
            if state.clear_heuristics {
                searcher.clear_heuristics();
            }
            state.work.clone()
        };
        let job = match job {
            None => continue,
            Some(Work::Clear(id)) => {
                shared.tt.clear_slice(index, shared.nodes.len());
                let mut state = shared.state.lock();
                state.running -= 1;
                if state.running == 0 {
                    let _ = shared.events.send(PoolEvent::Cleared { id });
                    shared.idle.notify_all();
                }
                continue;
            }
            Some(Work::Search(job)) => job,
        };
        let result = run_job(index, &mut searcher, &job, &shared);
        let mut state = shared.state.lock();
        state.results[index] = Some(result);
        state.running -= 1;
        if state.running == 0 {
            state.clear_heuristics = false;
            let result = choose_result(&state.results, job.main_thread_result);
            let _ = shared
                .events
                .send(PoolEvent::Finished { id: job.id, result });
            shared.idle.notify_all();
        }
    }
}

fn run_job(index: usize, searcher: &mut Searcher, job: &Job, shared: &Shared) -> SearchResult {
    searcher.set_config(job.config);
    searcher.set_network(job.network.clone());
    searcher.set_tablebases(job.tablebases.clone());
    let mut limits = job.limits.clone();
    limits.stop = Arc::clone(&shared.stop);
    let stagger = shared.stagger.load(Ordering::Relaxed);
    if index == 0 {
        let events = &shared.events;
        shared.main_depth.store(1, Ordering::Relaxed);
        let r = searcher.search_from(
            &job.root,
            &limits,
            &job.allowed,
            1,
            &mut |d| {
                shared.main_depth.store(d, Ordering::Relaxed);
                true
            },
            &mut |it| {
                let _ = events.send(PoolEvent::Iteration {
                    id: job.id,
                    iteration: it.clone(),
                });
            },
        );
        // The main thread decides: when it is done, everyone is.
        shared.stop.store(true, Ordering::SeqCst);
        r
    } else if job.solo {
        SearchResult {
            best_move: None,
            ponder: None,
            score: 0,
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
        }
    } else {
        // Helpers never stop on their own: the main thread's completion stops them, so they
        // keep working (and filling the table) while it finishes its last iteration.
        limits.depth = u32::MAX;
        // The main thread proves mates; a helper only fills the table.
        limits.prove_mates = false;
        let first = if stagger { 2 } else { 1 };
        searcher.search_from(
            &job.root,
            &limits,
            &job.allowed,
            first,
            &mut |d| {
                !stagger || helper_runs_depth(index, d, shared.main_depth.load(Ordering::Relaxed))
            },
            &mut |_| {},
        )
    }
}

/// Picks the pool's answer: the main thread's for fixed-depth jobs (and with `SMPVote` off);
/// otherwise a vote weighted by depth and score (as Stockfish does), among threads that
/// completed an iteration.
fn choose_result(results: &[Option<SearchResult>], main_only: bool) -> SearchResult {
    let total_nodes: u64 = results.iter().flatten().map(|r| r.nodes).sum();
    let main = results.first().cloned().flatten();
    let mut chosen = match (main_only, main) {
        (true, Some(m)) => m,
        (_, main) => {
            let done: Vec<&SearchResult> = results
                .iter()
                .flatten()
                .filter(|r| r.depth > 0 && r.best_move.is_some())
                .collect();
            match (done.is_empty(), main) {
                (true, Some(m)) => m,
                (true, None) => SearchResult {
                    best_move: None,
                    ponder: None,
                    score: 0,
                    depth: 0,
                    pv: Vec::new(),
                    nodes: 0,
                },
                (false, _) => vote(&done),
            }
        }
    };
    chosen.nodes = total_nodes;
    chosen
}

fn vote(done: &[&SearchResult]) -> SearchResult {
    let min_score = done.iter().map(|r| r.score).min().unwrap_or(0);
    let weight = |r: &SearchResult| (r.score - min_score + 14) as i64 * r.depth as i64;
    let mut best = done[0];
    let mut best_votes = i64::MIN;
    for r in done {
        let votes: i64 = done
            .iter()
            .filter(|o| o.best_move == r.best_move)
            .map(|o| weight(o))
            .sum();
        // Deeper first, then votes, then score; the main thread wins exact ties (it is first).
        let better = votes > best_votes
            || (votes == best_votes && (r.depth, r.score) > (best.depth, best.score));
        if better {
            best = r;
            best_votes = votes;
        }
    }
    best.clone()
}

#[cfg(test)]
mod tests {
    use super::choose_result;
    use crate::board::{Move, Position};
    use crate::search::SearchResult;

    fn result(m: Move, depth: u32, score: i32, nodes: u64) -> SearchResult {
        SearchResult {
            best_move: Some(m),
            ponder: None,
            score,
            depth,
            pv: vec![m],
            nodes,
        }
    }

    /// The vote weighs each thread by (score - lowest score + 14) x depth and sums them per
    /// move; without it (fixed depth, or `SMPVote false`) the main thread answers. Both report
    /// every thread's nodes.
    #[test]
    fn the_vote_and_the_main_threads_answer() {
        let moves = Position::startpos().legal_moves();
        let (a, b) = (moves.as_slice()[0], moves.as_slice()[1]);
        let results = vec![
            Some(result(a, 10, 20, 100)),
            Some(result(b, 11, 30, 50)),
            Some(result(b, 10, 25, 70)),
        ];
        // a: 14 x 10 = 140; b: 24 x 11 + 19 x 10 = 454, and its deeper thread answers.
        let voted = choose_result(&results, false);
        assert_eq!(
            (voted.best_move, voted.depth, voted.score),
            (Some(b), 11, 30)
        );
        assert_eq!(voted.nodes, 220);
        let main = choose_result(&results, true);
        assert_eq!((main.best_move, main.depth, main.score), (Some(a), 10, 20));
        assert_eq!(main.nodes, 220);
    }
}
