//! Option values as the protocols send them: booleans in the words GUIs use, numbers in a range.
//! The engine's options and the strength limit's both read them.

/// `true`, `on`, `yes`, `1` or their opposites, in any case.
pub fn parse_bool(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// A whole number in `min..=max`, or the one-line error that names the option.
pub fn parse_range(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| format!("option {name}: '{value}' is not a number in {min}..{max}"))
}
