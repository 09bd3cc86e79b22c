//! The figures that README.md and docs/ quote for a command they print, kept honest: a figure
//! is either what the command prints today, or named as a measurement of an older build.
//!
//! - Reproduced: the figures a short command gives exactly (the games of an SPRT's plan, the
//!   tables `egtb list` counts and their sizes, the committed openings, the reference searches
//!   on tic-tac-toe) run here and must equal what the page quotes, to the page's precision. The
//!   bench signature and `perft 5` are checked the same way by `tests/docs_commands.rs`.
//! - Measured: a time, a rate, a ratio or an error bar cannot be reproduced, so the block that
//!   quotes it names the build it was measured on: a date (`2026-11-28`) and a commit (7 to 40
//!   hex digits). A block is a paragraph or a list item (with its indented continuation),
//!   together with the table and the code blocks right under it. docs/results.md, the page of
//!   measured figures, is held to this in every block; the other pages in the blocks that
//!   print a command.

mod common;

use common::documents::{binary, commands, documents, relative_name, root, under_ci, words_of};
use regex::Regex;
use std::process::Command;

/// The page of measured figures: every block there is held to the rule.
const RESULTS: &str = "docs/results.md";

/// A block of a page, with the line it starts on.
#[derive(Debug)]
struct Block {
    line: usize,
    text: String,
}

/// A list item's first line: `- `, `* ` or `1. ` at the margin.
fn starts_item(line: &str) -> bool {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    line.starts_with("- ")
        || line.starts_with("* ")
        || (digits > 0 && line[digits..].starts_with(". "))
}

/// The blocks of a page. A table, a code block or an indented line right under a block (a
/// blank line between) is that block's: its caption, its command, its item's continuation.
/// Headings end a block and belong to none.
fn blocks(page: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut open: Option<Block> = None;
    // Whether the last block closed may take what follows it.
    let mut joinable = false;
    let mut in_code = false;
    for (n, line) in page.lines().enumerate() {
        let trimmed = line.trim();
        let fence = trimmed.starts_with("```");
        let starts_block = if in_code || fence {
            in_code ^= fence;
            false
        } else if trimmed.is_empty() {
            if let Some(block) = open.take() {
                out.push(block);
                joinable = true;
            }
            continue;
        } else if trimmed.starts_with('#') {
            out.extend(open.take());
            joinable = false;
            continue;
        } else {
            starts_item(line)
        };
        if starts_block {
            if let Some(block) = open.take() {
                out.push(block);
            }
            joinable = false;
        }
        let under = fence || trimmed.starts_with('|') || line.starts_with(' ');
        let block = open.get_or_insert_with(|| match out.pop() {
            Some(last) if joinable && under && !starts_block => last,
            last => {
                out.extend(last);
                Block {
                    line: n + 1,
                    text: String::new(),
                }
            }
        });
        block.text.push_str(line);
        block.text.push('\n');
    }
    out.extend(open);
    out
}

/// What the rule reads: measured figures, dates and commits.
struct Lexicon {
    /// A number with a unit of time or of rate, a ratio, or an error bar.
    measured: Regex,
    /// A setting, not a figure: a time control (`10 s + 0.1 s`), a default (`default 50 ms`).
    setting: Regex,
    date: Regex,
    /// A word of 7 to 40 hex digits; one of digits only counts after `commit`, `at` or `of`.
    commit: Regex,
    number: Regex,
}

impl Lexicon {
    fn new() -> Lexicon {
        let number = r"\d(?:[\d,]*\d)?(?:\.\d+)?";
        let measured = [
            format!(r"\b(?P<n1>{number}) ?(?:ns|µs|ms|s|seconds?|min|minutes|hours)\b"),
            format!(r"\b(?P<n2>{number}) ?(?:M )?(?:nodes/s|nps|leaves/s)"),
            format!(r"\b(?P<n3>{number}) (?:positions|games|nodes) per (?:CPU-)?(?:second|hour)"),
            r"\b(?P<n4>\d+(?:\.\d+)?)x\b|\bx(?P<n5>\d+\.\d+)\b".to_string(),
            format!(r"{number} ± (?P<n6>{number})"),
        ]
        .join("|");
        Lexicon {
            measured: Regex::new(&measured).expect("measured"),
            setting: Regex::new(&format!(
                r"\b{number} ?s ?\+ ?{number} ?s\b|\bdefault:? {number}"
            ))
            .expect("setting"),
            date: Regex::new(r"\b20\d\d-\d\d-\d\d\b").expect("date"),
            commit: Regex::new(r"(?:\b(?P<said>commit|at|of) )?\b(?P<hex>[0-9a-f]{7,40})\b")
                .expect("commit"),
            number: Regex::new(number).expect("number"),
        }
    }

