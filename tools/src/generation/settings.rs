//! The settings of a generation, recorded in its state file the first time they are used
//! (`setting_NAME VALUE` lines) and checked on every later run: a run that asks for other
//! settings is refused with one line, since continuing would mix them (data played at two
//! node counts, a window that changed under a resumed training, a match resumed by other
//! rules). `--retry` starts a new attempt, whose settings are its own.
//!
//! The budget (`--minutes`, `--data-share`, `--data-positions`, the SPRT's games in one run
//! `--sprt-games` and its cap `--sprt-cap`), the threads and the progress lines are not
//! settings: they may change from one run to the next. (State files of earlier versions record
//! `setting_sprt_games`; it is no longer checked.)

use super::state::State;
use super::GenerationArgs;

/// Each setting: its state key's NAME, the flag that sets it, its value in this run.
pub fn of(args: &GenerationArgs, seed: u64) -> Vec<(&'static str, &'static str, String)> {
    let window: Vec<String> = args
        .window
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let optional = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
    vec![
        ("nodes", "--nodes", args.nodes.to_string()),
        ("seed", "--seed", seed.to_string()),
        (
            "window",
            "--window",
            optional((!window.is_empty()).then(|| window.join(" "))),
        ),
        (
            "window_positions",
            "--window-positions",
            args.window_positions.to_string(),
        ),
        (
            "window_files",
            "--window-files",
            args.window_files.to_string(),
        ),
        (
            "hidden",
            "--hidden",
            optional(args.hidden.map(|h| h.to_string())),
        ),
        ("epochs", "--epochs", args.epochs.to_string()),
        ("lr", "--lr", args.lr.to_string()),
        ("warmup", "--warmup", args.warmup.to_string()),
        (
            "weight_decay",
            "--weight-decay",
            args.weight_decay.to_string(),
        ),
        (
            "screen_games",
            "--screen-games",
            args.screen_games.to_string(),
        ),
        (
            "screen_nodes",
            "--screen-nodes",
            args.screen_nodes.to_string(),
        ),
        ("sprt_tc", "--sprt-tc", args.sprt_tc.clone()),
        (
            "sprt_nodes",
            "--sprt-nodes",
            optional(args.sprt_nodes.map(|n| n.to_string())),
        ),
        (
            "sprt",
            "--sprt",
            args.sprt.split_whitespace().collect::<Vec<_>>().join(" "),
        ),
        ("hash", "--hash", args.hash.to_string()),
    ]
}

/// Checks this run's settings against those recorded in `state`, and records those not yet
/// recorded. The first difference is the error.
pub fn check_and_record(state: &mut State, args: &GenerationArgs, seed: u64) -> Result<(), String> {
    let settings = of(args, seed);
    for (name, flag, value) in &settings {
        if let Some(was) = state.get(&format!("setting_{name}")) {
            if was != value {
                return Err(format!(
                    "{}: this generation runs with {flag} {was}, not {value}; run it with \
                     {flag} {was}, or give --retry to start a new attempt with the new settings \
                     (the data is kept)",
                    state.path().display()
                ));
            }
        }
    }
    for (name, _, value) in settings {
        let key = format!("setting_{name}");
        if state.get(&key).is_none() {
            state.set(&key, value)?;
        }
    }
    Ok(())
}

/// The state keys a retry keeps from the attempt before it: the current net, the data stage
/// and the settings that made the data.
pub const KEPT_BY_RETRY: [&str; 6] = [
    "net",
    "data_done",
    "data_seconds",
    "data_positions",
    "setting_nodes",
    "setting_seed",
];
