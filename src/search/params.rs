//! The search's numeric parameters, each declared once: name, default, range and SPSA step.
//!
//! In the normal build each one is a constant the compiler folds, exactly as a `const` would
//! be. Built with `--features tune`, the search reads each one from a relaxed atomic instead,
//! and each is an engine option (spin) that `setoption` changes at any time, even mid-search:
//! a search sees the old or the new value, never a torn one. `pao-tools tune` (SPSA) reads the
//! table below to know what to tune.

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

/// One tunable parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// The engine option's name (compared without case).
    pub name: &'static str,
    /// The value of the normal build.
    pub default: i32,
    /// Smallest value the option accepts.
    pub min: i32,
    /// Largest value the option accepts.
    pub max: i32,
    /// SPSA's perturbation at the final iteration ("c_end"): about the change one expects to
    /// matter, in the parameter's own units.
    pub c_end: f64,
    /// The search switch (`SearchConfig`) the parameter belongs to, if any: with it off the
    /// search never reads the parameter, and `pao-tools tune` holds it.
    pub switch: Option<&'static str>,
    /// What it is (its declaration's doc comment).
    pub doc: &'static str,
}

/// Declares the parameters: the table `PARAMS`, the run-time store, and one accessor each.
macro_rules! search_params {
    (@switch) => { None };
    (@switch $switch:literal) => { Some($switch) };
    ($(#[doc = $doc:literal] $accessor:ident: $name:literal = $default:literal,
        $min:literal..=$max:literal, c_end $c_end:literal $(, switch $switch:literal)?;)*) => {
        /// Every parameter, in declaration order.
        pub const PARAMS: &[Param] = &[$(Param {
            name: $name,
            default: $default,
            min: $min,
            max: $max,
            c_end: $c_end,
            switch: search_params!(@switch $($switch)?),
            doc: $doc,
        }),*];

        /// The positions of the parameters in `PARAMS` and `VALUES`.
        #[allow(non_camel_case_types, dead_code)]
        enum Index { $($accessor),* }

        /// The run-time values (read by the search only in a tune build).
        static VALUES: [AtomicI32; PARAMS.len()] = [$(AtomicI32::new($default)),*];

        $(
            #[doc = $doc]
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub(crate) fn $accessor() -> i32 {
                $default
            }

            #[doc = $doc]
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub(crate) fn $accessor() -> i32 {
                VALUES[Index::$accessor as usize].load(Relaxed)
            }
        )*
    };
}

