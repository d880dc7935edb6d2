/* The split's sign tables of bjcalc.engine.moments, compiled: every ordered pair of one split
 * hand's terminal states, by the multiset both hands drew, counted (orders times orders) by the
 * sign of the two hands' total result against each dealer outcome. It computes what
 * bjcalc.engine.moments._SplitSquare._sign_tables computes with numpy, where the pairs of a
 * hand that draws a lot (2,2 against a 7: two thousand states, four million pairs) cost a sort
 * of every pair's multiset and three bincounts per outcome.
 *
 * Here the pairs are visited once each, half of them: the multiset and the signs of (i, j) are
 * those of (j, i), so (i, j) with i < j counts twice. A hash table (open addressing, linear
 * probing) numbers the multisets as they are met. Integers throughout: the tables are counts of
 * orders, which the caller checks stay below 2^53 (as the numpy version, which sums floats,
 * needs), so the two agree integer for integer.
 *
 * joint_tables does the same walk for the second moment's product tables (two hands' sums of
 * orders times result, multiplied outcome by outcome), several combinations of the hands' orders
 * at once, where the numpy version sorted all n^2 pairs' multisets once and kept their index.
 * It takes the pairs bucket by bucket (a bucket of multisets: their points and cards), so that
 * the table's part in use stays in cache, and sums in doubles (exact below 2^53).
 *
 * residue_dots takes an exact split moment's sums (a composition shoe's dealer numerators times
 * the chance of the hands' cards, times each table) modulo primes below 2^31, in one pass over
 * the tables' rows, where the numpy version made a dozen passes over them per prime.
 *
 * Only the Python C API's buffer protocol is used (no numpy headers), and the module is an
 * optional build: without it bjcalc runs the numpy version.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SKIP 2 /* a sign entry for an outcome the frame leaves out: counted nowhere */

typedef struct {
    int64_t *keys;   /* per slot: the multiset's key, -1 where empty */
    int32_t *entry;  /* per slot: the multiset's entry in the tables */
    size_t mask;     /* slots - 1 (a power of two) */
    int64_t *found;  /* per entry: its key, in the order met */
    int64_t *tables; /* per entry: `width` integers (sign_tables: n_out x 3 counts, sign -1, 0, 1) */
    size_t count, room;
    size_t width;
    size_t base; /* entries before it are finished (a bucket of joint_tables): no longer in the slots */
} Table;

static size_t slot_of(int64_t key, size_t mask)
{
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> 17) & mask;
}

/* Double the slots (and rehash) or the entries' room; 0 on success. */
static int grow_slots(Table *t)
{
    size_t slots = 2 * (t->mask + 1);
    int64_t *keys = malloc(sizeof(int64_t) * slots);
    int32_t *entry = malloc(sizeof(int32_t) * slots);
    if (!keys || !entry) {
        free(keys), free(entry);
        return -1;
    }
    memset(keys, 0xff, sizeof(int64_t) * slots);
    for (size_t e = t->base; e < t->count; e++) {
        size_t s = slot_of(t->found[e], slots - 1);
        while (keys[s] >= 0)
            s = (s + 1) & (slots - 1);
        keys[s] = t->found[e];
        entry[s] = (int32_t)e;
    }
    free(t->keys), free(t->entry);
    t->keys = keys, t->entry = entry, t->mask = slots - 1;
    return 0;
}

static int grow_room(Table *t)
{
    size_t room = 2 * t->room;
    int64_t *found = realloc(t->found, sizeof(int64_t) * room);
    if (!found)
        return -1;
    t->found = found;
    int64_t *tables = realloc(t->tables, sizeof(int64_t) * t->width * room);
    if (!tables)
        return -1;
    t->tables = tables;
    t->room = room;
    return 0;
}

/* An empty table of entries `width` integers wide; 0 when out of memory (then table_free). */
static int table_init(Table *t, size_t width)
{
    memset(t, 0, sizeof(*t));
    t->width = width;
    t->mask = (1u << 12) - 1;
    t->room = 1024;
    t->keys = malloc(sizeof(int64_t) * (t->mask + 1));
    t->entry = malloc(sizeof(int32_t) * (t->mask + 1));
    t->found = malloc(sizeof(int64_t) * t->room);
    t->tables = malloc(sizeof(int64_t) * width * t->room);
    if (!(t->keys && t->entry && t->found && t->tables))
        return 0;
    memset(t->keys, 0xff, sizeof(int64_t) * (t->mask + 1));
    return 1;
}

static void table_free(Table *t)
{
    free(t->keys), free(t->entry), free(t->found), free(t->tables);
}

/* A filled table as (found keys, tables) bytes, or MemoryError where `ok` is 0; frees it. */
static PyObject *table_result(Table *t, int ok)
{
    PyObject *out = NULL;
    if (!ok)
        PyErr_NoMemory();
    else
        out = Py_BuildValue("(y#y#)", (const char *)t->found, (Py_ssize_t)(sizeof(int64_t) * t->count),
                            (const char *)t->tables, (Py_ssize_t)(sizeof(int64_t) * t->width * t->count));
    table_free(t);
    return out;
}

/* A filled table of joint_tables as (keys, tables) bytes with the keys in increasing order and
 * the tables by combination: (combinations, multisets, outcomes), each combination's rows
 * contiguous (combination c is the table's block position[c]) (an LSD radix sort of the entries by key, 16 bits a pass; the keys are
 * non-negative). MemoryError where `ok` is 0 or memory runs out; frees the table. */
static PyObject *sorted_result(Table *t, int ok, int n_combos, int n_out, const int *position)
{
    size_t n = t->count;
    int64_t *order = ok ? malloc(sizeof(int64_t) * (2 * n + 1)) : NULL;
    size_t *counts = ok ? malloc(sizeof(size_t) << 16) : NULL;
    PyObject *keys = NULL, *tables = NULL, *out = NULL;
    if (order && counts) {
        keys = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(sizeof(int64_t) * n));
        tables = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(sizeof(int64_t) * t->width * n));
    }
    if (!order || !counts || !keys || !tables) {
        free(order), free(counts), Py_XDECREF(keys), Py_XDECREF(tables);
        table_free(t);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    int64_t *sorted_keys = (int64_t *)PyBytes_AS_STRING(keys), *into = (int64_t *)PyBytes_AS_STRING(tables);
    Py_BEGIN_ALLOW_THREADS
    int64_t *from = order, *to = order + n, top = 0;
    for (size_t e = 0; e < n; e++) {
        from[e] = (int64_t)e;
        top = t->found[e] > top ? t->found[e] : top;
    }
    for (int shift = 0; shift < 64 && (top >> shift) > 0; shift += 16) {
        memset(counts, 0, sizeof(size_t) << 16);
        for (size_t e = 0; e < n; e++)
            counts[(t->found[from[e]] >> shift) & 0xffff]++;
        size_t at = 0;
        for (size_t d = 0; d < (1 << 16); d++) {
            size_t c = counts[d];
            counts[d] = at;
            at += c;
        }
        for (size_t e = 0; e < n; e++)
            to[counts[(t->found[from[e]] >> shift) & 0xffff]++] = from[e];
        int64_t *swap = from;
        from = to;
        to = swap;
    }
    for (size_t k = 0; k < n; k++) {
        const int64_t *row = t->tables + (size_t)from[k] * t->width;
        sorted_keys[k] = t->found[from[k]];
        for (int c = 0; c < n_combos; c++)
            memcpy(into + ((size_t)c * n + k) * n_out, row + (size_t)position[c] * n_out, sizeof(int64_t) * n_out);
    }
    Py_END_ALLOW_THREADS
    free(order), free(counts);
    table_free(t);
    out = PyTuple_Pack(2, keys, tables);
    Py_DECREF(keys), Py_DECREF(tables);
    return out;
}

