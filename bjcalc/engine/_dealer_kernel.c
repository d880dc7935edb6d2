/* The dealer pass of bjcalc.engine.dealer, compiled: the one loop that dominates a whole-game
 * analysis (every dealer draw, for tens of thousands of shoes per up card).
 *
 * It computes what bjcalc.engine.dealer._outcome_numerators computes with numpy, for the same
 * flattened dealer graph: for each shoe, the outcome numerators over ff(cards left, depth).
 * Float: shoes are processed BLOCK (64) at a time with the block as the innermost index, so
 * that the multiply-adds of one draw run across shoes in vector registers.
 * Exact (numerators_exact): the same sums in unsigned 128-bit integers, one shoe at a time.
 * Every partial sum is at most the shoe's denominator ff(cards left, depth), which the caller
 * checks is below 2^127, so nothing overflows; results are returned as two uint64 halves.
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
#else
#define MULTIVERSION
#endif

/* The dealer graph, flattened by bjcalc.engine.dealer.flat_dealer. Step s (the dealer holds s cards
 * beyond the up card and draws one more) has edges edge_start[s] .. edge_start[s+1]-1, each from
 * a drawing state `parent` of level s to state `child` of level s+1, drawing `rank` of which the
 * parent holds `held`. Level s+1 has width[s] states; stop[node_start[s] + i] is the outcome
 * slot where state i of level s+1 stops, or -1 where the dealer draws again. */
typedef struct {
    int n_steps;
    const int32_t *edge_start, *parent, *child, *rank, *held;
    const int32_t *width, *node_start, *stop;
    int max_width, max_held;
} Graph;

MULTIVERSION
static void run_block(const Graph *g, int depth, int n_out, int n, const int64_t *left,
                      double *out, Py_ssize_t stride, double *cur, double *nxt, double *avail)
{
    double n_left[BLOCK], num[MAX_OUTCOMES][BLOCK];
    int b, o;
    for (b = 0; b < BLOCK; b++) {
        n_left[b] = 0.0;
        if (b < n)
            for (int r = 0; r < RANKS; r++)
                n_left[b] += (double)left[b * RANKS + r];
    }
    /* avail[(r * (max_held + 1) + h) * BLOCK + b] = cards of rank r left when h are held */
    for (int r = 0; r < RANKS; r++)
        for (int h = 0; h <= g->max_held; h++)
            for (b = 0; b < BLOCK; b++) {
                double a = b < n ? (double)(left[b * RANKS + r] - h) : 0.0;
                avail[(r * (g->max_held + 1) + h) * BLOCK + b] = a > 0.0 ? a : 0.0;
            }
    for (o = 0; o < n_out; o++)
        for (b = 0; b < BLOCK; b++)
            num[o][b] = 0.0;
    for (b = 0; b < BLOCK; b++)
        cur[b] = 1.0;
    int steps = depth < g->n_steps ? depth : g->n_steps;
    for (int s = 0; s < steps; s++) {
        for (o = 0; o < n_out; o++)
            for (b = 0; b < BLOCK; b++)
                num[o][b] *= n_left[b] - s;
        memset(nxt, 0, sizeof(double) * BLOCK * (size_t)g->width[s]);
        for (int32_t e = g->edge_start[s]; e < g->edge_start[s + 1]; e++) {
            const double *restrict v = cur + (size_t)g->parent[e] * BLOCK;
            const double *restrict a = avail + ((size_t)g->rank[e] * (g->max_held + 1) + g->held[e]) * BLOCK;
            double *restrict w = nxt + (size_t)g->child[e] * BLOCK;
            for (b = 0; b < BLOCK; b++)
                w[b] += v[b] * a[b];
        }
        const int32_t *stop = g->stop + g->node_start[s];
        for (int i = 0; i < g->width[s]; i++) {
            int slot = stop[i];
            if (slot >= 0)
                for (b = 0; b < BLOCK; b++)
                    num[slot][b] += nxt[(size_t)i * BLOCK + b];
        }
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    for (o = 0; o < n_out; o++)
        for (b = 0; b < n; b++)
            out[o * stride + b] = num[o][b];
}

static int get(PyObject *obj, Py_buffer *view, int writable)
{
    return PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0));
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
 *            max_width, max_held, depth, left, out)
 * int32 arrays for the graph, left: int64 (n, 10), out: float64 (n_out, n), filled in. */
