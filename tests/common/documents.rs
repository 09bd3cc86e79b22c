//! README.md and docs/ as the document tests read them: the pages, and the command lines they
//! print.

use std::path::{Path, PathBuf};

/// The workspace's root (this crate's directory).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documents whose commands are checked.
pub fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md")];
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    docs.extend(pages);
    docs
}

/// A document's path from the repository's root, as messages name it.
pub fn relative_name(doc: &Path) -> String {
    doc.strip_prefix(root())
        .unwrap_or(doc)
        .display()
        .to_string()
}

/// A command as printed, and where.
#[derive(Clone, Debug)]
pub struct Printed {
    pub text: String,
    pub place: String,
}

/// The programs whose commands are read out.
pub const PROGRAMS: [&str; 5] = [
    "pao",
    "pao-tools",
    "target/release/pao",
    "target/release/pao-tools",
    "cargo",
];

/// Words that may stand before the program: a timer, a priority, environment settings.
pub fn strip_prefixes(mut words: Vec<String>) -> Vec<String> {
    loop {
        match words.first().map(String::as_str) {
            Some("nice") if words.get(1).is_some_and(|w| w == "-n") => {
                words.drain(..3.min(words.len()));
            }
            Some("/usr/bin/time") | Some("time") | Some("sudo") => {
                words.remove(0);
                while words.first().is_some_and(|w| w.starts_with('-')) {
                    words.remove(0);
                }
            }
            Some(w) if w.contains('=') && !w.starts_with('-') => {
                words.remove(0);
            }
            _ => return words,
        }
    }
}

/// Splits a command line into words, keeping quoted parts together (quotes removed).
pub fn words_of(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"') | (None, '\'') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (None, '#') if word.is_empty() && !any => break,
            (None, c) => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

/// Every command line of `text`: code blocks line by line (a trailing `\` joins the next),
/// and inline code that starts with one of the programs.
pub fn commands(text: &str, file: &str) -> Vec<Printed> {
    let mut out = Vec::new();
    let mut in_block = false;
    let mut pending = String::new();
    let mut start = 0;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            in_block = !in_block;
            pending.clear();
            continue;
        }
        if in_block {
            if pending.is_empty() {
                start = n + 1;
            }
            let (part, more) = match trimmed.strip_suffix('\\') {
                Some(p) => (p.trim_end(), true),
                None => (trimmed, false),
            };
            pending.push_str(part.trim_start_matches("$ "));
            pending.push(' ');
            if !more {
                let text = std::mem::take(&mut pending).trim().to_string();
                out.push(Printed {
                    text,
                    place: format!("{file}:{start}"),
                });
            }
            continue;
        }
        for (i, span) in line.split('`').enumerate() {
            if i % 2 == 1 && PROGRAMS.iter().any(|p| span.starts_with(&format!("{p} "))) {
                out.push(Printed {
                    text: span.to_string(),
                    place: format!("{file}:{}", n + 1),
                });
            }
        }
    }
    // Only the programs' commands: transcripts, protocol lines, other tools and quoted text (a
    // net's provenance, `pao-tools train; commit ...`) stay out.
    out.retain(|c| {
        let words = strip_prefixes(words_of(&c.text));
        let program = words
            .first()
            .is_some_and(|w| PROGRAMS.contains(&w.as_str()) || w.ends_with(".sh"));
        program && !words.iter().take(2).any(|w| w.ends_with(';'))
    });
    out
}

/// The binary of a program word, when built.
pub fn binary(program: &str) -> Option<PathBuf> {
    let pao = PathBuf::from(env!("CARGO_BIN_EXE_pao"));
    let path = match program.trim_start_matches("target/release/") {
        "pao" => pao,
        "pao-tools" => pao.with_file_name(format!("pao-tools{}", std::env::consts::EXE_SUFFIX)),
        _ => return None,
    };
    path.is_file().then_some(path)
}

/// Whether CI=true: there, a program the test needs and cannot find fails it.
pub fn under_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}
