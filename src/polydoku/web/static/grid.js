// The board: the puzzle's picture (polydoku's SVG, inlined so rules carry data-rule) under a
// grid of cells; what the solver entered (values, corner and centre marks, colours), selection,
// highlighting, conflicts, undo and redo, and the state kept in the address. Everything a
// puzzle or a user supplies is written with textContent or attributes, never as HTML.

import { Checker } from "./checks.js";

export const $ = (id) => document.getElementById(id);
export const MODES = ["digit", "corner", "centre", "colour"];
export const COLOURS = 9;

export const S = {
  text: "", rules: "", board: null, checker: null,
  values: [], corner: [], centre: [], colour: [],
  sel: new Set(), focus: 0, mode: "digit", undo: [], redo: [],
  shown: [], marks: [], alt: [], conflicts: new Map(),
  onEdit: () => {}, say: () => {},
};

// ---- names and symbols -------------------------------------------------------------------

// the columns of the grid: as many as its rows but on a rectangular grid
export function columns(board = S.board) { return board.cols || board.size; }

export function cellName(i) {
  const n = columns();
  return `r${Math.floor(i / n) + 1}c${(i % n) + 1}`;
}

export function cellIndex(name) {
  const m = /^r(\d+)c(\d+)$/.exec(name);
  return m ? (Number(m[1]) - 1) * columns() + Number(m[2]) - 1 : -1;
}

export function symbolValue(ch) {
  if (!S.board || String(ch).length !== 1) return 0;
  const k = S.board.alphabet.toUpperCase().indexOf(String(ch).toUpperCase());
  return k < 0 ? 0 : k + 1;
}

export function symbol(v) { return v ? S.board.alphabet[v - 1] : ""; }

export function lineValues(line) {
  return Array.from(line).map((ch) => (ch === "." || ch === "0" ? 0 : symbolValue(ch)));
}

export function valueAt(i) { return S.board.givens[i] || S.values[i]; }

export function gridLine() { return S.board.givens.map((g, i) => symbol(g || S.values[i]) || ".").join(""); }

export function entriesLine() { return S.values.map((v) => symbol(v) || ".").join(""); }

// ---- building the board ------------------------------------------------------------------

export function buildBoard(board, saved = null) {
  S.board = board;
  board.givens = lineValues(board.givens);
  const cells = board.size * columns(board);
  S.checker = new Checker(board.checks, board.size, board.values, columns(board));
  S.values = new Array(cells).fill(0);
  S.corner = Array.from({ length: cells }, () => new Set());
  S.centre = Array.from({ length: cells }, () => new Set());
  S.colour = new Array(cells).fill(0);
  S.undo = [];
  S.redo = [];
  S.sel = new Set();
  S.focus = 0;
  if (saved) restore(saved);
  clearOverlays();
  drawPicture(board);
  const grid = $("cells");
  grid.replaceChildren();
  Object.assign(grid.style, {
    left: `${(100 * board.margin) / board.width}%`, top: `${(100 * board.top) / board.height}%`,
    width: `${(100 * columns(board) * board.cell) / board.width}%`,
    height: `${(100 * board.size * board.cell) / board.height}%`,
    gridTemplateColumns: `repeat(${columns(board)}, 1fr)`, gridTemplateRows: `repeat(${board.size}, 1fr)`,
  });
  $("board").style.aspectRatio = `${board.width} / ${board.height}`;
  $("board").style.maxWidth = `${Math.max(board.width, 520)}px`;
  let row = null;
  for (let i = 0; i < cells; i++) {
    if (i % columns(board) === 0) {      // rows for screen readers; the layout ignores them
      row = document.createElement("div");
      row.className = "row-of-cells";
      row.setAttribute("role", "row");
      grid.appendChild(row);
    }
    const el = document.createElement("div");
    el.className = "cell";
    el.dataset.cell = cellName(i);
    el.tabIndex = i === 0 ? 0 : -1;
    el.setAttribute("role", "gridcell");
    row.appendChild(el);
  }
  buildPad(board);
  $("name").textContent = board.name || "";
  sizeCells();
  refresh();
}

