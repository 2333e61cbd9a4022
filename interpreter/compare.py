"""`rulewright compare`: specs side by side, by simulation on the same seeds.

Owns running two or more specs (a base game and its variants or
expansions) over the same game seeds, so each spec plays game i from the
same seed (paired games: the differences come from the rules, not from the
luck of the draw, as far as the rules consume chance alike), and laying out
what changes: game length, decisions, how often each seat wins, and every
measure any of the specs declares. It reports numbers only; whether a
difference is significant belongs to the statistics of another command.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable

from .runner import GameSpec, sweep


class CompareError(ValueError):
    """The specs cannot be compared as asked (a usage problem, not a spec error)."""


@dataclass(slots=True)
class Row:
    label: str
    values: list[Any]  # one per spec; None where a spec has no such thing
    kind: str  # "int", "num", "share": how to show it and whether a change makes sense


def settings_for(spec, options: dict[str, str], readings: dict[str, str]) -> tuple[dict, dict]:
    """The options and readings that apply to one spec (those it declares)."""
    return ({k: v for k, v in options.items() if k in spec.options},
            {k: v for k, v in readings.items() if k in spec.ambiguities})


def compare(paths: list[str], players: int, games: int, seed: int, workers: int = 1,
            options: dict[str, str] | None = None, readings: dict[str, str] | None = None,
            budget: int | None = None, agents: dict[int, str] | None = None,
            progress: Callable[[int], None] | None = None) -> dict:
    """Simulate every spec on the same seeds; one dict with a column per spec and the rows to show."""
    from .api import load_game, load_spec
    options, readings = options or {}, readings or {}
    specs = [load_spec(p)[0] for p in paths]
    for what, given, table in (("option", options, "options"), ("ambiguity", readings, "ambiguities")):
        for k in given:
            if not any(k in getattr(s, table) for s in specs):
                raise CompareError(f"no spec declares the {what} '{k}'")
    for p, s in zip(paths, specs):
        if not s.min_players <= players <= s.max_players:
            raise CompareError(f"{p}: {s.name} is for {s.min_players} to {s.max_players} players, not {players}")
    columns = []
    for p, s in zip(paths, specs):
        opts, reads = settings_for(s, options, readings)
        kw = {"budget": budget} if budget else {}
        game = load_game(p, opts, reads, **kw)
        gs = GameSpec(p, opts, reads, game.budget, dict(agents or {}))
        stats = sweep(gs, players, games, seed, workers, progress, game=game).as_dict()
        columns.append({"spec": p, "game": s.name, "options": game.options, "readings": game.readings, **stats})
    return {"players": players, "games": games, "seed": seed, "paired": True, "specs": columns,
            "rows": [asdict(r) for r in rows(columns)]}


def rows(columns: list[dict]) -> list[Row]:
    out = [
        Row("finished", [c["finished"] for c in columns], "int"),
        Row("stalled", [c["stalled"] for c in columns], "int"),
        Row("errors", [c["errors"] for c in columns], "int"),
        Row("turns (mean)", [c["turns"]["mean"] for c in columns], "num"),
        Row("turns (p50)", [c["turns"]["p50"] for c in columns], "int"),
        Row("turns (p95)", [c["turns"]["p95"] for c in columns], "int"),
        Row("decisions per game", [c["decisions_per_game"] for c in columns], "num"),
    ]
    seats = max(len(c["wins"]) for c in columns)
    for i in range(seats):
        out.append(Row(f"wins P{i + 1}", [c["wins"][i] if i < len(c["wins"]) else None for c in columns], "share"))
    if any(c["margin"]["mean"] is not None for c in columns):
        out.append(Row("winning margin (mean)", [c["margin"]["mean"] for c in columns], "num"))
    names: dict[str, str] = {}
    for c in columns:
        for n, m in c["measures"].items():
            names.setdefault(n, m["label"])
    for n, label in names.items():
        out.append(Row(label, [c["measures"][n]["mean"] if n in c["measures"] else None
                                           for c in columns], "num"))
    return out


def show(value: Any, kind: str) -> str:
    if value is None:
        return "-"
    if kind == "share":
        return f"{value:.1%}"
    if kind == "int":
        return str(value)
    return f"{value:.2f}"


def change(a: Any, b: Any, kind: str) -> str:
    if a is None or b is None:
        return ""
    d = b - a
    if kind == "share":
        return f"{d * 100:+.1f} pt"
    if kind == "int":
        return f"{d:+d}"
    return f"{d:+.2f}"
