/* The dealer pass of bjcalc.engine.dealer, compiled: the one loop that dominates a whole-game
 * analysis (every dealer draw, for tens of thousands of shoes per up card).
 *
 * It computes what bjcalc.engine.dealer._outcome_numerators computes with numpy, for the same
 * flattened dealer graph: for each shoe, the outcome numerators over ff(cards left, depth),
 * each factor of that falling factorial at least 1: on a shoe dealt to its last cards the draws
 * past the last card have no numerator, so a dealer who runs out counts in no outcome
 * (bjcalc.numbers.falling_left).
 * Float: shoes are processed BLOCK (64) at a time with the block as the innermost index, so
 * that the multiply-adds of one draw run across shoes in vector registers.
 * Exact (numerators_exact): the same sums in integers, EBLOCK shoes side by side, in 64 bits for
 * the steps whose sums stay below 2^64 and in unsigned 128 bits after.
 * Every partial sum is at most the shoe's denominator ff(cards left, depth), which the caller
 * checks is below 2^127, so nothing overflows; results are returned as two uint64 halves.
 * The joint pass (joint) does every up card at once, with a counter's shoe's weights too;
 * joint_exact does it in 128-bit integers for a composition shoe.
 *
 * Only the Python C API's buffer protocol is used (no numpy headers), and the module is an
 * optional build: without it bjcalc runs the numpy version of the same loop.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 64
#define RANKS 10
#define MAX_OUTCOMES 32

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define MULTIVERSION __attribute__((target_clones("avx512f", "avx2", "default")))
/* the joint pass's wide kernel (joint_block_wide) keeps a block's shoes in 512-bit vectors, in
 * registers; GCC keeps a vector type wider than the target's in memory, so it is built for
 * AVX-512 alone, and other machines (and calls of few rows) run the plain loops of joint_block */
#define WIDE_JOINT 1
#define WIDE __attribute__((target("avx512f")))
#else
#define MULTIVERSION
#define WIDE_JOINT 0
#endif

/* The dealer graph, flattened by bjcalc.engine.dealer (CompiledDealer.flat). Step s (the dealer holds s cards
 * beyond the up card and draws one more) has edges edge_start[s] .. edge_start[s+1]-1, each from
 * a drawing state `parent` of level s to state `child` of level s+1, drawing `rank` of which the
 * parent holds `held`. Level s+1 has width[s] states; stop[node_start[s] + i] is the outcome
 * slot where state i of level s+1 stops, or -1 where the dealer draws again. */
typedef struct {
    int n_steps;
    const int32_t *edge_start, *parent, *child, *rank, *held;
    const int32_t *width, *node_start, *stop;
    int max_width, max_held;
    /* first[e]: edge e is the first into its child at its step, so it sets the child's sum
     * instead of adding to it; clear[s]: step s has a node no edge reaches, so its sums are
     * cleared first (first_edges) */
    uint8_t *first, *clear;
} Graph;

/* Graph.first and Graph.clear (malloc'd; -1 where memory runs out): a step's sums need no
 * clearing where every node has an edge into it, the first of which sets its sum. */
static int first_edges(Graph *g)
{
    int32_t n_edges = g->edge_start[g->n_steps];
    g->first = malloc((size_t)n_edges + 1);
    g->clear = malloc((size_t)g->n_steps + 1);
    uint8_t *seen = malloc((size_t)g->max_width + 1);
    if (!g->first || !g->clear || !seen) {
        free(g->first), free(g->clear), free(seen);
        g->first = g->clear = NULL;
        return -1;
    }
    for (int s = 0; s < g->n_steps; s++) {
        memset(seen, 0, (size_t)g->width[s]);
        for (int32_t e = g->edge_start[s]; e < g->edge_start[s + 1]; e++) {
            g->first[e] = !seen[g->child[e]];
            seen[g->child[e]] = 1;
        }
        g->clear[s] = 0;
        for (int i = 0; i < g->width[s]; i++)
            if (!seen[i])
                g->clear[s] = 1;
        if (g->clear[s]) /* sums cleared: every edge adds */
            for (int32_t e = g->edge_start[s]; e < g->edge_start[s + 1]; e++)
                g->first[e] = 0;
    }
    free(seen);
    return 0;
}

/* By child (by_child): a level's edges grouped by the state they lead to, each group in the
 * order of the edges (so each state's sum adds its draws in the same order as the edges do), and
 * where each state's group starts: in_start[node_start[s] + i] .. in_start[node_start[s] + i + 1]
 * for state i of level s + 1 (in_start has one more entry per step). */
typedef struct {
    int32_t *order, *in_start;
} ByChild;

/* ByChild of a graph (malloc'd); -1 where memory runs out. */
static int by_child(const Graph *g, ByChild *c)
{
    int32_t n_edges = g->edge_start[g->n_steps];
    int32_t n_nodes = g->node_start[g->n_steps - 1] + g->width[g->n_steps - 1];
    c->order = malloc(sizeof(int32_t) * ((size_t)n_edges + 1));
    c->in_start = malloc(sizeof(int32_t) * ((size_t)n_nodes + (size_t)g->n_steps + 1));
    if (!c->order || !c->in_start) {
        free(c->order), free(c->in_start);
        c->order = c->in_start = NULL;
        return -1;
    }
    for (int s = 0; s < g->n_steps; s++) {
        int32_t *start = c->in_start + g->node_start[s] + s; /* width[s] + 1 entries */
        memset(start, 0, sizeof(int32_t) * ((size_t)g->width[s] + 1));
        for (int32_t e = g->edge_start[s]; e < g->edge_start[s + 1]; e++)
            start[g->child[e] + 1]++;
        start[0] = g->edge_start[s];
        for (int i = 0; i < g->width[s]; i++)
            start[i + 1] += start[i];
        for (int32_t e = g->edge_start[s]; e < g->edge_start[s + 1]; e++)
            c->order[start[g->child[e]]++] = e; /* start[i] moves to the end of state i's group */
        for (int i = g->width[s]; i > 0; i--)
            start[i] = start[i - 1];
        start[0] = g->edge_start[s];
    }
    return 0;
}

/* Eight shoes' doubles in one vector (GCC's vector extensions; plain code compiles them to what
 * the machine has); a block is BLOCK / 8 of them, summed in registers. */
typedef double v8d __attribute__((vector_size(64)));
#define LANES (BLOCK / 8)
#define LOAD8(out, p) memcpy(&(out), (p), sizeof(v8d))

/* A block's counts by rank (shoes past n: none) and, where asked, their cards left (n_left);
 * then avail[(r * (max_held + 1) + h) * BLOCK + b] = cards of rank r left when h are held,
 * without a branch per entry: 1 for every h for the rank `skip` (numerators_projected leaves
 * its factors out; -1: none). */
static inline __attribute__((always_inline)) void fill_avail(const Graph *g, int n, const int64_t *left, int skip,
                                                             double *n_left, double *avail)
{
    double count[RANKS][BLOCK];
    int b;
    for (b = 0; b < BLOCK; b++) {
        double total = 0.0;
        for (int r = 0; r < RANKS; r++) {
            count[r][b] = b < n ? (double)left[b * RANKS + r] : 0.0;
            total += count[r][b];
        }
        if (n_left)
            n_left[b] = total;
    }
    for (int r = 0; r < RANKS; r++)
        for (int h = 0; h <= g->max_held; h++) {
            double *to = avail + (size_t)(r * (g->max_held + 1) + h) * BLOCK;
            for (b = 0; b < BLOCK; b++) {
                double a = count[r][b] - (double)h;
                to[b] = r == skip ? 1.0 : a > 0.0 ? a : 0.0;
            }
        }
}

/* The sum of state i of level s + 1 over the edges into it, for a block of shoes in registers:
 * the first edge's product sets it, the others add theirs, in the order of the edges (so every
 * state's sum is the same floats however the edges are stored); 0 where no edge reaches it. */
static inline __attribute__((always_inline)) void state_sum(const Graph *g, const ByChild *c, int s, int i,
                                                            const double *cur, const double *avail, v8d acc[LANES])
{
    const int32_t *start = c->in_start + g->node_start[s] + s;
    int32_t k = start[i], end = start[i + 1];
    v8d v, x;
    if (k == end) {
        for (int b = 0; b < LANES; b++)
            acc[b] = (v8d){0};
        return;
    }
    int32_t e = c->order[k];
    const double *pv = cur + (size_t)g->parent[e] * BLOCK;
    const double *pa = avail + ((size_t)g->rank[e] * (g->max_held + 1) + g->held[e]) * BLOCK;
    for (int b = 0; b < LANES; b++) {
        LOAD8(v, pv + 8 * b);
        LOAD8(x, pa + 8 * b);
        acc[b] = v * x;
    }
    for (k++; k < end; k++) {
        e = c->order[k];
        pv = cur + (size_t)g->parent[e] * BLOCK;
        pa = avail + ((size_t)g->rank[e] * (g->max_held + 1) + g->held[e]) * BLOCK;
        for (int b = 0; b < LANES; b++) {
            LOAD8(v, pv + 8 * b);
            LOAD8(x, pa + 8 * b);
            acc[b] += v * x;
        }
    }
}

MULTIVERSION
static void run_block(const Graph *g, const ByChild *c, int depth, int n_out, int n, const int64_t *left,
                      double *out, Py_ssize_t stride, int transposed, double *cur, double *nxt, double *avail)
{
    double n_left[BLOCK], num[MAX_OUTCOMES][BLOCK];
    int b, o;
    fill_avail(g, n, left, -1, n_left, avail);
    for (o = 0; o < n_out; o++)
        for (b = 0; b < BLOCK; b++)
            num[o][b] = 0.0;
    for (b = 0; b < BLOCK; b++)
        cur[b] = 1.0;
    int steps = depth < g->n_steps ? depth : g->n_steps;
    for (int s = 0; s < steps; s++) {
        for (o = 0; o < n_out; o++)
            for (b = 0; b < BLOCK; b++)
                num[o][b] *= n_left[b] - s > 1.0 ? n_left[b] - s : 1.0; /* past the last card: 1 */
        /* each state of the next level: its draws summed in registers, then stored once; a
         * stopping state's sum joins its outcome's */
        const int32_t *stop = g->stop + g->node_start[s];
        for (int i = 0; i < g->width[s]; i++) {
            v8d acc[LANES], v;
            state_sum(g, c, s, i, cur, avail, acc);
            int slot = stop[i];
            if (slot >= 0)
                for (b = 0; b < LANES; b++) {
                    LOAD8(v, num[slot] + 8 * b);
                    v += acc[b];
                    memcpy(num[slot] + 8 * b, &v, sizeof(v8d));
                }
            else
                memcpy(nxt + (size_t)i * BLOCK, acc, sizeof(acc));
        }
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    if (transposed) /* out: this block's rows, each its outcomes */
        for (b = 0; b < n; b++)
            for (o = 0; o < n_out; o++)
                out[(size_t)b * n_out + o] = num[o][b];
    else
        for (o = 0; o < n_out; o++)
            for (b = 0; b < n; b++)
                out[o * stride + b] = num[o][b];
}

static int get(PyObject *obj, Py_buffer *view, int writable)
{
    return PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0));
}

/* Release the first `got` buffers of an entry point's call. */
static void release(Py_buffer *views, int got)
{
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&views[i]);
}

/* The graph from the first eight buffers of a call (edge_start .. stop). */
static void graph_of(Graph *g, const Py_buffer *views, int max_width, int max_held)
{
    g->n_steps = (int)(views[0].len / sizeof(int32_t)) - 1;
    g->edge_start = views[0].buf;
    g->parent = views[1].buf;
    g->child = views[2].buf;
    g->rank = views[3].buf;
    g->held = views[4].buf;
    g->width = views[5].buf;
    g->node_start = views[6].buf;
    g->stop = views[7].buf;
    g->max_width = max_width;
    g->max_held = max_held;
}

/* numerators(edge_start, parent, child, rank, held, width, node_start, stop,
 *            max_width, max_held, depth, left, out[, transposed])
 * int32 arrays for the graph, left: int64 (n, 10), out: float64 (n_out, n), or with transposed
 * (n, n_out), every entry filled in. */
static PyObject *numerators(PyObject *self, PyObject *args)
{
    PyObject *objs[10];
    int max_width, max_held, depth, transposed = 0;
    if (!PyArg_ParseTuple(args, "OOOOOOOOiiiOO|p", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &objs[7], &max_width, &max_held, &depth,
                          &objs[8], &objs[9], &transposed))
        return NULL;
    Py_buffer views[10];
    int got = 0;
    for (; got < 10; got++)
        if (get(objs[got], &views[got], got == 9) < 0)
            goto fail;
    Graph g;
    graph_of(&g, views, max_width, max_held);
    Py_ssize_t n = views[8].len / (Py_ssize_t)(sizeof(int64_t) * RANKS);
    int n_out = n ? (int)(views[9].len / (Py_ssize_t)sizeof(double) / n) : 0;
    if (n_out > MAX_OUTCOMES) {
        PyErr_SetString(PyExc_ValueError, "too many dealer outcomes");
        goto fail;
    }
    double *cur = malloc(sizeof(double) * BLOCK * (size_t)(max_width + 1));
    double *nxt = malloc(sizeof(double) * BLOCK * (size_t)(max_width + 1));
    double *avail = malloc(sizeof(double) * BLOCK * RANKS * (size_t)(max_held + 1));
    ByChild c;
    if (!cur || !nxt || !avail || by_child(&g, &c) < 0) {
        free(cur), free(nxt), free(avail);
        PyErr_NoMemory();
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i += BLOCK) {
        int m = n - i < BLOCK ? (int)(n - i) : BLOCK;
        run_block(&g, &c, depth, n_out, m, (const int64_t *)views[8].buf + i * RANKS,
                  (double *)views[9].buf + (transposed ? i * n_out : i), n, transposed, cur, nxt, avail);
    }
    Py_END_ALLOW_THREADS
    free(cur), free(nxt), free(avail), free(c.order), free(c.in_start);
    release(views, got);
    Py_RETURN_NONE;
fail:
    release(views, got);
    return NULL;
}

