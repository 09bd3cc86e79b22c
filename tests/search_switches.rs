//! The `SearchSwitches` developer option: one binary, enhancements flipped for A/B tests.

mod common;

use common::Engine;
use pao::search::SearchConfig;

#[test]
fn switch_lists_parse_and_flip_fields() {
    let c = SearchConfig::FULL
        .with_switches(" +see -check_extension,iir ")
        .expect("valid list");
    assert_eq!(
        c,
        SearchConfig {
            see: true,
            check_extension: false,
            iir: true,
            ..SearchConfig::FULL
        }
    );
    assert_eq!(SearchConfig::FULL.with_switches(""), Ok(SearchConfig::FULL));
    assert_eq!(
        SearchConfig::FULL.with_switches("<empty>"),
        Ok(SearchConfig::FULL)
    );
    assert_eq!(
        SearchConfig::FULL.with_switches("see -bogus"),
        Err("unknown search switch 'bogus'".to_string())
    );
    // Switches that games rejected left the code with their names (docs/strength-log.md,
    // "Tried and rejected").
    for gone in ["qsearch_tt", "late_move_pruning", "corr_history"] {
        assert_eq!(
            SearchConfig::FULL.with_switches(gone),
            Err(format!("unknown search switch '{gone}'"))
        );
    }
}

#[test]
fn every_named_switch_turns_on_and_off() {
    let names: Vec<&str> = SearchConfig::switch_names().collect();
    assert!(names.len() >= 25, "{names:?}");
    for name in names {
        let on = SearchConfig::PLAIN.with_switches(name).expect("known name");
        assert_ne!(on, SearchConfig::PLAIN, "{name} changed nothing from PLAIN");
        let off = on.with_switches(&format!("-{name}")).expect("known name");
        assert_eq!(off, SearchConfig::PLAIN, "{name} did not turn off");
    }
}

/// The node count of `go depth 7` from the start position under `switches` (or the defaults).
fn nodes_at_depth_7(e: &mut Engine) -> u64 {
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go depth 7");
    let (_, lines) = e.expect_prefix("bestmove");
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let mut words = l.split_whitespace();
            words.find(|w| *w == "nodes")?;
            words.next()?.parse().ok()
        })
        .expect("an info line with nodes")
}

#[test]
fn the_option_changes_the_search_and_a_bad_list_changes_nothing() {
    let mut e = Engine::uci(1);
    e.send("setoption name OwnBook value false");
    let default = nodes_at_depth_7(&mut e);
    assert_eq!(nodes_at_depth_7(&mut e), default, "reproducible");

    e.send("setoption name SearchSwitches value -null_move,-lmr");
    let unpruned = nodes_at_depth_7(&mut e);
    assert!(unpruned > default, "{unpruned} <= {default}");

    // A list with an unknown name is refused whole: the previous list stays.
    e.send("setoption name SearchSwitches value -futility +bogus");
    e.expect_exact("info string error: unknown search switch 'bogus'");
    assert_eq!(nodes_at_depth_7(&mut e), unpruned);

    e.send("setoption name SearchSwitches value <empty>");
    assert_eq!(nodes_at_depth_7(&mut e), default);
}

/// UCCI's `pruning none` turns off every forward-pruning switch, the ones a developer turned
/// on by hand included: the search is the one with each of them off by name.
#[test]
fn pruning_none_turns_off_every_forward_pruning_switch() {
    let mut e = Engine::uci(1);
    e.send("setoption name OwnBook value false");
    let all_off = "-null_move,-nmp_eval_r,-lmr,-lmr_adjust,-futility,-rfp_improving,\
                   -razoring,-see,-iir,-qs_futility,-singular,-lmp,-history_pruning,-probcut";
    e.send(&format!("setoption name SearchSwitches value {all_off}"));
    let by_name = nodes_at_depth_7(&mut e);

    let mut e = Engine::ucci(1);
    e.send("setoption usebook false");
    e.send("setoption SearchSwitches razoring,qs_futility,singular,lmr_adjust");
    let pruned = nodes_at_depth_7(&mut e);
    e.send("setoption pruning none");
    let unpruned = nodes_at_depth_7(&mut e);
    assert_eq!(unpruned, by_name);
    assert!(unpruned > pruned, "{unpruned} <= {pruned}");
}
