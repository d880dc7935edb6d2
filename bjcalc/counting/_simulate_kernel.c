/* bjcalc simulate's hot loop: shuffled shoes dealt round after round, a counter in seat 0.
 *
 * Everything the loop decides is a table compiled in Python before it runs
 * (bjcalc.counting.simulate._Tables): the chart's first play of every two-card hand against
 * every up card (by card code, so that two tens of unlike faces can differ), the chart's play
 * of a hand of three or more cards and of a two-card split hand by cell (total + 22 if soft),
 * the index plays (threshold, deviation and the play below it), the convention's true count at
 * every (cards left, running count), the bet at every true count. Nothing calls Python while
 * a block of rounds is dealt.
 *
 * The shuffle is a partial Fisher-Yates: each card is drawn uniformly from the cards not yet
 * dealt as it is needed (xoshiro256**, seeded by splitmix64 from the run's seed and the block's
 * number, so that a block deals the same cards wherever it runs). Bounded draws use Lemire's
 * method with its rejection step: exactly uniform.
 *
 * What one block accumulates (out, doubles; the layout is OUT_* below): per true-count bucket
 * the rounds dealt and played there, the sum and the sum of squares of seat 0's result per unit
 * bet, and the sums over shoes of the products of each shoe's own totals (a shoe is the
 * independent unit: the standard errors of every ratio come from them, bjcalc.counting.simulate);
 * per starting depth the rounds and the sum of the rounds per shoe over the shoes that start a
 * round there; a shoe's totals of seven figures (rounds, rounds played, bet, win, win
 * squared, unit result and its square) with their sums of products; and per bin of starting
 * depths (bin k of K holds the depths n with n K / cut = k) the sums over shoes of the square
 * of a shoe's rounds there and of their product with its rounds (the bins' rounds are the
 * depths', summed: what a bin's share needs beside them is the covariance of its depths).
 *
 * deal_rigged plays the same rounds from a given sequence of cards (no shuffle), one shoe, and
 * returns each round's record: the tests hold it against a Python port of the same loop.
 *
 * Only the Python C API's buffer protocol is used (no numpy headers).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* actions: as bjcalc.counting.simulate.ACTION_CODES */
enum { STAND = 0, HIT = 1, DOUBLE = 2, SPLIT = 3, SURRENDER = 4 };
enum { ACE = 0, TEN = 9 };
#define STRIDE 64   /* cells per up card in the cell tables */
#define SOFT 22     /* a soft cell is its total + SOFT */
#define CODES 13    /* card codes: ranks A..9, then one or four ten faces */
#define MAX_HANDS 16
#define NOINDEX (-2147483647 - 1)

/* the header's fields (int32), in bjcalc.counting.simulate.HEADER's order */
enum {
    H_NCARDS, H_CUT, H_SEATS, H_H17, H_PEEK, H_SURRENDER, H_INSURANCE, H_MAX_HANDS, H_MAX_HANDS_ACES,
    H_HIT_SPLIT_ACES, H_INDICES, H_INSURE, H_INS_INDEX, H_LEFT_LO, H_RC_LO, H_RC_COLS, H_TC_MIN, H_NB,
    H_WONG_MODE, H_WONG_IN_ON, H_WONG_IN, H_WONG_OUT_ON, H_WONG_OUT, H_IRC, H_DOUBLE_LOSS_ACE,
    H_DOUBLE_LOSS_TEN, H_SPLIT_LOSS_ACE, H_SPLIT_LOSS_TEN, H_FILLER, H_PLAYER_MAX, H_DEALER_MAX, H_CHARLIE,
    H_DEPTH_BINS, H_FIELDS
};

/* per bucket fields, then per depth, then the shoe figures, then per depth bin */
enum { B_N, B_P, B_S, B_Q, B_NN, B_NR, B_PP, B_SS, B_SP, B_FIELDS };
enum { D_N, D_R, D_FIELDS };
enum { G_R, G_P, G_B, G_Y, G_Z, G_U, G_V, G_FIELDS };
enum { K_NN, K_NR, K_FIELDS };