/* The pass of numerators_projected over a block of up to BLOCK projections: run_block's pass with
 * the cards of rank `pair` left out of the products (their factors are 1), each stopping state's
 * sum kept apart by the pair cards it holds (h, from hold[]) and the cards it drew (L = s + 1),
 * unscaled: summed in lanes[(((h * n_out + o) * steps + s) * BLOCK + b] (a block's shoes side by
 * side, as the pass's), then laid out by shoe, coef[((b * (max_h + 1) + h) * n_out + o) * steps
 * + s]. */
MULTIVERSION
static void run_projected_block(const Graph *g, const ByChild *c, int steps, int n_out, int n, const int64_t *left,
                                int pair, const int32_t *hold, int max_h, double *coef, double *lanes, double *cur,
                                double *nxt, double *avail)
{
    int b;
    fill_avail(g, n, left, pair, NULL, avail);
    size_t per_shoe = (size_t)n_out * (size_t)(max_h + 1) * (size_t)steps;
    memset(lanes, 0, sizeof(double) * per_shoe * BLOCK); /* by cell, the block's shoes side by side */
    for (b = 0; b < BLOCK; b++)
        cur[b] = 1.0;
    for (int s = 0; s < steps; s++) {
        const int32_t *stop = g->stop + g->node_start[s];
        for (int i = 0; i < g->width[s]; i++) {
            v8d acc[LANES], v;
            state_sum(g, c, s, i, cur, avail, acc);
            int slot = stop[i];
            if (slot >= 0) {
                double *to = lanes + (((size_t)hold[g->node_start[s] + i] * n_out + slot) * steps + s) * BLOCK;
                for (b = 0; b < LANES; b++) {
                    LOAD8(v, to + 8 * b);
                    v += acc[b];
                    memcpy(to + 8 * b, &v, sizeof(v8d));
                }
            } else
                memcpy(nxt + (size_t)i * BLOCK, acc, sizeof(acc));
        }
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    for (b = 0; b < n; b++) /* each shoe's cells together, for combine_block */
        for (size_t k = 0; k < per_shoe; k++)
            coef[(size_t)b * per_shoe + k] = lanes[k * BLOCK + b];
}

/* numerators_projected's shoes of a block of projections, each from its projection's sums
 * (coef, per_shoe apart) with its own factors; see there. */
MULTIVERSION
static void combine_block(const double *coef, int m, size_t per_shoe, const int64_t *first, const int64_t *members,
                          const int64_t *pair_left, const int64_t *n_left, int max_h, int steps, int n_out,
                          double *out)
{
    double f_pair[64], f_left[64], at[MAX_OUTCOMES * 64];
    for (int b = 0; b < m; b++) {
        const double *mine = coef + (size_t)b * per_shoe;
        for (int64_t k = first[b]; k < first[b + 1]; k++) {
            int64_t shoe = members[k];
            /* ff(pair cards left, h), each factor at least 0 as the pass's counts are */
            f_pair[0] = 1.0;
            for (int h = 1; h <= max_h; h++) {
                double a = (double)(pair_left[shoe] - (h - 1));
                f_pair[h] = f_pair[h - 1] * (a > 0.0 ? a : 0.0);
            }
            /* ff(cards left - L, steps - L) for L = s + 1: the scaling of the later steps */
            f_left[steps - 1] = 1.0;
            for (int s = steps - 2; s >= 0; s--)
                f_left[s] = f_left[s + 1] * (n_left[shoe] - (s + 1) > 1 ? (double)(n_left[shoe] - (s + 1)) : 1.0);
            /* by h, the block of (outcome, step) sums at once; then each outcome over the steps */
            size_t cells = (size_t)n_out * (size_t)steps;
            for (size_t k = 0; k < cells; k++)
                at[k] = mine[k];
            for (int h = 1; h <= max_h; h++) {
                const double *row = mine + (size_t)h * cells;
                for (size_t k = 0; k < cells; k++)
                    at[k] += row[k] * f_pair[h];
            }
            for (int o = 0; o < n_out; o++) {
                double total = 0.0;
                for (int s = 0; s < steps; s++)
                    total += at[(size_t)o * steps + s] * f_left[s];
                out[(size_t)shoe * n_out + o] = total;
            }
        }
    }
}

/* numerators_projected(edge_start, parent, child, rank, held, width, node_start, stop, max_width,
 *                      max_held, depth, pair, projections, first, members, pair_left, n_left, out)
 * numerators' results for shoes that differ from a few projections only in their cards of rank
 * `pair`. A dealer's draws from a shoe are a product over the ranks of the cards he draws
 * (falling factorials of the counts), so each projection's pass (the pair cards' factors left
 * out) keeps its stopping states' sums by the pair cards held (h) and the cards drawn (L); each
 * shoe then takes them with its own factors, ff(pair cards left, h) for the pair cards (a
 * graph's counts held are the dealer's draws, the up card apart) and ff(cards left - L,
 * steps - L) for the common denominator. projections: int64 (G, 10), the shoes' counts but for rank `pair`;
 * members: int64, the shoes grouped by projection, those of projection g at first[g] ..
 * first[g + 1] - 1 (first: int64 (G + 1,)); pair_left, n_left: int64 (n,), each shoe's cards of
 * rank `pair` and in all; out: float64 (n, n_out), every entry filled in. */
static PyObject *numerators_projected(PyObject *self, PyObject *args)
{
    PyObject *objs[14];
    int max_width, max_held, depth, pair;
    if (!PyArg_ParseTuple(args, "OOOOOOOOiiiiOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5],
                          &objs[6], &objs[7], &max_width, &max_held, &depth, &pair, &objs[8], &objs[9], &objs[10],
                          &objs[11], &objs[12], &objs[13]))
        return NULL;
    Py_buffer views[14];
    int got = 0;
    for (; got < 14; got++)
        if (get(objs[got], &views[got], got == 13) < 0)
            goto fail;
    Graph g;
    graph_of(&g, views, max_width, max_held);
    Py_ssize_t n_proj = views[8].len / (Py_ssize_t)(sizeof(int64_t) * RANKS);
    Py_ssize_t n = views[11].len / (Py_ssize_t)sizeof(int64_t);
    int n_out = n ? (int)(views[13].len / (Py_ssize_t)sizeof(double) / n) : 0;
    if (pair < 0 || pair >= RANKS || n_out > MAX_OUTCOMES || views[9].len != (Py_ssize_t)sizeof(int64_t) * (n_proj + 1)
        || views[10].len != (Py_ssize_t)sizeof(int64_t) * n || views[12].len != (Py_ssize_t)sizeof(int64_t) * n) {
        PyErr_SetString(PyExc_ValueError, "numerators_projected: inconsistent arguments");
        goto fail;
    }
    const int64_t *projections = views[8].buf, *first = views[9].buf, *members = views[10].buf;
    const int64_t *pair_left = views[11].buf, *n_left = views[12].buf;
    double *out = views[13].buf;
    int steps = depth < g.n_steps ? depth : g.n_steps;
    /* each state's pair cards: its parent's, and one more where the draw is one */
    int32_t n_nodes = g.n_steps ? g.node_start[g.n_steps - 1] + g.width[g.n_steps - 1] : 0;
    int32_t *hold = malloc(sizeof(int32_t) * ((size_t)n_nodes + 1));
    int max_h = 0;
    ByChild c = {NULL, NULL};
    double *cur = malloc(sizeof(double) * BLOCK * (size_t)(max_width + 1));
    double *nxt = malloc(sizeof(double) * BLOCK * (size_t)(max_width + 1));
    double *avail = malloc(sizeof(double) * BLOCK * RANKS * (size_t)(max_held + 1));
    if (!hold || !cur || !nxt || !avail || by_child(&g, &c) < 0) {
        free(hold), free(cur), free(nxt), free(avail);
        PyErr_NoMemory();
        goto fail;
    }
    for (int s = 0; s < g.n_steps; s++)
        for (int32_t e = g.edge_start[s]; e < g.edge_start[s + 1]; e++) {
            int h = (s ? hold[g.node_start[s - 1] + g.parent[e]] : 0) + (g.rank[e] == pair);
            hold[g.node_start[s] + g.child[e]] = h;
            max_h = h > max_h ? h : max_h;
        }
    if (steps < 1 || steps > 64 || max_h >= 64) {
        free(hold), free(cur), free(nxt), free(avail), free(c.order), free(c.in_start);
        PyErr_SetString(PyExc_ValueError, "numerators_projected: a dealer graph deeper than 64 draws");
        goto fail;
    }
    size_t per_shoe = (size_t)n_out * (size_t)(max_h + 1) * (size_t)steps;
    double *coef = malloc(sizeof(double) * per_shoe * BLOCK), *lanes = malloc(sizeof(double) * per_shoe * BLOCK);
    if (!coef || !lanes) {
        free(coef), free(lanes);
        free(hold), free(cur), free(nxt), free(avail), free(c.order), free(c.in_start);
        PyErr_NoMemory();
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n_proj; i += BLOCK) {
        int m = n_proj - i < BLOCK ? (int)(n_proj - i) : BLOCK;
        run_projected_block(&g, &c, steps, n_out, m, projections + i * RANKS, pair, hold, max_h, coef, lanes, cur,
                            nxt, avail);
        combine_block(coef, m, per_shoe, first + i, members, pair_left, n_left, max_h, steps, n_out, out);
    }
    Py_END_ALLOW_THREADS
    free(hold), free(cur), free(nxt), free(avail), free(coef), free(lanes), free(c.order), free(c.in_start);
    release(views, got);
    Py_RETURN_NONE;
fail:
    release(views, got);
    return NULL;
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

#define EBLOCK 32

/* The exact pass of up to EBLOCK shoes side by side (left: their rows; n of them). Every sum of
 * step s (a level's state, an outcome's numerator) is at most ff(cards left, s + 1), the ordered
 * draws of s + 1 cards: while that is below 2^64 for every shoe of the block the steps run in
 * 64-bit integers, one multiply per draw and shoe, which vectorise across the block; the later
 * steps (long hands of small cards, few of the draws) in 128 bits. The same integers as one
 * shoe at a time in 128 bits. */
/* Steps s .. last - 1 of run_exact_block in integers of type T: the levels' states in cur and
 * nxt (swapped each step), the outcomes' sums in num. */
#define EXACT_STEPS(T, cur, nxt, num, last)                                                                \
    for (; s < (last); s++) {                                                                          \
        for (o = 0; o < n_out; o++)                                                                    \
            for (b = 0; b < EBLOCK; b++)                                                               \
                num[o][b] *= n_left[b] > (uint64_t)s + 1 ? n_left[b] - s : 1;                          \
        if (g->clear[s])                                                                               \
            memset(nxt, 0, sizeof(T) * EBLOCK * (size_t)g->width[s]);                                  \
        for (int32_t e = g->edge_start[s]; e < g->edge_start[s + 1]; e++) {                            \
            const T *restrict v = cur + (size_t)g->parent[e] * EBLOCK;                                 \
            const uint64_t *restrict a = avail + ((size_t)g->rank[e] * (g->max_held + 1) + g->held[e]) \
                                                     * EBLOCK;                                         \
            T *restrict w = nxt + (size_t)g->child[e] * EBLOCK;                                        \
            if (g->first[e])                                                                           \
                for (b = 0; b < EBLOCK; b++)                                                           \
                    w[b] = v[b] * a[b];                                                                \
            else                                                                                       \
                for (b = 0; b < EBLOCK; b++)                                                           \
                    w[b] += v[b] * a[b];                                                               \
        }                                                                                              \
        const int32_t *stop = g->stop + g->node_start[s];                                              \
        for (int i = 0; i < g->width[s]; i++)                                                          \
            if (stop[i] >= 0)                                                                          \
                for (b = 0; b < EBLOCK; b++)                                                           \
                    num[stop[i]][b] += nxt[(size_t)i * EBLOCK + b];                                    \
        T *swap = cur;                                                                                 \
        cur = nxt;                                                                                     \
        nxt = swap;                                                                                    \
    }

MULTIVERSION
static void run_exact_block(const Graph *g, int depth, int n_out, int n, const int64_t *left, uint64_t *lo,
                            uint64_t *hi, Py_ssize_t stride, uint64_t *c64, uint64_t *n64, u128 *c128, u128 *n128,
                            uint64_t *avail)
{
    uint64_t n_left[EBLOCK], num64[MAX_OUTCOMES][EBLOCK];
    u128 num[MAX_OUTCOMES][EBLOCK];
    int b, o;
    int64_t most = 0;
    for (b = 0; b < EBLOCK; b++) {
        int64_t t = 0;
        if (b < n)
            for (int r = 0; r < RANKS; r++)
                t += left[b * RANKS + r];
        n_left[b] = (uint64_t)t;
        most = t > most ? t : most;
    }
    /* avail[(r * (max_held + 1) + h) * EBLOCK + b] = cards of rank r left when h are held */
    for (int r = 0; r < RANKS; r++)
        for (int h = 0; h <= g->max_held; h++)
            for (b = 0; b < EBLOCK; b++) {
                int64_t a = b < n ? left[b * RANKS + r] - h : 0;
                avail[(r * (g->max_held + 1) + h) * EBLOCK + b] = a > 0 ? (uint64_t)a : 0;
            }
    int steps = depth < g->n_steps ? depth : g->n_steps;
    /* the first step whose sums may pass 2^64: ff(most, s + 1) >= 2^64 */
    int wide = steps;
    u128 bound = 1;
    for (int s = 0; s < steps; s++) {
        bound *= most - s > 1 ? (uint64_t)(most - s) : 1;
        if (bound >> 64) {
            wide = s;
            break;
        }
    }
    for (o = 0; o < n_out; o++)
        for (b = 0; b < EBLOCK; b++)
            num64[o][b] = 0;
    for (b = 0; b < EBLOCK; b++)
        c64[b] = 1;
    int s = 0;
    EXACT_STEPS(uint64_t, c64, n64, num64, wide);
    for (o = 0; o < n_out; o++)
        for (b = 0; b < EBLOCK; b++)
            num[o][b] = num64[o][b];
    if (s < steps) { /* the states of level s, into 128 bits */
        int states = s == 0 ? 1 : g->width[s - 1];
        for (size_t k = 0; k < (size_t)states * EBLOCK; k++)
            c128[k] = c64[k];
    }
    EXACT_STEPS(u128, c128, n128, num, steps);
    for (o = 0; o < n_out; o++)
        for (b = 0; b < n; b++) {
            lo[o * stride + b] = (uint64_t)num[o][b];
            hi[o * stride + b] = (uint64_t)(num[o][b] >> 64);
        }
}
#endif

/* numerators_exact(edge_start, parent, child, rank, held, width, node_start, stop,
 *                  max_width, max_held, depth, left, lo, hi)
 * As numerators, in 128-bit integers: lo and hi are uint64 (n_out, n), filled in. Raises
 * NotImplementedError where the compiler has no 128-bit integers. */
static PyObject *numerators_exact(PyObject *self, PyObject *args)
{
#ifdef __SIZEOF_INT128__
    PyObject *objs[11];
    int max_width, max_held, depth;
    if (!PyArg_ParseTuple(args, "OOOOOOOOiiiOOO", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &objs[7], &max_width, &max_held, &depth,
                          &objs[8], &objs[9], &objs[10]))
        return NULL;
    Py_buffer views[11];
    int got = 0;
    for (; got < 11; got++)
        if (get(objs[got], &views[got], got >= 9) < 0)
            goto fail;
    Graph g;
    graph_of(&g, views, max_width, max_held);
    Py_ssize_t n = views[8].len / (Py_ssize_t)(sizeof(int64_t) * RANKS);
    int n_out = n ? (int)(views[9].len / (Py_ssize_t)sizeof(uint64_t) / n) : 0;
    if (n_out > MAX_OUTCOMES) {
        PyErr_SetString(PyExc_ValueError, "too many dealer outcomes");
        goto fail;
    }
    size_t states = (size_t)(max_width + 1) * EBLOCK;
    uint64_t *c64 = malloc(sizeof(uint64_t) * states), *n64 = malloc(sizeof(uint64_t) * states);
    u128 *c128 = malloc(sizeof(u128) * states), *n128 = malloc(sizeof(u128) * states);
    uint64_t *avail = malloc(sizeof(uint64_t) * EBLOCK * RANKS * (size_t)(max_held + 1));
    if (!c64 || !n64 || !c128 || !n128 || !avail || first_edges(&g) < 0) {
        free(c64), free(n64), free(c128), free(n128), free(avail);
        PyErr_NoMemory();
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i += EBLOCK) {
        int m = n - i < EBLOCK ? (int)(n - i) : EBLOCK;
        run_exact_block(&g, depth, n_out, m, (const int64_t *)views[8].buf + i * RANKS,
                        (uint64_t *)views[9].buf + i, (uint64_t *)views[10].buf + i, n, c64, n64, c128, n128, avail);
    }
    Py_END_ALLOW_THREADS
    free(c64), free(n64), free(c128), free(n128), free(avail), free(g.first), free(g.clear);
    release(views, got);
    Py_RETURN_NONE;
fail:
    release(views, got);
    return NULL;
#else
    PyErr_SetString(PyExc_NotImplementedError, "no 128-bit integers in this build");
    return NULL;
#endif
}


/* The joint passes' shoes per block, side by side; JLANES vectors of eight of them. joint runs
 * the wide kernel for WIDE_ROWS rows or more. */
#define JBLOCK 32
#define JLANES (JBLOCK / 8)
#define WIDE_ROWS (8 * JBLOCK)

/* The dealer of every up card in one pass per shoe (float): bjcalc.engine.jointdealer.JointDealer.
 *
 * A node is a multiset F of the dealer's cards, up card included, laid out level by level
 * (level = |F|); for a shoe T (before the up card) its weight is w(F) = prod_r ff(T_r, F_r),
 * one multiplication from its tree parent: w(F) = w(F - r) * (T_r - held). Where the dealer
 * stops on F, entry e says that c_e legal orders of F start with up card u_e and end in
 * outcome slot s_e: P(up u, F) = c * w(F) / ff(|T|, |F|) (busting multisets are left out: a bust
 * is what the other outcomes leave). The numerators the per-up-card pass
 * gives (over ff(|T| - 1, depth_u), conditioned on the up card) follow by one factor per
 * (up card, level): ff(|T| - L, depth_u - L + 1) / T_u. Drawing nodes keep their weight in a
 * buffer for their children; stopping nodes are used at once.
 */
typedef struct {
    int n_levels, n_out;  /* levels 1..n_levels; outcome slots per up card (padded) */
    const int32_t *level_start, *parent, *rank, *held, *store, *entry_start;
    const int32_t *entry_out;  /* up * n_out + slot */
    const double *entry_c;
    const uint64_t *orders;  /* entry_c as integers: the exact pass (joint_exact) reads these */
    const int32_t *bust;  /* per up card: the outcome slot of a bust (-1: none), left to the end */
    const int32_t *depth;  /* per up card; -1: not evaluated */
    const double *pay;  /* (10, n_out, n_pay) */
    int n_pay, max_held, n_store;
    /* a counter's shoe (bjcalc.engine.drawmodel; NULL table: a composition): `hidden` of the
     * cards are discards, so the level factors count the cards left, and a stopping node F
     * of row b is weighted by table[node_class[F] * n_rc + row_class[b]], the weight of the
     * class totals of the row's cards and F (the up card among them); a bust, what the other
     * outcomes leave, of the row's cards and the up card alone: up_table[u * n_rc + row_class[b]] */
    int hidden, n_nc, n_rc;
    const int32_t *node_class, *row_class;
    const double *table, *up_table;
    /* the float pass (joint_plan): a block's node weights are rows of a buffer `node_rows`
     * (JBLOCK wide): row 0 is ones (the parent of level 1), rows 1 .. n_store the drawing nodes
     * (store + 1), and the rows after them the stopping nodes of the level at hand, by outcome
     * column and in node order within one (at most max_stop of them); `nodes` says which rows
     * each node's weight is made of, each level's by parent. The outcome slots (up * n_out +
     * slot) the stopping nodes of level L reach are slots[slot_start[L - 1] .. slot_start[L] -
     * 1] (the others' sums stay zero at that level, and are skipped); slot slots[k]'s entries
     * of the level are gather_row[q] and gather_c[q], q = gather_start[k] .. gather_start[k + 1]
     * - 1, in node order, so each slot's sum is the same floats as the entries added one by one
     * would be; slot_factor[k]: the row of its level factor in gl, up * (n_levels + 2) + L.
     * (joint_block_wide reads all of it; joint_block, the slot lists.) */
    struct JointNode *nodes;
    int max_stop;
    int32_t *slot_start, *slots, *gather_start, *gather_row, *slot_factor;
    double *gather_c;
} Joint;

/* A node's rows in the float pass: its weight is rows[from] * avail[avail] (times wl[weight],
 * the weight of its class, for a counter's shoe; a drawing node's is the row of ones), into
 * rows[into] */
struct JointNode {
    int32_t from, avail, into, weight;
};

/* Frees Joint's float plan (joint_plan). */
static void joint_plan_free(Joint *j)
{
    free(j->nodes), free(j->slot_start), free(j->slots), free(j->gather_start), free(j->gather_row);
    free(j->gather_c), free(j->slot_factor);
    j->nodes = NULL;
    j->slot_start = j->slots = j->gather_start = j->gather_row = j->slot_factor = NULL;
    j->gather_c = NULL;
}

/* The outcome column (slot within the up card's) of stopping node i's entries (all of a node's
 * are alike: the dealer's total decides it), 0 for none. */
static int stop_column(const Joint *j, int32_t i)
{
    return j->entry_start[i] < j->entry_start[i + 1] ? j->entry_out[j->entry_start[i]] % j->n_out : 0;
}

/* Joint's float plan (nodes .. gather_c) for j's levels and weights (j->table and n_nc set),
 * malloc'd (joint_plan_free); -1 where memory runs out. Without `wide`, the slot lists alone
 * (joint_block's). */
static int joint_plan(Joint *j, int wide)
{
    int n_slots = RANKS * j->n_out;
    int32_t n_nodes = j->level_start[j->n_levels], n_entries = j->entry_start[n_nodes];
    struct JointNode *nodes = NULL, *sorted = NULL;
    int32_t *by_parent = NULL;
    j->gather_row = NULL;
    j->gather_c = NULL;
    if (wide) {
        nodes = malloc(sizeof(struct JointNode) * ((size_t)n_nodes + 1));
        sorted = malloc(sizeof(struct JointNode) * ((size_t)n_nodes + 1));
        by_parent = malloc(sizeof(int32_t) * ((size_t)j->n_store + 2));
        j->gather_row = malloc(sizeof(int32_t) * ((size_t)n_entries + 1));
        j->gather_c = malloc(sizeof(double) * ((size_t)n_entries + 1));
    }
    j->nodes = nodes;
    j->slot_start = malloc(sizeof(int32_t) * (size_t)(j->n_levels + 1));
    j->slots = malloc(sizeof(int32_t) * (size_t)(j->n_levels * n_slots + 1));
    j->gather_start = malloc(sizeof(int32_t) * (size_t)(j->n_levels * n_slots + 1));
    j->slot_factor = malloc(sizeof(int32_t) * (size_t)(j->n_levels * n_slots + 1));
    int32_t *count = malloc(sizeof(int32_t) * ((size_t)n_slots + 1));
    if (!j->slot_start || !j->slots || !j->gather_start || !j->slot_factor || !count
        || (wide && (!nodes || !sorted || !by_parent || !j->gather_row || !j->gather_c))) {
        free(count), free(by_parent), free(sorted);
        joint_plan_free(j);
        return -1;
    }
    int32_t n_used = 0, n_gathered = 0;
    j->max_stop = 0;
    j->slot_start[0] = 0;
    for (int L = 1; L <= j->n_levels; L++) {
        /* the stopping nodes' rows by outcome column (column_start), in node order within one */
        int32_t stop = 0, column_start[MAX_OUTCOMES + 1] = {0};
        memset(count, 0, sizeof(int32_t) * (size_t)n_slots);
        for (int32_t i = j->level_start[L - 1]; i < j->level_start[L]; i++) {
            if (wide) {
                nodes[i].from = j->parent[i] + 1; /* parent: the store of the parent, -1 for none */
                nodes[i].avail = j->rank[i] * (j->max_held + 1) + j->held[i];
                nodes[i].weight = j->store[i] >= 0 || !j->table ? j->n_nc : j->node_class[i];
                nodes[i].into = j->store[i] + 1;
            }
            if (j->store[i] < 0) {
                column_start[stop_column(j, i) + 1]++;
                stop++;
                for (int32_t e = j->entry_start[i]; e < j->entry_start[i + 1]; e++)
                    count[j->entry_out[e]]++;
            }
        }
        for (int c = 0; c < j->n_out; c++)
            column_start[c + 1] += column_start[c];
        for (int32_t i = j->level_start[L - 1]; wide && i < j->level_start[L]; i++)
            if (j->store[i] < 0)
                nodes[i].into = j->n_store + 1 + column_start[stop_column(j, i)]++;
        if (stop > j->max_stop)
            j->max_stop = stop;
        /* the level's slots column by column (the rows one column's sums read lie together, so
         * that they stay in the cache while its up cards' sums read them), each slot's entries
         * from where the previous one's end */
        for (int c = 0; c < j->n_out; c++)
            for (int slot = c; slot < n_slots; slot += j->n_out)
                if (count[slot]) {
                    j->slots[n_used] = slot;
                    j->slot_factor[n_used] = slot / j->n_out * (j->n_levels + 2) + L;
                    j->gather_start[n_used++] = n_gathered;
                    int32_t k = count[slot];
                    count[slot] = n_gathered;
                    n_gathered += k;
                }
        j->slot_start[L] = n_used;
        if (!wide)
            continue;
        for (int32_t i = j->level_start[L - 1]; i < j->level_start[L]; i++)
            if (j->store[i] < 0)
                for (int32_t e = j->entry_start[i]; e < j->entry_start[i + 1]; e++) {
                    int32_t q = count[j->entry_out[e]]++;
                    j->gather_row[q] = nodes[i].into;
                    j->gather_c[q] = j->entry_c[e];
                }
        /* each level's nodes by parent (counted by row: from <= n_store), so that a parent's
         * weight is read once for its children */
        memset(by_parent, 0, sizeof(int32_t) * ((size_t)j->n_store + 2));
        for (int32_t i = j->level_start[L - 1]; i < j->level_start[L]; i++)
            by_parent[nodes[i].from + 1]++;
        for (int32_t r = 0; r <= j->n_store; r++)
            by_parent[r + 1] += by_parent[r];
        for (int32_t i = j->level_start[L - 1]; i < j->level_start[L]; i++)
            sorted[by_parent[nodes[i].from]++] = nodes[i];
        memcpy(nodes + j->level_start[L - 1], sorted,
               sizeof(struct JointNode) * (size_t)(j->level_start[L] - j->level_start[L - 1]));
    }
    j->gather_start[n_used] = n_gathered;
    free(count), free(by_parent), free(sorted);
    return 0;
}

/* The joint graph's node and entry arrays from the first seven buffers of a call (level_start
 * .. entry_out), laid out alike by joint and joint_exact. */
static void joint_graph_of(Joint *j, const Py_buffer *views)
{
    j->n_levels = (int)(views[0].len / sizeof(int32_t)) - 1;
    j->level_start = views[0].buf;
    j->parent = views[1].buf;
    j->rank = views[2].buf;
    j->held = views[3].buf;
    j->store = views[4].buf;
    j->entry_start = views[5].buf;
    j->entry_out = views[6].buf;
}

/* The float joint passes' graph and rules from their calls' buffers (joint and joint_many lay
 * out views 0..11 alike: the graph, entry_c, depth, pay, shoe, removed), and the bust slots'. */
static void joint_float_of(Joint *j, const Py_buffer *views, const Py_buffer *bust, int n_out, int n_pay,
                           int max_held, int n_store)
{
    joint_graph_of(j, views);
    j->entry_c = views[7].buf;
    j->orders = NULL;
    j->bust = bust->buf;
    j->depth = views[8].buf;
    j->pay = views[9].buf;
    j->n_out = n_out;
    j->n_pay = n_pay;
    j->max_held = max_held;
    j->n_store = n_store;
}

/* A block's shoes for a joint pass: each rank's cards left (up_count[r][b]) and all of them
 * (total, less the counter's shoe's discards), what each rank leaves when h are held (avail)
 * and the level factors gl[(u * (n_levels + 2) + L) * JBLOCK + b] = ff(|T| - L, depth_u - L + 1) / T_u
 * (zeros for an up card not evaluated). */
static inline void joint_setup(const Joint *j, int n, const int64_t *shoe, const int64_t *removed, int weighted,
                               double *total, double (*up_count)[JBLOCK], double *avail, double *gl)
{
    int b, r, h, u, L;
    for (b = 0; b < JBLOCK; b++) {
        total[b] = 0.0;
        for (r = 0; r < RANKS; r++) {
            double t = b < n ? (double)(shoe[r] - removed[b * RANKS + r]) : 0.0;
            up_count[r][b] = t;
            total[b] += t;
        }
        if (weighted)
            total[b] -= j->hidden; /* the cards left: the level factors' counts */
    }
    for (r = 0; r < RANKS; r++)
        for (h = 0; h <= j->max_held; h++) {
            double *restrict to = avail + (size_t)(r * (j->max_held + 1) + h) * JBLOCK;
            for (b = 0; b < JBLOCK; b++) {
                double a = up_count[r][b] - h;
                to[b] = a > 0.0 ? a : 0.0;
            }
        }
    for (u = 0; u < RANKS; u++) {
        double *g = gl + (size_t)u * (j->n_levels + 2) * JBLOCK, value[JBLOCK];
        /* zeros where no factor is written below: level 0 and the levels past d + 1 */
        int d = j->depth[u], top = d < 0 ? 0 : d + 1 < j->n_levels ? d + 1 : j->n_levels;
        memset(g, 0, sizeof(double) * JBLOCK);
        memset(g + (size_t)(top + 1) * JBLOCK, 0, sizeof(double) * JBLOCK * (size_t)(j->n_levels + 1 - top));
        if (d < 0)
            continue;
        /* g(d + 1) = 1 / T_u and g(L) = g(L + 1) * (|T| - L), the shoes side by side */
        for (b = 0; b < JBLOCK; b++)
            value[b] = up_count[u][b] > 0.0 ? 1.0 / up_count[u][b] : 0.0;
        for (L = d + 1; L >= 1; L--) {
            if (L <= d)
                for (b = 0; b < JBLOCK; b++) {
                    double f = total[b] - L;
                    value[b] *= f > 1.0 ? f : 1.0; /* past the last card: 1 (see the top) */
                }
            if (L <= j->n_levels)
                memcpy(g + (size_t)L * JBLOCK, value, sizeof value);
        }
    }
}

/* The weights of a block's nodes (`node`: the weight of its parent times the count its rank
 * leaves, level 1 the count alone): a drawing node keeps its weight in `drawn` for its children
 * and 0 is returned; a stopping node's weight goes into `w` and 1 is returned. */
static inline int node_weight(const Joint *j, int32_t i, const double *avail, double *drawn, double *w)
{
    int b;
    const double *restrict a = avail + ((size_t)j->rank[i] * (j->max_held + 1) + j->held[i]) * JBLOCK;
    if (j->parent[i] < 0)
        for (b = 0; b < JBLOCK; b++)
            w[b] = a[b];
    else {
        const double *restrict v = drawn + (size_t)j->parent[i] * JBLOCK;
        for (b = 0; b < JBLOCK; b++)
            w[b] = v[b] * a[b];
    }
    if (j->store[i] >= 0) {
        double *restrict keep = drawn + (size_t)j->store[i] * JBLOCK;
        for (b = 0; b < JBLOCK; b++)
            keep[b] = w[b];
        return 0;
    }
    return 1;
}

/* Up card u's bust slot in a block's outcome sums `out` (slot-major, JBLOCK wide): what the
 * other outcomes leave of the denominator ff(|T| - 1, depth_u), which is g(1) * T_u (times the
 * weight of the row's cards and the up card alone, `up_weight`, for a counter's shoe; NULL for
 * a composition). Nothing where the up card's dealer never busts. */
static inline void bust_slot(const Joint *j, int u, int n, const double *gl, const double (*up_count)[JBLOCK],
                             const double *up_weight, double *out)
{
    int b, bust = j->bust[u];
    if (bust < 0)
        return;
    const double *restrict g = gl + ((size_t)u * (j->n_levels + 2) + 1) * JBLOCK;
    double *restrict into = out + ((size_t)u * j->n_out + bust) * JBLOCK;
    for (b = 0; b < JBLOCK; b++)
        into[b] = g[b] * up_count[u][b];
    if (up_weight)
        for (b = 0; b < n; b++)
            into[b] *= up_weight[b];
    for (int s = 0; s < j->n_out; s++)
        if (s != bust) {
            const double *restrict from = out + ((size_t)u * j->n_out + s) * JBLOCK;
            for (b = 0; b < JBLOCK; b++)
                into[b] -= from[b];
        }
}

#if WIDE_JOINT
/* Rows b0 .. b0 + 7 of a block's sums by column (column c at sums + c * JBLOCK, for c < cols;
 * zeros after) as eight vectors, v[r] the first eight columns of row b0 + r: an 8 x 8 transpose
 * in three rounds of two-vector shuffles (pairs of columns, then fours, then eights). */
typedef int64_t v8i __attribute__((vector_size(64)));
static inline __attribute__((always_inline)) void transpose8(const double *sums, int cols, int b0, v8d v[8])
{
    v8d x[8], y[8];
    for (int c = 0; c < 8; c++)
        if (c < cols)
            LOAD8(x[c], sums + (size_t)c * JBLOCK + b0);
        else
            x[c] = (v8d){0};
    for (int c = 0; c < 8; c += 2) {
        y[c] = __builtin_shuffle(x[c], x[c + 1], (v8i){0, 8, 2, 10, 4, 12, 6, 14});
        y[c + 1] = __builtin_shuffle(x[c], x[c + 1], (v8i){1, 9, 3, 11, 5, 13, 7, 15});
    }
    for (int c = 0; c < 8; c += 4)
        for (int h = 0; h < 2; h++) {
            x[c + h] = __builtin_shuffle(y[c + h], y[c + h + 2], (v8i){0, 1, 8, 9, 4, 5, 12, 13});
            x[c + h + 2] = __builtin_shuffle(y[c + h], y[c + h + 2], (v8i){2, 3, 10, 11, 6, 7, 14, 15});
        }
    /* x[c + h + 2 * q] holds rows b0 + 2 * q + h and b0 + 2 * q + h + 4, columns c .. c + 3 */
    for (int r = 0; r < 4; r++) {
        int k = (r & 1) + (r >> 1) * 2;
        v[r] = __builtin_shuffle(x[k], x[k + 4], (v8i){0, 1, 2, 3, 8, 9, 10, 11});
        v[r + 4] = __builtin_shuffle(x[k], x[k + 4], (v8i){4, 5, 6, 7, 12, 13, 14, 15});
    }
}

/* A block's sums by column (column c at sums + c * JBLOCK) as n rows of `cols` values from
 * `to`: eight rows at a time by transpose8 where there are at most eight columns (a row as a
 * whole vector, where the next row, written after it, or the block's end leaves room). */
static inline __attribute__((always_inline)) void write_rows(const double *sums, int cols, int n, double *to)
{
    if (cols > 8) {
        for (int b = 0; b < n; b++)
            for (int c = 0; c < cols; c++)
                to[(size_t)b * cols + c] = sums[(size_t)c * JBLOCK + b];
        return;
    }
    for (int b0 = 0; b0 < n; b0 += 8) {
        v8d v[8];
        transpose8(sums, cols, b0, v);
        for (int r = 0; r < 8 && b0 + r < n; r++) {
            double *row = to + (size_t)(b0 + r) * cols;
            if ((b0 + r) * cols + 8 <= n * cols)
                memcpy(row, &v[r], sizeof v[r]);
            else
                for (int c = 0; c < cols; c++)
                    row[c] = v[r][c];
        }
    }
}

/* joint_finish for joint_block_wide: the same sums, each payoff column's in registers and
 * then in `acc` (n_pay * JBLOCK doubles), and the rows written by write_rows. */
static inline __attribute__((always_inline)) void
wide_finish(const Joint *j, int u, int n, const double *gl, const double (*up_count)[JBLOCK], const double *up_weight,
            double *out, double *acc, double *stand, double *matrix, Py_ssize_t rows, Py_ssize_t row0)
{
    int b, k;
    double *t = stand + ((size_t)u * rows + row0) * j->n_pay;
    double *o = matrix ? matrix + ((size_t)u * rows + row0) * j->n_out : NULL;
    if (j->depth[u] < 0) {
        memset(t, 0, sizeof(double) * (size_t)n * (size_t)j->n_pay);
        if (o)
            memset(o, 0, sizeof(double) * (size_t)n * (size_t)j->n_out);
        return;
    }
    bust_slot(j, u, n, gl, up_count, up_weight, out);
    const double *from = out + (size_t)u * j->n_out * JBLOCK;
    for (k = 0; k < j->n_pay; k++) {
        v8d sum[JLANES] = {{0}}, x;
        for (int s = 0; s < j->n_out; s++) {
            double p = j->pay[((size_t)u * j->n_out + s) * j->n_pay + k];
            if (p == 0.0)
                continue;
            for (b = 0; b < JLANES; b++) {
                LOAD8(x, from + (size_t)s * JBLOCK + 8 * b);
                sum[b] += x * p;
            }
        }
        memcpy(acc + (size_t)k * JBLOCK, sum, sizeof sum);
    }
    write_rows(acc, j->n_pay, n, t);
    if (o)
        write_rows(from, j->n_out, n, o);
}

/* A block's node weights, level by level (Joint's plan): each node's weight is its parent's times
 * the count its rank leaves (times its class's weight wl, for a counter's shoe), vectors of
 * eight shoes; then each outcome slot the level reaches sums c * w over its entries in
 * registers, and adds that sum times the level factor into `out` (the same floats as
 * joint_block's). */
WIDE
static void joint_block_wide(const Joint *j, int n, const int64_t *shoe, const int64_t *removed,
                             double *matrix, double *stand, Py_ssize_t rows, Py_ssize_t row0,
                             double *avail, double *node_rows, double *acc, double *out, double *gl, double *wl)
{
    double total[JBLOCK], up_count[RANKS][JBLOCK], up_weight[JBLOCK];
    int b, u, L;
    const int weighted = j->table != NULL;
    joint_setup(j, n, shoe, removed, weighted, total, up_count, avail, gl);
    /* a counter's shoe: this block's weight of each node class, wl[nc * JBLOCK + b], and ones
     * after them (a drawing node's) */
    if (weighted)
        for (int nc = 0; nc <= j->n_nc; nc++)
            for (b = 0; b < JBLOCK; b++)
                wl[(size_t)nc * JBLOCK + b] = nc == j->n_nc ? 1.0
                                              : b < n ? j->table[(size_t)nc * j->n_rc + j->row_class[row0 + b]] : 0.0;
    for (b = 0; b < JBLOCK; b++)
        node_rows[b] = 1.0;
    memset(out, 0, sizeof(double) * JBLOCK * RANKS * (size_t)j->n_out);
    for (L = 1; L <= j->n_levels; L++) {
        /* (the plan's arrays in locals: the rows' stores may not change them) */
        const struct JointNode *node = j->nodes + j->level_start[L - 1], *end = j->nodes + j->level_start[L];
        while (node < end) {
            /* a parent's weight, then its children's */
            int32_t from = node->from;
            v8d x[JLANES], y;
            for (b = 0; b < JLANES; b++)
                LOAD8(x[b], node_rows + (size_t)from * JBLOCK + 8 * b);
            do {
                const double *a = avail + (size_t)node->avail * JBLOCK, *c = wl + (size_t)node->weight * JBLOCK;
                double *into = node_rows + (size_t)node->into * JBLOCK;
                for (b = 0; b < JLANES; b++) {
                    v8d z;
                    LOAD8(y, a + 8 * b);
                    z = x[b] * y;
                    if (weighted) {
                        LOAD8(y, c + 8 * b);
                        z *= y;
                    }
                    memcpy(into + 8 * b, &z, sizeof z);
                }
            } while (++node < end && node->from == from);
        }
        const int32_t *gather_start = j->gather_start, *gather_row = j->gather_row, *slot_factor = j->slot_factor;
        const double *gather_c = j->gather_c;
        for (int32_t at = j->slot_start[L - 1]; at < j->slot_start[L]; at++) {
            v8d sum[JLANES] = {{0}}, x, y;
            for (int32_t q = gather_start[at]; q < gather_start[at + 1]; q++) {
                const double *w = node_rows + (size_t)gather_row[q] * JBLOCK;
                double c = gather_c[q];
                for (b = 0; b < JLANES; b++) {
                    LOAD8(x, w + 8 * b);
                    sum[b] += c * x;
                }
            }
            const double *g = gl + (size_t)slot_factor[at] * JBLOCK;
            double *into = out + (size_t)j->slots[at] * JBLOCK;
            for (b = 0; b < JLANES; b++) {
                LOAD8(x, g + 8 * b);
                LOAD8(y, into + 8 * b);
                y += sum[b] * x;
                memcpy(into + 8 * b, &y, sizeof y);
            }
        }
    }
    for (u = 0; u < RANKS; u++) {
        if (weighted)
            for (b = 0; b < n; b++)
                up_weight[b] = j->up_table[(size_t)u * j->n_rc + j->row_class[row0 + b]];
        wide_finish(j, u, n, gl, (const double (*)[JBLOCK])up_count, weighted ? up_weight : NULL, out, acc, stand,
                    matrix, rows, row0);
    }
}
#endif

/* A block's last steps for up card u, from its outcome sums `out` (slot-major, JBLOCK wide):
 * the bust slot (bust_slot); then each row's stand numerators of every payoff column, sums over
 * the outcomes in slot order, the rows side by side (pay is -1, 0 or 1: its zeros add
 * nothing), into `stand` (and the outcomes into `matrix`, if wanted). `acc`: n_pay * JBLOCK
 * zeros, left zeros. An up card not evaluated gets zeros (the outputs are not cleared
 * beforehand). */
static inline void joint_finish(const Joint *j, int u, int n, const double *gl, const double (*up_count)[JBLOCK],
                                const double *up_weight, double *out, double *acc, double *stand, double *matrix,
                                Py_ssize_t rows, Py_ssize_t row0)
{
    int b, k;
    if (j->depth[u] < 0) {
        for (b = 0; b < n; b++) {
            memset(stand + ((size_t)u * rows + row0 + b) * j->n_pay, 0, sizeof(double) * (size_t)j->n_pay);
            if (matrix)
                memset(matrix + ((size_t)u * rows + row0 + b) * j->n_out, 0, sizeof(double) * (size_t)j->n_out);
        }
        return;
    }
    bust_slot(j, u, n, gl, up_count, up_weight, out);
    for (k = 0; k < j->n_pay; k++) {
        double *restrict sum = acc + (size_t)k * JBLOCK;
        for (int s = 0; s < j->n_out; s++) {
            double p = j->pay[((size_t)u * j->n_out + s) * j->n_pay + k];
            if (p == 0.0)
                continue;
            const double *restrict from = out + ((size_t)u * j->n_out + s) * JBLOCK;
            for (b = 0; b < JBLOCK; b++)
                sum[b] += from[b] * p;
        }
    }
    for (b = 0; b < n; b++) {
        double *t = stand + ((size_t)u * rows + row0 + b) * j->n_pay;
        for (k = 0; k < j->n_pay; k++)
            t[k] = acc[(size_t)k * JBLOCK + b];
        if (matrix)
            for (int s = 0; s < j->n_out; s++)
                matrix[((size_t)u * rows + row0 + b) * j->n_out + s] = out[((size_t)u * j->n_out + s) * JBLOCK + b];
    }
    for (k = 0; k < j->n_pay * JBLOCK; k++)
        acc[k] = 0.0;
}

/* A block's node weights one node after the other (the weight of a stopping node times each
 * of its entries' c added into its slot's row of `acc`, RANKS * n_out * JBLOCK doubles), the
 * rows scaled by the level factor into `out` at each level's end: the same sums as
 * joint_block_wide's, in plain loops over the shoes that any target's vectors run. `drawn`: the
 * drawing nodes' weights by store. */
MULTIVERSION
static void joint_block(const Joint *j, int n, const int64_t *shoe, const int64_t *removed,
                        double *matrix, double *stand, Py_ssize_t rows, Py_ssize_t row0,
                        double *avail, double *drawn, double *acc, double *out, double *gl, double *wl)
{
    double total[JBLOCK], up_count[RANKS][JBLOCK], up_weight[JBLOCK];
    int b, u, k, L;
    int slots = RANKS * j->n_out;
    const int weighted = j->table != NULL;
    joint_setup(j, n, shoe, removed, weighted, total, up_count, avail, gl);
    /* a counter's shoe: this block's weight of each node class, wl[nc * JBLOCK + b] */
    if (weighted)
        for (int nc = 0; nc < j->n_nc; nc++)
            for (b = 0; b < JBLOCK; b++)
                wl[(size_t)nc * JBLOCK + b] = b < n ? j->table[(size_t)nc * j->n_rc + j->row_class[row0 + b]] : 0.0;
    for (k = 0; k < slots * JBLOCK; k++)
        out[k] = acc[k] = 0.0;
    for (L = 1; L <= j->n_levels; L++) {
        for (int32_t i = j->level_start[L - 1]; i < j->level_start[L]; i++) {
            double w[JBLOCK];
            if (!node_weight(j, i, avail, drawn, w))
                continue;
            if (weighted) {
                const double *restrict weight = wl + (size_t)j->node_class[i] * JBLOCK;
                for (b = 0; b < JBLOCK; b++)
                    w[b] *= weight[b];
            }
            for (int32_t e = j->entry_start[i]; e < j->entry_start[i + 1]; e++) {
                double c = j->entry_c[e];
                double *restrict into = acc + (size_t)j->entry_out[e] * JBLOCK;
                for (b = 0; b < JBLOCK; b++)
                    into[b] += c * w[b];
            }
        }
        for (int32_t at = j->slot_start[L - 1]; at < j->slot_start[L]; at++) {
            int slot = j->slots[at];
            const double *restrict g = gl + (size_t)j->slot_factor[at] * JBLOCK;
            double *restrict from = acc + (size_t)slot * JBLOCK;
            double *restrict into = out + (size_t)slot * JBLOCK;
            for (b = 0; b < JBLOCK; b++) {
                into[b] += from[b] * g[b];
                from[b] = 0.0;
            }
        }
    }
    for (u = 0; u < RANKS; u++) {
        if (weighted)
            for (b = 0; b < n; b++)
                up_weight[b] = j->up_table[(size_t)u * j->n_rc + j->row_class[row0 + b]];
        joint_finish(j, u, n, gl, (const double (*)[JBLOCK])up_count, weighted ? up_weight : NULL, out, acc, stand,
                     matrix, rows, row0);
    }
}

/* joint(level_start, parent, rank, held, store, entry_start, entry_out, entry_c, bust, depth, pay,
 *       n_out, n_pay, max_held, n_store, shoe, removed, matrix, stand, first, last
 *       [, hidden, node_class, row_class, table, up_table])
 * int32 node and entry arrays, entry_c float64, depth int32 (10), pay float64 (10, n_out, n_pay),
 * shoe int64 (10), removed int64 (n, 10); matrix float64 (10, n, n_out) (or empty: not wanted)
 * and stand float64 (10, n, n_pay) are filled in, rows first..last-1, for every up card whose depth is not -1
 * (threads fill disjoint row ranges of the same arrays). A counter's shoe (Joint): hidden, node_class
 * int32 per node (-1 where the dealer draws), row_class int32 (n), table float64 (node classes,
 * row classes), up_table float64 (10, row classes). */
static PyObject *joint(PyObject *self, PyObject *args)
{
    PyObject *objs[19];
    int n_out, n_pay, max_held, n_store, hidden = 0;
    Py_ssize_t first, last;
    PyObject *weights[4] = {NULL, NULL, NULL, NULL};
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOiiiiOOOOnn|iOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &objs[14], &objs[8], &objs[9], &n_out, &n_pay, &max_held,
                          &n_store, &objs[10], &objs[11], &objs[12], &objs[13], &first, &last, &hidden,
                          &weights[0], &weights[1], &weights[2], &weights[3]))
        return NULL;
    int n_views = 15;
    if (weights[0] || weights[1] || weights[2] || weights[3]) {
        if (!(weights[0] && weights[1] && weights[2] && weights[3])) {
            PyErr_SetString(PyExc_TypeError, "joint: node_class, row_class, table and up_table go together");
            return NULL;
        }
        for (int i = 0; i < 4; i++)
            objs[15 + i] = weights[i];
        n_views = 19;
    }
    Py_buffer views[19];
    int got = 0;
    for (; got < n_views; got++)
        if (get(objs[got], &views[got], got == 12 || got == 13) < 0)
            goto fail;
    Joint j;
    joint_float_of(&j, views, &views[14], n_out, n_pay, max_held, n_store);
    Py_ssize_t n = views[11].len / (Py_ssize_t)(sizeof(int64_t) * RANKS);
    /* an empty matrix: only the stand tables are wanted */
    double *matrix = views[12].len ? (double *)views[12].buf : NULL;
    if ((matrix && views[12].len < (Py_ssize_t)sizeof(double) * RANKS * n * n_out) || n_out > MAX_OUTCOMES ||
        views[13].len < (Py_ssize_t)sizeof(double) * RANKS * n * n_pay || views[10].len < (Py_ssize_t)sizeof(int64_t) * RANKS
        || first < 0 || last > n || first > last || n_out <= 0 || n_pay <= 0 || n_pay > RANKS * n_out) {
        PyErr_SetString(PyExc_ValueError, "output arrays too small");
        goto fail;
    }
    j.table = NULL;
    j.hidden = hidden;
    j.n_nc = j.n_rc = 0;
    if (n_views == 19) {
        /* every class a node or a row names must be in the tables */
        Py_ssize_t nodes = views[1].len / (Py_ssize_t)sizeof(int32_t);
        j.node_class = views[15].buf;
        j.row_class = views[16].buf;
        j.table = views[17].buf;
        j.up_table = views[18].buf;
        j.n_rc = (int)(views[18].len / (Py_ssize_t)sizeof(double) / RANKS);
        j.n_nc = j.n_rc ? (int)(views[17].len / (Py_ssize_t)sizeof(double) / j.n_rc) : 0;
        int ok = views[15].len == nodes * (Py_ssize_t)sizeof(int32_t)
                 && views[16].len == n * (Py_ssize_t)sizeof(int32_t)
                 && views[18].len == (Py_ssize_t)sizeof(double) * RANKS * j.n_rc
                 && views[17].len == (Py_ssize_t)sizeof(double) * j.n_nc * j.n_rc && hidden >= 0;
        for (Py_ssize_t i = 0; ok && i < nodes; i++)
            ok = j.node_class[i] < j.n_nc && (j.node_class[i] >= 0 || j.store[i] >= 0);
        for (Py_ssize_t i = first; ok && i < last; i++)
            ok = j.row_class[i] >= 0 && j.row_class[i] < j.n_rc;
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "joint: weight tables of inconsistent sizes");
            goto fail;
        }
    }
    /* the wide kernel where the machine has it and the rows are enough to pay for its plan and
     * rows (about what eight blocks save) */
