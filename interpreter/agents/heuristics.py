"""Heuristics: how good a position is for one player, for bots.

Owns: compiling the spec's optional `heuristics.value` (a number for player
`me`, checked like every other rule text) into `value(state, player)`, the
fallback to the `end.score` variable when a spec declares no heuristic, and
the payoff of a finished game (`outcome`). It never changes a state: `me`
is bound by evaluating on the state with its current player set to the
player asked about, and put back at once.
"""
from __future__ import annotations

from typing import Callable
from weakref import WeakKeyDictionary

from ..compile.compiler import Compiler
from ..runtime.engine import Game, State, Status

Value = Callable[[State, int], float]
WIN = 1_000_000.0  # a won game is worth more than any position; heuristics are scaled well below it

_cache: "WeakKeyDictionary[Game, Value]" = WeakKeyDictionary()


def value_function(game: Game) -> Value:
    """`value(state, player)`: the spec's heuristic, else the score variable, else 0."""
    if game in _cache:
        return _cache[game]
    spec = game.spec
    if spec.heuristic is not None and spec.heuristic.ast is not None:
        f = Compiler(spec, game.options, game.readings).condition(spec.heuristic)
        n = max(spec.heuristic.n_locals, 1)

        def value(st: State, p: int) -> float:
            cur = st.cur
            st.cur = p  # `me` is the player asked about
            try:
                return float(f(st, [None] * n))
            finally:
                st.cur = cur
    elif game.score_idx is not None:
        i = game.score_idx

        def value(st: State, p: int) -> float:
            return float(st.pvars[i][p])
    else:
        def value(st: State, p: int) -> float:
            return 0.0
    _cache[game] = value
    return value


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
