"""What a count and a bet spread are worth: true-count frequencies, advantage by true count,
win rate, SD, DI, SCORE, N0 and risk of ruin, from exact counter's-shoe analyses.

The model (docs/truecount.md says what is exact and what is modelled):

- **Rounds along the shoe.** A round uses ``c`` cards with a distribution computed from the
  strategy with the full shoe's card probabilities (:func:`round_cards`). The default
  placement is ``chain`` where it can be followed (floating point, counts of at most
  :data:`CHAIN_CLASSES` tag values: the cards seen of each tag class followed from round
  to round, :func:`round_start_chain`), else ``renewal`` (``spaced`` when wonging out:
  :func:`round_start_states`). ``renewal`` starts rounds where those draws take them,
  independently of the count:
  ``P(a round starts after N cards) = u(N)``, ``u(0) = 1``, ``u(N) = sum_c P(c) u(N - c)``, for
  every ``N`` below the cut card (:func:`round_start_chances`); ``spaced`` starts round ``k``
  after ``round(k * E[c])`` cards (fewer depths, so faster; needed to follow the count's path
  when wonging out). The placement is the one modelled quantity that enters the weights; it
  leaves out the cut-card effect (rounds that use many cards are likelier in some counts).
- **The count at a round's start** is exactly distributed:
  ``P(RC | N) = #(N-subsets with that tag sum) / C(cards, N)``
  (:func:`bjcalc.counting.countshoe.running_count_distribution`), as fractions summing to exactly 1.
  With ``wong_out`` the counter leaves a shoe for good at the first round whose true count is
  below it, which depends on the path of the count: then a forward pass over the class totals
  seen (:class:`CountPath`, float) carries the chance of still being at the table.
- **The advantage at a round's start** for depth ``N`` and running count ``RC`` is the round's
  EV on the counter's shoe (:class:`bjcalc.counting.countshoe.CountShoe`): ``basic`` (the full shoe's
  basic-strategy chart), ``indices`` (that chart with the index plays of ``bjcalc index``,
  taken on the count the counter sees when deciding: :class:`IndexPolicy`; insurance at its
  index) and ``cd`` (composition-dependent play on the counter's shoe, insurance when it
  pays). The table by true count is by the true count at the round's start. One task per (depth, running count):
  :mod:`bjcalc.counting.tasks` runs them and keeps their results.
- **The second moment of one round** at a count is the full shoe's for the strategy (exact, on
  the full shoe): ``E[X^2 | state] = E[X^2]``. Averaged over the counts at any depth this is
  exact for a fixed chart (the law of total expectation), so a flat bettor's SD is exact; with
  a spread it leaves out how ``E[X^2]`` moves with the count (the moments do not yet run on a
  counter's shoe).

Win rate ``W = sum f * bet * A``; ``SD^2 = sum f * bet^2 * E[X^2] - W^2``; per round
played (sitting out when wonging); ``DI = 1000 W / SD``, ``SCORE = DI^2 = 10^6 / N0``,
``N0 = (SD / W)^2``, risk of ruin ``exp(-2 W B / SD^2)`` (counting.md section 5).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import os
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from bjcalc.arguments import check_choice, check_flag, check_number, check_whole, shown
from bjcalc.counting.countshoe import _check_system_name
from bjcalc.counting.economics import RunOutShare, WinFigures, _run_out_share, _win
from bjcalc.counting.indices import Convention, IndexPlay, default_plays
from bjcalc.counting.placement import CHAIN_CLASSES, PATH_CLASSES, CountPath, RoundStarts, round_start_states
from bjcalc.counting.spread import OPTIMAL_SPREAD_LIMIT, InvalidSpreadError, Spread, _kelly_spread
from bjcalc.counting.states import _indices_task, _second_moment_task, _states_together, run_states, state_task
from bjcalc.counting.tags import CARDS_PER_DECK, TagClasses, check_initial_running_count, counting_tags, true_count
from bjcalc.counting.tasks import (
    RunStats,
    Task,
    TaskStore,
    check_arguments,
    check_scheduler,
    opens_store,
    run_tasks,
    task_key,
)
from bjcalc.errors import InvalidArgumentError, InvalidShoeError
from bjcalc.results import _Data
from bjcalc.rules import Rules

STRATEGIES = ("basic", "indices", "cd")
# what E[X^2] of one round is taken to be, by the ``moments`` option (the JSON's second_moment_model)
MOMENT_MODELS = {
    "shoe": "E[X^2] of one round at every count is the full shoe's (modelled)",
    "state": "E[X^2] of one round worked out on each state's counter's shoe, with the strategy's plays and insurance "
             "(exact per state)",
}
# the largest result of one round per initial bet (four hands split and doubled): bounds what
# the running counts left out (``tail``) could change
MOST_PER_ROUND = 8
# the largest bankroll, in initial bets: a million of the largest bets a spread takes
# (spread.BET_LIMIT); beyond it the risk of ruin is 0 to every digit shown
BANKROLL_LIMIT = 10 ** 12


state_task.together = _states_together  # type: ignore[attr-defined]


@dataclasses.dataclass(frozen=True)
class TrueCountResult(_Data):
    """:func:`truecount_analysis`'s answer. Probabilities are exact Fractions where the model makes them
    so (``counts``, ``frequencies`` without wonging out); EVs are floats (Fractions with ``exact``)."""

    rules: Rules
    system: str
    tags: tuple[Fraction, ...]
    penetration: Fraction
    cut: int
    seats: int
    convention: Convention
    cards_per_round: float
    starts: tuple[int, ...]
    counts: tuple[dict[Fraction, Any], ...]  # per round start: running count -> probability
    frequencies: dict[Fraction, Any]  # true count -> share of rounds
    advantage: dict[str, dict[Fraction, Any]]  # strategy -> true count -> EV per initial bet
    advantage_all: dict[str, Any]  # strategy -> EV per round over the shoe, flat bet
    second_moment: dict[str, Any]  # strategy -> E[X^2] of one round on the full shoe
    win: WinFigures
    by_penetration: tuple[tuple[Fraction, WinFigures], ...]
    optimal: tuple[Spread, WinFigures] | None
    indices: tuple[tuple[str, int], ...]
    insurance_index: int | None
    index_depth: int | None  # None: the published list
    left_out: Any  # the share of rounds at running counts too unlikely to analyse
    bound: Any  # what they could change the win per round by, at most
    wong_in: int | None
    wong_out: int | None
    exact: bool
    run: RunStats
    placement: str = "renewal"
    shares: tuple[Fraction, ...] = ()  # the share of the rounds that start at each of ``starts``
    rounds_per_shoe: float = 0.0
    run_out: RunOutShare | None = None  # deep shoes: how likely a round is to run out of cards
    moments: str = "shoe"  # "shoe": E[X^2] the full shoe's at every state (modelled); "state": each state's own
    # wonging: the strategy's advantage by true count over the rounds played there (``advantage`` is over
    # every round dealt: wonging out plays a different mix of depths at a count); None without wonging
    advantage_played: dict[Fraction, Any] | None = None

    def to_data(self) -> dict[str, Any]:
        def tcs(values: dict[Fraction, Any]) -> list[dict[str, Any]]:
            return [{"true_count": k, "value": v} for k, v in values.items()]

        return {
            "system": self.system,
            "tags": [self.tags[r] for r in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)],
            "penetration": self.penetration, "cut": self.cut, "seats": self.seats,
            "divisor": self.convention.divisor.value, "rounding": self.convention.rounding.value,
            "cards_per_round": self.cards_per_round,
            "rounds_per_shoe": self.rounds_per_shoe,
            "frame": "unconditional",
            "placement": self.placement,
            "second_moment_model": MOMENT_MODELS[self.moments],
            "depths": [{"cards_seen": n, "share_of_rounds": share,
                        "running_counts": [{"running_count": rc, "probability": p} for rc, p in c.items()]}
                       for n, share, c in zip(self.starts, self.shares, self.counts)],
            "frequencies": tcs(self.frequencies),
            "advantage": {s: tcs(a) for s, a in self.advantage.items()},
            "advantage_all": self.advantage_all,
            "second_moment": self.second_moment,
            "win": self.win.to_data(),
            "by_penetration": [{"penetration": p, **w.to_data()} for p, w in self.by_penetration],
            "optimal_spread": None if self.optimal is None else self.optimal[1].to_data(),
            "indices": [{"play": n, "index": i} for n, i in self.indices],
            "insurance_index": self.insurance_index, "index_cards_seen": self.index_depth,
            "left_out": self.left_out, "bound": self.bound,
            "wong_in": self.wong_in, "wong_out": self.wong_out,
            "run": self.run.to_data(),
            **({} if self.run_out is None else {"run_out": self.run_out.to_data()}),
            **({} if self.advantage_played is None else {"advantage_played": tcs(self.advantage_played)}),
        }


@opens_store
def truecount_analysis(
        rules: Rules, system: str, tags: Sequence[Any], *, penetration: float | Fraction | str = Fraction(3, 4),
        seats: int = 1, convention: Convention | None = None, strategy: str = "indices",
        spread: Spread | str | None = None, wong_in: int | None = None, wong_out: int | None = None,
        bankroll: float | None = None, optimal_spread: float | None = None, irc: Fraction | int = 0,
        tail: float = 1e-9, exact: bool = False, store: TaskStore | str | os.PathLike[str] | None = None,
        workers: int | None = None,
        scheduler: str | None = None, progress: Callable[[int, int], None] | None = None, batch: int | None = None,
        penetrations: Sequence[Fraction] | None = None, placement: str | dict[int, Any] | None = None,
        indices: str = "computed", moments: str = "shoe") -> TrueCountResult:
    """A count and a bet spread over the rounds of a shoe (module docstring). ``tail``: the
    least likely (depth, running count) states, together at most this share of the rounds, are
    not analysed (their effect is bounded in ``bound``); 0 analyses every one. ``placement``:
    ``chain``, ``dealt``, ``renewal``, ``spaced`` (module docstring) or a mapping depth -> weight; default
    the chain where it can be followed (float, counts of up to three tag values), else renewal
    (spaced when wonging out). ``indices``: ``computed`` (``bjcalc index`` at the middle round's
    depth, with this convention) or ``published`` (the common Hi-Lo list). ``moments``: each
    round's ``E[X^2]`` taken as the full shoe's for the strategy (``shoe``, modelled) or worked
    out on every state's counter's shoe with the strategy's plays and insurance (``state``,
    exact per state, and costlier: the split moments of every state). ``store``: a
    :class:`TaskStore`, a file's path (opened for the run, as ``--store`` takes it) or ``None``
    (memory); ``spread``: a :class:`Spread` or its text (:meth:`Spread.parse`).

    Its steps: check every option before any work, place the rounds, the index plays and the
    second moment, run the (depth, running count) states, pool them by true count, figures."""
    check_arguments(rules, workers)  # the store: opens_store
    from bjcalc.analysis import Analysis

    game = _game_of(rules, system, tags, convention, irc, exact, store, scheduler, moments)
    pen, spread_ = _checked(game, penetration, spread, wong_in, wong_out, seats, strategy, tail, bankroll,
                            optimal_spread)
    _checked_too(pen, penetrations, batch, indices)
    cut = _cut(pen, game.cards, penetration)
    chart = Analysis(rules).chart()
    where_rounds = _place_rounds(game, chart, cut, seats, placement, wong_in, wong_out)
    starts = where_rounds.starts
    index_depth = starts[len(starts) // 2]
    plays, insurance_index = _index_plays(game, system, index_depth, indices)
    second_moment = _second_moment(game) if moments == "shoe" else None  # a task of its own, before the states'
    kept, left_out = _likely(where_rounds.rounds, tail)
    values, run = _run_the_states(game, chart, plays, insurance_index, starts, kept, pen, workers, progress, batch,
                                  strategy)
    if second_moment is None:  # moments by state: the states' own, over the rounds dealt
        second_moment = _pooled_moments(game, where_rounds, values, strategy)
    playing = _playing(game, where_rounds, values, wong_in, wong_out)
    frequencies, advantage, flat_all = _by_true_count(game, starts, where_rounds.rounds, values)
    advantage_played = (None if wong_in is None and wong_out is None
                        else _by_true_count(game, starts, playing, values)[1][strategy])
    win, by_penetration, optimal = _figures(game, strategy, spread_, playing, where_rounds, values,
                                            second_moment, cut, pen, penetrations, optimal_spread, advantage,
                                            bankroll)
    bound = left_out * MOST_PER_ROUND * max(b for _, _, b in spread_.steps)
    run_out = _run_out_share(rules, starts, where_rounds.rounds, values, spread_, game.zero, game.number)
    return TrueCountResult(
        rules, system, game.tags, pen, cut, seats, game.convention, where_rounds.cards_per_round, starts,
        where_rounds.counts, frequencies, advantage, flat_all, second_moment, win, tuple(by_penetration), optimal,
        tuple((p.name, i) for p, i in plays), insurance_index, index_depth if indices == "computed" else None,
        left_out if exact else float(left_out), bound if exact else float(bound), wong_in, wong_out, exact, run,
        where_rounds.placement, where_rounds.shares, where_rounds.rounds_per_shoe, run_out, moments, advantage_played)


def _game_of(rules: Rules, system: str, tags: Sequence[Any], convention: Convention | None, irc: Fraction | int,
             exact: bool, store: Any, scheduler: str | None, moments: str) -> _Game:
    """What every step shares, from the arguments that say it, each checked first."""
    _check_system_name(system)
    tags = counting_tags(tags)
    if convention is not None and not isinstance(convention, Convention):
        raise InvalidArgumentError(f"convention must be a Convention (convention_of(divisor, rounding)) or None, "
                                   f"not {shown(convention)}")
    if isinstance(irc, bool):
        raise InvalidArgumentError(f"irc must be a number (the initial running count), not {irc!r}")
    check_flag(exact, "exact")
    return _Game(rules, tags, convention or Convention(), _fraction(irc, "irc"), exact,
                 store if isinstance(store, TaskStore) else TaskStore(None), scheduler, moments)


@dataclasses.dataclass(frozen=True)
class _Game:
    """What every step of :func:`truecount_analysis` shares: the game, the count, the
    convention, the arithmetic and where the states' results go."""

    rules: Rules
    tags: tuple[Fraction, ...]
    convention: Convention
    irc: Fraction
    exact: bool
    store: TaskStore
    scheduler: str | None
    moments: str = "shoe"

    @property
    def cards(self) -> int:
        return sum(self.rules.shoe_counts)

    @property
    def number(self) -> Callable[[Any], Any]:
        return Fraction if self.exact else float

    @property
    def zero(self) -> Any:
        return self.number(0)

    def tc_of(self, rc: Fraction, left: int) -> Fraction:
        """The convention's true count at running count ``rc`` with ``left`` cards left."""
        return true_count(rc, left, self.convention.divisor, self.convention.rounding)


