//! The event stream: every event gets the next sequence number and updates the state a late
//! watcher receives first; all watchers read the same broadcast. The hub never waits on a
//! watcher: a slow one falls behind in the broadcast ring and is dropped (see `ws.rs`), so the
//! engine's thread, which publishes the engine's lines, is never held up.

use super::engine_lines::{self, EngineLine};
use super::events::{
    BestMove, CurrMove, Event, HistoryPoint, Info, OptionsView, PositionView, Progress, ServerView,
    Started, State,
};
use axum::extract::ws::Utf8Bytes;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;
use tokio::sync::{broadcast, mpsc};

/// Points kept for the chart.
const HISTORY: usize = 1000;

/// What a search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SearchKind {
    /// Analysis until stopped.
    Analysis,
    /// The engine's move in a game.
    Game,
}

impl SearchKind {
    /// The name in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            SearchKind::Analysis => "analysis",
            SearchKind::Game => "game",
        }
    }
}

/// A search ended: what the control needs to go on (a game's next move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The search.
    pub search: u64,
    /// What it was for.
    pub kind: SearchKind,
    /// Its move.
    pub mv: Option<String>,
}

struct Inner {
    seq: u64,
    state: State,
    /// Searches asked of the engine and not yet answered, oldest first: the engine answers
    /// every `go` with one `bestmove`, in order.
    pending: VecDeque<(Started, SearchKind)>,
    next_search: u64,
    /// The `info time T nodes N` that precedes `bestmove`.
    last_final: Option<(u64, u64)>,
    /// When the last `game` event went out: the running clock has run since.
    game_at: Instant,
}

/// The event stream and its state.
pub struct Hub {
    inner: Mutex<Inner>,
    tx: broadcast::Sender<Utf8Bytes>,
    finished: mpsc::UnboundedSender<Finished>,
    watchers: AtomicUsize,
    dropped: AtomicU64,
}

impl Hub {
    /// A hub whose watchers may fall `queue` events behind before they are dropped; ended
    /// searches are reported on `finished`.
    pub fn new(
        position: PositionView,
        options: OptionsView,
        queue: usize,
        finished: mpsc::UnboundedSender<Finished>,
    ) -> Hub {
        let (tx, _) = broadcast::channel(queue.max(1));
        Hub {
            inner: Mutex::new(Inner {
                seq: 0,
                state: State {
                    position,
                    options,
                    search: None,
                    searching: false,
                    lines: Vec::new(),
                    progress: None,
                    history: Vec::new(),
                    bestmove: None,
                    game: None,
                    server: ServerView {
                        watchers: 0,
                        dropped: 0,
                    },
                },
                pending: VecDeque::new(),
                next_search: 0,
                last_final: None,
                game_at: Instant::now(),
            }),
            tx,
            finished,
            watchers: AtomicUsize::new(0),
            dropped: AtomicU64::new(0),
        }
    }

    /// Sends an event to every watcher.
    pub fn publish(&self, ev: Event) {
        let mut inner = self.inner.lock();
        self.publish_locked(&mut inner, ev);
    }

    fn publish_locked(&self, inner: &mut Inner, ev: Event) {
        inner.seq += 1;
        if matches!(ev, Event::Game(_)) {
            inner.game_at = Instant::now();
        }
        apply(&mut inner.state, &ev);
        // No receiver is not an error: nobody is watching.
        let _ = self.tx.send(ev.to_json(inner.seq).into());
    }

    /// The state and a receiver of every event after it: the state's `seq` is the last event
    /// it includes, so the receiver's first event is `seq + 1`.
    pub fn subscribe(&self) -> (String, broadcast::Receiver<Utf8Bytes>) {
        let inner = self.inner.lock();
        let rx = self.tx.subscribe();
        (self.state_json_locked(&inner), rx)
    }

    /// The state as JSON (`GET /api/state`).
    pub fn state_json(&self) -> String {
        let inner = self.inner.lock();
        self.state_json_locked(&inner)
    }

    fn state_json_locked(&self, inner: &Inner) -> String {
        let mut state = inner.state.clone();
        state.server = self.server_view();
        // The clocks as they stand now, not as at the last game event.
        if let Some(game) = state.game.as_mut() {
            let ran = inner.game_at.elapsed().as_millis() as u64;
            match game.running {
                Some("red") => game.red_ms = game.red_ms.saturating_sub(ran),
                Some("black") => game.black_ms = game.black_ms.saturating_sub(ran),
                _ => {}
            }
        }
        state.to_json(inner.seq)
    }

    /// The server's figures.
    pub fn server_view(&self) -> ServerView {
        ServerView {
            watchers: self.watchers.load(Ordering::Relaxed),
            dropped: self.dropped.load(Ordering::Relaxed),
        }
    }

