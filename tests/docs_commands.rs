//! The commands that README.md and docs/ print, kept honest. Every command line of the
//! documents (in code blocks, and in inline code that starts with a program of the workspace)
//! is read out; the short ones run as printed against the built binaries and must succeed,
//! and every other one of `pao` and `pao-tools` is checked against the program's own help:
//! its subcommands exist and each `--option` it uses is one the help lists. `cargo` commands
//! must name test, bench and example targets that exist, and scripts must exist. The figures
//! that docs/results.md quotes for a command it prints (the bench signature, the leaves of
//! `perft 5`) must be what that command prints.
//!
//! Placeholders stand for directories the reader chooses (`$BIN`, `$DATA`, `$TB`, ...): here
//! they become directories of a scratch space.

mod common;

use common::documents::{
    binary, commands, documents, relative_name, root, strip_prefixes, under_ci, words_of,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The scratch space the placeholders stand for.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = std::env::temp_dir().join(format!("pao-docs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["bin", "data", "tb", "scratch", "out"] {
            std::fs::create_dir_all(dir.join(sub)).expect("scratch");
        }
        Scratch { dir }
    }

    fn substitute(&self, word: &str) -> String {
        let d = |s: &str| self.dir.join(s).display().to_string();
        word.replace("$BIN", &d("bin"))
            .replace("$DATA", &d("data"))
            .replace("$TB", &d("tb"))
            .replace("$SCRATCH", &d("scratch"))
            .replace("$OUT", &d("out"))
            .replace("$PWD", &root().display().to_string())
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The help texts asked for so far, by program and words before `--help`.
type HelpCache = HashMap<(PathBuf, Vec<String>), Option<String>>;

/// The subcommands at the front of `args` and the help text of the deepest one.
fn help_of(bin: &Path, args: &[String], cache: &mut HelpCache) -> (usize, String) {
    let mut help = |depth: usize| -> Option<String> {
        let key = (bin.to_path_buf(), args[..depth].to_vec());
        cache
            .entry(key)
            .or_insert_with(|| {
                let out = Command::new(bin)
                    .args(&args[..depth])
                    .arg("--help")
                    .current_dir(root())
                    .output()
                    .ok()?;
                out.status
                    .success()
                    .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
            })
            .clone()
    };
    let mut depth = 0;
    let mut text = help(0).unwrap_or_default();
    // A word is a subcommand when asking for its help works and tells something new (a
    // positional argument gets its command's help again).
    while depth < args.len() && !args[depth].starts_with('-') {
        match help(depth + 1) {
            Some(deeper) if deeper != text => {
                text = deeper;
                depth += 1;
            }
            _ => break,
        }
    }
    (depth, text)
}

/// The results page, where the measured figures stand.
const RESULTS: &str = "docs/results.md";

/// The number in bold right after `marker` on the results page, digits only (`**1,992**` is
/// `1992`).
fn quoted_on_results_page(marker: &str) -> String {
    let page = std::fs::read_to_string(root().join(RESULTS)).expect(RESULTS);
    let after = page
        .split_once(&format!("{marker} **"))
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("{RESULTS} quotes `{marker} **N**`"));
    after
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect()
}

/// The search's signature as the results page quotes it.
fn quoted_signature() -> String {
    quoted_on_results_page("signature,")
}

/// The leaves of `perft 5` from the start as the results page quotes them.
fn quoted_perft5() -> String {
    quoted_on_results_page("counts")
}

/// Which printed commands run in full: the short ones, with what their output must show.
fn fast(args: &[String]) -> Option<String> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["--help"] | ["--version"] | ["help", ..] => Some(String::new()),
        ["perft", "5"] => Some(format!("nodes {} ", quoted_perft5())),
        ["perft", depth, ..] if depth.parse::<u32>().is_ok_and(|d| d <= 5) => Some("nodes ".into()),
        ["bench"] => Some(format!("bench: nodes {} ", quoted_signature())),
        ["bench", rest @ ..] if rest.contains(&"--positions") && !rest.contains(&"--ablation") => {
            Some("bench: nodes ".into())
        }
        ["match", "sprt", counts, ..] if counts.starts_with(|c: char| c.is_ascii_digit()) => {
            Some("\nresult: elo=".into())
        }
        _ => None,
    }
}

