//! Engine specifications from the command line: `name=X cmd=PATH arg=A proto=auto ...`.

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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    };
    for token in each.iter().chain(tokens) {
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
}
