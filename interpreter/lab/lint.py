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

A branch that never runs under the chosen readings may be meant for others,
and one no reading reaches is dead. So lint also plays a tenth as many random
games under every other interpretation of every ambiguity, every other value
of every option and every other player count, one changed at a time, and
runs the spec's examples (an example is its author's position for a rare
case: STUN's six-player dead end). What never ran in any of them is a dead
branch (W502: STUN's old "no card left" branch, after a reshuffle of a
discard pile that always holds the 8 STUN cards); a branch that runs only
elsewhere keeps its W501, with the reading, option, player count or example
named. It also
watches every action decision: an action whose `when:` held at every one of
them, under every reading tried, was never withheld by it, and the guard
guards nothing (W503: STUN's `count(draw) + count(discard) > 0`). Both are
findings of the games played, like W501: what a game never reaches, a
thousand games cannot show.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..compile.compiler import ACTION
from ..spec.diagnostics import Diagnostic, Severity
from ..runtime.engine import Game, Status
from ..runtime.faults import locate
from .runner import play
from ..runtime.seeds import game_seed

# Branches meant to run only under other readings or options are not findings.
_SKIP_SUFFIX = (":reading", ":option")


ALSO = ("greedy:2", "cautious")
"""Agents lint also plays (every seat), besides random players."""


@dataclass(slots=True)
class Guards:
    """Per action with a `when:`: action decisions that offered it, and those that did not."""
    offered: dict[str, int] = field(default_factory=dict)
    withheld: dict[str, int] = field(default_factory=dict)

    def watch(self, st, guarded: frozenset[str]) -> None:
        if st.pkind != ACTION:
            return
        meta = st.pmeta
        shown = {meta[o if type(o) is int else o[0]][0] for o in st.popts}
        for m in meta:
            name = m[0]
            if name in guarded:
                book = self.offered if name in shown else self.withheld
                book[name] = book.get(name, 0) + 1


def _play(game: Game, players: int, seed: int, agents: dict[int, str] | None, guards: Guards,
          guarded: frozenset[str]):
    """runner.play with invariants checked, watching every action decision."""
    from .runner import make_agents
    seated = make_agents(agents or {}, players, seed)
    st = game.new_game(players, seed, check_invariants=True)
    while st.status is Status.RUNNING:
        guards.watch(st, guarded)
        st.apply(seated[st.pplayer].pick(st))
    return st


def _others(spec, options: dict, readings: dict, players: int) -> list[tuple[dict, dict, int, str]]:
    """(options, readings, players, as a command-line flag) with one ambiguity, option or the player count
    changed from the chosen ones."""
    out = [(options, readings, n, f"-p {n}") for n in range(spec.min_players, spec.max_players + 1)
           if n != players]
    for name, a in spec.ambiguities.items():
        chosen = readings.get(name, a.default)
        out += [(options, {**readings, name: k}, players, f"--reading {name}={k}")
                for k in a.interpretations if k != chosen]
    for name, o in spec.options.items():
        chosen = options.get(name, o.default)
        out += [({**options, name: v}, readings, players,
                 f"--option {name}={str(v).lower() if isinstance(v, bool) else v}") for v in o.values if v != chosen]
    return out


def _examples_reach(spec, path: str, guards: Guards, guarded: frozenset[str]) -> dict[tuple, str]:
    """Point -> the first example of the spec whose position and choices run it (coverage mode); the
    examples' action decisions are watched too (an example may show the one position a guard is for)."""
    from ..runtime.pipeline import load_game
    from ..runtime.scenarios import _given, _pick, _prepare
    games: dict[str, Game] = {}
    out: dict[tuple, str] = {}
    for ex in spec.examples.values():
        key = repr((sorted(ex.options.items()), sorted(ex.readings.items())))
        try:
            game = games.get(key) or games.setdefault(key, load_game(path, ex.options, ex.readings, coverage=True))
        except Exception:  # options or readings the spec does not have: `rulewright test` says so
            continue
        before = game.hits[:]
        try:
            hook = _given(game, ex)
            st = game.new_game(ex.players or max(spec.min_players, 2), ex.seed, hook=hook,
                               prepare=_prepare(game, ex))
            for want in ex.do if hook.error is None else ():
                if st.status is not Status.RUNNING:
                    break
                guards.watch(st, guarded)
                st.apply(_pick(st, want))
            if st.status is Status.RUNNING:
                guards.watch(st, guarded)
        except Exception:  # a failing example is `rulewright test`'s finding; what it ran still counts
            pass
        for (kind, what, span), h, b in zip(game.points, game.hits, before):
            if h > b and kind != "reading" and span is not None:
                out.setdefault(_key(kind, what, span), f"example {ex.name}")
    return out


def _key(kind: str, what: str, span) -> tuple:
    return (kind.split(":")[0], what, span)


def lint(path: str, players: int, games: int, seed: int, options: dict, readings: dict,
         also: tuple[str, ...] = ALSO, also_games: int | None = None,
         other_games: int | None = None) -> list[Diagnostic]:
    """Play and report. `also_games` (default a tenth of `games`): games per agent of `also`;
    `other_games` (default the same): random games per other interpretation and option value."""
    from ..runtime.pipeline import load_game, load_spec
    from ..runtime.scenarios import _position
    from .audit import audit
    spec, static = load_spec(path)
    where = spec.doc.span(("flow",), key=True)
    game = load_game(path, options, readings, coverage=True)
    out = list(static) + audit(spec)
    stalls: dict[str, list[tuple[int, str, str, str]]] = {}  # reason -> (seed, agent, position, command)
    errors: dict[str, list[tuple[int, str]]] = {}
    guarded = frozenset(n for n, a in spec.actions.items() if a.when is not None and a.when.ast is not None)
    guards = Guards()
    extra = max(1, games // 10) if also_games is None else also_games
    runs = [(i, "random") for i in range(games)]
    runs += [(games + k * extra + j, name) for k, name in enumerate(also) for j in range(extra)]
    for i, name in runs:
        s = game_seed(seed, i)
        st = _play(game, players, s, None if name == "random" else dict.fromkeys(range(players), name),
                   guards, guarded)
        if st.status is Status.STALLED:
            stalls.setdefault(st.reason or "?", []).append(
                (s, name, _position(st), _command(path, players, s, name, options, readings)))
        elif st.status is Status.ERROR:
            errors.setdefault(st.reason or "?", []).append((s, name))
    n_other = max(1, games // 10) if other_games is None else other_games
    games = len(runs)
    # Every other reading, option value and player count, one at a time: where else each point runs.
    elsewhere: dict[tuple, str] = {}  # point -> the first flag under which it ran
    tried = 0
    start = len(runs)
    for opts, reads, n, flag in _others(spec, options, readings, players) if n_other else []:
        other = load_game(path, opts, reads, coverage=True)
        for j in range(n_other):
            s = game_seed(seed, start + j)
            st = _play(other, n, s, None, guards, guarded)
            if st.status is Status.STALLED:  # a stall under another reading is a finding too
                stalls.setdefault(st.reason or "?", []).append(
                    (s, "random", _position(st), _command(path, n, s, "random", opts, reads)))
        start += n_other
        tried += n_other
        for (kind, what, span), h in zip(other.points, other.hits):
            if h and kind != "reading" and span is not None:
                elsewhere.setdefault(_key(kind, what, span), flag)
    if n_other:
        for k, flag in _examples_reach(spec, path, guards, guarded).items():
            elsewhere.setdefault(k, flag)
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
    dead_hint = ("if nothing can reach it, delete it; if it is for a rare situation, name that situation "
                 "(an assumption) and give an example that reaches it")
    everything = (f"{games + tried} games under every reading, option value and player count (one changed at "
                  f"a time), nor in any example")
    for (kind, what, span), h in sorted(totals.items(), key=lambda kv: (kv[0][2].line, kv[0][2].col)):
        if h:
            continue
        key = (kind, what, span)
        if key not in everywhere:  # meant for other readings or options only: a rare case there is no finding
            continue
        if n_other and key not in elsewhere:  # dead: no other reading, option, player count or example reaches it
            thing = (f"{what} never ran" if kind == "rule" else "this choice option was never taken"
                     if kind == "option" else f"this `{what}` branch never ran")
            out.append(Diagnostic("W502", f"{thing} in {everything}", span, hint=dead_hint,
                                  severity=Severity.WARNING))
            continue
        if kind == "rule":
            msg = f"{what} never ran in {games} games"
        elif kind == "option":
            msg = f"this choice option was never taken in {games} games"
        else:
            msg = f"this `{what}` branch never ran in {games} games"
        out.append(Diagnostic("W501", msg, span, hint="a rule that never fires may be unreachable or mis-stated",
                              note=f"it runs with {elsewhere[key]}" if key in elsewhere else None,
                              severity=Severity.WARNING))
    for name in sorted(guarded):
        seen = guards.offered.get(name, 0)
        if seen and not guards.withheld.get(name):
            when = spec.actions[name].when
            out.append(Diagnostic(
                "W503", f"the `when:` of action '{name}' held at all {seen} of its action decisions in "
                        f"{games + tried} games" + (" under every reading, option value and player count, and in "
                                                    "every example" if n_other else "")
                        + ": it never withheld the action", when.span,
                hint="if it cannot be false, it guards nothing: delete it; if it is for a rare situation, give an "
                     "example of that situation",
                severity=Severity.WARNING))
    for reason, found in stalls.items():
        s, name, position, command = found[0]
        out.append(Diagnostic("W510", f"{len(found)} of {games + tried} games stalled: {reason}", where,
                              hint=f"reproduce: {command}", note=f"position: {position}",
                              severity=Severity.WARNING))
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