/* The counts of the multiset `key` (added, zeroed, where new); NULL when out of memory. */
static inline __attribute__((always_inline)) int64_t *counts_of(Table *t, int64_t key)
{
    size_t s = slot_of(key, t->mask);
    while (t->keys[s] >= 0) {
        if (t->keys[s] == key)
            return t->tables + (size_t)t->entry[s] * t->width;
        s = (s + 1) & t->mask;
    }
    if (t->count == t->room && grow_room(t) < 0)
        return NULL;
    size_t e = t->count++;
    t->found[e] = key;
    int64_t *counts = t->tables + e * t->width;
    memset(counts, 0, sizeof(int64_t) * t->width);
    if (2 * (t->count - t->base) > t->mask + 1) {
        if (grow_slots(t) < 0)
            return NULL;
    } else {
        t->keys[s] = key;
        t->entry[s] = (int32_t)e;
    }
    return counts;
}

/* Finish the entries from t->base on: their slots emptied (latest first, so that each one's
 * probe from its hash still meets only the slots filled before it), their sums kept. */
static void close_bucket(Table *t)
{
    for (size_t e = t->count; e-- > t->base;) {
        size_t s = slot_of(t->found[e], t->mask);
        while (t->keys[s] != t->found[e])
            s = (s + 1) & t->mask;
        t->keys[s] = -1;
    }
    t->base = t->count;
}

/* sign_tables(keys, classes, ways, signs, n_classes, n_out) -> (keys, tables) as bytes
 * keys, classes, ways: int64 (n,): each state's packed multiset drawn, class (its results
 * against the dealer's outcomes) and count of orders; signs: int8 (n_classes, n_classes,
 * n_out): the sign of two classes' total result at each outcome, or SKIP. Returns the distinct
 * multisets of the pairs (int64, in the order met) and per multiset, outcome and sign (-1, 0,
 * 1) the count of ordered pairs, int64 (multisets, n_out, 3). */