    /// The current search's last lines, if it searched the position `fen`.
    pub fn lines_for(&self, fen: &str) -> Vec<Info> {
        let inner = self.inner.lock();
        match &inner.state.search {
            Some(s) if s.fen == fen => inner.state.lines.clone(),
            _ => Vec::new(),
        }
    }

    /// A watcher joined; returns how many there are now.
    pub fn watcher_joined(&self) -> usize {
        self.watchers.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// A watcher left (`dropped`: for falling behind).
    pub fn watcher_left(&self, dropped: bool) {
        self.watchers.fetch_sub(1, Ordering::Relaxed);
        if dropped {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Records a search about to be asked of the engine (call it under the engine's lock,
    /// just before `go`); returns its number. Its `started` event goes out now, or when the
    /// searches before it have answered.
    pub fn expect_search(&self, kind: SearchKind, fen: String) -> u64 {
        let mut inner = self.inner.lock();
        inner.next_search += 1;
        let started = Started {
            search: inner.next_search,
            kind: kind.name(),
            fen,
        };
        inner.pending.push_back((started.clone(), kind));
        if inner.pending.len() == 1 {
            self.publish_locked(&mut inner, Event::Started(started));
        }
        inner.next_search
    }

    /// The number of the search the engine is answering now, if any.
    fn running(inner: &Inner) -> u64 {
        inner.pending.front().map_or(0, |(s, _)| s.search)
    }

    /// One line the engine wrote.
    pub fn engine_line(&self, line: &str) {
        let parsed = engine_lines::parse(line);
        let mut inner = self.inner.lock();
        let search = Self::running(&inner);
        let ev = match parsed {
            EngineLine::Info(fields) => Event::Info(Info { search, fields }),
            EngineLine::Progress {
                time,
                nodes,
                nps,
                hashfull,
            } => Event::Progress(Progress {
                search,
                time,
                nodes,
                nps,
                hashfull,
            }),
            EngineLine::CurrMove { depth, mv, number } => Event::CurrMove(CurrMove {
                search,
                depth,
                r#move: mv,
                number,
            }),
            EngineLine::Final { time, nodes } => {
                inner.last_final = Some((time, nodes));
                return;
            }
            EngineLine::BestMove { mv, ponder } => {
                self.on_bestmove(&mut inner, mv, ponder);
                return;
            }
            EngineLine::Error(e) => Event::Error(e),
            EngineLine::Message(m) => Event::Message(m),
            EngineLine::Ignored => return,
        };
        self.publish_locked(&mut inner, ev);
    }

    fn on_bestmove(&self, inner: &mut Inner, mv: Option<String>, ponder: Option<String>) {
        let Some((started, kind)) = inner.pending.pop_front() else {
            // Every `go` is recorded first; an answer to none is the engine's own doing.
            self.publish_locked(inner, Event::Error("an answer to no search".to_string()));
            return;
        };
        let (time, nodes) = inner.last_final.take().unwrap_or((0, 0));
        let finished = Finished {
            search: started.search,
            kind,
            mv: mv.clone(),
        };
        self.publish_locked(
            inner,
            Event::BestMove(BestMove {
                search: started.search,
                kind: kind.name(),
                r#move: mv,
                ponder,
                time,
                nodes,
                nps: nodes.saturating_mul(1000) / time.max(1),
            }),
        );
        // The receiver is gone only when the server shuts down.
        let _ = self.finished.send(finished);
        if let Some((next, _)) = inner.pending.front().cloned() {
            self.publish_locked(inner, Event::Started(next));
        }
    }
}

/// What an event changes in the state.
fn apply(state: &mut State, ev: &Event) {
    match ev {
        Event::Position(p) => state.position = p.clone(),
        Event::Options(o) => {
            state.options = o.clone();
            state.lines.truncate(o.multipv);
        }
        Event::Started(s) => {
            state.search = Some(s.clone());
            state.searching = true;
            state.lines.clear();
            state.progress = None;
            state.history.clear();
            state.bestmove = None;
        }
        Event::Info(info) => {
            let i = &info.fields;
            let rank = (i.multipv as usize).max(1);
            if rank <= state.options.multipv {
                if state.lines.len() < rank {
                    state.lines.resize(rank, info.clone());
                }
                state.lines[rank - 1] = info.clone();
            }
            if rank == 1 {
                if state.history.len() == HISTORY {
                    state.history.remove(0);
                }
                state.history.push(HistoryPoint {
                    time: i.time,
                    depth: i.depth,
                    score: i.score.clone(),
                });
            }
        }
        Event::Progress(p) => state.progress = Some(p.clone()),
        Event::BestMove(b) => {
            state.bestmove = Some(b.clone());
            state.searching = false;
        }
        Event::Game(g) => state.game = Some(g.clone()),
        Event::CurrMove(_) | Event::Error(_) | Event::Message(_) => {}
    }
}
