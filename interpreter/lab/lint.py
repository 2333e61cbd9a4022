"""`rulewright lint`: findings about a spec that only playing reveals.

Owns: playing G games in coverage mode with invariant checks and turning
what it saw into positioned warnings: rules (actions, procedures, triggers),
branches and choice options that never ran; stalled games with the seed
that reproduces them and a short account of the position; broken invariants
and rule errors with their seeds. Static warnings from `check` come first,
then the text audits of `audit.py` (misquotes W520, narration of hidden
content W521).

Random players alone cannot find what only careful play reaches (six STUN
players holding 4 chips each, the centre down to one chip), so besides the
`games` random games lint plays, for each agent of `also` (default
`greedy:2` and `cautious`), a tenth as many games with that agent at every
seat; a finding names the agent with the command that reproduces it.
"""
from __future__ import annotations

from ..spec.diagnostics import Diagnostic, Severity
from ..runtime.engine import Status
from ..runtime.faults import locate
from .runner import play
from ..runtime.seeds import game_seed

# Branches meant to run only under other readings or options are not findings.
_SKIP_SUFFIX = (":reading", ":option")


ALSO = ("greedy:2", "cautious")
"""Agents lint also plays (every seat), besides random players."""


def lint(path: str, players: int, games: int, seed: int, options: dict, readings: dict,
         also: tuple[str, ...] = ALSO, also_games: int | None = None) -> list[Diagnostic]:
    from ..runtime.pipeline import load_game, load_spec
    from ..runtime.scenarios import _position
    from .audit import audit
    spec, static = load_spec(path)
    where = spec.doc.span(("flow",), key=True)
    game = load_game(path, options, readings, coverage=True)
    out = list(static) + audit(spec)
    stalls: dict[str, list[tuple[int, str, str]]] = {}
    errors: dict[str, list[tuple[int, str]]] = {}
    extra = max(1, games // 10) if also_games is None else also_games
    runs = [(i, "random") for i in range(games)]
    runs += [(games + k * extra + j, name) for k, name in enumerate(also) for j in range(extra)]
    for i, name in runs:
        s = game_seed(seed, i)
        st = play(game, players, s, None if name == "random" else dict.fromkeys(range(players), name), check=True)
        if st.status is Status.STALLED:
            stalls.setdefault(st.reason or "?", []).append((s, name, _position(st)))
        elif st.status is Status.ERROR:
            errors.setdefault(st.reason or "?", []).append((s, name))
    games = len(runs)
    # The same rule may be compiled at several places (inlined): sum by position, over every
    # place, also those inside a branch that only some readings take (they count when they run);
    # a point is a finding only if it has a place that every reading reaches.
    totals: dict[tuple, int] = {}
    everywhere: set[tuple] = set()
    for (kind, what, span), h in zip(game.points, game.hits):
        if kind == "reading" or span is None:
            continue
        key = (kind.split(":")[0], what, span)
        totals[key] = totals.get(key, 0) + h
        if not kind.endswith(_SKIP_SUFFIX) and not _offered_by_reading(spec, what):
            everywhere.add(key)
    for (kind, what, span), h in sorted(totals.items(), key=lambda kv: (kv[0][2].line, kv[0][2].col)):
        if h or (kind, what, span) not in everywhere:
            continue
        if kind == "rule":
            msg = f"{what} never ran in {games} games"
        elif kind == "option":
            msg = f"this choice option was never taken in {games} games"
        else:
            msg = f"this `{what}` branch never ran in {games} games"
        out.append(Diagnostic("W501", msg, span, hint="a rule that never fires may be unreachable or mis-stated",
                              severity=Severity.WARNING))
    for reason, found in stalls.items():
        s, name, position = found[0]
        out.append(Diagnostic("W510", f"{len(found)} of {games} games stalled: {reason}", where,
                              hint=f"reproduce: {_command(path, players, s, name, options, readings)}",
                              note=f"position: {position}", severity=Severity.WARNING))
    for reason, seeds in errors.items():
        s, name = seeds[0]
        agents = None if name == "random" else dict.fromkeys(range(players), name)
        fault = locate(game, play(game, players, s, agents, check=True), agents)  # the rule text that failed
        out.append(Diagnostic("W511", f"{len(seeds)} of {games} games stopped: {reason}",
                              fault.span if fault is not None and fault.span is not None else where,
                              hint=f"reproduce: {_command(path, players, s, name, options, readings)}",
                              severity=Severity.WARNING))
    return out


def _command(path: str, players: int, seed: int, agent: str, options: dict, readings: dict) -> str:
    parts = [f"rulewright run {path} -p {players} --seed {seed}"]
    parts += [f"--option {k}={v}" for k, v in options.items()] + [f"--reading {k}={v}" for k, v in readings.items()]
    if agent != "random":
        parts += [f"--agent {p + 1}={agent}" for p in range(players)]
    return " ".join(parts)


def _offered_by_reading(spec, what: str) -> bool:
    """An action whose `when:` reads an ambiguity or an option is meant for some readings only."""
    from ..lang import nodes as N
    action = spec.actions.get(what[len("action "):]) if what.startswith("action ") else None
    if action is None or action.when is None or action.when.ast is None:
        return False
    return any(getattr(n, "ref", None) and n.ref[0] in ("reading", "option") for n in N.walk(action.when.ast))
