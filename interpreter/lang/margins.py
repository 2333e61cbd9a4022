"""Margins of practical equivalence, as a spec's `lab:` section and `--margin` write them.

Owns reading one margin (`0.02`, `2pt`, `5%`) and the names a margin may be
set for: the lab's built-in measures (`wins`, `turns`, `stalled`,
`errors`, `margin`) and the spec's own `measures:`. It does not
resolve a relative margin against a baseline, nor judge anything: that is
the lab's (interpreter/lab/verdicts.py). It lives in the language stage so
the checker can point at a bad value in the spec.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

BUILTIN = ("wins", "turns", "stalled", "errors", "margin")
"""Margin names every spec has: a seat's win share, game length, stall rate, error rate, winning margin."""

_TEXT = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*(%|pt)?\s*$")


@dataclass(frozen=True, slots=True)
class Margin:
    """How far a difference may go and still not matter.

    `relative`: `amount` is a fraction of the default configuration's mean (`5%` -> 0.05);
    otherwise it is in the measure's own unit (`0.02` or `2pt` of a win share are both two points).
    """
    amount: float
    relative: bool = False

    def resolve(self, base_mean: float) -> float:
        """The margin in the measure's unit, given the default configuration's mean."""
        return self.amount * abs(base_mean) if self.relative else self.amount

    def text(self) -> str:
        if self.relative:
            return f"{self.amount * 100:g}%"
        return f"{self.amount:g}"


def parse_margin(value: object) -> Margin:
    """`0.02`, `2pt` (two percentage points: 0.02), `5%` (of the default's mean) -> a Margin.

    Raises ValueError with a sentence a person can act on.
    """
    if isinstance(value, bool):
        raise ValueError("a margin is a number (0.02), points (2pt) or a percentage of the default's mean (5%)")
    if isinstance(value, (int, float)):
        amount, unit = float(value), None
    else:
        m = _TEXT.match(str(value))
        if not m:
            raise ValueError(f"'{value}' is not a margin: write a number (0.02), points (2pt) or "
                             f"a percentage of the default's mean (5%)")
        amount, unit = float(m.group(1)), m.group(2)
    if not math.isfinite(amount) or amount < 0:
        raise ValueError(f"a margin must be a number of 0 or more, not {value!r}")
    if unit == "%":
        return Margin(amount / 100, relative=True)
    if unit == "pt":
        return Margin(amount / 100)
    return Margin(amount)


def known_names(spec_measures) -> list[str]:
    """Every name a margin may be set for in a spec with these `measures:` names."""
    return list(BUILTIN) + [m for m in spec_measures if m not in BUILTIN]
