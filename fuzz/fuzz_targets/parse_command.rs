#![no_main]
//! Any line, in either dialect and rank base, parses or fails cleanly.

use libfuzzer_sys::fuzz_target;
use pao::board::RankBase;
use pao::protocol::{parse_command, Dialect, ParseContext};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    for dialect in [None, Some(Dialect::Ucci), Some(Dialect::Uci)] {
        for rank_base in [RankBase::Zero, RankBase::One] {
            let ctx = ParseContext { dialect, rank_base, usemillisec: data.len() % 2 == 0 };
            let _ = parse_command(&line, &ctx);
        }
    }
});