#if WIDE_JOINT
    int wide = last - first >= WIDE_ROWS && __builtin_cpu_supports("avx512f");
#else
    int wide = 0;
#endif
    if (joint_plan(&j, wide) < 0) {
        PyErr_NoMemory();
        goto fail;
    }
    double *avail = malloc(sizeof(double) * JBLOCK * RANKS * (size_t)(max_held + 1));
    double *node_rows = malloc(sizeof(double) * JBLOCK * ((size_t)n_store + 1 + (wide ? (size_t)j.max_stop : 0)));
    double *acc = malloc(sizeof(double) * JBLOCK * RANKS * (size_t)n_out);
    double *out = malloc(sizeof(double) * JBLOCK * RANKS * (size_t)n_out);
    double *gl = malloc(sizeof(double) * JBLOCK * RANKS * (size_t)(j.n_levels + 2));
    double *wl = malloc(sizeof(double) * JBLOCK * (size_t)(j.n_nc + 1));
    if (!avail || !node_rows || !acc || !out || !gl || !wl) {
        free(avail), free(node_rows), free(acc), free(out), free(gl), free(wl);
        joint_plan_free(&j);
        PyErr_NoMemory();
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = first; i < last; i += JBLOCK) {
        int m = last - i < JBLOCK ? (int)(last - i) : JBLOCK;
        const int64_t *removed = (const int64_t *)views[11].buf + i * RANKS;
#if WIDE_JOINT
        if (wide) {
            joint_block_wide(&j, m, (const int64_t *)views[10].buf, removed, matrix, (double *)views[13].buf, n, i,
                             avail, node_rows, acc, out, gl, wl);
            continue;
        }
#endif
        joint_block(&j, m, (const int64_t *)views[10].buf, removed, matrix, (double *)views[13].buf, n, i, avail,
                    node_rows + JBLOCK, acc, out, gl, wl);
    }
    Py_END_ALLOW_THREADS
    free(avail), free(node_rows), free(acc), free(out), free(gl), free(wl);
    joint_plan_free(&j);
    release(views, got);
    Py_RETURN_NONE;
