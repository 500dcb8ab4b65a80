/* polydoku._core: the native engine's compiled search.

   The same problem as the pure-Python engine (engines/native.py) reads, in the same terms:
   variables 0..n-1, each with values 1..dsize[v] (at most 64, one bit per value in a uint64),
   and four kinds of constraint taken from the compiled cell view:

   - peers: variables that must differ from v (every AllDifferent it is in);
   - units: AllDifferent groups over as many variables as there are values, in which every
     value must appear once (hidden singles and locked candidates read them);
   - conflicts: per option (v, a), the values of other variables it forbids (nogoods,
     |x-y| != d, thermometers, dots ... as the Python side collected them);
   - tables (allowed tuples) and linear sums, filtered to support (generalised arc
     consistency) once the cheaper steps are done, each only when a variable of it narrowed
     since it was last filtered; in search, a sum's cells that see each other are filtered
     by the sets of different values they can take (dsum_filter, gsum_filter), and a killer
     cage's sets also hold what the rest of a unit holding it cannot, and the values all its
     sets hold leave the cells seeing all their places (house_must, required_out).

   A search state is the candidate array: one uint64 per variable. Search copies it at each
   branch (a few hundred bytes for 9x9), so nothing is undone on backtracking. Branching takes
   the variable (cell or auxiliary) with fewest candidates per weight (dom/wdeg), or a value's
   two places in a unit when they weigh more than that variable (pair_place).

   Roads not taken (1,000-puzzle samples, first solution, same run):
   - locked candidates at every node, not only at the root: 20-25% fewer nodes on the hard
     samples, no faster (and 24% slower on 17-clue puzzles);
   - branching on a value with two places left in a unit whenever no cell has two
     candidates, weights aside: about the same on classic puzzles, and worse on arrows
     (474 -> 52,625 nodes); weighed against the cell, as pair_place does, it is kept;
   - on a value's places in a unit when they are fewer than the best cell's candidates
     (three, four...), weighed as pair_place does: thermometers gain more ('A kind of magic'
     63 k nodes), killers lose (ISS's collection: 14 puzzles more finished within 3 s with
     two places only, Wecoc #2 16.5 k -> 60 k nodes with more);
   - scanning for hidden singles only the units that changed since their last scan: marking
     them costs more than the scans it saves (forum-hardest 179 -> 229 ms).

   Nothing here allocates per node: the frames of the search are one block, grown on depth.
   The interpreter's signals are polled every 64 nodes (Ctrl-C raises KeyboardInterrupt),
   and so is the deadline (CLOCK_MONOTONIC, the clock of Python's time.monotonic). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;

#define POPC(x) __builtin_popcountll(x)
#define CTZ(x) __builtin_ctzll(x)
#define SINGLE(x) (((x) & ((x) - 1)) == 0)

typedef struct {
    int arity, ntuples, words;
    int search_only;      /* implied by a rule, to prune sooner: filtered in search only */
    int *vars;
    u64 *pair;            /* a pair (x, y) read by masks: per value of x, the values of y it
                             allows (then `sets` is unused) */
    u64 *sets;            /* [column][value][word]: tuples with that value in that column */
    u64 *valid;           /* scratch: words */
} Table;

typedef struct {
    int arity, words;
    int *vars;
    int *shift;           /* [term][value]: the term's contribution, shifted to be >= 0 */
    int maxd;
    u64 *target;          /* words: allowed totals */
    u64 *reach;           /* scratch: (arity + 1) * words */
    u64 *need;            /* scratch: (arity + 1) * words */
    u64 *tmp;             /* scratch: words */
    int distinct;         /* the terms are cells that all differ, each worth its value, of
                             values 1..distinct (at most DSUM_MAXD): filtered by value sets */
    int swords;           /* words of a set of value sets (2^distinct bits) */
    u64 *fw, *bw;         /* scratch: (arity + 1) * swords, value sets after each term */
    u64 *good;            /* swords: the value sets whose total is allowed */
    int *cstart, *cvar;   /* CSR per full unit holding every term (a distinct sum): the
                             unit's other variables (see house_must) */
    int *cunit, ncomp;    /* those units */
    /* groups of terms that all differ (see gsum_filter): ngroups > 0 filters by them */
    int ngroups;
    int *gstart, *gterm;  /* CSR: the terms of each group */
    int *gsign;           /* per group of two terms or more: +1 or -1, its terms' coefficient */
    int *gd;              /* per group of two terms or more: its cells' values 1..d */
    u64 *gsums;           /* scratch: ngroups * words, the totals each group can make */
    u64 *gsets;           /* scratch: (arity + ngroups) * gswords, value sets per group */
    int gswords;
    int search_only;      /* implied (house sums): filtered in search only */
} Sum;

#define DSUM_MAXD 12

typedef struct {
    int *a_in, *a_out1, *a_out2;     /* intersection, the rest of unit 1, the rest of unit 2 */
    int n_in, n_out1, n_out2;
} Cross;

typedef struct {
    PyObject_HEAD
    int n, ncells, maxd;
    u64 *full;                    /* per variable: all its values */
    u64 *start;                   /* per variable: values left once self-conflicts are gone */
    int *peer_start, *peer;       /* CSR */
    int nunits, *unit_start, *unit; u64 *unit_full;
    int *conf_start, *conf_var; u64 *conf_mask;   /* CSR over options var * maxd + value-1 */
    int ntables; Table *tables;
    int nsums; Sum *sums;
    int ncross; Cross *cross;
    int *queue;                   /* n + 1 entries: a variable is queued when it turns single */
    unsigned char *queued;
    u64 *weight;                  /* per variable: how often its domain emptied or a table
                                     or sum on it failed (dom/wdeg), plus the tables and sums
                                     on it */
    int *watch_start, *watch;     /* CSR: per variable, the tables and sums (ntables + k) on it */
    unsigned char *dirty;         /* per table and sum: a variable of it narrowed since its
                                     last filtering, in this fixpoint (all, when it starts) */
    unsigned char *repeats;       /* per table and sum: a variable listed twice, so that one
                                     filtering may leave more for the next */
    int strong;                   /* search only: sums over cells that differ by value sets */
    u64 *frames; int nframes;     /* search frames, n each */
    u64 *first;                   /* the first solution's masks (solve_lines reads it) */
    /* per run */
    long long nodes, guesses, found, limit, keep;
    double deadline; int timed_out;
    PyObject *solutions;
} Core;

/* ------------------------------------------------------------------ propagation */

/* Say variable v narrowed: the tables and sums on it are to be filtered again. */
static inline void touch(Core *c, int v)
{
    for (int k = c->watch_start[v]; k < c->watch_start[v + 1]; k++)
        c->dirty[c->watch[k]] = 1;
}

static inline int narrow(Core *c, u64 *cand, int v, u64 keep, int *qn)
{
    u64 x = cand[v];
    if ((x & keep) == x)
        return 1;
    x &= keep;
    if (!x) {
        c->weight[v] += 1;
        return 0;
    }
    cand[v] = x;
    touch(c, v);
    if (SINGLE(x) && !c->queued[v]) {
        c->queued[v] = 1;
        c->queue[(*qn)++] = v;
    }
    return 1;
}

/* Drop the first qn queued variables (a contradiction leaves them unprocessed). */
static void unqueue(Core *c, int qn)
{
    while (qn)
        c->queued[c->queue[--qn]] = 0;
}

static int singles(Core *c, u64 *cand, int qn)
{
    while (qn) {
        int v = c->queue[--qn];
        c->queued[v] = 0;
        u64 bit = cand[v];
        int val = CTZ(bit);
        for (int k = c->peer_start[v]; k < c->peer_start[v + 1]; k++)
            if (!narrow(c, cand, c->peer[k], ~bit, &qn))
                goto fail;
        int o = v * c->maxd + val;
        for (int k = c->conf_start[o]; k < c->conf_start[o + 1]; k++)
            if (!narrow(c, cand, c->conf_var[k], ~c->conf_mask[k], &qn))
                goto fail;
    }
    return 1;
fail:
    unqueue(c, qn);
    return 0;
}

/* Hidden singles over every unit: 1 = nothing new, 2 = progress, 0 = contradiction. */
static int hidden(Core *c, u64 *cand, int *qn)
{
    int progress = 0;
    for (int u = 0; u < c->nunits; u++) {
        const int *vs = c->unit + c->unit_start[u];
        int len = c->unit_start[u + 1] - c->unit_start[u];
        u64 once = 0, twice = 0;
        for (int k = 0; k < len; k++) {
            u64 x = cand[vs[k]];
            twice |= once & x;
            once |= x;
        }
        if (once != c->unit_full[u])
            return 0;
        u64 uniq = once & ~twice;
        if (!uniq)
            continue;
        for (int k = 0; k < len && uniq; k++) {
            int v = vs[k];
            u64 x = cand[v], m = x & uniq;
            if (m && !SINGLE(m))        /* two values with no other place: one cell for both */
                return 0;
            if (m && m != x) {
                cand[v] = m;
                touch(c, v);
                progress = 1;
                if (!c->queued[v]) {
                    c->queued[v] = 1;
                    c->queue[(*qn)++] = v;
                }
            }
            uniq &= ~m;
        }
    }
    return progress ? 2 : 1;
}

/* Locked candidates (pointing and claiming): a value whose places in one unit all lie where
   it meets another leaves the rest of the other. */
static int locked(Core *c, u64 *cand, int *qn)
{
    int progress = 0;
    for (int i = 0; i < c->ncross; i++) {
        Cross *x = &c->cross[i];
        u64 in = 0, o1 = 0, o2 = 0;
        for (int k = 0; k < x->n_in; k++) in |= cand[x->a_in[k]];
        for (int k = 0; k < x->n_out1; k++) o1 |= cand[x->a_out1[k]];
        for (int k = 0; k < x->n_out2; k++) o2 |= cand[x->a_out2[k]];
        u64 only1 = in & ~o1 & o2;      /* values unit 1 keeps in the crossing, seen outside in 2 */
        u64 only2 = in & ~o2 & o1;
        if (only1) {
            for (int k = 0; k < x->n_out2; k++)
                if (!narrow(c, cand, x->a_out2[k], ~only1, qn))
                    return 0;
            progress = 1;
        }
        if (only2) {
            for (int k = 0; k < x->n_out1; k++)
                if (!narrow(c, cand, x->a_out1[k], ~only2, qn))
                    return 0;
            progress = 1;
        }
    }
    return progress ? 2 : 1;
}

/* A pair by its masks: x keeps the values that leave y some value, y those they leave (arc
   consistency in one pass, as a table of the pairs would give at the cost of its tuples). */
static int pair_filter(Core *c, Table *t, u64 *cand, int *qn, int *changed)
{
    int x = t->vars[0], y = t->vars[1];
    u64 X = cand[x], Y = cand[y], kx = 0, ky = 0;
    for (u64 f = X; f; f &= f - 1) {
        u64 m = t->pair[CTZ(f)] & Y;
        if (m) { kx |= f & -f; ky |= m; }
    }
    if (kx != X) {
        if (!narrow(c, cand, x, kx, qn))
            return 0;
        *changed = 1;
    }
    if (ky != Y) {
        if (!narrow(c, cand, y, ky, qn))
            return 0;
        *changed = 1;
    }
    return 1;
}

static int table_filter(Core *c, Table *t, u64 *cand, int *qn, int *changed)
{
    int W = t->words, D = c->maxd;
    u64 *valid = t->valid;
    if (t->pair)
        return pair_filter(c, t, cand, qn, changed);
    if (!t->ntuples)
        return 0;
    for (int w = 0; w < W; w++) valid[w] = ~(u64)0;
    if (t->ntuples % 64)
        valid[W - 1] = ((u64)1 << (t->ntuples % 64)) - 1;
    for (int i = 0; i < t->arity; i++) {
        u64 x = cand[t->vars[i]];
        u64 acc_any = 0;
        for (int w = 0; w < W; w++) {
            u64 acc = 0, y = x;
            while (y) {
                int val = CTZ(y);
                y &= y - 1;
                acc |= t->sets[((size_t)i * D + val) * W + w];
            }
            valid[w] &= acc;
            acc_any |= valid[w];
        }
        if (!acc_any)
            return 0;
    }
    for (int i = 0; i < t->arity; i++) {
        int v = t->vars[i];
        u64 x = cand[v], keep = 0, y = x;
        while (y) {
            int val = CTZ(y);
            y &= y - 1;
            const u64 *s = t->sets + ((size_t)i * D + val) * W;
            for (int w = 0; w < W; w++)
                if (s[w] & valid[w]) { keep |= (u64)1 << val; break; }
        }
        if (keep != x) {
            if (!narrow(c, cand, v, keep, qn))
                return 0;
            *changed = 1;
        }
    }
    return 1;
}

/* word-array bit sets for sums */
static inline void shl_or(u64 *dst, const u64 *src, int W, int sh)
{
    int ws = sh >> 6, bs = sh & 63;
    for (int w = W - 1; w >= ws; w--) {
        u64 v = src[w - ws] << bs;
        if (bs && w - ws - 1 >= 0)
            v |= src[w - ws - 1] >> (64 - bs);
        dst[w] |= v;
    }
}

static inline void shr_or(u64 *dst, const u64 *src, int W, int sh)
{
    int ws = sh >> 6, bs = sh & 63;
    for (int w = 0; w + ws < W; w++) {
        u64 v = src[w + ws] >> bs;
        if (bs && w + ws + 1 < W)
            v |= src[w + ws + 1] << (64 - bs);
        dst[w] |= v;
    }
}

