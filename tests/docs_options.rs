//! The option tables of README.md and docs/ against what the engine offers. Every table whose
//! header has a `UCI` and a `UCCI` column (and perhaps `CECP`) names only options the engine
//! offers in that dialect, with the defaults it prints; the table of docs/protocols.md, "Every
//! option", names every option of every handshake.

mod common;

use common::documents::{documents, relative_name};
use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Stdio};

/// What the engine answers to `input` (which ends with `quit`).
fn engine_output(input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pao"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start pao");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("pao ends at quit");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// An option's default as the tables write it: `true`, `false`, a number, a combo value,
/// `empty` or `button`.
fn plain(value: &str) -> String {
    match value.trim() {
        "" | "<empty>" => "empty".into(),
        v => v.to_string(),
    }
}

/// The options of `uci` (`option name N type T default D ...`): name to default.
fn uci_options() -> HashMap<String, String> {
    handshake_options("uci", "option name ")
}

/// The options of `ucci` (`option N type T [min ...] default D ...`): name to default.
fn ucci_options() -> HashMap<String, String> {
    handshake_options("ucci", "option ")
}

/// The options the engine lists after `command`, each line `PREFIX NAME type SPEC`: name to
/// default.
fn handshake_options(command: &str, prefix: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for line in engine_output(&format!("{command}\nquit\n")).lines() {
        let Some(rest) = line.strip_prefix(prefix) else {
            continue;
        };
        let (name, spec) = rest.split_once(" type ").expect("a type");
        out.insert(name.to_string(), default_of(spec));
    }
    out
}

/// The default in a UCI or UCCI option's specification (`button` for a button).
fn default_of(spec: &str) -> String {
    let words: Vec<&str> = spec.split(' ').collect();
    if words.first() == Some(&"button") {
        return "button".into();
    }
    let at = words.iter().position(|w| *w == "default");
    let value: Vec<&str> = at
        .map(|i| {
            words[i + 1..]
                .iter()
                .take_while(|w| !matches!(**w, "min" | "max" | "var"))
                .copied()
                .collect()
        })
        .unwrap_or_default();
    plain(&value.join(" "))
}

/// XBoard's `feature option="NAME -TYPE ..."` lines: name to default.
fn cecp_options() -> HashMap<String, String> {
    let mut out = HashMap::new();
    for line in engine_output("xboard\nprotover 2\nquit\n").lines() {
        let Some(rest) = line.strip_prefix("feature option=\"") else {
            continue;
        };
        let rest = rest.trim_end_matches('"');
        let (name, spec) = rest.split_once(" -").expect("a type");
        let (kind, value) = spec.split_once(' ').unwrap_or((spec, ""));
        let default = match kind {
            "check" => if value == "1" { "true" } else { "false" }.to_string(),
            "spin" => value.split(' ').next().unwrap_or("").to_string(),
            "combo" => value
                .split(" /// ")
                .find_map(|v| v.strip_prefix('*'))
                .unwrap_or("")
                .to_string(),
            "button" => "button".into(),
            _ => plain(value),
        };
        out.insert(name.to_string(), default);
    }
    out
}

/// One option table of a page: for each dialect's column the names of each row, and each
/// row's default cell.
struct Table {
    place: String,
    columns: HashMap<&'static str, Vec<Vec<String>>>,
    defaults: Vec<String>,
}

/// The cells of a table row, without the outer bars.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    inner.split(" | ").map(|c| c.trim().to_string()).collect()
}

/// The names in backticks of a cell (`OwnBook`, `BookFile`); a CECP cell's `the same` stands
/// for the row's UCI names.
fn names(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(|n| n.split(" -").next().unwrap_or(n).to_string())
        .collect()
}

/// The option tables of a page.
fn tables(text: &str, page: &str) -> Vec<Table> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let header = cells(line);
        let column = |name: &str| {
            header
                .iter()
                .position(|h| h.split(' ').next() == Some(name))
        };
        let (Some(uci), Some(ucci)) = (column("UCI"), column("UCCI")) else {
            continue;
        };
        if !line.starts_with('|') {
            continue;
        }
        let cecp = column("CECP");
        let default = header
            .iter()
            .position(|h| h.ends_with("default"))
            .expect("a default column");
        let mut table = Table {
            place: format!("{page}:{}", i + 1),
            columns: HashMap::new(),
            defaults: Vec::new(),
        };
        for row in lines[i + 2..].iter().take_while(|l| l.starts_with('|')) {
            let row = cells(row);
            let uci_names = names(&row[uci]);
            table
                .columns
                .entry("UCI")
                .or_default()
                .push(uci_names.clone());
            table
                .columns
                .entry("UCCI")
                .or_default()
                .push(names(&row[ucci]));
            if let Some(c) = cecp {
                let cell = &row[c];
                let cecp_names = if cell.starts_with("the same") {
                    uci_names
                } else {
                    names(cell)
                };
                table.columns.entry("CECP").or_default().push(cecp_names);
            }
            table.defaults.push(row[default].clone());
        }
        out.push(table);
    }
    out
}

