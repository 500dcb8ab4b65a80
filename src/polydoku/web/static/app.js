// polydoku's page: input (keys, pointer, the digit pad), the buttons that call the JSON API,
// the engines menu, and start-up from the address. The board itself is grid.js.

import {
  $, MODES, S, buildBoard, cellIndex, cellName, change, clearAll, clearOverlays, columns, draw, enter,
  entriesLine, erase, gridLine, lineValues, move, redo, refresh, saveNow, select, setMode,
  sizeCells, symbol, symbolValue, undo, valueAt,
} from "./grid.js";

const GRADES = ["nudge", "technique", "cells", "answer"];
const MODE_KEYS = { z: "digit", x: "corner", c: "centre", v: "colour" };
const UI = { controller: null, hint: null, path: null, step: 0, engines: new Map() };

// ---- status ------------------------------------------------------------------------------

function say(text, bad = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("bad", bad);
}
S.say = say;
S.onEdit = () => { UI.hint = null; hidePath(); };

// ---- input -------------------------------------------------------------------------------

function isTyping(target) {
  return target instanceof HTMLElement && (target.matches("input, textarea, select") || target.isContentEditable);
}

function onKey(ev) {
  if (!S.board || isTyping(ev.target) || ev.altKey) return;
  const key = ev.key, ctrl = ev.ctrlKey || ev.metaKey;
  if (ctrl && (key === "z" || key === "Z")) { if (ev.shiftKey) redo(); else undo(); ev.preventDefault(); return; }
  if (ctrl && (key === "y" || key === "Y")) { redo(); ev.preventDefault(); return; }
  if (ctrl && (key === "a" || key === "A")) {
    S.sel = new Set(S.values.map((_, i) => i));
    draw();
    ev.preventDefault();
    return;
  }
  if (ctrl) return;
  if (key.startsWith("Arrow")) { move(key, ev.shiftKey); ev.preventDefault(); return; }
  if (key === "Backspace" || key === "Delete") { erase(); ev.preventDefault(); return; }
  if (key === "Escape") { S.sel = new Set(); draw(); return; }
  const v = symbolValue(key) || (/^Digit[0-9]$/.test(ev.code) && ev.shiftKey ? symbolValue(ev.code.slice(5)) : 0);
  if (v) {
    if (!S.sel.size) select(S.focus);
    const mode = S.mode;
    if (ev.shiftKey && S.mode === "digit") S.mode = "corner";        // SudokuPad's shortcut
    enter(v);
    S.mode = mode;
    draw();
    ev.preventDefault();
    return;
  }
  const lower = key.toLowerCase();
  if (lower in MODE_KEYS) { setMode(MODE_KEYS[lower]); ev.preventDefault(); return; }
  if (key === " ") { setMode(MODES[(MODES.indexOf(S.mode) + 1) % MODES.length]); ev.preventDefault(); return; }
  if (lower === "p") { setMode(S.mode === "centre" ? "digit" : "centre"); ev.preventDefault(); return; }
  if (key === "." || key === "0") { erase(); ev.preventDefault(); }
}

function cellAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const cell = el && el.closest("#cells .cell");
  return cell ? cellIndex(cell.dataset.cell) : -1;
}

function setUpPointer() {
  const grid = $("cells");
  let dragging = false;
  grid.addEventListener("pointerdown", (ev) => {
    const i = cellAt(ev.clientX, ev.clientY);
    if (i < 0) return;
    dragging = true;
    select(i, { add: ev.shiftKey, toggle: ev.ctrlKey || ev.metaKey });
    ev.preventDefault();
  });
  grid.addEventListener("pointermove", (ev) => {
    if (!dragging) return;
    const i = cellAt(ev.clientX, ev.clientY);
    if (i >= 0 && !S.sel.has(i)) select(i, { add: true });
  });
  const stop = () => { dragging = false; };
  window.addEventListener("pointerup", stop);
  window.addEventListener("pointercancel", stop);
  $("digits").addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-digit]");
    if (!b) return;
    if (!S.sel.size) select(S.focus);
    enter(Number(b.dataset.digit));
  });
  document.querySelectorAll("[data-mode]").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  new ResizeObserver(sizeCells).observe(grid);
}

// ---- talking to the API --------------------------------------------------------------------

async function post(path, body, { quiet = false } = {}) {
  cancel();
  const controller = new AbortController();
  UI.controller = controller;
  const started = performance.now();
  const busy = $("busy"), label = $("busy-text");
  const tick = () => { label.textContent = `running ${path}… ${((performance.now() - started) / 1000).toFixed(1)} s`; };
  tick();
  const timer = setInterval(tick, 100);
  const show = setTimeout(() => { busy.hidden = false; }, quiet ? 400 : 0);
  const buttons = document.querySelectorAll(".controls button[data-action]");
  buttons.forEach((x) => { x.disabled = true; });
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
    clearTimeout(show);
    busy.hidden = true;
    if (UI.controller === controller) UI.controller = null;
    buttons.forEach((x) => { x.disabled = false; });
  }
}

