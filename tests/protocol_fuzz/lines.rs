//! The fuzz's lines: seeded, reproducible, random and mutated commands of one dialect.

use pao::board::{Position, RankBase};

/// SplitMix64: a small, well-mixed seeded generator (the test needs no other).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len() as u64) as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Ucci,
    Uci,
    Cecp,
}

/// Numbers of every kind a GUI or a corrupted line could send.
const NUMBERS: [&str; 30] = [
    "0",
    "1",
    "2",
    "3",
    "7",
    "20",
    "50",
    "100",
    "300",
    "1000",
    "3000",
    "60000",
    "-1",
    "-3000",
    "-9223372036854775808",
    "2147483647",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "1e9",
    "NaN",
    "inf",
    "0x10",
    "+5",
    "3.5",
    "00000000000000000000001",
    "",
];

const UNICODE: [&str; 12] = [
    "帅",
    "炮二平五",
    "車",
    "é",
    "\u{feff}",
    "🀄",
    "\u{fffd}",
    "ｈ２ｅ２",
    "\u{202e}h2e2",
    "\u{0}",
    "\t",
    "ﬀ",
];

const WORDS: [&str; 16] = [
    "true", "false", "on", "off", "none", "small", "large", "huge", "pvs", "mtdf", "bstar",
    "asian", "draw", "xiangqi", "chess", "<empty>",
];

const PATHS: [&str; 8] = [
    "",
    "<empty>",
    "/nonexistent/file.bin",
    "/dev/null",
    "/",
    "tests/data/mates.tsv",
    "tests/data",
    "no such;also none",
];

/// Option names of both handshakes and some that do not exist.
const OPTIONS: [&str; 30] = [
    "Hash",
    "Threads",
    "PinThreads",
    "Ponder",
    "OwnBook",
    "BookFile",
    "Move Overhead",
    "MultiPV",
    "UCI_ShowWDL",
    "UCI_AnalyseMode",
    "UCI_Variant",
    "UCI_RankBase",
    "SearchDriver",
    "RepetitionRule",
    "SMPStagger",
    "SMPVote",
    "Debug",
    "DrawResign",
    "UseNNUE",
    "EvalFile",
    "EGTBPath",
    "UseEGTB",
    "Clear Hash",
    "LargePages",
    "SearchSwitches",
    "Pruning",
    "Knowledge",
    "Randomness",
    "NoSuchOption",
    "usemillisec",
];

/// Valid FENs: the start, middlegames, endgames, a mated side, bare generals.
const FENS: [&str; 8] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
    "4k3R/7R1/9/9/9/9/9/9/9/3K5 b - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/4A4/4K3R w - - 125 90",
];

/// Generates the lines of one dialect, reproducibly from the seed.
pub struct Fuzzer {
    /// The seeded generator (the driver draws the sync spacing from it too).
    pub rng: Rng,
    /// The dialect whose lines it makes.
    pub dialect: Dialect,
}

impl Fuzzer {
    fn number(&mut self) -> String {
        if self.rng.chance(50) {
            // Small numbers are the ones that make searches happen.
            self.rng.below(50).to_string()
        } else {
            self.rng.pick(&NUMBERS).to_string()
        }
    }

    /// A value for an option: numbers, booleans, levels, paths, Unicode. Sizes and thread
    /// counts stay small or out of range: a valid 64 GiB table is not this test's business.
    fn option_value(&mut self, name: &str) -> String {
        match name {
            "Hash" => self
                .rng
                .pick(&[
                    "1",
                    "2",
                    "16",
                    "0",
                    "-1",
                    "16777217",
                    "99999999999999999999",
                    "x",
                ])
                .to_string(),
            "Threads" => self
                .rng
                .pick(&["1", "2", "3", "0", "-1", "1025", "99999", "two"])
                .to_string(),
            "BookFile" | "EvalFile" | "EGTBPath" => self.rng.pick(&PATHS).to_string(),
            _ => match self.rng.below(4) {
                0 => self.number(),
                1 => self.rng.pick(&WORDS).to_string(),
                2 => self.rng.pick(&UNICODE).to_string(),
                _ => self
                    .rng
                    .pick(&[
                        "see",
                        "-see,-pvs",
                        "+nosuch",
                        "-quiescence",
                        "",
                        "null_move lmr",
                    ])
                    .to_string(),
            },
        }
    }

