//! The embedded endgame bitbases: the same verdicts as tables generated here, every blob
//! sound, the evaluation's scores on drawn and won positions, and damaged blobs refused.

mod common;

use common::searching::searcher;
use pao::board::Position;
use pao::egtb::{build, Material};
use pao::eval::bitbase::{self, format, Registry, Wdl};
use pao::search::{Limits, SearchConfig};

fn material(name: &str) -> Material {
    Material::parse(name).expect("valid material")
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("valid FEN")
}

/// A drawn horse against an elephant (red to move), and a won one.
const KNKB_DRAW: &str = "9/9/4k4/9/2b6/9/9/9/9/2NK5 w - - 0 1";
const KNKB_WIN: &str = "9/3k5/8b/9/6N2/9/9/4K4/9/9 w - - 0 1";

#[test]
fn embedded_bitbases_agree_with_tables_generated_here_on_every_position() {
    let names = ["KNKB", "KPKA", "KPKB", "KNKAA"];
    let targets: Vec<Material> = names.iter().map(|n| material(n)).collect();
    let set = build::in_memory(&targets).expect("generates");
    for name in names {
        let m = material(name);
        let table = set.table(&m).expect("generated");
        let bb = bitbase::embedded().bitbase(&m).expect("embedded");
        let mut checked = 0u64;
        for i in 0..table.index().len() {
            let Some(wdl) = Wdl::of_code(table.code(i).expect("in memory")) else {
                continue;
            };
            assert_eq!(bb.wdl(i), Some(wdl), "{name} index {i}");
            checked += 1;
        }
        let legal: u64 = table
            .header()
            .counts
            .iter()
            .map(|c| c[..4].iter().sum::<u64>())
            .sum();
        assert_eq!(checked, legal, "{name}: every legal position compared");
    }
}

#[test]
fn every_embedded_blob_decodes() {
    let names: Vec<String> = bitbase::embedded()
        .materials()
        .iter()
        .map(|m| m.name())
        .collect();
    assert_eq!(names.len(), 85, "{names:?}");
    for name in &names {
        assert!(
            bitbase::embedded().bitbase(&material(name)).is_some(),
            "{name}"
        );
    }
}

/// Every position of the committed knowledge samples (five and six pieces, values from the
/// tables) whose material is embedded probes as its table's verdict.
#[test]
fn embedded_bitbases_agree_with_the_knowledge_samples() {
    let mut probed = 0;
    for file in ["endgame-knowledge.txt", "endgame-knowledge-6.txt"] {
        let path = format!("{}/tools/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the sample is committed");
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split('\t').collect();
            let (name, fen, value) = (fields[0], fields[1], fields[2]);
            if bitbase::embedded().bitbase(&material(name)).is_none() {
                continue;
            }
            let want = match value.split(' ').next() {
                Some("win") => Wdl::Win,
                Some("draw") => Wdl::Draw,
                Some("loss") => Wdl::Loss,
                other => panic!("{file}: a value that is no verdict: {other:?}"),
            };
            assert_eq!(bitbase::probe(&pos(fen)), Some(want), "{name} {fen}");
            probed += 1;
        }
    }
    assert_eq!(
        probed, 2359,
        "positions of embedded materials in the samples"
    );
}

#[test]
fn probes_see_through_colour_and_mirror() {
    let draw = pos(KNKB_DRAW);
    assert_eq!(bitbase::probe(&draw), Some(Wdl::Draw));
    assert_eq!(
        bitbase::probe(&draw.flipped().expect("flips")),
        Some(Wdl::Draw)
    );
    let mirrored = pos("9/9/4k4/9/6b2/9/9/9/9/5KN2 w - - 0 1");
    assert_eq!(bitbase::probe(&mirrored), Some(Wdl::Draw));
    let win = pos(KNKB_WIN);
    assert_eq!(bitbase::probe(&win), Some(Wdl::Win));
    assert_eq!(
        bitbase::probe(&win.flipped().expect("flips")),
        Some(Wdl::Win)
    );
    // The horse's side to move loses in 22 plies here (the sample's loss).
    assert_eq!(
        bitbase::probe(&pos("8N/9/5k2b/9/9/9/9/9/9/4K4 b - - 0 1")),
        Some(Wdl::Loss)
    );
    // Material no bitbase holds: the rook wins, but it is not embedded; nor the opening.
    assert_eq!(bitbase::probe(&pos("4k4/9/9/9/9/9/9/9/R8/3K5 w")), None);
    assert_eq!(bitbase::probe(&Position::startpos()), None);
}

