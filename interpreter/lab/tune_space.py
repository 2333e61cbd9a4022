"""What `rulewright tune` may change: the varied names and their values, and a chosen variant as a spec.

Owns reading `--vary` (`NAME`, `NAME=A,B,C`, `NAME=LO..HI`) against the spec's
options and ambiguities, with positioned diagnostics (E704) over a pseudo-file
whose line k is the k-th `--vary`; every combination of the varied values; a
variant's label; and writing a candidate back as a variant spec (`extends:`
the searched spec, setting the defaults of its options and readings). Only
options and readings vary: a constant is made tunable by declaring it an
option with the `values:` to try, which a variant file can do for a base
(`set: options.NAME.values: [...]`). Playing and judging is tune.py's.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Any, Sequence

from ..spec.diagnostics import Diagnostic, Span, SpecError, did_you_mean

if TYPE_CHECKING:
    from .candidates import Candidate
    from .tune import TuneReport

VARY_SOURCE = "--vary"  # the pseudo-file --vary diagnostics point into: line k is the k-th --vary


@dataclass(slots=True)
class Axis:
    """One varied name: an option (its values) or an ambiguity (its interpretations)."""
    name: str
    kind: str  # "option" or "reading"
    values: list[Any]

    def as_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "values": self.values}


def _vary_span(line: int, start: int, end: int) -> Span:
    return Span(VARY_SOURCE, line, start + 1, line, max(end, start + 1) + 1)


def _value_matches(text: str, v: Any) -> bool:
    if isinstance(v, bool):
        return text.lower() == str(v).lower()
    return text == str(v)


def parse_vary(texts: Sequence[str], spec) -> list[Axis]:
    """Each `--vary NAME`, `NAME=V1,V2,...` or `NAME=LO..HI` (a range of an integer option's values) -> an Axis;
    raises SpecError (E704) with every one that names nothing the spec declares or a value it does not have."""
    axes: list[Axis] = []
    diags: list[Diagnostic] = []
    seen: set[str] = set()
    for k, text in enumerate(texts, start=1):
        name, eq, rest = text.partition("=")
        name = name.strip()
        start = len(text) - len(text.lstrip())
        if name in spec.options and name in spec.ambiguities:
            diags.append(Diagnostic("E704", f"'{name}' is both an option and an ambiguity",
                                    _vary_span(k, start, start + len(name)),
                                    hint="rename one of them in the spec"))
            continue
        if name in spec.options:
            kind, declared = "option", list(spec.options[name].values)
        elif name in spec.ambiguities:
            kind, declared = "reading", list(spec.ambiguities[name].interpretations)
        else:
            valid = list(spec.options) + list(spec.ambiguities)
            diags.append(Diagnostic("E704", f"no option or ambiguity '{name}'", _vary_span(k, start, start + len(name)),
                                    hint=did_you_mean(name, valid) or ("options and ambiguities: " + ", ".join(valid)
                                                                       if valid else "the spec declares none")))
            continue
        if name in seen:
            diags.append(Diagnostic("E704", f"'{name}' is varied twice", _vary_span(k, start, len(text.rstrip())),
                                    hint="list every value in one --vary NAME=A,B,C"))
            continue
        seen.add(name)
        if not eq:
            values = declared
        else:
            values, offset = [], len(name) + 1 + (len(text) - len(text.lstrip()))
            pieces = rest.split(",")
            whole = all(isinstance(v, int) and not isinstance(v, bool) for v in declared)
            if len(pieces) == 1 and ".." in rest and whole:
                lo_t, _, hi_t = rest.partition("..")
                try:
                    lo, hi = int(lo_t), int(hi_t)
                except ValueError:
                    diags.append(Diagnostic("E704", f"'{rest.strip()}' is not a range of whole numbers",
                                            _vary_span(k, offset, len(text.rstrip())), hint="write LO..HI, e.g. 3..6"))
                    continue
                values = [v for v in declared if lo <= v <= hi]
                if not values:
                    diags.append(Diagnostic("E704", f"no value of {name} lies in {lo}..{hi}",
                                            _vary_span(k, offset, len(text.rstrip())),
                                            hint=f"{name} takes {', '.join(map(str, declared))}"))
                    continue
            else:
                pos = offset
                for piece in pieces:
                    t = piece.strip()
                    hit = [v for v in declared if _value_matches(t, v)]
                    if not hit:
                        what = "value" if kind == "option" else "interpretation"
                        hint = (did_you_mean(t, [str(v) for v in declared]) or
                                f"{name} takes {', '.join(map(str, declared))}")
                        if kind == "option":
                            hint += (f"; to try other values, widen them in a variant: "
                                     f"`set: options.{name}.values: [...]`")
                        diags.append(Diagnostic("E704", f"'{t}' is not a{'n' if what[0] == 'i' else ''} {what} of "
                                                f"{name}", _vary_span(k, pos + len(piece) - len(piece.lstrip()),
                                                                      pos + len(piece.rstrip())), hint=hint))
                    elif hit[0] not in values:
                        values.append(hit[0])
                    pos += len(piece) + 1
                if not values:
                    continue
        axes.append(Axis(name, kind, values))
    if diags:
        raise SpecError(diags)
    return axes


def label(options: dict, readings: dict, axes: list[Axis]) -> str:
    parts = []
    for a in axes:
        v = options[a.name] if a.kind == "option" else readings[a.name]
        parts.append(f"{a.name}={str(v).lower() if isinstance(v, bool) else v}")
    return ", ".join(parts) or "(the spec as it is)"


def combinations(axes: list[Axis], options: dict, readings: dict) -> list[tuple[dict, dict]]:
    out = []
    for combo in product(*[a.values for a in axes]):
        o, r = dict(options), dict(readings)
        for a, v in zip(axes, combo):
            (o if a.kind == "option" else r)[a.name] = v
        out.append((o, r))
    return out


def variant_yaml(rep: TuneReport, c: Candidate, out_path: str) -> str:
    """The candidate as a variant file that `extends:` the searched spec (path relative to `out_path`'s folder)."""
    import yaml
    from ..runtime.pipeline import load_spec
    spec, _ = load_spec(rep.spec)
    base = os.path.relpath(os.path.abspath(rep.spec), os.path.dirname(os.path.abspath(out_path)))
    sets: dict[str, Any] = {"game.name": f"{spec.name} (tuned)"}
    for name, v in c.options.items():
        if spec.options[name].default != v:
            sets[f"options.{name}.default"] = v
    for name, v in c.readings.items():
        if spec.ambiguities[name].default != v:
            sets[f"ambiguities.{name}.default"] = v
    lines = [f"# Written by `rulewright tune` (seed {rep.seed}, {rep.players} players, {rep.first.policy} players):",
             f"# {c.label}: meets the targets: {c.meets} (rank {c.rank} of {len(rep.first.candidates)}).",
             "# Each target, the mean and its interval (anytime-valid, "
             f"{rep.level:.0%} over the targets together):"]
    for e in c.estimates:
        verdict = "" if e.target.objective else f": {e.verdict}"
        lines.append(f"#   {e.target.text}: {e.target.show(e.mean)} [{e.target.show(e.lo)}, {e.target.show(e.hi)}]"
                     f"{verdict} ({e.n} games)")
    body = yaml.safe_dump({"extends": base, "set": sets}, sort_keys=False, allow_unicode=True)
    return "\n".join(lines) + "\n" + body