static int sum_filter(Core *c, Sum *s, u64 *cand, int *qn, int *changed)
{
    int W = s->words, n = s->arity;
    u64 *reach = s->reach, *need = s->need;
    memset(reach, 0, sizeof(u64) * W * (n + 1));
    memset(need, 0, sizeof(u64) * W * (n + 1));
    reach[0] = 1;
    for (int i = 0; i < n; i++) {
        u64 y = cand[s->vars[i]];
        while (y) {
            int val = CTZ(y);
            y &= y - 1;
            shl_or(reach + (i + 1) * W, reach + i * W, W, s->shift[i * s->maxd + val]);
        }
    }
    memcpy(need + n * W, s->target, sizeof(u64) * W);
    for (int i = n - 1; i >= 0; i--) {
        u64 y = cand[s->vars[i]];
        while (y) {
            int val = CTZ(y);
            y &= y - 1;
            shr_or(need + i * W, need + (i + 1) * W, W, s->shift[i * s->maxd + val]);
        }
    }
    if (!(need[0] & 1))
        return 0;
    for (int i = 0; i < n; i++) {
        int v = s->vars[i];
        u64 x = cand[v], keep = 0, y = x;
        while (y) {
            int val = CTZ(y);
            y &= y - 1;
            memset(s->tmp, 0, sizeof(u64) * W);
            shl_or(s->tmp, reach + i * W, W, s->shift[i * s->maxd + val]);
            const u64 *g = need + (i + 1) * W;
            for (int w = 0; w < W; w++)
                if (s->tmp[w] & g[w]) { keep |= (u64)1 << val; break; }
        }
        if (keep != x) {
            if (!narrow(c, cand, v, keep, qn))
                return 0;
            *changed = 1;
        }
    }
    return 1;
}

/* A sum of cells that all differ (a killer cage): the sets of different values the cells can
   take one by one, forward from the first cell (fw) and back from the allowed totals (bw), so a
   value stays only where some set of different values with an allowed total uses it there.
   This is the exact support of the sum and the cells' differences together, which the totals
   alone (sum_filter) miss: {1..9} cells adding up to 3 are 1 and 2, never 3 and 0. */
static int psum[1 << DSUM_MAXD];    /* sum of the value indexes of a value set */

/* Value sets as bits of a word array (set m is bit m), stepped all at once: the sets without
   value j are those whose bit j is clear (a fixed pattern for j < 6, whole words above), and
   adding j moves set m to m + 2^j (a shift). A step over a cell costs a few word operations
   per candidate, where visiting its sets one by one cost one per set and candidate. */
static const u64 ZLOW[6] = {
    0x5555555555555555ULL, 0x3333333333333333ULL, 0x0F0F0F0F0F0F0F0FULL,
    0x00FF00FF00FF00FFULL, 0x0000FFFF0000FFFFULL, 0x00000000FFFFFFFFULL};

/* to |= the sets of `from` without value j, with j added. */
static inline void set_add(u64 *to, const u64 *from, int SW, int j)
{
    if (j < 6) {
        int sh = 1 << j;
        u64 z = ZLOW[j];
        for (int w = 0; w < SW; w++)
            to[w] |= (from[w] & z) << sh;
    } else {
        int k = 1 << (j - 6);
        for (int w = 0; w + k < SW; w++)
            if (!(w & k))
                to[w + k] |= from[w];
    }
}

/* dst |= the sets of `from` without value j that lead into `good` once j is added; returns
   whether there is one. */
static inline int set_take(u64 *dst, const u64 *good, const u64 *from, int SW, int j)
{
    u64 any = 0;
    if (j < 6) {
        int sh = 1 << j;
        u64 z = ZLOW[j];
        for (int w = 0; w < SW; w++) {
            u64 t = (good[w] >> sh) & z & from[w];
            dst[w] |= t;
            any |= t;
        }
    } else {
        int k = 1 << (j - 6);
        for (int w = 0; w + k < SW; w++)
            if (!(w & k)) {
                u64 t = good[w + k] & from[w];
                dst[w] |= t;
                any |= t;
            }
    }
    return any != 0;
}

/* The values a sum of cells that differ must hold because a full unit holding all its cells
   has no other place left for them (the rest of the unit cannot hold them); ~0 when some such
   value is beyond the cells' values (no set holds it: a contradiction). */
static u64 house_must(const Core *c, const Sum *s, const u64 *cand)
{
    u64 must = 0;
    for (int k = 0; k < s->ncomp; k++) {
        u64 rest = 0;
        for (int i = s->cstart[k]; i < s->cstart[k + 1]; i++)
            rest |= cand[s->cvar[i]];
        must |= c->unit_full[s->cunit[k]] & ~rest;
    }
    if (must >> s->distinct)
        return ~(u64)0;
    return must;
}

/* Whether the units holding a distinct sum leave it a value to hold that none of its cells
   holds already: when not, a narrowing outside it there changes nothing of its filtering. */
static int house_news(const Core *c, const Sum *s, const u64 *cand)
{
    u64 must = house_must(c, s, cand), placed = 0;
    for (int i = 0; i < s->arity; i++)
        if (SINGLE(cand[s->vars[i]])) placed |= cand[s->vars[i]];
    return (must & ~placed) != 0;
}

/* Whether b is among the peers of a (peer lists are sorted). */
static int is_peer(const Core *c, int a, int b)
{
    int lo = c->peer_start[a], hi = c->peer_start[a + 1];
    while (lo < hi) {
        int mid = (lo + hi) >> 1, p = c->peer[mid];
        if (p == b) return 1;
        if (p < b) lo = mid + 1; else hi = mid;
    }
    return 0;
}

/* A value every allowed set of a sum's cells holds goes in one of the cells that can still
   take it, so no variable that differs from all of those holds it (a killer cage's required
   values, as pointing removes a value from a unit). */
static int required_out(Core *c, const Sum *s, u64 req, u64 *cand, int *qn, int *changed)
{
    for (; req; req &= req - 1) {
        u64 bit = req & -req;
        int at[64], np = 0;
        for (int i = 0; i < s->arity; i++)
            if (cand[s->vars[i]] & bit) at[np++] = s->vars[i];
        if (!np)
            return 0;
        int a = at[0];
        for (int k = c->peer_start[a]; k < c->peer_start[a + 1]; k++) {
            int w = c->peer[k], all = 1;
            if (!(cand[w] & bit))
                continue;
            for (int j = 1; j < np && all; j++)
                all = is_peer(c, at[j], w);
            if (!all)
                continue;
            if (!narrow(c, cand, w, ~bit, qn))
                return 0;
            *changed = 1;
        }
    }
    return 1;
}

static int dsum_filter(Core *c, Sum *s, u64 *cand, int *qn, int *changed)
{
    int n = s->arity, SW = s->swords;
    u64 *fw = s->fw, *bw = s->bw, keep[64];
    u64 must = s->ncomp ? house_must(c, s, cand) : 0;
    if (must == ~(u64)0)
        return 0;
    memset(fw, 0, sizeof(u64) * SW * (n + 1));
    memset(bw, 0, sizeof(u64) * SW * (n + 1));
    fw[0] = 1;                                  /* the empty set */
    for (int i = 0; i < n; i++)
        for (u64 y = cand[s->vars[i]]; y; y &= y - 1)
            set_add(fw + (size_t)(i + 1) * SW, fw + (size_t)i * SW, SW, CTZ(y));
    u64 any = 0;
    u64 *last = bw + (size_t)n * SW;
    for (int w = 0; w < SW; w++) {
        u64 t = fw[(size_t)n * SW + w] & s->good[w];   /* the sets of an allowed total */
        for (u64 m = must; m; m &= m - 1) {            /* ... that hold what they must */
            int j = CTZ(m);
            if (j < 6) t &= ~ZLOW[j];
            else if (!(w & (1 << (j - 6)))) t = 0;
        }
        last[w] = t;
        any |= t;
    }
    if (!any)
        return 0;
    /* the values every one of those sets holds */
    u64 req = ((u64)1 << s->distinct) - 1;
    for (int j = 0; j < s->distinct; j++) {
        int without = 0;
        for (int w = 0; w < SW && !without; w++)
            without = j < 6 ? (last[w] & ZLOW[j]) != 0 : (!(w & (1 << (j - 6))) && last[w]);
        if (without) req &= ~((u64)1 << j);
    }
    for (int i = n - 1; i >= 0; i--) {
        u64 k = 0;
        for (u64 y = cand[s->vars[i]]; y; y &= y - 1)
            if (set_take(bw + (size_t)i * SW, bw + (size_t)(i + 1) * SW, fw + (size_t)i * SW,
                         SW, CTZ(y)))
                k |= y & -y;
        keep[i] = k;
    }
    for (int i = 0; i < n; i++) {
        int v = s->vars[i];
        if ((cand[v] & keep[i]) != cand[v]) {
            if (!narrow(c, cand, v, keep[i], qn))
                return 0;
            *changed = 1;
        }
    }
    return req ? required_out(c, s, req, cand, qn, changed) : 1;
}

/* A sum whose terms fall into groups of cells that all differ (a little killer's cells in one
   box, a region-sum segment): the sets of different values each group can take (forward over
   its cells, as dsum_filter), the totals each group can make, and the totals of the groups
   before and after it (prefix reach, suffix need). A group's value set stays only where its
   total fits some total of the other groups; its values are then those of its sets, as in
   dsum_filter. A group of one term is any term (its shifts); a group of two or more has
   coefficients all +1 or all -1 on cells of values 1..d. Exact for the sum and the
   differences inside each group together, which the totals alone (sum_filter) miss. */
static inline u64 gcontrib(const Sum *s, int g, int set)
{
    int len = s->gstart[g + 1] - s->gstart[g];
    return s->gsign[g] > 0 ? (u64)psum[set] : (u64)(len * (s->gd[g] - 1) - psum[set]);
}

/* The value sets a group of two cells or more can take one by one (fw: len + 1 steps of SW
   words), and the totals of its final sets ORed into `sums`; 0 when it has none. */
static int gsum_forward(const Sum *s, int g, const u64 *cand, u64 *fw, u64 *sums)
{
    int a = s->gstart[g], len = s->gstart[g + 1] - a, SW = s->gswords, any = 0;
    u64 fixed = 0;
    int nfixed = 0;
    for (int i = 0; i < len; i++) {
        u64 x = cand[s->vars[s->gterm[a + i]]];
        if (SINGLE(x)) { fixed |= x; nfixed++; }
    }
    if (nfixed == len) {             /* all placed: one set, or none when two cells agree */
        if (POPC(fixed) != len)
            return 0;
        u64 t = gcontrib(s, g, (int)fixed);
        sums[t >> 6] |= (u64)1 << (t & 63);
        return 1;
    }
    memset(fw, 0, sizeof(u64) * SW * (len + 1));
    fw[0] = 1;
    for (int i = 0; i < len; i++)
        for (u64 y = cand[s->vars[s->gterm[a + i]]]; y; y &= y - 1)
            set_add(fw + (size_t)(i + 1) * SW, fw + (size_t)i * SW, SW, CTZ(y));
    const u64 *last = fw + (size_t)len * SW;
    for (int w = 0; w < SW; w++)
        for (u64 y = last[w]; y; y &= y - 1) {
            u64 t = gcontrib(s, g, w * 64 + CTZ(y));
            sums[t >> 6] |= (u64)1 << (t & 63);
            any = 1;
        }
    return any;
}

/* Back over a group's cells from the final sets whose totals `sums` holds: the values that
   step into a set that leads to one of them, per cell, into keep (indexed by term slot). */
static void gsum_back(const Sum *s, int g, const u64 *cand, const u64 *fw, const u64 *sums,
                      u64 *good, u64 *back, u64 *keep)
{
    int a = s->gstart[g], len = s->gstart[g + 1] - a, SW = s->gswords;
    u64 fixed = 0;
    int nfixed = 0;
    for (int i = 0; i < len; i++) {
        u64 x = cand[s->vars[s->gterm[a + i]]];
        if (SINGLE(x)) { fixed |= x; nfixed++; }
    }
    if (nfixed == len) {             /* all placed (fw was not written): kept or not */
        u64 t = gcontrib(s, g, (int)fixed);
        int ok = sums[t >> 6] >> (t & 63) & 1;
        for (int i = 0; i < len; i++)
            keep[a + i] = ok ? cand[s->vars[s->gterm[a + i]]] : 0;
        return;
    }
    const u64 *last = fw + (size_t)len * SW;
    memset(good, 0, sizeof(u64) * SW);
    for (int w = 0; w < SW; w++)
        for (u64 y = last[w]; y; y &= y - 1) {
            u64 t = gcontrib(s, g, w * 64 + CTZ(y));
            if (sums[t >> 6] >> (t & 63) & 1)
                good[w] |= y & -y;
        }
    for (int i = len - 1; i >= 0; i--) {
        u64 k = 0;
        memset(back, 0, sizeof(u64) * SW);
        for (u64 y = cand[s->vars[s->gterm[a + i]]]; y; y &= y - 1)
            if (set_take(back, good, fw + (size_t)i * SW, SW, CTZ(y)))
                k |= y & -y;
        keep[a + i] = k;
        memcpy(good, back, sizeof(u64) * SW);
    }
}

