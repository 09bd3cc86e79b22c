use super::*;
use crate::datagen::record::write_header;

fn data_file(path: &Path, records: usize) {
    let mut bytes = Vec::new();
    write_header(&mut bytes).expect("header");
    bytes.resize(HEADER_SIZE + records * RECORD_SIZE, 0);
    std::fs::create_dir_all(path.parent().expect("a directory")).expect("dir");
    std::fs::write(path, bytes).expect("written");
}

/// A file that reads as a net with body checksum `checksum` for the lineage (its header).
fn accepted(path: &Path, checksum: u64) {
    let mut bytes = vec![0u8; 48];
    bytes[40..48].copy_from_slice(&checksum.to_le_bytes());
    std::fs::create_dir_all(path.parent().expect("a directory")).expect("dir");
    std::fs::write(path, bytes).expect("written");
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pao-gen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn own_data_first_then_the_others_in_order_until_full_and_broken_files_left_out() {
    // Once the window is full, only the files there are named (as left out for that): a
    // missing one beyond it, like the data of an ancestor that never was in this data
    // directory, is passed over without a note.
    let dir = temp("window");
    let (own, parent, grand, broken) = (
        dir.join("own.bin"),
        dir.join("parent.bin"),
        dir.join("grand.bin"),
        dir.join("broken.bin"),
    );
    data_file(&own, 10);
    data_file(&parent, 20);
    data_file(&grand, 30);
    std::fs::write(&broken, [b'x'; 64]).expect("written");
    let others = vec![
        broken.clone(),
        dir.join("gone.bin"),
        parent.clone(),
        grand.clone(),
        dir.join("gen-5e8c210218992a24/data.bin"),
    ];
    let mut notes = Vec::new();
    let w = choose(&own, &others, 25, 5, &mut |n| notes.push(n)).expect("window");
    let names: Vec<(PathBuf, u64)> = w.iter().map(|e| (e.path.clone(), e.positions)).collect();
    assert_eq!(names, vec![(own.clone(), 10), (parent.clone(), 20)]);
    assert_eq!(
        notes,
        [
            format!(
                "left out {}: not a Pao data file (bad magic)",
                broken.display()
            ),
            format!("left out {}: missing", dir.join("gone.bin").display()),
            format!("left out {}: the window is full", grand.display()),
        ]
    );
    let one = choose(&own, &others, 1000, 1, &mut |_| {}).expect("window");
    assert_eq!(one.len(), 2);
    assert_eq!(one[1].path, parent);
    assert_eq!(
        choose(&own, &others, 1000, 0, &mut |_| {})
            .expect("window")
            .len(),
        1
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_lineage_follows_accepted_nets_not_dates() {
    let root = temp("lineage");
    // Net 0xa played gen-a and gave 0xb; 0xb played gen-b and gave 0xc (in a retry); 0xc is
    // the current net. gen-d is a rejected sibling, written last.
    let gen = |c: u64| root.join(format!("gen-{c:016x}"));
    accepted(&gen(0xa).join("accepted.nnue"), 0xb);
    data_file(&gen(0xa).join("data.bin"), 3);
    accepted(&gen(0xb).join("attempt-2/accepted.nnue"), 0xc);
    data_file(&gen(0xb).join("data.bin"), 4);
    data_file(&gen(0xd).join("data.bin"), 5);
    assert_eq!(accepted_in(&root, 0xc), Some(gen(0xb).join("attempt-2")));
    assert_eq!(
        lineage(&root, 0xc, "pao-tools train"),
        vec![gen(0xb).join("data.bin"), gen(0xa).join("data.bin")]
    );
    // A net whose directory is gone is traced by its provenance.
    let provenance = "pao-tools train; init x; generation from g.nnue (body checksum \
                      000000000000000b): self-play";
    assert_eq!(
        lineage(&root, 0xe, provenance),
        vec![gen(0xb).join("data.bin"), gen(0xa).join("data.bin")]
    );
    assert_eq!(
        lineage(&root, 0xe, "pao-tools train"),
        Vec::<PathBuf>::new()
    );
    std::fs::remove_dir_all(&root).ok();
}

#[test]
fn a_recorded_window_is_read_back_or_refused_never_replaced() {
    let dir = temp("recorded");
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    data_file(&a, 3);
    data_file(&b, 4);
    let state = dir.join("state.txt");
    let text = format!("{}=3,{}=4", a.display(), b.display());
    let entries = recorded(&text, &state).expect("both there");
    assert_eq!(
        entries[1],
        Entry {
            path: b.clone(),
            positions: 4
        }
    );
    std::fs::remove_file(&b).expect("removed");
    let err = recorded(&text, &state).expect_err("one is gone");
    assert!(
        err.starts_with(&format!(
            "the training window recorded in {} cannot be read: {}: ",
            state.display(),
            b.display()
        )) && err.ends_with("give --retry to train a new attempt on a new window"),
        "{err}"
    );
    data_file(&b, 5);
    let err = recorded(&text, &state).expect_err("it grew");
    assert!(err.contains("it holds 5 positions, not 4"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