fail:
    release(views, got);
    return NULL;
}

/* The joint pass of several counter's shoes at once (joint_many): shoes that hold the same
 * cards and differ only in what the counter knows of the discards (the same cards seen, other
 * running counts) give each node the same weight w(F) and differ only in the factor of its
 * class totals. So a block's stopping nodes are summed once into pairs (node class, outcome
 * slot, level): agg[p] = sum of c_e * w(F) over the entries e of p's nodes, times the level
 * factor of p's up card; each shoe k then takes out[slot] = sum over p of agg[p] times its
 * weight of p's class, table_k[class * n_rc + row_class[b]]. The shoes are the lanes of a
 * vector there (MLANES of them; their weights laid out by row class, node class, shoe), so one
 * row's value of a pair is read once for all of them. Every shoe's numbers are the same alone
 * as with others: each lane's sums are the same sums in the same order (one shoe costs about
 * what joint's weighted pass does; eight, a 6-deck truecount batch, about 0.65 of what they
 * cost one shoe at a time, 2026-12-05). */
#define MLANES 8 /* shoes side by side in one vector: one AVX-512 register, two AVX2 */
#define MROWS 4   /* rows whose sums are kept in registers together */
/* MLANES doubles as one value (GCC's and Clang's vector extensions): a plain loop over so few
 * is unrolled into scalar operations instead */