    /// The measured figures of a block: in its prose (not its code, inline code or link
    /// targets), less settings and the numbers its own commands state (`--runs 30`).
    fn measured_figures(&self, block: &str, stated: &[String]) -> Vec<String> {
        let prose = prose(block);
        let prose = self.setting.replace_all(&prose, " ");
        let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
        self.measured
            .captures_iter(&prose)
            .filter(|c| {
                let n = ["n1", "n2", "n3", "n4", "n5", "n6"]
                    .iter()
                    .find_map(|g| c.name(g))
                    .map_or("", |m| m.as_str());
                !stated.iter().any(|s| digits(s) == digits(n))
            })
            .map(|c| c[0].to_string())
            .collect()
    }

    /// Whether a block names the build its figures were measured on: a date and a commit.
    fn names_a_build(&self, block: &str) -> bool {
        let text = self.date.replace_all(block, " ");
        let commit = self.commit.captures_iter(&text).any(|c| {
            c.name("said").is_some() || c["hex"].chars().any(|ch| ch.is_ascii_alphabetic())
        });
        self.date.is_match(block) && commit
    }

    /// The numbers the printed commands of a block state.
    fn stated(&self, block: &str) -> Vec<String> {
        commands(block, "")
            .iter()
            .flat_map(|c| {
                self.number
                    .find_iter(&c.text)
                    .map(|m| m.as_str().to_string())
                    .collect::<Vec<_>>()
            })
            .collect()
    }
}

/// A block's prose: its lines outside code blocks, without inline code (which may wrap) and
/// link targets.
fn prose(block: &str) -> String {
    let mut lines = String::new();
    let mut in_code = false;
    for line in block.lines() {
        if line.trim().starts_with("```") {
            in_code = !in_code;
        } else if !in_code {
            lines.push_str(line);
            lines.push('\n');
        }
    }
    let outside: Vec<&str> = lines.split('`').step_by(2).collect();
    Regex::new(r"\]\([^)]*\)")
        .expect("link")
        .replace_all(&outside.join(" "), "]")
        .into_owned()
}

/// The blocks that quote a measured figure and name no build: `page:line: figures`.
fn unnamed_measurements(page: &str, name: &str, lexicon: &Lexicon) -> (usize, Vec<String>) {
    let mut held = 0;
    let mut failures = Vec::new();
    for block in blocks(page) {
        if name != RESULTS && commands(&block.text, name).is_empty() {
            continue;
        }
        let figures = lexicon.measured_figures(&block.text, &lexicon.stated(&block.text));
        if figures.is_empty() {
            continue;
        }
        held += 1;
        if !lexicon.names_a_build(&block.text) {
            failures.push(format!(
                "{name}:{}: {} measured, but no date and commit",
                block.line,
                figures.join(", ")
            ));
        }
    }
    (held, failures)
}

#[test]
fn every_measured_figure_names_its_build() {
    let lexicon = Lexicon::new();
    let mut held = 0;
    let mut failures = Vec::new();
    for doc in documents() {
        let page = std::fs::read_to_string(&doc).expect("a page");
        let (n, mut f) = unnamed_measurements(&page, &relative_name(&doc), &lexicon);
        held += n;
        failures.append(&mut f);
    }
    println!("{held} blocks quote measured figures");
    // The rule reaches the pages: the results page alone has dozens of such blocks.
    assert!(held >= 30, "only {held} blocks with measured figures");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_rule_reads_blocks_figures_and_builds() {
    let page = "# Speed\n\nIt took **1,992 ms** on the build at 15dcbe7 (2026-11-22):\n\n```\n\
                pao perft 5\n```\n\nTwo more runs gave 2.00x.\n\n- At 10 s + 0.1 s, 80 games.\n\
                - Times (2026-11-22, 0340f9d), `pao-tools latency --runs 30`:\n\n  | runs | ms |\n  \
                |---|---|\n  | 30 | 0.06 ms |\n\nThe clock at 3 s; `pao bench` took 70 ms at commit \
                5914859 (2026-11-22).\n";
    let got: Vec<(usize, usize)> = blocks(page)
        .iter()
        .map(|b| (b.line, b.text.lines().count()))
        .collect();
    assert_eq!(got, [(3, 4), (9, 1), (11, 1), (12, 4), (18, 1)]);
    let lexicon = Lexicon::new();
    let (held, failures) = unnamed_measurements(page, RESULTS, &lexicon);
    // A table and a command are their caption's; a time control is no figure.
    assert_eq!(held, 4, "{failures:?}");
    // The run without a build fails; elsewhere only blocks that print a command are held.
    assert_eq!(
        failures,
        ["docs/results.md:9: 2.00x measured, but no date and commit"]
    );
    let (_, failures) = unnamed_measurements(page, "docs/other.md", &lexicon);
    assert!(failures.is_empty(), "{failures:?}");
    assert!(!lexicon.names_a_build("It took 2 s (2026-11-22, signature 1702389)."));
    assert!(lexicon.names_a_build("It took 2 s (2026-11-22, 15dcbe7)."));
    assert_eq!(
        lexicon.measured_figures(
            "At 10 s + 0.1 s (margin: default 50 ms): x1.44, 3.04 M nodes/s, +3.5 ± 7.1 Elo, \
             948 positions per CPU-second, 2 x 10^9, x86-64, `--hash 16` 16 ms, 30 runs in 30 s",
            &["30".to_string()]
        ),
        [
            "x1.44",
            "3.04 M nodes/s",
            "3.5 ± 7.1",
            "948 positions per CPU-second",
            "16 ms"
        ]
    );
}

/// Whether `quoted`, as a page writes it (`1,599`, `+6.5`, `−6.5`, `2.85 x 10^9`), is `value`
/// to the quoted precision.
fn agrees(quoted: &str, value: f64) -> bool {
    let quoted = quoted.replace(['+', ','], "").replace('−', "-");
    let (mantissa, scale) = match quoted.split_once(" x 10^") {
        Some((m, e)) => (
            m.to_string(),
            e.parse::<i32>().map_or(f64::NAN, |e| 10f64.powi(e)),
        ),
        None => (quoted.clone(), 1.0),
    };
    let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len());
    format!("{:.*}", decimals, value / scale) == mantissa
}