/// The defaults a cell gives `count` options: one part per option (`0-20, 20; false`), else
/// one value for all; each part's value is its last comma-separated item (`1-1024, 1`), or one
/// item per option (`true, empty`). A value in words (`level 0's rating`) is `None`: not checked.
fn defaults_in(cell: &str, count: usize) -> Vec<Option<String>> {
    let literal = |v: &str| {
        let v = v.split(" (").next().unwrap_or(v).trim().trim_matches('`');
        (!v.contains([' ', '\''])).then(|| v.to_string())
    };
    let parts: Vec<&str> = cell.split("; ").collect();
    if parts.len() == count && count > 1 {
        return parts
            .iter()
            .map(|p| literal(p.rsplit(", ").next().unwrap_or(p)))
            .collect();
    }
    let last = parts.last().copied().unwrap_or(cell);
    let items: Vec<&str> = last.split(", ").collect();
    if items.len() == count && count > 1 {
        return items.iter().map(|v| literal(v)).collect();
    }
    vec![literal(items.last().copied().unwrap_or(last)); count]
}

/// CECP commands that stand in the CECP column where XBoard has a command, not an option.
const CECP_COMMANDS: [&str; 4] = ["memory N", "cores N", "hard", "easy"];

#[test]
fn the_option_tables_are_what_the_engine_offers() {
    let offered: HashMap<&str, HashMap<String, String>> = [
        ("UCI", uci_options()),
        ("UCCI", ucci_options()),
        ("CECP", cecp_options()),
    ]
    .into();
    assert_eq!(offered["UCI"].get("Hash").map(String::as_str), Some("64"));
    assert_eq!(
        offered["UCCI"].get("newgame").map(String::as_str),
        Some("button")
    );
    assert_eq!(
        offered["CECP"].get("OwnBook").map(String::as_str),
        Some("true")
    );

    let mut failures = Vec::new();
    let mut complete = None;
    for page in &documents() {
        let text = std::fs::read_to_string(page).expect("a page");
        let name = relative_name(page);
        for table in tables(&text, &name) {
            for (dialect, rows) in &table.columns {
                for (names, cell) in rows.iter().zip(&table.defaults) {
                    let wanted = defaults_in(cell, names.len());
                    for (option, default) in names.iter().zip(wanted) {
                        if *dialect == "CECP" && CECP_COMMANDS.contains(&option.as_str()) {
                            continue;
                        }
                        match offered[dialect].get(option) {
                            None => failures.push(format!(
                                "{}: {dialect} offers no option `{option}`",
                                table.place
                            )),
                            Some(actual) => {
                                if default.as_ref().is_some_and(|d| d != actual) {
                                    failures.push(format!(
                                        "{}: {dialect} `{option}` defaults to {actual}, not {}",
                                        table.place,
                                        default.unwrap_or_default()
                                    ));
                                }
                            }
                        }
                    }
                }
            }
            if name == "docs/protocols.md" {
                complete = Some(table);
            }
        }
    }
    let complete = complete.expect("docs/protocols.md has an option table");
    for (dialect, options) in &offered {
        let listed: Vec<&String> = complete.columns[dialect].iter().flatten().collect();
        for option in options.keys() {
            if !listed.contains(&option) {
                failures.push(format!(
                    "{}: the table lacks {dialect}'s `{option}`",
                    complete.place
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn defaults_are_read_as_the_tables_write_them() {
    assert_eq!(defaults_in("1-1024, 1", 1), [Some("1".to_string())]);
    assert_eq!(
        defaults_in("true, empty", 2),
        [Some("true".to_string()), Some("empty".to_string())]
    );
    assert_eq!(
        defaults_in("false", 2),
        [Some("false".into()), Some("false".into())]
    );
    assert_eq!(
        defaults_in(
            "0-20, 20; false; level 0's rating to level 19's, level 0's; 0",
            4
        ),
        [
            Some("20".into()),
            Some("false".into()),
            None,
            Some("0".into())
        ]
    );
    assert_eq!(
        defaults_in("pvs, mtdf, sssstar, bstar; pvs", 1),
        [Some("pvs".into())]
    );
    assert_eq!(
        defaults_in("empty (the embedded net)", 1),
        [Some("empty".into())]
    );
    assert_eq!(default_of("spin min 1 max 1024 default 1"), "1");
    assert_eq!(default_of("string default <empty>"), "empty");
    assert_eq!(default_of("combo default pvs var pvs var mtdf"), "pvs");
}
