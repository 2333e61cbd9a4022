"""Card counts written as an expression over the number of players and the options.

Owns `count: "11 if count(players) <= 5 else 9"` or `count: "3 if option.short else 5"`: the
expression is parsed like any rule text, and evaluated by this module alone, for every player count
of the game and every value of the options it names, so each count a game can start with is known
(and checked: E461 for a count below 0 or above 10,000, or for a word a count cannot use) before any
game starts. It may use whole numbers, `+ - * // %`, comparisons, `and`/`or`/`not`, `if ... then ...
else` and `a if c else b`, `max`, `min`, `abs`, `count(players)`, `option.NAME` and number constants.

It does not run rules: the engine asks `value(...)` for the options and player count of a game.
"""
from __future__ import annotations

import operator
from itertools import product
from typing import Any, Iterator

from . import nodes as N

MAX_COUNT = 10_000
MAX_COMBINATIONS = 4_096  # option values x player counts a count expression is evaluated for

_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "==": operator.eq, "!=": operator.ne,
        "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


class CountProblem(Exception):
    def __init__(self, message: str, pos: N.Pos, hint: str | None = None):
        super().__init__(message)
        self.pos, self.hint = pos, hint


def value(ast: Any, players: int, options: dict[str, Any], constants: dict[str, Any]) -> Any:
    """The value of a count expression in a game with `players` players and these option values."""
    def ev(e: Any) -> Any:
        if isinstance(e, (N.Int, N.Bool)):
            return e.value
        if isinstance(e, N.Name) and isinstance(constants.get(e.id), int) and not isinstance(constants[e.id], bool):
            return constants[e.id]
        if isinstance(e, N.Attr) and isinstance(e.obj, N.Name) and e.obj.id == "option":
            if e.name not in options:
                raise CountProblem(f"unknown option '{e.name}'", e.pos,
                                   f"options: {', '.join(options) or 'none'}")
            return options[e.name]
        if isinstance(e, N.Call) and e.func == "count" and len(e.args) == 1 and isinstance(e.args[0], N.Name) \
                and e.args[0].id == "players":
            return players
        if isinstance(e, N.Call) and e.func in ("max", "min", "abs") and e.args:
            args = [_int(ev(a), a) for a in e.args]
            return abs(args[0]) if e.func == "abs" else (max if e.func == "max" else min)(args)
        if isinstance(e, N.Unary):
            v = ev(e.operand)
            return (not v) if e.op == "not" else -_int(v, e.operand)
        if isinstance(e, N.Binary):
            if e.op in ("and", "or"):
                left = ev(e.left)
                return (left and ev(e.right)) if e.op == "and" else (left or ev(e.right))
            a, b = ev(e.left), ev(e.right)
            if e.op in ("//", "%"):
                if _int(b, e.right) == 0:
                    raise CountProblem(f"division by zero with {players} players", e.pos)
                return _int(a, e.left) // b if e.op == "//" else _int(a, e.left) % b
            return _OPS[e.op](a, b)
        if isinstance(e, N.Ternary):
            return ev(e.then) if ev(e.cond) else ev(e.orelse)
        raise CountProblem("a count can use numbers, count(players), option.NAME, number constants, arithmetic "
                           "and if/else only", e.pos, "e.g. `11 if count(players) <= 5 else 9`")
    return ev(ast)


def _int(v: Any, e: Any) -> int:
    if type(v) is not int:
        raise CountProblem(f"expected a number here, found {v!r}", e.pos)
    return v


def named_options(ast: Any) -> list[str]:
    return sorted({n.name for n in N.walk(ast) if isinstance(n, N.Attr) and isinstance(n.obj, N.Name)
                   and n.obj.id == "option"})


def every_count(ast: Any, lo: int, hi: int, options: dict[str, list], defaults: dict[str, Any],
                constants: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any], Any]]:
    """(players, options, count) for every player count and every value of the options the expression names;
    raises CountProblem for one it cannot evaluate."""
    names = [n for n in named_options(ast) if n in options]
    combos = list(product(*(options[n] for n in names))) if names else [()]
    if len(combos) * (hi - lo + 1) > MAX_COMBINATIONS:
        raise CountProblem(f"this count would be worked out for more than {MAX_COMBINATIONS:,} option values and "
                           "player counts", getattr(ast, "pos", (0, 0)))
    for combo in combos:
        opts = {**defaults, **dict(zip(names, combo))}
        for n in range(lo, hi + 1):
            yield n, opts, value(ast, n, opts, constants)


def check(spec) -> Iterator:
    """E461 for a count expression that cannot be worked out, or gives a count below 0 or above the limit."""
    from ..spec.diagnostics import Diagnostic
    d = spec.doc.data
    from .model import option_values
    opts = {n: option_values(o.get("values")) for n, o in (d.get("options") or {}).items()}
    defaults = {n: o.get("default") for n, o in (d.get("options") or {}).items()}
    seen: set[int] = set()
    for ct in spec.cards.values():
        code = ct.count_code
        if code is None or code.ast is None or id(code) in seen:
            continue
        seen.add(id(code))
        try:
            for n, o, v in every_count(code.ast, spec.min_players, spec.max_players, opts, defaults, spec.constants):
                shown = "".join(f", option {k}={o[k]!r}" for k in named_options(code.ast) if k in o)
                if type(v) is not int:
                    yield Diagnostic("E461", f"card type '{ct.decl}': the count is {v!r} with {n} players{shown}, "
                                     "not a number", code.span, hint="a count is a whole number")
                    break
                if not 0 <= v <= MAX_COUNT:
                    yield Diagnostic("E461", f"card type '{ct.decl}': the count is {v:,} with {n} players{shown}",
                                     code.span, hint=f"a count is 0 to {MAX_COUNT:,}")
                    break
        except CountProblem as exc:
            yield Diagnostic("E461", f"card type '{ct.decl}': {exc}", code.text.locate(*exc.pos), hint=exc.hint)
