//! The real page in a real browser: headless Chromium (the Debian package) driven through
//! chromedriver loads the analysis page with its token, reloads it without the token (the
//! server's cookie carries it), plays a move by clicking the board,
//! checks that no piece is drawn as a box (letters where the browser has no Chinese font,
//! proven on screenshots), sets three lines with win/draw/loss, starts the analysis, sees
//! lines appear, stops it, and saves a screenshot (to $PAO_SERVE_SCREENSHOT if set, else under
//! the target directory).
//! `.ci/run` installs chromium and chromium-driver with apt where it can; without them this
//! test says it was skipped and passes, except under `CI=true` (which `.ci/run` sets), where a
//! missing program fails it.

use crate::common::Server;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const TOKEN: &str = "browser-test-token-0123456789";

fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([
            PathBuf::from("/usr/bin"),
            PathBuf::from("/usr/lib/chromium"),
        ])
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .find(|p| p.is_file())
}

/// chromedriver on a free loopback port; killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    fn start(path: &PathBuf) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let child = Command::new(path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver { child, port }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn the_page_plays_a_move_and_shows_an_analysis() {
    let _gate = crate::common::shared().await;
    let (Some(chromium), Some(chromedriver)) = (
        find(&["chromium", "chromium-browser"]),
        find(&["chromedriver"]),
    ) else {
        let why = "chromium or chromedriver is not installed (.ci/run installs them with apt)";
        // In CI a skip would hide a failed install: the test fails instead.
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true: {why}"
        );
        println!("skipped: {why}");
        return;
    };
    let server = Server::start(&["--token", TOKEN]);
    let http = server.http();
    let driver = Driver::start(&chromedriver);
    let profile = std::env::temp_dir().join(format!("pao-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_string(),
        json!({
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--window-size=1280,1000",
                format!("--user-data-dir={}", profile.display()),
            ],
        }),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a browser");
    let wait = || client.wait().at_most(Duration::from_secs(30));

    client
        .goto(&format!("{}/?token={TOKEN}", server.base))
        .await
        .expect("the page");
    wait()
        .for_element(Locator::XPath("//span[@id='conn' and text()='connected']"))
        .await
        .expect("the page connects its WebSocket");
    let url = client.current_url().await.expect("url");
    assert!(
        !url.as_str().contains("token"),
        "the token left the address bar: {url}"
    );
    // A reload, at the address without the token: the cookie carries it.
    client.refresh().await.expect("a reload");
    wait()
        .for_element(Locator::XPath("//span[@id='conn' and text()='connected']"))
        .await
        .expect("the reloaded page connects its WebSocket");

    // A move by clicking the board: the cannon from h2 to e2. The board is drawn from the
    // first state the socket brings, which may come after "connected" shows on a busy machine.
    let square = |sq: &'static str| format!("rect[data-sq='{sq}']");
    wait()
        .for_element(Locator::Css(&square("h2")))
        .await
        .expect("h2")
        .click()
        .await
        .expect("click h2");
    wait()
        .for_element(Locator::Css("g.piece.sel[data-piece='h2']"))
        .await
        .expect("the cannon is selected");
    client
        .find(Locator::Css(&square("e2")))
        .await
        .expect("e2")
        .click()
        .await
        .expect("click e2");
    wait()
        .for_element(Locator::XPath(
            "//span[@id='tomove' and text()='black to move']",
        ))
        .await
        .expect("black to move");
    assert_eq!(http.state().await["position"]["moves"], json!(["h2e2"]));
    wait()
        .for_element(Locator::Css("g.piece[data-piece='e2']"))
        .await
        .expect("the cannon on e2");
    // The moves played, as a numbered list beside the board.
    wait()
        .for_element(Locator::XPath("//ol[@id='moves']/li[text()='1. h2e2']"))
        .await
        .expect("the move in the list");

    // The pieces: Chinese characters where a font has them, else letters (never boxes); the
    // board flipped and back.
    let piece_text = |sq: &'static str| {
        let c = &client;
        async move {
            c.find(Locator::Css(&format!("g.piece[data-piece='{sq}'] text")))
                .await
                .expect("a piece")
                .text()
                .await
                .expect("text")
        }
    };
    let glyphs = client
        .execute("return document.documentElement.dataset.glyphs;", vec![])
        .await
        .expect("the page's font check");
    if let Some(has) = machine_has_chinese_font() {
        let expected = if has { "present" } else { "missing" };
        assert_eq!(glyphs, json!(expected), "the page's font check");
    }
    let steps = if glyphs == json!("missing") {
        pieces_are_not_boxes(&client).await;
        assert_eq!(piece_text("e2").await, "C");
        vec![("flip", "C", "540"), ("flip", "C", "60")]
    } else {
        assert_eq!(piece_text("e2").await, "炮");
        vec![
            ("letters", "C", "60"),
            ("letters", "炮", "60"),
            ("flip", "炮", "540"),
            ("flip", "炮", "60"),
        ]
    };
    for (button, e2, a0_x) in steps {
        client
            .find(Locator::Id(button))
            .await
            .expect("button")
            .click()
            .await
            .expect("click");
        assert_eq!(piece_text("e2").await, e2, "after {button}");
        let x = client
            .find(Locator::Css("g.piece[data-piece='a0'] circle"))
            .await
            .expect("the rook on a0")
            .attr("cx")
            .await
            .expect("cx");
        assert_eq!(x.as_deref(), Some(a0_x), "after {button}");
    }

    // Three lines with win/draw/loss, set in the page.
    let multipv = client
        .find(Locator::Id("o-multipv"))
        .await
        .expect("multipv");
    multipv.clear().await.expect("clear");
    multipv.send_keys("3").await.expect("type");
    client
        .find(Locator::Id("o-wdl"))
        .await
        .expect("wdl")
        .click()
        .await
        .expect("tick");
    client
        .find(Locator::Id("apply"))
        .await
        .expect("apply")
        .click()
        .await
        .expect("click");
    let deadline = Instant::now() + Duration::from_secs(20);
    while http.state().await["options"]["multipv"] != 3 {
        assert!(
            Instant::now() < deadline,
            "the options did not reach the server"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    client
        .find(Locator::Id("go"))
        .await
        .expect("go")
        .click()
        .await
        .expect("click go");
    wait()
        .for_element(Locator::Css("#lines tbody tr:nth-child(3) td.pv"))
        .await
        .expect("three lines appear");
    // Let it think a little for the picture.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let depth = client
            .find(Locator::Id("f-depth"))
            .await
            .expect("depth")
            .text()
            .await
            .expect("text");
        if depth.parse::<u32>().unwrap_or(0) >= 10 || Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // The table is redrawn as lines arrive: a cell found just before a redraw is gone when
    // its text is asked for, so the cell is found again.
    let mut first_pv = None;
    for _ in 0..20 {
        let cell = client
            .find(Locator::Css("#lines tbody tr td.pv"))
            .await
            .expect("a line");
        if let Ok(text) = cell.text().await {
            first_pv = Some(text);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let first_pv = first_pv.expect("the first line's text");
    let first_move = first_pv.split_whitespace().next().unwrap_or("").to_string();
    let legal = http.state().await["position"]["legal"].clone();
    assert!(
        legal
            .as_array()
            .is_some_and(|l| l.iter().any(|m| m == first_move.as_str())),
        "'{first_pv}' does not start with a legal move"
    );
    let png = client.screenshot().await.expect("a screenshot");
    client
        .find(Locator::Id("stop"))
        .await
        .expect("stop")
        .click()
        .await
        .expect("click stop");
    wait()
        .for_element(Locator::XPath(
            "//span[@id='searching' and starts-with(text(), 'best move ')]",
        ))
        .await
        .expect("the best move is shown");
    assert_eq!(http.state().await["searching"], false);

    // A game starts at level 5 unless the player chose another.
    let level = "return document.getElementById('g-level').value;";
    assert_eq!(
        client.execute(level, vec![]).await.expect("level"),
        json!("5")
    );
    // A game against level 3, chosen in the page: the level goes with the game's request, and
    // the browser keeps it for the next visit. The game starts from the board, black to move
    // after h2e2, with the person playing red: Pao's first move is named in the list.
    client
        .find(Locator::Css("#g-level option[value='3']"))
        .await
        .expect("level 3 in the selector")
        .click()
        .await
        .expect("choose level 3");
    client
        .find(Locator::Id("play"))
        .await
        .expect("play")
        .click()
        .await
        .expect("click play");
    wait()
        .for_element(Locator::XPath(
            "//span[@id='g-result' and contains(text(), 'against level 3')]",
        ))
        .await
        .expect("the game against level 3 is shown");
    assert_eq!(http.state().await["game"]["level"], 3);
    wait()
        .for_element(Locator::XPath(
            "//ol[@id='moves']/li[@class='engine-last' and starts-with(text(), '1... ') \
             and contains(text(), '(Pao)')]",
        ))
        .await
        .expect("Pao's first move named in the list");
    assert_eq!(http.post("/api/game/resign", json!({})).await.status, 200);
    let kept = "return localStorage.getItem('pao.level');";
    assert_eq!(
        client.execute(kept, vec![]).await.expect("storage"),
        json!("3")
    );
    // The next visit (the page took the token out of its address, so it is given again).
    client
        .goto(&format!("{}/?token={TOKEN}", server.base))
        .await
        .expect("the page again");
    wait()
        .for_element(Locator::Css("#g-level option[value='20']"))
        .await
        .expect("the selector after the reload");
    assert_eq!(
        client.execute(level, vec![]).await.expect("level"),
        json!("3")
    );
    client.close().await.expect("close");
    drop(driver);
    let _ = std::fs::remove_dir_all(&profile);

    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let out = std::env::var_os("PAO_SERVE_SCREENSHOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve.png"));
    std::fs::write(&out, &png).expect("write the screenshot");
    println!("screenshot: {}", out.display());
}

/// Whether fontconfig knows a font for Chinese (`fc-list :lang=zh`); `None` without fc-list.
fn machine_has_chinese_font() -> Option<bool> {
    let out = Command::new("fc-list").arg(":lang=zh").output().ok()?;
    Some(out.status.success() && !out.stdout.is_empty())
}

/// On a machine without a Chinese font: no piece and not the pieces' button is drawn as a box.
/// The proof is in pixels: the cannon on e2 is photographed with its label, then with the
/// label replaced by U+0378 (a code point no font fills: the missing-glyph box) and by 炮
/// (which this machine has no font for). 炮 must look exactly like the box (else this test
/// could not see boxes at all), and the page's own label must not.
async fn pieces_are_not_boxes(client: &Client) {
    let relabel = |css: &'static str, text: String| async move {
        client
            .execute(
                "document.querySelector(arguments[0]).textContent = arguments[1];",
                vec![json!(css), json!(text)],
            )
            .await
            .expect("relabel");
    };
    let photo = |css: &'static str| async move {
        client
            .find(Locator::Css(css))
            .await
            .expect("an element")
            .screenshot()
            .await
            .expect("a picture")
    };
    let piece = "g.piece[data-piece='e2']";
    let label = "g.piece[data-piece='e2'] text";
    let own = photo(piece).await;
    relabel(label, "\u{378}".to_string()).await;
    let missing = photo(piece).await;
    relabel(label, "炮".to_string()).await;
    let hanzi = photo(piece).await;
    relabel(label, "C".to_string()).await;
    assert!(
        hanzi == missing,
        "炮 is not drawn as the missing-glyph box here: this check cannot see boxes"
    );
    assert!(own != missing, "the cannon is drawn as a box");
    assert_eq!(photo(piece).await, own, "the relabelled cannon changed");

    // The button: a Latin label, pressed, and not a box either.
    let button = client.find(Locator::Id("letters")).await.expect("button");
    let text = button.text().await.expect("label");
    assert!(
        !text.is_empty() && text.is_ascii(),
        "the pieces' button reads '{text}'"
    );
    assert_eq!(
        button
            .attr("aria-pressed")
            .await
            .expect("pressed")
            .as_deref(),
        Some("true")
    );
    assert!(
        !button.is_enabled().await.expect("enabled"),
        "no characters to switch to"
    );
    let own = photo("#letters").await;
    relabel("#letters", "\u{378}".repeat(text.chars().count())).await;
    let missing = photo("#letters").await;
    relabel("#letters", text).await;
    assert!(own != missing, "the pieces' button is drawn as boxes");
}
