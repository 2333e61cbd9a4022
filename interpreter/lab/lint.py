"""`rulewright lint`: findings about a spec that only playing reveals.

Owns: playing G games in coverage mode with invariant checks and turning
what it saw into positioned warnings: rules (actions, procedures, triggers),
branches and choice options that never ran; stalled games with the seed
that reproduces them and a short account of the position; broken invariants
and rule errors with their seeds. Static warnings from `check` come first.
"""
from __future__ import annotations

from ..spec.diagnostics import Diagnostic, Severity
from ..runtime.engine import Status
from ..runtime.faults import locate
from .runner import play
from ..runtime.seeds import game_seed

# Branches meant to run only under other readings or options are not findings.
_SKIP_SUFFIX = (":reading", ":option")


def lint(path: str, players: int, games: int, seed: int, options: dict, readings: dict) -> list[Diagnostic]:
    from ..runtime.pipeline import load_game, load_spec
    from ..runtime.scenarios import _position
    spec, static = load_spec(path)
    where = spec.doc.span(("flow",), key=True)
    game = load_game(path, options, readings, coverage=True)
    out = list(static)
    stalls: dict[str, list[tuple[int, str]]] = {}
    errors: dict[str, list[int]] = {}
    for i in range(games):
        s = game_seed(seed, i)
        st = play(game, players, s, check=True)
        if st.status is Status.STALLED:
            stalls.setdefault(st.reason or "?", []).append((s, _position(st)))
        elif st.status is Status.ERROR:
            errors.setdefault(st.reason or "?", []).append(s)
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
        s, position = found[0]
        out.append(Diagnostic("W510", f"{len(found)} of {games} games stalled: {reason}", where,
                              hint=f"reproduce: rulewright run {path} -p {players} --seed {s}",
                              note=f"position: {position}", severity=Severity.WARNING))
    for reason, seeds in errors.items():
        fault = locate(game, play(game, players, seeds[0], check=True))  # the rule text that failed
        out.append(Diagnostic("W511", f"{len(seeds)} of {games} games stopped: {reason}",
                              fault.span if fault is not None and fault.span is not None else where,
                              hint=f"reproduce: rulewright run {path} -p {players} --seed {seeds[0]}",
                              severity=Severity.WARNING))
    return out


def _offered_by_reading(spec, what: str) -> bool:
    """An action whose `when:` reads an ambiguity or an option is meant for some readings only."""
    from ..lang import nodes as N
    action = spec.actions.get(what[len("action "):]) if what.startswith("action ") else None
    if action is None or action.when is None or action.when.ast is None:
        return False
    return any(getattr(n, "ref", None) and n.ref[0] in ("reading", "option") for n in N.walk(action.when.ast))
