"""Heuristics: how good a position is for one player, for bots.

Owns: compiling the spec's optional `heuristics.value` (a number for player
`me`, checked like every other rule text) into `value(state, player)`, the
fallback to the spec's scoring when it declares no heuristic (`end.score`, then
the tie-breaks of `end.winners`: `scoring_keys`), and
the payoff of a finished game (`outcome`). It never changes a state: `me`
is bound by evaluating on the state with its current player set to the
player asked about, and put back at once.
"""
from __future__ import annotations

from typing import Callable
from weakref import WeakKeyDictionary

from ..compile.compiler import _NOCONST, Compiler
from ..lang import nodes as N
from ..runtime.engine import Game, State, Status

Value = Callable[[State, int], float]
WIN = 1_000_000.0  # a won game is worth more than any position; heuristics are scaled well below it

_cache: "WeakKeyDictionary[Game, Value]" = WeakKeyDictionary()
_keys_cache: "WeakKeyDictionary[Game, list]" = WeakKeyDictionary()


def value_function(game: Game) -> Value:
    """`value(state, player)`: the spec's heuristic, else its scoring keys (see scoring_keys), else 0."""
    if game in _cache:
        return _cache[game]
    spec = game.spec
    if spec.heuristic is not None and spec.heuristic.ast is not None:
        f = Compiler(spec, game.options, game.readings).gen.condition(spec.heuristic)
        n = max(spec.heuristic.n_locals, 1)

        def value(st: State, p: int) -> float:
            cur = st.cur
            st.cur = p  # `me` is the player asked about
            try:
                return float(f(st, [None] * n))
            finally:
                st.cur = cur
    elif scoring_keys(game):
        keys = scoring_keys(game)
        if len(keys) == 1 and keys[0][1] == 1.0:
            i = keys[0][0]

            def value(st: State, p: int) -> float:
                return float(st.pvars[i][p])
        else:
            def value(st: State, p: int) -> float:
                rows = st.pvars
                return sum(w * rows[i][p] for i, w in keys)
    else:
        def value(st: State, p: int) -> float:
            return 0.0
    _cache[game] = value
    return value


TIE_RANGE = 1000  # a tie-break variable without a declared range is taken to stay within +-999


def scoring_keys(game: Game) -> list[tuple[int, float]]:
    """The player variables a spec ranks players by, with their weights: `end.score` first, then the
    tie-breaks of `end.winners` (`best(best(players, vp), checks)`: vp, then checks; `worst` counts
    negatively; a condition on options or readings picks its branch), each weighted below one unit of the
    key before it (1 / its declared range, else 1 / TIE_RANGE); `end.score` counts negatively when the
    first ranking of `end.winners` is a `worst` (the lowest score wins). [] when the spec ranks by none."""
    got = _keys_cache.get(game)
    if got is not None:
        return got
    spec = game.spec
    pvars = list(spec.vars["player"].values())
    order: list[tuple[int, float]] = []
    ranked = spec.winners is not None and spec.winners.ast is not None
    comp = Compiler(spec, game.options, game.readings) if ranked else None
    if game.score_idx is not None:  # lower is better when the winners are the `worst` by their first key
        order.append((game.score_idx, _first_sign(spec.winners.ast, comp) if ranked else 1.0))
    if ranked:
        for i, sign in _ranking(spec.winners.ast, comp):
            if all(i != j for j, _ in order):
                order.append((i, sign))
    keys, w = [], 1.0
    for k, (i, sign) in enumerate(order):
        if k:
            vd = pvars[i]
            span = vd.max - vd.min + 1 if vd.min is not None and vd.max is not None else TIE_RANGE
            w /= max(span, 2)
        keys.append((i, sign * w))
    _keys_cache[game] = keys
    return keys


def _rank_step(e, comp):
    """(best or worst, the collection it ranks, the player variable it ranks by or None) of a ranking
    `best(players, vp)` / `worst p in players by p.penalty`; a constant condition picks its branch; else None."""
    if isinstance(e, N.Call) and e.ref == ("builtin", e.func) and e.func in ("best", "worst") and len(e.args) == 2:
        ref = getattr(e.args[1], "ref", None)
        return e.func, e.args[0], ref[1] if ref is not None and ref[0] == "pvar" else None
    if isinstance(e, N.Aggregate) and e.func in ("best", "worst"):
        v = e.value
        mine = isinstance(v, N.Attr) and getattr(v.obj, "ref", None) == ("local", e.slot)
        ref = getattr(v, "ref", None) if mine else None
        return e.func, e.coll, ref[1] if ref is not None and ref[0] == "pvar" else None
    if isinstance(e, N.Ternary):
        c = comp.const(e.cond)
        return None if c is _NOCONST else _rank_step(e.then if c else e.orelse, comp)
    if isinstance(e, N.LetIn):
        return _rank_step(e.body, comp)
    return None


def _ranking(e, comp) -> list[tuple[int, float]]:
    """Player variables `e` ranks players by, primary first (see scoring_keys)."""
    step = _rank_step(e, comp)
    if step is None:
        return []
    func, coll, var = step
    inner = _ranking(coll, comp)
    return inner + [(var, 1.0 if func == "best" else -1.0)] if var is not None else inner


def _first_sign(e, comp) -> float:
    """-1.0 when the first ranking `e` makes is a `worst` (No Thanks!: the lowest score wins), else 1.0."""
    step, sign = _rank_step(e, comp), 1.0
    while step is not None:  # down to the innermost ranking: the one applied first
        sign = 1.0 if step[0] == "best" else -1.0
        step = _rank_step(step[1], comp)
    return sign


def judges(game: Game) -> bool:
    """Whether positions of a running game differ in value (a heuristic, or scoring keys to rank by)."""
    spec = game.spec
    return spec.heuristic is not None and spec.heuristic.ast is not None or bool(scoring_keys(game))


def outcome(st: State) -> list[float]:
    """Each seat's share of the win (ties split; a stalled or broken game pays nobody)."""
    out = [0.0] * st.n
    if st.status is Status.FINISHED and st.winners:
        share = 1.0 / len(st.winners)
        for w in st.winners:
            out[w] = share
    return out


def position_value(st: State, p: int, value: Value) -> float:
    """The heuristic in a running game, the win share (scaled) in a finished one."""
    if st.status is Status.RUNNING:
        return value(st, p)
    return WIN * outcome(st)[p] - (WIN if st.status is Status.FINISHED and p not in st.winners else 0.0)