search_params! {
    /// Futility margin at depth 1 (quiet moves that cannot lift the static score to alpha).
    futility_margin_1: "FutilityMargin1" = 122, 20..=400, c_end 10.0, switch "futility";
    /// Futility margin at depth 2.
    futility_margin_2: "FutilityMargin2" = 216, 40..=600, c_end 15.0, switch "futility";
    /// Futility margin at depth 3.
    futility_margin_3: "FutilityMargin3" = 338, 60..=800, c_end 20.0, switch "futility";
    /// Reverse futility margin per ply of depth.
    rfp_margin: "RfpMargin" = 87, 20..=300, c_end 8.0, switch "futility";
    /// Reverse futility works up to this depth.
    rfp_depth: "RfpDepth" = 6, 2..=12, c_end 0.5, switch "futility";
    /// SEE pruning works up to this depth.
    see_prune_depth: "SeePruneDepth" = 5, 1..=10, c_end 0.5, switch "see";
    /// Captures losing more than this times depth by static exchange are skipped.
    see_capture_margin: "SeeCaptureMargin" = 103, 0..=300, c_end 10.0, switch "see";
    /// Quiet moves losing more than this times depth squared are skipped.
    see_quiet_margin: "SeeQuietMargin" = 24, 0..=100, c_end 3.0, switch "see";
    /// Razoring works up to this depth.
    razor_depth: "RazorDepth" = 2, 1..=5, c_end 0.5, switch "razoring";
    /// Razoring's margin below alpha per ply of depth.
    razor_margin: "RazorMargin" = 250, 50..=800, c_end 20.0, switch "razoring";
    /// Null move's reduction: this many plies ...
    nmp_base: "NmpBase" = 2, 1..=6, c_end 0.5, switch "null_move";
    /// ... plus one per this many plies of depth ...
    nmp_depth_divisor: "NmpDepthDivisor" = 4, 2..=8, c_end 0.5, switch "null_move";
    /// ... plus one per this much evaluation above beta (at most 3).
    nmp_eval_divisor: "NmpEvalDivisor" = 200, 50..=600, c_end 15.0, switch "nmp_eval_r";
    /// Singular extensions from this depth.
    singular_depth: "SingularDepth" = 7, 4..=12, c_end 0.5, switch "singular";
    /// Singular margin below the stored score per ply of depth.
    singular_margin: "SingularMargin" = 2, 1..=8, c_end 0.5, switch "singular";
    /// Late move pruning up to this depth.
    lmp_depth: "LmpDepth" = 8, 2..=16, c_end 0.5, switch "lmp";
    /// Late move pruning after (LmpBase + depth^2) / 2 moves (twice as many when improving).
    lmp_base: "LmpBase" = 4, 0..=12, c_end 1.0, switch "lmp";
    /// History pruning up to this depth.
    history_prune_depth: "HistoryPruneDepth" = 4, 1..=8, c_end 0.5, switch "history_pruning";
    /// History pruning of quiet moves whose history is below -margin x depth.
    history_prune_margin: "HistoryPruneMargin" = 64, 0..=1024, c_end 8.0, switch "history_pruning";
    /// Internal iterative reduction from this depth.
    iir_depth: "IirDepth" = 4, 2..=10, c_end 0.5, switch "iir";
    /// The LMR table's constant term, in hundredths of a ply.
    lmr_base: "LmrBase" = 51, 0..=200, c_end 5.0, switch "lmr";
    /// The LMR table's divisor of ln(depth) x ln(move number), in hundredths.
    lmr_divisor: "LmrDivisor" = 211, 100..=400, c_end 10.0, switch "lmr";
    /// History per ply of LMR adjustment (history spans about ±16384).
    lmr_history_divisor: "LmrHistoryDivisor" = 8163, 1024..=32768, c_end 500.0, switch "lmr_adjust";
    /// A cutoff's history bonus: min(depth^2, HistoryBonusMax) x this.
    history_bonus_mul: "HistoryBonusMul" = 4, 1..=16, c_end 0.5;
    /// The cap on depth^2 in the history bonus.
    history_bonus_max: "HistoryBonusMax" = 405, 64..=1600, c_end 30.0;
    /// Delta pruning's margin above the victim's value in quiescence.
    delta_margin: "DeltaMargin" = 150, 0..=500, c_end 12.0, switch "qs_futility";
    /// The first aspiration window's half-width.
    aspiration_delta: "AspirationDelta" = 29, 5..=150, c_end 3.0, switch "aspiration";
    /// Centipawns added to the network's evaluation for the side to move.
    nnue_tempo: "NnueTempo" = 8, -50..=50, c_end 2.0;
}

/// The index in `PARAMS` of the parameter called `key` (any case).
fn find(key: &str) -> Option<usize> {
    PARAMS.iter().position(|p| p.name.eq_ignore_ascii_case(key))
}

/// The current value of a parameter (the default in a normal build, where nothing sets them).
pub fn value(name: &str) -> Option<i32> {
    find(name).map(|i| VALUES[i].load(Relaxed))
}

/// Sets the parameter whose name, lower case, is `key` (`name` as given, for the error);
/// `None` when `key` names no parameter. Only a tune build's search reads the value.
pub fn set(key: &str, name: &str, value: &str) -> Option<Result<(), String>> {
    let i = find(key)?;
    let p = &PARAMS[i];
    Some(match value.trim().parse::<i32>() {
        Ok(v) if (p.min..=p.max).contains(&v) => {
            VALUES[i].store(v, Relaxed);
            Ok(())
        }
        _ => Err(format!(
            "option {name}: '{value}' is not a number in {}..{}",
            p.min, p.max
        )),
    })
}

/// The `option` lines of the UCCI handshake (current values as defaults).
pub fn ucci_lines() -> Vec<String> {
    lines(|p, v| {
        format!(
            "option {} type spin min {} max {} default {v}",
            p.name.to_ascii_lowercase(),
            p.min,
            p.max
        )
    })
}

/// The `option name ...` lines of the UCI handshake.
pub fn uci_lines() -> Vec<String> {
    lines(|p, v| {
        format!(
            "option name {} type spin default {v} min {} max {}",
            p.name, p.min, p.max
        )
    })
}

/// The options offered to a CECP GUI.
pub fn cecp_lines() -> Vec<String> {
    lines(|p, v| format!("{} -spin {v} {} {}", p.name, p.min, p.max))
}

fn lines(line: impl Fn(&Param, i32) -> String) -> Vec<String> {
    PARAMS
        .iter()
        .zip(&VALUES)
        .map(|(p, v)| line(p, v.load(Relaxed)))
        .collect()
}

