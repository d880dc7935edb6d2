/* The float player pass of bjcalc.engine.values, compiled: the stand, hit, double and best values
 * of every hand of a hand graph for several shoes, in one backward sweep over the layers.
 *
 * It computes what bjcalc.engine.values computes with numpy (_stacked_values, then the backward
 * pass of solve_many), with the same operations in the same order, but without the (rows, 10)
 * arrays: a hand's cards left per rank, its dealer-blackjack units, the value of each draw (a
 * bust, or the child's best value) and the sum over ranks are worked out row by row from the
 * shoe and the hand's counts, and the stand lookup, the bust values and the backward pass are
 * one loop per layer.
 *
 * Layouts (R hands in the graph, layer k holding rows starts[k] .. starts[k+1]-1, C shoes):
 *   inputs per hand (flat rows):  counts (R, 10), children (R, 10: row in layer k+1, -1 = bust;
 *                                 a row outside layer k+1 is read as a bust too, which the
 *                                 graph never has, so that no input makes the loop read astray)
 *   stand_in (C, R):              the dealer's stand numerators of each hand, over ff(n - size, depth)
 *   suffixes (C, first + L + depth + 1): each shoe's falling factorials, from which the layer
 *                                 scales, blackjack units and lifts come (values.py's _factors)
 *   outputs, stacked like values.py's stacks: layer by layer, within a layer shoe by shoe, so
 *   hand i of layer k for shoe j sits at starts[k] * C + j * n_k + i.
 *
 * A counter's shoe (bjcalc.engine.drawmodel) adds one weight per class-total vector drawn: a
 * row's scale is G_k times the weight of its own cards (with the up card and the extra cards),
 * its dealer-blackjack units and each draw's bust value carry the weight of the cards they add.
 * Those weights come from a small table, WEIGHTS entries per distinct class-total vector of a
 * row (weight_row gives the entry of each shoe's row): the row's own, with the blackjack card,
 * with each rank drawn and with each rank and the blackjack card.
 *
 * Only the Python C API's buffer protocol is used (no numpy headers), the loop runs without
 * the GIL, and the module is an optional build: without it bjcalc runs the numpy version.
 * Built with -ffp-contract=off so that no multiply-add is fused: the numpy path rounds each
 * product and sum on its own, and the two give the same numbers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the layer's loop is built for AVX-512 too, where a row's eight lanes are one register (its
 * vectors of eight live at once outgrow AVX2's sixteen registers: built for AVX2 the loop
 * spilled them and ran 25 % slower than the plain build, which AVX2 machines run) */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define MULTIVERSION __attribute__((target_clones("avx512f", "default")))
#else
#define MULTIVERSION
#endif

#define RANKS 10
#define STAND 0
#define HIT 1
#define DOUBLE 2
/* a counter's shoe: per distinct class-total vector u of a row, its weights W(u), W(u + bj),
 * W(u + r) and W(u + r + bj) for the ten ranks r (bj: the card that makes the dealer's
 * blackjack; values.py's _kernel_weights) */
#define WEIGHTS 22
#define W_SELF 0
#define W_BJ 1
#define W_DRAW 2
#define W_DRAW_BJ 12


typedef struct {
    /* the graph */
    Py_ssize_t n_rows, n_layers, first;
    const int64_t *counts, *starts;
    const Py_ssize_t *children;
    /* the shoes */
    Py_ssize_t copies;
    const int64_t *shoes;
    const double *stand_in, *suffixes;
    Py_ssize_t depth; /* the dealer's most draws: suffixes have first + n_layers + depth + 1 entries */
    /* several up cards' shoes in one pass (NULL, 0: one up card): each copy's own dealer depth
     * (depth is then the largest), and the copies of each up card, whose decisions are one row
     * of `decisions` per up card ((C / per_group, R)) */
    const int64_t *depths;
    Py_ssize_t per_group;
    const int64_t *bj_ranks; /* each copy's blackjack rank (NULL: bj_rank for every copy) */
    /* the rules and the play */
    int bj_rank, peeked, limit, double_layer;
    double loss, both_loss; /* loss, loss + double_loss */
    const uint8_t *may_double;
    const int64_t *decisions;
    /* outputs */
    double *stand, *blackjack, *hit, *best, *dbl, *one_card;
    int64_t *decision;
    double *doubled; /* scratch, stacked like the outputs: the doubled stand values */
    /* a counter's shoe (NULL: a composition): weight_row (C, R) into weights (entries, WEIGHTS);
     * weight_out, stacked like the outputs: each row's own weight, the factor of its scale */
    const int64_t *weight_row;
    const double *weights;
    double *weight_out;
    /* roots only (NULL: every row): the rows whose values are worked out, those the fixed play
     * reaches from the first layer (and their children's stand values); the others' values are
     * NaN and their decision the play's */
    const uint8_t *needed;
} Job;

/* `keep` all ones: a, all zeros: b (a select the compiler cannot turn into a branch) */
static inline double pick(uint64_t keep, double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    x = (x & keep) | (y & ~keep);
    memcpy(&a, &x, sizeof a);
    return a;
}

/* The play of a hand of `size` cards at `row` for copy `j` where it is fixed: a one-card split
 * hand draws, a hand at the card limit stands, any other plays `decisions` (which must be
 * given; the row of j's group where copies are grouped) */
static inline int64_t fixed_choice(const Job *q, Py_ssize_t size, Py_ssize_t row, Py_ssize_t j)
{
    if (size < 2)
        return HIT; /* a one-card split hand always draws */
    if (size >= q->limit)
        return STAND;
    return q->decisions[(q->per_group ? j / q->per_group : 0) * q->n_rows + row];
}

/* roots_only: mark the rows whose values are read. Every hand of the first layer; the
 * children of a drawing hand (a one-card split hand, or one the play hits); and the
 * children of every hand of the double layer that is marked (their stand values make its
 * double and one-card values). A marked child of a hand that stands or doubles only is
 * worked out whole, and what it reads of its own unmarked children is NaN: never read. */
static void mark_group(const Job *q, Py_ssize_t j, uint8_t *marks)
{
    const Py_ssize_t L = q->n_layers;
    memset(marks, 0, (size_t)q->n_rows);
    for (Py_ssize_t row = q->starts[0]; row < q->starts[1]; row++)
        marks[row] = 1;
    for (Py_ssize_t k = 0; k + 1 < L; k++) {
        const Py_ssize_t size = q->first + k, next = q->starts[k + 1];
        const Py_ssize_t width = q->starts[k + 2] - next;
        for (Py_ssize_t row = q->starts[k]; row < q->starts[k + 1]; row++) {
            if (!marks[row])
                continue;
            if (fixed_choice(q, size, row, j) != HIT && k != q->double_layer)
                continue;
            const Py_ssize_t *kids = q->children + row * RANKS;
            for (int r = 0; r < RANKS; r++)
                if ((size_t)kids[r] < (size_t)width)
                    marks[next + kids[r]] = 1;
        }
    }
}

/* The rows marked for any group of copies (mark_group; `scratch`: n_rows bytes, or NULL with
 * one group). A row one group reaches and another does not is worked out for both: its
 * values for the other are those of its play, or NaN where they read unreached rows. */