typedef struct {
    /* rules and tables */
    int ncards, cut, seats, h17, peek, surrender, insurance, max_hands, max_hands_aces, hit_split_aces;
    int indices, insure, ins_index, left_lo, rc_lo, rc_cols, tc_min, nb;
    int wong_mode, wong_in_on, wong_in, wong_out_on, wong_out, irc, filler;
    int player_max, dealer_max; /* card limits: a hand holding this many cards stands */
    int charlie;                /* a hand of this many cards wins but against a blackjack (99: none) */
    int depth_bins;             /* bins of starting depths for the shares' covariances (1..cut) */
    int double_loss[10], split_loss[10];
    double bj_pays;
    const int32_t *tags;      /* per code, scaled */
    const uint8_t *rank_of;   /* per code */
    const uint8_t *pairkey;   /* per code: what a pair must share (the rank, or the face) */
    const uint8_t *first;     /* [up rank][code a][code b]: the chart's first play */
    const uint8_t *hit3;      /* [up][cell]: 1 to hit a hand of three or more cards */
    const uint8_t *split2;    /* [up][cell]: a two-card split hand's play (stand, hit, double) */
    const int32_t *idx;       /* [up][a][b][3]: threshold (NOINDEX: none), deviation, play below */
    const int32_t *tc;        /* [left - left_lo][rc - rc_lo]: the convention's true count */
    const double *bets;       /* per bucket */
    /* the shoe */
    uint8_t *deck;
    int pos, rc, exhausted, rigged;
    uint64_t s[4];
} Sim;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next64(Sim *S)
{
    uint64_t *s = S->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3], s[2] ^= t, s[3] = rotl(s[3], 45);
    return result;
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void seed_block(Sim *S, uint64_t seed, uint64_t block)
{
    uint64_t x = seed ^ splitmix(&block);
    for (int i = 0; i < 4; i++) S->s[i] = splitmix(&x);
}