typedef double mvec __attribute__((vector_size(MLANES * sizeof(double))));

typedef struct {
    int n_pairs, n_models, n_rc;
    const int32_t *entry_pair, *pair_class, *pair_slot, *pair_level;
    const double **up_tables; /* per shoe: (10, n_rc) */
    double **stands;          /* per shoe: (10, rows, n_pay) */
    /* every shoe's weight of each (row class, node class), MLANES shoes side by side:
     * weights[((group * n_rc + row class) * n_nc + node class) * MLANES + shoe % MLANES] for
     * the shoes group * MLANES .., zeros past the last */
    const double *weights;
    /* pay by vectors: pay_vectors[((u * n_out + slot) * pay_chunks + c) * MLANES + i] is column
     * c * MLANES + i of pay (zeros past n_pay); paid[u * (n_out + 1)] slots of up card u have
     * a nonzero column, paid[u * (n_out + 1) + 1 ..] which, in order */
    const double *pay_vectors;
    const int *paid;
    int pay_chunks;
} Many;

/* joint_finish for joint_many: the bust slot (bust_slot), then each row's stand numerators of every
 * payoff column as vectors of MLANES columns, a sum over the slots with a nonzero column in slot
 * order (the same sums as joint_finish's: a zero column adds a zero). */
static inline void many_finish(const Joint *j, const Many *m, int u, int n, const double *gl,
                               const double (*up_count)[JBLOCK], const double *up_weight, double *out, double *stand,
                               Py_ssize_t rows, Py_ssize_t row0)
{
    int b;
    if (j->depth[u] < 0) {
        for (b = 0; b < n; b++)
            memset(stand + ((size_t)u * rows + row0 + b) * j->n_pay, 0, sizeof(double) * (size_t)j->n_pay);
        return;
    }
    bust_slot(j, u, n, gl, up_count, up_weight, out);
    const int *paid = m->paid + (size_t)u * (j->n_out + 1);
    const double *from = out + (size_t)u * j->n_out * JBLOCK;
    /* MROWS rows at a time: their sums are independent chains of multiply-adds */
    for (int b0 = 0; b0 < n; b0 += MROWS)
        for (int c = 0; c < m->pay_chunks; c++) {
            mvec sum[MROWS] = {{0}}, y;
            for (int i = 1; i <= paid[0]; i++) {
                int s = paid[i];
                memcpy(&y, m->pay_vectors + (((size_t)u * j->n_out + s) * m->pay_chunks + c) * MLANES, sizeof y);
                for (int r = 0; r < MROWS; r++)
                    sum[r] += from[(size_t)s * JBLOCK + b0 + r] * y;
            }
            int width = j->n_pay - c * MLANES < MLANES ? j->n_pay - c * MLANES : MLANES;
            for (int r = 0; r < MROWS && b0 + r < n; r++) {
                double *t = stand + ((size_t)u * rows + row0 + b0 + r) * j->n_pay + c * MLANES;
                if (width == MLANES)
                    memcpy(t, &sum[r], sizeof sum[r]);
                else
                    for (int i = 0; i < width; i++)
                        t[i] = sum[r][i];
            }
        }
}