static void mark_needed(const Job *q, uint8_t *needed, uint8_t *scratch)
{
    const Py_ssize_t groups = q->per_group ? q->copies / q->per_group : 1;
    mark_group(q, 0, needed);
    for (Py_ssize_t g = 1; g < groups; g++) {
        mark_group(q, g * q->per_group, scratch);
        for (Py_ssize_t row = 0; row < q->n_rows; row++)
            needed[row] |= scratch[row];
    }
}

/* Rows i0 .. i1 - 1 of layer k, which no play reaches (roots_only): NaN values, the play's
 * decision. A run of rows at a time, each output's stretch of each shoe filled in one loop
 * (the scattered stores row by row took a sixth of the loop's time); the scratch `doubled`
 * is left alone: no row worked out reads an unreached one. */
static void skip_rows(const Job *q, Py_ssize_t k, Py_ssize_t i0, Py_ssize_t i1)
{
    const Py_ssize_t C = q->copies, a = q->starts[k], n_k = q->starts[k + 1] - a;
    const double nan = (double)NAN;
    double *const outputs[5] = {q->stand, q->blackjack, q->hit, q->best, q->weight_out};
    for (Py_ssize_t j = 0; j < C; j++) {
        const Py_ssize_t at = a * C + j * n_k;
        for (int o = 0; o < 5; o++)
            if (outputs[o])
                for (Py_ssize_t i = i0; i < i1; i++)
                    outputs[o][at + i] = nan;
        for (Py_ssize_t i = i0; i < i1; i++)
            q->decision[at + i] = fixed_choice(q, q->first + k, a + i, j);
        if (k == q->double_layer)
            for (Py_ssize_t i = i0; i < i1; i++)
                q->dbl[j * n_k + i] = q->one_card[j * n_k + i] = nan;
    }
}

/* rows of a layer taken together: their children are worked out once for every shoe, then
 * each shoe runs through them (a shoe's inputs and outputs are a few sequential streams; shoe
 * by shoe within each row, the streams of every output of every shoe were read and written at
 * once, more than the prefetchers follow) */
#define BLOCK 32
#define AHEAD 4 /* rows ahead whose weights are fetched */

/* The ten ranks of a row as eight lanes of a vector (aces to eights) and the last two (nines,
 * tens) apart: each lane does what the row's loop over the ranks did, in the same order, so
 * the values are the same to the bit whatever the vector width the machine has. */
typedef double v8d __attribute__((vector_size(64)));
typedef int64_t v8i __attribute__((vector_size(64)));
#define LANES 8

/* (macros, not functions: a vector passed to or from a function is given a different ABI in
 * each of the clones) */
#define LOAD8(out, p) memcpy(&(out), (p), sizeof(v8d))

/* `keep` all ones: a, all zeros: b, lane by lane (pick's vector) */
#define SELECT8(keep, a, b) ((v8d)(((v8i)(a) & (keep)) | ((v8i)(b) & ~(keep))))

/* numpy's float64 sum over a row of ten: pairwise over the first eight (the lanes), then the
 * last two, which the caller adds in order */
#define SUM8(t) ((((t)[0] + (t)[1]) + ((t)[2] + (t)[3])) + (((t)[4] + (t)[5]) + ((t)[6] + (t)[7])))

#define GATHER8(base, at)                                                                            \
    ((v8d){(base)[(at)[0]], (base)[(at)[1]], (base)[(at)[2]], (base)[(at)[3]], (base)[(at)[4]],      \
           (base)[(at)[5]], (base)[(at)[6]], (base)[(at)[7]]})

/* What a draw that busts is worth at the next layer's scale g, cbj being the dealer's
 * blackjacks there: the bet where the dealer has none; with no hole card, `loss` of it where
 * the dealer has one (a peeking dealer's blackjacks are not in the numerators). Doubled: twice
 * the bet, and `both_loss` of it to a blackjack. For a lane's scalars and for vectors alike. */
#define BUST(q, g, cbj) ((q)->peeked ? -((g) - (cbj)) : -((g) - (cbj)) - (cbj) * (q)->loss)
#define BUST_DOUBLED(q, g, cbj) ((q)->peeked ? BUST(q, g, cbj) * 2 : -((g) - (cbj)) * 2 - (cbj) * (q)->both_loss)

/* a composition's shoe reads every weight as one: the same products, to the bit */
static const double ONES[WEIGHTS] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

/* Layer k of every shoe, BLOCK rows at a time: each hand's counts and children are read once
 * for all the shoes. */
