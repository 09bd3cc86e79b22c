//! One engine in one game: started, configured, asked for moves, shut down.

use super::protocol::{self, BestMove, Info, Protocol};
use super::spec::{EngineSpec, ProtoChoice};
use crate::common::process::{EngineError, EngineProcess};
use pao::board::RankBase;
use std::time::{Duration, Instant};

/// An engine ready to play.
pub struct Player {
    process: EngineProcess,
    /// Its protocol.
    pub proto: Protocol,
    /// How it numbers ranks in moves.
    pub rank_base: RankBase,
    millisec: bool,
}

fn spawn(spec: &EngineSpec) -> Result<EngineProcess, String> {
    EngineProcess::spawn(&spec.name, &spec.cmd, &spec.args, spec.dir.as_deref())
        .map_err(|e| e.to_string())
}

/// Finds the protocol of an engine: the one asked for, or UCCI then UCI for `auto`.
pub fn detect(spec: &EngineSpec, timeout: Duration) -> Result<Protocol, String> {
    let tries: &[Protocol] = match spec.proto {
        ProtoChoice::Ucci => &[Protocol::Ucci],
        ProtoChoice::Uci => &[Protocol::Uci],
        ProtoChoice::Auto => &[Protocol::Ucci, Protocol::Uci],
    };
    for &proto in tries {
        // A fresh process for each try: an engine may exit or be confused by the wrong hello.
        let mut p = spawn(spec)?;
        let ok = protocol::handshake(&mut p, proto, timeout).is_ok();
        p.shutdown();
        if ok {
            return Ok(proto);
        }
    }
    Err(format!(
        "engine '{}' answered neither {} within {} ms",
        spec.name,
        tries
            .iter()
            .map(|p| p.hello())
            .collect::<Vec<_>>()
            .join(" nor "),
        timeout.as_millis()
    ))
}

impl Player {
    /// Starts the engine, runs the handshake, sets its options and waits until it is ready.
    pub fn start(spec: &EngineSpec, proto: Protocol, timeout: Duration) -> Result<Player, String> {
        let mut process = spawn(spec)?;
        let fail = |what: &str, e: EngineError| format!("{} {what}: {e}", spec.name);
        let hs =
            protocol::handshake(&mut process, proto, timeout).map_err(|e| fail("handshake", e))?;
        let mut lines = Vec::new();
        if proto == Protocol::Ucci && hs.millisec {
            lines.push(proto.setoption("usemillisec", "true"));
        }
        if proto == Protocol::Uci && hs.variant {
            lines.push(proto.setoption("UCI_Variant", "xiangqi"));
        }
        for (name, value) in &spec.options {
            lines.push(proto.setoption(name, value));
        }
        for l in &lines {
            process.send(l).map_err(|e| fail("setoption", e))?;
        }
        protocol::sync(&mut process, timeout).map_err(|e| fail("isready", e))?;
        let default_base = if proto == Protocol::Uci && hs.variant {
            RankBase::One
        } else {
            RankBase::Zero
        };
        Ok(Player {
            process,
            proto,
            rank_base: spec.rank_base.unwrap_or(default_base),
            millisec: hs.millisec,
        })
    }

    /// Whether UCCI times are sent in milliseconds.
    pub fn millisec(&self) -> bool {
        self.proto == Protocol::Uci || self.millisec
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.process.send(self.proto.newgame())?;
        protocol::sync(&mut self.process, timeout)
    }

    /// Sends the position and the `go` line, then collects `info` until `bestmove`.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        deadline: Instant,
    ) -> Result<(BestMove, Info), EngineError> {
        self.process.send(position)?;
        self.process.send(go)?;
        let mut info = Info::default();
        loop {
            let line = self.process.recv_until(deadline)?;
            protocol::parse_info(&line, &mut info);
            if let Some(best) = protocol::parse_bestmove(&line) {
                return Ok((best, info));
            }
        }
    }

    /// Ends the engine politely (then by force).
    pub fn quit(mut self) {
        self.process.shutdown();
    }
}
