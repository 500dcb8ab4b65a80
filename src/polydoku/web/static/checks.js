// Which filled cells break a rule, worked out in the browser from the constraints the server
// sends once per puzzle (`checks` of /api/board), so that typing never waits on the server.
// A constraint over cells alone is checked on its own: it is broken when no values of its empty
// cells satisfy it together with the filled ones (exact for groups, nogoods, differences and
// tables; a bound check, never a false alarm, for sums). Constraints tied together by auxiliary
// variables (a renban's lowest value, a sandwich's positions) are checked together: broken when
// no values of those variables satisfy them all, searched within a budget (past it, nothing is
// marked). On a full grid the cells fix every auxiliary variable, so the check is exact there.

const BUDGET = 4000;        // auxiliary assignments tried per group of constraints and check
const FITS_BUDGET = 1000;   // the same for each value tried when filling pencil marks

export class Checker {
  constructor(checks, size, values, cols) {
    this.size = size;
    this.values = values || size;     // a cell's values: more than a house's cells on some grids
    this.ncells = size * (cols || size);
    this.labels = checks.labels;
    this.domains = checks.domains;
    this.groups = checks.groups;
    this.nogoods = checks.nogoods;
    this.diffs = checks.diffs;
    this.tables = checks.tables;
    this.sums = checks.sums;
    this.unchecked = checks.unchecked;
    this.byCell = Array.from({ length: this.ncells }, () => []);   // constraints touching a cell
    this.plain = [];                                                // over cells alone
    const linked = [];                                              // with auxiliary variables
    const items = [
      ...this.groups.map((c) => ["group", c, c.slice(1), c[0]]),
      ...this.nogoods.map((c) => ["nogood", c, [c[0], c[2]], c[4]]),
      ...this.diffs.map((c) => ["diff", c, [c[0], c[1]], c[3]]),
      ...this.tables.map((c) => ["table", c, c[1], c[0]]),
      ...this.sums.map((c) => ["sum", c, c[1], c[0]]),
    ];
    for (const item of items) (item[2].some((v) => v >= this.ncells) ? linked : this.plain).push(item);
    this.links = this.linkedGroups(linked);
    for (const item of this.plain) for (const v of item[2]) this.byCell[v].push(item);
    for (const link of this.links) for (const v of link.cells) this.byCell[v].push(["link", link, link.cells, link.label]);
    this.peers = Array.from({ length: this.ncells }, () => new Set());
    for (const g of this.groups) {
      for (const a of g.slice(1)) for (const b of g.slice(1)) if (a !== b && a < this.ncells && b < this.ncells) this.peers[a].add(b);
    }
  }

  domain(v) { return v < this.ncells ? this.values : this.domains[v - this.ncells]; }

  // Return the constraints with auxiliary variables in groups that share them: per group its
  // auxiliary variables, its constraints (by the variables they hold), its cells and a label.
  linkedGroups(linked) {
    const parent = new Map();
    const find = (x) => { while (parent.get(x) !== x) x = parent.get(x); return x; };
    for (const [, , vars] of linked) {
      const aux = vars.filter((v) => v >= this.ncells);
      for (const a of aux) if (!parent.has(a)) parent.set(a, a);
      for (const a of aux.slice(1)) parent.set(find(a), find(aux[0]));
    }
    const out = new Map();
    for (const item of linked) {
      const root = find(item[2].find((v) => v >= this.ncells));
      if (!out.has(root)) out.set(root, { aux: new Set(), items: [], cells: new Set(), label: item[3] });
      const g = out.get(root);
      for (const v of item[2]) (v >= this.ncells ? g.aux : g.cells).add(v);
      g.items.push(item);
    }
    return [...out.values()].map((g) => {
      const aux = [...g.aux];
      // each constraint is checked once the last of its auxiliary variables is set
      const last = new Map(aux.map((a) => [a, []]));
      for (const item of g.items) {
        const mine = item[2].filter((v) => v >= this.ncells);
        last.get(mine.reduce((x, y) => (aux.indexOf(x) > aux.indexOf(y) ? x : y))).push(item);
      }
      return { aux, items: g.items, cells: [...g.cells], label: g.label, last, memo: new Map() };
    });
  }