static int gsum_filter(Core *c, Sum *s, u64 *cand, int *qn, int *changed)
{
    int W = s->words, m = s->ngroups, SW = s->gswords, D = s->maxd;
    u64 *pre = s->reach, *need = s->need, *tmp = s->tmp, keep[64];
    u64 *good = s->gsets + (size_t)(s->gstart[m] + m) * SW, *back = good + SW;
    memset(s->gsums, 0, sizeof(u64) * W * m);
    for (int g = 0; g < m; g++) {
        int a = s->gstart[g], len = s->gstart[g + 1] - a;
        u64 *sums = s->gsums + (size_t)g * W;
        if (len == 1) {                /* any term: the totals of its values' shifts */
            int t = s->gterm[a];
            for (u64 y = cand[s->vars[t]]; y; y &= y - 1) {
                int sh = s->shift[t * D + CTZ(y)];
                sums[sh >> 6] |= (u64)1 << (sh & 63);
            }
        } else if (!gsum_forward(s, g, cand, s->gsets + (size_t)(a + g) * SW, sums))
            return 0;
    }
    /* the totals the groups before each group make (pre), and the totals after each group
       from which the rest can still end in an allowed total (need) */
    memset(pre, 0, sizeof(u64) * W * (m + 1));
    memset(need, 0, sizeof(u64) * W * (m + 1));
    pre[0] = 1;
    for (int g = 0; g < m; g++) {
        const u64 *sums = s->gsums + (size_t)g * W;
        for (int w = 0; w < W; w++)
            for (u64 y = sums[w]; y; y &= y - 1)
                shl_or(pre + (size_t)(g + 1) * W, pre + (size_t)g * W, W, w * 64 + CTZ(y));
    }
    memcpy(need + (size_t)m * W, s->target, sizeof(u64) * W);
    for (int g = m - 1; g >= 0; g--) {
        const u64 *sums = s->gsums + (size_t)g * W;
        for (int w = 0; w < W; w++)
            for (u64 y = sums[w]; y; y &= y - 1)
                shr_or(need + (size_t)g * W, need + (size_t)(g + 1) * W, W, w * 64 + CTZ(y));
    }
    if (!(need[0] & 1))
        return 0;
    for (int g = 0; g < m; g++) {
        int a = s->gstart[g], len = s->gstart[g + 1] - a;
        u64 *sums = s->gsums + (size_t)g * W;       /* narrowed to the totals that fit */
        const u64 *p = pre + (size_t)g * W, *nd = need + (size_t)(g + 1) * W;
        memset(tmp, 0, sizeof(u64) * W);     /* the totals that fit: need less what before */
        for (int w = 0; w < W; w++)
            for (u64 y = p[w]; y; y &= y - 1)
                shr_or(tmp, nd, W, w * 64 + CTZ(y));
        for (int w = 0; w < W; w++)
            sums[w] &= tmp[w];
        if (len == 1) {
            int t = s->gterm[a];
            u64 k = 0;
            for (u64 y = cand[s->vars[t]]; y; y &= y - 1) {
                int sh = s->shift[t * D + CTZ(y)];
                if (sums[sh >> 6] >> (sh & 63) & 1) k |= y & -y;
            }
            keep[a] = k;
        } else
            gsum_back(s, g, cand, s->gsets + (size_t)(a + g) * SW, sums, good, back, keep);
    }
    for (int j = 0; j < s->gstart[m]; j++) {
        int v = s->vars[s->gterm[j]];
        if ((cand[v] & keep[j]) != cand[v]) {
            if (!narrow(c, cand, v, keep[j], qn))
                return 0;
            *changed = 1;
        }
    }
    return 1;
}

/* A table or sum found no support: each of its variables weighs one more in branching (as
   dom/wdeg weighs the constraint that failed), on top of the one whose domain emptied. Search
   then goes first where clues clash: the barbed cross 71,074 -> 23,125 nodes (528 -> 138 ms),
   the project's variants and the published ones 635 -> 228 ms of search in all. */
static inline void blame(Core *c, const int *vs, int arity)
{
    for (int j = 0; j < arity; j++)
        c->weight[vs[j]] += 1;
}

/* Narrow to a fixpoint; the variables queued are the ones just fixed. 0 on a contradiction. */
static int fixpoint(Core *c, u64 *cand, int qn, int use_locked)
{
    for (;;) {
        if (!singles(c, cand, qn))
            return 0;
        qn = 0;
        int r = hidden(c, cand, &qn);
        if (!r)
            goto fail;
        if (qn || r == 2)
            continue;
        if (c->ntables || c->nsums) {
            /* only those with a variable narrowed since they were last filtered: a filter
               leaves its own constraint at its fixpoint, so it is clean after, unless a
               variable is listed twice (then what it narrowed marks it again) */
            int changed = 0;
            for (int i = 0; i < c->ntables; i++) {
                if (!c->dirty[i] || !(c->strong || !c->tables[i].search_only))
                    continue;
                c->dirty[i] = !c->repeats[i];
                if (!table_filter(c, &c->tables[i], cand, &qn, &changed)) {
                    blame(c, c->tables[i].vars, c->tables[i].arity);
                    goto fail;
                }
                if (!c->repeats[i]) c->dirty[i] = 0;
            }
            for (int i = 0; i < c->nsums; i++) {
                Sum *s = &c->sums[i];
                int k = c->ntables + i;
                int nk = c->ntables + c->nsums;
                if (c->dirty[nk + k] && !c->dirty[k]
                    && !(c->strong && s->distinct && house_news(c, s, cand)))
                    c->dirty[nk + k] = 0;     /* only the rest of its units narrowed, and
                                                 they leave it nothing new to hold */
                if (!(c->dirty[k] || c->dirty[nk + k]) || (s->search_only && !c->strong))
                    continue;
                c->dirty[nk + k] = 0;
                c->dirty[k] = !c->repeats[k];
                if (!(!c->strong ? sum_filter(c, s, cand, &qn, &changed)
                      : s->distinct ? dsum_filter(c, s, cand, &qn, &changed)
                      : s->ngroups ? gsum_filter(c, s, cand, &qn, &changed)
                      : sum_filter(c, s, cand, &qn, &changed))) {
                    blame(c, s->vars, s->arity);
                    goto fail;
                }
                if (!c->repeats[k]) c->dirty[k] = 0;
            }
            if (changed || qn)
                continue;
        }
        if (use_locked && c->ncross) {
            r = locked(c, cand, &qn);
            if (!r)
                goto fail;
            if (r == 2)
                continue;
        }
        return 1;
    }
fail:
    unqueue(c, qn);
    return 0;
}

/* Mark every table and sum to be filtered (a fixpoint from candidates not reached by
   narrowing a fixpoint); after any fixpoint, the marks left are cleared by the next one's
   start: a failed fixpoint leaves marks, which only cost a filtering more. */
static void dirty_all(Core *c)
{
    memset(c->dirty, 1, (size_t)(c->ntables + c->nsums) * 2);
}


/* ------------------------------------------------------------------ search */

static double now_monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static u64 *frame(Core *c, int depth)
{
    if (depth >= c->nframes) {
        int more = c->nframes ? c->nframes * 2 : 32;
        while (more <= depth) more *= 2;
        u64 *f = realloc(c->frames, sizeof(u64) * (size_t)c->n * more);
        if (!f)
            return NULL;
        c->frames = f;
        c->nframes = more;
    }
    return c->frames + (size_t)depth * c->n;
}

static int record(Core *c, const u64 *cand)
{
    c->found++;
    if (c->found == 1 && c->first)
        memcpy(c->first, cand, sizeof(u64) * c->n);
    if (c->solutions && c->found <= c->keep) {
        PyObject *t = PyTuple_New(c->n);
        if (!t)
            return -1;
        for (int v = 0; v < c->n; v++)
            PyTuple_SET_ITEM(t, v, PyLong_FromLong(CTZ(cand[v]) + 1));
        int bad = PyList_Append(c->solutions, t);
        Py_DECREF(t);
        if (bad)
            return -1;
    }
    return c->found >= c->limit ? 1 : 0;
}

/* A value with two places left in a unit splits the search in two, as a cell of two
   candidates does: when the best cell has more (bestn, of weight bestw), the value of two
   places whose busier place weighs the most is taken instead if it beats the cell (two per
   1 + that weight against bestn per bestw); its places go in var and bit. 0 when none does.
   Thermometers and renban lines gain most, their cells keeping many candidates while units
   narrow (ISS's 'A kind of magic' 10.8 M nodes -> 244 k, 'Bicycle race' 485 k -> 44 k,
   'Hard renban 1' 357 k -> 306 k), and killers, their cells weighed by their cages, mostly
   keep their cells. */
static int pair_place(const Core *c, const u64 *cand, int bestn, u64 bestw, int *var,
                      u64 *bit)
{
    u64 topw = 0;
    int found = 0;
    for (int u = 0; u < c->nunits; u++) {
        const int *vs = c->unit + c->unit_start[u];
        int len = c->unit_start[u + 1] - c->unit_start[u];
        u64 once = 0, twice = 0, more = 0;
        for (int k = 0; k < len; k++) {
            u64 x = cand[vs[k]];
            more |= twice & x;
            twice |= once & x;
            once |= x;
        }
        for (u64 two = twice & ~more; two; two &= two - 1) {
            u64 b = two & -two;
            int at[2], n = 0;
            u64 w = 0;
            for (int k = 0; k < len && n < 2; k++)
                if (cand[vs[k]] & b) {
                    at[n++] = vs[k];
                    if (c->weight[vs[k]] > w) w = c->weight[vs[k]];
                }
            if (found && w <= topw)
                continue;
            if (2 * bestw >= (u64)bestn * (1 + w))
                continue;
            topw = w;
            found = 1;
            var[0] = at[0]; var[1] = at[1];
            bit[0] = bit[1] = b;
        }
    }
    return found;
}

/* Search below the state in frame `depth` (already at a fixpoint): 1 = stop (limit, deadline,
   signal), 0 = go on, -1 = a Python error is set. */
static int dfs(Core *c, int depth)
{
    u64 *cand = frame(c, depth);
    if (!cand) { PyErr_NoMemory(); return -1; }
    /* choose: the variable with fewest candidates (at least two) per weight. Auxiliaries
       compete with the cells: the cells fix each auxiliary, so one grid is still one
       solution, and a clue's auxiliary (a region sum's common total, a sandwich's ends)
       often splits the search better than any cell (raw spaghetti 4,712 -> 415 nodes; the
       project's variants and the published ones 229 -> 177 ms of search, ISS's collection
       12.7 -> 12.3 s on the puzzles both finished, lunchboxes slower) */
    int best = -1, bestn = 65;
    u64 bestw = 1;                /* k / (1 + w) < bestn / bestw, compared without dividing */
    for (int v = 0; v < c->n; v++) {
        u64 x = cand[v];
        if (!SINGLE(x)) {
            u64 k = POPC(x), w = 1 + c->weight[v];
            if (k * bestw < (u64)bestn * w) { bestn = (int)k; bestw = w; best = v; }
        }
    }
    if (best < 0)
        return record(c, cand);
    int bvar[64];
    u64 bbit[64];
    int nb = 0;
    if (bestn > 2 && pair_place(c, cand, bestn, bestw, bvar, bbit))
        nb = 2;
    else {
        u64 opts = cand[best];
        while (opts) {
            u64 bit = opts & -opts;
            opts ^= bit;
            bvar[nb] = best;
            bbit[nb++] = bit;
        }
    }
    c->guesses++;
    for (int i = 0; i < nb; i++) {
        int var = bvar[i];
        c->nodes++;
        if (!(c->nodes & 63)) {
            if (PyErr_CheckSignals() < 0) return -1;
            if (c->deadline > 0 && now_monotonic() > c->deadline) { c->timed_out = 1; return 1; }
        }
        u64 *next = frame(c, depth + 1);
        if (!next) { PyErr_NoMemory(); return -1; }
        cand = c->frames + (size_t)depth * c->n;       /* the block may have moved */
        memcpy(next, cand, sizeof(u64) * c->n);
        next[var] = bbit[i];
        touch(c, var);
        c->queued[var] = 1;
        c->queue[0] = var;
        if (!fixpoint(c, next, 1, 0))      /* locked candidates: at the root only */
            continue;
        int r = dfs(c, depth + 1);
        if (r)
            return r;
    }
    return 0;
}

/* Copy the start domains into frame 0 and queue the variables they already fix: 1 = ready,
   0 = contradiction, -1 = out of memory (a Python error is set). */
static int load_start(Core *c, int *qn)
{
    u64 *cand = frame(c, 0);
    if (!cand) { PyErr_NoMemory(); return -1; }
    memcpy(cand, c->start, sizeof(u64) * c->n);
    *qn = 0;
    for (int v = 0; v < c->n; v++) {
        if (!cand[v]) return 0;
        if (SINGLE(cand[v])) { c->queued[v] = 1; c->queue[(*qn)++] = v; }
    }
    return 1;
}

/* Place value val (1-based) on var in frame 0 and queue it: 0 when it is not a candidate. */
static int place(Core *c, int var, long val, int *qn)
{
    u64 *cand = c->frames;
    if (var < 0 || var >= c->n || val < 1 || val > 64) return 0;
    u64 bit = (u64)1 << (val - 1);
    if (!(cand[var] & bit)) return 0;
    cand[var] = bit;
    if (!c->queued[var]) { c->queued[var] = 1; c->queue[(*qn)++] = var; }
    return 1;
}

/* Load givens into frame 0 and narrow: 1 = ready, 0 = contradiction. */
static int load(Core *c, PyObject *givens, int use_locked)
{
    int qn;
    int r = load_start(c, &qn);
    if (r <= 0) { if (r == 0) unqueue(c, qn); return r; }
    PyObject *seq = PySequence_Fast(givens, "givens must be a sequence");
    if (!seq) { unqueue(c, qn); return -1; }
    Py_ssize_t ng = PySequence_Fast_GET_SIZE(seq);
    int ok = 1;
    for (Py_ssize_t i = 0; i < ng && ok; i++) {
        long var, val;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ll", &var, &val)) {
            Py_DECREF(seq);
            unqueue(c, qn);
            return -1;
        }
        ok = var >= 0 && var < c->n && place(c, (int)var, val, &qn);
    }
    Py_DECREF(seq);
    if (!ok) {
        unqueue(c, qn);
        return 0;
    }
    dirty_all(c);
    return fixpoint(c, c->frames, qn, use_locked);
}

