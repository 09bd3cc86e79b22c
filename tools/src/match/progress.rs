//! The live progress line (indicatif). Hidden when stderr is not a terminal; game lines still go
//! to stdout.

use super::stats::Trinomial;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress of a match.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar for `total` games of which `done` are already finished.
    pub fn new(total: u64, done: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template("{pos}/{len} games [{bar:30}] {msg} ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_position(done);
        bar.reset_eta();
        Progress { bar }
    }

    /// Updates the count and the first engine's score line.
    pub fn update(&self, done: u64, first: &Trinomial) {
        let elo = match first.elo() {
            Some(e) if e.elo.is_finite() => format!("elo {:+.0}", e.elo),
            _ => String::new(),
        };
        self.bar.set_message(format!(
            "W-L-D {}-{}-{} {elo}",
            first.wins, first.losses, first.draws
        ));
        self.bar.set_position(done);
    }

    /// Prints a line to stdout without tearing the bar.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| println!("{line}"));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
