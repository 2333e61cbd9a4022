"""Spec examples: executable scenarios from the rulebook.

Owns running a spec's `examples:` section: set up the `given` position
(cards placed on top of zones, variables, whose turn it is, decks stacked
to come out of their next shuffle in a known order) right after setup, make the `do` choices by their labels, then check every `expect`
condition. A failure says which expectation failed and what the state was;
a label that matches no option lists the options there were.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..lang.builtins import RuleError
from ..spec.diagnostics import Diagnostic, Severity
from ..compile.compiler import Compiler
from .chance import Chance
from .engine import Game, SetupError, State, Status
from ..lang import versions
from ..lang.model import Example, Spec

_ZONE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:@([0-9]+))?$")
# a variable, a keyed variable's value (`checks[fight]`), with an optional @seat
_VAR = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]+\])?)(?:@([0-9]+))?$")


@dataclass(slots=True)
class Legacy:
    """A place where an example relied on an older meaning (lang/versions.py): what `upgrade` writes there."""
    change: str
    path: tuple  # the YAML path of the text to rewrite
    text: str  # what is written there now
    fixed: str  # what the current language needs there
    note: str  # the deprecation warning

    def diagnostic(self, spec: Spec) -> Diagnostic:
        """The deprecation warning (W421) at the text `upgrade` would rewrite."""
        return Diagnostic("W421", self.note, spec.doc.span(self.path),
                          hint=f"write '{self.fixed}' (`rulewright upgrade SPEC` does, and checks the examples again)",
                          severity=Severity.WARNING)


@dataclass(slots=True)
class Outcome:
    name: str
    ok: bool
    message: str
    rule: str | None
    legacy: list[Legacy] = field(default_factory=list)


class ExampleError(Exception):
    pass


def _given(game: Game, ex: Example):
    spec = game.spec
    zones = ex.given.get("zones", {})
    vars_ = ex.given.get("vars", {})
    first = ex.given.get("first")

    def hook(st: State) -> None:
        hook.taken = []  # (card type, the zone it was taken from, the zone it was put on), for messages
        hook.legacy = []  # where the example relied on an older meaning (lang/versions.py)
        for src, dst in ex.given.get("clear", {}).items():
            st.move_zone(_zone_id(game, st, src), _zone_id(game, st, dst))
        placed: set[int] = set()
        for zname, types in zones.items():
            zid = _zone_id(game, st, zname)
            wanted = []
            for i, entry in enumerate(types):
                try:
                    c = _take(game, st, ex, zname, i, entry, placed, hook.legacy)
                except ExampleError as exc:  # the engine would report it as a rule error: run_example raises it
                    hook.error = exc
                    raise
                placed.add(c)
                wanted.append(c)
                if st.where[c] != zid:
                    hook.taken.append((st.g.card_type[c], game.zone_name(st.where[c]), game.zone_name(zid)))
            for c in reversed(wanted):  # listed top first
                st.move_card(c, zid)
        for name, value in vars_.items():
            _set_var(spec, st, name, value)
        stacks = {_zone_id(game, st, z): (z, types) for z, types in ex.given.get("after_shuffle", {}).items()}
        if stacks:
            st.rig = _rig(spec, stacks)
        if first is not None:
            if not 1 <= first <= st.n:
                raise ExampleError(f"given.first: seat {first} does not exist with {st.n} players")
            st.cur = first - 1
    hook.taken = []
    hook.legacy = []
    hook.error = None
    return hook


def _take(game: Game, st: State, ex: Example, zname: str, i: int, entry: str, placed: set[int],
          legacy: list | None = None) -> int:
    """The card `given.zones.<zname>[i]` names: `type` (wherever its cards are, if they are all in one
    zone) or `type from zone`. The card nearest the bottom of its zone is taken, to disturb the rest least.
    An unknown type, a type whose free cards lie in several zones, or a zone without one is an error
    at the entry's position."""
    spec = game.spec
    t, _, src = (x.strip() for x in str(entry).partition(" from "))
    at = _at(spec, ex, ("given", "zones", zname, i))
    if t not in spec.cards:
        raise ExampleError(f"{at}given.zones.{zname}: unknown card type '{t}'")
    ct = spec.cards[t]
    free = [c for c in range(ct.first_id, ct.first_id + ct.ids) if st.where[c] >= 0 and c not in placed]
    where: dict[int, int] = {}
    for c in free:
        where[st.where[c]] = where.get(st.where[c], 0) + 1
    found = ", ".join(f"{game.zone_name(z)} ({n})" for z, n in where.items()) or "nowhere"
    if src:
        sid = _zone_id(game, st, src)
        free = [c for c in free if st.where[c] == sid]
        if not free:
            raise ExampleError(f"{at}given.zones.{zname}: no '{t}' {'left ' if where else ''}in {game.zone_name(sid)}"
                               f" to take (free '{t}' cards: {found})")
    elif len(where) > 1 and versions.keeps_old(spec, "given_zones_from"):
        # Language 1: the free copy nearest the bottom of its zone, whichever zone (a deprecated meaning).
        free.sort(key=lambda c: st.zones[st.where[c]].index(c))
        src = _spec_zone_name(game, game.zone_name(st.where[free[0]]))
        if legacy is not None:
            legacy.append(Legacy("given_zones_from", ("examples", ex.name, "given", "zones", zname, i), str(entry),
                                 f"{t} from {src}", f"example '{ex.name}': given.zones.{zname}: '{t}' has free copies "
                                 f"in {found}; the language 1 rule takes the one in {src}"))
        return free[0]
    elif len(where) > 1:
        first = game.zone_name(next(iter(where)))
        raise ExampleError(f"{at}given.zones.{zname}: which '{t}'? free ones are in {found}: write "
                           f"'{t} from {_spec_zone_name(game, first)}'")
    if not free:
        raise ExampleError(f"{at}given.zones.{zname}: there are only {ct.in_play(st.n, game.options) * (st.n if ct.per_seat else 1)}"
                           f" '{t}' cards in a game with {st.n} players")
    free.sort(key=lambda c: st.zones[st.where[c]].index(c))
    return free[0]


