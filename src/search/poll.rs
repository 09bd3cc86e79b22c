//! The search's look outside: limit polls, node counts published in batches, the core yielded.

use super::worker::{Searcher, POLL_INTERVAL};
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

impl Searcher {
    /// Publishes this searcher's node count to `counter` (in batches) while it searches.
    pub fn set_node_counter(&mut self, counter: Arc<CachePadded<AtomicU64>>) {
        self.shared_nodes = Some(counter);
    }

    /// With `on`, the searcher yields its core at every limit poll (every few thousand nodes).
    /// The pool sets it when it has more workers than the machine has cores: the scheduler
    /// then runs the woken input thread within a fraction of a millisecond instead of at the
    /// next tick.
    pub fn set_yield_at_poll(&mut self, on: bool) {
        self.yield_at_poll = on;
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

    /// Adds the nodes searched since the last publication to the shared counter.
    pub(super) fn publish_nodes(&mut self) {
        if let Some(counter) = &self.shared_nodes {
            counter.fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
        }
    }

    /// Publishes the node count now (the end of a search).
    pub(crate) fn publish(&mut self) {
        self.publish_nodes();
    }
}