function cancel() { if (UI.controller) UI.controller.abort(); }

function engineSpec() { return $("engine").value || "native"; }

function runBody(extra = {}) {
  return {
    puzzle: S.text || ".".repeat(S.board.size * columns()), rules: S.rules, grid: gridLine(),
    engine: engineSpec(), timeout: Number($("timeout").value) || 30, ...extra,
  };
}

function can(power) {
  const row = UI.engines.get(engineSpec().split("+")[0]);
  return !row || row.capabilities.includes(power);
}

async function load(text, rules, saved = null) {
  const data = await post("board", { puzzle: text || ".".repeat(81), rules }, { quiet: true });
  if (!data) return false;
  S.text = text;
  S.rules = rules;
  buildBoard(data, saved);
  UI.hint = null;
  hidePath();
  const unchecked = data.checks.unchecked.length ? `; not checked as you type: ${data.checks.unchecked.join(", ")}` : "";
  say(`loaded a ${data.size}x${data.cols || data.size} puzzle${data.rules.length ? ` with ${data.rules.map((r) => r.name).join(", ")}` : ""}${unchecked}`);
  saveNow();
  return true;
}

function secs(stats) {
  return stats && typeof stats.seconds === "number" ? ` in ${stats.seconds.toFixed(3)} s` : "";
}

function markCells(names, mark) {
  for (const name of names) {
    const i = cellIndex(name.split("=")[0]);
    if (i >= 0) S.marks[i] = mark;
  }
}

function markEliminations(items) {
  for (const e of items) {
    const i = cellIndex(e.cell);
    if (i < 0) continue;
    if (!S.marks[i]) S.marks[i] = "eliminate";
    S.alt[i] = `${S.alt[i]}−${symbol(e.value)}`;
  }
}

function outcomeWords(d) {
  if (d.status === "unsatisfiable") return d.message || `no solution (proved by ${d.engine}${secs(d.stats)})`;
  if (d.status === "unknown") return `gave up: ${d.message || "no answer"} (${d.engine}${secs(d.stats)})`;
  if (d.status === "error") return `error: ${d.message}`;
  return "";
}

function showValues(line) {
  S.shown = lineValues(line).map((v, i) => (valueAt(i) ? 0 : v));
}