def _at(spec: Spec, ex: Example, path: tuple) -> str:
    """`file:line:col: ` of a part of an example, for an error message."""
    span = spec.doc.span(("examples", ex.name) + path)
    return f"{span.path}:{span.line}:{span.col}: " if span is not None else ""


def _spec_zone_name(game: Game, shown: str) -> str:
    """A zone as an example names it: `P2.hand` is `hand@2`."""
    if shown.startswith("P") and "." in shown:
        seat, name = shown[1:].split(".", 1)
        return f"{name}@{seat}"
    return shown


def _prepare(game: Game, ex: Example):
    """Before setup: the scripted dice (`given.rolls`) and the deck order of the setup's shuffles
    (`given.setup_shuffle`), so an example can fix what the setup draws too."""
    def prepare(st: State) -> None:
        if ex.given.get("rolls"):
            st.scripted = Chance.example(ex.given["rolls"])
        stacks = {_zone_id(game, st, z): (z, types) for z, types in ex.given.get("setup_shuffle", {}).items()}
        if stacks:
            st.rig = _rig(game.spec, stacks)
    return prepare


def _took(hook) -> str:
    """Where `given.zones` found its cards (those it had to move), e.g. `2 chip3 from draw to P1.held`."""
    counts: dict[tuple, int] = {}
    for key in getattr(hook, "taken", []):
        counts[key] = counts.get(key, 0) + 1
    if not counts:
        return ""
    return "; given.zones took " + ", ".join(f"{n} {t} from {src} to {dst}" for (t, src, dst), n in counts.items())


def _rig(spec: Spec, stacks: dict[int, tuple[str, list[str]]]):
    """After the next shuffle of each listed zone, bring the listed cards to its top (top first)."""
    def rig(st: State, zid: int) -> None:
        if zid not in stacks:
            return
        zname, types = stacks.pop(zid)
        zone = st.zones[zid]
        picked: list[int] = []
        for t in types:
            if t not in spec.cards:
                raise RuleError(f"given.after_shuffle.{zname}: unknown card type '{t}'")
            found = next((c for c in reversed(zone) if st.g.card_type[c] == t and c not in picked), None)
            if found is None:
                raise RuleError(f"given.after_shuffle.{zname}: no more '{t}' in the zone when it is shuffled")
            picked.append(found)
        zone[:] = [c for c in zone if c not in picked] + picked[::-1]
    return rig


def _zone_id(game: Game, st: State, name: str) -> int:
    m = _ZONE.match(name)
    z = game.spec.zones.get(m.group(1)) if m else None
    if z is None:
        raise ExampleError(f"given.zones: unknown zone '{name}'")
    if z.owner == "shared":
        return z.index
    if not m.group(2):
        raise ExampleError(f"given.zones: '{name}' belongs to a player: write {name}@SEAT")
    seat = int(m.group(2)) - 1
    if not 0 <= seat < st.n:
        raise ExampleError(f"given.zones: seat {seat + 1} does not exist")
    return game.S + seat * game.P + z.index


