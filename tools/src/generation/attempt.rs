//! Attempts of a generation. The first is the generation's directory itself; `--retry` starts
//! `attempt-2`, `attempt-3`, ... beside it: a fresh state for training, the screen and the SPRT
//! (and new settings for them), while the self-play data, which lives in the generation's
//! directory, is kept with its minutes. Runs without `--retry` continue the latest attempt.

use super::settings::KEPT_BY_RETRY;
use super::state::State;
use super::window::attempts;
use std::path::{Path, PathBuf};

/// The attempt to run in generation directory `base` and its state: the latest, or with
/// `retry` a new one after it.
pub fn open(base: &Path, retry: bool) -> Result<(PathBuf, State), String> {
    let all = attempts(base);
    let latest = all.last().cloned().unwrap_or_else(|| base.to_path_buf());
    let before = State::load(&latest)?;
    if !retry {
        return Ok((latest, before));
    }
    let dir = base.join(format!("attempt-{}", all.len() + 1));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut state = State::load(&dir)?;
    for key in KEPT_BY_RETRY {
        if let Some(value) = before.get(key) {
            state.set(key, value.to_string())?;
        }
    }
    // The attempt's budget starts with the data it keeps.
    state.set(
        "spent_seconds",
        format!("{:.3}", before.number("data_seconds")),
    )?;
    println!(
        "generation: --retry: attempt {} in {} (the data is kept)",
        all.len() + 1,
        dir.display()
    );
    Ok((dir, state))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_keeps_the_data_and_starts_the_rest_afresh() {
        let base = std::env::temp_dir().join(format!("pao-gen-attempt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).expect("temp dir");
        let (dir, mut first) = open(&base, false).expect("the first attempt");
        assert_eq!(dir, base);
        for (k, v) in [
            ("data_done", "yes"),
            ("data_seconds", "90.000"),
            ("spent_seconds", "300.000"),
            ("setting_nodes", "200"),
            ("setting_epochs", "3"),
            ("decision", "not taken: the SPRT rejected it"),
        ] {
            first.set(k, v).expect("written");
        }
        let (dir, second) = open(&base, true).expect("a retry");
        assert_eq!(dir, base.join("attempt-2"));
        assert_eq!(second.get("data_done"), Some("yes"));
        assert_eq!(second.get("setting_nodes"), Some("200"));
        assert_eq!(second.number("spent_seconds"), 90.0);
        assert_eq!(second.get("setting_epochs"), None);
        assert_eq!(second.get("decision"), None);
        let (dir, again) = open(&base, false).expect("the latest");
        assert_eq!(dir, base.join("attempt-2"));
        assert_eq!(again, second);
        let (dir, _) = open(&base, true).expect("another retry");
        assert_eq!(dir, base.join("attempt-3"));
        std::fs::remove_dir_all(&base).ok();
    }
}
