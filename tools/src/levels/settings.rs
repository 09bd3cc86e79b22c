//! `settings.txt` in the output directory: what the games were played with. A run that finds
//! other settings there stops, so that one table never mixes two time controls or two
//! anchors; the number of games, the levels and the programs' paths may change between runs.

use super::play::Players;
use std::path::Path;

/// The file's name in the output directory.
pub const FILE: &str = "settings.txt";

/// The settings as the file holds them.
pub fn text(players: &Players) -> String {
    let anchor = players.anchor.as_ref().map_or_else(
        || "none".to_string(),
        |words| {
            // Where the anchor lives is not what it is.
            let what: Vec<&str> = words
                .iter()
                .map(String::as_str)
                .filter(|w| !w.starts_with("cmd=") && !w.starts_with("dir="))
                .collect();
            format!("{} {}", players.anchor_name, what.join(" "))
                .trim_end()
                .to_string()
        },
    );
    format!(
        "tc: {}\nlevel-tc: {}\neach: {}\nanchor: {anchor}\n",
        players.tc,
        players.level_tc,
        players.each.join(" ")
    )
}

/// Checks `dir`'s settings against `players`; writes them when the directory has none and
/// `write` is set.
pub fn check(dir: &Path, players: &Players, write: bool) -> Result<(), String> {
    let path = dir.join(FILE);
    let ours = text(players);
    match std::fs::read_to_string(&path) {
        Ok(theirs) if theirs == ours => Ok(()),
        Ok(theirs) => Err(format!(
            "{} holds results played with other settings:\n{theirs}these are:\n{ours}\
             give another --out, or the same settings",
            dir.display()
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if write {
                std::fs::write(&path, ours)
                    .map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
            }
            Ok(())
        }
        Err(e) => Err(format!("cannot read '{}': {e}", path.display())),
    }
}