static PyObject *sign_tables(PyObject *self, PyObject *args)
{
    PyObject *objs[4];
    int n_classes, n_out;
    if (!PyArg_ParseTuple(args, "OOOOii", &objs[0], &objs[1], &objs[2], &objs[3], &n_classes, &n_out))
        return NULL;
    Py_buffer views[4];
    int got = 0;
    for (; got < 4; got++)
        if (PyObject_GetBuffer(objs[got], &views[got], PyBUF_C_CONTIGUOUS) < 0)
            goto fail;
    Py_ssize_t n = views[0].len / (Py_ssize_t)sizeof(int64_t);
    if (views[1].len != views[0].len || views[2].len != views[0].len
        || views[3].len != (Py_ssize_t)n_classes * n_classes * n_out || n_out <= 0) {
        PyErr_SetString(PyExc_ValueError, "sign_tables: inconsistent array sizes");
        goto fail;
    }
    const int64_t *keys = views[0].buf, *classes = views[1].buf, *ways = views[2].buf;
    const int8_t *signs = views[3].buf;
    Table t;
    int ok = table_init(&t, 3 * (size_t)n_out);
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        const int8_t *row = signs + (size_t)classes[i] * n_classes * n_out;
        for (Py_ssize_t j = i; j < n; j++) {
            int64_t w = ways[i] * ways[j] * (i == j ? 1 : 2);
            int64_t *counts = counts_of(&t, keys[i] + keys[j]);
            if (!counts) {
                ok = 0;
                break;
            }
            const int8_t *sign = row + (size_t)classes[j] * n_out;
            for (int o = 0; o < n_out; o++)
                if (sign[o] != SKIP)
                    counts[3 * o + sign[o] + 1] += w;
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *out = table_result(&t, ok);
    for (int k = 0; k < got; k++)
        PyBuffer_Release(&views[k]);
    return out;
fail:
    for (int k = 0; k < got; k++)
        PyBuffer_Release(&views[k]);
    return NULL;
}

/* The bucket of each of n packed multisets (16 x points + cards, its largest in *most) and the
 * multisets by bucket: order[start[f] .. start[f + 1] - 1] are those of bucket f, in index
 * order (malloc'd; -1 where memory runs out). */
static int buckets(const int64_t *keys, Py_ssize_t n, int32_t **order, int32_t **start, int *most)
{
    int *of = malloc(sizeof(int) * ((size_t)n + 1));
    if (!of)
        return -1;
    int top = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int points = 0, cards = 0;
        for (int r = 0; r < 10; r++) {
            int count = (int)((keys[i] >> (6 * r)) & 63);
            points += (r + 1) * count;
            cards += count;
        }
        of[i] = 16 * points + cards;
        top = of[i] > top ? of[i] : top;
    }
    *order = malloc(sizeof(int32_t) * ((size_t)n + 1));
    *start = calloc((size_t)top + 2, sizeof(int32_t));
    if (!*order || !*start) {
        free(of), free(*order), free(*start);
        *order = *start = NULL;
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        (*start)[of[i] + 1]++;
    for (int f = 0; f <= top; f++)
        (*start)[f + 1] += (*start)[f];
    int32_t *fill = malloc(sizeof(int32_t) * ((size_t)top + 1));
    if (!fill) {
        free(of), free(*order), free(*start);
        *order = *start = NULL;
        return -1;
    }
    memcpy(fill, *start, sizeof(int32_t) * ((size_t)top + 1));
    for (Py_ssize_t i = 0; i < n; i++)
        (*order)[fill[of[i]]++] = (int32_t)i;
    free(fill), free(of);
    *most = top;
    return 0;
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define MULTIVERSION __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define MULTIVERSION
#endif

/* joint_tables' walk over the pairs, bucket by bucket (see there), in doubles (every sum is an
 * integer below 2^53, which the caller checks, so exact): rows of `width` (combinations x
 * outcomes) per multiset, `live` where a row has a non-zero entry. Symmetric, the columns
 * before `cross` are the self-symmetric combinations' (left and right the same), which
 * `doubled` (the right rows with those columns twice over) counts in both orders at once.
 * 0 when out of memory. */
MULTIVERSION
static int joint_pairs(Table *t, const int64_t *keys_a, const int64_t *keys_b, const double *left,
                       const double *right, const double *doubled, size_t cross, const char *live_a,
                       const char *live_b, size_t width, int symmetric, const int32_t *order_a,
                       const int32_t *start_a, int max_a, const int32_t *order_b, const int32_t *start_b, int max_b)
{
    for (int sum = 0; sum <= max_a + max_b; sum++) {
        int lo = sum - max_b > 0 ? sum - max_b : 0, hi = sum < max_a ? sum : max_a;
        for (int fa = lo; fa <= hi; fa++) {
            int fb = sum - fa;
            if (symmetric && fb < fa)
                break;
            for (int32_t p = start_a[fa]; p < start_a[fa + 1]; p++) {
                Py_ssize_t i = order_a[p];
                /* symmetric: each unordered pair once (within one bucket, from i on) */
                for (int32_t q = symmetric && fa == fb ? p : start_b[fb]; q < start_b[fb + 1]; q++) {
                    Py_ssize_t j = order_b[q];
                    int64_t *sums = counts_of(t, keys_a[i] + keys_b[j]);
                    if (!sums)
                        return 0;
                    double *restrict out = (double *)sums; /* zeroed bits: 0.0 */
                    /* (i, j) and, symmetric, (j, i): the self-symmetric blocks' two products are
                     * equal, so (i, j)'s against the doubled rows counts both; the others' (j, i)
                     * is added from column `cross` on */
                    const int both = symmetric && i != j;
                    if (live_a[i] && live_b[j]) {
                        const double *restrict x = left + (size_t)i * width;
                        const double *restrict y = (both ? doubled : right) + (size_t)j * width;
                        for (size_t w = 0; w < width; w++)
                            out[w] += x[w] * y[w];
                    }
                    if (both && live_a[j] && live_b[i]) {
                        const double *restrict x = left + (size_t)j * width, *restrict y = right + (size_t)i * width;
                        for (size_t w = cross; w < width; w++)
                            out[w] += x[w] * y[w];
                    }
                }
            }
        }
        close_bucket(t);
    }
    return 1;
}

/* joint_tables(keys_a, keys_b, left, right, n_combos, n_out, symmetric) -> (keys, tables) as bytes
 * keys_a (na,), keys_b (nb,): int64, the packed multisets two hands drew; left (na, n_combos,
 * n_out), right (nb, n_combos, n_out): int64, per combination c the first hand's and the second
 * hand's sums (orders times result) per multiset and dealer outcome. Returns every multiset
 * keys_a[i] + keys_b[j] (int64, increasing) and per combination, multiset and outcome the
 * sum over (i, j) of left[i, c, o] * right[j, c, o], int64 (n_combos, multisets, n_out): what
 * _SplitSquare.table's numpy version sums per outcome with bincounts, integer for integer
 * (the caller checks the sums stay below 2^53). ``symmetric``: the two hands are the same
 * states (keys_a is keys_b), and each unordered pair {i, j} is visited once, adding both
 * orders. Rows of zeros are skipped, but their pairs' multisets are still met. */
static PyObject *joint_tables(PyObject *self, PyObject *args)
{
    PyObject *objs[4];
    int n_combos, n_out, symmetric;
    if (!PyArg_ParseTuple(args, "OOOOiii", &objs[0], &objs[1], &objs[2], &objs[3], &n_combos, &n_out, &symmetric))
        return NULL;
    Py_buffer views[4];
    int got = 0;
    for (; got < 4; got++)
        if (PyObject_GetBuffer(objs[got], &views[got], PyBUF_C_CONTIGUOUS) < 0)
            goto fail;
    Py_ssize_t na = views[0].len / (Py_ssize_t)sizeof(int64_t), nb = views[1].len / (Py_ssize_t)sizeof(int64_t);
    size_t width = (size_t)n_combos * (size_t)n_out;
    if (n_combos <= 0 || n_out <= 0 || views[2].len != (Py_ssize_t)(sizeof(int64_t) * width * (size_t)na)
        || views[3].len != (Py_ssize_t)(sizeof(int64_t) * width * (size_t)nb) || (symmetric && na != nb)) {
        PyErr_SetString(PyExc_ValueError, "joint_tables: inconsistent array sizes");
        goto fail;
    }
    const int64_t *keys_a = views[0].buf, *keys_b = views[1].buf, *left = views[2].buf, *right = views[3].buf;
    Table t;
    int ok = table_init(&t, width);
    /* each row in doubles, and whether it has a non-zero entry */
    char *live_a = malloc((size_t)na + 1), *live_b = malloc((size_t)nb + 1);
    double *left_d = malloc(sizeof(double) * (width * (size_t)na + 1));
    double *right_d = malloc(sizeof(double) * (width * (size_t)nb + 1));
    double *doubled_d = malloc(sizeof(double) * (width * (size_t)nb + 1));
    int *position = malloc(sizeof(int) * ((size_t)n_combos + 1));
    char *self_sym = malloc((size_t)n_combos + 1);
    ok = ok && live_a && live_b && left_d && right_d && doubled_d && position && self_sym;
    int32_t *order_a = NULL, *start_a = NULL, *order_b = NULL, *start_b = NULL;
    int max_a = 0, max_b = 0;
    Py_BEGIN_ALLOW_THREADS
    size_t cross = 0; /* symmetric: the self-symmetric combinations' columns come first */
    if (ok) {
        int n_self = 0;
        for (int c = 0; c < n_combos; c++) { /* a combination is self-symmetric where left and right agree */
            int same = symmetric;
            for (Py_ssize_t i = 0; same && i < na; i++)
                same = memcmp(left + (size_t)i * width + (size_t)c * n_out, right + (size_t)i * width + (size_t)c * n_out,
                              sizeof(int64_t) * (size_t)n_out) == 0;
            self_sym[c] = (char)same;
            n_self += same;
        }
        int next_self = 0, next_other = n_self;
        for (int c = 0; c < n_combos; c++)
            position[c] = self_sym[c] ? next_self++ : next_other++;
        cross = (size_t)n_self * (size_t)n_out;
        for (Py_ssize_t i = 0; i < na; i++) {
            char any = 0;
            for (int c = 0; c < n_combos; c++)
                for (int o = 0; o < n_out; o++) {
                    int64_t v = left[(size_t)i * width + (size_t)c * n_out + o];
                    any |= v != 0;
                    left_d[(size_t)i * width + (size_t)position[c] * n_out + o] = (double)v;
                }
            live_a[i] = any;
        }
        for (Py_ssize_t j = 0; j < nb; j++) {
            char any = 0;
            for (int c = 0; c < n_combos; c++)
                for (int o = 0; o < n_out; o++) {
                    int64_t v = right[(size_t)j * width + (size_t)c * n_out + o];
                    size_t at = (size_t)j * width + (size_t)position[c] * n_out + o;
                    any |= v != 0;
                    right_d[at] = (double)v;
                    doubled_d[at] = self_sym[c] ? 2.0 * (double)v : (double)v;
                }
            live_b[j] = any;
        }
    }
    /* The pairs by bucket: a multiset's bucket is 16 x its points (an ace 1) + its cards, which
     * adds up, so the pairs of a bucket of the first hand's multisets and one of the second's all
     * fall in one bucket of the sums. Bucket by bucket, the table's slots and sums in use are
     * only that bucket's, which stay in cache; one table over every pair at once missed the cache
     * at nearly every pair (2,2 against a 7, 8 decks: 2.2 million pairs, 161,752 multisets). */
    if (ok) {
        ok = buckets(keys_a, na, &order_a, &start_a, &max_a) == 0;
        if (symmetric)
            order_b = order_a, start_b = start_a, max_b = max_a;
        else
            ok = ok && buckets(keys_b, nb, &order_b, &start_b, &max_b) == 0;
    }
    if (ok)
        ok = joint_pairs(&t, keys_a, keys_b, left_d, right_d, doubled_d, cross, live_a, live_b, width, symmetric,
                         order_a, start_a, max_a, order_b, start_b, max_b);
    for (size_t k = 0; ok && k < t.count * width; k++) { /* the sums back to integers */
        double sum;
        memcpy(&sum, t.tables + k, sizeof(sum));
        t.tables[k] = (int64_t)sum;
    }
    Py_END_ALLOW_THREADS
    PyObject *out = sorted_result(&t, ok, n_combos, n_out, position);
    free(live_a), free(live_b), free(left_d), free(right_d), free(doubled_d), free(position), free(self_sym);
    free(order_a), free(start_a);
    if (!symmetric)
        free(order_b), free(start_b);
    for (int k = 0; k < got; k++)
        PyBuffer_Release(&views[k]);
    return out;
fail:
    for (int k = 0; k < got; k++)
        PyBuffer_Release(&views[k]);
    return NULL;
}

/* x mod p by Barrett reduction, for any x < 2^64 and p < 2^31: m = floor((2^64 - 1) / p) makes the
 * quotient estimate short by at most 2. */
static inline uint64_t red(uint64_t x, uint64_t p, uint64_t m)
{
#ifdef __SIZEOF_INT128__
    uint64_t r = x - (uint64_t)(((unsigned __int128)x * m) >> 64) * p;
    if (r >= p)
        r -= p;
    if (r >= p)
        r -= p;
    return r;
#else
    (void)m;
    return x % p;
#endif
}

/* A sequence of int64 tables passed to a loop (residue_dots, float_dots): their buffers, got
 * by table_list_get and let go by table_list_release (also after a failed get). */
typedef struct {
    PyObject *fast;
    Py_buffer *views;
    const int64_t **tables;
    Py_ssize_t n;
    int got;
} TableList;

/* 0 on success; -1 with the error set (then table_list_release). */
static int table_list_get(PyObject *sequence, const char *what, TableList *list)
{
    memset(list, 0, sizeof(*list));
    list->fast = PySequence_Fast(sequence, what);
    if (!list->fast)
        return -1;
    list->n = PySequence_Fast_GET_SIZE(list->fast);
    list->views = PyMem_Calloc((size_t)list->n + 1, sizeof(Py_buffer));
    list->tables = PyMem_Calloc((size_t)list->n + 1, sizeof(int64_t *));
    if (!list->views || !list->tables) {
        PyErr_NoMemory();
        return -1;
    }
    for (; list->got < list->n; list->got++) {
        if (PyObject_GetBuffer(PySequence_Fast_GET_ITEM(list->fast, list->got), &list->views[list->got],
                               PyBUF_C_CONTIGUOUS) < 0)
            return -1;
        list->tables[list->got] = list->views[list->got].buf;
    }
    return 0;
}

static void table_list_release(TableList *list)
{
    for (int t = 0; t < list->got; t++)
        PyBuffer_Release(&list->views[t]);
    PyMem_Free(list->views);
    PyMem_Free((void *)list->tables);
    Py_XDECREF(list->fast);
}

/* residue_dots(halves, sizes, chosen, lift, ff, primes, rows_in, tables, out)
 * The sums of bjcalc.engine.moments._SplitSquare._residue_dots modulo each prime, in one pass
 * over the table rows instead of numpy's dozen array passes per prime (each with an int64
 * division per element). halves: uint64 (n, n_out, 2), the dealer's exact numerators of the n
 * feasible multisets as [high, low]; sizes: int64 (n), each multiset's size; chosen: int8 (n,
 * 10), its counts; lift: int64 (P, K), the lift of each size modulo each prime; ff: int64 (P,
 * 10, D), ff(cards of the rank left, m) modulo each prime; primes: int64 (P), each below 2^31;
 * rows_in: int64 (m), the feasible multiset of each table row (-1: none, the row is skipped);
 * tables: a sequence of T int64 (m, n_out) arrays. out: int64 (T, P, n_out), filled with
 * sum_j w[rows_in[j], o] * tables[t][j, o] mod p, where w[i, o] = numerator[i, o] * lift[size_i]
 * * prod_r ff[r, chosen[i, r]] mod p. */
static PyObject *residue_dots(PyObject *self, PyObject *args)
{
    PyObject *objs[8], *sequence = NULL;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5], &objs[6],
                          &sequence, &objs[7]))
        return NULL;
    Py_buffer views[8];
    TableList list;
    int got = 0;
    PyObject *result = NULL;
    if (table_list_get(sequence, "residue_dots: tables must be a sequence", &list) < 0)
        goto done;
    Py_ssize_t n_tables = list.n;
    const int64_t **tables = list.tables;
    for (; got < 8; got++)
        if (PyObject_GetBuffer(objs[got], &views[got], PyBUF_C_CONTIGUOUS | (got == 7 ? PyBUF_WRITABLE : 0)) < 0)
            goto done;
    const uint64_t *halves = views[0].buf;
    const int64_t *sizes = views[1].buf, *lift = views[3].buf, *ff = views[4].buf, *primes = views[5].buf;
    const int64_t *rows_in = views[6].buf;
    const int8_t *chosen = views[2].buf;
    int64_t *out = views[7].buf;
    Py_ssize_t n = views[1].len / (Py_ssize_t)sizeof(int64_t), P = views[5].len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t m = views[6].len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t n_out = n_tables && P ? views[7].len / (Py_ssize_t)sizeof(int64_t) / n_tables / P : 0;
    Py_ssize_t K = P ? views[3].len / (Py_ssize_t)sizeof(int64_t) / P : 0;
    Py_ssize_t D = P ? views[4].len / (Py_ssize_t)sizeof(int64_t) / P / 10 : 0;
    int ok = P > 0 && n_tables > 0 && n_out > 0 && views[0].len == (Py_ssize_t)sizeof(uint64_t) * n * n_out * 2
             && views[2].len == n * 10 && views[3].len == (Py_ssize_t)sizeof(int64_t) * P * K
             && views[4].len == (Py_ssize_t)sizeof(int64_t) * P * 10 * D
             && views[7].len == (Py_ssize_t)sizeof(int64_t) * n_tables * P * n_out;
    for (Py_ssize_t t = 0; ok && t < n_tables; t++)
        ok = list.views[t].len == (Py_ssize_t)sizeof(int64_t) * m * n_out;
    for (Py_ssize_t k = 0; ok && k < P; k++)
        ok = primes[k] > 1 && primes[k] < ((int64_t)1 << 31);
    for (Py_ssize_t j = 0; ok && j < m; j++)
        ok = rows_in[j] >= -1 && rows_in[j] < n;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        ok = sizes[i] >= 0 && sizes[i] < K;
        for (int r = 0; ok && r < 10; r++)
            ok = chosen[i * 10 + r] >= 0 && chosen[i * 10 + r] < D;
    }
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "residue_dots: inconsistent array sizes or values out of range");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < P; k++) {
        const uint64_t p = (uint64_t)primes[k], bar = UINT64_MAX / p;
        const uint64_t two64 = (UINT64_MAX % p + 1) % p; /* 2^64 mod p */
        const int64_t *lift_k = lift + k * K, *ff_k = ff + k * 10 * D;
        uint64_t *acc = (uint64_t *)out; /* (T, P, n_out): this prime's rows, reduced as they grow */
        for (Py_ssize_t t = 0; t < n_tables; t++)
            for (Py_ssize_t o = 0; o < n_out; o++)
                acc[(t * P + k) * n_out + o] = 0;
        for (Py_ssize_t j = 0; j < m; j++) {
            const Py_ssize_t i = rows_in[j];
            if (i < 0)
                continue;
            uint64_t draws = (uint64_t)lift_k[sizes[i]];
            for (int r = 0; r < 10; r++)
                draws = red(draws * (uint64_t)ff_k[r * D + chosen[i * 10 + r]], p, bar);
            for (Py_ssize_t o = 0; o < n_out; o++) {
                const uint64_t *h = halves + (i * n_out + o) * 2;
                uint64_t part = red(red(h[0], p, bar) * two64 + red(h[1], p, bar), p, bar);
                uint64_t w = red(part * draws, p, bar);
                if (!w)
                    continue;
                for (Py_ssize_t t = 0; t < n_tables; t++) {
                    int64_t v = tables[t][j * n_out + o];
                    if (!v)
                        continue;
                    uint64_t vm = v > 0 ? red((uint64_t)v, p, bar) : (p - red((uint64_t)0 - (uint64_t)v, p, bar)) % p;
                    uint64_t *a = &acc[(t * P + k) * n_out + o];
                    *a = red(*a + w * vm, p, bar);
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    for (int k = 0; k < got; k++)
        PyBuffer_Release(&views[k]);
    table_list_release(&list);
    return result;
}

static void release_views(Py_buffer *views, int got)
{
    for (int k = 0; k < got; k++)
        PyBuffer_Release(&views[k]);
}

/* float_weights' checks, each over every row without a branch (so that they vectorise): the
 * rows' dealer rows below S, multisets below U, sizes below K and counts below D. */
static int weights_in_range(const int64_t *at, const int64_t *feasible, const int64_t *sizes, const int8_t *rows,
                            Py_ssize_t F, Py_ssize_t S, Py_ssize_t U, Py_ssize_t K, Py_ssize_t D)
{
    int bad = 0;
    for (Py_ssize_t i = 0; i < F; i++)
        bad |= (at[i] < 0) | (at[i] >= S) | (feasible[i] < 0) | (feasible[i] >= U);
    for (Py_ssize_t i = 0; !bad && i < F; i++) {
        const int8_t *row = rows + feasible[i] * 10;
        bad |= (sizes[feasible[i]] < 0) | (sizes[feasible[i]] >= K);
        for (int r = 0; r < 10; r++)
            bad |= (row[r] < 0) | (row[r] >= D);
    }
    return !bad;
}

/* float_weights' sums, once checked: each row's ranks' product in rank order, then the
 * divisions, then the dealer's numerators times it. */
MULTIVERSION
static void weigh(const double *dealer, const double *denominators, const int64_t *at, const int64_t *feasible,
                  const int64_t *sizes, const int8_t *rows, const double *ff, const double *per_size, double before,
                  Py_ssize_t F, Py_ssize_t n_out, Py_ssize_t D, double *out)
{
    for (Py_ssize_t i = 0; i < F; i++) {
        const int8_t *row = rows + feasible[i] * 10;
        double p = ff[row[0]];
        for (int r = 1; r < 10; r++)
            p = p * ff[r * D + row[r]];
        p = p / per_size[sizes[feasible[i]]] / denominators[at[i]];
        p = p / before;
        for (Py_ssize_t o = 0; o < n_out; o++)
            out[i * n_out + o] = dealer[at[i] * n_out + o] * p;
    }
}

/* float_weights(dealer, denominators, at, feasible, sizes, rows, ff, per_size, before, out)
 * The weights of _SplitSquare._dots in float mode at one removal: each feasible multiset's
 * dealer[at[i], o] x prod_r ff[r, rows[feasible[i], r]] / per_size[sizes[feasible[i]]] /
 * denominators[at[i]] / before (the chance of its cards in one order and of the dealer's
 * outcome after them), in numpy's order of operations. dealer: float64 (S, n_out);
 * denominators: float64 (S,); at, feasible: int64 (F,); sizes: int64 (U,); rows: int8 (U, 10);
 * ff: float64 (10, D); per_size: float64 (K,); out: float64 (F, n_out). */
static PyObject *float_weights(PyObject *self, PyObject *args)
{
    PyObject *objs[9];
    double before;
    if (!PyArg_ParseTuple(args, "OOOOOOOOdO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5], &objs[6],
                          &objs[7], &before, &objs[8]))
        return NULL;
    Py_buffer views[9];
    int got = 0;
    for (; got < 9; got++)
        if (PyObject_GetBuffer(objs[got], &views[got], PyBUF_C_CONTIGUOUS | (got == 8 ? PyBUF_WRITABLE : 0)) < 0)
            goto fail;
    const double *dealer = views[0].buf, *denominators = views[1].buf, *ff = views[6].buf, *per_size = views[7].buf;
    const int64_t *at = views[2].buf, *feasible = views[3].buf, *sizes = views[4].buf;
    const int8_t *rows = views[5].buf;
    double *out = views[8].buf;
    Py_ssize_t S = views[1].len / (Py_ssize_t)sizeof(double), F = views[2].len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t U = views[4].len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t n_out = S ? views[0].len / (Py_ssize_t)sizeof(double) / S : 0;
    Py_ssize_t D = views[6].len / (Py_ssize_t)sizeof(double) / 10, K = views[7].len / (Py_ssize_t)sizeof(double);
    int ok = views[0].len == (Py_ssize_t)sizeof(double) * S * n_out && views[3].len == views[2].len
             && views[5].len == U * 10 && views[8].len == (Py_ssize_t)sizeof(double) * F * n_out;
    Py_BEGIN_ALLOW_THREADS /* the checks too: other threads run Python meanwhile */
    ok = ok && weights_in_range(at, feasible, sizes, rows, F, S, U, K, D);
    if (ok)
        weigh(dealer, denominators, at, feasible, sizes, rows, ff, per_size, before, F, n_out, D, out);
    Py_END_ALLOW_THREADS
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "float_weights: inconsistent array sizes or values out of range");
        goto fail;
    }
    release_views(views, got);
    Py_RETURN_NONE;
fail:
    release_views(views, got);
    return NULL;
}

/* float_dots(weights, rows_in, tables, out)
 * _SplitSquare._dots in float mode: per table and dealer outcome, the sum over the table's rows
 * of weight x entry (rows_in[j]: the row of weights of table row j, -1 for none), in one pass
 * over the rows where numpy made a gather, a transpose and a product per group of tables.
 * weights: float64 (F, n_out); rows_in: int64 (m,); tables: int64 (m, n_out) each; out:
 * float64 (tables, n_out). */
static PyObject *float_dots(PyObject *self, PyObject *args)
{
    PyObject *objs[3], *sequence = NULL;
    if (!PyArg_ParseTuple(args, "OOOO", &objs[0], &objs[1], &sequence, &objs[2]))
        return NULL;
    Py_buffer views[3];
    TableList list;
    int got = 0;
    PyObject *result = NULL;
    if (table_list_get(sequence, "float_dots: tables must be a sequence", &list) < 0)
        goto done;
    Py_ssize_t n_tables = list.n;
    const int64_t **tables = list.tables;
    for (; got < 3; got++)
        if (PyObject_GetBuffer(objs[got], &views[got], PyBUF_C_CONTIGUOUS | (got == 2 ? PyBUF_WRITABLE : 0)) < 0)
            goto done;
    const double *weights = views[0].buf;
    const int64_t *rows_in = views[1].buf;
    double *out = views[2].buf;
    Py_ssize_t m = views[1].len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t n_out = n_tables ? views[2].len / (Py_ssize_t)sizeof(double) / n_tables : 0;
    Py_ssize_t F = n_out ? views[0].len / (Py_ssize_t)sizeof(double) / n_out : 0;
    int ok = n_tables > 0 && n_out > 0 && views[0].len == (Py_ssize_t)sizeof(double) * F * n_out
             && views[2].len == (Py_ssize_t)sizeof(double) * n_tables * n_out;
    for (Py_ssize_t t = 0; ok && t < n_tables; t++)
        ok = list.views[t].len == (Py_ssize_t)sizeof(int64_t) * m * n_out;
    Py_BEGIN_ALLOW_THREADS /* the checks too: other threads run Python meanwhile */
    for (Py_ssize_t j = 0; ok && j < m; j++)
        ok = rows_in[j] >= -1 && rows_in[j] < F;
    for (Py_ssize_t k = 0; ok && k < n_tables * n_out; k++)
        out[k] = 0.0;
    for (Py_ssize_t j = 0; ok && j < m; j++) {
        const Py_ssize_t i = rows_in[j];
        if (i < 0)
            continue;
        const double *w = weights + i * n_out;
        for (Py_ssize_t t = 0; t < n_tables; t++) {
            const int64_t *v = tables[t] + j * n_out;
            double *sum = out + t * n_out;
            for (Py_ssize_t o = 0; o < n_out; o++)
                sum[o] += w[o] * (double)v[o];
        }
    }
    Py_END_ALLOW_THREADS
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "float_dots: inconsistent array sizes or values out of range");
        goto done;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    release_views(views, got);
    table_list_release(&list);
    return result;
}

