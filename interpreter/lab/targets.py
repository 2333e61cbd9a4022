"""Design targets for `rulewright tune`: what the game should feel like, as bands over the lab's measures.

Owns reading one target as the command line writes it and judging an interval
against it:

- a **band** over a measure: `turns 60..90`, `wins spread <= 2pt`,
  `stalled <= 0.5pt`, `margin >= 3`, `win P1 45%..55%`;
- an **objective**, a direction where one is meant: `minimise turns`,
  `maximise margin` (also spelt minimize / maximize).

The measures are the lab's (paired.py): `turns` (game length, of finished
games), `decisions` (per game), `win P1`..`win Pk` (a seat's win share of
finished games, a shared win split), `wins spread` (the largest seat's win
share minus the smallest's), `stalled` and `errors` (rates, of all games),
`margin` (the winner's score minus the runner-up's) and the spec's own
`measures:` (of finished games). Shares and rates are written as a fraction
(0.02) or in percentage points (`2pt`, or `2%`: a target has no baseline, so
a percent of a share is points too).

A band judges an interval of the measure three ways, as the lab does:
*inside* (the whole interval lies in the band), *outside* (none of it does),
*undecided* (neither yet). Playing the games and computing the intervals is
tune.py's; a target that cannot be read is a positioned diagnostic
(E700-E703) over a pseudo-file whose line k is the k-th `--target`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..spec.diagnostics import Diagnostic, Span, SpecError, did_you_mean

INSIDE, OUTSIDE, UNDECIDED = "inside", "outside", "undecided"
VERDICTS = (INSIDE, UNDECIDED, OUTSIDE)
SOURCE = "--target"  # the pseudo-file diagnostics point into: line k is the k-th --target

BUILTIN = ("turns", "decisions", "wins spread", "stalled", "errors", "margin")
SHARES = ("wins spread", "stalled", "errors")  # and every `win Pk`
_MIN = {"minimise": "min", "minimize": "min", "maximise": "max", "maximize": "max"}
_NUMBER = r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:\s*(?:pt|%))?"
_SEAT = re.compile(r"wins?\s+p(\d+)\b", re.I)
_SPREAD = re.compile(r"wins?\s+spread\b", re.I)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BAND = re.compile(rf"\s*(?P<lo>{_NUMBER})\s*\.\.\s*(?P<hi>{_NUMBER})\s*$")
_BOUND = re.compile(rf"\s*(?P<op><=|>=|<|>|=<|=>)\s*(?P<x>{_NUMBER})\s*$")


def is_share(measure: str) -> bool:
    """A share or a rate (bounded by 0 and 1, written in points) rather than a count or a score."""
    return measure in SHARES or measure.startswith("win P")


@dataclass(frozen=True, slots=True)
class Target:
    """One design target: a band [lo, hi] (either end may be open) or an objective (direction min/max)."""
    text: str
    measure: str
    lo: float | None = None
    hi: float | None = None
    direction: str | None = None  # "min" or "max" for an objective

    @property
    def objective(self) -> bool:
        return self.direction is not None

    @property
    def share(self) -> bool:
        return is_share(self.measure)

    @property
    def scale(self) -> float:
        """The unit a shortfall is counted in: one point of a share, one percent of a bound otherwise."""
        if self.share:
            return 0.01
        bounds = [abs(b) for b in (self.lo, self.hi) if b is not None]
        return max(max(bounds, default=1.0), 1.0) * 0.01

    def judge(self, lo: float, hi: float) -> str:
        """inside, outside or undecided: where the interval [lo, hi] of the measure lies against the band."""
        if self.objective:
            return INSIDE
        low = -math.inf if self.lo is None else self.lo
        high = math.inf if self.hi is None else self.hi
        if hi < low or lo > high:
            return OUTSIDE
        if low <= lo and hi <= high:
            return INSIDE
        return UNDECIDED

    def shortfall(self, x: float) -> float:
        """How far the value x lies outside the band, in units of `scale` (0 inside)."""
        if self.objective:
            return 0.0
        if self.lo is not None and x < self.lo:
            return (self.lo - x) / self.scale
        if self.hi is not None and x > self.hi:
            return (x - self.hi) / self.scale
        return 0.0

    def badness(self, lo: float, hi: float) -> tuple[float, float]:
        """The range of how bad the measure is, given its interval: for a band the shortfall (0 inside), for an
        objective the value itself (negated for `maximise`); lower is better."""
        if self.direction == "min":
            return lo, hi
        if self.direction == "max":
            return -hi, -lo
        ends = (self.shortfall(lo), self.shortfall(hi))
        low = 0.0 if self.judge(lo, hi) != OUTSIDE else min(ends)
        return low, max(ends)

    def show(self, x: float | None) -> str:
        """A value of this target's measure as a table shows it."""
        if x is None or not math.isfinite(x):
            return "?"
        if self.share:
            return f"{x * 100:.1f}pt" if self.measure == "wins spread" else f"{x:.1%}"
        return f"{x:.3g}" if abs(x) < 1000 else f"{x:.0f}"

    def as_dict(self) -> dict:
        d: dict = {"target": self.text, "measure": self.measure}
        if self.objective:
            d["direction"] = "minimise" if self.direction == "min" else "maximise"
        else:
            d.update(lo=self.lo, hi=self.hi)
        return d