function drawPicture(board) {
  const doc = new DOMParser().parseFromString(board.svg, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") { $("picture").replaceChildren(); return; }
  svg.querySelectorAll("g.cells").forEach((g) => g.remove());    // the page draws the cells
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("aria-hidden", "true");
  $("picture").replaceChildren(document.importNode(svg, true));
}

function buildPad(board) {
  const pad = $("digits");
  pad.replaceChildren();
  const count = S.mode === "colour" ? COLOURS : board.values || board.size;
  pad.style.setProperty("--pad-columns", String(count > 9 ? Math.ceil(count / 2) : Math.min(count, 9)));
  for (let v = 1; v <= count; v++) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.digit = String(v);
    if (S.mode === "colour") {
      b.className = "swatch";
      b.dataset.colour = String(v);
      b.setAttribute("aria-label", `colour ${v}`);
      b.textContent = String(v);
    } else {
      b.textContent = symbol(v);
      b.setAttribute("aria-label", `${S.mode} ${symbol(v)}`);
    }
    pad.appendChild(b);
  }
}

export function sizeCells() {
  const grid = $("cells");
  if (!S.board || !grid.clientWidth) return;
  $("board").style.setProperty("--cell", `${grid.clientWidth / columns()}px`);
  $("board").style.setProperty("--box-cols", String(S.board.box[1]));
}

export function clearOverlays() {
  const cells = S.board ? S.board.size * columns() : 0;
  S.shown = new Array(cells).fill(0);
  S.marks = new Array(cells).fill("");
  S.alt = new Array(cells).fill("");
}

// ---- drawing -----------------------------------------------------------------------------

function marksText(set) { return [...set].sort((a, b) => a - b).map(symbol).join(""); }

function label(i) {
  const given = S.board.givens[i], v = valueAt(i) || S.shown[i];
  const parts = [cellName(i)];
  parts.push(v ? `${symbol(v)}${given ? ", given" : S.values[i] ? "" : ", shown"}` : "empty");
  if (!v && S.corner[i].size) parts.push(`corner marks ${[...S.corner[i]].sort().map(symbol).join(" ")}`);
  if (!v && S.centre[i].size) parts.push(`centre marks ${[...S.centre[i]].sort().map(symbol).join(" ")}`);
  if (S.colour[i]) parts.push(`colour ${S.colour[i]}`);
  const c = S.conflicts.get(i);
  if (c) parts.push(`breaks ${c.label}${c.with.length ? ` with ${c.with.map(cellName).join(" ")}` : ""}`);
  if (S.sel.has(i)) parts.push("selected");
  return parts.join(", ");
}

export function draw() {
  const b = S.board;
  if (!b) return;
  const focusValue = valueAt(S.focus) || S.shown[S.focus];
  const peers = S.sel.size === 1 ? S.checker.peers[S.focus] : new Set();
  document.querySelectorAll("#cells .cell").forEach((el, i) => {
    const given = b.givens[i], value = valueAt(i), shown = value || S.shown[i];
    const kids = [];
    if (shown) kids.push(document.createTextNode(symbol(shown)));
    else {
      const corner = [...S.corner[i]].sort((x, y) => x - y);
      corner.forEach((v, k) => {
        const s = document.createElement("span");
        s.className = `corner k${Math.min(k, 7)}`;
        s.dataset.m = symbol(v);
        kids.push(s);
      });
      if (S.centre[i].size) {
        const s = document.createElement("span");
        s.className = "centre";
        s.dataset.m = marksText(S.centre[i]);
        kids.push(s);
      }
    }
    el.replaceChildren(...kids);
    el.classList.toggle("given", Boolean(given));
    el.classList.toggle("solved", !value && Boolean(S.shown[i]));
    el.classList.toggle("selected", S.sel.has(i));
    el.classList.toggle("same", Boolean(focusValue) && shown === focusValue);
    el.classList.toggle("peer", peers.has(i));
    if (S.colour[i]) el.dataset.colour = String(S.colour[i]); else delete el.dataset.colour;
    const c = S.conflicts.get(i);
    if (c) el.dataset.conflict = c.label; else delete el.dataset.conflict;
    if (S.marks[i]) el.dataset.mark = S.marks[i]; else delete el.dataset.mark;
    if (S.alt[i]) el.dataset.alt = S.alt[i]; else delete el.dataset.alt;
    el.setAttribute("aria-label", label(i));
    el.setAttribute("aria-selected", String(S.sel.has(i)));
  });
  document.querySelectorAll("[data-mode]").forEach((x) => x.setAttribute("aria-pressed", String(x.dataset.mode === S.mode)));
  $("board").dataset.mode = S.mode;
  document.querySelector('[data-action="undo"]').disabled = !S.undo.length;
  document.querySelector('[data-action="redo"]').disabled = !S.redo.length;
}

