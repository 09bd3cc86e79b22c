//! The games of a tuning run: θ+ and θ− as two engine specs (the same program, the parameters
//! as options), one opening played with both colours, through the match runner's game code.

use crate::common::openings::Opening;
use crate::common::process::EngineProcess;
use crate::r#match::client::player::detect;
use crate::r#match::client::protocol::{handshake, Protocol};
use crate::r#match::client::spec::EngineSpec;
use crate::r#match::game::{play_game, GameConfig};
use crate::r#match::referee::Outcome;
use pao::search::params::Param;
use std::time::Duration;

/// The engine every game starts, and how it plays.
pub struct Arena {
    /// The engine without the parameters' options.
    pub engine: EngineSpec,
    /// Its protocol, found once.
    pub proto: Protocol,
    /// Limits and rules of every game.
    pub game: GameConfig,
}

impl Arena {
    /// Finds the engine's protocol and checks that it offers every parameter as an option (a
    /// normal build does not: it would play every pair with the defaults, and tune nothing).
    pub fn new(engine: EngineSpec, game: GameConfig, params: &[Param]) -> Result<Arena, String> {
        let timeout = Duration::from_millis(game.handshake_timeout_ms);
        let proto = detect(&engine, timeout)?;
        let mut process = EngineProcess::spawn(
            &engine.name,
            &engine.cmd,
            &engine.args,
            engine.dir.as_deref(),
        )
        .map_err(|e| e.to_string())?;
        let offered = handshake(&mut process, proto, timeout);
        process.shutdown();
        let offered = offered.map_err(|e| format!("{} handshake: {e}", engine.name))?;
        let missing: Vec<&str> = params
            .iter()
            .map(|p| p.name)
            .filter(|name| !offered.options.iter().any(|o| o.eq_ignore_ascii_case(name)))
            .collect();
        if let Some(first) = missing.first() {
            return Err(format!(
                "engine '{}' offers no option {first} ({} of {} parameters missing): tune a \
                 build made with `cargo build --release --features tune`",
                engine.cmd,
                missing.len(),
                params.len()
            ));
        }
        Ok(Arena {
            engine,
            proto,
            game,
        })
    }

    /// The engine with `values` as its parameters' options, named `name`.
    fn player(&self, name: &str, params: &[Param], values: &[i32]) -> EngineSpec {
        let mut spec = self.engine.clone();
        spec.name = name.to_string();
        spec.options.extend(
            params
                .iter()
                .zip(values)
                .map(|(p, v)| (p.name.to_string(), v.to_string())),
        );
        spec
    }

    /// Plays `opening` twice, θ+ with Red then with Black; θ+'s wins, losses and draws.
    pub fn pair(
        &self,
        params: &[Param],
        plus: &[i32],
        minus: &[i32],
        opening: &Opening,
    ) -> Result<[u64; 3], String> {
        let plus = self.player("plus", params, plus);
        let minus = self.player("minus", params, minus);
        let mut wdl = [0; 3];
        for plus_is_red in [true, false] {
            let (red, black) = if plus_is_red {
                (&plus, &minus)
            } else {
                (&minus, &plus)
            };
            let record = play_game((red, self.proto), (black, self.proto), opening, &self.game)?;
            let slot = match (record.outcome, plus_is_red) {
                (Outcome::Draw, _) => 2,
                (Outcome::RedWins, true) | (Outcome::BlackWins, false) => 0,
                _ => 1,
            };
            wdl[slot] += 1;
        }
        Ok(wdl)
    }
}