#[test]
fn the_evaluation_scores_a_drawn_position_near_zero_and_a_won_one_as_won() {
    // The hand-written evaluation counts the horse far above the elephant in both: the draw
    // is pulled to the edge of the drawn band, the win kept as it is.
    let draw = pos(KNKB_DRAW);
    assert_eq!(pao::eval::evaluate(&draw), 404);
    assert_eq!(bitbase::apply(&draw, 404), 10);
    let win = pos(KNKB_WIN);
    assert_eq!(pao::eval::evaluate(&win), 466);
    assert_eq!(bitbase::apply(&win, 466), 466);
    // A soldier that wins against an advisor is worth little to the evaluation: it is lifted
    // into the won band (an eighth of the gap to 400 kept), and its loss mirrors it.
    let soldier = pos("5a3/9/5k3/4P4/9/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(pao::eval::evaluate(&soldier), 82);
    assert_eq!(bitbase::apply(&soldier, 82), 361);
    let flipped = soldier.flipped().expect("flips");
    assert_eq!(bitbase::probe(&flipped), Some(Wdl::Win));
    assert_eq!(bitbase::adjust(Wdl::Loss, -82), -361);
    // The search with the switch (the hand-written evaluation, depth 2): the drawn position
    // scores a draw, the won one what it scored without the switch.
    let off = SearchConfig {
        endgame_scale: false,
        endgame_bitbase: false,
        ..SearchConfig::FULL
    };
    let on = SearchConfig {
        endgame_scale: false,
        ..SearchConfig::FULL
    };
    let score = |config: SearchConfig, fen: &str| {
        let mut s = searcher(config);
        s.search(&pos(fen), &Limits::depth(2), &[], &mut |_| {})
            .score
    };
    assert_eq!(score(off, KNKB_DRAW), 442);
    assert_eq!(score(on, KNKB_DRAW), 10);
    assert_eq!(score(off, KNKB_WIN), 472);
    assert_eq!(score(on, KNKB_WIN), 472);
}

#[test]
fn damaged_blobs_are_refused_with_one_line_each() {
    let knkb = material("KNKB");
    let good = format::encode(
        &knkb,
        &build::in_memory(&[knkb])
            .expect("generates")
            .table(&knkb)
            .map(|t| {
                (0..t.index().len())
                    .map(|i| t.code(i).expect("in memory"))
                    .collect::<Vec<_>>()
            })
            .expect("generated"),
    )
    .expect("encodes");
    assert!(format::decode(&knkb, &good).is_ok());
    let mut flipped = good.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x40;
    let mut bad_version = good.clone();
    bad_version[8] = 9;
    let cases: [(&[u8], &str); 6] = [
        (&good[..20], "shorter than its header"),
        (b"PAOEGTB\0 and more", "not a bitbase (bad magic)"),
        (&bad_version, "format version 9, expected 1"),
        (&good[..good.len() - 10], "payload"),
        (&flipped, "payload"),
        (&good, "holds KNKB, expected KPKA"),
    ];
    for (blob, why) in cases {
        let expected = if why.starts_with("holds") {
            material("KPKA")
        } else {
            knkb
        };
        let err = format::decode(&expected, blob).err().expect("refused");
        assert!(err.starts_with(why), "{err}");
    }

    // In a set: the damaged material is reported once and not used; the others are.
    let leak = |b: Vec<u8>| -> &'static [u8] { Box::leak(b.into_boxed_slice()) };
    let registry = Registry::new(&[
        ("KNKB", leak(flipped)),
        ("KXK", leak(good.clone())),
        ("KPKA", leak(good)),
    ]);
    assert_eq!(
        registry.materials(),
        vec![material("KPKA"), material("KNKB")]
    );
    assert_eq!(registry.probe(&pos(KNKB_DRAW)), None);
    assert_eq!(registry.probe(&pos(KNKB_DRAW)), None);
    assert_eq!(
        registry.probe(&pos("5a3/9/5k3/4P4/9/9/9/9/9/3K5 w - - 0 1")),
        None
    );
    let errors = bitbase::take_errors();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors[0].starts_with("endgame bitbase KXK: bad material"),
        "{errors:?}"
    );
    assert!(
        errors[1].starts_with("endgame bitbase KNKB: payload"),
        "{errors:?}"
    );
    assert!(errors[1].ends_with("; not used"), "{errors:?}");
    assert_eq!(
        errors[2],
        "endgame bitbase KPKA: holds KNKB, expected KPKA; not used"
    );
}