// Recompute what follows from the entries (conflicts), then draw.
export function refresh() {
  S.conflicts = S.checker.conflicts(S.board.givens.map((g, i) => g || S.values[i]));
  draw();
}

// ---- editing, undo and redo --------------------------------------------------------------

function snap(i) { return [S.values[i], marksText(S.corner[i]), marksText(S.centre[i]), S.colour[i]]; }

function put(i, [v, corner, centre, colour]) {
  S.values[i] = v;
  S.corner[i] = new Set(lineValues(corner));
  S.centre[i] = new Set(lineValues(centre));
  S.colour[i] = colour;
}

// Apply `mutate` to cells as one undoable action; return the cells it changed.
export function change(cells, mutate) {
  const changes = [];
  for (const i of cells) {
    const before = snap(i);
    mutate(i);
    const after = snap(i);
    if (before.join("|") !== after.join("|")) changes.push([i, before, after]);
  }
  if (changes.length) {
    S.undo.push(changes);
    S.redo = [];
    edited();
  }
  return changes.map((c) => c[0]);
}

function replay(from, to, side) {
  const changes = from.pop();
  if (!changes) return;
  for (const c of changes) put(c[0], c[side]);
  to.push(changes);
  edited();
}

export function undo() { replay(S.undo, S.redo, 1); }
export function redo() { replay(S.redo, S.undo, 2); }

function edited() {
  clearOverlays();
  S.onEdit();
  refresh();
  saveSoon();
}

function editable() { return [...S.sel].filter((i) => !S.board.givens[i]); }

export function enter(v) {
  const cells = editable();
  if (!cells.length) return;
  if (S.mode === "digit") {
    const all = cells.every((i) => S.values[i] === v);
    const changed = change(cells, (i) => { S.values[i] = all ? 0 : v; });
    if (!all) tellConflicts(changed, v);
  } else if (S.mode === "colour") {
    const all = [...S.sel].every((i) => S.colour[i] === v);
    change([...S.sel], (i) => { S.colour[i] = all ? 0 : v; });
  } else {
    const marks = S.mode === "corner" ? S.corner : S.centre;
    const open = cells.filter((i) => !S.values[i]);
    const all = open.every((i) => marks[i].has(v));
    change(open, (i) => { if (all) marks[i].delete(v); else marks[i].add(v); });
  }
}

function tellConflicts(cells, v) {
  const bad = cells.filter((i) => S.conflicts.has(i));
  if (!bad.length) return;
  const c = S.conflicts.get(bad[0]);
  S.say(`${cellName(bad[0])}=${symbol(v)} breaks ${c.label}${c.with.length ? ` (with ${c.with.map(cellName).join(", ")})` : ""}`, true);
}

export function erase() {
  const cells = editable();
  if (cells.some((i) => S.values[i])) change(cells, (i) => { S.values[i] = 0; });
  else if (cells.some((i) => S.corner[i].size || S.centre[i].size)) change(cells, (i) => { S.corner[i].clear(); S.centre[i].clear(); });
  else change([...S.sel], (i) => { S.colour[i] = 0; });
}

export function clearAll() {
  const all = S.values.map((_, i) => i);
  change(all, (i) => { S.values[i] = 0; S.corner[i].clear(); S.centre[i].clear(); S.colour[i] = 0; });
}

export function setMode(mode) {
  if (!MODES.includes(mode) || mode === S.mode) return;
  const padChanges = (mode === "colour") !== (S.mode === "colour");
  S.mode = mode;
  if (padChanges) buildPad(S.board);
  draw();
}

