// polydoku's page: a grid to type into over polydoku's own SVG of the puzzle, and buttons that
// call the JSON API. Everything the user or a puzzle supplies is written with textContent or
// attributes, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const GRADES = ["nudge", "technique", "cells", "answer"];

const state = {
  text: "", rules: "", board: null, values: [], solved: [], pencil: [], marks: [], alt: [],
  focus: 0, controller: null, hint: null, path: null, step: 0, base: null,
};

// ---- the board ---------------------------------------------------------------------------

function cellName(i) {
  const n = state.board.size;
  return `r${Math.floor(i / n) + 1}c${(i % n) + 1}`;
}

function cellIndex(name) {
  const m = /^r(\d+)c(\d+)$/.exec(name);
  return m ? (Number(m[1]) - 1) * state.board.size + Number(m[2]) - 1 : -1;
}

function symbolValue(ch) {
  const k = state.board.alphabet.toUpperCase().indexOf(String(ch).toUpperCase());
  return k < 0 ? 0 : k + 1;
}

function symbol(v) { return v ? state.board.alphabet[v - 1] : ""; }

function lineValues(line) { return Array.from(line).map((ch) => (ch === "." || ch === "0") ? 0 : symbolValue(ch)); }

function gridLine() {
  const b = state.board;
  return b.givens.map((g, i) => symbol(g || state.values[i]) || ".").join("");
}

function buildBoard(board) {
  state.board = board;
  board.givens = lineValues(board.givens);
  const cells = board.size * board.size;
  state.values = new Array(cells).fill(0);
  state.pencil = Array.from({ length: cells }, () => new Set());
  clearOverlays();
  const img = $("board-picture");
  if (img.src) URL.revokeObjectURL(img.src);
  img.src = URL.createObjectURL(new Blob([board.svg], { type: "image/svg+xml" }));
  img.width = board.width;
  img.height = board.height;
  const grid = $("cells");
  grid.replaceChildren();
  Object.assign(grid.style, {
    left: `${board.margin}px`, top: `${board.top}px`,
    gridTemplateColumns: `repeat(${board.size}, ${board.cell}px)`,
    gridTemplateRows: `repeat(${board.size}, ${board.cell}px)`,
  });
  for (let i = 0; i < cells; i++) {
    const el = document.createElement("div");
    el.className = "cell";
    el.dataset.cell = cellName(i);
    el.tabIndex = i === 0 ? 0 : -1;
    el.setAttribute("role", "gridcell");
    el.style.fontSize = `${Math.round(board.cell * 0.58)}px`;
    el.addEventListener("click", () => focusCell(i));
    el.addEventListener("keydown", onKey);
    grid.appendChild(el);
  }
  $("name").textContent = board.name || "";
  hidePath();
  draw();
}

function clearOverlays() {
  const cells = state.board ? state.board.size ** 2 : 0;
  state.solved = new Array(cells).fill(0);
  state.marks = new Array(cells).fill("");
  state.alt = new Array(cells).fill("");
}

function draw() {
  const b = state.board;
  if (!b) return;
  const pencilFont = Math.max(8, Math.round(b.cell / Math.max(...b.box) * 0.7));
  document.querySelectorAll("#cells .cell").forEach((el, i) => {
    const given = b.givens[i], value = given || state.values[i], shown = value || state.solved[i];
    el.textContent = symbol(shown);
    el.classList.toggle("given", Boolean(given));
    el.classList.toggle("solved", !value && Boolean(state.solved[i]));
    const marks = !shown && state.pencil[i].size ? [...state.pencil[i]].sort((x, y) => x - y) : [];
    el.classList.toggle("pencil", marks.length > 0);
    if (marks.length) {
      el.style.gridTemplateColumns = `repeat(${b.box[1]}, 1fr)`;
      for (let v = 1; v <= b.size; v++) {
        const s = document.createElement("span");
        s.className = "mark";
        s.dataset.pencil = marks.includes(v) ? symbol(v) : "";
        s.style.fontSize = `${pencilFont}px`;
        el.appendChild(s);
      }
    }
    if (state.marks[i]) el.dataset.mark = state.marks[i]; else delete el.dataset.mark;
    if (state.alt[i]) el.dataset.alt = state.alt[i]; else delete el.dataset.alt;
  });
}

