"""Measures: the numbers a spec asks `simulate` and `compare` to report per game.

Owns compiling a spec's `measures:` section for one compiled Game (its
options and readings fixed) and evaluating it on a finished game's State.
A measure is one expression of the rules language, read when the game ends;
counting events is the spec's business (a global variable its rules
increase), so the engine needs no hook for it. Aggregating over many games
is runner.Stats's job.
"""
from __future__ import annotations

from typing import Any, Callable

from ..compile.compiler import Compiler

_compiled: dict[int, tuple[Any, list[tuple[str, Callable, int]]]] = {}


def compiled(game) -> list[tuple[str, Callable, int]]:
    """(name, f, locals) for each measure of `game`'s spec, compiled once per Game."""
    hit = _compiled.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    spec = game.spec
    if not spec.measures:
        out: list = []
    else:
        c = Compiler(spec, game.options, game.readings)
        out = [(m.name, c.gen.condition(m.value), max(m.value.n_locals, 1)) for m in spec.measures.values()]
    if len(_compiled) > 64:
        _compiled.clear()
    _compiled[id(game)] = (game, out)
    return out


def measure(game, st) -> tuple:
    """The value of every measure on a state, in the spec's order (numbers; conditions as 0/1)."""
    return tuple(int(f(st, [None] * n)) for _, f, n in compiled(game))