MULTIVERSION static void solve_layer(const Job *q, Py_ssize_t k)
{
    const Py_ssize_t C = q->copies, L = q->n_layers, top1 = q->first + L + q->depth + 1;
    const Py_ssize_t a = q->starts[k], n_k = q->starts[k + 1] - a;
    const Py_ssize_t width = k + 1 < L ? q->starts[k + 2] - q->starts[k + 1] : 0;
    const int no_child = width == 0; /* every draw busts, or the last layer (never read) */
    const Py_ssize_t size = q->first + k;
    const int is_double = k == q->double_layer;
    const int can_hit = size < q->limit;
    const v8d zero = {0};
    Py_ssize_t rows_in[BLOCK];
    Py_ssize_t child[BLOCK][RANKS];
    uint64_t keep[BLOCK][RANKS];
    v8d count8[BLOCK];
    for (Py_ssize_t i0 = 0; i0 < n_k; i0 += BLOCK) {
        const Py_ssize_t i1 = i0 + BLOCK < n_k ? i0 + BLOCK : n_k;
        /* the block's rows worked out (the others: skip_rows, a run at a time), their children
         * and their counts of the first eight ranks as floats (exact) */
        int m = 0;
        for (Py_ssize_t i = i0; i < i1; i++) {
            if (q->needed && !q->needed[a + i]) {
                Py_ssize_t end = i + 1;
                while (end < i1 && !q->needed[a + end])
                    end++;
                skip_rows(q, k, i, end);
                i = end - 1;
                continue;
            }
            const Py_ssize_t *kids = q->children + (a + i) * RANKS;
            const int64_t *cnt = q->counts + (a + i) * RANKS;
            for (int r = 0; r < RANKS; r++) {
                const Py_ssize_t c = no_child ? -1 : kids[r];
                const int inside = (size_t)c < (size_t)width;
                keep[m][r] = -(uint64_t)inside; /* all ones: a child in the next layer */
                child[m][r] = inside ? c : 0;
            }
            for (int r = 0; r < LANES; r++)
                count8[m][r] = (double)cnt[r];
            rows_in[m++] = i;
        }
        for (Py_ssize_t j = 0; j < C; j++) {
            const int bj = q->bj_ranks ? (int)q->bj_ranks[j] : q->bj_rank;
            v8i is_bj = {0}; /* all ones in the blackjack rank's lane (a blend: a lane written
                              * alone is read back through memory) */
            if (bj >= 0 && bj < LANES)
                is_bj[bj] = -1;
            const int64_t *shoe = q->shoes + j * RANKS;
            v8d shoe8;
            for (int r = 0; r < LANES; r++)
                shoe8[r] = (double)shoe[r];
            /* this shoe's falling factorials ff(n0 - s, top - s): the layer of hands of `size`
             * cards has the scale suffix[size] and the blackjack unit suffix[size + 1], and its
             * dealer numerators are lifted by suffix[size + depth] (values.py's _factors) */
            const double *suffix = q->suffixes + j * top1;
            const double g = suffix[size + 1], unit = suffix[size + 1], unit_next = suffix[size + 2];
            const double lift = size >= 2 ? suffix[size + (q->depths ? q->depths[j] : q->depth)] : 0.0;
            const Py_ssize_t block = a * C + j * n_k; /* this shoe's block of layer k */
            const Py_ssize_t next0 = no_child ? 0 : q->starts[k + 1] * C + j * width;
            const double *next = q->best + next0;
            for (int b = 0; b < m; b++) {
                const Py_ssize_t i = rows_in[b], row = a + i, at = block + i;
                const int64_t *cnt = q->counts + row * RANKS;
                if (q->weights && b + AHEAD < m) {
                    /* a later row's weights (rows of other class totals: scattered over the table) */
                    const double *later = q->weights + q->weight_row[j * q->n_rows + a + rows_in[b + AHEAD]] * WEIGHTS;
                    __builtin_prefetch(later);
                    __builtin_prefetch(later + 8);
                    __builtin_prefetch(later + 16);
                }
                /* the cards of each rank left (exact in floats, as the counts are) */
                const v8d d8 = shoe8 - count8[b];
                const v8d left8 = SELECT8(d8 > zero, d8, zero);
                double left[RANKS - LANES];
                for (int r = LANES; r < RANKS; r++) {
                    const int64_t d = shoe[r] - cnt[r];
                    left[r - LANES] = d > 0 ? (double)d : 0.0;
                }
                const int64_t bj_left = bj >= 0 ? shoe[bj] - cnt[bj] : 0;
                /* standing: the dealer's numerators at this layer's scale, less what a dealer
                 * blackjack takes when there is no peek */
                const double not_bj = q->stand_in[j * q->n_rows + row] * lift;
                const double *wt = q->weights ? q->weights + q->weight_row[j * q->n_rows + row] * WEIGHTS : ONES;
                double bjv = bj >= 0 ? (double)(size >= 2 ? bj_left : 0) * unit : 0.0;
                if (q->weights)
                    q->weight_out[at] = wt[W_SELF];
                if (bj >= 0)
                    bjv *= wt[W_BJ];
                double stand, doubled;
                if (q->peeked) {
                    stand = not_bj;
                    doubled = not_bj * 2;
                } else {
                    stand = not_bj - bjv * q->loss;
                    doubled = not_bj * 2 - bjv * q->both_loss;
                }
                q->stand[at] = stand;
                q->blackjack[at] = bjv;
                q->doubled[at] = doubled;
                /* drawing: the dealer's blackjack units after a draw of any rank but the
                 * blackjack rank (cbj), or of that rank (cbj1); each draw busts or leads to the
                 * child's best value (picked without branches: whether a draw busts is as good
                 * as random). A counter's shoe: each rank's draw has its own scale and
                 * blackjack units. */
                const double cbj = bj >= 0 ? (double)bj_left * unit_next : 0.0;
                const double cbj1 = bj >= 0 ? (double)(bj_left - 1) * unit_next : 0.0;
                v8d w8, g8;
                LOAD8(w8, wt + W_DRAW);
                g8 = g * w8;
                const v8d cbj_all = {cbj, cbj, cbj, cbj, cbj, cbj, cbj, cbj};
                const v8d cbj1_all = {cbj1, cbj1, cbj1, cbj1, cbj1, cbj1, cbj1, cbj1};
                v8d cbj8 = SELECT8(is_bj, cbj1_all, cbj_all);
                double g_r[RANKS - LANES], cbj_r[RANKS - LANES], bust[RANKS - LANES];
                for (int r = LANES; r < RANKS; r++) {
                    g_r[r - LANES] = g * wt[W_DRAW + r];
                    cbj_r[r - LANES] = r == bj ? cbj1 : cbj;
                }
                if (bj >= 0) {
                    LOAD8(w8, wt + W_DRAW_BJ);
                    cbj8 *= w8;
                    for (int r = LANES; r < RANKS; r++)
                        cbj_r[r - LANES] *= wt[W_DRAW_BJ + r];
                }
                const v8d bust_8 = BUST(q, g8, cbj8);
                for (int r = LANES; r < RANKS; r++)
                    bust[r - LANES] = BUST(q, g_r[r - LANES], cbj_r[r - LANES]);
                const Py_ssize_t *kid = child[b];
                const uint64_t *kept = keep[b];
                v8i kept8; /* the first eight ranks' */
                memcpy(&kept8, kept, sizeof kept8);
                const v8d terms = left8 * SELECT8(kept8, GATHER8(next, kid), bust_8);
                const double hit = SUM8(terms) + left[0] * pick(kept[8], next[kid[8]], bust[0])
                                   + left[1] * pick(kept[9], next[kid[9]], bust[1]);
                q->hit[at] = hit;
                double dbl = 0.0;
                if (is_double) {
                    const double *doubled_next = q->doubled + next0, *stand_next = q->stand + next0;
                    const v8d dbl8 = left8 * SELECT8(kept8, GATHER8(doubled_next, kid), BUST_DOUBLED(q, g8, cbj8));
                    dbl = SUM8(dbl8);
                    for (int r = LANES; r < RANKS; r++)
                        dbl += left[r - LANES] * pick(kept[r], doubled_next[kid[r]],
                                                      BUST_DOUBLED(q, g_r[r - LANES], cbj_r[r - LANES]));
                    const v8d one8 = left8 * SELECT8(kept8, GATHER8(stand_next, kid), bust_8);
                    double one = SUM8(one8);
                    for (int r = LANES; r < RANKS; r++)
                        one += left[r - LANES] * pick(kept[r], stand_next[kid[r]], bust[r - LANES]);
                    q->dbl[j * n_k + i] = dbl;
                    q->one_card[j * n_k + i] = one;
                }
                int64_t chosen;
                if (size < 2 || !can_hit || q->decisions)
                    chosen = fixed_choice(q, size, row, j);
                else {
                    chosen = hit > stand ? HIT : STAND;
                    if (is_double && q->may_double && q->may_double[i] && dbl > (chosen == HIT ? hit : stand))
                        chosen = DOUBLE;
                }
                q->decision[at] = chosen;
                double value = chosen == HIT ? hit : stand;
                if (is_double && chosen == DOUBLE)
                    value = dbl;
                q->best[at] = value;
            }
        }
    }
}

static int get(PyObject *obj, Py_buffer *view, int writable)
{
    return PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0));
}

/* The buffers of objs[0..n): C-contiguous, of items of itemsize[i] bytes, writable where
 * writable[i]; None only where optional[i] (optional may be NULL: none is). held[i] says which
 * were taken: release_views gives them back, also after a failure (-1, an exception set). */
