//! `pao-tools judge` as a user runs it.

mod support;

/// Runs `pao-tools judge ARGS`; stdout and stderr trimmed.
fn judge(args: &[&str]) -> (i32, String, String) {
    let (code, out, err) = support::tools(&[&["judge"], args].concat());
    (code, out.trim().to_string(), err.trim().to_string())
}

#[test]
fn rulings() {
    let perpetual =
        "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1 f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2";
    let args: Vec<&str> = perpetual.split(' ').collect();
    assert_eq!(
        judge(&args),
        (0, "red wins (perpetual check)".into(), String::new())
    );
    assert_eq!(
        judge(&["startpos", "h2e2", "h9g7"]),
        (0, "ongoing".into(), String::new())
    );
    assert_eq!(
        judge(&["4k4/3R5/9/9/9/9/9/9/9/5K3", "b"]),
        (0, "red wins (stalemate)".into(), String::new())
    );
    assert_eq!(
        judge(&["3aka3/9/9/9/4C4/1C7/9/9/9/3K5", "w", "b4e4"]),
        (0, "red wins (checkmate)".into(), String::new())
    );
    assert_eq!(
        judge(&["4k4/4a4/9/9/9/9/9/9/4A4/3K5", "w"]).1,
        "draw (insufficient material)"
    );
}

#[test]
fn bad_input_is_one_error_line() {
    // Bad input is a bad argument: clap's error format, status 2, nothing on stdout.
    let (code, out, err) = judge(&["startpos", "h2e2", "h2e2"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err.lines().next(),
        Some("error: move 2 (h2e2): illegal move 'h2e2'"),
        "{err}"
    );
    let (code, _, err) = judge(&["rnbakabnr/9", "w"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: ") && err.contains("FEN"), "{err}");
    let (code, _, err) = judge(&[]);
    assert_eq!(code, 2);
    assert!(err.contains("required"), "{err}");
}