/* Start a run: counters, limit, deadline, fresh weights (each search learns afresh). A
   variable's weight starts at the number of tables and sums on it, so that before any
   failure the search prefers, among cells of few candidates, those the clues bind most
   (variants against ISS in one run: 5.87 s -> 5.59 s; orbit 198 -> 64 ms, eddies 130 -> 12
   ms, the barbed cross 1,307 -> 1,209 ms; hailstone 2,703 -> 2,885 ms, boxes 36 -> 64 ms). */
static void begin(Core *c, long long limit, long long keep, double deadline)
{
    c->nodes = c->guesses = c->found = 0;
    c->limit = limit < 1 ? 1 : limit;
    c->keep = keep < 0 ? c->limit : keep;
    c->deadline = deadline;
    c->timed_out = 0;
    /* implied sums (house sums) leave the weights alone: they restate what the clues say */
    for (int v = 0; v < c->n; v++) {
        u64 w = 0;
        for (int k = c->watch_start[v]; k < c->watch_start[v + 1]; k++) {
            int i = c->watch[k];
            w += i < c->ntables || !c->sums[i - c->ntables].search_only;
        }
        c->weight[v] = w;
    }
}

/* ------------------------------------------------------------------ the Python type */

static void core_free_parts(Core *c)
{
    free(c->full); free(c->start); free(c->first); free(c->peer_start); free(c->peer);
    free(c->unit_start); free(c->unit); free(c->unit_full);
    free(c->conf_start); free(c->conf_var); free(c->conf_mask);
    for (int i = 0; i < c->ntables; i++) {
        free(c->tables[i].vars); free(c->tables[i].sets); free(c->tables[i].valid);
        free(c->tables[i].pair);
    }
    free(c->tables);
    for (int i = 0; i < c->nsums; i++) {
        Sum *s = &c->sums[i];
        free(s->vars); free(s->shift); free(s->target); free(s->reach); free(s->need);
        free(s->tmp); free(s->fw); free(s->bw); free(s->good);
        free(s->cstart); free(s->cvar); free(s->cunit);
        free(s->gstart); free(s->gterm); free(s->gsign); free(s->gd); free(s->gsums);
        free(s->gsets);
    }
    free(c->sums);
    for (int i = 0; i < c->ncross; i++) {
        free(c->cross[i].a_in); free(c->cross[i].a_out1); free(c->cross[i].a_out2);
    }
    free(c->cross);
    free(c->queue); free(c->queued); free(c->frames); free(c->weight);
    free(c->watch_start); free(c->watch); free(c->dirty); free(c->repeats);
}

static void core_dealloc(Core *c)
{
    core_free_parts(c);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

/* Read a Python sequence of ints into a fresh C array. */
static int *int_array(PyObject *obj, int *len)
{
    PyObject *seq = PySequence_Fast(obj, "expected a sequence of ints");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int *out = malloc(sizeof(int) * (n ? n : 1));
    if (!out) { Py_DECREF(seq); PyErr_NoMemory(); return NULL; }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) { free(out); Py_DECREF(seq); return NULL; }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    *len = (int)n;
    return out;
}

/* CSR from a sequence of sequences of ints. */
static int csr(PyObject *obj, int count, int **start, int **flat)
{
    PyObject *seq = PySequence_Fast(obj, "expected a sequence of sequences");
    if (!seq) return -1;
    if (count >= 0 && PySequence_Fast_GET_SIZE(seq) != count) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "wrong number of rows");
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    *start = calloc(n + 1, sizeof(int));
    size_t cap = 64, used = 0;
    *flat = malloc(sizeof(int) * cap);
    if (!*start || !*flat) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        int len;
        int *row = int_array(PySequence_Fast_GET_ITEM(seq, i), &len);
        if (!row) { Py_DECREF(seq); return -1; }
        if (used + len > cap) {
            while (used + len > cap) cap *= 2;
            int *f = realloc(*flat, sizeof(int) * cap);
            if (!f) { free(row); Py_DECREF(seq); PyErr_NoMemory(); return -1; }
            *flat = f;
        }
        memcpy(*flat + used, row, sizeof(int) * len);
        used += len;
        free(row);
        (*start)[i + 1] = (int)used;
    }
    Py_DECREF(seq);
    return (int)n;
}

static int check_vars(Core *c, const int *vs, int len)
{
    for (int i = 0; i < len; i++)
        if (vs[i] < 0 || vs[i] >= c->n) {
            PyErr_SetString(PyExc_ValueError, "variable out of range");
            return -1;
        }
    return 0;
}

static int read_tables(Core *c, PyObject *tables)
{
    PyObject *seq = PySequence_Fast(tables, "tables must be a sequence");
    if (!seq) return -1;
    c->ntables = 0;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(seq);
    c->tables = calloc(nt ? nt : 1, sizeof(Table));
    if (!c->tables) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < nt; i++) {
        /* (vars, tuples, search only), or ((x, y), masks, False, True): a pair by the masks
           of the values of y each value of x allows */
        PyObject *vs, *tuples;
        int search_only = 0, pair = 0;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "OO|pp", &vs, &tuples,
                              &search_only, &pair))
            goto bad;
        Table *t = &c->tables[c->ntables++];
        t->search_only = search_only;
        t->vars = int_array(vs, &t->arity);
        if (!t->vars || check_vars(c, t->vars, t->arity) < 0) goto bad;
        if (pair) {
            PyObject *masks = PySequence_Fast(tuples, "pair masks must be a sequence");
            if (!masks) goto bad;
            Py_ssize_t nm = PySequence_Fast_GET_SIZE(masks);
            t->pair = calloc(c->maxd, sizeof(u64));
            if (!t->pair) { Py_DECREF(masks); PyErr_NoMemory(); goto bad; }
            if (t->arity != 2 || t->vars[0] == t->vars[1] || nm > c->maxd) {
                Py_DECREF(masks);
                PyErr_SetString(PyExc_ValueError, "a pair: two variables, a mask per value");
                goto bad;
            }
            for (Py_ssize_t k = 0; k < nm; k++) {
                unsigned long long m = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(masks, k));
                if (m == (unsigned long long)-1 && PyErr_Occurred()) { Py_DECREF(masks); goto bad; }
                t->pair[k] = m & c->full[t->vars[1]];
            }
            Py_DECREF(masks);
            t->ntuples = 1;
            continue;
        }
        PyObject *rows = PySequence_Fast(tuples, "tuples must be a sequence");
        if (!rows) goto bad;
        t->ntuples = (int)PySequence_Fast_GET_SIZE(rows);
        t->words = (t->ntuples + 63) / 64;
        if (!t->words) t->words = 1;
        t->sets = calloc((size_t)t->arity * c->maxd * t->words, sizeof(u64));
        t->valid = calloc(t->words, sizeof(u64));
        if (!t->sets || !t->valid) { Py_DECREF(rows); PyErr_NoMemory(); goto bad; }
        for (int k = 0; k < t->ntuples; k++) {
            int len;
            int *row = int_array(PySequence_Fast_GET_ITEM(rows, k), &len);
            if (!row) { Py_DECREF(rows); goto bad; }
            for (int col = 0; col < len && col < t->arity; col++) {
                int val = row[col];
                if (val >= 1 && val <= c->maxd)
                    t->sets[((size_t)col * c->maxd + val - 1) * t->words + k / 64] |=
                        (u64)1 << (k % 64);
            }
            free(row);
        }
        Py_DECREF(rows);
    }
    Py_DECREF(seq);
    return 0;
bad:
    Py_DECREF(seq);
    return -1;
}

/* Read a sum's groups of terms that all differ: a sequence of (sign, d, terms), sign and d 0
   for a group of one term (any term), else +1 or -1 and the values 1..d of its cells, whose
   shifts must be those of coefficients `sign` on 1..d. Every term is in one group. */
static int read_groups(Core *c, Sum *s, PyObject *groups)
{
    PyObject *seq = PySequence_Fast(groups, "groups must be a sequence");
    if (!seq) return -1;
    int m = (int)PySequence_Fast_GET_SIZE(seq), n = s->arity, maxd = 0, used = 0;
    unsigned char seen[64] = {0};
    if (n > 64 || m < 1 || m > n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "groups: one to 64 terms, each in one group");
        return -1;
    }
    s->ngroups = m;
    s->gstart = calloc(m + 1, sizeof(int));
    s->gterm = calloc(n, sizeof(int));
    s->gsign = calloc(m, sizeof(int));
    s->gd = calloc(m, sizeof(int));
    s->gsums = calloc((size_t)m * s->words, sizeof(u64));
    if (!s->gstart || !s->gterm || !s->gsign || !s->gd || !s->gsums) {
        Py_DECREF(seq); PyErr_NoMemory(); return -1;
    }
    for (int g = 0; g < m; g++) {
        PyObject *terms;
        int sign, d, len;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, g), "iiO", &sign, &d, &terms)) {
            Py_DECREF(seq); return -1;
        }
        int *ts = int_array(terms, &len);
        if (!ts) { Py_DECREF(seq); return -1; }
        int ok = len >= 1 && used + len <= n
            && (len == 1 ? 1 : (sign == 1 || sign == -1) && d >= len && d <= DSUM_MAXD);
        for (int k = 0; k < len && ok; k++) {
            int t = ts[k];
            ok = t >= 0 && t < n && !seen[t];
            if (!ok) break;
            seen[t] = 1;
            s->gterm[used + k] = t;
            for (int v = 0; v < c->maxd && len > 1 && ok; v++) {
                int want = v >= d ? -1 : sign > 0 ? v : d - 1 - v;
                ok = (c->full[s->vars[t]] >> v & 1) == (v < d)
                    && (v >= d || s->shift[t * c->maxd + v] == want);
            }
        }
        free(ts);
        if (!ok) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "groups: a term twice, or shifts not of +-1 on 1..d");
            return -1;
        }
        s->gsign[g] = len > 1 ? sign : 0;
        s->gd[g] = len > 1 ? d : 0;
        if (len > 1 && d > maxd) maxd = d;
        used += len;
        s->gstart[g + 1] = used;
    }
    Py_DECREF(seq);
    if (used != n) {
        PyErr_SetString(PyExc_ValueError, "groups: every term in one group");
        return -1;
    }
    s->gswords = maxd > 6 ? 1 << (maxd - 6) : 1;
    s->gsets = calloc((size_t)(n + m + 2) * s->gswords, sizeof(u64));
    if (!s->gsets) { PyErr_NoMemory(); return -1; }
    return 0;
}

/* The full units that hold every term of a distinct sum, and each one's other variables
   (house_must reads them). */
static int read_houses(Core *c, Sum *s)
{
    int total = 0;
    for (int pass = 0; pass < 2; pass++) {
        int k = 0, at = 0;
        for (int u = 0; u < c->nunits; u++) {
            const int *us = c->unit + c->unit_start[u];
            int len = c->unit_start[u + 1] - c->unit_start[u], inside = 0;
            for (int i = 0; i < s->arity; i++)
                for (int j = 0; j < len; j++)
                    if (us[j] == s->vars[i]) { inside++; break; }
            if (inside != s->arity)
                continue;
            if (pass) {
                s->cunit[k] = u;
                s->cstart[k] = at;
                for (int j = 0; j < len; j++) {
                    int mine = 0;
                    for (int i = 0; i < s->arity && !mine; i++)
                        mine = us[j] == s->vars[i];
                    if (!mine)
                        s->cvar[at++] = us[j];
                }
            } else
                total += len - s->arity;
            k++;
        }
        if (!pass) {
            s->ncomp = k;
            s->cunit = malloc(sizeof(int) * (k ? k : 1));
            s->cstart = malloc(sizeof(int) * (k + 1));
            s->cvar = malloc(sizeof(int) * (total ? total : 1));
            if (!s->cunit || !s->cstart || !s->cvar) { PyErr_NoMemory(); return -1; }
        } else
            s->cstart[k] = at;
    }
    return 0;
}