#[test]
fn the_documents_commands_work_as_printed() {
    let scratch = Scratch::new();
    let mut ran = Vec::new();
    let mut checked = Vec::new();
    let mut skipped = Vec::new();
    let mut failures = Vec::new();
    // A command printed on several pages runs once.
    let mut seen = std::collections::HashSet::new();
    let mut helps = HelpCache::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("a document");
        let name = relative_name(&doc);
        for c in commands(&text, &name) {
            let words = strip_prefixes(words_of(&c.text));
            let words: Vec<String> = words.iter().map(|w| scratch.substitute(w)).collect();
            let program = words[0].as_str();
            if program.ends_with(".sh") {
                if !root().join(program).is_file() {
                    failures.push(format!("{}: no script {program}", c.place));
                }
                continue;
            }
            if program == "cargo" {
                if let Some(problem) = cargo_targets_missing(&words[1..]) {
                    failures.push(format!("{}: `{}`: {problem}", c.place, c.text));
                }
                continue;
            }
            let Some(bin) = binary(program) else {
                let missing = format!("{}: {program} not built", c.place);
                // Under CI the workspace is built: a missing binary is a failed build, not a skip.
                if under_ci()
                    && matches!(
                        program.trim_start_matches("target/release/"),
                        "pao" | "pao-tools"
                    )
                {
                    failures.push(missing);
                } else {
                    skipped.push(missing);
                }
                continue;
            };
            let args = &words[1..];
            if !seen.insert(words.clone()) {
                continue;
            }
            if let Some(expected) = fast(args) {
                let out = Command::new(&bin)
                    .args(args)
                    .current_dir(scratch.dir.join("out"))
                    .output()
                    .expect("run");
                let stdout = String::from_utf8_lossy(&out.stdout);
                if !out.status.success() || !stdout.contains(&expected) {
                    failures.push(format!(
                        "{}: `{}` exited with {:?}; stdout ends: {}; stderr: {}",
                        c.place,
                        c.text,
                        out.status.code(),
                        stdout.lines().last().unwrap_or(""),
                        String::from_utf8_lossy(&out.stderr).trim()
                    ));
                }
                ran.push(c.text.clone());
                continue;
            }
            let (depth, help) = help_of(&bin, args, &mut helps);
            if help.is_empty() {
                failures.push(format!("{}: `{}`: no help", c.place, c.text));
                continue;
            }
            for option in args[depth..].iter().filter(|w| w.starts_with("--")) {
                let name = option.split('=').next().unwrap_or(option);
                let listed = help
                    .split(|ch: char| !(ch.is_alphanumeric() || ch == '-'))
                    .any(|w| w == name);
                if !listed {
                    failures.push(format!(
                        "{}: `{}`: {name} is not an option of `{} {}`",
                        c.place,
                        c.text,
                        program,
                        args[..depth].join(" ")
                    ));
                }
            }
            checked.push(c.text.clone());
        }
    }
    // The check can fail: an option no program has is found out.
    if let Some(pao) = binary("pao") {
        let made_up = ["bench".to_string(), "--no-such-option".to_string()];
        let (depth, help) = help_of(&pao, &made_up, &mut helps);
        assert_eq!(depth, 1);
        assert!(!help.contains("--no-such-option") && help.contains("--depth"));
    }
    println!(
        "{} commands run ({}), {} checked against the help, {} skipped",
        ran.len(),
        ran.join("; "),
        checked.len(),
        skipped.len()
    );
    for s in &skipped {
        println!("skipped: {s}");
    }
    assert!(ran.len() >= 5, "ran only {ran:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `cargo test --test NAME`, `cargo bench --bench NAME` and `cargo run --example NAME` must name
/// targets that exist (in this crate or in tools/).
fn cargo_targets_missing(args: &[String]) -> Option<String> {
    let exists = |dir: &str, name: &str| {
        [root(), root().join("tools")].iter().any(|base| {
            base.join(dir).join(format!("{name}.rs")).is_file()
                || base.join(dir).join(name).join("main.rs").is_file()
        })
    };
    for pair in args.windows(2) {
        let (flag, name) = (pair[0].as_str(), pair[1].as_str());
        let dir = match flag {
            "--test" => "tests",
            "--bench" => "benches",
            "--example" => "examples",
            _ => continue,
        };
        if !exists(dir, name) {
            return Some(format!("no {dir}/{name}.rs"));
        }
    }
    None
}

#[test]
fn commands_are_read_from_blocks_and_inline_code() {
    let text = "Run `pao perft 3` or `xboard -fcp pao`.\n```\npao bench --depth 5 \\\n    \
                --positions 2   # two\nsetoption name Hash value 16\n```\n";
    let got: Vec<String> = commands(text, "t.md").into_iter().map(|c| c.text).collect();
    assert_eq!(
        got,
        ["pao perft 3", "pao bench --depth 5 --positions 2   # two"]
    );
    assert_eq!(
        strip_prefixes(words_of(
            "OUT=x nice -n 5 /usr/bin/time -v pao-tools train --data 'a b'"
        )),
        ["pao-tools", "train", "--data", "a b"]
    );
    assert_eq!(words_of("pao perft 3 # comment"), ["pao", "perft", "3"]);
}

/// The signature the results page quotes is the one `tests/bench_signature.rs` pins, and no
/// other page quotes a signature of its own as today's: a page names the signature of an older
/// build only with its commit, and links to the results page for today's.
#[test]
fn one_bench_signature_everywhere() {
    let pinned = std::fs::read_to_string(root().join("tests/bench_signature.rs"))
        .expect("tests/bench_signature.rs");
    let pinned: String = pinned
        .split_once("const SIGNATURE: u64 = ")
        .expect("the pinned signature")
        .1
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '_')
        .filter(char::is_ascii_digit)
        .collect();
    assert_eq!(
        quoted_signature(),
        pinned,
        "{RESULTS} and tests/bench_signature.rs"
    );
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("a document");
        let name = relative_name(&doc);
        if name == RESULTS {
            continue;
        }
        for phrase in ["signature, **", "signature is **", "signature: **"] {
            assert!(
                !text.contains(phrase),
                "{name} quotes a signature (`{phrase}`): link to {RESULTS} instead"
            );
        }
    }
}

