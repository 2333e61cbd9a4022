"""What generated code calls as it runs: the helpers and the exceptions in its namespace.

Owns the functions the generated source refers to by name (`_each`, `_work`,
`_at`, `_best_of`, `_fit`, `_subsets`, ...; the builtins' own are
lang/builtins.py's `run`), the few builtins it may use (`_SAFE_BUILTINS`),
`EndTurn` and `EndGame`, and `_NOCONST`, the marker of an expression whose
value is not known before the game runs (constant folding's, compiler.py).
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from ..lang.builtins import RuleError
from ..lang.limits import WORK_PER_STEP


class EndTurn(Exception):
    """`end turn` inside generated code: unwinds to the flow."""


class EndGame(Exception):
    """`end game` inside generated code: the game is over."""


def _each(st, items) -> list:
    """A `for each` list, its iterations charged to the step budget."""
    items = list(items)
    st.spend(len(items))
    return items


def _work(st, items):
    """A list an expression goes through (a filter, a mapped list, an aggregate), its length charged to the
    step budget: a step per WORK_PER_STEP elements (lang/limits.py). Returns `items`."""
    w = st.work + len(items)
    if w >= WORK_PER_STEP:
        st.spend(w // WORK_PER_STEP)
        w %= WORK_PER_STEP
    st.work = w
    return items


def _seen(cov: list, i: int, value: Any) -> Any:
    cov[i] += 1
    return value


def _best_of(keyed: list, pick) -> list:
    """The elements of (element, value) pairs that share the highest (lowest) value; each value computed once."""
    if not keyed:
        return []
    top = pick(k for _x, k in keyed)
    return [x for x, k in keyed if k == top]


def _at(items, k: int):
    """`items[k]`, counted from 1."""
    if not 1 <= k <= len(items):
        raise RuleError(f"position {k} does not exist (there are {len(items)})")
    return items[k - 1]


def _fail(message: str):
    """A rule error raised where an expression is evaluated (a cell off this game's board)."""
    raise RuleError(message)


def _mark(pos: list, i: int) -> None:
    """Locate mode: `i` is the rule text that runs now (returns None, so `_m(...) or x` is `x`)."""
    pos[0] = i


class _Keys(dict):
    """The variable slots of a keyed variable by key; looking up a key it does not have is a rule error."""
    __slots__ = ("name",)

    def __init__(self, table: dict, name: str):
        super().__init__(table)
        self.name = name

    def __missing__(self, k: Any) -> int:
        raise RuleError(f"'{k}' is not a key of '{self.name}' (keys: {', '.join(map(str, self))})")


def _fit(vd: Any, v: Any) -> Any:
    """A value that breaks a variable's bounds (generated code tests them first): cut to the bound
    (`clamp`) or a rule error; a text outside its variable's values is a rule error."""
    if vd.type == "text" and vd.values:
        if v not in vd.values:
            raise RuleError(f"'{vd.name}' cannot be {v!r} (its values: {', '.join(vd.values)})")
        return v
    if vd.min is not None and v < vd.min:
        if vd.clamp:
            return vd.min
        raise RuleError(f"'{vd.name}' would become {v}, below its minimum {vd.min}")
    if vd.max is not None and v > vd.max:
        if vd.clamp:
            return vd.max
        raise RuleError(f"'{vd.name}' would become {v}, above its maximum {vd.max}")
    return v


MAX_SUBSET_SOURCE = 16  # cards a `choose subset` lists every subset of


def _subsets(st, L: list, slot: int, items: list, test, merge) -> list[list]:
    """`choose subset`: every subset of `items` that passes the generated `test(st, L)` (which reads the
    subset from `L[slot]`), smallest first; `merge` keeps one of each set of identical cards (interchange.py)."""
    if len(items) > MAX_SUBSET_SOURCE:
        raise RuleError(f"choose subset: {len(items)} cards is too many to list every subset")
    found = []
    for k in range(len(items) + 1):
        for combo in combinations(items, k):
            L[slot] = list(combo)
            if test(st, L):
                found.append(list(combo))
    return merge(st, found)


_SAFE_BUILTINS = {"len": len, "sum": sum, "map": map, "list": list, "max": max, "min": min, "abs": abs,
                  "range": range, "type": type, "int": int, "Exception": Exception, "any": any, "all": all}


_NOCONST = object()  # "not a constant": what constant folding gives for a value known only as the game runs


class _NoReading:
    """A text compared with a reading that is none of its interpretations: equal to no reading."""
    __slots__ = ()


_NO_READING = _NoReading()


def _nc():
    return _NOCONST
