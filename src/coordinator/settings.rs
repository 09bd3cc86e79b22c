//! Options and their effects: the book, the hash table, the pool, the search configuration.

use super::Coordinator;
use crate::book::BookSet;
use crate::eval::nnue::Network;
use crate::options::{Effect, Level, Options};
use crate::protocol::Dialect;
use crate::search::SearchConfig;
use crate::smp::WorkerPool;
use crate::tt::{LargePages, TranspositionTable};
use std::io::Write;
use std::sync::Arc;

impl<W: Write> Coordinator<W> {
    pub(super) fn set_option(&mut self, name: &str, value: &str) {
        // UCCI GUIs send options blindly; UCI and CECP GUIs only send the ones offered.
        let strict = self.dialect != Some(Dialect::Ucci);
        let before = self.options.clone();
        let nodes_time = before.nodes_time;
        self.apply_option(name, value, strict, before);
        if self.options.nodes_time != nodes_time {
            // The nodes left on the clock were counted at the old rate.
            self.available_nodes = None;
        }
    }

    fn apply_option(&mut self, name: &str, value: &str, strict: bool, before: Options) {
        match self.options.set(name, value, strict) {
            Err(e) => self.error(&e),
            Ok(Effect::None) => {}
            Ok(Effect::Book) => match BookSet::open(&self.options.book_files) {
                Ok(books) => self.books = books,
                Err(e) => {
                    self.books = BookSet::default();
                    self.error(&e);
                }
            },
            Ok(Effect::NewGame) => self.new_game(),
            Ok(Effect::Resize) => match TranspositionTable::with_large_pages(
                self.options.hash_mib,
                self.options.large_pages,
            ) {
                Ok(tt) => {
                    if let LargePages::Unavailable(why) = tt.large_pages() {
                        self.line(&format!("info string large pages not available: {why}"));
                    }
                    self.tt = Arc::new(tt);
                    self.respawn();
                }
                Err(e) => {
                    let mib = self.options.hash_mib;
                    self.options = before;
                    self.error(&format!(
                        "cannot allocate {mib} MiB of hash ({e}); keeping {} MiB",
                        self.options.hash_mib
                    ));
                }
            },
            Ok(Effect::Respawn) => self.respawn(),
            Ok(Effect::Tablebases) => self.open_tablebases(),
            Ok(Effect::DebugLog) => {
                if self.options.debug_log_file.is_empty() {
                    self.debug_log = None;
                } else {
                    match super::debug_log::DebugLog::open(&self.options.debug_log_file) {
                        Ok(log) => self.debug_log = Some(log),
                        Err(e) => {
                            self.options = before;
                            self.error(&e);
                        }
                    }
                }
            }
            Ok(Effect::Network) => {
                if let Err(e) = self.load_network() {
                    self.options = before;
                    self.error(&e);
                }
            }
        }
    }

    /// Loads `eval_file` (empty: the embedded net) and checks that `use_nnue` has a net.
    fn load_network(&mut self) -> Result<(), String> {
        let loaded = if self.options.eval_file.is_empty() {
            crate::eval::nnue::embedded()
        } else {
            Some(Arc::new(
                Network::load(&self.options.eval_file).map_err(|e| e.to_string())?,
            ))
        };
        if self.options.use_nnue && loaded.is_none() {
            return Err("no network: this build embeds none; set EvalFile first".into());
        }
        self.network = loaded;
        Ok(())
    }

    /// The network the next search evaluates with.
    pub(super) fn network_in_use(&self) -> Option<Arc<Network>> {
        self.network.clone().filter(|_| self.options.use_nnue)
    }

    pub(super) fn respawn(&mut self) {
        // Drop the old pool first so its threads are gone before new ones start.
        let (tx, rx) = crossbeam_channel::unbounded();
        let old = std::mem::replace(
            &mut self.pool,
            WorkerPool::new(0, false, Arc::clone(&self.tt), tx.clone()),
        );
        drop(old);
        self.events = rx;
        self.events_tx = tx.clone();
        self.pool = WorkerPool::new(
            self.options.threads,
            self.options.pin_threads,
            Arc::clone(&self.tt),
            tx,
        );
    }

    /// Forgets the table and the heuristics. The workers clear the table in parallel slices
    /// while this thread stays free; `isready` is answered and later commands run when the
    /// clear is done.
    pub(super) fn new_game(&mut self) {
        self.available_nodes = None;
        self.clock_lag.reset();
        self.pool.clear_heuristics();
        self.next_id += 1;
        self.clearing = Some(self.next_id);
        self.pool.start_clear(self.next_id);
    }

    /// The workers finished clearing.
    pub(super) fn on_cleared(&mut self, id: u64) {
        if self.clearing != Some(id) {
            return;
        }
        self.clearing = None;
        if std::mem::take(&mut self.ready_pending) {
            self.line("readyok");
        }
        self.drain_queue();
    }

    pub(super) fn search_config(&self) -> SearchConfig {
        // The option was checked when set, so the list applies.
        let mut config = SearchConfig::FULL
            .with_switches(&self.options.search_switches)
            .unwrap_or(SearchConfig::FULL);
        if self.options.pruning == Level::None {
            config = config.without_forward_pruning();
        }
        config.knowledge = self.options.knowledge != Level::None;
        config.driver = self.options.driver;
        config.repetition = self.options.repetition_rule;
        config
    }
}