/* terminal_walk(counts, children, starts, totals, decisions, pair, charlie, codes, kinds) -> bytes
 * The terminal states of one split hand under its decisions (moments.terminal_states): the
 * walk down the hand's layers with two counts of orders per hand, every order and those whose
 * first draw is of rank `pair`. counts: int64 (rows, 10), every layer's hands stacked;
 * children: int64 (rows, 10), the child's row in the next layer, -1 where the draw busts;
 * starts: int64 (layers + 1,); totals: int64 (rows,); decisions: int64 (rows,); charlie: the
 * cards at which a hand is a Charlie (0: none); codes: (stand, hit, double); kinds: (bust,
 * Charlie). Returns one record of five int64 per state reached (the same state may recur):
 * its cards packed six bits a rank, bet (1, 2), kind (its total, bust or Charlie), and its two
 * counts of orders. */
static PyObject *terminal_walk(PyObject *self, PyObject *args)
{
    PyObject *objs[5];
    int pair, charlie, stand, hit, dbl, bust_kind, charlie_kind;
    if (!PyArg_ParseTuple(args, "OOOOOii(iii)(ii)", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &pair, &charlie,
                          &stand, &hit, &dbl, &bust_kind, &charlie_kind))
        return NULL;
    Py_buffer views[5];
    int got = 0;
    for (; got < 5; got++)
        if (PyObject_GetBuffer(objs[got], &views[got], PyBUF_C_CONTIGUOUS) < 0) {
            release_views(views, got);
            return NULL;
        }
    const int64_t *counts = views[0].buf, *children = views[1].buf, *starts = views[2].buf, *totals = views[3].buf;
    const int64_t *decisions = views[4].buf;
    Py_ssize_t rows = views[3].len / (Py_ssize_t)sizeof(int64_t), n_layers = views[2].len / (Py_ssize_t)sizeof(int64_t) - 1;
    int ok = rows > 0 && n_layers > 1 && views[0].len == views[1].len && views[0].len == (Py_ssize_t)sizeof(int64_t) * rows * 10
             && views[4].len == views[3].len && starts[0] == 0 && starts[n_layers] == rows && pair >= 0 && pair < 10;
    for (Py_ssize_t k = 0; ok && k < n_layers; k++)
        ok = starts[k] <= starts[k + 1];
    for (Py_ssize_t k = 0; ok && k < n_layers; k++) /* a child is a row of the next layer */
        for (Py_ssize_t i = starts[k] * 10; ok && i < starts[k + 1] * 10; i++)
            ok = children[i] < 0 || (k + 1 < n_layers && children[i] < starts[k + 2] - starts[k + 1]);
    for (Py_ssize_t i = 0; ok && i < rows * 10; i++)
        ok = counts[i] >= 0 && counts[i] < 63;
    if (!ok) {
        release_views(views, got);
        PyErr_SetString(PyExc_ValueError, "terminal_walk: inconsistent arrays");
        return NULL;
    }
    int64_t *ways = calloc((size_t)rows * 2, sizeof(int64_t));
    size_t room = 1024, n = 0;
    int64_t *out = malloc(sizeof(int64_t) * 5 * room);
    ok = ways && out;
    if (ok) {
        ways[0] = 1; /* every order starts from the pair card alone */
        if (children[pair] >= 0)
            ways[2 * (starts[1] + children[pair]) + 1] = 1; /* the orders whose second card is a pair card */
    }
    for (Py_ssize_t k = 0; ok && k < n_layers; k++)
        for (Py_ssize_t i = starts[k]; ok && i < starts[k + 1]; i++) {
            const int64_t *w = ways + 2 * i, d = decisions[i];
            if (w[0] <= 0 || (d != stand && d != hit && d != dbl))
                continue;
            int64_t packed = 0, held = 0;
            for (int r = 0; r < 10; r++) {
                packed |= counts[i * 10 + r] << (6 * r);
                held += counts[i * 10 + r];
            }
            for (int r = 0; r < (d == stand ? 1 : 10); r++) {
                int64_t child = d == stand ? 0 : children[i * 10 + r], kind, bet = d == dbl ? 2 : 1;
                if (d == hit && child >= 0) {
                    ways[2 * (starts[k + 1] + child)] += w[0];
                    ways[2 * (starts[k + 1] + child) + 1] += w[1];
                    continue;
                }
                if (d == stand)
                    kind = charlie && held >= charlie ? charlie_kind : totals[i];
                else if (child < 0)
                    kind = bust_kind;
                else
                    kind = charlie && held + 1 >= charlie ? charlie_kind : totals[starts[k + 1] + child];
                if (n == room) {
                    int64_t *more = realloc(out, sizeof(int64_t) * 5 * 2 * room);
                    if (!more) {
                        ok = 0;
                        break;
                    }
                    out = more, room *= 2;
                }
                int64_t *record = out + 5 * n++;
                record[0] = packed + (d == stand ? 0 : (int64_t)1 << (6 * r));
                record[1] = bet, record[2] = kind, record[3] = w[0], record[4] = w[1];
            }
        }
    PyObject *result = ok ? PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)(sizeof(int64_t) * 5 * n))
                          : PyErr_NoMemory();
    free(ways), free(out);
    release_views(views, got);
    return result;
}