def _checked(game: _Game, penetration: Any, spread: Spread | str | None, wong_in: int | None,
             wong_out: int | None, seats: int, strategy: str, tail: float, bankroll: float | None,
             optimal_spread: float | None) -> tuple[Fraction, Spread]:
    """Every option checked before any work: the penetration and the spread (parsed)."""
    pen = _fraction(penetration, "penetration")
    if game.rules.infinite:
        raise InvalidShoeError("an infinite deck has no count: the cards are drawn with replacement")
    if isinstance(spread, str):
        spread = Spread.parse(spread)
    if spread is not None and not isinstance(spread, Spread):
        raise InvalidSpreadError(f"spread must be a Spread or text such as '<=1:1,2:2,>=3:4', not {spread!r}")
    # a true count beyond every one the shoe can produce (the tags of all its cards and the IRC,
    # over the smallest divisor, one card) would never be reached
    reach = math.ceil((sum(abs(t) * n for t, n in zip(game.tags, game.rules.shoe_counts)) + abs(game.irc))
                      * CARDS_PER_DECK)
    for name, count in (("wong_in", wong_in), ("wong_out", wong_out)):
        if count is not None and (not isinstance(count, int) or isinstance(count, bool)):
            raise InvalidSpreadError(f"{name} must be a whole true count or None, not {count!r}")
        if count is not None and not -reach <= count <= reach:
            raise InvalidSpreadError(f"{name} must be a true count from {-reach} to {reach} (what this shoe can "
                                     f"produce), not {shown(count)}")
    check_initial_running_count(game.rules.shoe_counts, game.tags, game.irc, "irc, the initial running count (IRC)")
    if game.scheduler is not None:
        check_scheduler(game.scheduler)
    if not 0 < pen < 1:
        raise InvalidShoeError(f"penetration must be above 0 and below 1, not {penetration!r}")
    if not isinstance(seats, int) or isinstance(seats, bool) or not 1 <= seats <= 7:
        raise InvalidShoeError(f"seats must be a whole number from 1 to 7, not {seats!r}")
    check_choice(game.moments, "moments", MOMENT_MODELS)
    if game.moments == "state" and game.rules.insurance and not game.rules.peek:
        raise InvalidSpreadError("moments by state take insurance with a peeking dealer: this game has no peek")
    if strategy not in STRATEGIES:
        raise InvalidSpreadError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
    check_number(tail, "tail")
    if not 0 <= tail < 1e-3:
        raise InvalidSpreadError(f"tail must be from 0 to 0.001, not {tail!r}")
    if bankroll is not None:
        check_number(bankroll, "bankroll")
        if not bankroll > 0:
            raise InvalidSpreadError(f"bankroll must be above 0 (in units of one bet), not {bankroll!r}")
        check_number(bankroll, "bankroll", high=BANKROLL_LIMIT)
    if game.exact and wong_out is not None:
        raise InvalidSpreadError("wonging out is followed in floating point: drop exact or wong_out")
    if wong_in is not None and wong_out is not None and wong_out > wong_in:
        raise InvalidSpreadError(f"wong_out {wong_out} is above wong_in {wong_in}: "
                                 "the counter would leave as he enters")
    if optimal_spread is not None and not (isinstance(optimal_spread, (int, float, Fraction))
                                           and not isinstance(optimal_spread, bool)
                                           and 1 <= optimal_spread <= OPTIMAL_SPREAD_LIMIT):
        raise InvalidSpreadError(f"optimal spread must be a max bet ratio from 1 to {OPTIMAL_SPREAD_LIMIT}, "
                                 f"not {optimal_spread!r}")
    return pen, spread or Spread.flat()


