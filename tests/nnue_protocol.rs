//! The network through the protocols: `EvalFile`/`evalfile` loads a net file, `UseNNUE`/
//! `usennue` switches it on; a missing, truncated, corrupt or wrong-version file gets one
//! error line, the previous net stays in use, and `go` still answers.

mod common;
use common::{last_line, random_net, Engine};
use pao::eval::nnue::Activation;
use std::path::PathBuf;

/// Writes the good net and the bad files into a fresh directory; returns their paths.
fn net_files(tag: &str) -> (PathBuf, Vec<(PathBuf, String)>) {
    let dir = std::env::temp_dir().join(format!("pao-nnue-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bytes = random_net(32, Activation::SquaredClippedRelu, 11).to_bytes();
    let good = dir.join("good.nnue");
    std::fs::write(&good, &bytes).expect("write");
    let mut bad = Vec::new();
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("write");
    bad.push((
        truncated.clone(),
        format!(
            "{}: net file is {} bytes, its header says {}",
            truncated.display(),
            bytes.len() / 2,
            bytes.len()
        ),
    ));
    let corrupt = dir.join("corrupt.nnue");
    let mut c = bytes.clone();
    let at = c.len() - 100;
    c[at] ^= 0x55;
    std::fs::write(&corrupt, &c).expect("write");
    bad.push((
        corrupt.clone(),
        format!(
            "{}: net file checksum mismatch (corrupt file)",
            corrupt.display()
        ),
    ));
    let version = dir.join("version.nnue");
    let mut v = bytes.clone();
    v[8] = 4;
    std::fs::write(&version, &v).expect("write");
    bad.push((
        version.clone(),
        format!(
            "{}: net file version 4 is not supported (this build reads versions 1 to 3)",
            version.display()
        ),
    ));
    let missing = dir.join("missing.nnue");
    bad.push((
        missing.clone(),
        format!(
            "{}: No such file or directory (os error 2)",
            missing.display()
        ),
    ));
    (good, bad)
}

/// The last `info depth 4` line's score and nodes after a fresh game: what the evaluation
/// in use decides (one thread, fixed depth: reproducible).
fn signature(e: &mut Engine, newgame: &str) -> String {
    e.send(newgame);
    e.send("position startpos moves h2e2");
    e.send("go depth 4");
    let (_, info) = e.expect_prefix("bestmove");
    let line = last_line(&info, "info depth 4 ");
    let words: Vec<&str> = line.split_whitespace().collect();
    let field = |name: &str| {
        let i = words.iter().position(|w| *w == name).expect(name);
        words[i + 1..i + 3].join(" ")
    };
    format!("{} {}", field("score"), field("nodes"))
}

fn check_dialect(e: &mut Engine, set: &dyn Fn(&str, &str) -> String, newgame: &str, tag: &str) {
    let initial = signature(e, newgame);
    e.send(&set("UseNNUE", "false"));
    let hand_written = signature(e, newgame);
    match pao::eval::nnue::embedded() {
        // No net is embedded in this build: switching the network on alone is refused.
        None => {
            assert_eq!(initial, hand_written);
            e.send(&set("UseNNUE", "true"));
            e.expect_exact(
                "info string error: no network: this build embeds none; set EvalFile first",
            );
            assert_eq!(signature(e, newgame), hand_written);
        }
        // The embedded net: the default when the build says so, and back with UseNNUE.
        Some(_) => {
            if pao::eval::nnue::USE_BY_DEFAULT {
                assert_ne!(initial, hand_written, "the embedded net is the default");
            } else {
                assert_eq!(initial, hand_written);
            }
            e.send(&set("UseNNUE", "true"));
            let embedded = signature(e, newgame);
            assert_ne!(
                embedded, hand_written,
                "UseNNUE brings the embedded net back"
            );
            if pao::eval::nnue::USE_BY_DEFAULT {
                assert_eq!(embedded, initial);
            }
        }
    }
    let (good, bad) = net_files(tag);
    e.send(&set("EvalFile", &good.display().to_string()));
    e.send(&set("UseNNUE", "true"));
    e.send("isready");
    e.expect_exact("readyok");
    let with_net = signature(e, newgame);
    assert_ne!(with_net, hand_written, "the network changes the search");
    // `eval` ends with the network's output, equal to the library's evaluation from scratch.
    let net = std::sync::Arc::new(random_net(32, Activation::SquaredClippedRelu, 11));
    let mut pos = pao::board::Position::startpos();
    let m = pos
        .parse_legal_move("h2e2", pao::board::RankBase::Zero)
        .expect("legal");
    pos.make_move(m);
    let raw = pao::eval::nnue::evaluate_scratch(&net, &pos);
    let tempo = pao::search::params::value("NnueTempo").expect("a search parameter");
    let scaled = pao::eval::scale_network(&pos, raw + tempo);
    e.send("eval");
    let (line, _) = e.expect_prefix("eval network");
    assert_eq!(
        line,
        format!(
            "eval network {scaled} (side to move; raw {raw}; tempo {tempo}; hidden 32; in use)"
        )
    );
    for (path, message) in bad {
        e.send(&set("EvalFile", &path.display().to_string()));
        e.expect_exact(&format!("info string error: {message}"));
        assert_eq!(signature(e, newgame), with_net, "the previous net stays");
    }
    e.send(&set("UseNNUE", "false"));
    assert_eq!(signature(e, newgame), hand_written);
}

#[test]
fn uci_evalfile_and_usennue() {
    let mut e = Engine::uci(1);
    let set = |name: &str, value: &str| format!("setoption name {name} value {value}");
    check_dialect(&mut e, &set, "ucinewgame", "uci");
}

#[test]
fn ucci_evalfile_and_usennue() {
    let mut e = Engine::ucci(1);
    let set = |name: &str, value: &str| format!("setoption {} {value}", name.to_lowercase());
    check_dialect(&mut e, &set, "setoption newgame", "ucci");
}

/// UCCI `go depth 0` answers the quiescence value with the evaluation in use: in a position
/// without a capture it is the static value, the network's with `usennue true` (plus the
/// search's `NnueTempo` for the side to move), through the endgame scales the engine applies
/// by default (this random net favours the bare general, which the tables say cannot win: its
/// score is divided by 16).
#[test]
fn ucci_go_depth_zero_uses_the_network_in_use() {
    let mut e = Engine::ucci(1);
    let (good, _) = net_files("depth0");
    e.send(&format!("setoption evalfile {}", good.display()));
    // Red's rook and advisor against a bare general: no capture for either side.
    let fen = "3k5/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1";
    let net = std::sync::Arc::new(random_net(32, Activation::SquaredClippedRelu, 11));
    let pos = pao::board::Position::from_fen(fen).expect("fen");
    let tempo = pao::search::params::value("NnueTempo").expect("a search parameter");
    let raw = pao::eval::nnue::evaluate_scratch(&net, &pos);
    assert_eq!(raw, -724);
    let network = pao::eval::scale_network(&pos, raw + tempo);
    let hand_written = pao::eval::evaluate(&pos);
    assert_ne!(
        network, hand_written,
        "the two evaluations must differ here"
    );
    let scaled = |v: i32| pao::eval::endgame::scale(&pos, v);
    // The net says -724 (-45.25 after the division by 16); the tempo moves it to -716.
    assert_eq!((tempo, network, scaled(network)), (8, -44, -2));
    assert_eq!(scaled(hand_written), hand_written);
    for (use_nnue, expected) in [("true", scaled(network)), ("false", hand_written)] {
        e.send(&format!("setoption usennue {use_nnue}"));
        e.send(&format!("position fen {fen}"));
        e.send("go depth 0");
        e.expect_exact(&format!("info depth 0 score {expected}"));
        e.expect_exact("nobestmove");
    }
}