static int read_sums(Core *c, PyObject *sums)
{
    PyObject *seq = PySequence_Fast(sums, "sums must be a sequence");
    if (!seq) return -1;
    c->nsums = 0;
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(seq);
    c->sums = calloc(ns ? ns : 1, sizeof(Sum));
    if (!c->sums) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < ns; i++) {
        /* (vars, shifts per term (a list per value), allowed totals as little-endian bytes,
           top, the values 1..d of cells that all differ, each worth its value, or 0, the
           groups of terms that differ or None, and whether it is filtered in search only) */
        PyObject *vs, *shifts, *groups = NULL;
        const char *target;
        Py_ssize_t tlen;
        int top, distinct = 0, search_only = 0;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "OOy#i|iOp", &vs, &shifts,
                              &target, &tlen, &top, &distinct, &groups, &search_only))
            goto bad;
        Sum *s = &c->sums[c->nsums++];
        s->search_only = search_only;
        s->vars = int_array(vs, &s->arity);
        if (!s->vars || check_vars(c, s->vars, s->arity) < 0) goto bad;
        if (top < 0 || top > (1 << 20)) {
            PyErr_SetString(PyExc_ValueError, "sum range too large");
            goto bad;
        }
        s->maxd = c->maxd;
        s->words = (top + 1 + 63) / 64;
        s->shift = calloc((size_t)s->arity * c->maxd, sizeof(int));
        s->target = calloc(s->words, sizeof(u64));
        s->reach = calloc((size_t)s->words * (s->arity + 1), sizeof(u64));
        s->need = calloc((size_t)s->words * (s->arity + 1), sizeof(u64));
        s->tmp = calloc(s->words, sizeof(u64));
        if (distinct < 0 || distinct > DSUM_MAXD || (distinct && s->arity > 64)) {
            PyErr_SetString(PyExc_ValueError, "distinct sums take cells of 1..12");
            goto bad;
        }
        s->distinct = distinct;
        s->swords = distinct > 6 ? 1 << (distinct - 6) : 1;
        if (distinct) {
            s->fw = calloc((size_t)s->swords * (s->arity + 1), sizeof(u64));
            s->bw = calloc((size_t)s->swords * (s->arity + 1), sizeof(u64));
            if (!s->fw || !s->bw) { PyErr_NoMemory(); goto bad; }
        }
        if (!s->shift || !s->target || !s->reach || !s->need || !s->tmp) {
            PyErr_NoMemory();
            goto bad;
        }
        PyObject *terms = PySequence_Fast(shifts, "shifts must be a sequence");
        if (!terms) goto bad;
        if (PySequence_Fast_GET_SIZE(terms) != s->arity) {
            Py_DECREF(terms);
            PyErr_SetString(PyExc_ValueError, "one shift list per term");
            goto bad;
        }
        for (int k = 0; k < s->arity; k++) {
            int len;
            int *row = int_array(PySequence_Fast_GET_ITEM(terms, k), &len);
            if (!row) { Py_DECREF(terms); goto bad; }
            for (int d = 0; d < len && d < c->maxd; d++) {
                if (row[d] < 0 || row[d] > top) {
                    free(row); Py_DECREF(terms);
                    PyErr_SetString(PyExc_ValueError, "shift out of range");
                    goto bad;
                }
                s->shift[k * c->maxd + d] = row[d];
            }
            free(row);
        }
        Py_DECREF(terms);
        if (tlen > (Py_ssize_t)(sizeof(u64) * s->words)) {
            PyErr_SetString(PyExc_ValueError, "totals beyond the sum's range");
            goto bad;
        }
        for (Py_ssize_t b = 0; b < tlen; b++)
            s->target[b / 8] |= (u64)(unsigned char)target[b] << (8 * (b % 8));
        if (distinct) {
            s->good = calloc((size_t)s->swords, sizeof(u64));
            if (!s->good) { PyErr_NoMemory(); goto bad; }
            for (int set = 0; set < 1 << distinct; set++) {
                int t = psum[set];
                if (t < s->words * 64 && s->target[t >> 6] >> (t & 63) & 1)
                    s->good[set >> 6] |= (u64)1 << (set & 63);
            }
        }
        if (groups && groups != Py_None && read_groups(c, s, groups) < 0)
            goto bad;
        if (distinct && read_houses(c, s) < 0)
            goto bad;
    }
    Py_DECREF(seq);
    return 0;
bad:
    Py_DECREF(seq);
    return -1;
}

static int read_cross(Core *c, PyObject *cross)
{
    PyObject *seq = PySequence_Fast(cross, "crossings must be a sequence");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    c->cross = calloc(n ? n : 1, sizeof(Cross));
    c->ncross = 0;
    if (!c->cross) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a, *b, *d;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "OOO", &a, &b, &d)) goto bad;
        Cross *x = &c->cross[c->ncross++];
        if (!(x->a_in = int_array(a, &x->n_in)) || check_vars(c, x->a_in, x->n_in) < 0 ||
            !(x->a_out1 = int_array(b, &x->n_out1)) || check_vars(c, x->a_out1, x->n_out1) < 0 ||
            !(x->a_out2 = int_array(d, &x->n_out2)) || check_vars(c, x->a_out2, x->n_out2) < 0)
            goto bad;
    }
    Py_DECREF(seq);
    return 0;
bad:
    Py_DECREF(seq);
    return -1;
}

/* Build the per-variable lists of tables and sums on it, and their dirty marks. */
static int watch_lists(Core *c)
{
    int nk = c->ntables + c->nsums;
    c->watch_start = calloc(c->n + 1, sizeof(int));
    c->dirty = malloc(nk ? 2 * nk : 1);     /* then per sum: the rest of its units narrowed */
    c->repeats = calloc(nk ? nk : 1, 1);
    if (!c->watch_start || !c->dirty || !c->repeats) { PyErr_NoMemory(); return -1; }
    for (int pass = 0; pass < 2; pass++) {
        int *fill = pass ? calloc(c->n, sizeof(int)) : NULL;
        if (pass && !fill) { PyErr_NoMemory(); return -1; }
        for (int k = 0; k < nk; k++) {
            int arity = k < c->ntables ? c->tables[k].arity : c->sums[k - c->ntables].arity;
            const int *vs = k < c->ntables ? c->tables[k].vars : c->sums[k - c->ntables].vars;
            for (int i = 0; i < arity; i++) {
                if (pass)
                    c->watch[c->watch_start[vs[i]] + fill[vs[i]]++] = k;
                else
                    c->watch_start[vs[i] + 1]++;
                for (int j = 0; j < i && !pass; j++)
                    c->repeats[k] |= vs[j] == vs[i];
            }
            /* a distinct sum reads the rest of the units holding it too (house_must) */
            const Sum *s = k < c->ntables ? NULL : &c->sums[k - c->ntables];
            for (int i = 0; s && s->ncomp && i < s->cstart[s->ncomp]; i++) {
                int v = s->cvar[i];
                if (pass)
                    c->watch[c->watch_start[v] + fill[v]++] = nk + k;
                else
                    c->watch_start[v + 1]++;
            }
        }
        if (!pass) {
            for (int v = 0; v < c->n; v++) c->watch_start[v + 1] += c->watch_start[v];
            c->watch = malloc(sizeof(int) * (c->watch_start[c->n] ? c->watch_start[c->n] : 1));
            if (!c->watch) { PyErr_NoMemory(); return -1; }
        }
        free(fill);
    }
    dirty_all(c);
    return 0;
}

static int core_init(Core *c, PyObject *args, PyObject *kw)
{
    static char *names[] = {"dsizes", "ncells", "peers", "units", "conflicts", "tables",
                            "sums", "crossings", NULL};
    PyObject *dsizes, *peers, *units, *conflicts, *tables, *sums, *cross;
    int ncells;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OiOOOOOO", names, &dsizes, &ncells, &peers,
                                     &units, &conflicts, &tables, &sums, &cross))
        return -1;
    core_free_parts(c);
    memset((char *)c + sizeof(PyObject), 0, sizeof(Core) - sizeof(PyObject));
    int n;
    int *ds = int_array(dsizes, &n);
    if (!ds) return -1;
    if (n < 1 || ncells < 0 || ncells > n) {
        free(ds);
        PyErr_SetString(PyExc_ValueError, "bad variable counts");
        return -1;
    }
    c->n = n;
    c->ncells = ncells;
    c->maxd = 1;
    for (int v = 0; v < n; v++) {
        if (ds[v] < 1 || ds[v] > 64) {
            free(ds);
            PyErr_SetString(PyExc_ValueError, "domains must have 1 to 64 values");
            return -1;
        }
        if (ds[v] > c->maxd) c->maxd = ds[v];
    }
    c->full = malloc(sizeof(u64) * n);
    c->start = malloc(sizeof(u64) * n);
    c->queue = malloc(sizeof(int) * (n + 1));
    c->queued = calloc(n, 1);
    c->weight = calloc(n, sizeof(u64));
    c->first = calloc(n, sizeof(u64));
    if (!c->full || !c->start || !c->queue || !c->queued || !c->weight || !c->first) { free(ds); PyErr_NoMemory(); return -1; }
    for (int v = 0; v < n; v++)
        c->full[v] = c->start[v] = ds[v] == 64 ? ~(u64)0 : (((u64)1 << ds[v]) - 1);
    free(ds);
    if (csr(peers, n, &c->peer_start, &c->peer) < 0) return -1;
    if (check_vars(c, c->peer, c->peer_start[n]) < 0) return -1;
    int nu = csr(units, -1, &c->unit_start, &c->unit);
    if (nu < 0) return -1;
    c->nunits = nu;
    if (check_vars(c, c->unit, c->unit_start[nu]) < 0) return -1;
    c->unit_full = calloc(nu ? nu : 1, sizeof(u64));
    if (!c->unit_full) { PyErr_NoMemory(); return -1; }
    for (int u = 0; u < nu; u++) {
        int len = c->unit_start[u + 1] - c->unit_start[u];
        c->unit_full[u] = len >= 64 ? ~(u64)0 : (((u64)1 << len) - 1);
    }
    /* conflicts: a sequence of (x, a, y, mask-of-y-values) */
    PyObject *seq = PySequence_Fast(conflicts, "conflicts must be a sequence");
    if (!seq) return -1;
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(seq);
    int nopt = n * c->maxd;
    c->conf_start = calloc(nopt + 1, sizeof(int));
    c->conf_var = malloc(sizeof(int) * (nc ? nc : 1));
    c->conf_mask = malloc(sizeof(u64) * (nc ? nc : 1));
    int *ox = malloc(sizeof(int) * (nc ? nc : 1));
    if (!c->conf_start || !c->conf_var || !c->conf_mask || !ox) {
        free(ox); Py_DECREF(seq); PyErr_NoMemory(); return -1;
    }
    int *cy = malloc(sizeof(int) * (nc ? nc : 1));
    u64 *cm = malloc(sizeof(u64) * (nc ? nc : 1));
    if (!cy || !cm) { free(ox); free(cy); free(cm); Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < nc; i++) {
        int x, a, y;
        unsigned long long m;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiiK", &x, &a, &y, &m)) {
            free(ox); free(cy); free(cm); Py_DECREF(seq); return -1;
        }
        if (x < 0 || x >= n || y < 0 || y >= n || a < 1 || a > c->maxd) {
            free(ox); free(cy); free(cm); Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "conflict out of range");
            return -1;
        }
        ox[i] = x * c->maxd + a - 1;
        cy[i] = y;
        cm[i] = m;
        c->conf_start[ox[i] + 1]++;
        if (x == y && (m >> (a - 1) & 1))
            c->start[x] &= ~((u64)1 << (a - 1));      /* a value that rules itself out */
    }
    Py_DECREF(seq);
    for (int o = 0; o < nopt; o++) c->conf_start[o + 1] += c->conf_start[o];
    int *fill = malloc(sizeof(int) * (nopt ? nopt : 1));
    if (!fill) { free(ox); free(cy); free(cm); PyErr_NoMemory(); return -1; }
    memcpy(fill, c->conf_start, sizeof(int) * nopt);
    for (Py_ssize_t i = 0; i < nc; i++) {
        int at = fill[ox[i]]++;
        c->conf_var[at] = cy[i];
        c->conf_mask[at] = cm[i];
    }
    free(fill); free(ox); free(cy); free(cm);
    if (read_tables(c, tables) < 0 || read_sums(c, sums) < 0 || read_cross(c, cross) < 0)
        return -1;
    return watch_lists(c);
}

static PyObject *core_search(Core *c, PyObject *args, PyObject *kw)
{
    static char *names[] = {"givens", "limit", "keep", "deadline", NULL};
    PyObject *givens;
    long long limit = 1, keep = -1;
    double deadline = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|LLd", names, &givens, &limit, &keep,
                                     &deadline))
        return NULL;
    begin(c, limit, keep, deadline);
    c->solutions = PyList_New(0);
    if (!c->solutions) return NULL;
    c->strong = 1;
    int r = load(c, givens, 1);
    if (r > 0) {
        c->nodes = 1;
        r = dfs(c, 0) < 0 ? -1 : 1;
    }
    c->strong = 0;
    if (r < 0) { Py_CLEAR(c->solutions); return NULL; }
    PyObject *out = Py_BuildValue("(OLLLO)", c->solutions, c->found, c->nodes, c->guesses,
                                  c->timed_out ? Py_True : Py_False);
    Py_CLEAR(c->solutions);
    return out;
}

static PyObject *core_fixpoint(Core *c, PyObject *args, PyObject *kw)
{
    static char *names[] = {"givens", "locked", "search", NULL};
    PyObject *givens;
    int use_locked = 0, strong = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|pp", names, &givens, &use_locked, &strong))
        return NULL;
    c->strong = strong;
    int r = load(c, givens, use_locked);
    c->strong = 0;
    if (r < 0) return NULL;
    if (r == 0) Py_RETURN_NONE;
    PyObject *out = PyList_New(c->n);
    if (!out) return NULL;
    for (int v = 0; v < c->n; v++)
        PyList_SET_ITEM(out, v, PyLong_FromUnsignedLongLong(c->frames[v]));
    return out;
}

/* propagate(cands, queue, search=False): narrow the candidate masks to the fixpoint of
   singles, hidden singles, tables and sums, starting from the variables queued (each must
   hold one value); return the new masks, None on a contradiction. The same fixpoint as the
   pure-Python `propagate`, which the logical solver's forcing nets run many times; with
   `search`, that of the search's stronger filters (which the tests check by brute force). */
static PyObject *core_propagate(Core *c, PyObject *args, PyObject *kw)
{
    static char *names[] = {"cands", "queue", "search", NULL};
    PyObject *cands, *queue;
    int strong = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|p", names, &cands, &queue, &strong))
        return NULL;
    u64 *cand = frame(c, 0);
    if (!cand) return PyErr_NoMemory();
    PyObject *seq = PySequence_Fast(cands, "cands must be a sequence");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != c->n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "one candidate mask per variable");
        return NULL;
    }
    for (int v = 0; v < c->n; v++) {
        unsigned long long x = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(seq, v));
        if (x == (unsigned long long)-1 && PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
        cand[v] = (u64)x & c->full[v];
    }
    Py_DECREF(seq);
    int qn = 0;
    seq = PySequence_Fast(queue, "queue must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t nq = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t k = 0; k < nq; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); goto bad; }
        if (v < 0 || v >= c->n || !SINGLE(cand[v])) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a queued variable must hold one value");
            goto bad;
        }
        if (!cand[v]) { Py_DECREF(seq); unqueue(c, qn); Py_RETURN_NONE; }
        if (!c->queued[v]) { c->queued[v] = 1; c->queue[qn++] = v; }
    }
    Py_DECREF(seq);
    for (int v = 0; v < c->n; v++)
        if (!cand[v]) { unqueue(c, qn); Py_RETURN_NONE; }
    dirty_all(c);
    c->strong = strong;
    int ok = fixpoint(c, cand, qn, 0);
    c->strong = 0;
    if (!ok)
        Py_RETURN_NONE;
    PyObject *out = PyList_New(c->n);
    if (!out) return NULL;
    for (int v = 0; v < c->n; v++)
        PyList_SET_ITEM(out, v, PyLong_FromUnsignedLongLong(cand[v]));
    return out;