  // Return whether some values of a group's auxiliary variables satisfy all its constraints
  // with the filled cells (true as well when the budget runs out: nothing is claimed).
  linkHolds(link, vals, budget = BUDGET) {
    // remembered by the group's cell values: a keystroke changes one group or a few
    const key = link.cells.map((v) => vals[v]).join(",");
    if (budget === BUDGET && link.memo.has(key)) return link.memo.get(key);
    const holds = this.search(link, vals, budget);
    if (budget === BUDGET) {
      if (link.memo.size > 256) link.memo.clear();
      link.memo.set(key, holds);
    }
    return holds;
  }

  search(link, vals, budget) {
    const extra = new Map();
    let tries = 0;
    const place = (k) => {
      if (k === link.aux.length) return true;
      const a = link.aux[k];
      for (let x = 1; x <= this.domain(a); x++) {
        if (++tries > budget) return true;
        extra.set(a, x);
        if (link.last.get(a).every(([kind, c]) => !this.broken(kind, c, vals, extra).length) && place(k + 1)) return true;
      }
      extra.delete(a);
      return false;
    };
    if (!link.cells.some((v) => vals[v])) return true;
    return place(0);
  }

  // Return the cells of one constraint that clash in `vals` (0 = empty; auxiliary variables
  // from `extra`, unset ones free), [] when it holds.
  broken(kind, c, vals, extra = null) {
    const at = (v) => (v < this.ncells ? vals[v] : (extra && extra.get(v)) || 0);
    if (kind === "group") {
      const seen = new Map(), out = new Set();
      for (const v of c.slice(1)) {
        const x = at(v);
        if (!x) continue;
        if (seen.has(x)) { out.add(seen.get(x)); out.add(v); } else seen.set(x, v);
      }
      return [...out];
    }
    if (kind === "nogood") return at(c[0]) === c[1] && at(c[2]) === c[3] ? [c[0], c[2]] : [];
    if (kind === "diff") {
      const x = at(c[0]), y = at(c[1]);
      return x && y && Math.abs(x - y) === c[2] ? [c[0], c[1]] : [];
    }
    if (kind === "table") {
      const vars = c[1], filled = [];
      vars.forEach((v, k) => { if (at(v)) filled.push(k); });
      if (!filled.length) return [];
      const fits = c[2].some((t) => filled.every((k) => t[k] === at(vars[k])));
      return fits ? [] : filled.map((k) => vars[k]);
    }
    // a sum: the filled part plus what the rest can still add must reach the right side
    const [, vars, coefs, rhs, op] = c;
    let lo = 0, hi = 0, any = false;
    vars.forEach((v, k) => {
      const x = at(v), w = coefs[k];
      if (x) { lo += w * x; hi += w * x; any = true; return; }
      const top = this.domain(v);
      lo += Math.min(w, w * top);
      hi += Math.max(w, w * top);
    });
    if (!any) return [];
    const ok = op === "==" ? lo <= rhs && rhs <= hi : op === "<=" ? lo <= rhs : hi >= rhs;
    return ok ? [] : vars.filter((v) => at(v));
  }

  // Return {cell: [label, other cells]} for every filled cell that breaks a constraint.
  conflicts(vals) {
    const out = new Map();
    // a cell keeps the first constraint it breaks, with the cells it clashes with there
    const add = (cells, label) => {
      for (const cell of cells) {
        if (!out.has(cell)) out.set(cell, { label: this.labels[label], with: cells.filter((o) => o !== cell) });
      }
    };
    for (const [kind, c, , label] of this.plain) {
      const cells = this.broken(kind, c, vals);
      if (cells.length) add(cells, label);
    }
    for (const link of this.links) {
      if (!this.linkHolds(link, vals)) add(link.cells.filter((v) => vals[v]), link.label);
    }
    return out;
  }

  // Return whether value x in cell i breaks nothing with the other filled cells.
  fits(vals, i, x) {
    const old = vals[i];
    vals[i] = x;
    let ok = true;
    for (const [kind, c] of this.byCell[i]) {
      if (kind === "link" ? !this.linkHolds(c, vals, FITS_BUDGET) : this.broken(kind, c, vals).includes(i)) { ok = false; break; }
    }
    vals[i] = old;
    return ok;
  }

  // Return, per empty cell, the values the filled cells leave open (ordinary pencil marks).
  open(vals) {
    return vals.map((x, i) => {
      if (x) return [];
      const out = [];
      for (let v = 1; v <= this.values; v++) if (this.fits(vals, i, v)) out.push(v);
      return out;
    });
  }
}