/* class_sums' checks: the graph's edges within its levels' widths, every stopping state's key
 * below K and each key's outcome slot below n_out, the rows' counts and classes in range. */
static int class_sums_in_range(const int32_t *edge_start, const int32_t *parent, const int32_t *child,
                               const int32_t *rank, const int32_t *node_start, const int32_t *node_key, int steps,
                               int max_width, const int8_t *rows, const int64_t *row_class, const int32_t *key_slot,
                               Py_ssize_t U, Py_ssize_t C, Py_ssize_t K, Py_ssize_t n_out)
{
    int bad = 0;
    for (int s = 0; s < steps; s++) {
        int32_t width = node_start[s + 1] - node_start[s], before = s ? node_start[s] - node_start[s - 1] : 1;
        bad |= (width < 0) | (width > max_width) | (edge_start[s] > edge_start[s + 1]);
        for (int32_t e = edge_start[s]; !bad && e < edge_start[s + 1]; e++)
            bad |= (parent[e] < 0) | (parent[e] >= before) | (child[e] < 0) | (child[e] >= width) | (rank[e] < 0)
                   | (rank[e] > 9);
        for (int32_t i = node_start[s]; !bad && i < node_start[s + 1]; i++)
            bad |= (node_key[i] < -1) | (node_key[i] >= K);
    }
    for (Py_ssize_t k = 0; k < K; k++)
        bad |= (key_slot[k] < 0) | (key_slot[k] >= n_out);
    for (Py_ssize_t i = 0; i < U; i++) {
        bad |= (row_class[i] < 0) | (row_class[i] >= C);
        for (int r = 0; r < 10; r++)
            bad |= rows[i * 10 + r] < 0;
    }
    return !bad;
}

