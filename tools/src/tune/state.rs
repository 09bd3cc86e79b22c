//! The state of a tuning run: a small text file with the settings, the counters and every
//! parameter's current value, rewritten whole (atomically) after each update. Values are
//! written in Rust's shortest exact form, so a read gives back the very numbers written.

use pao::search::params::Param;

/// The first line of every state file.
const HEADER: &str = "# pao-tools tune state (SPSA): rewritten after every update; the same \
                      command continues it";

/// One parameter as the run knows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The engine option.
    pub name: String,
    /// The current value θ (not rounded).
    pub value: f64,
    /// Its range and final perturbation, as the table gave them when the run started.
    pub min: i32,
    /// See `min`.
    pub max: i32,
    /// See `min`.
    pub c_end: f64,
}

/// A whole state file.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The settings that must stay the same over the run, as one line of `key=value` words.
    pub settings: String,
    /// Game pairs handed out so far: the next pair plays iteration `started + 1`.
    pub started: u64,
    /// Updates applied (one per finished pair).
    pub iteration: u64,
    /// Games played.
    pub games: u64,
    /// θ+'s wins, losses and draws against θ−.
    pub wdl: [u64; 3],
    /// The parameters, in the engine's table order.
    pub params: Vec<Entry>,
}

fn entries(params: &[Param], value: impl Fn(&Param) -> f64) -> Vec<Entry> {
    params
        .iter()
        .map(|p| Entry {
            name: p.name.to_string(),
            value: value(p),
            min: p.min,
            max: p.max,
            c_end: p.c_end,
        })
        .collect()
}

impl State {
    /// A new run at the table's defaults.
    pub fn new(settings: &str, params: &[Param]) -> State {
        State {
            settings: settings.to_string(),
            started: 0,
            iteration: 0,
            games: 0,
            wdl: [0; 3],
            params: entries(params, |p| f64::from(p.default)),
        }
    }

    /// The current values θ.
    pub fn theta(&self) -> Vec<f64> {
        self.params.iter().map(|e| e.value).collect()
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{HEADER}\nsettings {}\nstarted {}\niteration {}\ngames {}\nwdl {} {} {}\n",
            self.settings,
            self.started,
            self.iteration,
            self.games,
            self.wdl[0],
            self.wdl[1],
            self.wdl[2]
        );
        for e in &self.params {
            s.push_str(&format!(
                "param {} {} min={} max={} c_end={}\n",
                e.name, e.value, e.min, e.max, e.c_end
            ));
        }
        s
    }

    /// Reads a state file's text; every line is checked, and an error names the line.
    pub fn parse(text: &str) -> Result<State, String> {
        let first = text.lines().next().unwrap_or("");
        if first != HEADER {
            return Err(format!("line 1: not a tune state ('{first}')"));
        }
        let mut lines = Fields(text.lines().enumerate().skip(1));
        let (_, settings) = lines.field("settings")?;
        let started = lines.count("started")?;
        let iteration = lines.count("iteration")?;
        let games = lines.count("games")?;
        let (n, wdl_text) = lines.field("wdl")?;
        let wdl: Vec<u64> = wdl_text
            .split(' ')
            .map(|w| w.parse::<u64>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad(n, "wdl", wdl_text))?;
        let wdl: [u64; 3] = wdl.try_into().map_err(|_| bad(n, "wdl", wdl_text))?;
        let mut params = Vec::new();
        for (i, line) in lines.0 {
            params.push(parse_entry(line).ok_or_else(|| bad(i + 1, "parameter", line))?);
        }
        Ok(State {
            settings: settings.to_string(),
            started,
            iteration,
            games,
            wdl,
            params,
        })
    }

    /// Refuses a run whose settings or parameter table differ from the state's, naming the
    /// first difference.
    pub fn check(&self, settings: &str, params: &[Param]) -> Result<(), String> {
        if self.settings != settings {
            let ours: Vec<&str> = settings.split(' ').collect();
            let theirs: Vec<&str> = self.settings.split(' ').collect();
            let differ = theirs
                .iter()
                .zip(&ours)
                .find(|(a, b)| a != b)
                .map(|(a, b)| format!("{a}, not {b}"))
                .unwrap_or_else(|| format!("'{}', not '{settings}'", self.settings));
            return Err(format!(
                "the state was made with other settings ({differ}): give the same settings, \
                 or --new-settings to continue from its values with these"
            ));
        }
        let table = State::new(settings, params).params;
        let shape = |e: &Entry| (e.name.clone(), e.min, e.max, e.c_end);
        if let Some((a, b)) = self
            .params
            .iter()
            .map(shape)
            .zip(table.iter().map(shape))
            .find(|(a, b)| a != b)
            .or_else(|| (self.params.len() != table.len()).then(Default::default))
        {
            return Err(format!(
                "the state's parameters differ from the engine's table ({a:?} against {b:?}): \
                 --new-settings continues with the table"
            ));
        }
        Ok(())
    }

    /// Takes new settings and the current parameter table, keeping the values of the
    /// parameters the state knows (clamped to their new range), and the counters.
    pub fn adopt(&mut self, settings: &str, params: &[Param]) {
        let old = std::mem::take(&mut self.params);
        self.settings = settings.to_string();
        self.params = entries(params, |p| {
            old.iter()
                .find(|e| e.name == p.name)
                .map_or(f64::from(p.default), |e| {
                    e.value.clamp(f64::from(p.min), f64::from(p.max))
                })
        });
    }
}

