// The xiangqi board in SVG: lines, river, palaces, pieces from a FEN, the selected piece,
// its legal targets and the last move. Squares are ICCS names: files a-i from red's left,
// ranks 0-9 from red's side.
"use strict";
const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const CELL = 60, MARGIN = 60, TOP = 30;
  const GLYPHS = {
    K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
    k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
  };
  // For a browser without Chinese fonts: the English initials.
  const LETTERS = {
    K: "K", A: "A", B: "E", N: "H", R: "R", C: "C", P: "P",
    k: "k", a: "a", b: "e", n: "h", r: "r", c: "c", p: "p",
  };
  const ALIASES = { H: "N", E: "B", h: "n", e: "b" };
  const RIVER = "楚 河        漢 界";

  // The box of the ink `text` leaves on a canvas in `font`, as "left,top,right,bottom"
  // ("" when it leaves none).
  function ink(ctx, text, font) {
    const size = 64;
    ctx.clearRect(0, 0, size, size);
    ctx.font = font;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = "#000";
    ctx.fillText(text, size / 2, size / 2);
    const data = ctx.getImageData(0, 0, size, size).data;
    let left = size, top = size, right = -1, bottom = -1;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (data[(y * size + x) * 4 + 3] > 0) {
          left = Math.min(left, x); right = Math.max(right, x);
          top = Math.min(top, y); bottom = Math.max(bottom, y);
        }
      }
    }
    return right < 0 ? "" : [left, top, right, bottom].join(",");
  }

  // Whether the browser's fonts draw every piece's character. A character no font has is drawn
  // as the missing-glyph box (Chrome, Safari) or a box with its code in hex (Firefox); either
  // leaves the same ink box as U+0378, a code point no font fills, so a character that leaves
  // that box (or none) is missing, and the pieces are drawn as letters instead.
  function detectGlyphs() {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    if (!ctx) return true;
    const family = getComputedStyle(document.body).fontFamily || "sans-serif";
    const font = "40px " + family;
    const missing = ink(ctx, "\u0378", font);
    const chars = Object.values(GLYPHS).concat(RIVER.replace(/ /g, "").split(""));
    return chars.every((ch) => {
      const box = ink(ctx, ch, font);
      return box !== "" && box !== missing;
    });
  }
  let glyphs = null;
  // Detected once, on first use (the page's fonts are the system's: nothing loads later).
  function hasGlyphs() {
    if (glyphs === null) glyphs = detectGlyphs();
    return glyphs;
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  // {square: letter} from the placement field of a FEN.
  function pieces(fen) {
    const out = {};
    const rows = (fen || "").split(" ")[0].split("/");
    rows.forEach((row, i) => {
      const rank = 9 - i;
      let file = 0;
      for (const ch of row) {
        if (ch >= "1" && ch <= "9") { file += Number(ch); continue; }
        const letter = ALIASES[ch] || ch;
        if (GLYPHS[letter] && file < 9) out["abcdefghi"[file] + rank] = letter;
        file += 1;
      }
    });
    return out;
  }

  function xy(square, flipped) {
    let file = square.charCodeAt(0) - 97, rank = Number(square.slice(1));
    if (flipped) { file = 8 - file; rank = 9 - rank; }
    return [MARGIN + file * CELL, TOP + (9 - rank) * CELL];
  }

  function grid(svg, flipped) {
    const g = el("g", {}, svg);
    const x0 = MARGIN, x1 = MARGIN + 8 * CELL, y0 = TOP, y1 = TOP + 9 * CELL;
    for (let r = 0; r < 10; r++) el("line", { x1: x0, y1: y0 + r * CELL, x2: x1, y2: y0 + r * CELL, class: "line" }, g);
    for (let f = 0; f < 9; f++) {
      const x = x0 + f * CELL;
      if (f === 0 || f === 8) el("line", { x1: x, y1: y0, x2: x, y2: y1, class: "line" }, g);
      else {
        el("line", { x1: x, y1: y0, x2: x, y2: y0 + 4 * CELL, class: "line" }, g);
        el("line", { x1: x, y1: y0 + 5 * CELL, x2: x, y2: y1, class: "line" }, g);
      }
    }
    for (const [a, b] of [[[3, 0], [5, 2]], [[5, 0], [3, 2]], [[3, 7], [5, 9]], [[5, 7], [3, 9]]]) {
      el("line", { x1: x0 + a[0] * CELL, y1: y0 + a[1] * CELL, x2: x0 + b[0] * CELL, y2: y0 + b[1] * CELL, class: "line" }, g);
    }
    if (hasGlyphs()) {
      const river = el("text", { x: x0 + 4 * CELL, y: y0 + 4.5 * CELL + 8, class: "coord" }, g);
      river.textContent = RIVER;
    }
    for (let f = 0; f < 9; f++) {
      const file = flipped ? 8 - f : f;
      const t = el("text", { x: x0 + f * CELL, y: y1 + 40, class: "coord" }, g);
      t.textContent = "abcdefghi"[file];
    }
    for (let r = 0; r < 10; r++) {
      const rank = flipped ? r : 9 - r;
      const t = el("text", { x: x0 - 35, y: y0 + r * CELL + 5, class: "coord" }, g);
      t.textContent = String(rank);
    }
  }

  // Draws the board. opts: {fen, flipped, letters, selected, targets: [squares],
  // last: [from, to], onSquare(square)}. Without fonts for the characters, letters always.
  function draw(svg, opts) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    grid(svg, opts.flipped);
    for (const sq of opts.last || []) {
      const [x, y] = xy(sq, opts.flipped);
      el("rect", { x: x - 29, y: y - 29, width: 58, height: 58, class: "last" }, svg);
    }
    const placed = pieces(opts.fen);
    for (const sq in placed) {
      const letter = placed[sq];
      const [x, y] = xy(sq, opts.flipped);
      const red = letter === letter.toUpperCase();
      const g = el("g", { class: "piece " + (red ? "red" : "black") + (sq === opts.selected ? " sel" : ""), "data-piece": sq }, svg);
      el("circle", { cx: x, cy: y, r: 26 }, g);
      const t = el("text", { x: x, y: y }, g);
      t.textContent = (opts.letters || !hasGlyphs() ? LETTERS : GLYPHS)[letter];
    }
    for (const sq of opts.targets || []) {
      const [x, y] = xy(sq, opts.flipped);
      el("circle", { cx: x, cy: y, r: 9, class: "target" }, svg);
    }
    // Click targets on top, one per point.
    for (let f = 0; f < 9; f++) {
      for (let r = 0; r < 10; r++) {
        const sq = "abcdefghi"[f] + r;
        const [x, y] = xy(sq, opts.flipped);
        const hit = el("rect", { x: x - 30, y: y - 30, width: 60, height: 60, class: "hit", "data-sq": sq }, svg);
        hit.addEventListener("click", () => opts.onSquare(sq));
      }
    }
  }

  return { draw, pieces, hasGlyphs };
})();
