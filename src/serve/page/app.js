// The analysis page: the stream of the engine's events over a WebSocket, requests over the
// JSON API. The token comes in the page's first address only: the server answered it with a
// cookie that carries it from then on (to the API and the WebSocket alike), so the page takes
// it out of the address bar at once and never handles it.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  if (location.search) history.replaceState(null, "", location.pathname);

  const view = {
    state: null,        // the last `state`, kept current by the events
    seq: 0,
    flipped: false,
    letters: false,     // pieces as letters (no Chinese font)
    selected: null,
    history: [],        // chart points of the current search: {time, depth, cp}
    searchFen: null,    // FEN of the current search
    clockTimer: null,
    gameAt: 0,          // when the last game event came (ms, performance clock)
  };

  function showError(text) {
    $("error").textContent = text || "";
  }

  async function api(path, body, method) {
    const headers = {};
    const init = { method: method || (body === undefined ? "GET" : "POST"), headers };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const r = await fetch(path, init);
    const text = await r.text();
    if (!r.ok) {
      showError(text.trim());
      throw new Error(text.trim());
    }
    showError("");
    return text;
  }
  const post = (path, body) => api(path, body || {}).catch(() => null);

  // Scores.
  function scoreText(s) {
    if (!s) return "";
    if (s.kind === "mate") return (s.value > 0 ? "#" : "#-") + Math.abs(s.value);
    if (s.kind === "rule") return (s.value > 0 ? "rule win " : "rule loss ") + Math.abs(s.value);
    return (s.value >= 0 ? "+" : "") + (s.value / 100).toFixed(2);
  }
  // Centipawns for the chart, from red's view, within +-10 pawns.
  function chartCp(s, fen) {
    let v = s.kind === "cp" ? s.value : (s.value > 0 ? 1000 : -1000);
    v = Math.max(-1000, Math.min(1000, v));
    return fen && fen.split(" ")[1] === "b" ? -v : v;
  }
  const fmt = (n) => (n === undefined || n === null ? "-" : Number(n).toLocaleString("en-US"));

  // Board.
  function drawBoard() {
    const st = view.state;
    if (!st) return;
    const p = st.position;
    const targets = view.selected ? p.legal.filter((m) => m.slice(0, 2) === view.selected).map((m) => m.slice(2)) : [];
    const lastMove = p.moves.length ? p.moves[p.moves.length - 1] : null;
    Board.draw($("board"), {
      fen: p.current,
      flipped: view.flipped,
      letters: view.letters,
      selected: view.selected,
      targets,
      last: lastMove ? [lastMove.slice(0, 2), lastMove.slice(2)] : [],
      onSquare: clickSquare,
    });
    let side = p.side + " to move";
    if (p.in_check) side += ", in check";
    if (p.result !== "ongoing") side = p.result;
    $("tomove").textContent = side;
    if (document.activeElement !== $("fen")) $("fen").value = p.current;
    drawMoves();
  }

  // The moves played, numbered from the FEN they start from; in a game, the engine's last move
  // is named.
  function drawMoves() {
    const st = view.state;
    const p = st.position;
    const list = $("moves");
    list.textContent = "";
    const fields = p.fen.split(" ");
    let black = fields[1] === "b";
    let number = Number(fields[5]) || 1;
    const g = st.game;
    const engine = g && g.result === "ongoing" ? (g.human === "red" ? "black" : "red") : null;
    // The engine moved last, or the move before the player's last one.
    const last = p.moves.length - 1;
    const lastMover = (black === (last % 2 === 0)) ? "black" : "red";
    const engineLast = lastMover === engine ? last : last - 1;
    p.moves.forEach((mv, i) => {
      const li = document.createElement("li");
      li.textContent = (black ? number + "... " : number + ". ") + mv;
      if (engine && i === engineLast) {
        li.textContent += " (Pao)";
        li.className = "engine-last";
        li.title = "Pao's last move";
      }
      list.appendChild(li);
      if (black) number += 1;
      black = !black;
    });
    $("moves-none").hidden = p.moves.length > 0;
  }

  function clickSquare(sq) {
    const p = view.state && view.state.position;
    if (!p) return;
    if (view.selected) {
      const mv = view.selected + sq;
      if (p.legal.includes(mv)) {
        view.selected = null;
        drawBoard();
        post("/api/move", { move: mv });
        return;
      }
    }
    const mine = p.legal.some((m) => m.slice(0, 2) === sq);
    view.selected = mine && view.selected !== sq ? sq : null;
    drawBoard();
  }

  // Lines and figures.
  function drawLines() {
    const st = view.state;
    const tbody = $("lines").querySelector("tbody");
    tbody.textContent = "";
    const current = st.search && st.search.fen === st.position.current;
    for (const l of current ? st.lines : []) {
      const tr = document.createElement("tr");
      const cells = [l.multipv, scoreText(l.score), l.wdl ? l.wdl.map((x) => (x / 10).toFixed(0)).join("/") : "", l.depth + "/" + l.seldepth, l.pv.join(" ")];
      cells.forEach((c, i) => {
        const td = document.createElement("td");
        td.textContent = c;
        if (i === 1) td.className = "score";
        if (i === 4) td.className = "pv";
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    }
    const first = st.lines[0];
    const prog = st.progress;
    const pick = (a, b) => (b && (!a || b.time >= a.time) ? b : a);
    const f = pick(first, prog) || {};
    $("f-depth").textContent = first ? first.depth : "-";
    $("f-seldepth").textContent = first ? first.seldepth : "-";
    $("f-nodes").textContent = fmt(f.nodes);
    $("f-nps").textContent = fmt(f.nps);
    $("f-hashfull").textContent = f.hashfull === undefined ? "-" : (f.hashfull / 10).toFixed(1) + "%";
    $("f-time").textContent = f.time === undefined ? "-" : (f.time / 1000).toFixed(1) + " s";
    $("searching").textContent = st.searching ? (st.search ? st.search.kind + " running" : "running") : (st.bestmove && st.bestmove.move ? "best move " + st.bestmove.move : "");
  }

  function drawChart() {
    const svg = $("chart");
    svg.textContent = "";
    const NS = "http://www.w3.org/2000/svg";
    const pts = view.history;
    const W = 600, H = 180, M = 24;
    const axis = document.createElementNS(NS, "line");
    for (const [k, v] of Object.entries({ x1: M, y1: H / 2, x2: W - M, y2: H / 2, stroke: "#bbb" })) axis.setAttribute(k, v);
    svg.appendChild(axis);
    if (pts.length < 1) return;
    const tMax = Math.max(1, pts[pts.length - 1].time);
    const dMax = Math.max(1, ...pts.map((p) => p.depth));
    const x = (t) => M + (W - 2 * M) * (t / tMax);
    const line = (values, color) => {
      const pl = document.createElementNS(NS, "polyline");
      pl.setAttribute("points", values.map(([t, y]) => x(t).toFixed(1) + "," + y.toFixed(1)).join(" "));
      pl.setAttribute("fill", "none");
      pl.setAttribute("stroke", color);
      pl.setAttribute("stroke-width", "2");
      svg.appendChild(pl);
    };
    line(pts.map((p) => [p.time, H / 2 - (p.cp / 1000) * (H / 2 - M)]), "#b22");
    line(pts.map((p) => [p.time, H - M - (p.depth / dMax) * (H - 2 * M)]), "#26a");
    const label = document.createElementNS(NS, "text");
    label.setAttribute("x", W - M);
    label.setAttribute("y", 14);
    label.setAttribute("text-anchor", "end");
    label.setAttribute("font-size", "12");
    label.textContent = "depth " + pts[pts.length - 1].depth + ", " + (tMax / 1000).toFixed(1) + " s";
    svg.appendChild(label);
  }

  // Options and game.
  function showOptions() {
    const o = view.state.options;
    $("o-threads").value = o.threads;
    $("o-threads").max = o.max_threads;
    $("o-hash").value = o.hash;
    $("o-hash").max = o.max_hash;
    $("o-multipv").value = o.multipv;
    $("o-wdl").checked = o.wdl;
  }

  function clockText(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function showGame() {
    const g = view.state.game;
    $("clocks").hidden = !g;
    if (!g) return;
    const spent = performance.now() - view.gameAt;
    const red = g.running === "red" ? g.red_ms - spent : g.red_ms;
    const black = g.running === "black" ? g.black_ms - spent : g.black_ms;
    $("c-red").textContent = "red " + clockText(red);
    $("c-black").textContent = "black " + clockText(black);
    $("c-red").classList.toggle("running", g.running === "red");
    $("c-black").classList.toggle("running", g.running === "black");
    const level = g.level < 20 ? " against level " + g.level : " against full strength";
    $("g-result").textContent = g.result === "ongoing" ? "you play " + g.human + level : g.result;
  }

  // Events.
  function onEvent(ev) {
    const st = view.state;
    switch (ev.type) {
      case "position":
        st.position = ev;
        view.selected = null;
        drawBoard();
        drawLines();
        break;
      case "options":
        st.options = ev;
        showOptions();
        break;
      case "started":
        st.search = ev;
        st.searching = true;
        st.lines = [];
        st.progress = null;
        st.bestmove = null;
        view.history = [];
        drawLines();
        drawChart();
        break;
      case "info":
        if (!st.search || ev.search !== st.search.search) break;
        st.lines[ev.multipv - 1] = ev;
        st.lines.length = Math.min(st.lines.length, st.options.multipv);
        if (ev.multipv === 1) {
          view.history.push({ time: ev.time, depth: ev.depth, cp: chartCp(ev.score, st.search.fen) });
          if (view.history.length > 1000) view.history.shift();
          drawChart();
        }
        drawLines();
        break;
      case "progress":
        if (st.search && ev.search === st.search.search) {
          st.progress = ev;
          drawLines();
        }
        break;
      case "bestmove":
        if (st.search && ev.search === st.search.search) {
          st.searching = false;
          st.bestmove = ev;
          drawLines();
        }
        break;
      case "game":
        st.game = ev;
        view.gameAt = performance.now();
        showGame();
        if (st.position) drawMoves();
        break;
      case "error":
        showError(ev.message);
        break;
    }
  }

  function onState(st) {
    view.state = st;
    view.seq = st.seq;
    view.selected = null;
    view.history = st.history.map((p) => ({ time: p.time, depth: p.depth, cp: chartCp(p.score, st.search && st.search.fen) }));
    view.gameAt = performance.now();
    drawBoard();
    drawLines();
    drawChart();
    showOptions();
    showGame();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const ws = new WebSocket(scheme + location.host + "/ws");
    ws.onopen = () => {
      $("conn").textContent = "connected";
      $("conn").className = "on";
    };
    ws.onmessage = (m) => {
      let ev;
      try { ev = JSON.parse(m.data); } catch (e) { return; }
      if (ev.type === "state") { onState(ev); return; }
      if (!view.state) return;
      if (ev.seq !== view.seq + 1) {
        // A gap: start again from a fresh state.
        ws.close();
        return;
      }
      view.seq = ev.seq;
      onEvent(ev);
    };
    ws.onclose = () => {
      $("conn").textContent = "disconnected, retrying";
      $("conn").className = "off";
      setTimeout(connect, 2000);
    };
  }

  // Export.
  async function exportText(text) {
    const box = $("export");
    box.hidden = false;
    box.value = text;
    box.select();
    try {
      if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(text);
      else document.execCommand("copy");
    } catch (e) { /* the text stays selected in the box */ }
  }

  // Controls.
  $("undo").onclick = () => post("/api/undo");
  $("flip").onclick = () => { view.flipped = !view.flipped; drawBoard(); };
  // Pieces as letters: the user's choice, or the only choice when no font has the characters
  // (the button then stays pressed and says why). Its label is plain Latin for that reason.
  function showLettersButton() {
    const b = $("letters");
    const forced = !Board.hasGlyphs();
    b.setAttribute("aria-pressed", String(view.letters || forced));
    b.disabled = forced;
    b.title = forced ? "no Chinese font in this browser: the pieces are shown as letters"
      : "pieces as letters (K A E H R C P) or as Chinese characters";
    document.documentElement.dataset.glyphs = forced ? "missing" : "present";
    $("letter-legend").hidden = !(view.letters || forced);
  }
  $("letters").onclick = () => { view.letters = !view.letters; showLettersButton(); drawBoard(); };
  showLettersButton();
  $("startpos").onclick = () => post("/api/position", {});
  $("setfen").onclick = () => post("/api/position", { fen: $("fen").value.trim() });
  $("fen").addEventListener("keydown", (e) => { if (e.key === "Enter") $("setfen").onclick(); });
  $("go").onclick = () => post("/api/go");
  $("stop").onclick = () => post("/api/stop");
  $("apply").onclick = () => post("/api/options", {
    threads: Number($("o-threads").value),
    hash: Number($("o-hash").value),
    multipv: Number($("o-multipv").value),
    wdl: $("o-wdl").checked,
  });
  $("clearhash").onclick = () => post("/api/clear-hash");
  // The engine's level: 0 (weakest) to 20 (full strength), sent with the game. A game starts
  // at level 5 until the player picks another, which the browser keeps across reloads.
  const LEVEL_KEY = "pao.level";
  let savedLevel = null;
  try { savedLevel = localStorage.getItem(LEVEL_KEY); } catch (e) { /* storage off */ }
  const startLevel = /^([0-9]|1[0-9]|20)$/.test(savedLevel || "") ? Number(savedLevel) : 5;
  for (let level = 0; level <= 20; level++) {
    const o = document.createElement("option");
    o.value = String(level);
    o.textContent = level === 20 ? "20 (full strength)" : String(level);
    o.selected = level === startLevel;
    $("g-level").appendChild(o);
  }
  $("g-level").onchange = () => {
    try { localStorage.setItem(LEVEL_KEY, $("g-level").value); } catch (e) { /* storage off */ }
  };
  $("play").onclick = () => post("/api/game", {
    human: $("g-side").value,
    base_ms: Math.round(Number($("g-minutes").value) * 60000),
    inc_ms: Math.round(Number($("g-inc").value) * 1000),
    level: Number($("g-level").value),
  });
  $("resign").onclick = () => post("/api/game/resign");
  $("copyfen").onclick = () => view.state && exportText(view.state.position.current);
  $("copypgn").onclick = () => api("/api/pgn").then(exportText).catch(() => null);
  setInterval(() => view.state && view.state.game && view.state.game.running && showGame(), 200);

  connect();
})();