bad:
    unqueue(c, qn);
    return NULL;
}

/* ------------------------------------------------------------------ a file of classic puzzles

   `polydoku solve FILE --jobs 1` on a file of classic puzzles (cli/express.py): every line is
   read, solved, checked and written here, so a line costs microseconds, not the Python
   model's tens of them. The check is not the search's: `classic_wrong` knows nothing of the
   Core and reads only the two lines and the box shape. */

/* Return 0 when `sol` (size * size symbol indexes, 0-based) fills the grid of `given`
   (-1 for a blank) with every row, column and box holding each value once; else 1. */
static int classic_wrong(const signed char *given, const signed char *sol, int size,
                         int box_rows, int box_cols)
{
    u64 all = size >= 64 ? ~(u64)0 : (((u64)1 << size) - 1);
    for (int i = 0; i < size * size; i++)
        if (sol[i] < 0 || sol[i] >= size || (given[i] >= 0 && given[i] != sol[i]))
            return 1;
    for (int a = 0; a < size; a++) {
        u64 row = 0, col = 0, box = 0;
        int top = (a / box_rows) * box_rows, left = (a % box_rows) * box_cols;
        for (int b = 0; b < size; b++) {
            row |= (u64)1 << sol[a * size + b];
            col |= (u64)1 << sol[b * size + a];
            box |= (u64)1 << sol[(top + b / box_cols) * size + left + b % box_cols];
        }
        if (row != all || col != all || box != all)
            return 1;
    }
    return 0;
}

/* solve_lines(data, alphabet, box_rows, box_cols, timeout) -> (out, consumed, lines, answered):
   solve each line of `data` (a classic puzzle of this Core's cells, one per line; `.` or
   `0` a blank unless `0` is a symbol), first solution only, and write it as a line of
   symbols; blank lines and lines starting with `#` are passed over, as the reader does.
   Stops before the first line it cannot answer itself: any other line, a contradiction or
   no solution, the timeout (seconds per puzzle), or a solution the check refuses; the
   caller hands that line and the rest to the full path. `consumed` is the bytes of `data`
   done, `lines` their lines, `answered` the puzzles among them. */
static PyObject *core_solve_lines(Core *c, PyObject *args)
{
    Py_buffer data, alpha;
    int box_rows, box_cols;
    double timeout;
    if (!PyArg_ParseTuple(args, "y*y*iid", &data, &alpha, &box_rows, &box_cols, &timeout))
        return NULL;
    PyObject *result = NULL;
    char *out = NULL;
    int size = (int)alpha.len, ncells = size * size;
    if (size < 1 || size > 64 || c->n != ncells || c->ncells != ncells
            || box_rows < 1 || box_cols < 1 || box_rows * box_cols != size) {
        PyErr_SetString(PyExc_ValueError, "solve_lines: a classic grid of the Core's cells");
        goto done;
    }
    signed char code[256];
    memset(code, -2, sizeof code);                 /* -2: not a symbol of a puzzle line */
    code['.'] = -1;
    code['0'] = -1;
    for (int k = 0; k < size; k++) {
        unsigned char ch = ((const unsigned char *)alpha.buf)[k];
        code[ch] = (signed char)k;
        if (ch >= 'A' && ch <= 'Z')             /* letters in lower case too, as the reader */
            code[ch + 32] = (signed char)k;
    }
    const unsigned char *sym = alpha.buf;
    const char *buf = data.buf;
    Py_ssize_t len = data.len, pos = 0, cap = len + 16, used = 0;
    long long answered = 0, lines = 0;
    out = malloc((size_t)cap);
    signed char given[64 * 64], sol[64 * 64];
    if (!out) { PyErr_NoMemory(); goto done; }
    while (pos < len) {
        const char *line = buf + pos, *nl = memchr(line, '\n', (size_t)(len - pos));
        Py_ssize_t end = nl ? nl - buf : len, width = end - pos;
        if (width > 0 && line[width - 1] == '\r')
            width--;
        if (width == 0 || line[0] == '#') {        /* blank or a comment: nothing to print */
            pos = nl ? end + 1 : len;
            lines++;
            continue;
        }
        if (width != ncells)
            break;
        int bad = 0, qn;
        for (int i = 0; i < ncells && !bad; i++) {
            given[i] = code[(unsigned char)line[i]];
            bad = given[i] == -2;
        }
        if (bad)
            break;
        int r = load_start(c, &qn);
        if (r < 0) goto done;
        for (int i = 0; i < ncells && r > 0; i++)
            if (given[i] >= 0)
                r = place(c, i, given[i] + 1, &qn);
        if (r > 0) {
            dirty_all(c);
            r = fixpoint(c, c->frames, qn, 1);
        }
        else
            unqueue(c, qn);
        if (r <= 0)
            break;                                  /* no solution: the full path says why */
        begin(c, 1, 0, timeout > 0 ? now_monotonic() + timeout : 0.0);
        c->nodes = 1;
        if (dfs(c, 0) < 0) goto done;
        if (c->timed_out || c->found < 1)
            break;
        for (int i = 0; i < ncells; i++)
            sol[i] = (signed char)CTZ(c->first[i]);
        if (classic_wrong(given, sol, size, box_rows, box_cols))
            break;                                  /* the full path refuses it by name */
        if (used + ncells + 1 > cap) {
            cap = 2 * cap + ncells + 1;
            char *more = realloc(out, (size_t)cap);
            if (!more) { PyErr_NoMemory(); goto done; }
            out = more;
        }
        for (int i = 0; i < ncells; i++)
            out[used + i] = (char)sym[sol[i]];
        out[used + ncells] = '\n';
        used += ncells + 1;
        answered++;
        lines++;
        pos = nl ? end + 1 : len;
        if (!(answered & 255) && PyErr_CheckSignals() < 0)
            goto done;
    }
    result = Py_BuildValue("(y#nLL)", out, used, pos, lines, answered);
done:
    free(out);
    PyBuffer_Release(&data);
    PyBuffer_Release(&alpha);
    return result;
}

/* check_classic(given, solution, box_rows, box_cols): classic_wrong on two lists of 0-based
   symbol indexes (-1 a blank given), for the tests that hold the check to its word. */
static PyObject *check_classic(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *g, *s;
    int box_rows, box_cols;
    if (!PyArg_ParseTuple(args, "OOii", &g, &s, &box_rows, &box_cols))
        return NULL;
    int size = box_rows * box_cols;
    if (box_rows < 1 || box_cols < 1 || size > 64) {
        PyErr_SetString(PyExc_ValueError, "box shape");
        return NULL;
    }
    signed char given[64 * 64], sol[64 * 64];
    PyObject *lists[2] = {g, s};
    signed char *into[2] = {given, sol};
    for (int k = 0; k < 2; k++) {
        PyObject *seq = PySequence_Fast(lists[k], "a sequence of ints");
        if (!seq) return NULL;
        if (PySequence_Fast_GET_SIZE(seq) != size * size) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "one value per cell");
            return NULL;
        }
        for (int i = 0; i < size * size; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
            if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
            into[k][i] = (signed char)(v < -1 ? -1 : v > 100 ? 100 : v);
        }
        Py_DECREF(seq);
    }
    return PyBool_FromLong(!classic_wrong(given, sol, size, box_rows, box_cols));
}

/* ------------------------------------------------------------------ chains (logic/chains.py)

   chain_search(nodes, strong_ptr, strong_adj, weak_ptr, weak_adj, conf_row, conf, live,
   starts, singles, limit, mode, n): the breadth-first search of `_shortest` and `_bfs` in
   logic/chains.py, step for step, over a graph the caller wrote out: node ids below `nodes`;
   int32 arrays of strong and weak neighbours in the caller's order, with per node the
   (first, past-the-last) offsets of its own (0, 0 for none); per node the row
   of its conflicts in `conf` (words of 64 bits each, -1 for none); `live` the live
   candidates. From each start (in order) it looks for the shortest chain "start false ...
   end true" up to the limit (one less than the best so far), returning the first shortest:
   (links, start, end, [(node, on), ...], eliminations as bytes, proves_start), or None.
   mode 1 asks the end to be the start's value in another cell (XY-Chain). */

typedef struct {
    const int32_t *sp, *sa, *wp, *wa, *crow;
    const u64 *conf, *live;
    int nodes, W, singles, mode, n;
    int32_t *parent;          /* per key (node * 2 + on): the key it was reached from */
    uint32_t *stamp;          /* per key: the search that set parent */
    uint32_t now;
    int32_t *ons, *front;     /* scratch, 2 * nodes each */
    u64 *elim;                /* W words */
} Chains;

static int chain_end(Chains *g, int s, int y, u64 *cs)
{
    if (g->mode == 1 && !(s % g->n == y % g->n && s / g->n != y / g->n))
        return 0;
    if (g->crow[y] < 0)
        return 0;
    const u64 *cy = g->conf + (size_t)g->crow[y] * g->W;
    int any = 0;
    for (int w = 0; w < g->W; w++) {
        g->elim[w] = cs[w] & cy[w];
        any |= g->elim[w] != 0;
    }
    return any;
}

static inline int seen_key(Chains *g, int key)
{
    return g->stamp[key] == g->now;
}

static inline void set_key(Chains *g, int key, int from)
{
    g->stamp[key] = g->now;
    g->parent[key] = from;
}

/* One start: 0 = nothing, else the links of the chain found (its end in *end, proves in
   *proves, the eliminations in g->elim). */
static int chain_bfs(Chains *g, int s, int limit, u64 *cs, int *end, int *proves)
{
    g->now++;
    if (g->now == 0) {                 /* the stamps wrapped: start them afresh */
        memset(g->stamp, 0, sizeof(uint32_t) * 2 * (size_t)g->nodes);
        g->now = 1;
    }
    int nfront = 1, links = 0;
    g->front[0] = s << 1;
    set_key(g, s << 1, -1);
    while (nfront && links < limit) {
        int nons = 0;
        for (int f = 0; f < nfront; f++) {
            int key = g->front[f], x = key >> 1;
            for (int e = g->sp[2 * x]; e < g->sp[2 * x + 1]; e++) {
                int k = g->sa[e] << 1 | 1;
                if (!seen_key(g, k)) {
                    set_key(g, k, key);
                    g->ons[nons++] = k;
                }
            }
        }
        links++;
        for (int o = 0; o < nons; o++) {
            int y = g->ons[o] >> 1;
            if (y == s && s < g->singles) {
                *end = y; *proves = 1;
                memset(g->elim, 0, sizeof(u64) * g->W);
                return links;
            }
            if (links >= 3 && chain_end(g, s, y, cs)) {
                *end = y; *proves = 0;
                return links;
            }
        }
        if (links + 2 > limit)
            break;
        nfront = 0;
        for (int o = 0; o < nons; o++) {
            int k = g->ons[o], y = k >> 1;
            for (int e = g->wp[2 * y]; e < g->wp[2 * y + 1]; e++) {
                int kk = g->wa[e] << 1;
                if (!seen_key(g, kk)) {
                    set_key(g, kk, k);
                    g->front[nfront++] = kk;
                }
            }
        }
        links++;
    }
    return 0;
}

