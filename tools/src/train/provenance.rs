//! The provenance line of a trained net: the commit the trainer was built from (taken at build
//! time by `build.rs`), the command as it was typed, and the data. Paths stay as the user gave
//! them when relative; an absolute path becomes relative to the directory the command ran in
//! when it lies below it, else its file name alone: a net file never names a machine's layout.

use std::path::Path;

/// The commit `pao-tools` was built from (12 hex digits, `+dirty` when the checkout had
/// changes), or a note that it was built outside git.
pub fn commit() -> &'static str {
    env!("PAO_TOOLS_COMMIT")
}

/// `path` as the provenance records it: relative paths as given; absolute ones relative to
/// `cwd` when below it, else the file name alone.
pub fn relative_path(path: &str, cwd: Option<&Path>) -> String {
    let p = Path::new(path);
    if !p.is_absolute() {
        return path.to_string();
    }
    if let Some(rel) = cwd.and_then(|c| p.strip_prefix(c).ok()) {
        if !rel.as_os_str().is_empty() {
            return rel.to_string_lossy().into_owned();
        }
    }
    p.file_name()
        .map_or_else(|| ".".to_string(), |n| n.to_string_lossy().into_owned())
}

/// A command line as the provenance records it: the program by the name it was called with
/// (its file name when the call gave an absolute path), every absolute path in the arguments
/// (alone or after `--option=`) made relative by `relative_path`.
pub fn command_line(args: &[String], cwd: Option<&Path>) -> String {
    args.iter()
        .enumerate()
        .map(|(i, arg)| {
            if i == 0 && Path::new(arg).is_absolute() {
                return Path::new(arg)
                    .file_name()
                    .map_or(arg.clone(), |n| n.to_string_lossy().into_owned());
            }
            match arg.split_once('=') {
                Some((option, value)) if option.starts_with("--") => {
                    format!("{option}={}", relative_path(value, cwd))
                }
                _ => relative_path(arg, cwd),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// This process's command line, as `command_line` records it.
pub fn this_command() -> String {
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    command_line(&args, std::env::current_dir().ok().as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_paths_become_relative_or_bare_file_names() {
        let cwd = Path::new("/home/someone/pao");
        let args: Vec<String> = [
            "/home/someone/pao/target/release/pao-tools",
            "train",
            "--data",
            "/srv/data/gen0.bin",
            "/home/someone/pao/data/gen1.bin",
            "gen2.bin",
            "--out=/home/someone/pao/nets/g.nnue",
            "--hidden",
            "128",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            command_line(&args, Some(cwd)),
            "pao-tools train --data gen0.bin data/gen1.bin gen2.bin --out=nets/g.nnue --hidden 128"
        );
        // Relative paths stay as typed; without a working directory only file names remain.
        assert_eq!(
            relative_path("../data/gen0.bin", Some(cwd)),
            "../data/gen0.bin"
        );
        assert_eq!(relative_path("/srv/data/gen0.bin", None), "gen0.bin");
        assert_eq!(relative_path("/", None), ".");
        assert_eq!(relative_path("/home/someone/pao", Some(cwd)), "pao");
    }
}