def _checked_too(pen: Fraction, penetrations: Any, batch: Any, indices: Any) -> None:
    """The rest of the options, before any work: the penetrations of the curve (each above 0 and
    at most the penetration; none: no curve), the batch size and where the index plays come from."""
    if penetrations is not None:
        if isinstance(penetrations, (str, bytes)) or not isinstance(penetrations, Sequence) or any(
                isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 < p <= pen  # type: ignore[operator]
                for p in penetrations):
            raise InvalidShoeError(f"penetrations must be a sequence of shares above 0 and at most the penetration "
                                   f"{pen}, or None, not {shown(penetrations)}")
    if batch is not None:
        check_whole(batch, "batch", 1)
    if indices not in ("computed", "published"):
        raise InvalidSpreadError(f"indices must be computed or published, not {shown(indices)}")


def _cut(pen: Fraction, cards: int, penetration: object) -> int:
    """The cards dealt before the cut card, at least one."""
    cut = round(pen * cards)
    if cut < 1:
        raise InvalidShoeError(f"penetration {penetration} puts the cut card before the first card")
    return cut


def _place_rounds(game: _Game, chart: Any, cut: int, seats: int, placement: str | dict[int, Any] | None,
                  wong_in: int | None, wong_out: int | None) -> RoundStarts:
    """Where rounds start, and the count there (:func:`round_start_states`)."""
    classes = len(TagClasses.of(game.tags).values)
    if placement is None and wong_out is not None:  # the chain where it can be followed, else spaced
        placement = "chain" if not game.exact and classes <= CHAIN_CLASSES else "spaced"
    if wong_out is not None and classes > PATH_CLASSES:
        raise InvalidSpreadError(f"wonging out is followed for counts of at most {PATH_CLASSES} distinct tags; "
                                 f"this count has {classes}")
    if wong_out is not None and placement not in ("spaced", "chain", "dealt"):
        raise InvalidSpreadError("wonging out follows the count from round to round: it needs placement chain, "
                                 "dealt or spaced")
    return round_start_states(game.rules, chart, game.tags, cut, placement=placement, seats=seats, irc=game.irc,
                              exact=game.exact, wong=None if wong_out is None else (game.tc_of, wong_in, wong_out))