static int take_views(PyObject **objs, int n, const Py_ssize_t *itemsize, const int *optional, const int *writable,
                      Py_buffer *views, int *held)
{
    for (int i = 0; i < n; i++) {
        if (objs[i] == Py_None) {
            if (!optional || !optional[i]) {
                PyErr_Format(PyExc_TypeError, "player kernel: array %d may not be None", i);
                return -1;
            }
            continue;
        }
        if (get(objs[i], &views[i], writable[i]) < 0)
            return -1;
        held[i] = 1;
        if (views[i].itemsize != itemsize[i]) {
            PyErr_Format(PyExc_TypeError, "player kernel: array %d has items of %zd bytes, not %zd", i,
                         views[i].itemsize, itemsize[i]);
            return -1;
        }
    }
    return 0;
}

static void release_views(Py_buffer *views, const int *held, int n)
{
    for (int i = 0; i < n; i++)
        if (held[i])
            PyBuffer_Release(&views[i]);
}

#define N_IN 8
#define N_OUT 7
#define N_WEIGHTED 3 /* weight_row, weights, weight_out */
#define N_ARRAYS (N_IN + N_OUT + N_WEIGHTED + 2) /* and depths, bj_ranks */

/* solve(counts, children, starts, shoes, stand_in, suffixes, may_double, decisions,
 *       stand, blackjack, hit, best, decision, double, one_card,
 *       first, bj_rank, peeked, loss, double_loss, limit, double_layer, depth
 *       [, weight_row, weights, weight_out, roots_only, depths, per_group, bj_ranks])
 * counts int64 (R, 10), children intp (R, 10), starts int64 (L + 1), shoes int64 (C, 10),
 * stand_in float64 (C, R), suffixes float64 (C, first + L + depth + 1): each shoe's falling
 * factorials (values.py's _suffixes), may_double uint8 (rows of the double layer) or None,
 * decisions int64 (R) or None; outputs float64 (C * R) stacked, decision int64
 * (C * R), double and one_card float64 (C * rows of the double layer) or None when there is
 * no double layer. bj_rank and double_layer are -1 for none. A counter's shoe: weight_row int64
 * (C, R), weights float64 (entries, WEIGHTS), weight_out float64 (C * R) stacked (all or none).
 * Several up cards of one dealer blackjack rule in one pass: depths int64 (C), each copy's
 * dealer depth (`depth` the largest, the suffixes' width), and per_group copies of each up
 * card, whose decisions are one row each, int64 (C / per_group, R); bj_ranks int64 (C), each
 * copy's blackjack rank (-1: none), where they differ (bj_rank is then not read). */
static PyObject *solve(PyObject *self, PyObject *args)
{
    PyObject *objs[N_ARRAYS] = {NULL};
    int first, bj_rank, peeked, loss, double_loss, limit, double_layer, depth, roots_only = 0;
    Py_ssize_t per_group = 0;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOiiiiiiii|OOOpOnO", &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &objs[7], &objs[8], &objs[9], &objs[10],
                          &objs[11], &objs[12], &objs[13], &objs[14], &first, &bj_rank, &peeked, &loss,
                          &double_loss, &limit, &double_layer, &depth, &objs[15], &objs[16], &objs[17],
                          &roots_only, &objs[18], &per_group, &objs[19]))
        return NULL;
    for (int i = N_ARRAYS - N_WEIGHTED - 2; i < N_ARRAYS; i++)
        if (!objs[i])
            objs[i] = Py_None;
    /* the item size of each array; may_double, decisions, double, one_card and the weights may
     * be None */
    static const Py_ssize_t itemsize[N_ARRAYS] = {8, sizeof(Py_ssize_t), 8, 8, 8, 8, 1, 8, 8, 8, 8, 8, 8, 8, 8,
                                                  8, 8, 8, 8, 8};
    static const int optional[N_ARRAYS] = {0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1};
    static const int writable[N_ARRAYS] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0};
    Py_buffer views[N_ARRAYS];
    int held[N_ARRAYS] = {0};
    double *scratch = NULL;
    uint8_t *needed = NULL;
    PyObject *result = NULL;
    if (take_views(objs, N_ARRAYS, itemsize, optional, writable, views, held) < 0)
        goto done;
    Job q;
    q.n_rows = views[0].len / (Py_ssize_t)(sizeof(int64_t) * RANKS);
    q.n_layers = views[2].len / (Py_ssize_t)sizeof(int64_t) - 1;
    q.copies = views[3].len / (Py_ssize_t)(sizeof(int64_t) * RANKS);
    q.first = first;
    q.counts = views[0].buf;
    q.children = views[1].buf;
    q.starts = views[2].buf;
    q.shoes = views[3].buf;
    q.stand_in = views[4].buf;
    q.suffixes = views[5].buf;
    q.depth = depth;
    q.may_double = held[6] ? views[6].buf : NULL;
    q.decisions = held[7] ? views[7].buf : NULL;
    q.stand = views[8].buf;
    q.blackjack = views[9].buf;
    q.hit = views[10].buf;
    q.best = views[11].buf;
    q.decision = views[12].buf;
    q.dbl = held[13] ? views[13].buf : NULL;
    q.one_card = held[14] ? views[14].buf : NULL;
    q.bj_rank = bj_rank;
    q.peeked = peeked;
    q.loss = loss;
    q.both_loss = loss + double_loss;
    q.limit = limit;
    q.double_layer = double_layer;
    q.weight_row = held[15] ? views[15].buf : NULL;
    q.weights = held[16] ? views[16].buf : NULL;
    q.weight_out = held[17] ? views[17].buf : NULL;
    q.depths = held[18] ? views[18].buf : NULL;
    q.per_group = per_group;
    q.bj_ranks = held[19] ? views[19].buf : NULL;
    /* the sizes the arrays must have, so that a wrong call fails instead of reading astray */
    const Py_ssize_t R = q.n_rows, C = q.copies, L = q.n_layers, D = (Py_ssize_t)sizeof(double);
    int ok = L >= 1 && views[0].len == R * RANKS * 8 && views[1].len == R * RANKS * (Py_ssize_t)sizeof(Py_ssize_t)
             && views[3].len == C * RANKS * 8 && q.starts[0] == 0 && q.starts[L] == R
             && first >= 0 && depth >= 1 && views[4].len == C * R * D
             && views[5].len == C * (first + L + depth + 1) * D
             && per_group >= 0 && (per_group == 0 || (C > 0 && C % per_group == 0))
             && (!held[7] || views[7].len == (per_group ? C / per_group : 1) * R * 8) && bj_rank >= -1 && bj_rank < RANKS
             && (!held[18] || views[18].len == C * 8) && (!held[19] || views[19].len == C * 8)
             && double_layer >= -1 && double_layer < L;
    for (int i = 8; ok && i < 13; i++)
        ok = views[i].len == C * R * views[i].itemsize;
    for (Py_ssize_t k = 0; ok && k < L; k++)
        ok = q.starts[k] <= q.starts[k + 1];
    for (Py_ssize_t j = 0; ok && q.depths && j < C; j++)
        ok = q.depths[j] >= 1 && q.depths[j] <= depth;
    for (Py_ssize_t j = 0; ok && q.bj_ranks && j < C; j++)
        ok = q.bj_ranks[j] >= -1 && q.bj_ranks[j] < RANKS;
    if (ok && (held[15] || held[16] || held[17])) {
        /* every entry a row names must be in the table */
        Py_ssize_t entries = held[16] ? views[16].len / (WEIGHTS * D) : 0;
        ok = held[15] && held[16] && held[17] && views[15].len == C * R * 8 && views[16].len == entries * WEIGHTS * D
             && views[17].len == C * R * D;
        for (Py_ssize_t i = 0; ok && i < C * R; i++)
            ok = q.weight_row[i] >= 0 && q.weight_row[i] < entries;
    }
    if (ok && double_layer >= 0) {
        Py_ssize_t n_double = q.starts[double_layer + 1] - q.starts[double_layer];
        ok = held[13] && held[14] && views[13].len == C * n_double * D && views[14].len == C * n_double * D
             && (!held[6] || views[6].len == n_double);
    }
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "player kernel: arrays of inconsistent sizes");
        goto done;
    }
    if (roots_only && !held[7]) {
        PyErr_SetString(PyExc_ValueError, "player kernel: roots_only needs the decisions");
        goto done;
    }
    q.needed = NULL;
    if (roots_only) {
        needed = malloc(2 * (size_t)(R > 0 ? R : 1)); /* and mark_needed's scratch */
        if (!needed) {
            PyErr_NoMemory();
            goto done;
        }
        mark_needed(&q, needed, needed + R);
        q.needed = needed;
    }
    scratch = malloc(sizeof(double) * (size_t)(C * R > 0 ? C * R : 1));
    if (!scratch) {
        PyErr_NoMemory();
        goto done;
    }
    q.doubled = scratch;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = L - 1; k >= 0; k--)
        solve_layer(&q, k);
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    free(scratch);
    free(needed);
    release_views(views, held, N_ARRAYS);
    return result;
}

