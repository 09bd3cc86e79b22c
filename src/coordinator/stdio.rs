//! The two threads that drive the coordinator: the input thread and the events thread.

use super::driver::serve_events;
use super::{Coordinator, ReaderEvent};
use crate::protocol;
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::Duration;

/// Runs the daemon on stdin/stdout until `quit`, end of input or Ctrl-C.
///
/// The thread that reads a line handles it at once under the coordinator's lock, so `stop`
/// is answered by the thread the input woke: on a machine with more busy workers than cores,
/// handing the line to another sleeping thread would add a scheduler wake-up (a 4-30 ms tick
/// here at 16 threads on 2 cores). A second thread handles the pool's events and the clock.
pub fn run_stdio() -> i32 {
    let coordinator = match Coordinator::new(std::io::stdout()) {
        Ok(c) => Arc::new(Mutex::new(c)),
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    // Ctrl-C ends the daemon like `quit`; if the handler cannot be set, Ctrl-C still kills it.
    let on_signal = Arc::clone(&coordinator);
    let _ = ctrlc::set_handler(move || {
        on_signal.lock().on_input(ReaderEvent::Eof);
        while !on_signal.lock().quitting {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::process::exit(0);
    });
    let (nudge_tx, nudge_rx) = crossbeam_channel::unbounded::<()>();
    let events_side = Arc::clone(&coordinator);
    let events_thread = std::thread::Builder::new()
        .name("pao-events".to_string())
        .spawn(move || serve_events(&events_side, &nudge_rx));
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        let ev = protocol::read_event(&mut input, &mut buf);
        let mut c = coordinator.lock();
        c.on_input(ev);
        if c.is_quitting() {
            break;
        }
        if c.is_searching() {
            // The search's clock is the events thread's to watch: let it look again.
            let _ = nudge_tx.send(());
        }
    }
    drop(nudge_tx);
    if let Ok(handle) = events_thread {
        let _ = handle.join();
    }
    0
}