/* uniform in [0, range), range >= 1: Lemire's multiply with rejection (exact) */
static inline uint32_t bounded(Sim *S, uint32_t range)
{
    uint64_t m = (uint64_t)(uint32_t)(next64(S) >> 32) * range;
    uint32_t low = (uint32_t)m;
    if (low < range) {
        uint32_t floor = -range % range;
        while (low < floor) {
            m = (uint64_t)(uint32_t)(next64(S) >> 32) * range;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* the next card: drawn from the cards left (partial Fisher-Yates), or the rigged deck's next;
 * past the last card the round is void (a filler card keeps the loop simple) */
static inline int draw(Sim *S)
{
    if (S->pos >= S->ncards) {
        S->exhausted = 1;
        return S->filler;
    }
    uint8_t *deck = S->deck;
    int pos = S->pos;
    if (!S->rigged) {
        int j = pos + (int)bounded(S, (uint32_t)(S->ncards - pos));
        uint8_t c = deck[j];
        deck[j] = deck[pos];
        deck[pos] = c;
    }
    int c = deck[pos];
    S->pos = pos + 1;
    S->rc += S->tags[c];
    return c;
}

static inline int true_count(const Sim *S, int left, int rc)
{
    if (left < S->left_lo) left = S->left_lo;
    /* a void round's filler cards are not counted: keep within the table */
    if (rc < S->rc_lo) rc = S->rc_lo;
    if (rc >= S->rc_lo + S->rc_cols) rc = S->rc_lo + S->rc_cols - 1;
    return S->tc[(size_t)(left - S->left_lo) * S->rc_cols + (rc - S->rc_lo)];
}

/* a hand: hard total (aces as 1), whether it holds an ace, cards */
typedef struct { int hard, ace, n; } Hand;

static inline void add(Hand *h, int rank) { h->hard += rank + 1, h->ace |= rank == ACE, h->n++; }
static inline int best(const Hand *h) { return h->ace && h->hard + 10 <= 21 ? h->hard + 10 : h->hard; }
static inline int cell(const Hand *h) { int b = best(h); return b + (b != h->hard ? SOFT : 0); }
static inline int natural(int ra, int rb) { return (ra == ACE && rb == TEN) || (ra == TEN && rb == ACE); }

/* a hand's end: its total (0 bust, -1 surrendered, CHARLIE) and stake */
#define CHARLIE 30 /* above any dealer's total: settles as a win */
typedef struct { int total, stake; } Final;

/* hit by the chart's 3+-card plays until it stands, reaches 21 or the card limit, or busts */
static inline int hit_on(Sim *S, Hand *h, const uint8_t *hit3)
{
    for (;;) {
        add(h, S->rank_of[draw(S)]);
        int b = best(h);
        if (b > 21) return 0;
        if (h->n >= S->charlie) return CHARLIE;
        if (b == 21 || h->n >= S->player_max || !hit3[cell(h)]) return b;
    }
}

/* The first play of a two-card hand: the chart's, or for the counter with indices the index
 * play's on the count he sees then (the round's start, his hand and the up card). */
static inline int first_play(const Sim *S, int up, int a, int b, int counter, int left0, int rc0)
{
    size_t k = ((size_t)S->rank_of[up] * CODES + a) * CODES + b;
    if (counter && S->indices) {
        const int32_t *e = S->idx + 3 * k;
        if (e[0] != NOINDEX) {
            int tc = true_count(S, left0 - 3, rc0 + S->tags[up] + S->tags[a] + S->tags[b]);
            return tc >= e[0] ? e[1] : e[2];
        }
    }
    return S->first[k];
}

/* One seat's hands after the first play `act` (not a natural; the dealer has no peeked
 * blackjack): their ends into `out`; returns how many, and *live whether any can still win. */
static int play_seat(Sim *S, int up, int a, int b, int act, Final *out, int *live)
{
    int u = S->rank_of[up];
    const uint8_t *hit3 = S->hit3 + u * STRIDE, *split2 = S->split2 + u * STRIDE;
    Hand h = {0, 0, 0};
    add(&h, S->rank_of[a]), add(&h, S->rank_of[b]);
    *live = 0;
    switch (act) {
    case SURRENDER:
        out[0].total = -1, out[0].stake = 1;
        return 1;
    case STAND:
        out[0].total = best(&h), out[0].stake = 1, *live = 1;
        return 1;
    case DOUBLE: {
        add(&h, S->rank_of[draw(S)]);
        int t = best(&h);
        out[0].total = t > 21 ? 0 : h.n >= S->charlie ? CHARLIE : t, out[0].stake = 2, *live = t <= 21;
        return 1;
    }
    case HIT: {
        int t = best(&h) == 21 ? 21 : hit_on(S, &h, hit3);
        out[0].total = t, out[0].stake = 1, *live = t > 0;
        return 1;
    }
    default: break;
    }
    /* split: hands of one pair card each, played in turn; a pair card drawn to a hand while
     * hands are short splits again */
    int pair = a, rank = S->rank_of[a];
    int aces = rank == ACE, most = aces ? S->max_hands_aces : S->max_hands;
    int hands = 2, done = 0;
    while (done < hands) {
        Hand s = {0, 0, 0};
        add(&s, rank);
        int c;
        for (;;) {
            c = draw(S);
            if (S->pairkey[c] == S->pairkey[pair] && hands < most) {
                hands++;
                continue;
            }
            break;
        }
        add(&s, S->rank_of[c]);
        int t = best(&s), stake = 1;
        if (!(aces && !S->hit_split_aces) && t != 21) {
            int play = split2[cell(&s)];
            if (play == DOUBLE) {
                add(&s, S->rank_of[draw(S)]);
                t = best(&s), stake = 2;
                if (t > 21) t = 0;
                else if (s.n >= S->charlie) t = CHARLIE;
            } else if (play == HIT) {
                t = hit_on(S, &s, hit3);
            }
        }
        out[done].total = t, out[done].stake = stake;
        *live |= t > 0;
        done++;
    }
    return hands;
}

/* what the seat's hands win against the dealer's total (22: bust) */
static inline double settle(const Final *f, int n, int dealer)
{
    double x = 0;
    for (int i = 0; i < n; i++) {
        int t = f[i].total;
        if (t < 0) x -= 0.5;
        else if (t == 0) x -= f[i].stake;
        else if (dealer > 21 || t > dealer) x += f[i].stake;
        else if (t < dealer) x -= f[i].stake;
    }
    return x;
}

/* what the seat's hands lose to a dealer blackjack that no peek found (no hole card) */
static inline double settle_enhc(const Sim *S, int u, const Final *f, int n, int split)
{
    if (n == 1 && f[0].total < 0) return S->surrender == 2 ? -0.5 : -1.0;
    double x = 0;
    int loss = split ? S->split_loss[u] : 1;
    for (int i = 0; i < n; i++) x -= loss + (f[i].stake == 2 ? S->double_loss[u] : 0);
    if (split && !S->split_loss[u]) x -= 1; /* the original bet is lost even where split bets are returned */
    return x;
}

typedef struct { double unit; int tc, played, cards, n, rc; } Round;

/* One round from the shoe's current position; seat 0's result per unit (0 if it sat out or the
 * round ran out of cards). *wong carries the counter's state (0 waiting, 1 seated, 2 gone). */
static inline Round play_round(Sim *S, int *wong)
{
    Round r;
    int n = S->pos, rc0 = S->rc, left0 = S->ncards - n;
    int tc = true_count(S, left0, rc0);
    r.n = n, r.rc = rc0, r.tc = tc;
    switch (S->wong_mode) {
    case 0: r.played = 1; break;
    case 1: r.played = tc >= S->wong_in; break;
    default:
        if (*wong == 0 && S->wong_in_on && tc >= S->wong_in) *wong = 1;
        if (*wong == 1 && S->wong_out_on && tc < S->wong_out) *wong = 2;
        r.played = *wong == 1;
    }
    S->exhausted = 0;
    int seats = S->seats, a[8], b[8];
    for (int s = 0; s < seats; s++) a[s] = draw(S);
    int up = draw(S);
    for (int s = 0; s < seats; s++) b[s] = draw(S);
    int hole = draw(S);
    int u = S->rank_of[up];
    int dealer_bj = natural(u, S->rank_of[hole]);
    double x = 0;
    if (S->insure && u == ACE && true_count(S, left0 - 1, rc0 + S->tags[up]) >= S->ins_index)
        x += dealer_bj ? 1.0 : -0.5;
    int mine_natural = natural(S->rank_of[a[0]], S->rank_of[b[0]]);
    if (dealer_bj && S->peek) {
        if (mine_natural) x += 0;
        else if (S->surrender == 2 && first_play(S, up, a[0], b[0], 1, left0, rc0) == SURRENDER) x -= 0.5;
        else x -= 1;
    } else {
        Final mine[MAX_HANDS], other[MAX_HANDS];
        int nmine = 0, first0 = STAND, any_live = 0;
        for (int s = 0; s < seats; s++) {
            if (natural(S->rank_of[a[s]], S->rank_of[b[s]])) continue;
            int act = first_play(S, up, a[s], b[s], s == 0, left0, rc0), live;
            int k = play_seat(S, up, a[s], b[s], act, s == 0 ? mine : other, &live);
            if (s == 0) nmine = k, first0 = act;
            any_live |= live;
        }
        if (dealer_bj) { /* no hole card: the blackjack shows after the play */
            x += mine_natural ? 0.0 : settle_enhc(S, u, mine, nmine, first0 == SPLIT);
        } else {
            int dealer = 0;
            if (any_live) {
                Hand d = {0, 0, 0};
                add(&d, u), add(&d, S->rank_of[hole]);
                for (;;) {
                    int t = best(&d);
                    if (t > 17 || (t == 17 && !(S->h17 && t != d.hard)) || d.n >= S->dealer_max) break;
                    add(&d, S->rank_of[draw(S)]);
                }
                dealer = best(&d);
            }
            x += mine_natural ? S->bj_pays : settle(mine, nmine, dealer);
        }
    }
    if (S->exhausted) x = 0;
    r.unit = r.played ? x : 0;
    r.cards = S->pos - n;
    return r;
}

static void shuffle_start(Sim *S)
{
    S->pos = 0, S->rc = S->irc;
}

/* per-shoe accumulators, folded into out at the shoe's end */
typedef struct {
    double *out;
    int nb, cut, depth_bins;
    double *bn, *bp, *bs;      /* this shoe's per bucket */
    double *kn;                /* this shoe's rounds per depth bin */
    int *touched, ntouched;
    int *starts, nstarts;
    double g[G_FIELDS];
} Acc;

static void fold_shoe(Acc *A)
{
    double *bucket = A->out, *depth = A->out + (size_t)B_FIELDS * A->nb;
    double *g = depth + (size_t)D_FIELDS * A->cut, *gg = g + G_FIELDS;
    double R = A->g[G_R];
    for (int i = 0; i < A->ntouched; i++) {
        int t = A->touched[i];
        double n = A->bn[t], p = A->bp[t], s = A->bs[t];
        double *o = bucket + (size_t)B_FIELDS * t;
        o[B_NN] += n * n, o[B_NR] += n * R, o[B_PP] += p * p, o[B_SS] += s * s, o[B_SP] += s * p;
        A->bn[t] = A->bp[t] = A->bs[t] = 0;
    }
    A->ntouched = 0;
    for (int i = 0; i < A->nstarts; i++) depth[(size_t)D_FIELDS * A->starts[i] + D_R] += R;
    double *bins = gg + G_FIELDS * G_FIELDS;
    for (int i = 0; i < A->nstarts; i++) A->kn[(long long)A->starts[i] * A->depth_bins / A->cut] += 1;
    for (int k = 0; k < A->depth_bins; k++) {
        double n = A->kn[k];
        if (n == 0) continue;
        bins[(size_t)K_FIELDS * k + K_NN] += n * n, bins[(size_t)K_FIELDS * k + K_NR] += n * R;
        A->kn[k] = 0;
    }
    A->nstarts = 0;
    for (int i = 0; i < G_FIELDS; i++) {
        g[i] += A->g[i];
        for (int j = i; j < G_FIELDS; j++) gg[i * G_FIELDS + j] += A->g[i] * A->g[j];
    }
    memset(A->g, 0, sizeof A->g);
}

static inline void record(Acc *A, const Sim *S, const Round *r)
{
    int t = r->tc - S->tc_min;
    double *o = A->out + (size_t)B_FIELDS * t;
    if (A->bn[t] == 0) A->touched[A->ntouched++] = t;
    A->bn[t] += 1;
    o[B_N] += 1;
    A->out[(size_t)B_FIELDS * A->nb + (size_t)D_FIELDS * r->n + D_N] += 1;
    A->starts[A->nstarts++] = r->n;
    A->g[G_R] += 1;
    if (r->played) {
        double x = r->unit, bet = S->bets[t], w = bet * x;
        o[B_P] += 1, o[B_S] += x, o[B_Q] += x * x;
        A->bp[t] += 1, A->bs[t] += x;
        A->g[G_P] += 1, A->g[G_B] += bet, A->g[G_Y] += w, A->g[G_Z] += w * w, A->g[G_U] += x, A->g[G_V] += x * x;
    }
}

/* -- arguments ---------------------------------------------------------------------------- */

typedef struct { Py_buffer b[11]; int n; } Buffers;

static void release(Buffers *B)
{
    for (int i = 0; i < B->n; i++) PyBuffer_Release(&B->b[i]);
}

/* header, doubles (bj pays), deck, tags, codes (rank_of, pairkey), first, hit3, split2, idx, tc, bets */
static int setup(Sim *S, Buffers *B)
{
    const int32_t *h = B->b[0].buf;
    if (B->b[0].len < (Py_ssize_t)(H_FIELDS * sizeof(int32_t))) {
        PyErr_SetString(PyExc_ValueError, "header too short");
        return -1;
    }
    S->ncards = h[H_NCARDS], S->cut = h[H_CUT], S->seats = h[H_SEATS], S->h17 = h[H_H17];
    S->peek = h[H_PEEK], S->surrender = h[H_SURRENDER], S->insurance = h[H_INSURANCE];
    S->max_hands = h[H_MAX_HANDS], S->max_hands_aces = h[H_MAX_HANDS_ACES], S->hit_split_aces = h[H_HIT_SPLIT_ACES];
    S->indices = h[H_INDICES], S->insure = h[H_INSURE], S->ins_index = h[H_INS_INDEX];
    S->left_lo = h[H_LEFT_LO], S->rc_lo = h[H_RC_LO], S->rc_cols = h[H_RC_COLS], S->tc_min = h[H_TC_MIN];
    S->nb = h[H_NB], S->wong_mode = h[H_WONG_MODE], S->wong_in_on = h[H_WONG_IN_ON], S->wong_in = h[H_WONG_IN];
    S->wong_out_on = h[H_WONG_OUT_ON], S->wong_out = h[H_WONG_OUT], S->irc = h[H_IRC], S->filler = h[H_FILLER];
    S->player_max = h[H_PLAYER_MAX], S->dealer_max = h[H_DEALER_MAX], S->charlie = h[H_CHARLIE];
    S->depth_bins = h[H_DEPTH_BINS];
    for (int u = 0; u < 10; u++) {
        S->double_loss[u] = u == ACE ? h[H_DOUBLE_LOSS_ACE] : h[H_DOUBLE_LOSS_TEN];
        S->split_loss[u] = u == ACE ? h[H_SPLIT_LOSS_ACE] : h[H_SPLIT_LOSS_TEN];
    }
    if (S->seats < 1 || S->seats > 8 || S->ncards < 1 || S->max_hands > MAX_HANDS || S->nb < 1 || S->cut < 1
        || S->cut > S->ncards || S->depth_bins < 1 || S->depth_bins > S->cut) {
        PyErr_SetString(PyExc_ValueError, "bad header");
        return -1;
    }
    S->bj_pays = ((const double *)B->b[1].buf)[0];
    S->tags = B->b[3].buf;
    S->rank_of = B->b[4].buf, S->pairkey = (const uint8_t *)B->b[4].buf + CODES;
    S->first = B->b[5].buf, S->hit3 = B->b[6].buf, S->split2 = B->b[7].buf;
    S->idx = B->b[8].buf, S->tc = B->b[9].buf, S->bets = B->b[10].buf;
    if (B->b[2].len != S->ncards || B->b[5].len != 10 * CODES * CODES || B->b[6].len != 10 * STRIDE
        || B->b[7].len != 10 * STRIDE || B->b[8].len != (Py_ssize_t)(3 * 10 * CODES * CODES * sizeof(int32_t))
        || B->b[10].len != (Py_ssize_t)(S->nb * sizeof(double))) {
        PyErr_SetString(PyExc_ValueError, "a table's size does not match the header");
        return -1;
    }
    return 0;
}

static int get_buffers(PyObject *args, Buffers *B, int first)
{
    B->n = 0;
    for (int i = 0; i < 11; i++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(args, first + i), &B->b[i], PyBUF_C_CONTIGUOUS) < 0) {
            release(B);
            return -1;
        }
        B->n++;
    }
    return 0;
}

static PyObject *deal_block(PyObject *self, PyObject *args)
{
    /* 11 tables, then seed, block, rounds, out */
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != 15) {
        PyErr_SetString(PyExc_TypeError, "deal_block takes 11 tables, seed, block, rounds and out");
        return NULL;
    }
    unsigned long long seed = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, 11));
    unsigned long long block = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, 12));
    long long rounds = PyLong_AsLongLong(PyTuple_GET_ITEM(args, 13));
    if (PyErr_Occurred()) return NULL;
    Buffers B;
    if (get_buffers(args, &B, 0) < 0) return NULL;
    Py_buffer out;
    if (PyObject_GetBuffer(PyTuple_GET_ITEM(args, 14), &out, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        release(&B);
        return NULL;
    }
    Sim S;
    memset(&S, 0, sizeof S);
    PyObject *result = NULL;
    uint8_t *deck = NULL;
    Acc A;
    memset(&A, 0, sizeof A);
    if (setup(&S, &B) < 0) goto done;
    size_t need = (size_t)B_FIELDS * S.nb + (size_t)D_FIELDS * S.cut + G_FIELDS + G_FIELDS * G_FIELDS
                  + (size_t)K_FIELDS * S.depth_bins;
    if ((size_t)out.len != need * sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "out has the wrong size");
        goto done;
    }
    deck = PyMem_Malloc(S.ncards);
    A.bn = PyMem_Calloc(3 * (size_t)S.nb + S.depth_bins, sizeof(double));
    A.touched = PyMem_Malloc(sizeof(int) * ((size_t)S.nb + S.cut + 1));
    A.starts = A.touched + S.nb;
    if (!deck || !A.bn || !A.touched) {
        PyErr_NoMemory();
        goto done;
    }
    A.bp = A.bn + S.nb, A.bs = A.bp + S.nb, A.kn = A.bs + S.nb, A.out = out.buf, A.nb = S.nb, A.cut = S.cut;
    A.depth_bins = S.depth_bins;
    memcpy(deck, B.b[2].buf, S.ncards);
    S.deck = deck, S.rigged = 0;
    seed_block(&S, seed, block);
    long long dealt = 0, shoes = 0, voids = 0, cards = 0;
    Py_BEGIN_ALLOW_THREADS
    while (dealt < rounds) {
        shuffle_start(&S);
        int wong = S.wong_in_on ? 0 : 1; /* waiting for wong_in, else seated from the start */
        shoes++;
        while (S.pos < S.cut) {
            Round r = play_round(&S, &wong);
            record(&A, &S, &r);
            cards += r.cards;
            dealt++;
            if (S.exhausted) {
                voids++;
                break;
            }
        }
        fold_shoe(&A);
    }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(LLLL)", dealt, shoes, voids, cards);