def _set_var(spec: Spec, st: State, name: str, value) -> None:
    m = _VAR.match(name.replace("turn.", ""))
    if name.startswith("turn."):
        v = spec.vars["turn"].get(name[5:])
        if v is None:
            raise ExampleError(f"given.vars: unknown turn variable '{name}'")
        st.tvars[v.index] = _value(st, v, value)
        return
    if m and m.group(2):
        v = spec.vars["player"].get(m.group(1))
        if v is None:
            raise ExampleError(f"given.vars: unknown player variable '{m.group(1)}'")
        st.pvars[v.index][int(m.group(2)) - 1] = _value(st, v, value)
        return
    v = spec.vars["global"].get(name)
    if v is None:
        raise ExampleError(f"given.vars: unknown global variable '{name}' (player variables are written name@SEAT)")
    st.gvars[v.index] = _value(st, v, value)


def _value(st: State, v, value):
    """A `given.vars` value as the state holds it: a cell variable's is the cell its name names (`c3`)."""
    if v.type != "cell":
        return value
    cell = st.g.boards[v.board].named.get(str(value))
    if cell is None:
        raise ExampleError(f"given.vars: '{v.name}' holds a cell of '{v.board}', and {value!r} is not one")
    return cell


def _pick(st: State, want: str) -> int:
    labels = st.labels()
    for i, lab in enumerate(labels):
        if lab.lower() == want.lower():
            return i
    found = [i for i, lab in enumerate(labels) if lab.lower().startswith(want.lower())]
    if len(found) == 1:
        return found[0]
    shown = "; ".join(labels)
    if not found:
        raise ExampleError(f"no option '{want}' for P{st.pplayer + 1}; the options were: {shown}")
    raise ExampleError(f"'{want}' matches several options: {shown}")


def _check_offered(st: State, ex: Example) -> None:
    """`offered:` / `not_offered:`: what the decision pending after `do` lists (a label or its start)."""
    if not ex.offered and not ex.not_offered:
        return
    labels = st.labels() if st.status is Status.RUNNING else []
    shown = "; ".join(labels) or "none (the game is over)"

    def has(want: str) -> bool:
        return any(lab.lower() == want.lower() or lab.lower().startswith(want.lower()) for lab in labels)
    for want in ex.offered:
        if not has(want):
            raise ExampleError(f"offered: '{want}' is not among the options; they are: {shown}")
    for want in ex.not_offered:
        if has(want):
            raise ExampleError(f"not_offered: '{want}' is offered; the options are: {shown}")


def run_example(spec: Spec, ex: Example) -> Outcome:
    legacy: list[Legacy] = []
    try:
        game = Game(spec, ex.options, ex.readings)
        players = ex.players or max(spec.min_players, 2)
        hook = _given(game, ex)
        st = game.new_game(players, ex.seed, log=True, check_invariants=True, hook=hook, prepare=_prepare(game, ex))
        legacy = hook.legacy
        if hook.error is not None:
            raise hook.error
        for want in ex.do:
            if st.status is not Status.RUNNING:
                raise ExampleError(f"the game ended ({st.status}: {st.reason or 'over'}) before '{want}'")
            st.apply(_pick(st, want))
        if st.status is Status.ERROR:
            raise ExampleError(f"the game stopped with an error: {st.reason}")
        if st.scripted is not None and st.scripted.dice:
            raise ExampleError(f"given.rolls: {len(st.scripted.dice)} scripted roll(s) were never rolled "
                               f"({', '.join(map(str, st.scripted.dice))})")
        _check_offered(st, ex)
        comp = Compiler(spec, game.options, game.readings)
        for code in ex.expect:
            f = comp.gen.condition(code)
            try:
                holds = f(st, [None] * max(code.n_locals, 1))
            except RuleError as exc:
                return Outcome(ex.name, False, f"`{code.text.value}` cannot be evaluated: {exc}", ex.rule)
            if not holds:
                return Outcome(ex.name, False, f"expected `{code.text.value}`; position: {_position(st)}{_took(hook)}",
                               ex.rule, legacy)
        return Outcome(ex.name, True, "ok", ex.rule, legacy)
    except (ExampleError, SetupError) as exc:
        return Outcome(ex.name, False, str(exc), ex.rule, legacy)


def _position(st: State) -> str:
    g = st.g
    spec = g.spec
    parts = [f"P{st.cur + 1} to play", f"status {st.status}"]
    parts += [f"{n}={v}" for n, v in zip(spec.vars["global"], st.gvars)]
    for name, vd in spec.vars["player"].items():
        parts.append(f"{name}=" + "/".join(str(x) for x in st.pvars[vd.index]))
    for zid, z in enumerate(st.zones):
        if z and zid >= g.S:
            parts.append(f"{g.zone_name(zid)}=[{', '.join(g.card_label[c] for c in z)}]")
    return "; ".join(parts)


def run_examples(spec: Spec) -> list[Outcome]:
    return [run_example(spec, ex) for ex in spec.examples.values()]