def _index_plays(game: _Game, system: str, index_depth: int, indices: str
                 ) -> tuple[tuple[tuple[IndexPlay, int], ...], int | None]:
    """The index plays and insurance's index: ``computed`` (bjcalc index at the middle round's
    depth, a task of its own) or ``published`` (the common Hi-Lo list)."""
    rules = game.rules
    by_name = {p.name: p for p in default_plays(rules)}
    if indices == "computed":
        index_key = task_key("truecount-indices", rules, game.tags, index_depth, game.convention, game.exact)
        run_tasks([Task(index_key, _indices_task, (rules, system, game.tags, index_depth, game.convention,
                                                   game.exact))],
                  game.store, "truecount-indices", workers=1, scheduler=game.scheduler)
        found = game.store.get(index_key)
        return tuple((by_name[name], int(i)) for name, i in found["plays"] if i is not None), found["insurance"]
    if indices == "published":  # ../shared/reference/counting.md
        plays = tuple((p, p.published) for p in default_plays(rules) if p.published is not None)
        return plays, 3 if rules.insurance else None
    raise InvalidSpreadError(f"indices must be computed or published, not {indices!r}")


def _second_moment(game: _Game) -> dict[str, Any]:
    """E[X^2] of one round for each strategy, on the full shoe (a task of its own)."""
    moment_key = task_key("truecount-second-moment", game.rules, game.exact)
    run_tasks([Task(moment_key, _second_moment_task, (game.rules, game.exact))], game.store,
              "truecount-second-moment", workers=1, scheduler=game.scheduler)
    second_moment = game.store.get(moment_key)
    return second_moment if game.exact else {k: float(v) for k, v in second_moment.items()}


