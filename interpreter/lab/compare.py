"""`rulewright compare`: specs side by side, by simulation on the same seeds.

Owns running two or more specs (a base game and its variants or
expansions) over the same game seeds, so each spec plays game i from the
same seed (paired games: the differences come from the rules, not from the
luck of the draw, as far as the rules consume chance alike), and laying out
what changes: game length, decisions, how often each seat wins, and every
measure any of the specs declares, each mean with its 95% interval; each
spec after the first gets paired 95% intervals of its differences from the
first and a verdict against the practical margins (material, immaterial or
undecided, with the games that would decide it), with the same statistics
and margins as the ambiguity lab (paired.py, verdicts.py, settings.py).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Callable

from . import paired, settings as S
from .ambiguities import base_means, judged
from .runner import GameSpec, Stats, summaries


class CompareError(ValueError):
    """The specs cannot be compared as asked (a usage problem, not a spec error)."""


@dataclass(slots=True)
class Row:
    label: str
    values: list[Any]  # one per spec; None where a spec has no such thing
    kind: str  # "int", "num", "share": how to show it and whether a change makes sense
    ci95: list[Any] | None = None  # one [lo, hi] per spec (None where unknown), for means and shares


def settings_for(spec, options: dict[str, str], readings: dict[str, str]) -> tuple[dict, dict]:
    """The options and readings that apply to one spec (those it declares)."""
    return ({k: v for k, v in options.items() if k in spec.options},
            {k: v for k, v in readings.items() if k in spec.ambiguities})


def split_arm(arg: str) -> tuple[str, dict[str, str]]:
    """`games/stun.yaml::win_chips=3,first_flip=optional` -> the path and its own settings."""
    path, _, rest = arg.partition("::")
    settings = {}
    for item in filter(None, rest.split(",")):
        if "=" not in item:
            raise CompareError(f"'{item}' in '{arg}' must be NAME=VALUE")
        k, _, v = item.partition("=")
        settings[k.strip()] = v.strip()
    return path, settings


def compare(paths: list[str], players: int, games: int, seed: int, workers: int = 1,
            options: dict[str, str] | None = None, readings: dict[str, str] | None = None,
            budget: int | None = None, agents: dict[int, str] | None = None,
            progress: Callable[[int], None] | None = None, margins: dict[str, str] | None = None) -> dict:
    """Simulate every spec on the same seeds; one dict with a column per spec and the rows to show.

    `margins`: name -> margin text, over the first spec's `lab.margins` and the defaults; `agents` None takes
    the first spec's `lab.agents`.
    """
    from ..runtime.pipeline import load_game, load_spec
    options, readings = options or {}, readings or {}
    arms = [split_arm(p) for p in paths]
    paths = [p for p, _ in arms]
    specs = [load_spec(p)[0] for p in paths]
    own = []  # each arm's own settings, split into options and readings by what its spec declares
    for (p, settings), s in zip(arms, specs):
        unknown = [k for k in settings if k not in s.options and k not in s.ambiguities]
        if unknown:
            raise CompareError(f"{p} declares no option or ambiguity '{unknown[0]}'")
        own.append(({k: v for k, v in settings.items() if k in s.options},
                    {k: v for k, v in settings.items() if k in s.ambiguities}))
    for what, given, table in (("option", options, "options"), ("ambiguity", readings, "ambiguities")):
        for k in given:
            if not any(k in getattr(s, table) for s in specs):
                raise CompareError(f"no spec declares the {what} '{k}'")
    for p, s in zip(paths, specs):
        if not s.min_players <= players <= s.max_players:
            raise CompareError(f"{p}: {s.name} is for {s.min_players} to {s.max_players} players, not {players}")
    try:
        wanted_margins = S.margins_for(specs[0], margins)
        seats = S.spec_agents(specs[0], players) if agents is None else dict(agents)
    except S.SettingsError as exc:
        raise CompareError(str(exc)) from None
    import time
    columns, results = [], []
    for p, s, (own_opts, own_reads), label in zip(paths, specs, own, [a for a in arms]):
        opts, reads = settings_for(s, options, readings)
        opts, reads = {**opts, **own_opts}, {**reads, **own_reads}
        kw = {"budget": budget} if budget else {}
        game = load_game(p, opts, reads, **kw)
        gs = GameSpec(p, opts, reads, game.budget, dict(seats))
        t0 = time.perf_counter()
        res, _ = summaries(gs, players, seed, 0, games, workers, game=game)
        stats = Stats.for_game(game, players)
        for r in res:
            stats.add(r)
        stats.seconds = time.perf_counter() - t0
        if progress:
            progress(games)
        results.append((res, list(s.measures)))
        columns.append({"spec": p, "game": s.name, "options": game.options, "readings": game.readings,
                        "settings": {**own_opts, **own_reads}, **stats.as_dict()})
    base, base_names = results[0]
    for col, (res, names) in zip(columns[1:], results[1:]):
        shared = [n for n in names if n in base_names]
        # Measures are compared by name; the summaries hold them in each spec's own order.
        a = [r[:7] + (tuple(r[7][base_names.index(n)] for n in shared),) for r in base]
        b = [r[:7] + (tuple(r[7][names.index(n)] for n in shared),) for r in res]
        resolved = S.resolve(wanted_margins, base_means(a, shared))
        iv = judged(a, b, players, 0.95, shared, resolved, None, specs[0].teams)  # wins by side in a game of sides
        col["verdict"], col["games_to_decide"] = paired.verdict(iv, True)
        col["differences"] = [i.as_dict() for i in iv]
    resolved = S.resolve(wanted_margins, base_means(base, base_names))
    return {"players": players, "games": games, "seed": seed, "paired": True,
            "policy": S.policy_label(seats, players), "agents": {str(s + 1): a for s, a in seats.items()},
            "margins": S.describe(wanted_margins, resolved), "specs": columns,
            "rows": [asdict(r) for r in rows(columns)]}


def rows(columns: list[dict]) -> list[Row]:
    out = [
        Row("finished", [c["finished"] for c in columns], "int"),
        Row("stalled", [c["stalled"] for c in columns], "int"),
        Row("errors", [c["errors"] for c in columns], "int"),
        Row("turns (mean)", [c["turns"]["mean"] for c in columns], "num", [c["turns"]["ci95"] for c in columns]),
        Row("turns (p50)", [c["turns"]["p50"] for c in columns], "int"),
        Row("turns (p95)", [c["turns"]["p95"] for c in columns], "int"),
        Row("decisions per game", [c["decisions_per_game"] for c in columns], "num",
            [c["decisions"]["ci95"] for c in columns]),
    ]
    seats = max(len(c["wins"]) for c in columns)
    for i in range(seats):
        out.append(Row(f"wins P{i + 1}", [c["wins"][i] if i < len(c["wins"]) else None for c in columns], "share",
                       [c["wins_ci95"][i] if i < len(c["wins"]) else None for c in columns]))
    for k, side in enumerate(columns[0].get("sides") or []):  # a game of sides: who wins is a side
        got = [c["sides"][k] if k < len(c.get("sides") or []) else None for c in columns]
        out.append(Row(f"wins {side['name']}", [g["wins"] if g else None for g in got], "share",
                       [g["wins_ci95"] if g else None for g in got]))
    if any(c["margin"]["mean"] is not None for c in columns):
        out.append(Row("winning margin (mean)", [c["margin"]["mean"] for c in columns], "num",
                       [c["margin"]["ci95"] for c in columns]))
    names: dict[str, str] = {}
    for c in columns:
        for n, m in c["measures"].items():
            names.setdefault(n, m["label"])
    for n, label in names.items():
        out.append(Row(label, [c["measures"][n]["mean"] if n in c["measures"] else None for c in columns], "num",
                       [c["measures"][n]["ci95"] if n in c["measures"] else None for c in columns]))
    return out


def show(value: Any, kind: str, ci: list | None = None) -> str:
    """A value as a table shows it, with its 95% interval when known."""
    if value is None:
        return "-"
    if kind == "share":
        return f"{value:.1%}" + (f" [{ci[0]:.1%}, {ci[1]:.1%}]" if ci else "")
    if kind == "int":
        return str(value)
    return f"{value:.2f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def change(a: Any, b: Any, kind: str) -> str:
    if a is None or b is None:
        return ""
    d = b - a
    if kind == "share":
        return f"{d * 100:+.1f} pt"
    if kind == "int":
        return f"{d:+d}"
    return f"{d:+.2f}"
