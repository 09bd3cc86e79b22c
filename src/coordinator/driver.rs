//! The events thread, and a coordinator driven by a caller other than stdin (the web front of
//! `pao serve`): the caller hands it input lines under its lock, the events thread turns the
//! pool's events and the clock into output, exactly as for the stdio daemon.

use super::{Coordinator, ReaderEvent};
use crossbeam_channel::{select, Receiver, Sender};
use parking_lot::{Mutex, MutexGuard};
use std::io::Write;
use std::sync::Arc;
use std::thread::JoinHandle;

/// A coordinator with its events thread, fed lines by its owner.
pub struct Driven<W: Write + Send + 'static> {
    coordinator: Arc<Mutex<Coordinator<W>>>,
    nudge: Option<Sender<()>>,
    events_thread: Option<JoinHandle<()>>,
}

/// The coordinator, locked: input lines go in one at a time; the output sink can be reached
/// between them (no other thread writes while the lock is held).
pub struct DrivenGuard<'a, W: Write + Send + 'static> {
    coordinator: MutexGuard<'a, Coordinator<W>>,
    nudge: Option<&'a Sender<()>>,
}

impl<W: Write + Send + 'static> Driven<W> {
    /// A coordinator writing to `out`, with its events thread running.
    pub fn start(out: W) -> Result<Driven<W>, String> {
        let coordinator = Arc::new(Mutex::new(Coordinator::new(out)?));
        let (nudge_tx, nudge_rx) = crossbeam_channel::unbounded::<()>();
        let events_side = Arc::clone(&coordinator);
        let events_thread = std::thread::Builder::new()
            .name("pao-events".to_string())
            .spawn(move || serve_events(&events_side, &nudge_rx))
            .map_err(|e| format!("cannot start the events thread: {e}"))?;
        Ok(Driven {
            coordinator,
            nudge: Some(nudge_tx),
            events_thread: Some(events_thread),
        })
    }

    /// Locks the coordinator.
    pub fn lock(&self) -> DrivenGuard<'_, W> {
        DrivenGuard {
            coordinator: self.coordinator.lock(),
            nudge: self.nudge.as_ref(),
        }
    }

    /// Sends `quit` and waits for the events thread to write the last answer and end.
    pub fn shutdown(&mut self) {
        self.lock().send("quit");
        self.nudge = None;
        if let Some(handle) = self.events_thread.take() {
            let _ = handle.join();
        }
    }
}

impl<W: Write + Send + 'static> Drop for Driven<W> {
    fn drop(&mut self) {
        if self.events_thread.is_some() {
            self.shutdown();
        }
    }
}

impl<W: Write + Send + 'static> DrivenGuard<'_, W> {
    /// Handles one input line, as if read from stdin.
    pub fn send(&mut self, line: &str) {
        self.coordinator
            .on_input(ReaderEvent::Line(line.to_string()));
        if self.coordinator.is_searching() {
            // The search's clock is the events thread's to watch: let it look again.
            if let Some(nudge) = self.nudge {
                let _ = nudge.send(());
            }
        }
    }

    /// True while a search runs.
    pub fn is_searching(&self) -> bool {
        self.coordinator.is_searching()
    }

    /// The output sink.
    pub fn output(&mut self) -> &mut W {
        &mut self.coordinator.out
    }
}

/// The events thread: pool events become protocol lines; the clock is checked between them.
pub(super) fn serve_events<W: Write>(coordinator: &Mutex<Coordinator<W>>, nudge: &Receiver<()>) {
    // Once the input side is gone, only the pool's last answer (and `bye`) remain to write.
    let mut nudge = nudge.clone();
    loop {
        let (events, wake) = {
            let c = coordinator.lock();
            if c.quitting {
                return;
            }
            (c.events.clone(), c.next_wake())
        };
        select! {
            // An error means the pool was replaced (`threads` changed): take the new receiver.
            recv(events) -> ev => if let Ok(ev) = ev {
                coordinator.lock().on_pool_event(ev);
            },
            recv(nudge) -> n => {
                if n.is_err() {
                    nudge = crossbeam_channel::never();
                }
            },
            default(wake) => coordinator.lock().on_tick(),
        }
    }
}