function focusCell(i) {
  const cells = document.querySelectorAll("#cells .cell");
  if (!cells.length) return;
  cells[state.focus].tabIndex = -1;
  state.focus = i;
  cells[i].tabIndex = 0;
  cells[i].focus();
}

function onKey(ev) {
  const b = state.board, n = b.size, i = state.focus;
  const moves = { ArrowUp: -n, ArrowDown: n, ArrowLeft: -1, ArrowRight: 1 };
  if (ev.key in moves) {
    const r = Math.floor(i / n), c = i % n;
    const to = ev.key === "ArrowUp" ? ((r + n - 1) % n) * n + c : ev.key === "ArrowDown" ? ((r + 1) % n) * n + c
      : ev.key === "ArrowLeft" ? r * n + (c + n - 1) % n : r * n + (c + 1) % n;
    focusCell(to);
    ev.preventDefault();
    return;
  }
  if (ev.key === "p" || ev.key === "P") {
    if (symbolValue(ev.key) === 0) { $("pencil").checked = !$("pencil").checked; ev.preventDefault(); return; }
  }
  if (b.givens[i]) return;
  if (ev.key === "Backspace" || ev.key === "Delete" || ev.key === "0" || ev.key === ".") {
    state.values[i] = 0;
    state.pencil[i].clear();
    edited();
    ev.preventDefault();
    return;
  }
  const v = ev.key.length === 1 ? symbolValue(ev.key) : 0;
  if (!v) return;
  if ($("pencil").checked) {
    if (state.pencil[i].has(v)) state.pencil[i].delete(v); else state.pencil[i].add(v);
    state.values[i] = 0;
  } else {
    state.values[i] = v;
  }
  edited();
  ev.preventDefault();
}

function edited() {
  clearOverlays();
  state.hint = null;
  hidePath();
  draw();
}

// ---- talking to the API --------------------------------------------------------------------

function say(text, bad = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("bad", bad);
}

async function post(path, body) {
  cancel();
  const controller = new AbortController();
  state.controller = controller;
  const started = performance.now();
  const busy = $("busy"), label = $("busy-text");
  const tick = () => { label.textContent = `running ${path}… ${((performance.now() - started) / 1000).toFixed(1)} s`; };
  tick();
  busy.hidden = false;
  const timer = setInterval(tick, 100);
  document.querySelectorAll("button[data-action]:not([data-action=cancel])").forEach((x) => { x.disabled = true; });
  try {
    const res = await fetch(`/api/${path}`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal: controller.signal,
    });
    let data;
    try { data = await res.json(); } catch { data = { error: `HTTP ${res.status}` }; }
    if (!res.ok) { say(data.error || `HTTP ${res.status}`, true); return null; }
    return data;
  } catch (err) {
    say(err.name === "AbortError" ? "cancelled" : `cannot reach the server: ${err.message}`, true);
    return null;
  } finally {
    clearInterval(timer);
    busy.hidden = true;
    if (state.controller === controller) state.controller = null;
    document.querySelectorAll("button[data-action]").forEach((x) => { x.disabled = false; });
  }
}

function cancel() {
  if (state.controller) state.controller.abort();
}

function runBody(extra = {}) {
  return {
    puzzle: state.text, rules: state.rules, grid: gridLine(), engine: $("engine").value,
    timeout: Number($("timeout").value) || 30, ...extra,
  };
}

async function load(text, rules) {
  const data = await post("board", { puzzle: text, rules });
  if (!data) return;
  state.text = text;
  state.rules = rules;
  buildBoard(data);
  say(`loaded a ${data.size}x${data.size} puzzle${data.rules.length ? ` with ${data.rules.map((r) => r.name).join(", ")}` : ""}`);
}