def _span(line: int, start: int, end: int) -> Span:
    return Span(SOURCE, line, start + 1, line, max(end, start + 1) + 1)


def _measure(text: str, pos: int, names: Sequence[str], players: int, line: int) -> tuple[str, int]:
    """The measure named at text[pos:], and where its name ends; raises SpecError when there is none."""
    m = _SPREAD.match(text, pos)
    if m:
        return "wins spread", m.end()
    m = _SEAT.match(text, pos)
    if m:
        seat = int(m.group(1))
        if not 1 <= seat <= players:
            raise SpecError([Diagnostic("E701", f"there is no seat P{seat} in a game of {players} players",
                                        _span(line, m.start(1) - 1, m.end()), hint=f"seats are P1 to P{players}")])
        return f"win P{seat}", m.end()
    m = _WORD.match(text, pos)
    if not m:
        raise SpecError([Diagnostic("E700", "a target starts with a measure (or minimise/maximise)",
                                    _span(line, pos, pos + 1), hint="e.g. `turns 60..90` or `minimise turns`")])
    word = m.group(0)
    if word in names:
        return word, m.end()
    valid = list(names) + ["wins spread"] + [f"win P{k}" for k in range(1, players + 1)]
    hint = did_you_mean(word, valid) or ("measures: " + ", ".join(list(names) + ["wins spread", "win P1"]))
    if word in ("win", "wins"):
        hint = "say `wins spread` (largest seat's share minus smallest) or a seat's share, `win P1`"
    raise SpecError([Diagnostic("E701", f"no measure '{word}'", _span(line, m.start(), m.end()), hint=hint)])


def _number(raw: str, measure: str, line: int, start: int) -> float:
    text = raw.strip()
    unit = "pt" if text.endswith("pt") else "%" if text.endswith("%") else ""
    value = float(text[: len(text) - len(unit)].strip())
    where = _span(line, start, start + len(raw.rstrip()))
    if unit and not is_share(measure):
        raise SpecError([Diagnostic("E702", f"'{text}': {measure} is not a share, so it takes no points or percent",
                                    where, hint=f"write {measure}'s own unit, a plain number")])
    if unit:
        value /= 100
    if is_share(measure) and not 0 <= value <= 1:
        raise SpecError([Diagnostic("E702", f"'{text}' is not a share: {measure} lies between 0 and 1", where,
                                    hint=(f"write points: {text}pt is {value / 100:g}" if not unit
                                          else "a share lies between 0pt and 100pt"))])
    return value


