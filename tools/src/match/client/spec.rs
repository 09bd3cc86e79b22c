//! Engine specifications from the command line: `name=X cmd=PATH arg=A proto=auto ...`.

use super::super::clock::{parse_seconds, parse_tc, Limit};
use pao::board::RankBase;

/// Which protocol to speak to an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtoChoice {
    /// UCCI.
    Ucci,
    /// UCI (xiangqi dialect).
    Uci,
    /// Try UCCI, then UCI.
    Auto,
}

/// How to start and configure one engine.
#[derive(Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name (unique in a match).
    pub name: String,
    /// Program to run.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Protocol choice.
    pub proto: ProtoChoice,
    /// Working directory, if not the current one.
    pub dir: Option<String>,
    /// Options sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Rank numbering override; by default 0-9, or 1-10 for UCI engines with `UCI_Variant`.
    pub rank_base: Option<RankBase>,
    /// The engine's own limit (`tc=`, `st=`, `depth=`, `nodes=`): time odds. `None` = the
    /// match-wide limit.
    pub limit: Option<Limit>,
}

/// Written as derived, except that `limit` appears only when the engine has one: a shard's
/// results file keeps a hash of this text among its settings, and files written before time
/// odds existed must still be continued.
impl std::fmt::Debug for EngineSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("EngineSpec");
        d.field("name", &self.name)
            .field("cmd", &self.cmd)
            .field("args", &self.args)
            .field("proto", &self.proto)
            .field("dir", &self.dir)
            .field("options", &self.options)
            .field("rank_base", &self.rank_base);
        if let Some(limit) = &self.limit {
            d.field("limit", limit);
        }
        d.finish()
    }
}

/// The keys that set an engine's own limit; one of them per engine.
const LIMIT_KEYS: [&str; 4] = ["tc", "st", "depth", "nodes"];

/// An engine's own limit from one of the `LIMIT_KEYS`.
fn parse_limit(key: &str, value: &str) -> Result<Limit, String> {
    let positive = |what: &str| -> Result<u64, String> {
        match value.parse::<u64>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!(
                "{key}={value}: {what} must be a positive whole number"
            )),
        }
    };
    match key {
        "tc" => parse_tc(value),
        "st" => match parse_seconds(value)? {
            0 => Err(format!("st={value} gives no time")),
            ms => Ok(Limit::MoveTime(ms)),
        },
        "depth" => {
            let d = positive("the depth")?;
            u32::try_from(d)
                .map(Limit::Depth)
                .map_err(|_| format!("depth={value} is too deep"))
        }
        _ => positive("the node count").map(Limit::Nodes),
    }
}