static int buffer_of(PyObject *obj, Py_buffer *view, Py_ssize_t item, Py_ssize_t count,
                     const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0)
        return -1;
    if (view->len != item * count) {
        PyErr_Format(PyExc_ValueError, "chain_search: %s has the wrong size", name);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* weak_links(nodes, conf_row, conf, words, singles, filter, live, n, same_value, groups,
   mixed_from): the weak neighbours of every node with a conflicts row, as the graphs of
   logic/chains.py list them: the candidates of its row inside `filter` (of its own value
   only when `same_value`), lowest first, then the groups of its value (group k is node
   singles + k, `groups` holds their candidates; groups from `mixed_from` on are cell groups,
   of any value, and only those follow a cell group) lying wholly inside its row and `live`,
   in order.
   Returns (weak_ptr, weak_adj) as int32 bytes, ready for chain_search. */

static PyObject *weak_links(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer rb, cb, fb, lb, gb;
    int nodes, W, singles, n, same_value, mixed_from;
    if (!PyArg_ParseTuple(args, "iy*y*iiy*y*iiy*i", &nodes, &rb, &cb, &W, &singles, &fb, &lb,
                          &n, &same_value, &gb, &mixed_from))
        return NULL;
    PyObject *result = NULL, *ptr = NULL, *adj = NULL;
    int32_t *out = NULL;
    Py_ssize_t rows = cb.len / (8 * (Py_ssize_t)(W > 0 ? W : 1));
    Py_ssize_t ngroups = gb.len / (8 * (Py_ssize_t)(W > 0 ? W : 1));
    if (nodes < 1 || W < 1 || n < 1 || singles < 0 || (Py_ssize_t)W * 64 < singles
            || rb.len != 4 * (Py_ssize_t)nodes || fb.len != 8 * (Py_ssize_t)W
            || lb.len != 8 * (Py_ssize_t)W || singles + ngroups > nodes) {
        PyErr_SetString(PyExc_ValueError, "weak_links: sizes do not match");
        goto done;
    }
    const int32_t *crow = rb.buf;
    const u64 *conf = cb.buf, *filter = fb.buf, *live = lb.buf, *groups = gb.buf;
    int *gvalue = malloc(sizeof(int) * (size_t)(ngroups + 1));
    size_t cap = 1024, used = 0;
    out = malloc(sizeof(int32_t) * cap);
    ptr = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)8 * nodes);
    if (!gvalue || !out || !ptr) { free(gvalue); PyErr_NoMemory(); goto done; }
    int32_t *wp = (int32_t *)PyBytes_AS_STRING(ptr);
    memset(wp, 0, (size_t)8 * nodes);
    for (Py_ssize_t g = 0; g < ngroups; g++) {
        gvalue[g] = -1;
        if (g >= mixed_from) { gvalue[g] = -2; continue; }     /* a cell group: any value */
        for (int w = 0; w < W; w++)
            if (groups[g * W + w]) { gvalue[g] = (int)((w * 64 + CTZ(groups[g * W + w])) % n); break; }
    }
    for (int x = 0; x < nodes; x++) {
        int r = crow[x];
        if (r < 0) continue;
        if (r >= rows) { free(gvalue); PyErr_SetString(PyExc_ValueError, "weak_links: row"); goto done; }
        const u64 *row = conf + (size_t)r * W;
        int value = x < singles ? x % n : gvalue[x - singles];
        int mixed = x >= singles && gvalue[x - singles] == -2;
        wp[2 * x] = (int32_t)used;
        for (int w = 0; w < W; w++)
            for (u64 m = row[w] & filter[w]; m; m &= m - 1) {
                int c = w * 64 + CTZ(m);
                if (c >= singles || (same_value && c % n != value)) continue;
                if (used == cap) {
                    int32_t *more = realloc(out, sizeof(int32_t) * (cap *= 2));
                    if (!more) { free(gvalue); PyErr_NoMemory(); goto done; }
                    out = more;
                }
                out[used++] = c;
            }
        for (Py_ssize_t g = 0; g < ngroups; g++) {
            if (gvalue[g] != -2 && (mixed || gvalue[g] != value)) continue;
            int inside = 1;
            for (int w = 0; w < W && inside; w++)
                inside = !(groups[g * W + w] & ~(row[w] & live[w]));
            if (!inside) continue;
            if (used == cap) {
                int32_t *more = realloc(out, sizeof(int32_t) * (cap *= 2));
                if (!more) { free(gvalue); PyErr_NoMemory(); goto done; }
                out = more;
            }
            out[used++] = (int32_t)(singles + g);
        }
        wp[2 * x + 1] = (int32_t)used;
    }
    free(gvalue);
    adj = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)(4 * used));
    if (adj) result = PyTuple_Pack(2, ptr, adj);
done:
    free(out);
    Py_XDECREF(ptr); Py_XDECREF(adj);
    PyBuffer_Release(&rb); PyBuffer_Release(&cb); PyBuffer_Release(&fb);
    PyBuffer_Release(&lb); PyBuffer_Release(&gb);
    return result;
}

static PyObject *chain_search(PyObject *Py_UNUSED(self), PyObject *args)
{
    PyObject *o[8];
    int nodes, singles, limit, mode, n, W;
    if (!PyArg_ParseTuple(args, "iOOOOOOOOiiiii", &nodes, &o[0], &o[1], &o[2], &o[3], &o[4],
                          &o[5], &o[6], &o[7], &W, &singles, &limit, &mode, &n))
        return NULL;
    if (nodes < 1 || W < 1) {
        PyErr_SetString(PyExc_ValueError, "chain_search: no nodes");
        return NULL;
    }
    Py_buffer b[8];
    int got = 0;
    PyObject *result = NULL;
    Chains g;
    memset(&g, 0, sizeof g);
    if (buffer_of(o[0], &b[0], 4, 2 * (Py_ssize_t)nodes, "strong_ptr") < 0) goto done;
    got = 1;
    g.sp = b[0].buf;
    if (PyObject_GetBuffer(o[1], &b[1], PyBUF_SIMPLE) < 0) goto done;
    got = 2;
    if (buffer_of(o[2], &b[2], 4, 2 * (Py_ssize_t)nodes, "weak_ptr") < 0) goto done;
    got = 3;
    g.wp = b[2].buf;
    if (PyObject_GetBuffer(o[3], &b[3], PyBUF_SIMPLE) < 0) goto done;
    got = 4;
    if (buffer_of(o[4], &b[4], 4, nodes, "conf_row") < 0) goto done;
    got = 5;
    if (PyObject_GetBuffer(o[5], &b[5], PyBUF_SIMPLE) < 0) goto done;
    got = 6;
    if (buffer_of(o[6], &b[6], 8, W, "live") < 0) goto done;
    got = 7;
    if (PyObject_GetBuffer(o[7], &b[7], PyBUF_SIMPLE) < 0) goto done;
    got = 8;
    g.sa = b[1].buf; g.wa = b[3].buf; g.crow = b[4].buf;
    g.conf = b[5].buf; g.live = b[6].buf;
    g.nodes = nodes; g.W = W; g.singles = singles; g.mode = mode; g.n = n > 0 ? n : 1;
    Py_ssize_t rows = b[5].len / (8 * (Py_ssize_t)W);
    for (int x = 0; x < nodes; x++) {
        if (g.crow[x] >= rows) { PyErr_SetString(PyExc_ValueError, "conf_row"); goto done; }
        int lo[2] = {g.sp[2 * x], g.wp[2 * x]}, hi[2] = {g.sp[2 * x + 1], g.wp[2 * x + 1]};
        const int32_t *adj[2] = {g.sa, g.wa};
        Py_ssize_t len[2] = {b[1].len / 4, b[3].len / 4};
        for (int t = 0; t < 2; t++) {
            if (lo[t] < 0 || lo[t] > hi[t] || hi[t] > len[t]) {
                PyErr_SetString(PyExc_ValueError, "chain_search: offsets out of range");
                goto done;
            }
            for (int e = lo[t]; e < hi[t]; e++)
                if (adj[t][e] < 0 || adj[t][e] >= nodes) {
                    PyErr_SetString(PyExc_ValueError, "neighbour out of range");
                    goto done;
                }
        }
    }
    const int32_t *starts = b[7].buf;
    Py_ssize_t nstarts = b[7].len / 4;
    g.parent = malloc(sizeof(int32_t) * 2 * (size_t)nodes);
    g.stamp = calloc(2 * (size_t)nodes, sizeof(uint32_t));
    g.ons = malloc(sizeof(int32_t) * 2 * (size_t)nodes);
    g.front = malloc(sizeof(int32_t) * 2 * (size_t)nodes);
    g.elim = malloc(sizeof(u64) * W);
    u64 *cs = malloc(sizeof(u64) * W), *best_elim = calloc(W, sizeof(u64));
    int32_t *best_path = malloc(sizeof(int32_t) * 2 * (size_t)nodes);
    if (!g.parent || !g.stamp || !g.ons || !g.front || !g.elim || !cs || !best_elim
            || !best_path) {
        free(cs); free(best_elim); free(best_path);
        PyErr_NoMemory();
        goto done;
    }
    int best = 0, best_s = 0, best_end = 0, best_proves = 0, best_len = 0;
    for (Py_ssize_t k = 0; k < nstarts; k++) {
        int s = starts[k];
        if (s < 0 || s >= nodes || g.crow[s] < 0) continue;
        const u64 *c = g.conf + (size_t)g.crow[s] * W;
        for (int w = 0; w < W; w++) cs[w] = c[w] & g.live[w];
        int end, proves;
        int found = chain_bfs(&g, s, best ? best - 1 : limit, cs, &end, &proves);
        if (found && (!best || found < best)) {
            best = found; best_s = s; best_end = end; best_proves = proves;
            memcpy(best_elim, g.elim, sizeof(u64) * W);
            best_len = 0;                           /* the path, end first */
            for (int key = end << 1 | 1; key != -1; key = g.parent[key])
                best_path[best_len++] = key;
            if (best <= 3) break;
        }
        if (!(k & 63) && PyErr_CheckSignals() < 0) {
            free(cs); free(best_elim); free(best_path);
            goto done;
        }
    }
    if (!best) {
        Py_INCREF(Py_None);
        result = Py_None;
    } else {
        PyObject *path = PyList_New(best_len);
        if (path) {
            for (int i = 0; i < best_len; i++) {
                int key = best_path[best_len - 1 - i];
                PyList_SET_ITEM(path, i, Py_BuildValue("(iO)", key >> 1,
                                                       key & 1 ? Py_True : Py_False));
            }
            result = Py_BuildValue("(iiiNy#O)", best, best_s, best_end, path,
                                   (const char *)best_elim, (Py_ssize_t)(8 * W),
                                   best_proves ? Py_True : Py_False);
        }
    }
    free(cs); free(best_elim); free(best_path);
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    free(g.parent); free(g.stamp); free(g.ons); free(g.front); free(g.elim);
    return result;
}

/* ------------------------------------------------------------------ ALS-XZ (logic/als.py)

   als_xz(packed, count, size, words, planes): the pair search of `find_als_xz`, in its order:
   the first ALSs a < b (no common cell, two common values or more) and restricted common
   value x (every x of b sees every x of a) that leave some other common value z a target
   (a cell that can hold z and sees every z of both). Each ALS is packed as its cells, its
   values (one word), then per value its cells holding it and the cells seeing all of those
   (`words` words per cell set); `planes` holds per value the cells that can hold it.
   Returns (a, b, x) or None; the caller writes the step. */

static PyObject *als_xz(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer pk, pl;
    int count, size, W;
    if (!PyArg_ParseTuple(args, "y*iiiy*", &pk, &count, &size, &W, &pl))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t per = (Py_ssize_t)W * (1 + 2 * size) + 1;       /* words per ALS */
    if (count < 0 || size < 1 || size > 64 || W < 1 || pk.len != 8 * per * count
            || pl.len != 8 * (Py_ssize_t)W * size) {
        PyErr_SetString(PyExc_ValueError, "als_xz: packed sizes do not match");
        goto done;
    }
    const u64 *all = pk.buf, *planes = pl.buf;
#define CELLS(k) (all + (size_t)(k) * per)
#define VALUES(k) (all[(size_t)(k) * per + W])
#define WHERE(k, v) (all + (size_t)(k) * per + W + 1 + (size_t)(v) * W)
#define SEES(k, v) (all + (size_t)(k) * per + W + 1 + (size_t)(size + (v)) * W)
    for (int a = 0; a < count; a++) {
        const u64 *ca = CELLS(a);
        u64 va = VALUES(a);
        for (int b = a + 1; b < count; b++) {
            const u64 *cb = CELLS(b);
            int overlap = 0;
            for (int w = 0; w < W && !overlap; w++) overlap = (ca[w] & cb[w]) != 0;
            u64 common = va & VALUES(b);
            if (overlap || POPC(common) < 2) continue;
            for (u64 rest = common; rest; rest &= rest - 1) {
                int x = CTZ(rest);
                const u64 *wb = WHERE(b, x), *sa = SEES(a, x);
                int restricted = 1;
                for (int w = 0; w < W && restricted; w++) restricted = !(wb[w] & ~sa[w]);
                if (!restricted) continue;
                for (u64 zs = common & ~((u64)1 << x); zs; zs &= zs - 1) {
                    int z = CTZ(zs);
                    const u64 *za = SEES(a, z), *zb = SEES(b, z), *pz = planes + (size_t)z * W;
                    for (int w = 0; w < W; w++)
                        if (za[w] & zb[w] & ~(ca[w] | cb[w]) & pz[w]) {
                            result = Py_BuildValue("(iii)", a, b, x + 1);
                            goto done;
                        }
                }
            }
        }
        if (!(a & 63) && PyErr_CheckSignals() < 0) goto done;
    }
#undef CELLS
#undef VALUES
#undef WHERE
#undef SEES
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&pk);
    PyBuffer_Release(&pl);
    return result;
}

/* ------------------------------------------------------------------ finned fish (logic/fish.py)

   finned_fish(plane, size, box_of, n, width): the search of `_finned_fish` for one value, in
   its order: rows as base lines, then columns; each n base lines (whose places number from 1
   to n + width) in order; each box; each choice of extra cover lines inside the box. `plane`
   holds the cells that can hold the value (little-endian bits), `box_of` the box of every cell
   (255: none). Returns (orientation, base line numbers, box) of the first finned or sashimi
   fish that eliminates something, or None; the caller writes the step. */

static int fin_next(int *pick, int k, int n)
{
    /* the next k-combination of 0..n-1 in lexicographic order; 0 when there is none */
    int i = k - 1;
    while (i >= 0 && pick[i] == n - k + i) i--;
    if (i < 0) return 0;
    pick[i]++;
    for (int j = i + 1; j < k; j++) pick[j] = pick[j - 1] + 1;
    return 1;
}