async function loadEngines() {
  try {
    const res = await fetch("/api/engines");
    const rows = await res.json();
    const select = $("engine");
    select.replaceChildren();
    for (const row of rows.filter((r) => r.available)) {
      for (const spec of [row.id, ...row.variants.map((v) => `${row.id}+${v}`)]) {
        const o = document.createElement("option");
        o.value = spec;
        o.textContent = row.version && spec === row.id ? `${spec} (${row.version})` : spec;
        select.appendChild(o);
      }
    }
    select.value = "native";
  } catch { /* the native engine stays selectable */ }
}

function secs(stats) {
  return stats && typeof stats.seconds === "number" ? ` in ${stats.seconds.toFixed(3)} s` : "";
}

function markCells(names, mark) {
  for (const name of names) {
    const i = cellIndex(name.split("=")[0]);
    if (i >= 0) state.marks[i] = mark;
  }
}

function markEliminations(items) {
  for (const e of items) {
    const i = cellIndex(e.cell);
    if (i < 0) continue;
    if (!state.marks[i]) state.marks[i] = "eliminate";
    state.alt[i] = `${state.alt[i]}−${symbol(e.value)}`;
  }
}

function outcomeWords(d) {
  if (d.status === "unsatisfiable") return `no solution (proved by ${d.engine}${secs(d.stats)})`;
  if (d.status === "unknown") return `gave up: ${d.message || "no answer"} (${d.engine}${secs(d.stats)})`;
  if (d.status === "error") return `error: ${d.message}`;
  return "";
}

const actions = {
  async load() { await load($("puzzle-text").value, $("rules-text").value); },
  cancel() { cancel(); },
  clear() { state.values.fill(0); state.pencil.forEach((s) => s.clear()); edited(); say("cleared"); },

  async solve() {
    const d = await post("solve", runBody());
    if (!d) return;
    clearOverlays();
    if (d.status === "solved" && d.solutions.length) {
      state.solved = lineValues(d.solutions[0]);
      say(`solved by ${d.engine}${secs(d.stats)}`);
    } else {
      say(outcomeWords(d), d.status !== "unknown");
    }
    draw();
  },

  async "check-unique"() {
    const d = await post("check-unique", runBody());
    if (!d) return;
    clearOverlays();
    if (d.unique === true) {
      state.solved = lineValues(d.solutions[0]);
      say(`unique: exactly one solution (${d.engine}${secs(d.stats)})`);
    } else if (d.differences && d.differences.length) {
      state.solved = lineValues(d.solutions[0]);
      for (const diff of d.differences) {
        const [cell, vals] = diff.split("=");
        const i = cellIndex(cell);
        state.marks[i] = "difference";
        state.alt[i] = vals.split("/")[1];
      }
      say(`not unique: two solutions differ in ${d.differences.length} cells: ${d.differences.join(" ")}`, true);
    } else {
      say(outcomeWords(d) || "unknown", d.status !== "unknown");
    }
    draw();
  },

  async explain() {
    const d = await post("explain", runBody());
    if (!d) return;
    clearOverlays();
    if (d.status === "unsatisfiable") {
      markCells(d.conflict, "conflict");
      const k = d.conflict.length;
      say(k ? `no solution: ${k === 1 ? "this given has" : `these ${k} givens have`} none: ${d.conflict.join(", ")}`
        : "no solution: the rules alone have none", true);
    } else if (d.status === "solved") {
      const how = d.unique === true ? ", and only one" : d.unique === false ? ", and several"
        : ` (uniqueness ${d.message || "not counted"})`;
      say(`nothing to explain: the puzzle has a solution${how}`);
    } else {
      say(`gave up: ${d.message || "the engine gave up"}`);
    }
    draw();
  },

  async candidates() {
    const d = await post("candidates", runBody());
    if (!d) return;
    clearOverlays();
    if (d.status === "unsatisfiable") { say("no solution: no cell has a candidate", true); draw(); return; }
    for (const [cell, text] of Object.entries(d.candidates)) {
      const i = cellIndex(cell);
      if (!state.board.givens[i] && !state.values[i]) state.pencil[i] = new Set(Array.from(text).map(symbolValue));
    }
    say(`${d.total} candidates (values in at least one solution)${d.status === "unknown" ? `; gave up: ${d.message}` : ""}`);
    draw();
  },

  async hint() {
    const line = gridLine();
    const grade = state.hint && state.hint.line === line && state.hint.grade < GRADES.length - 1
      ? state.hint.grade + 1 : 0;
    const d = await post("hint", runBody({ level: GRADES[grade] }));
    if (!d) return;
    clearOverlays();
    state.hint = { line, grade };
    if (d.status !== "move") {
      say(d.status === "complete" ? "the grid is already complete"
        : d.status === "stalled" ? "logic stalls here: no technique applies"
        : d.status === "unsatisfiable" ? "no solution" : `gave up: ${d.message || ""}`, d.status === "unsatisfiable");
      draw();
      return;
    }
    markCells(d.house_cells || [], "house");
    markCells(d.pattern || [], "hint");
    if (GRADES[grade] === "answer") {
      for (const p of d.placements) { const i = cellIndex(p.cell); state.values[i] = p.value; state.marks[i] = "answer"; }
      for (const e of d.eliminations) state.pencil[cellIndex(e.cell)].delete(e.value);
      markEliminations(d.eliminations);
      state.hint = null;        // the next press starts a new hint on the new position
    }
    say(`hint (${GRADES[grade]}): ${d.text}`);
    draw();
  },

  async steps() {
    const d = await post("steps", runBody());
    if (!d) return;
    clearOverlays();
    if (!d.steps) { say(d.message || d.status, d.status === "unsatisfiable"); draw(); return; }
    state.path = d;
    state.base = state.values.slice();
    const list = $("step-list");
    list.replaceChildren();
    d.steps.forEach((s, k) => {
      const li = document.createElement("li");
      li.textContent = s.text;
      li.addEventListener("click", () => showStep(k + 1));
      list.appendChild(li);
    });
    $("path").hidden = false;
    showStep(0);
  },
  "step-first"() { showStep(0); },
  "step-prev"() { showStep(state.step - 1); },
  "step-next"() { showStep(state.step + 1); },
  "step-last"() { showStep(state.path ? state.path.steps.length : 0); },
};

