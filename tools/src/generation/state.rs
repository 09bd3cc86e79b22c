//! A generation's state file (`state.txt` in its directory): what each stage has done, so that
//! running the same command again continues where the last run stopped. One `key value` per
//! line; written atomically (common/atomic.rs), so a crash never leaves half a file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The state of one generation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct State {
    values: BTreeMap<String, String>,
    path: PathBuf,
}

impl State {
    /// Reads `dir/state.txt`, or an empty state when there is none.
    pub fn load(dir: &Path) -> Result<State, String> {
        let path = dir.join("state.txt");
        let mut values = BTreeMap::new();
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                for (n, line) in text.lines().enumerate() {
                    let line = line.trim();
                    if line.is_empty() {
                        continue;
                    }
                    let (k, v) = line.split_once(' ').unwrap_or((line, ""));
                    if k.is_empty() || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                        return Err(format!(
                            "{}: line {}: not a state line; remove the file to start this \
                             generation's bookkeeping afresh (its data stays)",
                            path.display(),
                            n + 1
                        ));
                    }
                    values.insert(k.to_string(), v.to_string());
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
        Ok(State { values, path })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    /// A number stored under `key` (0 when absent or unreadable).
    pub fn number(&self, key: &str) -> f64 {
        self.get(key).and_then(|v| v.parse().ok()).unwrap_or(0.0)
    }

    /// Sets `key` and writes the file.
    pub fn set(&mut self, key: &str, value: impl ToString) -> Result<(), String> {
        self.values.insert(key.to_string(), value.to_string());
        self.save()
    }

    /// Removes `key` and writes the file.
    pub fn remove(&mut self, key: &str) -> Result<(), String> {
        if self.values.remove(key).is_some() {
            self.save()?;
        }
        Ok(())
    }

    /// Adds `seconds` to the time spent under `key` and writes the file.
    pub fn add_seconds(&mut self, key: &str, seconds: f64) -> Result<(), String> {
        let total = self.number(key) + seconds;
        self.set(key, format!("{total:.3}"))
    }

    fn save(&self) -> Result<(), String> {
        let text: String = self
            .values
            .iter()
            .map(|(k, v)| format!("{k} {v}\n"))
            .collect();
        crate::common::atomic::write(&self.path, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_survive_a_reload_and_a_bad_file_is_named() {
        let dir = std::env::temp_dir().join(format!("pao-gen-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let mut s = State::load(&dir).expect("empty");
        assert_eq!(s.get("stage"), None);
        s.set("stage", "train").expect("written");
        s.add_seconds("data_seconds", 12.25).expect("written");
        s.add_seconds("data_seconds", 1.0).expect("written");
        s.set("gone", "soon").expect("written");
        s.remove("gone").expect("written");
        let again = State::load(&dir).expect("reads");
        assert_eq!(again.get("stage"), Some("train"));
        assert_eq!(again.number("data_seconds"), 13.25);
        std::fs::write(dir.join("state.txt"), "stage train\n??? x\n").expect("written");
        let err = State::load(&dir).expect_err("refused");
        assert!(err.contains("line 2: not a state line"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