MULTIVERSION
static void many_block(const Joint *j, const Many *m, int n, const int64_t *shoe, const int64_t *removed,
                       const int32_t *row_class, Py_ssize_t rows, Py_ssize_t row0, double *avail, double *drawn,
                       double *agg, double *outs, double *gl)
{
    double total[JBLOCK], up_count[RANKS][JBLOCK], up_weight[JBLOCK], w[JBLOCK];
    int b, u, p, L;
    int slots = RANKS * j->n_out;
    joint_setup(j, n, shoe, removed, 1, total, up_count, avail, gl);
    memset(agg, 0, sizeof(double) * JBLOCK * (size_t)m->n_pairs);
    for (L = 1; L <= j->n_levels; L++)
        for (int32_t i = j->level_start[L - 1]; i < j->level_start[L]; i++) {
            if (!node_weight(j, i, avail, drawn, w))
                continue;
            for (int32_t e = j->entry_start[i]; e < j->entry_start[i + 1]; e++) {
                double c = j->entry_c[e];
                double *restrict into = agg + (size_t)m->entry_pair[e] * JBLOCK;
                for (b = 0; b < JBLOCK; b++)
                    into[b] += c * w[b];
            }
        }
    for (p = 0; p < m->n_pairs; p++) {
        u = m->pair_slot[p] / j->n_out;
        const double *restrict g = gl + ((size_t)u * (j->n_levels + 2) + m->pair_level[p]) * JBLOCK;
        double *restrict into = agg + (size_t)p * JBLOCK;
        for (b = 0; b < JBLOCK; b++)
            into[b] *= g[b];
    }
    /* each slot's sums over its pairs (pairs come slot by slot), MLANES shoes in a vector and
     * MROWS rows' vectors in registers; the slots no pair reaches stay zero in `outs` */
    for (int k0 = 0; k0 < m->n_models; k0 += MLANES) {
        const double *weights = m->weights + (size_t)(k0 / MLANES) * m->n_rc * j->n_nc * MLANES;
        int lanes = m->n_models - k0 < MLANES ? m->n_models - k0 : MLANES;
        for (p = 0; p < m->n_pairs;) {
            int slot = m->pair_slot[p], end = p;
            while (end < m->n_pairs && m->pair_slot[end] == slot)
                end++;
            for (int b0 = 0; b0 < n; b0 += MROWS) {
                mvec sum[MROWS] = {{0}};
                const double *row_weights[MROWS];
                int alike = 1;
                for (int r = 0; r < MROWS; r++) {
                    row_weights[r] = weights + (size_t)row_class[b0 + r < n ? b0 + r : n - 1] * j->n_nc * MLANES;
                    alike &= row_weights[r] == row_weights[0];
                }
                if (alike) /* neighbouring rows are often of one class: one load of its weights */
                    for (int q = p; q < end; q++) {
                        const double *restrict x = agg + (size_t)q * JBLOCK + b0;
                        mvec y;
                        memcpy(&y, row_weights[0] + (size_t)m->pair_class[q] * MLANES, sizeof y);
                        for (int r = 0; r < MROWS; r++)
                            sum[r] += x[r] * y;
                    }
                else
                    for (int q = p; q < end; q++) {
                        const double *restrict x = agg + (size_t)q * JBLOCK + b0;
                        size_t at = (size_t)m->pair_class[q] * MLANES;
                        for (int r = 0; r < MROWS; r++) {
                            mvec y;
                            memcpy(&y, row_weights[r] + at, sizeof y);
                            sum[r] += x[r] * y;
                        }
                    }
                for (int r = 0; r < MROWS && b0 + r < n; r++)
                    for (int k = 0; k < lanes; k++)
                        outs[((size_t)(k0 + k) * slots + slot) * JBLOCK + b0 + r] = sum[r][k];
            }
            p = end;
        }
    }
    for (int k = 0; k < m->n_models; k++) {
        const double *up_table = m->up_tables[k];
        for (u = 0; u < RANKS; u++) {
            for (b = 0; b < n; b++)
                up_weight[b] = up_table[(size_t)u * m->n_rc + row_class[b]];
            many_finish(j, m, u, n, gl, (const double (*)[JBLOCK])up_count, up_weight,
                        outs + (size_t)k * slots * JBLOCK, m->stands[k], rows, row0);
        }
    }
}

/* joint_many(level_start, parent, rank, held, store, entry_start, entry_out, entry_c, bust, depth, pay,
 *            n_out, n_pay, max_held, n_store, shoe, removed, first, last, hidden,
 *            entry_pair, pair_class, pair_slot, pair_level, row_class, tables, up_tables, stands)
 * The graph and rules as for joint; entry_pair int32 per entry, pair_class, pair_slot and
 * pair_level int32 per pair; row_class int32 (n), every shoe's; tables, up_tables and stands
 * sequences with one array per shoe: float64 (node classes, row classes), float64 (10, row
 * classes) and float64 (10, n, n_pay), the last filled in, rows first..last-1. */