static PyObject *numerators(PyObject *self, PyObject *args)
{
    PyObject *objs[10];
    int max_width, max_held, depth;
    if (!PyArg_ParseTuple(args, "OOOOOOOOiiiOO", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &objs[7], &max_width, &max_held, &depth,
                          &objs[8], &objs[9]))
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
    if (!cur || !nxt || !avail) {
        free(cur), free(nxt), free(avail);
        PyErr_NoMemory();
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i += BLOCK) {
        int m = n - i < BLOCK ? (int)(n - i) : BLOCK;
        run_block(&g, depth, n_out, m, (const int64_t *)views[8].buf + i * RANKS,
                  (double *)views[9].buf + i, n, cur, nxt, avail);
    }
    Py_END_ALLOW_THREADS
    free(cur), free(nxt), free(avail);
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&views[i]);
    Py_RETURN_NONE;
fail:
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&views[i]);
    return NULL;
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

static void run_exact(const Graph *g, int depth, int n_out, const int64_t *left, uint64_t *lo,
                      uint64_t *hi, Py_ssize_t stride, u128 *cur, u128 *nxt)
{
    u128 num[MAX_OUTCOMES];
    int64_t n_left = 0;
    for (int r = 0; r < RANKS; r++)
        n_left += left[r];
    for (int o = 0; o < n_out; o++)
        num[o] = 0;
    cur[0] = 1;
    int steps = depth < g->n_steps ? depth : g->n_steps;
    for (int s = 0; s < steps; s++) {
        uint64_t scale = n_left - s > 0 ? (uint64_t)(n_left - s) : 0;
        for (int o = 0; o < n_out; o++)
            num[o] *= scale;
        memset(nxt, 0, sizeof(u128) * (size_t)g->width[s]);
        for (int32_t e = g->edge_start[s]; e < g->edge_start[s + 1]; e++) {
            int64_t a = left[g->rank[e]] - g->held[e];
            if (a > 0)
                nxt[g->child[e]] += cur[g->parent[e]] * (uint64_t)a;
        }
        const int32_t *stop = g->stop + g->node_start[s];
        for (int i = 0; i < g->width[s]; i++)
            if (stop[i] >= 0)
                num[stop[i]] += nxt[i];
        u128 *t = cur;
        cur = nxt;
        nxt = t;
    }
    for (int o = 0; o < n_out; o++) {
        lo[o * stride] = (uint64_t)num[o];
        hi[o * stride] = (uint64_t)(num[o] >> 64);
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
    u128 *cur = malloc(sizeof(u128) * (size_t)(max_width + 1));
    u128 *nxt = malloc(sizeof(u128) * (size_t)(max_width + 1));
    if (!cur || !nxt) {
        free(cur), free(nxt);
        PyErr_NoMemory();
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        run_exact(&g, depth, n_out, (const int64_t *)views[8].buf + i * RANKS, (uint64_t *)views[9].buf + i,
                  (uint64_t *)views[10].buf + i, n, cur, nxt);
    Py_END_ALLOW_THREADS
    free(cur), free(nxt);
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&views[i]);
    Py_RETURN_NONE;
fail:
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&views[i]);
    return NULL;
#else
    PyErr_SetString(PyExc_NotImplementedError, "no 128-bit integers in this build");
    return NULL;
#endif
}

static PyMethodDef methods[] = {
    {"numerators", numerators, METH_VARARGS, "The float dealer pass over a block of shoes."},
    {"numerators_exact", numerators_exact, METH_VARARGS, "The exact dealer pass, 128-bit integers."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_dealer_kernel",
                                    "Compiled dealer pass, float and exact (see bjcalc.engine.dealer).", -1, methods};

PyMODINIT_FUNC PyInit__dealer_kernel(void) { return PyModule_Create(&module); }