def _pooled_moments(game: _Game, where_rounds: RoundStarts, values: dict[tuple[int, Fraction], Any],
                    strategy: str) -> dict[str, Any]:
    """The strategy's E[X^2] over the rounds dealt (the states' own, weighted by their share of
    the rounds; states not analysed left out): the only strategy the states worked it out for."""
    total = second = game.zero
    for n, at in zip(where_rounds.starts, where_rounds.rounds):
        for rc, w in at.items():
            if (n, rc) in values:
                total += game.number(w)
                second += game.number(w) * values[n, rc]["m2"][strategy]
    return {strategy: second / total}


def _run_the_states(game: _Game, chart: Any, plays: tuple[tuple[IndexPlay, int], ...], insurance_index: int | None,
                    starts: Sequence[int], kept: Sequence[set[Fraction]], pen: Fraction, workers: int | None,
                    progress: Callable[[int, int], None] | None, batch: int | None, strategy: str
                    ) -> tuple[dict[tuple[int, Fraction], Any], RunStats]:
    """Every kept (depth, running count) state's task, run or taken from the store: its values by
    strategy."""
    rules, store = game.rules, game.store
    by_state = strategy if game.moments == "state" else None  # the strategy whose E[X^2] each state works out
    job = task_key("truecount", rules, game.tags, game.irc, chart.to_dict(), [(p.name, i) for p, i in plays],
                   insurance_index, game.convention, game.exact, *(("moments by state", by_state) if by_state else ()))
    tasks, where = [], {}
    for n, likely in zip(starts, kept):
        for rc in sorted(likely):
            key = task_key(job, n, rc)
            where[n, rc] = key
            tasks.append(Task(key, state_task, (rules, game.tags, n, rc, game.irc, chart, plays, insurance_index,
                                                game.convention, by_state, game.exact)))
    run = run_states(tasks, store, job, game.cards, pen, "a smaller --penetration, or fewer split hands",
                     workers=workers, scheduler=game.scheduler, progress=progress, batch=batch)
    return {state: store.get(key) for state, key in where.items()}, run