static PyObject *joint_many(PyObject *self, PyObject *args)
{
    /* views: 0..6 the graph (joint_graph_of), 7 entry_c, 8 depth, 9 pay, 10 shoe, 11 removed,
     * 12 bust, 13..16 entry_pair, pair_class, pair_slot, pair_level, 17 row_class */
    PyObject *objs[18], *seqs_in[3];
    int n_out, n_pay, max_held, n_store, hidden;
    Py_ssize_t first, last;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOiiiiOOnniOOOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &objs[12], &objs[8], &objs[9], &n_out, &n_pay, &max_held,
                          &n_store, &objs[10], &objs[11], &first, &last, &hidden, &objs[13], &objs[14], &objs[15],
                          &objs[16], &objs[17], &seqs_in[0], &seqs_in[1], &seqs_in[2]))
        return NULL;
    PyObject *seqs[3] = {NULL, NULL, NULL};
    Py_buffer views[18], *shoes = NULL;
    int got = 0, got_shoes = 0, n_models = 0;
    Many m = {0};
    const double **tables = NULL;
    double *avail = NULL, *drawn = NULL, *agg = NULL, *outs = NULL, *gl = NULL, *weights = NULL, *pay_vectors = NULL;
    int *paid = NULL;
    Joint j = {0}; /* no node classes or weight tables: each shoe's come in Many */
    for (int i = 0; i < 3; i++)
        if (!(seqs[i] = PySequence_Fast(seqs_in[i], "joint_many: tables, up_tables and stands must be sequences")))
            goto fail;
    n_models = (int)PySequence_Fast_GET_SIZE(seqs[0]);
    if (n_models < 1 || PySequence_Fast_GET_SIZE(seqs[1]) != n_models || PySequence_Fast_GET_SIZE(seqs[2]) != n_models) {
        PyErr_SetString(PyExc_ValueError, "joint_many: one table, up table and output per shoe, at least one");
        goto fail;
    }
    for (; got < 18; got++)
        if (get(objs[got], &views[got], 0) < 0)
            goto fail;
    shoes = calloc((size_t)n_models * 3, sizeof(Py_buffer));
    tables = malloc(sizeof(double *) * (size_t)n_models);
    m.up_tables = malloc(sizeof(double *) * (size_t)n_models);
    m.stands = malloc(sizeof(double *) * (size_t)n_models);
    if (!shoes || !tables || !m.up_tables || !m.stands) {
        PyErr_NoMemory();
        goto fail;
    }
    for (; got_shoes < 3 * n_models; got_shoes++)
        if (get(PySequence_Fast_GET_ITEM(seqs[got_shoes / n_models], got_shoes % n_models), &shoes[got_shoes],
                got_shoes >= 2 * n_models) < 0)
            goto fail;
    joint_float_of(&j, views, &views[12], n_out, n_pay, max_held, n_store);
    j.hidden = hidden;
    j.row_class = views[17].buf;
    m.entry_pair = views[13].buf;
    m.pair_class = views[14].buf;
    m.pair_slot = views[15].buf;
    m.pair_level = views[16].buf;
    m.n_pairs = (int)(views[14].len / (Py_ssize_t)sizeof(int32_t));
    m.n_models = n_models;
    m.n_rc = (int)(shoes[n_models].len / (Py_ssize_t)sizeof(double) / RANKS);
    j.n_rc = m.n_rc;
    j.n_nc = m.n_rc ? (int)(shoes[0].len / (Py_ssize_t)sizeof(double) / m.n_rc) : 0;
    Py_ssize_t n = views[11].len / (Py_ssize_t)(sizeof(int64_t) * RANKS);
    Py_ssize_t entries = views[6].len / (Py_ssize_t)sizeof(int32_t);
    int ok = n_out > 0 && n_out <= MAX_OUTCOMES && n_pay > 0 && n_pay <= RANKS * n_out && hidden >= 0
             && views[10].len >= (Py_ssize_t)sizeof(int64_t) * RANKS && first >= 0 && last <= n && first <= last
             && views[13].len == entries * (Py_ssize_t)sizeof(int32_t) && views[15].len == views[14].len
             && views[16].len == views[14].len && views[17].len == n * (Py_ssize_t)sizeof(int32_t) && m.n_rc > 0
             && views[12].len == (Py_ssize_t)sizeof(int32_t) * RANKS && views[8].len == (Py_ssize_t)sizeof(int32_t) * RANKS
             && views[9].len == (Py_ssize_t)sizeof(double) * RANKS * n_out * n_pay;
    for (int k = 0; ok && k < n_models; k++) {
        ok = shoes[k].len == (Py_ssize_t)sizeof(double) * j.n_nc * m.n_rc
             && shoes[n_models + k].len == (Py_ssize_t)sizeof(double) * RANKS * m.n_rc
             && shoes[2 * n_models + k].len >= (Py_ssize_t)sizeof(double) * RANKS * n * n_pay;
        tables[k] = shoes[k].buf;
        m.up_tables[k] = shoes[n_models + k].buf;
        m.stands[k] = shoes[2 * n_models + k].buf;
    }
    for (Py_ssize_t e = 0; ok && e < entries; e++)
        ok = m.entry_pair[e] >= 0 && m.entry_pair[e] < m.n_pairs;
    for (int p = 0; ok && p < m.n_pairs; p++)
        ok = m.pair_class[p] >= 0 && m.pair_class[p] < j.n_nc && m.pair_slot[p] >= 0 && m.pair_slot[p] < RANKS * n_out
             && m.pair_level[p] >= 1 && m.pair_level[p] <= j.n_levels;
    for (Py_ssize_t i = first; ok && i < last; i++)
        ok = j.row_class[i] >= 0 && j.row_class[i] < m.n_rc;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "joint_many: arrays of inconsistent sizes");
        goto fail;
    }
    int slots = RANKS * n_out;
    avail = malloc(sizeof(double) * JBLOCK * RANKS * (size_t)(max_held + 1));
    drawn = malloc(sizeof(double) * JBLOCK * (size_t)(n_store + 1));
    agg = malloc(sizeof(double) * JBLOCK * (size_t)(m.n_pairs + 1));
    outs = calloc((size_t)JBLOCK * (size_t)slots * (size_t)n_models, sizeof(double));
    gl = malloc(sizeof(double) * JBLOCK * RANKS * (size_t)(j.n_levels + 2));
    int groups = (n_models + MLANES - 1) / MLANES;
    weights = calloc((size_t)groups * (size_t)m.n_rc * (size_t)(j.n_nc + 1) * MLANES, sizeof(double));
    if (!avail || !drawn || !agg || !outs || !gl || !weights) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int k = 0; k < n_models; k++)
        for (int rc = 0; rc < m.n_rc; rc++)
            for (int nc = 0; nc < j.n_nc; nc++)
                weights[(((size_t)(k / MLANES) * m.n_rc + rc) * j.n_nc + nc) * MLANES + k % MLANES] =
                    tables[k][(size_t)nc * m.n_rc + rc];
    m.weights = weights;
    m.pay_chunks = (n_pay + MLANES - 1) / MLANES;
    pay_vectors = calloc((size_t)slots * (size_t)m.pay_chunks * MLANES, sizeof(double));
    paid = malloc(sizeof(int) * RANKS * (size_t)(n_out + 1));
    if (!pay_vectors || !paid) {
        PyErr_NoMemory();
        goto fail;
    }
    const double *pay = views[9].buf;
    for (int u = 0; u < RANKS; u++) {
        int *mine = paid + (size_t)u * (n_out + 1);
        mine[0] = 0;
        for (int s = 0; s < n_out; s++) {
            int any = 0;
            for (int k = 0; k < n_pay; k++) {
                double p = pay[((size_t)u * n_out + s) * n_pay + k];
                pay_vectors[(((size_t)u * n_out + s) * m.pay_chunks + k / MLANES) * MLANES + k % MLANES] = p;
                any |= p != 0.0;
            }
            if (any)
                mine[++mine[0]] = s;
        }
    }
    m.pay_vectors = pay_vectors;
    m.paid = paid;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = first; i < last; i += JBLOCK) {
        int rows_here = last - i < JBLOCK ? (int)(last - i) : JBLOCK;
        many_block(&j, &m, rows_here, (const int64_t *)views[10].buf, (const int64_t *)views[11].buf + i * RANKS,
                   j.row_class + i, n, i, avail, drawn, agg, outs, gl);
    }
    Py_END_ALLOW_THREADS
    free(avail), free(drawn), free(agg), free(outs), free(gl), free(weights), free(pay_vectors), free(paid);
    release(shoes, got_shoes), release(views, got);
    free(shoes), free(tables), free(m.up_tables), free(m.stands);
    for (int i = 0; i < 3; i++)
        Py_XDECREF(seqs[i]);
    Py_RETURN_NONE;
fail:
    free(avail), free(drawn), free(agg), free(outs), free(gl), free(weights), free(pay_vectors), free(paid);
    if (shoes)
        release(shoes, got_shoes);
    release(views, got);
    free(shoes), free(tables), free(m.up_tables), free(m.stands);
    for (int i = 0; i < 3; i++)
        Py_XDECREF(seqs[i]);
    return NULL;
}

#ifdef __SIZEOF_INT128__
/* The joint pass in 128-bit integers (joint_exact): for a composition shoe, each up card gets
 * the integers numerators_exact gives for it alone, from one pass over the joint graph. EBLOCK
 * shoes go through the nodes together (independent multiplications side by side, each node's
 * indices read once for all of them; 32: 1.5x faster than 16, no faster at 64).
 *
 * Stopping entry (u, slot, c) of node F at level L adds c * w(F) * ff(|T| - L, d_u - L + 1) / T_u.
 * The level factors are one product for every up card, cut at its depth, so the sums take them
 * by Horner's rule: at each level L >= 2 a running sum is multiplied by |T| - L + 1 before that
 * level's entries are added, and an up card's sums are final at level d_u + 1 (later levels
 * only wrap them around, which unsigned arithmetic allows, and are not read). A sum at level L is
 * at most ff(|T|, L) (c * w(F) / ff(|T|, L) are probabilities of disjoint events), so below 2^127
 * where ff(|T|, max d_u + 1) is: the caller checks that. Every w(F) with u in F holds the factor
 * T_u (from the first card of rank u), so the final sums are divided by T_u exactly: by a shift
 * and the inverse of its odd part modulo 2^128, not a 128-bit division per outcome. */
#define XBLOCK 32

/* The inverse of odd o modulo 2^128: o is its own inverse to 3 bits, and each Newton step
 * x (2 - o x) doubles the bits that are right (3, 6, ..., 192). */
static u128 inverse_odd(uint64_t o)
{
    u128 x = o;
    for (int i = 0; i < 6; i++)
        x *= 2 - (u128)o * x;
    return x;
}

/* One level's nodes: each node's weight from its parent's (kept in `from`, 64 or 128 bits), kept
 * in `keep` where the dealer draws again, else added to its entries' sums. */
#define JOINT_EXACT_LEVEL(W, FROM, from, keep, sums)                                                         \
    for (int32_t i = j->level_start[L - 1]; i < j->level_start[L]; i++) {                                 \
        W w[XBLOCK];                                                                                        \
        const uint64_t *restrict a = avail + ((size_t)j->rank[i] * (j->max_held + 1) + j->held[i]) * XBLOCK; \
        if (j->parent[i] < 0)                                                                               \
            for (b = 0; b < XBLOCK; b++)                                                                    \
                w[b] = a[b];                                                                                \
        else {                                                                                              \
            const FROM *restrict v = from + (size_t)j->parent[i] * XBLOCK;                                  \
            for (b = 0; b < XBLOCK; b++)                                                                    \
                w[b] = (W)v[b] * a[b];                                                                      \
        }                                                                                                   \
        if (j->store[i] >= 0) {                                                                             \
            memcpy(keep + (size_t)j->store[i] * XBLOCK, w, sizeof w);                                       \
            continue;                                                                                       \
        }                                                                                                   \
        for (int32_t e = j->entry_start[i]; e < j->entry_start[i + 1]; e++) {                              \
            uint64_t c = j->orders[e];                                                                      \
            W *restrict into = sums + (size_t)j->entry_out[e] * XBLOCK;                                     \
            for (b = 0; b < XBLOCK; b++)                                                                    \
                into[b] += w[b] * c;                                                                        \
        }                                                                                                   \
    }

/* Up card u's running sums at level L take the factor f (Horner's rule). */
#define JOINT_EXACT_HORNER(sums)                                                          \
    for (s = 0; s < width[u]; s++) {                                                      \
        if (s == j->bust[u])                                                              \
            continue; /* no entries: a bust is what the others leave */                   \
        for (b = 0; b < XBLOCK; b++)                                                      \
            sums[((size_t)u * n_out + s) * XBLOCK + b] *= f[b];                           \
    }

MULTIVERSION
static void joint_exact_block(const Joint *j, const int32_t *width, int n, const int64_t *shoe,
                              const int64_t *removed, uint64_t *const *out, Py_ssize_t row0,
                              uint64_t *avail, uint64_t *drawn64, u128 *drawn, uint64_t *sum64, u128 *sum,
                              u128 *final)
{
    int64_t count[RANKS][XBLOCK], total[XBLOCK], most = 0;
    int b, r, h, u, s, L;
    const int n_out = j->n_out;
    const size_t n_sums = (size_t)XBLOCK * RANKS * (size_t)n_out;
    for (b = 0; b < XBLOCK; b++) {
        total[b] = 0;
        for (r = 0; r < RANKS; r++) {
            count[r][b] = b < n ? shoe[r] - removed[b * RANKS + r] : 0;
            total[b] += count[r][b];
        }
        most = total[b] > most ? total[b] : most;
    }
    for (r = 0; r < RANKS; r++)
        for (h = 0; h <= j->max_held; h++)
            for (b = 0; b < XBLOCK; b++) {
                int64_t a = count[r][b] - h;
                avail[(r * (j->max_held + 1) + h) * XBLOCK + b] = a > 0 ? (uint64_t)a : 0;
            }
    int levels = 0; /* nodes deeper than every up card's depth + 1 add to no sum that is read */
    for (u = 0; u < RANKS; u++)
        if (j->depth[u] + 1 > levels)
            levels = j->depth[u] + 1;
    /* levels 1..small: every weight and sum there is at most ff(|T|, L) < 2^64, so 64 bits
     * hold them (at 8 decks, levels 1..7: three quarters of the nodes and entries; the pass
     * takes half the time it takes in 128 bits throughout) */
    int small = 0;
    for (u128 bound = 1; small < levels; small++) {
        bound *= most - small > 1 ? (uint64_t)(most - small) : 1;
        if (bound >> 64)
            break;
    }
    memset(sum64, 0, sizeof(uint64_t) * n_sums);
    memset(final, 0, sizeof(u128) * n_sums);
    for (L = 1; L <= levels; L++) {
        if (L == small + 1)
            for (size_t k = 0; k < n_sums; k++)
                sum[k] = sum64[k];
        if (L >= 2)
            for (u = 0; u < RANKS; u++) {
                if (j->depth[u] + 1 < L)
                    continue;
                uint64_t f[XBLOCK];
                for (b = 0; b < XBLOCK; b++)
                    f[b] = total[b] - L + 1 > 1 ? (uint64_t)(total[b] - L + 1) : 1;
                if (L <= small)
                    JOINT_EXACT_HORNER(sum64)
                else
                    JOINT_EXACT_HORNER(sum)
            }
        if (L <= small)
            JOINT_EXACT_LEVEL(uint64_t, uint64_t, drawn64, drawn64, sum64)
        else if (L == small + 1)
            JOINT_EXACT_LEVEL(u128, uint64_t, drawn64, drawn, sum)
        else
            JOINT_EXACT_LEVEL(u128, u128, drawn, drawn, sum)
        for (u = 0; u < RANKS; u++)
            if (j->depth[u] + 1 == L)
                for (size_t k = (size_t)u * n_out * XBLOCK; k < (size_t)(u + 1) * n_out * XBLOCK; k++)
                    final[k] = L <= small ? sum64[k] : sum[k];
    }
    for (u = 0; u < RANKS; u++) {
        if (j->depth[u] < 0)
            continue;
        for (b = 0; b < n; b++) {
            uint64_t *row = out[u] + (size_t)2 * (row0 + b) * width[u]; /* (rows, width[u], [high, low]) */
            int64_t t = count[u][b];
            if (t <= 0) { /* no card of the up card's rank: it cannot be up */
                memset(row, 0, sizeof(uint64_t) * 2 * (size_t)width[u]);
                continue;
            }
            int shift = __builtin_ctzll((unsigned long long)t);
            u128 inverse = inverse_odd((uint64_t)t >> shift);
            u128 left = 1; /* the denominator ff(|T| - 1, d_u), less the outcomes other than a bust */
            for (L = 1; L <= j->depth[u]; L++)
                left *= total[b] - L > 1 ? (uint64_t)(total[b] - L) : 1;
            for (s = 0; s < width[u]; s++) {
                if (s == j->bust[u])
                    continue;
                u128 x = (final[((size_t)u * n_out + s) * XBLOCK + b] >> shift) * inverse;
                left -= x;
                row[2 * s] = (uint64_t)(x >> 64);
                row[2 * s + 1] = (uint64_t)x;
            }
            if (j->bust[u] >= 0 && j->bust[u] < width[u]) {
                row[2 * j->bust[u]] = (uint64_t)(left >> 64);
                row[2 * j->bust[u] + 1] = (uint64_t)left;
            }
        }
    }
}
#endif