/* ---- the exact pass: the same values modulo primes below 2**31 ----
 *
 * Exact mode runs the pass of solve_layer in int64 residues modulo P primes (values.py's
 * _exact_kernel_pass rebuilds the integers by the Chinese remainder theorem where they are
 * read). Residues cannot be compared, so the play of every state comes in (`decision`, from the
 * float pass, its near ties settled exactly in Python between layers, which is why the loop
 * runs one layer per call). Every residue is in [0, p); a product of two is below 2**62 and a
 * sum of ten products of a card count (below 2**28, residues.EXACT_CARD_LIMIT) and a residue
 * below 2**63. */

typedef struct {
    Py_ssize_t n_rows, n_layers, first, copies, n_primes, depth, n_double;
    const int64_t *counts, *starts, *shoes, *primes;
    const Py_ssize_t *children;
    const int64_t *stand_in; /* (P, C, R) */
    const int64_t *suffixes; /* (P, C, first + L + depth + 1) */
    const int64_t *decision; /* (C * R) stacked */
    int bj_rank, peeked, double_layer;
    int64_t loss, both_loss;
    int64_t *stand, *blackjack, *hit, *best, *doubled; /* (P, C * R) stacked */
    int64_t *dbl, *one_card;                        /* (P, C * n_double) or NULL */
    const int64_t *weight_row;                      /* (C, R) or NULL */
    const int64_t *weights;                         /* (P, entries, WEIGHTS) */
    Py_ssize_t entries;
} ExactJob;

/* A prime and its Barrett factor floor((2**64 - 1) / p): x mod p for x < 2**63 by one high
 * multiply and at most two subtractions (the quotient estimate is short by less than 2). */
typedef struct {
    uint64_t p, m;
} Prime;

#define MAX_PRIMES 256 /* values to about 2**7900: far past what a shoe of residues.EXACT_CARD_LIMIT cards and
                        * any hand graph make */

static inline Prime prime_of(int64_t p)
{
    Prime q = {(uint64_t)p, UINT64_MAX / (uint64_t)p};
    return q;
}

static inline int64_t red(uint64_t x, Prime q)
{
#ifdef __SIZEOF_INT128__
    uint64_t e = (uint64_t)(((unsigned __int128)x * q.m) >> 64);
    uint64_t r = x - e * q.p;
    if (r >= q.p)
        r -= q.p;
    if (r >= q.p)
        r -= q.p;
    return (int64_t)r;
#else
    return (int64_t)(x % q.p);
#endif
}

/* a * b mod p for residues a, b in [0, p) */
static inline int64_t mulmod(int64_t a, int64_t b, Prime q) { return red((uint64_t)a * (uint64_t)b, q); }