/* class_sums' loop, once checked: per row, F(M), the dealer's walk on shoe - M and the sums. */
MULTIVERSION
static void class_walk(const int32_t *edge_start, const int32_t *parent, const int32_t *child, const int32_t *rank,
                       const int32_t *held, const int32_t *node_start, const int32_t *node_key, int steps,
                       const int64_t *shoe, const int8_t *rows, const int64_t *row_class, const int32_t *key_slot,
                       const int64_t **tables, Py_ssize_t n_tables, Py_ssize_t U, Py_ssize_t C, Py_ssize_t K,
                       Py_ssize_t n_out, double *cur, double *nxt, double *acc, double *out)
{
    for (Py_ssize_t i = 0; i < U; i++) {
        const int8_t *row = rows + i * 10;
        double left[10], f = 1.0;
        for (int r = 0; r < 10; r++) {
            for (int m = 0; m < row[r]; m++)
                f *= (double)(shoe[r] - m); /* ff(shoe_r, M_r), rank by rank: 0 where M is not in the shoe */
            left[r] = (double)(shoe[r] - row[r]);
        }
        int any = 0; /* a row no table counts (a resplit's orders, say) needs no dealer */
        for (Py_ssize_t t = 0; t < n_tables && !any; t++)
            for (Py_ssize_t o = 0; o < n_out; o++)
                any |= tables[t][i * n_out + o] != 0;
        if (f <= 0.0 || !any)
            continue;
        for (Py_ssize_t k = 0; k < K; k++)
            acc[k] = 0.0;
        cur[0] = 1.0;
        for (int s = 0; s < steps; s++) {
            int32_t width = node_start[s + 1] - node_start[s];
            for (int32_t j = 0; j < width; j++)
                nxt[j] = 0.0;
            for (int32_t e = edge_start[s]; e < edge_start[s + 1]; e++) {
                double a = left[rank[e]] - (double)held[e];
                if (a > 0.0)
                    nxt[child[e]] += cur[parent[e]] * a;
            }
            const int32_t *key = node_key + node_start[s];
            for (int32_t j = 0; j < width; j++)
                if (key[j] >= 0)
                    acc[key[j]] += nxt[j];
            double *t = cur;
            cur = nxt;
            nxt = t;
        }
        double *sums = out + row_class[i] * K;
        for (Py_ssize_t k = 0; k < K; k++) {
            if (acc[k] == 0.0)
                continue;
            const double x = f * acc[k];
            const Py_ssize_t at = i * n_out + key_slot[k];
            for (Py_ssize_t t = 0; t < n_tables; t++) {
                const int64_t v = tables[t][at];
                if (v)
                    sums[t * C * K + k] += (double)v * x;
            }
        }
    }
}