    /// A move: legal somewhere, random squares, or malformed.
    fn a_move(&mut self) -> String {
        match self.rng.below(4) {
            0 => {
                let f = |r: &mut Rng| (b'a' + r.below(9) as u8) as char;
                let k = |r: &mut Rng| (b'0' + r.below(10) as u8) as char;
                let r = &mut self.rng;
                format!("{}{}{}{}", f(r), k(r), f(r), k(r))
            }
            1 => self
                .rng
                .pick(&[
                    "h2e2", "b0c2", "h9g7", "c3c4", "b2e2", "a0a1", "i9i8", "e0e1",
                ])
                .to_string(),
            2 => self
                .rng
                .pick(&[
                    "z9z9", "h2e", "h2e2x", "H2-E2", "b10c8", "a0a0", "e2e4", "0000",
                ])
                .to_string(),
            _ => self.rng.pick(&UNICODE).to_string(),
        }
    }

    /// Legal moves from the start, as a game would send them.
    fn game_moves(&mut self) -> Vec<String> {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..self.rng.below(30) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[self.rng.below(legal.len() as u64) as usize];
            moves.push(pao::board::format_move(m, RankBase::Zero));
            pos.make_move(m);
        }
        moves
    }

    /// A FEN: valid, or broken in one of many ways.
    fn fen(&mut self) -> String {
        let fen = self.rng.pick(&FENS).to_string();
        if self.rng.chance(60) {
            return fen;
        }
        let chars: Vec<char> = fen.chars().collect();
        let at = self.rng.below(chars.len() as u64) as usize;
        let junk = self.rng.pick(&[
            "K", "k", "0", "10", "/", "X", "e", "h", "9/9", "帅", " ", "-",
        ]);
        match self.rng.below(4) {
            0 => chars[..at].iter().collect(),
            1 => format!(
                "{}{junk}{}",
                chars[..at].iter().collect::<String>(),
                chars[at..].iter().collect::<String>()
            ),
            2 => format!("{fen} {}", self.number()),
            _ => fen.replace('w', self.rng.pick(&["x", "r", "b", "W", ""])),
        }
    }

    fn position_args(&mut self) -> String {
        let mut text = if self.rng.chance(40) {
            "startpos".to_string()
        } else {
            format!("fen {}", self.fen())
        };
        if self.rng.chance(70) {
            text.push_str(" moves");
            let moves = if text == "startpos" && self.rng.chance(70) {
                self.game_moves()
            } else {
                (0..self.rng.below(6)).map(|_| self.a_move()).collect()
            };
            for m in moves {
                text.push(' ');
                text.push_str(&m);
            }
        }
        text
    }

    /// `go` and its parameters, in and out of range.
    fn go(&mut self) -> String {
        let keys: &[&str] = match self.dialect {
            Dialect::Uci => &[
                "depth",
                "nodes",
                "movetime",
                "wtime",
                "btime",
                "winc",
                "binc",
                "movestogo",
                "mate",
                "infinite",
                "ponder",
                "searchmoves",
            ],
            _ => &[
                "depth",
                "nodes",
                "time",
                "increment",
                "movestogo",
                "opptime",
                "oppincrement",
                "oppmovestogo",
                "draw",
                "ponder",
                "mate",
                "infinite",
            ],
        };
        let mut text = String::from("go");
        // Most searches are short; the rest try every parameter.
        if self.rng.chance(40) {
            let (key, value) = match self.rng.below(3) {
                0 => ("depth", 1 + self.rng.below(5)),
                1 => ("nodes", 1 + self.rng.below(20_000)),
                _ => (
                    if self.dialect == Dialect::Uci {
                        "movetime"
                    } else {
                        "time"
                    },
                    self.rng.below(300),
                ),
            };
            return format!("go {key} {value}");
        }
        for _ in 0..self.rng.below(4) {
            let key = keys[self.rng.below(keys.len() as u64) as usize];
            text.push(' ');
            text.push_str(key);
            match key {
                "infinite" | "ponder" | "draw" => {}
                "searchmoves" => {
                    for _ in 0..1 + self.rng.below(3) {
                        text.push(' ');
                        text.push_str(&self.a_move());
                    }
                }
                _ => {
                    text.push(' ');
                    text.push_str(&self.number());
                }
            }
        }
        text
    }

    fn setoption(&mut self) -> String {
        let name = self.rng.pick(&OPTIONS);
        let value = self.option_value(name);
        match self.dialect {
            Dialect::Uci => format!("setoption name {name} value {value}"),
            Dialect::Ucci => {
                let ucci = name.replace([' ', '_'], "").to_ascii_lowercase();
                format!("setoption {ucci} {value}")
            }
            Dialect::Cecp => format!("option {name}={value}"),
        }
    }

    /// One well-formed command of the dialect (its values may still be out of range).
    fn command(&mut self) -> String {
        match self.dialect {
            Dialect::Uci | Dialect::Ucci => match self.rng.below(20) {
                0..=3 => format!("position {}", self.position_args()),
                4..=7 => self.go(),
                8..=9 => "stop".into(),
                10..=11 => self.setoption(),
                12 => "ucinewgame".into(),
                13 => self.rng.pick(&["ponderhit", "ponderhit draw"]).into(),
                14 => self.rng.pick(&["d", "eval", "isready"]).into(),
                15 => format!("banmoves {} {}", self.a_move(), self.a_move()),
                16 => format!("probe {}", self.position_args()),
                17 => self
                    .rng
                    .pick(&["uci", "ucci", "xboard", "go", "stop", "ponderhit"])
                    .into(),
                _ => self.garbage(),
            },
            Dialect::Cecp => match self.rng.below(26) {
                0..=2 => format!("usermove {}", self.a_move()),
                3 => self.a_move(),
                4 => format!("setboard {}", self.fen()),
                5..=6 => self
                    .rng
                    .pick(&["go", "force", "playother", "new", "?", "."])
                    .into(),
                7 => format!(
                    "level {} {}{} {}",
                    self.number(),
                    self.number(),
                    self.rng.pick(&["", ":30", ":5", ":x"]),
                    self.number()
                ),
                8 => format!("st {}", self.number()),
                9 => format!("sd {}", self.number()),
                10 => format!("time {}", self.number()),
                11 => format!("otim {}", self.number()),
                12 => format!("ping {}", self.number()),
                13 => self
                    .rng
                    .pick(&["undo", "remove", "hard", "easy", "post", "nopost"])
                    .into(),
                14 => self.rng.pick(&["analyze", "exit", "."]).into(),
                15 => format!(
                    "memory {}",
                    self.rng.pick(&[
                        "1",
                        "2",
                        "16",
                        "0",
                        "-1",
                        "16777217",
                        "99999999999999999999"
                    ])
                ),
                16 => format!(
                    "cores {}",
                    self.rng.pick(&["1", "2", "3", "0", "-1", "1025", "x"])
                ),
                17..=18 => self.setoption(),
                19 => format!(
                    "result {} {{{}}}",
                    self.rng.pick(&["1-0", "0-1", "1/2-1/2", "*"]),
                    self.rng.pick(&UNICODE)
                ),
                20 => self
                    .rng
                    .pick(&[
                        "accepted usermove",
                        "rejected ping",
                        "random",
                        "computer",
                        "name Somebody",
                        "rating 2000 1800",
                        "ics -",
                        "draw",
                        "hint",
                        "bk",
                        "xboard",
                    ])
                    .into(),
                21 => format!(
                    "protover {}",
                    self.rng.pick(&["2", "1", "-1", "99999999999999999999"])
                ),
                22 => format!("variant {}", self.rng.pick(&["xiangqi", "normal", "shogi"])),
                _ => self.garbage(),
            },
        }
    }

    /// Lines that are no command at all.
    fn garbage(&mut self) -> String {
        match self.rng.below(5) {
            0 => String::new(),
            1 => self
                .rng
                .pick(&UNICODE)
                .repeat(1 + self.rng.below(5) as usize),
            2 => (0..1 + self.rng.below(6))
                .map(|_| self.number())
                .collect::<Vec<_>>()
                .join(" "),
            // Now and then longer than the daemon takes (64 KiB).
            3 if self.rng.chance(3) => "x".repeat(70_000),
            3 => "x".repeat(self.rng.below(3000) as usize),
            _ => self
                .rng
                .pick(&[
                    "   ",
                    "\u{b}",
                    "go go go",
                    "setoption",
                    "position",
                    "moves h2e2",
                ])
                .into(),
        }
    }

    /// One word of a line replaced, dropped, doubled or swapped; the line cut short; or case
    /// and spacing changed.
    fn mutate(&mut self, line: &str) -> String {
        let mut words: Vec<String> = line.split(' ').map(str::to_string).collect();
        let n = words.len() as u64;
        let i = self.rng.below(n) as usize;
        match self.rng.below(8) {
            0 => words[i] = self.number(),
            1 => words[i] = self.rng.pick(&UNICODE).to_string(),
            2 if n > 1 => {
                words.remove(i);
            }
            3 => {
                let w = words[i].clone();
                words.insert(i, w);
            }
            4 if n > 1 => {
                let j = self.rng.below(n) as usize;
                words.swap(i, j);
            }
            5 => {
                let chars: Vec<char> = line.chars().collect();
                let cut = self.rng.below(chars.len() as u64 + 1) as usize;
                return chars[..cut].iter().collect();
            }
            6 => return line.to_uppercase(),
            _ => return words.join(self.rng.pick(&["  ", "\t", " \u{b} "])),
        }
        words.join(" ")
    }

    /// The next line: a command, most often as is, else mutated. Never one that ends the
    /// daemon (`quit`, `bye`), or that changes the dialect, which the test could not follow.
    pub fn line(&mut self) -> String {
        loop {
            let mut line = self.command();
            if self.rng.chance(30) {
                line = self.mutate(&line);
            }
            let first = line
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            if !["quit", "bye"].contains(&first.as_str()) {
                return tame(&line);
            }
        }
    }
}

/// A valid but huge table (gigabytes, cleared on `new`) or hundreds of threads would test the
/// machine rather than the engine: in a line about the table (`hash`, `memory`) a size above
/// 64 MiB becomes 64, in one about threads (`thread`, `cores`) a count above 4 becomes 4.
/// Values out of range stay as they are.
fn tame(line: &str) -> String {
    let lower = line.to_ascii_lowercase();
    let (cap, limit) = if lower.contains("hash") || lower.contains("memory") {
        (64u64, 1u64 << 24)
    } else if lower.contains("thread") || lower.contains("cores") {
        (4, 1024)
    } else {
        return line.to_string();
    };
    let mut out = String::with_capacity(line.len());
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        match token.parse::<u64>() {
            Ok(n) if n > cap && n <= limit => out.push_str(&cap.to_string()),
            _ => out.push_str(token),
        }
        token.clear();
    };
    for c in line.chars() {
        if c.is_whitespace() || c == '=' {
            flush(&mut token, &mut out);
            out.push(c);
        } else {
            token.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}