/// The anchors of a page's headings as GitHub makes them: lower case, punctuation dropped
/// (hyphens and underscores kept), spaces as hyphens; code blocks have no headings.
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        let Some(title) = line.strip_prefix('#').filter(|_| !in_block) else {
            continue;
        };
        let title = title.trim_start_matches('#').trim().to_lowercase();
        out.push(
            title
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect(),
        );
    }
    out
}

/// Every link of README.md and docs/ to a file of the repository names a file that exists,
/// and a link to a page's section names a heading the page has.
#[test]
fn the_documents_links_lead_somewhere() {
    let mut failures = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("a document");
        let dir = doc.parent().expect("a directory").to_path_buf();
        for (_, rest) in text.match_indices("](").map(|(i, _)| text.split_at(i + 2)) {
            let link: String = rest.chars().take_while(|c| *c != ')').collect();
            if link.starts_with("http") || link.contains(char::is_whitespace) {
                continue;
            }
            let (path, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                doc.clone()
            } else {
                dir.join(path)
            };
            if !target.exists() {
                failures.push(format!("{}: no file for ({link})", doc.display()));
                continue;
            }
            let is_page = target.extension().is_some_and(|e| e == "md");
            if !anchor.is_empty() && is_page {
                let page = std::fs::read_to_string(&target).expect("a page");
                if !anchors(&page).iter().any(|a| a == anchor) {
                    failures.push(format!("{}: no section for ({link})", doc.display()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every file or folder of the repository that README.md and docs/ name in inline code (a test
/// said to check something, a source file, a script) exists: `tests/x.rs`,
/// `tests/x.rs::a_test` and `src/eval/` alike.
#[test]
fn the_files_the_documents_name_exist() {
    const ROOTS: [&str; 6] = ["src/", "tests/", "tools/", "docs/", "benches/", ".ci/"];
    let mut failures = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("a document");
        let mut in_block = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                in_block = !in_block;
                continue;
            }
            if in_block {
                continue;
            }
            // Inline code: the odd pieces between backticks.
            for span in line.split('`').skip(1).step_by(2) {
                let path = span.split("::").next().unwrap_or(span);
                let is_path = ROOTS.iter().any(|r| path.starts_with(r))
                    && !path.contains(|c: char| c.is_whitespace() || "$*{}<>".contains(c));
                if is_path && !root().join(path).exists() {
                    failures.push(format!("{}: no {path}", doc.display()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let page = "# Results: speed\n## `stop` to `bestmove`\n```\n# not a heading\n```\n";
    assert_eq!(anchors(page), ["results-speed", "stop-to-bestmove"]);
}