static void solve_layer_exact(const ExactJob *q, Py_ssize_t k)
{
    const Py_ssize_t C = q->copies, L = q->n_layers, P = q->n_primes, R = q->n_rows;
    const Py_ssize_t top1 = q->first + L + q->depth + 1;
    const int bj = q->bj_rank;
    const Py_ssize_t a = q->starts[k], n_k = q->starts[k + 1] - a;
    const Py_ssize_t width = k + 1 < L ? q->starts[k + 2] - q->starts[k + 1] : 0;
    const int no_child = width == 0;
    const Py_ssize_t size = q->first + k;
    const int is_double = k == q->double_layer;
    Prime primes[MAX_PRIMES];
    for (Py_ssize_t t = 0; t < P; t++)
        primes[t] = prime_of(q->primes[t]);
    for (Py_ssize_t i = 0; i < n_k; i++) {
        const Py_ssize_t row = a + i;
        const int64_t *cnt = q->counts + row * RANKS;
        const Py_ssize_t *kids = q->children + row * RANKS;
        Py_ssize_t child[RANKS];
        for (int r = 0; r < RANKS; r++) {
            const Py_ssize_t c = no_child ? -1 : kids[r];
            child[r] = (size_t)c < (size_t)width ? c : -1;
        }
        for (Py_ssize_t j = 0; j < C; j++) {
            const int64_t *shoe = q->shoes + j * RANKS;
            const Py_ssize_t at = a * C + j * n_k + i;
            const Py_ssize_t next0 = no_child ? 0 : q->starts[k + 1] * C + j * width;
            int64_t left[RANKS];
            for (int r = 0; r < RANKS; r++) {
                const int64_t d = shoe[r] - cnt[r];
                left[r] = d > 0 ? d : 0;
            }
            /* the blackjack rank's cards left, which is negative in a state that holds more of
             * them than the shoe has (a state no deal reaches, whose values are those of the
             * float loop's arithmetic all the same); below 2**28 either way, so one prime added
             * brings it and one less into [0, p) */
            const int64_t bj_left = bj >= 0 ? shoe[bj] - cnt[bj] : 0;
            const int64_t chosen = q->decision[at];
            for (Py_ssize_t t = 0; t < P; t++) {
                const Prime pr = primes[t];
                const int64_t p = q->primes[t];
                const int64_t loss = red((uint64_t)q->loss, pr), both_loss = red((uint64_t)q->both_loss, pr);
                const Py_ssize_t o = at * P + t; /* this row's residue modulo this prime */
                const int64_t *suffix = q->suffixes + j * top1 * P + t; /* stride P */
                const int64_t g = suffix[(size + 1) * P], unit = g, unit_next = suffix[(size + 2) * P];
                const int64_t lift = size >= 2 ? suffix[(size + q->depth) * P] : 0;
                const int64_t *wt = q->weights ? q->weights + q->weight_row[j * R + row] * WEIGHTS * P + t : NULL;
                const int64_t not_bj = mulmod(q->stand_in[(j * R + row) * P + t], lift, pr);
                const int64_t bj_res = bj_left >= 0 ? bj_left : bj_left + p;
                const int64_t bj1_res = bj_left >= 1 ? bj_left - 1 : bj_left - 1 + p;
                int64_t bjv = bj >= 0 && size >= 2 ? mulmod(bj_res, unit, pr) : 0;
                if (wt && bj >= 0)
                    bjv = mulmod(bjv, wt[W_BJ * P], pr);
                int64_t stand, doubled;
                if (q->peeked) {
                    stand = not_bj;
                    doubled = red((uint64_t)(2 * not_bj), pr);
                } else {
                    stand = red((uint64_t)(p + not_bj - mulmod(bjv, loss, pr)), pr);
                    doubled = red((uint64_t)(p + 2 * not_bj - mulmod(bjv, both_loss, pr)), pr);
                }
                q->stand[o] = stand;
                q->blackjack[o] = bjv;
                q->doubled[o] = doubled;
                const int64_t cbj = bj >= 0 ? mulmod(bj_res, unit_next, pr) : 0;
                const int64_t cbj1 = bj >= 0 ? mulmod(bj1_res, unit_next, pr) : 0;
                /* a draw that busts (worked out only for the ranks left that bust): the bet at
                 * the next layer's scale where the dealer has no blackjack, with no hole card
                 * `loss` of it where the dealer has one; bust2 doubled */
                int64_t bust[RANKS], bust2[RANKS];
                for (int r = 0; r < RANKS; r++) {
                    bust[r] = bust2[r] = 0;
                    if (child[r] >= 0 || left[r] == 0)
                        continue;
                    const int64_t g_r = wt ? mulmod(g, wt[(W_DRAW + r) * P], pr) : g;
                    int64_t cbj_r = r == bj ? cbj1 : cbj;
                    if (wt && bj >= 0)
                        cbj_r = mulmod(cbj_r, wt[(W_DRAW_BJ + r) * P], pr);
                    const int64_t free_r = red((uint64_t)(p + g_r - cbj_r), pr); /* g - cbj */
                    if (q->peeked) {
                        bust[r] = red((uint64_t)(p - free_r), pr);
                        bust2[r] = red((uint64_t)(2 * p - 2 * free_r), pr);
                    } else {
                        bust[r] = red((uint64_t)(2 * p - free_r - mulmod(cbj_r, loss, pr)), pr);
                        bust2[r] = red((uint64_t)(3 * p - 2 * free_r - mulmod(cbj_r, both_loss, pr)), pr);
                    }
                }
                const int64_t *next = q->best + next0 * P + t;
                uint64_t sum = 0;
                for (int r = 0; r < RANKS; r++)
                    sum += (uint64_t)left[r] * (uint64_t)(child[r] >= 0 ? next[child[r] * P] : bust[r]);
                const int64_t hit = red(sum, pr);
                q->hit[o] = hit;
                int64_t dbl = 0;
                if (is_double) {
                    const int64_t *dnext = q->doubled + next0 * P + t, *snext = q->stand + next0 * P + t;
                    uint64_t s2 = 0, s1 = 0;
                    for (int r = 0; r < RANKS; r++) {
                        s2 += (uint64_t)left[r] * (uint64_t)(child[r] >= 0 ? dnext[child[r] * P] : bust2[r]);
                        s1 += (uint64_t)left[r] * (uint64_t)(child[r] >= 0 ? snext[child[r] * P] : bust[r]);
                    }
                    dbl = red(s2, pr);
                    q->dbl[(j * n_k + i) * P + t] = dbl;
                    q->one_card[(j * n_k + i) * P + t] = red(s1, pr);
                }
                int64_t value = chosen == HIT ? hit : stand;
                if (is_double && chosen == DOUBLE)
                    value = dbl;
                q->best[o] = value;
            }
        }
    }
}

#define NX_ARRAYS 17

/* solve_exact(counts, children, starts, shoes, stand_in, suffixes, primes, decision,
 *             stand, blackjack, hit, best, doubled, double, one_card, weight_row, weights,
 *             first, bj_rank, peeked, loss, double_loss, double_layer, depth, layer)
 * One layer of the exact pass in residues. counts, children, starts, shoes as for solve;
 * stand_in int64 (P, C, R): the dealer's stand numerators mod each prime; suffixes int64
 * (P, C, first + L + depth + 1): the shoes' falling factorials mod each prime; primes int64 (P),
 * each below 2**31; decision int64 (C * R) stacked: the play of every state; outputs int64
 * (P, C * R) stacked (doubled: the doubled stand values, which the double layer reads from the
 * layer after it); double and one_card int64 (P, C * rows of the double layer) or None;
 * weight_row int64 (C, R) and weights int64 (P, entries, WEIGHTS) mod each prime, or None. */
