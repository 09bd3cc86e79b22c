#![no_main]
//! Any FEN parses or fails cleanly; a parsed one round-trips and its moves are sane.

use libfuzzer_sys::fuzz_target;
use pao::board::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(mut pos) = Position::from_fen(&text) {
        let again = Position::from_fen(&pos.to_fen()).expect("round trip");
        assert_eq!(again.key(), pos.key());
        for m in pos.legal_moves().iter() {
            assert!(pos.is_pseudo_legal(*m));
        }
    }
});