def _playing(game: _Game, where_rounds: RoundStarts, values: dict[tuple[int, Fraction], Any], wong_in: int | None,
             wong_out: int | None) -> list[dict[Fraction, Any]]:
    """The share of the rounds played at each (depth, running count): all of them, or those a
    wonging counter sits in (entering at ``wong_in``, leaving for good below ``wong_out``); 0
    where the state was not analysed."""
    starts, rounds = where_rounds.starts, where_rounds.rounds
    playing: list[dict[Fraction, Any]]
    if where_rounds.played is not None:  # wonging out along the chain
        playing = [{rc: at.get(rc, 0.0) for rc in rounds[i]} for i, at in enumerate(where_rounds.played)]
    elif wong_out is not None:
        path = CountPath(game.rules.shoe_counts, game.tags, starts, game.tc_of, wong_in, wong_out, game.irc)
        playing = [{rc: p / len(starts) for rc, p in at.items()} for at in path.playing()]
    else:
        playing = [{rc: (w if wong_in is None or game.tc_of(rc, game.cards - n) >= wong_in else 0 * w)
                    for rc, w in at.items()} for n, at in zip(starts, rounds)]
    return [{rc: (game.number(w) if (n, rc) in values else game.zero) for rc, w in at.items()}
            for n, at in zip(starts, playing)]


_ByTrueCount = tuple[dict[Fraction, Any], dict[str, dict[Fraction, Any]], dict[str, Any]]