function showStep(k) {
  const path = state.path;
  if (!path) return;
  k = Math.max(0, Math.min(k, path.steps.length));
  state.step = k;
  clearOverlays();
  state.values = state.base.slice();
  for (const s of path.steps.slice(0, k)) for (const p of s.placements) state.values[cellIndex(p.cell)] = p.value;
  const items = $("step-list").children;
  for (let j = 0; j < items.length; j++) items[j].classList.toggle("current", j === k - 1);
  $("step-count").textContent = `${k} / ${path.steps.length}`;
  if (k === 0) {
    say(`${path.status === "solved" ? `solved by logic alone in ${path.steps.length} steps`
      : `logic stalls after ${path.steps.length} steps`}; rating ${path.rating.score} (${path.rating.level}, hardest: ${path.rating.hardest || "none"})`);
  } else {
    const s = path.steps[k - 1];
    markCells(s.pattern, "hint");
    for (const p of s.placements) state.marks[cellIndex(p.cell)] = "answer";
    markEliminations(s.eliminations);
    say(`step ${k}: ${s.text}`);
    if (items[k - 1]) items[k - 1].scrollIntoView({ block: "nearest" });
  }
  draw();
}

function hidePath() {
  state.path = null;
  $("path").hidden = true;
}

// ---- start ---------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("[data-action]").forEach((el) => {
    el.addEventListener("click", () => actions[el.dataset.action]());
  });
  const params = new URLSearchParams(location.search);
  const text = params.get("puzzle") || ".".repeat(81);
  const rules = params.get("rules") || "";
  $("puzzle-text").value = params.get("puzzle") || "";
  $("rules-text").value = rules;
  loadEngines();
  load(text, rules);
});