#[test]
fn figures_agree_to_the_quoted_precision() {
    assert!(agrees("1,599", 1599.0) && !agrees("1,599", 1600.0));
    assert!(agrees("+13", 12.9) && agrees("−6.5", -6.46) && !agrees("+6.5", 6.4));
    assert!(agrees("2.85 x 10^9", 2_848_123_456.0) && !agrees("2.85 x 10^9", 2.86e9));
}

/// A page's text, its lines joined by single spaces (a quoted figure may wrap).
fn flat_page(page: &str) -> String {
    let text = std::fs::read_to_string(root().join(page)).expect(page);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The figure right after `words` on a page: `1,800`, `2.55 x 10^12`.
fn figure_after(page: &str, words: &str) -> String {
    let text = flat_page(page);
    let (_, rest) = text
        .split_once(words)
        .unwrap_or_else(|| panic!("{page} says `{words}`"));
    Regex::new(r"^[+−-]?\d(?:[\d,]*\d)?(?:\.\d+)?(?: x 10\^\d+)?")
        .expect("figure")
        .find(rest)
        .unwrap_or_else(|| panic!("{page}: a figure after `{words}`"))
        .as_str()
        .to_string()
}

/// The rows of the first table on `page` whose header starts with `header`, as cells.
fn table_rows(page: &str, header: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(root().join(page)).expect(page);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with(header))
        .unwrap_or_else(|| panic!("{page} has the table `{header}`"));
    lines[start + 2..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// What `pao-tools ARGS` prints, run in the repository's root; `None` (a skip) where the tools
/// are not built, which under CI fails.
fn tools_output(args: &[&str]) -> Option<String> {
    let Some(tools) = binary("pao-tools") else {
        assert!(!under_ci(), "pao-tools is not built");
        println!("skipped: pao-tools is not built (cargo build --release -p pao-tools)");
        return None;
    };
    let out = Command::new(tools)
        .args(args)
        .current_dir(root())
        .output()
        .expect("run pao-tools");
    assert!(
        out.status.success(),
        "pao-tools {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("utf-8"))
}

/// testing.md's table of SPRT lengths is what the plan it prints gives: for each row's bounds,
/// the games at either bound, at the midpoint, and the bound away from 0 in logistic Elo.
#[test]
fn the_sprt_lengths_are_the_plans() {
    const PAGE: &str = "docs/testing.md";
    let text = std::fs::read_to_string(root().join(PAGE)).expect(PAGE);
    let printed = commands(&text, PAGE)
        .into_iter()
        .find(|c| c.text.starts_with("pao-tools match plan"))
        .expect("testing.md prints `pao-tools match plan`");
    let rows = table_rows(PAGE, "| bounds (nElo) |");
    assert_eq!(rows.len(), 5);
    for row in rows {
        let bounds: Vec<f64> = row[0]
            .split(']')
            .next()
            .unwrap_or_default()
            .replace('−', "-")
            .trim_start_matches('[')
            .split(',')
            .map(|b| b.trim().parse().expect("a bound"))
            .collect();
        let (elo0, elo1) = (bounds[0], bounds[1]);
        let args: Vec<String> = words_of(&printed.text)[1..]
            .iter()
            .map(|w| {
                w.replace("E0", &elo0.to_string())
                    .replace("E1", &elo1.to_string())
            })
            .collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let Some(plan) = tools_output(&args) else {
            return;
        };
        // Rows: true nElo, logistic Elo, P(accept H1), games.
        let at = |nelo: f64| -> Vec<f64> {
            plan.lines()
                .map(|l| l.split_whitespace().collect::<Vec<_>>())
                .find(|w| w.len() == 4 && w[0].parse::<f64>().is_ok_and(|x| x == nelo))
                .unwrap_or_else(|| panic!("no row {nelo} in\n{plan}"))
                .iter()
                .map(|w| w.parse().unwrap_or(f64::NAN))
                .collect()
        };
        let away = if elo1.abs() > elo0.abs() { elo1 } else { elo0 };
        let checks = [
            (&row[1], at(away)[1], "logistic Elo"),
            (&row[2], at(elo0)[3], "games at H0"),
            (&row[2], at(elo1)[3], "games at H1"),
            (&row[3], at((elo0 + elo1) / 2.0)[3], "games at the midpoint"),
        ];
        for (quoted, value, what) in checks {
            assert!(
                agrees(quoted, value),
                "{PAGE}, bounds {}: {what} quoted {quoted}, `{}` gives {value}",
                row[0],
                args.join(" ")
            );
        }
    }
}

/// The tables `pao-tools egtb list` prints: name and indices (both sides to move).
fn egtb_list() -> Option<Vec<(String, u64)>> {
    let list = tools_output(&["egtb", "list"])?;
    Some(
        list.lines()
            .skip(1)
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (w[0].to_string(), w[1].parse().expect("indices"))
            })
            .collect(),
    )
}

/// tablebases.md's counts of tables and positions, and results.md's, are `egtb list`'s.
#[test]
fn the_table_counts_are_egtb_lists() {
    const PAGE: &str = "docs/tablebases.md";
    let Some(list) = egtb_list() else {
        return;
    };
    let within = |max: u64| {
        let tables: Vec<u64> = list.iter().map(|t| t.1).filter(|&n| n <= max).collect();
        (tables.len() as f64, tables.iter().sum::<u64>() as f64)
    };
    let (all, positions) = within(u64::MAX);
    let quoted = [
        (PAGE, "captures reach: ", all),
        (PAGE, "add up to ", positions),
        (RESULTS, "up to 20 M positions, ", within(20_000_000).0),
    ];
    for (page, words, value) in quoted {
        let figure = figure_after(page, words);
        assert!(
            agrees(&figure, value),
            "{page}: `{words}{figure}`, egtb list: {value}"
        );
    }
    let krkaabb = list.iter().find(|t| t.0 == "KRKAABB").expect("KRKAABB").1;
    let figure = figure_after(PAGE, "C(7,2) = ");
    assert!(
        agrees(&figure, (krkaabb / 2) as f64),
        "{PAGE}: KRKAABB {figure} per side"
    );
    let rows = table_rows(PAGE, "| tables with at most |");
    assert_eq!(rows.len(), 4);
    for row in rows {
        let max = match row[0].split_once(" M positions") {
            Some((m, _)) => m.parse::<u64>().expect("M") * 1_000_000,
            None => u64::MAX,
        };
        let (tables, positions) = within(max);
        let size = row[2].split(" (").next().unwrap_or_default();
        assert!(
            agrees(&row[1], tables) && agrees(size, positions),
            "{PAGE}: at most {}: {} tables of {size} positions quoted; egtb list: {tables} of \
             {positions}",
            row[0],
            row[1]
        );
    }
}

/// tools.md's count of the committed openings is the command's.
#[test]
fn the_committed_openings_are_counted() {
    const PAGE: &str = "docs/tools.md";
    let Some(epd) = tools_output(&[
        "openings",
        "--from",
        "tools/data/balanced-openings.txt",
        "--format",
        "epd",
    ]) else {
        return;
    };
    let figure = figure_after(PAGE, "The committed openings, ");
    let count = epd.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(
        agrees(&figure, count as f64),
        "{PAGE}: {figure} openings, the command: {count}"
    );
}

/// The example `cargo run --release --example tictactoe_table` runs: its table is the one
/// results.md quotes.
#[allow(dead_code)]
#[path = "../examples/tictactoe_table.rs"]
mod tictactoe_table;

#[test]
fn the_tictactoe_table_is_the_examples() {
    let quoted: Vec<String> = table_rows(RESULTS, "| search | value | nodes | leaves |")
        .iter()
        .map(|cells| format!("| {} |", cells.join(" | ")))
        .collect();
    let printed: Vec<String> = tictactoe_table::table()
        .lines()
        .skip(2)
        .map(String::from)
        .collect();
    assert_eq!(quoted, printed, "{RESULTS} against the example's table");
}