static PyObject *solve_exact(PyObject *self, PyObject *args)
{
    PyObject *objs[NX_ARRAYS] = {NULL};
    int first, bj_rank, peeked, loss, double_loss, double_layer, depth, layer;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOOiiiiiiii", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &objs[8], &objs[9], &objs[10], &objs[11], &objs[12],
                          &objs[13], &objs[14], &objs[15], &objs[16], &first, &bj_rank, &peeked, &loss,
                          &double_loss, &double_layer, &depth, &layer))
        return NULL;
    static const Py_ssize_t itemsize[NX_ARRAYS] = {8, sizeof(Py_ssize_t), 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
    static const int optional[NX_ARRAYS] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    static const int writable[NX_ARRAYS] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0};
    Py_buffer views[NX_ARRAYS];
    int held[NX_ARRAYS] = {0};
    PyObject *result = NULL;
    if (take_views(objs, NX_ARRAYS, itemsize, optional, writable, views, held) < 0)
        goto done;
    ExactJob q;
    q.n_rows = views[0].len / (Py_ssize_t)(sizeof(int64_t) * RANKS);
    q.n_layers = views[2].len / (Py_ssize_t)sizeof(int64_t) - 1;
    q.copies = views[3].len / (Py_ssize_t)(sizeof(int64_t) * RANKS);
    q.n_primes = views[6].len / 8;
    q.first = first;
    q.depth = depth;
    q.counts = views[0].buf;
    q.children = views[1].buf;
    q.starts = views[2].buf;
    q.shoes = views[3].buf;
    q.stand_in = views[4].buf;
    q.suffixes = views[5].buf;
    q.primes = views[6].buf;
    q.decision = views[7].buf;
    q.stand = views[8].buf;
    q.blackjack = views[9].buf;
    q.hit = views[10].buf;
    q.best = views[11].buf;
    q.doubled = views[12].buf;
    q.dbl = held[13] ? views[13].buf : NULL;
    q.one_card = held[14] ? views[14].buf : NULL;
    q.weight_row = held[15] ? views[15].buf : NULL;
    q.weights = held[16] ? views[16].buf : NULL;
    q.bj_rank = bj_rank;
    q.peeked = peeked;
    q.loss = loss;
    q.both_loss = (int64_t)loss + double_loss;
    q.double_layer = double_layer;
    const Py_ssize_t R = q.n_rows, C = q.copies, L = q.n_layers, P = q.n_primes;
    int ok = L >= 1 && P >= 1 && views[0].len == R * RANKS * 8
             && views[1].len == R * RANKS * (Py_ssize_t)sizeof(Py_ssize_t) && views[3].len == C * RANKS * 8
             && q.starts[0] == 0 && q.starts[L] == R && first >= 0 && depth >= 1 && views[4].len == P * C * R * 8
             && views[5].len == P * C * (first + L + depth + 1) * 8 && views[7].len == C * R * 8 && bj_rank >= -1
             && bj_rank < RANKS && double_layer >= -1 && double_layer < L && layer >= 0 && layer < L;
    for (int i = 8; ok && i < 13; i++)
        ok = views[i].len == P * C * R * 8;
    for (Py_ssize_t k = 0; ok && k < L; k++)
        ok = q.starts[k] <= q.starts[k + 1];
    ok = ok && P <= MAX_PRIMES;
    for (Py_ssize_t t = 0; ok && t < P; t++)
        ok = q.primes[t] >= 2 && q.primes[t] < ((int64_t)1 << 31);
    for (Py_ssize_t i = 0; ok && i < C * RANKS; i++)
        ok = q.shoes[i] >= 0 && q.shoes[i] < ((int64_t)1 << 28);
    q.entries = 0;
    if (ok && (held[15] || held[16])) {
        q.entries = held[16] ? views[16].len / (P * WEIGHTS * 8) : 0;
        ok = held[15] && held[16] && views[15].len == C * R * 8 && views[16].len == P * q.entries * WEIGHTS * 8;
        for (Py_ssize_t i = 0; ok && i < C * R; i++)
            ok = q.weight_row[i] >= 0 && q.weight_row[i] < q.entries;
    }
    q.n_double = 0;
    if (ok && double_layer >= 0) {
        q.n_double = q.starts[double_layer + 1] - q.starts[double_layer];
        ok = held[13] && held[14] && views[13].len == P * C * q.n_double * 8 && views[14].len == P * C * q.n_double * 8;
    }
    /* the plays this layer reads */
    for (Py_ssize_t i = q.starts[layer] * C; ok && i < q.starts[layer + 1] * C; i++)
        ok = q.decision[i] >= STAND && q.decision[i] <= DOUBLE;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "player kernel: arrays of inconsistent sizes");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    solve_layer_exact(&q, layer);
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    release_views(views, held, NX_ARRAYS);
    return result;
}

/* stand_residues(halves, columns, pay_column, pay, primes, floats, residues)
 * The dealer's stand numerators of exact mode, from the compiled dealer's 128-bit outcome
 * numerators (bjcalc.engine.batch): row i stands on pay column pay_column[i] against the dealer
 * of column columns[i]; floats[i] gets sum_o pay[o, c] * N_o as a float, residues[i, t] the same
 * modulo primes[t]. halves uint64 (columns, O, 2) [high, low], columns intp (n), pay_column int64
 * (n), pay int64 (O, D), primes int64 (P), floats float64 (n), residues int64 (n, P). */
