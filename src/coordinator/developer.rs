//! The commands engines of the field (Stockfish, Pikafish, Fairy-Stockfish) offer to people
//! who test them by hand: `go perft N`, `flip`, `bench`, `compiler` and `export_net [FILE]`.
//! Each runs on the thread that read it and answers before the next command is read.

use super::Coordinator;
use crate::bench;
use crate::board::format_move;
use crate::board::perft::divide;
use crate::protocol::Dialect;
use std::io::Write;

/// The file `export_net` writes the embedded net to when given no name.
pub const DEFAULT_NET_FILE: &str = "default.nnue";

impl<W: Write> Coordinator<W> {
    /// A line for the person at the keyboard: `info string TEXT` (UCCI, UCI), `# TEXT` (CECP,
    /// whose GUIs take `#` lines as comments).
    fn note(&mut self, text: &str) {
        if self.dialect == Some(Dialect::Cecp) {
            self.line(&format!("# {text}"));
        } else {
            self.line(&format!("info string {text}"));
        }
    }

    /// False (after an error line) when there is no valid position to work on.
    fn has_position(&mut self, what: &str) -> bool {
        let valid = if self.dialect == Some(Dialect::Cecp) {
            self.cecp_board_valid()
        } else {
            self.position_valid
        };
        if !valid {
            self.error(&format!(
                "{what}: no valid position (the last position was rejected)"
            ));
        }
        valid
    }

    /// `go perft N`: one line `MOVE: LEAVES` per legal move (Stockfish's divide), a blank
    /// line, `Nodes searched: TOTAL`, and a blank line.
    pub(super) fn perft(&mut self, depth: u32) {
        if !self.has_position("perft") {
            return;
        }
        let mut pos = self.position.clone();
        let rows = divide(&mut pos, depth);
        let base = self.rank_base();
        for (m, n) in &rows {
            self.line(&format!("{}: {n}", format_move(*m, base)));
        }
        let total: u64 = rows.iter().map(|(_, n)| n).sum();
        self.line("");
        self.line(&format!("Nodes searched: {total}"));
        self.line("");
    }

    /// `flip`: the colours swapped (ranks mirrored, red for black, the other side to move).
    /// The position starts a new history, as after a `position fen` of the flipped FEN.
    pub(super) fn flip(&mut self) {
        if !self.has_position("flip") {
            return;
        }
        match self.position.flipped() {
            Ok(pos) => {
                self.position = pos;
                self.banned.clear();
            }
            Err(e) => self.error(&format!("flip: {e}")),
        }
    }

    /// `bench`: `pao bench`'s positions and depth on one thread with 16 MiB, evaluated and
    /// searched as the options say; on the defaults its last line carries the search's
    /// signature, as `pao bench` does.
    pub(super) fn bench(&mut self) {
        let options = bench::BenchOptions {
            pin: self.options.pin_threads,
            large_pages: self.options.large_pages,
            config: self.search_config(),
            network: self.network_in_use(),
            ..bench::BenchOptions::default()
        };
        let fens = bench::parse_fens(bench::BENCH_FENS);
        let mut index = 0;
        let result = bench::run(&fens, &options, &mut |l| {
            index += 1;
            self.line(&bench::format_line(index, l));
        });
        match result {
            Ok((nodes, ms)) => self.line(&bench::format_total(nodes, ms)),
            Err(e) => self.error(&format!("bench: {e}")),
        }
    }

    /// `compiler`: how this binary was built, and which evaluation kernels this CPU runs.
    pub(super) fn compiler(&mut self) {
        for line in build_lines() {
            self.line(&line);
        }
    }

    /// `export_net [FILE]`: writes the net loaded, the embedded one byte for byte when no
    /// `EvalFile` is set (to `default.nnue` when no file is named; a net from a file needs a
    /// name, as in Stockfish).
    pub(super) fn export_net(&mut self, file: Option<&str>) {
        let embedded = self.options.eval_file.is_empty();
        let bytes = match (&self.network, embedded) {
            (None, _) => None,
            (Some(_), true) => crate::eval::nnue::embedded_bytes().map(<[u8]>::to_vec),
            (Some(net), false) => Some(net.to_bytes()),
        };
        let Some(bytes) = bytes else {
            self.error("export_net: no net is loaded");
            return;
        };
        let path = match file {
            Some(f) => f.to_string(),
            None if embedded => DEFAULT_NET_FILE.to_string(),
            None => {
                let from = self.options.eval_file.clone();
                self.error(&format!(
                    "export_net: name a file (the net in use was loaded from {from})"
                ));
                return;
            }
        };
        match std::fs::write(&path, &bytes) {
            Ok(()) => self.note(&format!("net written to {path} ({} bytes)", bytes.len())),
            Err(e) => self.error(&format!("export_net: cannot write {path}: {e}")),
        }
    }
}

/// The lines of `compiler`.
pub fn build_lines() -> Vec<String> {
    let features = env!("PAO_BUILD_TARGET_FEATURES").replace(',', " ");
    let assertions = if cfg!(debug_assertions) { "on" } else { "off" };
    let kernels = match crate::eval::nnue::simd::best_path() {
        crate::eval::nnue::simd::Path::Avx2 => "AVX2 (this CPU has it)",
        crate::eval::nnue::simd::Path::Portable if cfg!(target_arch = "x86_64") => {
            "portable (this CPU has no AVX2)"
        }
        crate::eval::nnue::simd::Path::Portable => "portable (AVX2 exists on x86-64 only)",
    };
    vec![
        format!("Compiled by           : {}", env!("PAO_BUILD_RUSTC")),
        format!("Target                : {}", env!("PAO_BUILD_TARGET")),
        format!(
            "Profile               : {}, opt-level {}, debug assertions {assertions}",
            env!("PAO_BUILD_PROFILE"),
            env!("PAO_BUILD_OPT_LEVEL")
        ),
        format!("Target features       : {features}"),
        format!("Evaluation kernels    : {kernels}"),
    ]
}