/// The error of line `n`.
fn bad(n: usize, what: &str, text: &str) -> String {
    format!("line {n}: bad {what} '{text}'")
}

/// The lines of a state file, read in their order.
struct Fields<'a, I: Iterator<Item = (usize, &'a str)>>(I);

impl<'a, I: Iterator<Item = (usize, &'a str)>> Fields<'a, I> {
    /// The next line, which must be `KEY REST`: (its number, REST).
    fn field(&mut self, key: &str) -> Result<(usize, &'a str), String> {
        let (i, line) = self
            .0
            .next()
            .ok_or_else(|| format!("ends before its '{key}' line"))?;
        let rest = line
            .strip_prefix(key)
            .and_then(|r| r.strip_prefix(' '))
            .ok_or_else(|| format!("line {}: expected '{key} ...', found '{line}'", i + 1))?;
        Ok((i + 1, rest))
    }

    /// The next line, which must be `KEY N`: N.
    fn count(&mut self, key: &str) -> Result<u64, String> {
        let (n, v) = self.field(key)?;
        v.parse::<u64>().map_err(|_| bad(n, key, v))
    }
}

/// `param NAME VALUE min=MIN max=MAX c_end=C`.
fn parse_entry(line: &str) -> Option<Entry> {
    let mut words = line.strip_prefix("param ")?.split(' ');
    let name = words.next()?.to_string();
    let value = words
        .next()?
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())?;
    let min = words.next()?.strip_prefix("min=")?.parse().ok()?;
    let max = words.next()?.strip_prefix("max=")?.parse().ok()?;
    let c_end = words.next()?.strip_prefix("c_end=")?.parse().ok()?;
    if words.next().is_some() || !(f64::from(min)..=f64::from(max)).contains(&value) {
        return None;
    }
    Some(Entry {
        name,
        value,
        min,
        max,
        c_end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pao::search::params::PARAMS;

    const SETTINGS: &str = "nodes=20000 iterations=100 a-ratio=0.1 r-end=0.002 seed=1";

    #[test]
    fn a_state_reads_back_exactly() {
        let mut s = State::new(SETTINGS, PARAMS);
        s.started = 9;
        s.iteration = 7;
        s.games = 14;
        s.wdl = [5, 4, 5];
        s.params[0].value = 121.123_456_789_012_35;
        s.params[1].value = 1.0 / 3.0 + 200.0;
        let text = s.to_text();
        assert_eq!(State::parse(&text), Ok(s.clone()));
        assert!(
            text.contains("\nparam FutilityMargin1 121.12345678901235 min=20 max=400 c_end=10\n")
        );
        assert!(text.starts_with(&format!("{HEADER}\nsettings {SETTINGS}\nstarted 9\n")));
        assert_eq!(text.lines().count(), 6 + PARAMS.len());
        assert_eq!(s.check(SETTINGS, PARAMS), Ok(()));
    }

    #[test]
    fn a_broken_file_is_refused_naming_the_line() {
        let text = State::new(SETTINGS, PARAMS).to_text();
        assert_eq!(
            State::parse(&text.replace("started 0", "started x")),
            Err("line 3: bad started 'x'".to_string())
        );
        assert_eq!(
            State::parse(&text.replace("wdl 0 0 0", "wdl 0 0")),
            Err("line 6: bad wdl '0 0'".to_string())
        );
        assert_eq!(
            State::parse(&text.replace("param RfpMargin 87 ", "param RfpMargin 900 ")),
            Err("line 10: bad parameter 'param RfpMargin 900 min=20 max=300 c_end=8'".to_string())
        );
        let cut = &text[..text.find("\niteration ").unwrap() + 1];
        assert_eq!(
            State::parse(cut),
            Err("ends before its 'iteration' line".to_string())
        );
        assert!(State::parse("settings x\n").is_err());
    }

    #[test]
    fn changed_settings_are_refused_unless_adopted() {
        let mut s = State::new(SETTINGS, PARAMS);
        s.params[3].value = 95.5;
        let other = SETTINGS.replace("nodes=20000", "nodes=10000");
        assert_eq!(
            s.check(&other, PARAMS),
            Err(
                "the state was made with other settings (nodes=20000, not nodes=10000): give \
                 the same settings, or --new-settings to continue from its values with these"
                    .to_string()
            )
        );
        let mut table = PARAMS.to_vec();
        table[2].c_end = 25.0;
        let err = s.check(SETTINGS, &table).expect_err("another c_end");
        assert!(err.contains("FutilityMargin3"), "{err}");
        table.pop();
        assert!(s.check(SETTINGS, &PARAMS[..PARAMS.len() - 1]).is_err());
        s.adopt(&other, &table);
        assert_eq!(s.check(&other, &table), Ok(()));
        assert_eq!(s.params[3].value, 95.5, "a known parameter keeps its value");
        assert_eq!(s.params.len(), PARAMS.len() - 1);
    }
}