const actions = {
  async load() { await load($("puzzle-text").value.trim(), $("rules-text").value.trim()); },
  cancel() { cancel(); },
  undo() { undo(); },
  redo() { redo(); },
  erase() { erase(); },
  clear() { clearAll(); say("cleared every entry, mark and colour (undo brings them back)"); },

  pencil() {
    const vals = S.board.givens.map((g, i) => g || S.values[i]);
    const open = S.checker.open(vals);
    const cells = vals.map((v, i) => i).filter((i) => !vals[i]);
    change(cells, (i) => { S.centre[i] = new Set(open[i]); });
    const none = cells.filter((i) => !open[i].length);
    say(none.length ? `pencil marks: ${none.map(cellName).join(", ")} can hold nothing the entries allow`
      : "pencil marks: what the entries leave open in each empty cell (centre marks)", none.length > 0);
  },

  async check() {
    const d = await post("check", { ...runBody(), grid: undefined, entries: entriesLine() });
    if (!d) return;
    clearOverlays();
    if (d.status !== "solved") { say(outcomeWords(d), d.status !== "unknown"); draw(); return; }
    const by = d.engine !== engineSpec() ? ` (counted by ${d.engine}: ${engineSpec()} cannot count)` : "";
    if (d.unique) {
      markCells(d.wrong, "conflict");
      const left = d.empty ? `, ${d.empty} cells to go` : "";
      say(d.wrong.length ? `${d.wrong.length} of your entries ${d.wrong.length === 1 ? "is" : "are"} wrong: ${d.wrong.join(", ")}${by}`
        : `all ${d.entered} of your entries are right${left}${by}`, d.wrong.length > 0);
    } else {
      say(d.fits ? `your entries fit a solution (the puzzle has more than one, so none is the answer)${by}`
        : `your entries fit no solution (the puzzle has more than one, so no single entry is to blame)${by}`, !d.fits);
    }
    draw();
  },

  async solve() {
    const d = await post("solve", runBody());
    if (!d) return;
    clearOverlays();
    if (d.status === "solved" && d.solutions.length) {
      showValues(d.solutions[0]);
      const by = can("count") ? "" : ` (counted by native: ${d.engine} cannot count)`;
      const unique = d.unique === true ? `; the only solution${by}`
        : d.unique === false ? `; the puzzle has more than one solution: this is one of them${by}`
          : "; uniqueness not checked (the search for a second solution ran out of time)";
      say(`solved by ${d.engine}${secs(d.stats)}${unique}`, d.unique === false);
    } else {
      say(outcomeWords(d), d.status !== "unknown");
    }
    draw();
  },

  async "check-unique"() {
    if (!can("count")) { say(`${engineSpec()} cannot count solutions, so it cannot tell one from several (try native)`, true); return; }
    const d = await post("check-unique", runBody());
    if (!d) return;
    clearOverlays();
    if (d.unique === true) {
      showValues(d.solutions[0]);
      say(`unique: exactly one solution (${d.engine}${secs(d.stats)})`);
    } else if (d.differences && d.differences.length) {
      showValues(d.solutions[0]);
      for (const diff of d.differences) {
        const [cell, vals] = diff.split("=");
        const i = cellIndex(cell);
        S.marks[i] = "difference";
        S.alt[i] = vals.split("/")[1];
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
    if (d.status === "unsatisfiable") { say(d.message || "no solution: no cell has a candidate", true); draw(); return; }
    const cells = [];
    const found = new Map();
    for (const [cell, text] of Object.entries(d.candidates)) {
      const i = cellIndex(cell);
      if (i >= 0 && !valueAt(i)) { cells.push(i); found.set(i, new Set(lineValues(text))); }
    }
    change(cells, (i) => { S.centre[i] = found.get(i); });
    say(`true candidates: ${d.total} values found in at least one solution, as centre marks${d.status === "unknown" ? `; gave up: ${d.message}` : ""}`);
    draw();
  },

  async hint() {
    const line = gridLine();
    const grade = UI.hint && UI.hint.line === line && UI.hint.grade < GRADES.length - 1 ? UI.hint.grade + 1 : 0;
    const d = await post("hint", runBody({ level: GRADES[grade] }));
    if (!d) return;
    clearOverlays();
    if (d.status !== "move") {
      UI.hint = null;
      say(d.status === "complete" ? "the grid is already complete"
        : d.status === "stalled" ? "logic stalls here: no technique applies"
          : d.status === "unsatisfiable" ? d.message || "no solution" : `gave up: ${d.message || ""}`, d.status === "unsatisfiable");
      draw();
      return;
    }
    if (GRADES[grade] === "answer") {
      const placed = new Map(d.placements.map((p) => [cellIndex(p.cell), p.value]));
      const gone = d.eliminations.map((e) => [cellIndex(e.cell), e.value]);
      change([...new Set([...placed.keys(), ...gone.map((g) => g[0])])], (i) => {
        if (placed.has(i)) S.values[i] = placed.get(i);
        for (const [j, v] of gone) if (j === i) { S.centre[i].delete(v); S.corner[i].delete(v); }
      });
      for (const i of placed.keys()) S.marks[i] = "answer";
      markEliminations(d.eliminations);
      UI.hint = null;
    } else {
      UI.hint = { line, grade };
    }
    markCells(d.house_cells || [], "house");
    markCells(d.pattern || [], "hint");
    say(`hint (${GRADES[grade]}): ${d.text}`);
    draw();
  },

  async steps() {
    const d = await post("steps", runBody());
    if (!d) return;
    clearOverlays();
    if (!d.steps) { say(d.message || d.status, d.status === "unsatisfiable"); draw(); return; }
    UI.path = d;
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
  "step-prev"() { showStep(UI.step - 1); },
  "step-next"() { showStep(UI.step + 1); },
  "step-last"() { showStep(UI.path ? UI.path.steps.length : 0); },

  async export() {
    const d = await post("links", { puzzle: S.text || ".".repeat(S.board.size * columns()), rules: S.rules }, { quiet: true });
    if (!d) return;
    const list = $("links");
    list.replaceChildren();
    for (const link of d.links) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = link.url;
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      a.dataset.link = link.app;
      a.textContent = `open in ${link.title}`;
      li.appendChild(a);
      list.appendChild(li);
    }
    for (const m of d.missing || []) {
      const li = document.createElement("li");
      li.textContent = m;
      list.appendChild(li);
    }
    $("puzzle-box").open = true;
    say(`links to ${d.links.map((l) => l.title).join(", ")} (the givens and rules; not your entries)`);
  },

  async share() {
    saveNow();
    try { await navigator.clipboard.writeText(location.href); say("copied this page's link: it holds the puzzle, your entries, marks and colours"); } catch {
      say("this page's address holds the puzzle, your entries, marks and colours: copy it from the address bar");
    }
  },
};

function showStep(k) {
  const path = UI.path;
  if (!path) return;
  k = Math.max(0, Math.min(k, path.steps.length));
  UI.step = k;
  clearOverlays();
  for (const s of path.steps.slice(0, k)) for (const p of s.placements) { const i = cellIndex(p.cell); if (!valueAt(i)) S.shown[i] = p.value; }
  const items = $("step-list").children;
  for (let j = 0; j < items.length; j++) items[j].classList.toggle("current", j === k - 1);
  $("step-count").textContent = `${k} / ${path.steps.length}`;
  if (k === 0) {
    say(`${path.status === "solved" ? `solved by logic alone in ${path.steps.length} steps`
      : `logic stalls after ${path.steps.length} steps`}; rating ${path.rating.score} (${path.rating.level}, hardest: ${path.rating.hardest || "none"})`);
  } else {
    const s = path.steps[k - 1];
    markCells(s.pattern, "hint");
    for (const p of s.placements) S.marks[cellIndex(p.cell)] = "answer";
    markEliminations(s.eliminations);
    say(`step ${k}: ${s.text}`);
    if (items[k - 1]) items[k - 1].scrollIntoView({ block: "nearest" });
  }
  draw();
}

function hidePath() {
  UI.path = null;
  $("path").hidden = true;
}

// ---- the engines menu: complete at once (from /engines.js), availability when known --------

const GROUPS = [["polydoku", "polydoku"], ["solvers", "solvers"], ["managers", "package managers"]];

function buildEngines() {
  const list = window.POLYDOKU_ENGINES || [];
  const select = $("engine");
  select.replaceChildren();
  for (const [key, title] of GROUPS) {
    const group = document.createElement("optgroup");
    group.label = title;
    for (const row of list.filter((r) => r.group === key)) {
      UI.engines.set(row.id, row);
      for (const spec of row.specs) {
        const o = document.createElement("option");
        o.value = spec;
        o.textContent = spec === row.id ? row.id : spec;
        o.title = row.title;
        group.appendChild(o);
      }
    }
    if (group.children.length) select.appendChild(group);
  }
  select.value = "native";
  select.addEventListener("change", noteEngine);
}

async function checkEngines() {
  let rows;
  try { rows = await (await fetch("/api/engines")).json(); } catch { return; }
  for (const row of rows) {
    const known = UI.engines.get(row.id);
    if (known) Object.assign(known, { available: row.available, version: row.version, reason: row.reason, install: row.install });
  }
  for (const o of $("engine").options) {
    const row = UI.engines.get(o.value.split("+")[0]);
    if (!row || row.available === undefined) continue;
    o.disabled = !row.available;
    o.textContent = `${o.value}${row.available ? (row.version && o.value === row.id ? ` (${row.version.split(" ")[0]})` : "") : " — not installed"}`;
    o.title = row.available ? row.title : `${row.reason}. Install: ${row.install}`;
  }
  const missing = [...UI.engines.values()].filter((r) => r.available === false);
  $("missing-list").replaceChildren(...missing.map((r) => {
    const li = document.createElement("li");
    li.dataset.engine = r.id;
    li.textContent = `${r.id}: ${r.reason}. Install: ${r.install}`;
    return li;
  }));
  $("missing").hidden = !missing.length;
  $("engine").dataset.checked = "true";
  noteEngine();
}

function noteEngine() {
  const row = UI.engines.get(engineSpec().split("+")[0]);
  const note = $("engine-note");
  if (!row) { note.textContent = ""; return; }
  const lacks = [];
  if (!row.capabilities.includes("count")) lacks.push("cannot count solutions (no uniqueness check, no true candidates)");
  const missing = [...UI.engines.values()].filter((r) => r.available === false).length;
  note.textContent = `${row.title}${lacks.length ? `; ${lacks.join("; ")}` : ""}${missing ? ` · ${missing} engines are not installed here (greyed; how to install them is below)` : ""}`;
}

// ---- start ---------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", async () => {
  document.querySelectorAll("[data-action]").forEach((el) => {
    el.addEventListener("click", () => actions[el.dataset.action]());
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("pagehide", saveNow);
  setUpPointer();
  buildEngines();
  checkEngines();
  const params = new URLSearchParams(location.search);
  const text = params.get("puzzle") || "";
  const rules = params.get("rules") || "";
  $("puzzle-text").value = text;
  $("rules-text").value = rules;
  if (await load(text, rules, params)) {
    const filled = S.values.filter(Boolean).length;
    if (filled) say(`${$("status").textContent}; kept ${filled} ${filled === 1 ? "entry" : "entries"} from the address`);
    select(0);
    refresh();
  }
});