/// Builds a spec from `key=value` tokens; `each` tokens are applied first, so the engine's own
/// tokens override them.
pub fn parse_engine(each: &[String], tokens: &[String]) -> Result<EngineSpec, String> {
    let mut spec = EngineSpec {
        name: String::new(),
        cmd: String::new(),
        args: Vec::new(),
        proto: ProtoChoice::Auto,
        dir: None,
        options: Vec::new(),
        rank_base: None,
        limit: None,
    };
    // Which group (`--each` = 0, the engine's own = 1) set the limit, and with which key: a
    // second limit key in one group contradicts the first; the engine's own replaces `--each`'s.
    let mut limit_from: Option<(usize, &str)> = None;
    let groups = [(0, each), (1, tokens)];
    for (group, token) in groups
        .iter()
        .flat_map(|(g, t)| t.iter().map(move |t| (*g, t)))
    {
        let (key, value) = token
            .split_once('=')
            .ok_or_else(|| format!("engine setting '{token}' is not key=value"))?;
        match key {
            "name" => spec.name = value.to_string(),
            "cmd" => spec.cmd = value.to_string(),
            "arg" => spec.args.push(value.to_string()),
            "dir" => spec.dir = Some(value.to_string()),
            "proto" => {
                spec.proto = match value {
                    "ucci" => ProtoChoice::Ucci,
                    "uci" => ProtoChoice::Uci,
                    "auto" => ProtoChoice::Auto,
                    _ => return Err(format!("proto must be ucci, uci or auto, not '{value}'")),
                }
            }
            _ if LIMIT_KEYS.contains(&key) => {
                if let Some((g, earlier)) = limit_from.filter(|(g, _)| *g == group) {
                    let place = if g == 0 { "--each" } else { "one --engine" };
                    let keys = if earlier == key {
                        format!("{key}= given twice")
                    } else {
                        format!("{earlier}= and {key}= both given")
                    };
                    return Err(format!("{keys} in {place}: an engine plays by one limit"));
                }
                spec.limit = Some(parse_limit(key, value)?);
                limit_from = Some((group, key));
            }
            "rankbase" => {
                spec.rank_base = Some(match value {
                    "0" => RankBase::Zero,
                    "1" => RankBase::One,
                    _ => return Err(format!("rankbase must be 0 or 1, not '{value}'")),
                })
            }
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    // A later value for the same option replaces the earlier one.
                    spec.options.retain(|(n, _)| n != name);
                    spec.options.push((name.to_string(), value.to_string()));
                }
                _ => return Err(format!("unknown engine setting '{key}'")),
            },
        }
    }
    if spec.cmd.is_empty() {
        return Err("an engine needs cmd=PATH".to_string());
    }
    if spec.name.is_empty() {
        spec.name = std::path::Path::new(&spec.cmd)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| spec.cmd.clone());
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_all_keys() {
        let each = words("option.hashsize=16 proto=ucci");
        let s = parse_engine(
            &each,
            &words(
                "cmd=/bin/pao arg=-x arg=y option.hashsize=64 option.threads=2 rankbase=1 dir=/tmp",
            ),
        )
        .unwrap();
        assert_eq!(s.name, "pao");
        assert_eq!(s.args, vec!["-x", "y"]);
        assert_eq!(s.proto, ProtoChoice::Ucci);
        assert_eq!(s.dir.as_deref(), Some("/tmp"));
        assert_eq!(s.rank_base, Some(RankBase::One));
        assert_eq!(
            s.options,
            vec![
                ("hashsize".to_string(), "64".to_string()),
                ("threads".to_string(), "2".to_string())
            ]
        );
    }

    #[test]
    fn rejects_bad_settings() {
        assert!(parse_engine(&[], &words("name=x")).is_err());
        assert!(parse_engine(&[], &words("cmd=x proto=xboard")).is_err());
        assert!(parse_engine(&[], &words("cmd=x colour=red")).is_err());
        assert!(parse_engine(&[], &words("cmd=x rankbase=2")).is_err());
        assert!(parse_engine(&[], &words("cmd=x junk")).is_err());
    }

    #[test]
    fn the_debug_text_is_the_one_before_time_odds() {
        let mut s = parse_engine(&[], &words("name=a cmd=x option.Hash=16")).unwrap();
        assert_eq!(
            format!("{s:?}"),
            "EngineSpec { name: \"a\", cmd: \"x\", args: [], proto: Auto, dir: None, \
             options: [(\"Hash\", \"16\")], rank_base: None }"
        );
        s.limit = Some(Limit::Depth(3));
        assert!(format!("{s:?}").ends_with(", rank_base: None, limit: Depth(3) }"));
    }

    #[test]
    fn an_engine_s_own_limit() {
        let limit = |each: &str, own: &str| {
            parse_engine(&words(each), &words(&format!("cmd=x {own}"))).map(|s| s.limit)
        };
        assert_eq!(
            limit("", "tc=40/60+0.5"),
            Ok(Some(Limit::Clock {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 500
            }))
        );
        assert_eq!(limit("", "st=0.25"), Ok(Some(Limit::MoveTime(250))));
        assert_eq!(limit("", "depth=3"), Ok(Some(Limit::Depth(3))));
        assert_eq!(limit("", "nodes=5000"), Ok(Some(Limit::Nodes(5000))));
        assert_eq!(limit("", ""), Ok(None));
        // The engine's own limit replaces the one from --each, of whatever kind.
        assert_eq!(limit("depth=5", "nodes=7"), Ok(Some(Limit::Nodes(7))));
        assert_eq!(limit("depth=5", ""), Ok(Some(Limit::Depth(5))));
        for (each, own, message) in [
            ("", "tc=10 st=1", "tc= and st= both given in one --engine"),
            (
                "",
                "depth=3 nodes=9",
                "depth= and nodes= both given in one --engine",
            ),
            ("", "tc=10 tc=5", "tc= given twice in one --engine"),
            ("st=1 depth=2", "", "st= and depth= both given in --each"),
            ("", "tc=0+0", "time control '0+0' gives no time"),
            ("", "st=0", "st=0 gives no time"),
            ("", "st=x", "'x' is not a number of seconds"),
            (
                "",
                "depth=0",
                "depth=0: the depth must be a positive whole number",
            ),
            (
                "",
                "nodes=-5",
                "nodes=-5: the node count must be a positive whole number",
            ),
            ("", "depth=99999999999", "depth=99999999999 is too deep"),
        ] {
            let err = limit(each, own).expect_err(own);
            assert!(err.starts_with(message), "{each} | {own}: {err}");
        }
    }
}