/* joint_exact(level_start, parent, rank, held, store, entry_start, entry_out, orders, bust, depth,
 *             width, n_out, max_held, n_store, shoe, removed, outs, first, last)
 * The joint pass of a composition shoe in 128-bit integers: orders uint64 (the entries' legal
 * orders), width int32 (10): the outcome slots of each up card (0 for one not evaluated); outs
 * a sequence of 10 uint64 arrays, up card u's of (n, width[u], 2) [high, low] halves (its own
 * array, so that each up card's can be freed alone), filled in for rows first..last-1 and every
 * up card whose depth is not -1. Otherwise as joint. Raises NotImplementedError where the
 * compiler has no 128-bit integers. */
static PyObject *joint_exact(PyObject *self, PyObject *args)
{
#ifdef __SIZEOF_INT128__
    PyObject *objs[13], *outs, *seq = NULL;
    int n_out, max_held, n_store;
    Py_ssize_t first, last;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOiiiOOOnn", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &objs[8], &objs[9], &objs[10], &n_out, &max_held,
                          &n_store, &objs[11], &objs[12], &outs, &first, &last))
        return NULL;
    Py_buffer views[13 + RANKS];
    int got = 0;
    for (; got < 13; got++)
        if (get(objs[got], &views[got], 0) < 0)
            goto fail;
    seq = PySequence_Fast(outs, "joint_exact: outs must be a sequence");
    if (!seq)
        goto fail;
    if (PySequence_Fast_GET_SIZE(seq) != RANKS) {
        PyErr_SetString(PyExc_ValueError, "joint_exact: one output array per up card");
        goto fail;
    }
    for (; got < 13 + RANKS; got++)
        if (get(PySequence_Fast_GET_ITEM(seq, got - 13), &views[got], 1) < 0)
            goto fail;
    Joint j;
    memset(&j, 0, sizeof j);
    joint_graph_of(&j, views);
    j.orders = views[7].buf;
    j.bust = views[8].buf;
    j.depth = views[9].buf;
    j.n_out = n_out;
    j.max_held = max_held;
    j.n_store = n_store;
    const int32_t *width = views[10].buf;
    Py_ssize_t n = views[12].len / (Py_ssize_t)(sizeof(int64_t) * RANKS);
    uint64_t *out[RANKS];
    int ok = views[8].len == (Py_ssize_t)sizeof(int32_t) * RANKS && views[9].len == (Py_ssize_t)sizeof(int32_t) * RANKS
             && views[10].len == (Py_ssize_t)sizeof(int32_t) * RANKS && views[11].len == (Py_ssize_t)sizeof(int64_t) * RANKS
             && n_out > 0 && n_out <= MAX_OUTCOMES && first >= 0 && last <= n && first <= last;
    for (int u = 0; ok && u < RANKS; u++) {
        /* an up card's sums are final at level depth + 1, which must be a level of the graph */
        ok = width[u] >= 0 && width[u] <= n_out && j.depth[u] < j.n_levels && (j.depth[u] >= 0 || width[u] == 0)
             && views[13 + u].len == (Py_ssize_t)sizeof(uint64_t) * 2 * n * width[u];
        out[u] = views[13 + u].buf;
    }
    for (Py_ssize_t e = 0; ok && e < views[6].len / (Py_ssize_t)sizeof(int32_t); e++)
        ok = j.entry_out[e] >= 0 && j.entry_out[e] < RANKS * n_out; /* the sums it adds to */
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "joint_exact: arrays of inconsistent sizes");
        goto fail;
    }
    uint64_t *avail = malloc(sizeof(uint64_t) * XBLOCK * RANKS * (size_t)(max_held + 1));
    uint64_t *drawn64 = malloc(sizeof(uint64_t) * XBLOCK * (size_t)(n_store + 1));
    u128 *drawn = malloc(sizeof(u128) * XBLOCK * (size_t)(n_store + 1));
    uint64_t *sum64 = malloc(sizeof(uint64_t) * XBLOCK * RANKS * (size_t)n_out);
    u128 *sum = malloc(sizeof(u128) * XBLOCK * RANKS * (size_t)n_out);
    u128 *final = malloc(sizeof(u128) * XBLOCK * RANKS * (size_t)n_out);
    if (!avail || !drawn64 || !drawn || !sum64 || !sum || !final) {
        free(avail), free(drawn64), free(drawn), free(sum64), free(sum), free(final);
        PyErr_NoMemory();
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = first; i < last; i += XBLOCK) {
        int m = last - i < XBLOCK ? (int)(last - i) : XBLOCK;
        joint_exact_block(&j, width, m, (const int64_t *)views[11].buf, (const int64_t *)views[12].buf + i * RANKS,
                          out, i, avail, drawn64, drawn, sum64, sum, final);
    }
    Py_END_ALLOW_THREADS
    free(avail), free(drawn64), free(drawn), free(sum64), free(sum), free(final);
    release(views, got);
    Py_DECREF(seq);
    Py_RETURN_NONE;
fail:
    release(views, got);
    Py_XDECREF(seq);
    return NULL;
#else
    PyErr_SetString(PyExc_NotImplementedError, "no 128-bit integers in this build");
    return NULL;
#endif
}

/* gather(firsts, tables, up, width, columns, pay_columns, out)
 * The stand numerators of up card `up` at registered `columns` (intp), each at its payoff's
 * distinct column (`pay_columns`, int64), from a joint pass's stand tables held in parts:
 * part k is tables[k], float64 (10, rows_k, width), and holds the columns firsts[k] ..
 * firsts[k] + rows_k - 1 (firsts int64, increasing, firsts[0] = 0). out float64 (len(columns)).
 * One loop instead of a numpy pass per part (a split's hands read columns of several parts). */
#define GATHER_AHEAD 16 /* columns ahead whose cells are fetched */

static PyObject *gather(PyObject *self, PyObject *args)
{
    PyObject *firsts_obj, *tables, *columns_obj, *pay_obj, *out_obj;
    int up, width;
    if (!PyArg_ParseTuple(args, "OOiiOOO", &firsts_obj, &tables, &up, &width, &columns_obj, &pay_obj, &out_obj))
        return NULL;
    PyObject *seq = PySequence_Fast(tables, "gather: tables must be a sequence");
    if (!seq)
        return NULL;
    Py_ssize_t parts = PySequence_Fast_GET_SIZE(seq);
    Py_buffer fixed[4];
    Py_buffer *views = parts > 0 ? calloc((size_t)parts, sizeof(Py_buffer)) : NULL;
    const double **data = parts > 0 ? malloc(sizeof(double *) * (size_t)parts) : NULL;
    Py_ssize_t *rows = parts > 0 ? malloc(sizeof(Py_ssize_t) * (size_t)parts) : NULL;
    int got = 0, got_fixed = 0;
    if (parts > 0 && (!views || !data || !rows)) {
        PyErr_NoMemory();
        goto fail;
    }
    PyObject *fixed_objs[4] = {firsts_obj, columns_obj, pay_obj, out_obj};
    for (; got_fixed < 4; got_fixed++)
        if (get(fixed_objs[got_fixed], &fixed[got_fixed], got_fixed == 3) < 0)
            goto fail;
    for (; got < parts; got++)
        if (get(PySequence_Fast_GET_ITEM(seq, got), &views[got], 0) < 0)
            goto fail;
    const int64_t *firsts = fixed[0].buf;
    const Py_ssize_t *columns = fixed[1].buf;
    const int64_t *pay = fixed[2].buf;
    double *out = fixed[3].buf;
    Py_ssize_t n = fixed[1].len / (Py_ssize_t)sizeof(Py_ssize_t);
    int ok = up >= 0 && up < RANKS && width > 0 && fixed[0].len == parts * (Py_ssize_t)sizeof(int64_t)
             && fixed[2].len == n * (Py_ssize_t)sizeof(int64_t) && fixed[3].len == n * (Py_ssize_t)sizeof(double);
    for (Py_ssize_t k = 0; ok && k < parts; k++) {
        Py_ssize_t cells = views[k].len / (Py_ssize_t)sizeof(double);
        rows[k] = cells / (RANKS * (Py_ssize_t)width);
        data[k] = (const double *)views[k].buf + (size_t)up * (size_t)rows[k] * (size_t)width;
        ok = cells == rows[k] * RANKS * width && (k == 0 ? firsts[k] == 0 : firsts[k] == firsts[k - 1] + rows[k - 1]);
    }
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "gather: parts, columns or outputs of inconsistent sizes");
        goto fail;
    }
    Py_ssize_t end = parts ? firsts[parts - 1] + rows[parts - 1] : 0;
    for (Py_ssize_t i = 0; ok && i < n; i++)
        ok = columns[i] >= 0 && columns[i] < end && pay[i] >= 0 && pay[i] < width;
    if (!ok) {
        PyErr_SetString(PyExc_IndexError, "gather: a column or payoff column out of range");
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t lo = 0; /* the part of the last column read: a hand graph's columns come in runs */
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t c = columns[i];
        if (c < firsts[lo] || c >= firsts[lo] + rows[lo]) {
            Py_ssize_t hi = parts - 1; /* the last part whose first column is <= c */
            lo = 0;
            while (lo < hi) {
                Py_ssize_t mid = (lo + hi + 1) / 2;
                if (firsts[mid] <= c)
                    lo = mid;
                else
                    hi = mid - 1;
            }
        }
        if (i + GATHER_AHEAD < n) { /* a later column's cell, where it is in the same part */
            Py_ssize_t later = columns[i + GATHER_AHEAD];
            if (later >= firsts[lo] && later < firsts[lo] + rows[lo])
                __builtin_prefetch(data[lo] + (size_t)(later - firsts[lo]) * (size_t)width
                                   + (size_t)pay[i + GATHER_AHEAD]);
        }
        out[i] = data[lo][(size_t)(c - firsts[lo]) * (size_t)width + (size_t)pay[i]];
    }
    Py_END_ALLOW_THREADS
    release(views, got);
    release(fixed, got_fixed);
    free(views), free(data), free(rows);
    Py_DECREF(seq);
    Py_RETURN_NONE;
fail:
    release(views, got);
    release(fixed, got_fixed);
    free(views), free(data), free(rows);
    Py_DECREF(seq);
    return NULL;
}

static PyMethodDef methods[] = {
    {"numerators", numerators, METH_VARARGS, "The float dealer pass over a block of shoes."},
    {"numerators_projected", numerators_projected, METH_VARARGS,
     "The float dealer pass of shoes that differ in one rank's count, one pass per projection."},
    {"numerators_exact", numerators_exact, METH_VARARGS, "The exact dealer pass, 128-bit integers."},
    {"joint", joint, METH_VARARGS, "The float dealer pass of every up card at once."},
    {"joint_many", joint_many, METH_VARARGS, "The weighted joint pass of several counter's shoes at once."},
    {"joint_exact", joint_exact, METH_VARARGS, "The exact dealer pass of every up card at once, 128-bit integers."},
    {"gather", gather, METH_VARARGS, "Stand numerators of one up card read from a joint pass's parts."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_dealer_kernel",
                                    "Compiled dealer pass, float and exact (see bjcalc.engine.dealer).", -1, methods};

PyMODINIT_FUNC PyInit__dealer_kernel(void) { return PyModule_Create(&module); }