static PyObject *finned_fish(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer pl, bx;
    int N, n, width;
    if (!PyArg_ParseTuple(args, "y*iy*ii", &pl, &N, &bx, &n, &width))
        return NULL;
    PyObject *result = NULL;
    if (N < 1 || N > 32 || n < 1 || n > 8 || bx.len != (Py_ssize_t)N * N
            || pl.len * 8 < (Py_ssize_t)N * N) {
        PyErr_SetString(PyExc_ValueError, "finned_fish: sizes do not match");
        goto done;
    }
    const unsigned char *plane = pl.buf, *box_of = bx.buf;
    int most = n + width;
    for (int orient = 0; orient < 2; orient++) {
        uint32_t p[32] = {0}, bc[32][32], bidx[32] = {0};
        int nb = 0;
        memset(bc, 0, sizeof bc);
        for (int cell = 0; cell < N * N; cell++) {
            int r = cell / N, c = cell % N;
            int base = orient ? c : r, idx = orient ? r : c;
            if (plane[cell >> 3] >> (cell & 7) & 1) p[base] |= (uint32_t)1 << idx;
            int b = box_of[cell];
            if (b != 255 && b < 32) {
                bc[b][base] |= (uint32_t)1 << idx;
                bidx[b] |= (uint32_t)1 << idx;
                if (b + 1 > nb) nb = b + 1;
            }
        }
        int lines[32], nl = 0;
        for (int r = 0; r < N; r++)
            if (p[r] && POPC(p[r]) <= most) lines[nl++] = r;
        if (nl < n) continue;
        int pick[8];
        for (int i = 0; i < n; i++) pick[i] = i;
        do {
            uint32_t in_combo = 0, uni = 0;
            for (int i = 0; i < n; i++) {
                in_combo |= (uint32_t)1 << lines[pick[i]];
                uni |= p[lines[pick[i]]];
            }
            if (POPC(uni) > most) continue;
            for (int b = 0; b < nb; b++) {
                int inside_box = 0, beyond = 0;
                for (int r = 0; r < N; r++) {
                    if (!(p[r] & bc[b][r])) continue;
                    if (in_combo >> r & 1) inside_box = 1; else beyond = 1;
                }
                if (!inside_box || POPC(uni & ~bidx[b]) > n || !beyond) continue;
                uint32_t outside = 0;
                for (int i = 0; i < n; i++) {
                    int r = lines[pick[i]];
                    outside |= bc[b][r] ? p[r] & ~bidx[b] : p[r];
                }
                int used = POPC(outside);
                if (used > n) continue;
                uint32_t free_idx = bidx[b] & ~outside;
                int fb[32], nf = 0;
                for (uint32_t f = free_idx; f; f &= f - 1) fb[nf++] = CTZ(f);
                int k = n - used < nf ? n - used : nf;
                int ex[32];
                for (int i = 0; i < k; i++) ex[i] = i;
                do {
                    uint32_t cover = outside;
                    for (int i = 0; i < k; i++) cover |= (uint32_t)1 << fb[ex[i]];
                    int fins = 0, elim = 0;
                    for (int i = 0; i < n && !fins; i++) fins = (p[lines[pick[i]]] & ~cover) != 0;
                    if (!fins) continue;
                    for (int r = 0; r < N && !elim; r++)
                        elim = !(in_combo >> r & 1) && (p[r] & bc[b][r] & cover);
                    if (!elim) continue;
                    PyObject *rows = PyTuple_New(n);
                    if (!rows) goto done;
                    for (int i = 0; i < n; i++)
                        PyTuple_SET_ITEM(rows, i, PyLong_FromLong(lines[pick[i]]));
                    result = Py_BuildValue("(iNi)", orient, rows, b);
                    goto done;
                } while (k > 0 && fin_next(ex, k, nf));
            }
        } while (fin_next(pick, n, nl));
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&pl);
    PyBuffer_Release(&bx);
    return result;
}

/* ------------------------------------------------------------------ naked subsets (logic/subsets.py)

   naked_subset(cand, peers, words, groups, ptr, k, need): the search of `_naked_in` over
   groups of cells in order (the houses of `find_naked_subset`, or the box-and-line pairs of
   `find_locked_subset`): in each group, the first k of its cells with 2 to k candidates
   (in order) whose candidates number k and that eliminate something: a candidate of the
   subset's values in a cell outside it that sees every subset cell holding that value.
   `cand` holds every cell's candidates (uint32, 0 when placed), `peers` every cell's peers
   (`words` words each), `groups` the cells (int32) with `ptr` the offsets. With `need` (two
   cell sets per group, `words` words each), a group's first subset must eliminate inside both
   sets, else the next group is tried (a locked subset). Returns (group, cells) or None. */

static PyObject *naked_subset(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer cb, pb, gb, ob, nb;
    int W, k;
    if (!PyArg_ParseTuple(args, "y*y*iy*y*iy*", &cb, &pb, &W, &gb, &ob, &k, &nb))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t ncells = cb.len / 4, ngroups = ob.len / 4 - 1;
    const uint32_t *cand = cb.buf;
    const u64 *peers = pb.buf, *need = nb.buf;
    const int32_t *cells = gb.buf, *ptr = ob.buf;
    if (W < 1 || k < 2 || k > 8 || ngroups < 0 || pb.len != 8 * (Py_ssize_t)W * ncells
            || (nb.len && nb.len != 16 * (Py_ssize_t)W * ngroups)
            || (ngroups >= 0 && gb.len != 4 * (Py_ssize_t)ptr[ngroups])) {
        PyErr_SetString(PyExc_ValueError, "naked_subset: sizes do not match");
        goto done;
    }
    u64 *seen = malloc(sizeof(u64) * (size_t)W);
    if (!seen) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t g = 0; g < ngroups; g++) {
        int small[64], ns = 0;
        for (int32_t t = ptr[g]; t < ptr[g + 1] && ns < 64; t++) {
            int32_t i = cells[t];
            if (i < 0 || i >= ncells) continue;
            int c = POPC(cand[i]);
            if (c >= 2 && c <= k) small[ns++] = i;
        }
        if (ns < k) continue;
        int pick[8];
        for (int i = 0; i < k; i++) pick[i] = i;
        do {
            uint32_t uni = 0;
            for (int i = 0; i < k; i++) uni |= cand[small[pick[i]]];
            if (POPC(uni) != k) continue;
            int any = 0, hit_a = 0, hit_b = 0;
            for (uint32_t vs = uni; vs; vs &= vs - 1) {
                int v = CTZ(vs);
                for (int w = 0; w < W; w++) seen[w] = ~(u64)0;
                for (int i = 0; i < k; i++) {
                    int c = small[pick[i]];
                    if (cand[c] >> v & 1)
                        for (int w = 0; w < W; w++) seen[w] &= peers[(size_t)c * W + w];
                }
                for (int i = 0; i < k; i++) {
                    int c = small[pick[i]];
                    seen[c >> 6] &= ~((u64)1 << (c & 63));
                }
                for (int w = 0; w < W; w++)
                    for (u64 m = seen[w]; m; m &= m - 1) {
                        Py_ssize_t j = (Py_ssize_t)w * 64 + CTZ(m);
                        if (j >= ncells || !(cand[j] >> v & 1)) continue;
                        any = 1;
                        if (nb.len) {
                            const u64 *a = need + (size_t)g * 2 * W, *b = a + W;
                            hit_a |= (a[w] >> (j & 63)) & 1;
                            hit_b |= (b[w] >> (j & 63)) & 1;
                        }
                    }
            }
            if (!any) continue;
            if (nb.len && !(hit_a && hit_b)) break;       /* the group's first subset fails */
            PyObject *out = PyTuple_New(k);
            if (!out) { free(seen); goto done; }
            for (int i = 0; i < k; i++)
                PyTuple_SET_ITEM(out, i, PyLong_FromLong(small[pick[i]]));
            result = Py_BuildValue("(nN)", g, out);
            free(seen);
            goto done;
        } while (fin_next(pick, k, ns));
    }
    free(seen);
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&cb); PyBuffer_Release(&pb); PyBuffer_Release(&gb);
    PyBuffer_Release(&ob); PyBuffer_Release(&nb);
    return result;
}

/* hidden_subset(cand, groups, ptr, k): the search of `_hidden_in` over groups of cells (the
   houses of `find_hidden_subset`, in order): in each, the first k values (in order) with 2 to
   k places each whose places number k and hold another candidate. `cand` and the groups are
   as in naked_subset (a group has 32 cells at most). Returns the group or None. */

static PyObject *hidden_subset(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer cb, gb, ob;
    int k;
    if (!PyArg_ParseTuple(args, "y*y*y*i", &cb, &gb, &ob, &k))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t ncells = cb.len / 4, ngroups = ob.len / 4 - 1;
    const uint32_t *cand = cb.buf;
    const int32_t *cells = gb.buf, *ptr = ob.buf;
    if (k < 2 || k > 8 || ngroups < 0 || gb.len != 4 * (Py_ssize_t)ptr[ngroups]) {
        PyErr_SetString(PyExc_ValueError, "hidden_subset: sizes do not match");
        goto done;
    }
    for (Py_ssize_t g = 0; g < ngroups; g++) {
        int len = ptr[g + 1] - ptr[g];
        if (len > 32) continue;
        const int32_t *hc = cells + ptr[g];
        uint32_t where[32] = {0}, all = 0;
        for (int t = 0; t < len; t++) {
            if (hc[t] < 0 || hc[t] >= ncells) continue;
            for (uint32_t vs = cand[hc[t]]; vs; vs &= vs - 1) where[CTZ(vs)] |= (uint32_t)1 << t;
            all |= cand[hc[t]];
        }
        int few[32], nf = 0;
        for (uint32_t vs = all; vs; vs &= vs - 1) {
            int c = POPC(where[CTZ(vs)]);
            if (c >= 2 && c <= k) few[nf++] = CTZ(vs);
        }
        if (nf < k) continue;
        int pick[8];
        for (int i = 0; i < k; i++) pick[i] = i;
        do {
            uint32_t places = 0, keep = 0;
            for (int i = 0; i < k; i++) {
                places |= where[few[pick[i]]];
                keep |= (uint32_t)1 << few[pick[i]];
            }
            if (POPC(places) != k) continue;
            for (uint32_t m = places; m; m &= m - 1)
                if (cand[hc[CTZ(m)]] & ~keep) {
                    result = PyLong_FromSsize_t(g);
                    goto done;
                }
        } while (fin_next(pick, k, nf));
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&cb); PyBuffer_Release(&gb); PyBuffer_Release(&ob);
    return result;
}

/* planes(cand, size, words): per value, the cells that can hold it, from every cell's
   candidates (uint32, 0 when placed), as `size` cell sets of `words` little-endian 64-bit
   words in one bytes object (Board.planes). */

static PyObject *planes(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer cb;
    int n, W;
    if (!PyArg_ParseTuple(args, "y*ii", &cb, &n, &W))
        return NULL;
    Py_ssize_t ncells = cb.len / 4;
    if (n < 1 || n > 32 || W < 1 || (Py_ssize_t)W * 64 < ncells) {
        PyBuffer_Release(&cb);
        PyErr_SetString(PyExc_ValueError, "planes: sizes do not match");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)8 * W * n);
    if (out) {
        u64 *sets = (u64 *)PyBytes_AS_STRING(out);
        memset(sets, 0, (size_t)8 * W * n);
        const uint32_t *cand = cb.buf;
        for (Py_ssize_t i = 0; i < ncells; i++)
            for (uint32_t vs = cand[i]; vs; vs &= vs - 1) {
                int v = CTZ(vs);
                if (v < n) sets[(size_t)v * W + (i >> 6)] |= (u64)1 << (i & 63);
            }
    }
    PyBuffer_Release(&cb);
    return out;
}

static PyMethodDef core_methods[] = {
    {"propagate", (PyCFunction)(void (*)(void))core_propagate, METH_VARARGS | METH_KEYWORDS,
     "propagate(cands, queue, search=False) -> narrowed candidate masks, or None on a "
     "contradiction (with search, the search's filters: sums by value sets, implied tables)"},
    {"search", (PyCFunction)(void (*)(void))core_search, METH_VARARGS | METH_KEYWORDS,
     "search(givens, limit=1, keep=limit, deadline=0.0) -> (solutions, found, nodes, "
     "guesses, timed_out)"},
    {"fixpoint", (PyCFunction)(void (*)(void))core_fixpoint, METH_VARARGS | METH_KEYWORDS,
     "fixpoint(givens, locked=False, search=False) -> candidate bitmasks, or None on a "
     "contradiction (with search, the search's filters: sums by value sets, implied tables)"},
    {"solve_lines", (PyCFunction)core_solve_lines, METH_VARARGS,
     "solve_lines(data, alphabet, box_rows, box_cols, timeout) -> (out, consumed, lines, "
     "answered)"},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef module_methods[] = {
    {"als_xz", als_xz, METH_VARARGS,
     "als_xz(packed, count, size, words, planes) -> (a, b, x) of the first ALS-XZ, or None"},
    {"naked_subset", naked_subset, METH_VARARGS,
     "naked_subset(cand, peers, words, groups, ptr, k, need) -> (group, cells) of the first "
     "naked subset that eliminates, or None"},
    {"hidden_subset", hidden_subset, METH_VARARGS,
     "hidden_subset(cand, groups, ptr, k) -> the first group with a hidden subset, or None"},
    {"planes", planes, METH_VARARGS,
     "planes(cand, size, words) -> per value, the cells that can hold it (packed cell sets)"},
    {"finned_fish", finned_fish, METH_VARARGS,
     "finned_fish(plane, size, box_of, n, width) -> (orientation, base lines, box) of the first "
     "finned fish, or None"},
    {"weak_links", weak_links, METH_VARARGS,
     "weak_links(nodes, conf_row, conf, words, singles, filter, live, n, same_value, groups, "
     "mixed_from) "
     "-> (weak_ptr, weak_adj)"},
    {"chain_search", chain_search, METH_VARARGS,
     "chain_search(nodes, strong_ptr, strong_adj, weak_ptr, weak_adj, conf_row, conf, live, "
     "starts, words, singles, limit, mode, n) -> the shortest chain, or None"},
    {"check_classic", check_classic, METH_VARARGS,
     "check_classic(given, solution, box_rows, box_cols) -> whether the solution is right"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "polydoku._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A compiled problem: search and propagate over candidate bitmasks.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)core_init,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = core_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_core",
    .m_doc = "The native engine's compiled search (see engines/native.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    for (int set = 1; set < (1 << DSUM_MAXD); set++)
        psum[set] = psum[set & (set - 1)] + CTZ((u64)set);
    if (PyType_Ready(&CoreType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