static PyObject *stand_residues(PyObject *self, PyObject *args)
{
    PyObject *objs[7];
    if (!PyArg_ParseTuple(args, "OOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5], &objs[6]))
        return NULL;
    static const Py_ssize_t itemsize[7] = {8, sizeof(Py_ssize_t), 8, 8, 8, 8, 8};
    static const int writable[7] = {0, 0, 0, 0, 0, 1, 1};
    Py_buffer views[7];
    int held[7] = {0};
    PyObject *result = NULL;
    if (take_views(objs, 7, itemsize, NULL, writable, views, held) < 0)
        goto done;
    const uint64_t *halves = views[0].buf;
    const Py_ssize_t *columns = views[1].buf;
    const int64_t *pay_column = views[2].buf, *pay = views[3].buf, *primes_in = views[4].buf;
    double *floats = views[5].buf;
    int64_t *residues = views[6].buf;
    const Py_ssize_t n = views[1].len / (Py_ssize_t)sizeof(Py_ssize_t), P = views[4].len / 8;
    const Py_ssize_t O = views[3].ndim == 2 ? views[3].shape[0] : -1, D = views[3].ndim == 2 ? views[3].shape[1] : -1;
    const Py_ssize_t n_columns = O > 0 ? views[0].len / (O * 16) : 0;
    int ok = O > 0 && D > 0 && P >= 1 && P <= MAX_PRIMES && views[0].len == n_columns * O * 16
             && views[2].len == n * 8 && views[5].len == n * 8 && views[6].len == n * P * 8;
    for (Py_ssize_t t = 0; ok && t < P; t++)
        ok = primes_in[t] >= 2 && primes_in[t] < ((int64_t)1 << 31);
    for (Py_ssize_t i = 0; ok && i < n; i++)
        ok = (size_t)columns[i] < (size_t)n_columns && pay_column[i] >= 0 && pay_column[i] < D;
    for (Py_ssize_t i = 0; ok && i < O * D; i++)
        ok = pay[i] >= -1 && pay[i] <= 1;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "player kernel: arrays of inconsistent sizes");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    Prime primes[MAX_PRIMES];
    int64_t high_unit[MAX_PRIMES]; /* 2**64 mod p */
    for (Py_ssize_t t = 0; t < P; t++) {
        primes[t] = prime_of(primes_in[t]);
        high_unit[t] = (int64_t)((UINT64_MAX % (uint64_t)primes_in[t] + 1) % (uint64_t)primes_in[t]);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        const uint64_t *h = halves + columns[i] * O * 2;
        double f = 0.0;
        for (Py_ssize_t o = 0; o < O; o++) {
            const int64_t w = pay[o * D + pay_column[i]];
            if (w)
                f += (double)w * ((double)h[2 * o] * 18446744073709551616.0 + (double)h[2 * o + 1]);
        }
        floats[i] = f;
        for (Py_ssize_t t = 0; t < P; t++) {
            const Prime pr = primes[t];
            uint64_t acc = 0; /* below 2 p O: the pays are -1, 0 or 1 */
            for (Py_ssize_t o = 0; o < O; o++) {
                const int64_t w = pay[o * D + pay_column[i]];
                if (!w)
                    continue;
                const int64_t x = red((uint64_t)mulmod(red(h[2 * o], pr), high_unit[t], pr) + red(h[2 * o + 1], pr), pr);
                acc += (uint64_t)(w > 0 ? x : (int64_t)pr.p - x);
            }
            residues[i * P + t] = red(acc, pr);
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    release_views(views, held, 7);
    return result;
}

/* rebuild(residues, primes, inverses, product, half, out)
 * The integers in (-M/2, M/2] (M the primes' product) of the residues: Garner's mixed-radix
 * digits, then Horner's rule in 32-bit limbs, written as little-endian two's complement of W
 * limbs each. residues int64 (n, P), primes int64 (P), inverses int64 (P, P): p_s^-1 mod p_t
 * for s < t, product and half uint32 (W): M and floor(M / 2), out uint32 (n, W). W must leave
 * a sign bit above M. */
static PyObject *rebuild(PyObject *self, PyObject *args)
{
    PyObject *objs[6];
    if (!PyArg_ParseTuple(args, "OOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5]))
        return NULL;
    static const Py_ssize_t itemsize[6] = {8, 8, 8, 4, 4, 4};
    static const int writable[6] = {0, 0, 0, 0, 0, 1};
    Py_buffer views[6];
    int held[6] = {0};
    PyObject *result = NULL;
    if (take_views(objs, 6, itemsize, NULL, writable, views, held) < 0)
        goto done;
    const int64_t *residues = views[0].buf, *primes_in = views[1].buf, *inverses = views[2].buf;
    const uint32_t *product = views[3].buf, *half = views[4].buf;
    uint32_t *out = views[5].buf;
    const Py_ssize_t P = views[1].len / 8, W = views[3].len / 4;
    const Py_ssize_t n = P > 0 ? views[0].len / (P * 8) : 0;
    int ok = P >= 1 && P <= MAX_PRIMES && W >= 1 && views[0].len == n * P * 8 && views[2].len == P * P * 8
             && views[4].len == W * 4 && views[5].len == n * W * 4 && (product[W - 1] >> 31) == 0;
    for (Py_ssize_t t = 0; ok && t < P; t++)
        ok = primes_in[t] >= 2 && primes_in[t] < ((int64_t)1 << 31);
    for (Py_ssize_t i = 0; ok && i < n * P; i++)
        ok = residues[i] >= 0 && residues[i] < primes_in[i % P];
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "player kernel: arrays of inconsistent sizes");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    Prime primes[MAX_PRIMES];
    int64_t digit[MAX_PRIMES];
    for (Py_ssize_t t = 0; t < P; t++)
        primes[t] = prime_of(primes_in[t]);
    for (Py_ssize_t i = 0; i < n; i++) {
        const int64_t *r = residues + i * P;
        /* x = d_0 + d_1 p_0 + d_2 p_0 p_1 + ..., each d_t in [0, p_t) */
        for (Py_ssize_t t = 0; t < P; t++) {
            int64_t x = r[t];
            const int64_t p = primes_in[t];
            for (Py_ssize_t u = 0; u < t; u++) {
                const int64_t d = red((uint64_t)digit[u], primes[t]);
                x = mulmod(x >= d ? x - d : x - d + p, inverses[u * P + t], primes[t]);
            }
            digit[t] = x;
        }
        uint32_t *acc = out + i * W;
        memset(acc, 0, sizeof(uint32_t) * (size_t)W);
        for (Py_ssize_t t = P - 1; t >= 0; t--) {
            /* acc = acc * p_t + d_t (acc is zero before the first step) */
            uint64_t carry = (uint64_t)digit[t];
            const uint64_t m = t + 1 < P ? (uint64_t)primes_in[t] : 0;
            for (Py_ssize_t w = 0; w < W; w++) {
                const uint64_t v = (uint64_t)acc[w] * m + carry;
                acc[w] = (uint32_t)v;
                carry = v >> 32;
            }
        }
        /* above half: acc - M, negative, in two's complement */
        int above = 0;
        for (Py_ssize_t w = W - 1; w >= 0; w--)
            if (acc[w] != half[w]) {
                above = acc[w] > half[w];
                break;
            }
        if (above) {
            int64_t borrow = 0;
            for (Py_ssize_t w = 0; w < W; w++) {
                int64_t v = (int64_t)acc[w] - (int64_t)product[w] - borrow;
                borrow = v < 0;
                acc[w] = (uint32_t)(v + (borrow ? ((int64_t)1 << 32) : 0));
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    release_views(views, held, 6);
    return result;
}

/* reached(children, starts, decisions, first, limit, double_layer, reached)
 * The rows of a hand graph that solve's roots_only works out for any of G fixed plays:
 * children intp (R, 10), starts int64 (L + 1), decisions int64 (G, R), reached uint8 (R), set
 * to 1 where some play reaches the row (mark_needed). */
static PyObject *reached(PyObject *self, PyObject *args)
{
    PyObject *objs[4];
    int first, limit, double_layer;
    if (!PyArg_ParseTuple(args, "OOOiiiO", &objs[0], &objs[1], &objs[2], &first, &limit, &double_layer, &objs[3]))
        return NULL;
    static const Py_ssize_t itemsize[4] = {sizeof(Py_ssize_t), 8, 8, 1};
    static const int writable[4] = {0, 0, 0, 1};
    Py_buffer views[4];
    int held[4] = {0};
    uint8_t *scratch = NULL;
    PyObject *result = NULL;
    if (take_views(objs, 4, itemsize, NULL, writable, views, held) < 0)
        goto done;
    Job q;
    memset(&q, 0, sizeof q);
    q.n_rows = views[3].len;
    q.n_layers = views[1].len / (Py_ssize_t)sizeof(int64_t) - 1;
    q.first = first;
    q.starts = views[1].buf;
    q.children = views[0].buf;
    q.limit = limit;
    q.double_layer = double_layer;
    q.decisions = views[2].buf;
    q.per_group = 1;
    q.copies = q.n_rows ? views[2].len / (Py_ssize_t)sizeof(int64_t) / q.n_rows : 0;
    const Py_ssize_t R = q.n_rows, L = q.n_layers;
    int ok = L >= 1 && views[0].len == R * RANKS * (Py_ssize_t)sizeof(Py_ssize_t) && q.starts[0] == 0
             && q.starts[L] == R && q.copies >= 1 && views[2].len == q.copies * R * 8 && double_layer >= -1
             && double_layer < L;
    for (Py_ssize_t k = 0; ok && k < L; k++)
        ok = q.starts[k] <= q.starts[k + 1];
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "player kernel: reached: arrays of inconsistent sizes");
        goto done;
    }
    scratch = malloc((size_t)(R > 0 ? R : 1));
    if (!scratch) {
        PyErr_NoMemory();
        goto done;
    }
    mark_needed(&q, views[3].buf, scratch);
    result = Py_None;
    Py_INCREF(result);
done:
    free(scratch);
    release_views(views, held, 4);
    return result;
}

static PyMethodDef methods[] = {
    {"solve", solve, METH_VARARGS, "The float player pass over several shoes."},
    {"reached", reached, METH_VARARGS, "The rows of a hand graph that some fixed play reaches."},
    {"solve_exact", solve_exact, METH_VARARGS, "One layer of the exact player pass, in residues modulo primes."},
    {"stand_residues", stand_residues, METH_VARARGS, "Exact stand numerators as floats and residues."},
    {"rebuild", rebuild, METH_VARARGS, "Signed integers from residues (Chinese remainder theorem), as limbs."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_player_kernel",
                                    "Compiled float player pass (see bjcalc.engine.values).", -1, methods};

PyMODINIT_FUNC PyInit__player_kernel(void) { return PyModule_Create(&module); }