def parse_target(text: str, names: Sequence[str], players: int, line: int = 1) -> Target:
    """One `--target` (`turns 60..90`, `minimise turns`); `names` are the measures a target may name
    (built-in and the spec's); raises SpecError with one positioned diagnostic."""
    pos = len(text) - len(text.lstrip())
    if not text.strip():
        raise SpecError([Diagnostic("E700", "an empty target", _span(line, 0, 1),
                                    hint="e.g. `turns 60..90`, `wins spread <= 2pt`, `minimise turns`")])
    first = _WORD.match(text, pos)
    if first and first.group(0).lower() in _MIN:
        direction = _MIN[first.group(0).lower()]
        after = first.end() + len(text[first.end():]) - len(text[first.end():].lstrip())
        if after >= len(text.rstrip()):
            raise SpecError([Diagnostic("E700", f"{first.group(0)} what?", _span(line, first.start(), first.end()),
                                        hint=f"name a measure: `{first.group(0)} turns`")])
        measure, end = _measure(text, after, names, players, line)
        if text[end:].strip():
            raise SpecError([Diagnostic("E700", "an objective takes a measure and nothing more",
                                        _span(line, len(text) - len(text[end:].lstrip()), len(text.rstrip())),
                                        hint="give a band as its own --target")])
        return Target(text.strip(), measure, direction=direction)
    measure, end = _measure(text, pos, names, players, line)
    rest = text[end:]
    m = _BAND.match(rest)
    if m:
        lo = _number(m.group("lo"), measure, line, end + m.start("lo"))
        hi = _number(m.group("hi"), measure, line, end + m.start("hi"))
        if lo > hi:
            lo_t, hi_t = m.group("lo").strip(), m.group("hi").strip()
            raise SpecError([Diagnostic("E703", f"an empty band: {lo_t} is above {hi_t}",
                                        _span(line, end + m.start("lo"), end + m.end("hi")),
                                        hint="write the smaller end first")])
        return Target(text.strip(), measure, lo, hi)
    m = _BOUND.match(rest)
    if m:
        x = _number(m.group("x"), measure, line, end + m.start("x"))
        upper = m.group("op") in ("<=", "<", "=<")
        return Target(text.strip(), measure, None if upper else x, x if upper else None)
    at = end + len(rest) - len(rest.lstrip())
    raise SpecError([Diagnostic("E700", f"after '{measure}', a band: LO..HI, <= X or >= X",
                                _span(line, at, max(len(text.rstrip()), at + 1)),
                                hint=f"e.g. `{measure} {'<= 2pt' if is_share(measure) else '60..90'}`")])


def parse_targets(texts: Iterable[str], spec_measures: Sequence[str], players: int) -> list[Target]:
    """Every `--target`, in order; raises SpecError with a diagnostic for each that cannot be read (or names a
    measure twice)."""
    names = list(BUILTIN) + [m for m in spec_measures if m not in BUILTIN]
    out: list[Target] = []
    diags: list[Diagnostic] = []
    seen: dict[tuple, int] = {}
    for k, text in enumerate(texts, start=1):
        try:
            t = parse_target(text, names, players, k)
        except SpecError as exc:
            diags.extend(exc.diagnostics)
            continue
        key = (t.measure, t.objective)
        if key in seen:
            diags.append(Diagnostic("E703", f"{t.measure} has a{'n objective' if t.objective else ' band'} already "
                                    f"(target {seen[key]})", _span(k, 0, len(text.rstrip())),
                                    hint="give one band per measure: LO..HI sets both ends"))
            continue
        seen[key] = k
        out.append(t)
    if diags:
        raise SpecError(diags)
    return out


def source_text(texts: Sequence[str]) -> str:
    """The pseudo-file the diagnostics of `parse_targets` point into (line k: the k-th target)."""
    return "\n".join(texts) + "\n"