done:
    PyMem_Free(deck);
    PyMem_Free(A.bn);
    PyMem_Free(A.touched);
    PyBuffer_Release(&out);
    release(&B);
    return result;
}

static PyObject *deal_rigged(PyObject *self, PyObject *args)
{
    /* 11 tables (the deck: the cards in the order dealt) */
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != 11) {
        PyErr_SetString(PyExc_TypeError, "deal_rigged takes 11 tables");
        return NULL;
    }
    Buffers B;
    if (get_buffers(args, &B, 0) < 0) return NULL;
    Sim S;
    memset(&S, 0, sizeof S);
    PyObject *result = NULL;
    uint8_t *deck = NULL;
    if (setup(&S, &B) < 0) goto done;
    deck = PyMem_Malloc(S.ncards);
    if (!deck) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(deck, B.b[2].buf, S.ncards);
    S.deck = deck, S.rigged = 1;
    shuffle_start(&S);
    result = PyList_New(0);
    int wong = S.wong_in_on ? 0 : 1;
    while (result && S.pos < S.cut) {
        Round r = play_round(&S, &wong);
        PyObject *row = Py_BuildValue("(iiiidi)", r.n, r.rc, r.tc, r.played, r.unit, r.cards);
        if (!row || PyList_Append(result, row) < 0) Py_CLEAR(result);
        Py_XDECREF(row);
        if (S.exhausted) break;
    }
done:
    PyMem_Free(deck);
    release(&B);
    return result;
}

static PyMethodDef methods[] = {
    {"deal_block", deal_block, METH_VARARGS, "Deal shuffled shoes until `rounds` rounds, adding into `out`."},
    {"deal_rigged", deal_rigged, METH_VARARGS, "Deal one shoe from the cards in the order given: each round's record."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_simulate_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__simulate_kernel(void) { return PyModule_Create(&module); }