/// One entry of the LMR table: `base + ln(depth) x ln(move) / divisor` in plies, truncated
/// (`base` and `divisor` in hundredths). Both builds compute it this way, so the defaults give
/// the same table.
#[inline]
pub(crate) fn lmr_entry(depth: usize, move_number: usize, base: i32, divisor: i32) -> u8 {
    let (ld, lm) = ((depth.max(1) as f32).ln(), (move_number.max(1) as f32).ln());
    (base as f32 / 100.0 + ld * lm / (divisor as f32 / 100.0)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_well_formed() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(p.c_end > 0.0 && p.c_end < f64::from(p.max - p.min), "{p:?}");
            assert!(p.name.chars().all(|c| c.is_ascii_alphanumeric()), "{p:?}");
            assert_eq!(find(&p.name.to_ascii_lowercase()), Some(i), "{p:?}");
        }
        // A parameter's switch is one the search knows, and on in the engine as it plays
        // unless the switch is still in test.
        for p in PARAMS {
            if let Some(switch) = p.switch {
                assert!(
                    crate::search::SearchConfig::FULL.is_on(switch).is_some(),
                    "{p:?}"
                );
            }
        }
        // Divisors never reach zero.
        for name in [
            "NmpDepthDivisor",
            "NmpEvalDivisor",
            "LmrDivisor",
            "LmrHistoryDivisor",
        ] {
            assert!(PARAMS[find(name).unwrap()].min >= 1, "{name}");
        }
    }

    #[test]
    fn the_accessors_give_the_table_s_defaults() {
        assert_eq!(rfp_margin(), 87);
        assert_eq!(futility_margin_3(), 338);
        assert_eq!(aspiration_delta(), 29);
        assert_eq!(lmr_history_divisor(), 8163);
        assert_eq!(value("razormargin"), Some(250));
        assert_eq!(value("nosuch"), None);
    }

    #[test]
    fn the_lmr_entry_of_the_defaults_is_the_classic_table() {
        for d in 0..64 {
            for m in 0..64 {
                let (ld, lm) = ((d.max(1) as f32).ln(), (m.max(1) as f32).ln());
                assert_eq!(lmr_entry(d, m, 50, 220), (0.5 + ld * lm / 2.2) as u8);
            }
        }
        assert_eq!(lmr_entry(63, 63, 50, 220), 8);
    }

    /// Sets SeeQuietMargin to 30 for a moment and back: in a `tune` build a search in a test
    /// beside it may see that value (no unit test compares the node counts of real searches).
    #[test]
    fn setting_checks_the_range_and_names_the_option() {
        assert_eq!(set("nosuch", "NoSuch", "1"), None);
        assert_eq!(
            set("seequietmargin", "SeeQuietMargin", "101"),
            Some(Err(
                "option SeeQuietMargin: '101' is not a number in 0..100".to_string()
            ))
        );
        assert_eq!(
            set("seequietmargin", "SeeQuietMargin", "x"),
            Some(Err(
                "option SeeQuietMargin: 'x' is not a number in 0..100".to_string()
            ))
        );
        assert_eq!(value("SeeQuietMargin"), Some(24));
        assert_eq!(
            set("seequietmargin", "SeeQuietMargin", " 30 "),
            Some(Ok(()))
        );
        assert_eq!(value("SeeQuietMargin"), Some(30));
        #[cfg(feature = "tune")]
        assert_eq!(see_quiet_margin(), 30);
        #[cfg(not(feature = "tune"))]
        assert_eq!(see_quiet_margin(), 24);
        assert_eq!(set("seequietmargin", "SeeQuietMargin", "24"), Some(Ok(())));
    }

    /// docs/tuning.md lists the parameters as this table, between its two markers.
    #[test]
    fn the_handbook_lists_the_parameters_as_they_are() {
        let mut table = String::from(
            "| option | default | min | max | c_end | switch | what |\n\
             |---|---:|---:|---:|---:|---|---|\n",
        );
        for p in PARAMS {
            table.push_str(&format!(
                "| `{}` | {} | {} | {} | {} | {} | {} |\n",
                p.name,
                p.default,
                p.min,
                p.max,
                p.c_end,
                p.switch.map_or("—".to_string(), |s| format!("`{s}`")),
                p.doc.trim()
            ));
        }
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tuning.md");
        let text = std::fs::read_to_string(path).expect("docs/tuning.md");
        let start = "<!-- parameters: generated from src/search/params.rs -->\n";
        let listed = text
            .split_once(start)
            .and_then(|(_, rest)| rest.split_once("<!-- end of parameters -->"))
            .map(|(t, _)| t)
            .expect("the markers in docs/tuning.md");
        assert!(listed == table, "docs/tuning.md should list:\n{table}");
    }

    #[test]
    fn the_option_lines() {
        assert_eq!(ucci_lines().len(), PARAMS.len());
        assert_eq!(
            ucci_lines()[0],
            "option futilitymargin1 type spin min 20 max 400 default 122"
        );
        assert_eq!(
            uci_lines()[3],
            "option name RfpMargin type spin default 87 min 20 max 300"
        );
        assert_eq!(cecp_lines()[26], "AspirationDelta -spin 29 5 150");
    }
}
