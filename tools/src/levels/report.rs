//! The calibration's outcome as text: the markdown table of the levels' ratings, the
//! warnings where neighbouring levels do not rise, and the `CALIBRATION` array of
//! `src/skill/elo.rs`.

use super::fit::Fit;
use super::plan::{Player, FULL};

/// What the report needs besides the fit.
pub struct Context<'a> {
    /// The players in the fit's order.
    pub players: &'a [Player],
    /// Games each player played, in the same order.
    pub games: &'a [usize],
    /// The anchor's name.
    pub anchor_name: &'a str,
    /// Whether an anchor played (else the ratings are relative, and no array is given).
    pub anchored: bool,
    /// How the scale is anchored, one sentence.
    pub scale: String,
    /// A note on the fit (a prior that had to be added), if any.
    pub note: Option<String>,
}

/// The whole report: scale, table, warnings, array.
pub fn report(fit: &Fit, cx: &Context) -> String {
    let mut out = format!("{}\n", cx.scale);
    if let Some(note) = &cx.note {
        out.push_str(&format!("note: {note}\n"));
    }
    out.push('\n');
    out.push_str(&table(fit, cx));
    let warnings = warnings(fit, cx);
    if !warnings.is_empty() {
        out.push('\n');
        for w in &warnings {
            out.push_str(&format!("warning: {w}\n"));
        }
    }
    out.push('\n');
    out.push_str(&array(fit, cx));
    out
}

/// The markdown table: one row per player, levels ascending, then the anchor.
pub fn table(fit: &Fit, cx: &Context) -> String {
    let mut out = String::from("| level | rating | ± (95 %) | games |\n|---|---:|---:|---:|\n");
    for (i, p) in cx.players.iter().enumerate() {
        let r = fit.ratings[i];
        let who = match p {
            Player::Level(FULL) => format!("{FULL} (full strength)"),
            Player::Level(l) => l.to_string(),
            Player::Anchor => format!("{} (anchor)", cx.anchor_name),
        };
        let margin = if *p == Player::Anchor {
            "fixed".to_string()
        } else {
            format!("{:.0}", r.margin)
        };
        out.push_str(&format!(
            "| {who} | {:.0} | {margin} | {} |\n",
            r.elo, cx.games[i]
        ));
    }
    out
}

/// The levels in order with their index in the fit.
fn levels(cx: &Context) -> Vec<(u8, usize)> {
    cx.players
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            Player::Level(l) => Some((*l, i)),
            Player::Anchor => None,
        })
        .collect()
}

/// One line for each neighbouring pair of levels whose ratings do not rise.
pub fn warnings(fit: &Fit, cx: &Context) -> Vec<String> {
    let mut out = Vec::new();
    for pair in levels(cx).windows(2) {
        let ((l0, i0), (l1, i1)) = (pair[0], pair[1]);
        let rise = fit.ratings[i1].elo - fit.ratings[i0].elo;
        if rise > 0.0 {
            continue;
        }
        let margin = fit.diff_margin(i0, i1);
        let how = if rise + margin < 0.0 {
            "beyond its error bar"
        } else {
            "within its error bar"
        };
        out.push(format!(
            "level {l1} is not above level {l0}: {rise:+.0} ± {margin:.0}, {how}"
        ));
    }
    out
}

/// `CALIBRATION` for `src/skill/elo.rs`: the limited levels (below full strength) whose
/// ratings rise, each above the last one kept; a level left out is named in a comment.
pub fn array(fit: &Fit, cx: &Context) -> String {
    let mut kept: Vec<(u8, i32)> = Vec::new();
    let mut left_out = Vec::new();
    for (l, i) in levels(cx).into_iter().filter(|(l, _)| *l < FULL) {
        let elo = fit.ratings[i].elo.round() as i32;
        if kept.last().is_none_or(|&(_, last)| elo > last) {
            kept.push((l, elo));
        } else {
            left_out.push(l.to_string());
        }
    }
    let mut out = String::new();
    if !cx.anchored {
        out.push_str(
            "// no anchor: the ratings are relative, CALIBRATION needs the anchored scale\n",
        );
        return out;
    }
    if kept.len() < 2 {
        out.push_str("// CALIBRATION needs at least two limited levels whose ratings rise\n");
        return out;
    }
    if !left_out.is_empty() {
        out.push_str(&format!(
            "// left out, not above the level before: {}\n",
            left_out.join(", ")
        ));
    }
    out.push_str(&format!(
        "pub const CALIBRATION: [(f64, i32); {}] = [\n",
        kept.len()
    ));
    for (l, elo) in kept {
        out.push_str(&format!("    ({l}.0, {elo}),\n"));
    }
    out.push_str("];\n");
    out
}