// ---- selection ---------------------------------------------------------------------------

export function select(i, { add = false, toggle = false } = {}) {
  if (!add && !toggle) S.sel = new Set();
  if (toggle && S.sel.has(i) && S.sel.size > 1) S.sel.delete(i); else S.sel.add(i);
  focusCell(i);
  draw();
}

export function focusCell(i) {
  const cells = document.querySelectorAll("#cells .cell");
  if (!cells.length) return;
  cells[S.focus].tabIndex = -1;
  S.focus = i;
  cells[i].tabIndex = 0;
  if (document.activeElement !== cells[i]) cells[i].focus({ preventScroll: true });
}

export function move(key, extend) {
  const h = S.board.size, n = columns(), i = S.focus, r = Math.floor(i / n), c = i % n;
  const to = key === "ArrowUp" ? ((r + h - 1) % h) * n + c : key === "ArrowDown" ? ((r + 1) % h) * n + c
    : key === "ArrowLeft" ? r * n + ((c + n - 1) % n) : r * n + ((c + 1) % n);
  select(to, { add: extend });
}

// ---- the address: puzzle, rules, entries, marks and colours --------------------------------

// Entries as a line with runs of empty cells written as a..z (1..26 of them), the end dropped.
export function packLine(values) {
  let out = "", run = 0;
  const flush = () => { while (run > 0) { const k = Math.min(run, 26); out += String.fromCharCode(96 + k); run -= k; } };
  for (const v of values) {
    if (!v) { run++; continue; }
    flush();
    out += symbol(v);
  }
  return out;
}

export function unpackLine(text, cells) {
  const out = [];
  for (const ch of text) {
    if (ch >= "a" && ch <= "z") for (let k = 0; k < ch.charCodeAt(0) - 96; k++) out.push(0);
    else out.push(symbolValue(ch));
  }
  while (out.length < cells) out.push(0);
  return out.slice(0, cells);
}

function packMarks(sets) {
  return sets.map((s, i) => (s.size ? `${i}-${marksText(s)}` : "")).filter(Boolean).join("_");
}

function unpackMarks(text, cells) {
  const out = Array.from({ length: cells }, () => new Set());
  for (const item of text.split("_")) {
    const [at, marks] = item.split("-");
    const i = Number(at);
    if (Number.isInteger(i) && i >= 0 && i < cells && marks) out[i] = new Set(lineValues(marks).filter(Boolean));
  }
  return out;
}

export function stateParams() {
  const p = new URLSearchParams();
  if (S.text) p.set("puzzle", S.text);
  if (S.rules) p.set("rules", S.rules);
  const e = packLine(S.values);
  if (e) p.set("e", e);
  const c = packMarks(S.corner);
  if (c) p.set("c", c);
  const z = packMarks(S.centre);
  if (z) p.set("z", z);
  const k = S.colour.map((x, i) => (x ? `${i}-${x}` : "")).filter(Boolean).join("_");
  if (k) p.set("k", k);
  return p;
}

let saveTimer = 0;
export function saveSoon() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveNow, 150);
}

export function saveNow() {
  clearTimeout(saveTimer);
  if (!S.board) return;
  const query = stateParams().toString();
  const url = `${location.pathname}${query ? `?${query}` : ""}`;
  if (url !== `${location.pathname}${location.search}`) history.replaceState(null, "", url);
}

// Put saved entries, marks and colours (address parameters) on the board just built.
function restore(params) {
  const cells = S.values.length;
  if (params.get("e")) S.values = unpackLine(params.get("e"), cells).map((v, i) => (S.board.givens[i] ? 0 : v));
  if (params.get("c")) S.corner = unpackMarks(params.get("c"), cells);
  if (params.get("z")) S.centre = unpackMarks(params.get("z"), cells);
  for (const item of (params.get("k") || "").split("_")) {
    const [at, x] = item.split("-").map(Number);
    if (Number.isInteger(at) && at >= 0 && at < cells && x >= 1 && x <= COLOURS) S.colour[at] = x;
  }
}
