// Which filled cells break a rule, worked out in the browser from the constraints the server
// sends once per puzzle (`checks` of /api/board), so that typing never waits on the server.
// Each constraint is checked on its own: it is broken when no values of its empty cells and
// auxiliary variables satisfy it together with the filled cells (exact for groups, nogoods,
// differences and tables; a bound check, never a false alarm, for sums).

export class Checker {
  constructor(checks, size) {
    this.size = size;
    this.ncells = size * size;
    this.labels = checks.labels;
    this.domains = checks.domains;
    this.groups = checks.groups;
    this.nogoods = checks.nogoods;
    this.diffs = checks.diffs;
    this.tables = checks.tables;
    this.sums = checks.sums;
    this.unchecked = checks.unchecked;
    this.byCell = Array.from({ length: this.ncells }, () => []);   // constraints touching a cell
    const note = (vars, item) => { for (const v of vars) if (v < this.ncells) this.byCell[v].push(item); };
    this.groups.forEach((g) => note(g.slice(1), ["group", g]));
    this.nogoods.forEach((g) => note([g[0], g[2]], ["nogood", g]));
    this.diffs.forEach((g) => note([g[0], g[1]], ["diff", g]));
    this.tables.forEach((g) => note(g[1], ["table", g]));
    this.sums.forEach((g) => note(g[1], ["sum", g]));
    this.peers = Array.from({ length: this.ncells }, () => new Set());
    for (const g of this.groups) {
      for (const a of g.slice(1)) for (const b of g.slice(1)) if (a !== b && a < this.ncells && b < this.ncells) this.peers[a].add(b);
    }
  }

  domain(v) { return v < this.ncells ? this.size : this.domains[v - this.ncells]; }

  // Return the cells of one constraint that clash in `vals` (0 = empty), [] when it holds.
  broken(kind, c, vals) {
    const at = (v) => (v < this.ncells ? vals[v] : 0);
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
    const kinds = [["group", this.groups, 0], ["nogood", this.nogoods, 4], ["diff", this.diffs, 3],
      ["table", this.tables, 0], ["sum", this.sums, 0]];
    for (const [kind, list, at] of kinds) {
      for (const c of list) {
        const cells = this.broken(kind, c, vals);
        if (cells.length) add(cells, c[at]);
      }
    }
    return out;
  }

  // Return whether value x in cell i breaks nothing with the other filled cells.
  fits(vals, i, x) {
    const old = vals[i];
    vals[i] = x;
    let ok = true;
    for (const [kind, c] of this.byCell[i]) {
      if (this.broken(kind, c, vals).includes(i)) { ok = false; break; }
    }
    vals[i] = old;
    return ok;
  }

  // Return, per empty cell, the values the filled cells leave open (ordinary pencil marks).
  open(vals) {
    return vals.map((x, i) => {
      if (x) return [];
      const out = [];
      for (let v = 1; v <= this.size; v++) if (this.fits(vals, i, v)) out.push(v);
      return out;
    });
  }
}