def _by_true_count(game: _Game, starts: Sequence[int], rounds: Sequence[dict[Fraction, Any]],
                   values: dict[tuple[int, Fraction], Any]) -> _ByTrueCount:
    """The states pooled by the true count at the round's start: how often each is seen, the
    advantage there for each strategy, and each strategy's flat-bet EV over every round."""
    number, zero = game.number, game.zero
    frequencies: dict[Fraction, Any] = {}
    advantage: dict[str, dict[Fraction, Any]] = {s: {} for s in STRATEGIES}
    weight: dict[Fraction, Any] = {}
    flat_all = {s: zero for s in STRATEGIES}
    for n, at in zip(starts, rounds):
        for rc, w in at.items():
            tc = game.tc_of(rc, game.cards - n)
            frequencies[tc] = frequencies.get(tc, 0 * w) + w
            if (n, rc) in values:
                weight[tc] = weight.get(tc, zero) + number(w)
                for s in STRATEGIES:
                    advantage[s][tc] = advantage[s].get(tc, zero) + number(w) * values[n, rc][s]
                    flat_all[s] += number(w) * values[n, rc][s]
    for s in STRATEGIES:
        advantage[s] = {tc: advantage[s][tc] / weight[tc] for tc in sorted(advantage[s]) if weight[tc]}
    return dict(sorted(frequencies.items())), advantage, flat_all


def _figures(game: _Game, strategy: str, spread: Spread, playing: list[dict[Fraction, Any]],
             where_rounds: RoundStarts, values: dict[tuple[int, Fraction], Any], second_moment: dict[str, Any],
             cut: int, pen: Fraction, penetrations: Sequence[Fraction] | None, optimal_spread: float | None,
             advantage: dict[str, dict[Fraction, Any]], bankroll: float | None
             ) -> tuple[WinFigures, list[tuple[Fraction, WinFigures]], tuple[Spread, WinFigures] | None]:
    """The spread's figures to the cut card, by penetration, and those of the Kelly-optimal spread
    within ``optimal_spread``."""
    starts, rounds = where_rounds.starts, where_rounds.rounds

    def figures(depth: int, bets: Spread) -> WinFigures:
        """The spread's figures over the rounds that start before ``depth`` cards."""
        upto = [i for i, n in enumerate(starts) if n < depth]
        whole = sum((game.number(w) for i in upto for w in rounds[i].values()), game.zero)
        return _win(strategy, bets, [(starts[i], playing[i]) for i in upto], whole, values, second_moment[strategy],
                    game.tc_of, game.cards, bankroll, game.exact)

    by_penetration = [(p, figures(round(p * game.cards), spread))
                      for p in (penetrations if penetrations is not None else _penetrations(pen))
                      if any(n < round(p * game.cards) for n in starts)]
    optimal = None
    if optimal_spread is not None:
        ratio = Fraction(optimal_spread).limit_denominator(1000)
        best = max((_kelly_spread(advantage[strategy], second_moment[strategy], ratio, scale)
                    for scale in (10 ** (e / 8) for e in range(0, 40))),
                   key=lambda s: figures(cut, s).score)
        optimal = (best, figures(cut, best))
    return figures(cut, spread), by_penetration, optimal


def _fraction(value: Any, field: str) -> Fraction:
    try:
        return Fraction(str(value)) if isinstance(value, (str, float)) else Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        raise InvalidShoeError(f"{field} must be a number, not {value!r}") from None


def _likely(rounds: Sequence[dict[Fraction, Any]], tail: float) -> tuple[list[set[Fraction]], Any]:
    """The states analysed at each round start: all but the least likely, which together weigh
    at most ``tail`` of the rounds; and the share of the rounds left out."""
    kept = [set(at) for at in rounds]
    if tail != 0:
        dropped = 0.0
        for w, i, rc in sorted((float(w), i, rc) for i, at in enumerate(rounds) for rc, w in at.items()):
            if dropped + w > tail:
                break
            dropped += w
            kept[i].discard(rc)
    left_out = sum((w for at, likely in zip(rounds, kept) for rc, w in at.items() if rc not in likely), 0 * tail)
    return kept, left_out


def _penetrations(pen: Fraction) -> list[Fraction]:
    """Where the win-rate-against-penetration curve is drawn: every 5 % from 50 % to ``pen``."""
    out = [Fraction(p, 100) for p in range(50, 100, 5) if Fraction(p, 100) < pen]
    return out + [pen]