/* class_sums(edge_start, parent, child, rank, held, node_start, node_key, steps, max_width, shoe,
 *            rows, row_class, key_slot, tables, out)
 * A counter's shoe's split moment sums by class totals (bjcalc.engine.classsums): for each row
 * M (int8 (U, 10), a multiset the split hands drew) F(M) = prod_r ff(shoe_r, M_r) (shoe: int64
 * (10,), the cards off the table the hands draw from), the dealer's walk on shoe - M (the
 * compiled dealer's int32 arrays, `steps` levels) summing each stopping state's orders times
 * ff(shoe - M, its cards) by its key (node_key, per state of every level after the first: the
 * index of its (outcome, class totals), -1 where the dealer draws), then out[t, row_class[i], k]
 * += tables[t][i, key_slot[k]] x F(M) x that sum. row_class: int64 (U,); key_slot: int32 (K,),
 * each key's outcome slot; tables: T int64 (U, n_out); out: float64 (T, C, K), added to. */
static PyObject *class_sums(PyObject *self, PyObject *args)
{
    PyObject *objs[12], *sequence = NULL;
    int steps, max_width;
    if (!PyArg_ParseTuple(args, "OOOOOOOiiOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5],
                          &objs[6], &steps, &max_width, &objs[7], &objs[8], &objs[9], &objs[10], &sequence, &objs[11]))
        return NULL;
    Py_buffer views[12];
    TableList list;
    int got = 0;
    PyObject *result = NULL;
    double *work = NULL;
    if (table_list_get(sequence, "class_sums: tables must be a sequence", &list) < 0)
        goto done;
    for (; got < 12; got++)
        if (PyObject_GetBuffer(objs[got], &views[got], PyBUF_C_CONTIGUOUS | (got == 11 ? PyBUF_WRITABLE : 0)) < 0)
            goto done;
    const int32_t *edge_start = views[0].buf, *parent = views[1].buf, *child = views[2].buf, *rank = views[3].buf;
    const int32_t *held = views[4].buf, *node_start = views[5].buf, *node_key = views[6].buf;
    const int64_t *shoe = views[7].buf, *row_class = views[9].buf;
    const int8_t *rows = views[8].buf;
    const int32_t *key_slot = views[10].buf;
    double *out = views[11].buf;
    Py_ssize_t n_tables = list.n, U = views[9].len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t K = views[10].len / (Py_ssize_t)sizeof(int32_t);
    Py_ssize_t n_out = U && n_tables ? list.views[0].len / (Py_ssize_t)sizeof(int64_t) / U : 0;
    Py_ssize_t C = n_tables && K ? views[11].len / (Py_ssize_t)sizeof(double) / n_tables / K : 0;
    int ok = steps >= 0 && max_width > 0 && views[0].len >= (Py_ssize_t)sizeof(int32_t) * (steps + 1)
             && views[5].len >= (Py_ssize_t)sizeof(int32_t) * (steps + 1) && views[7].len == (Py_ssize_t)sizeof(int64_t) * 10
             && views[8].len == U * 10 && views[11].len == (Py_ssize_t)sizeof(double) * n_tables * C * K;
    for (Py_ssize_t t = 0; ok && t < n_tables; t++)
        ok = list.views[t].len == (Py_ssize_t)sizeof(int64_t) * U * n_out;
    if (ok) {
        const int32_t *edges_end = edge_start + steps, *nodes_end = node_start + steps;
        Py_ssize_t n_edges = views[1].len / (Py_ssize_t)sizeof(int32_t), n_nodes = views[6].len / (Py_ssize_t)sizeof(int32_t);
        ok = edge_start[0] == 0 && node_start[0] == 0 && *edges_end <= n_edges && *nodes_end <= n_nodes
             && views[2].len == views[1].len && views[3].len == views[1].len && views[4].len == views[1].len;
    }
    if (ok) {
        work = PyMem_Malloc(sizeof(double) * (2 * (size_t)max_width + (size_t)K + 1));
        if (!work) {
            PyErr_NoMemory();
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS /* the checks too: other threads run Python meanwhile */
    ok = ok && class_sums_in_range(edge_start, parent, child, rank, node_start, node_key, steps, max_width, rows,
                                   row_class, key_slot, U, C, K, n_out);
    if (ok)
        class_walk(edge_start, parent, child, rank, held, node_start, node_key, steps, shoe, rows, row_class, key_slot,
                   list.tables, n_tables, U, C, K, n_out, work, work + max_width, work + 2 * max_width, out);
    Py_END_ALLOW_THREADS
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "class_sums: inconsistent array sizes or values out of range");
        goto done;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    PyMem_Free(work);
    release_views(views, got);
    table_list_release(&list);
    return result;
}

static PyMethodDef methods[] = {
    {"sign_tables", sign_tables, METH_VARARGS, "A split's two hands' sign tables, by the multiset both drew."},
    {"joint_tables", joint_tables, METH_VARARGS, "Two split hands' product tables, by the multiset both drew."},
    {"residue_dots", residue_dots, METH_VARARGS, "An exact split moment's sums modulo primes (see _residue_dots)."},
    {"terminal_walk", terminal_walk, METH_VARARGS, "A split hand's terminal states (see moments.terminal_states)."},
    {"float_weights", float_weights, METH_VARARGS, "A float split moment's weights at one removal (see _dots)."},
    {"float_dots", float_dots, METH_VARARGS, "A float split moment's sums, per table and outcome (see _dots)."},
    {"class_sums", class_sums, METH_VARARGS, "A counter's shoe's split moment sums by class totals (see classsums)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_pairs_kernel",
                                    "Compiled pair tables of split hands (see bjcalc.engine.moments).", -1, methods};

PyMODINIT_FUNC PyInit__pairs_kernel(void) { return PyModule_Create(&module); }
