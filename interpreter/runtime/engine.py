"""The runtime: a compiled `Game` and the `State` of one game being played.

Owns: the flow program (setup, phases, turns, the action decision, end of
turn, end of game) built from the spec's flow section; the state (zones as
lists of card ids, variables, the seeded RNG, the call stack of paused
programs, the pending decision); the `decision()` / `apply()` protocol;
moves, shuffles, triggers; the step budget and stall detection; clone,
save/resume, per-player views; invariants. It never reads files or prints.
Chance given from outside (a `Chance` script) is runtime/chance.py's; the
layouts of views and saves (`View`, `Save`) are runtime/records.py's.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable

from ..lang.builtins import RuleError
from ..compile.codegen import EndGame, EndTurn
from ..compile.compiler import ACTION, OPTION, SUBSET, VALUE, Compiler, Program
from ..lang.kinds import ELEMENT, T
from ..lang.labels import action_template
from ..lang.limits import MAX_CALL_DEPTH, MAX_OPTIONS
from ..lang.model import Spec
from .chance import Chance, ChanceError, install as _install_chance
from .records import Save, View
from .seeds import shuffle as _shuffle

DEFAULT_BUDGET = 200_000  # steps: turns, loop iterations, calls, fired triggers, decisions


class Status(StrEnum):
    """Where a game stands: `running` (a decision is pending), `finished` (it ended by its rules),
    `stalled` (it cannot go on: the step budget ran out, or nobody can move; a finding about the rules,
    with the seed that reproduces it), `error` (a rule failed while it ran; `State.reason` says which)."""
    RUNNING = "running"
    FINISHED = "finished"
    STALLED = "stalled"
    ERROR = "error"


class Stalled(Exception):
    """The game cannot go on: budget exhausted or no way forward."""


class IllegalChoice(ValueError):
    """apply() was given an option that is not among the legal ones."""


class SetupError(ValueError):
    """new_game() was asked for something the spec does not allow."""


@dataclass(slots=True)
class Decision:
    """The pending decision: who must choose, and among which options.

    Attributes:
        player: the seat that chooses, numbered from 0 (seat 0 is `P1` in narration, the CLI and specs).
        kind: `action` (which action of the turn), `value` (a `choose ... from` a list: a card, a
            player, a number), `option` (a `choose` among named options), `subset` (some cards at once).
        prompt: the question, as the spec words it (`"your action"` for the turn's action).
        labels: one readable label per option, in the order `apply(i)` numbers them from 0; unique
            (a repeated label gets ` (2)`, ` (3)` ...); cards appear by their labels (`2 of clubs`).

    `State.decision()` formats every label: for reading a position. A loop that only picks needs
    `State.option_count` and `State.to_move`, which format nothing (`State.label(i)` for one label).
    """
    player: int
    kind: str
    prompt: str
    labels: list[str]


@dataclass(slots=True)
class Start:
    """The starting position of a player count: seats, each seat's others, cards per zone, kept zone sums."""
    seats: list[int]
    others: list[list[int]]
    zones: list[list[int]]
    zsum: list[list[int]]
    where: list[int]  # each card's zone; -1 for a card this player count leaves out (lang/decks.py)
    in_play: int  # the cards in play


@dataclass(slots=True)
class TurnProgram:
    start: Program
    end: Program
    actions: list[tuple[str, str, list, Program]]  # name, label, parameter names, program


@dataclass(slots=True, repr=False)
class Result:
    """How one game ended (`State.result()`).

    Attributes:
        status: `finished`, `stalled` or `error` (`running` for a game not over yet), as `Status` text.
        winners: the winning seats, numbered from 0 like every seat in the Python API (`[1]` is the
            player narration calls `P2`); empty when nobody won, several on a shared win.
        turns: turns played.
        decisions: decisions taken (the length of `choices`).
        steps: steps charged to the game's step budget (turns, decisions, loop iterations, calls).
        scores: each seat's value of the spec's `end.score` variable at the end (by seat from 0), or
            None when the spec has no score.
        reason: why a stalled or failed game stopped; None for a finished one.
        seed: the game's seed.
        players: the number of players.
        choices: the option index taken at every decision, in order: with `seed` and `players`, the game
            itself (`Game.resume(players, seed, choices)`). The repr shows only how many there are.
    """
    status: str
    winners: list[int]
    turns: int
    decisions: int
    steps: int
    scores: list[int] | None
    reason: str | None
    seed: int
    players: int
    choices: list[int] = field(default_factory=list)

    def __repr__(self) -> str:
        shown = ", ".join(f"P{p + 1}" for p in self.winners) or "nobody"
        return (f"Result({self.status}, winners={self.winners!r} ({shown}), turns={self.turns}, "
                f"decisions={self.decisions}, scores={self.scores!r}, seed={self.seed}, players={self.players}"
                + (f", reason={self.reason!r}" if self.reason else "") + f", choices=<{len(self.choices)} choices>)")


class Game:
    """A spec compiled for one set of options and ambiguity readings (`load_game` builds one).

    Attributes:
        spec: the checked spec.
        options: every option's value, the defaults filled in.
        readings: every ambiguity's interpretation, the defaults filled in.
        budget: the step budget of each game.
        card_type: per card id (from 0), its card type's name (`card_2_clubs`: how `components`,
            `given:` and chance scripts name cards).
        card_label: per card id, its label (`2 of clubs`: how narration, logs, `view()` and option
            labels show cards).
    """

    def __init__(self, spec: Spec, options: dict[str, Any] | None = None, readings: dict[str, str] | None = None,
                 budget: int = DEFAULT_BUDGET, coverage: bool = False, locate: bool = False):
        self.spec = spec
        self.options = {n: o.default for n, o in spec.options.items()}
        self.readings = {n: a.default for n, a in spec.ambiguities.items()}
        for k, v in (options or {}).items():
            if k not in spec.options:
                raise SetupError(f"unknown option '{k}' (known: {', '.join(spec.options) or 'none'})")
            allowed = spec.options[k].values
            v = _coerce(v, allowed)
            if v not in allowed:
                raise SetupError(f"option {k}={v!r} is not one of {', '.join(map(str, allowed))}")
            self.options[k] = v
        for k, v in (readings or {}).items():
            if k not in spec.ambiguities:
                raise SetupError(f"unknown ambiguity '{k}' (known: {', '.join(spec.ambiguities) or 'none'})")
            if v not in spec.ambiguities[k].interpretations:
                raise SetupError(f"'{v}' is not an interpretation of '{k}' "
                                 f"(one of: {', '.join(spec.ambiguities[k].interpretations)})")
            self.readings[k] = v
        self.budget = budget
        self.coverage = coverage
        c = Compiler(spec, self.options, self.readings, coverage, locate)
        c.compile_all()
        self.props = c.props
        self.sum_tables = [c.props[p] for p in c.summed]  # State.zsum[j]: per zone, the sum of this property
        self._starts: dict[int, Start] = {}
        self.param_show: dict[tuple[str, int], T] = {}  # (action, parameter index) -> how its values are shown
        self.label_tpl = {a.name: t for a in spec.actions.values()
                          if (t := action_template(spec, a)[0]) is not None}  # labels with {parameter} holes
        self.card_type = c.card_type
        self.card_label = [spec.cards[t].label for t in c.card_type]
        self.S, self.P = spec.n_shared, spec.n_player_zones
        self.shared_zone_names = [z.name for z in spec.zones.values() if z.owner == "shared"]
        self.player_zone_names = [z.name for z in spec.zones.values() if z.owner == "player"]
        self.zone_vis = {}
        for z in spec.zones.values():
            self.zone_vis[(z.owner, z.index)] = z.visibility
        self.boards = c.boards  # each board as this game's options size it (lang/boards.py)
        self.gvar_start = [_start(v, c.boards) for v in spec.vars["global"].values()]
        self.pvar_start = [_start(v, c.boards) for v in spec.vars["player"].values()]
        self.tvar_start = [_start(v, c.boards) for v in spec.vars["turn"].values()]
        self.gvar_vis = [v.visible for v in spec.vars["global"].values()]  # who may read each (runtime/redact.py)
        self.pvar_vis = [v.visible for v in spec.vars["player"].values()]
        self._sides: dict[int, tuple[list[list[int]], list[int]]] = {}
        self.secret_vars = any(v != "public" for v in self.gvar_vis + self.pvar_vis)
        self.sight: dict[tuple[int, int], list[bool]] = {}  # (players, seat) -> zones it may look into (redact.py)
        self.triggers = c.triggers
        self.skip_if = c.condition(spec.skip_if)  # players passed over when the turn passes
        self.setup = c.program("setup", spec.setup)
        self.first = None if isinstance(spec.first, str) else c.condition(spec.first)
        self.end_when = c.condition(spec.end_when)
        self.end_always = spec.end_check == "always"
        self.winners_fn = c.condition(spec.winners)
        self.score_idx = spec.vars["player"][spec.score].index if spec.score else None
        self.invariants = {n: c.condition(code) for n, code in spec.invariants.items()}
        self.scratch = max([code.n_locals for code in spec.invariants.values() if code] +
                           [c.n_locals for ph in spec.phases for c in (ph.while_, ph.until) if c] +
                           [spec.end_when.n_locals if spec.end_when else 0,
                            spec.winners.n_locals if spec.winners else 0,
                            spec.skip_if.n_locals if spec.skip_if else 0, 1])
        self._turns: dict[int, TurnProgram] = {}
        self.main = self._main(c)
        self.points = c.gen.points  # coverage points (kind, what, span), when measuring
        self.hits = c.gen.COV
        self.marks, self.at = c.gen.marks, c.gen.POS  # locate mode: which rule text ran last

    # -- the flow program ------------------------------------------------------
    def _turn(self, c: Compiler, td) -> TurnProgram:
        key = id(td)
        if key not in self._turns:
            actions = []
            for name, _span in td.actions:
                a = self.spec.actions[name]
                body = a.do.ast or []
                if (not self.coverage and len(body) == 1 and type(body[0]).__name__ == "CallStmt"
                        and not body[0].call.args
                        and not a.params and not self.spec.procedures[body[0].call.func].params):
                    prog = c.procs[body[0].call.func]  # `do: proc()`: run the procedure itself, one frame less
                else:
                    prog = c.program(f"action {name}", a.do)
                actions.append((name, a.label, list(a.params), prog))
            self._turns[key] = TurnProgram(c.program("turn start", td.start), c.program("turn end", td.end), actions)
        return self._turns[key]

    def _main(self, c: Compiler) -> Program:
        spec = self.spec
        main = Program("flow")
        ops: list[Callable] = []
        phases = spec.phases or [None]
        main.n_locals = 2 * len(phases)  # per phase: its round count, and the turn its round began at
        cycles: list[Cycle] = []
        ops.append(_call(self.setup))
        first = self.first
        first_locals = spec.first.n_locals if not isinstance(spec.first, str) else 0

        def choose_first(st, fr):
            if first is not None:
                st.cur = first(st, [None] * max(first_locals, 1))
            elif st.scripted is not None and st.scripted.seats:  # a chance script gives the first seat too
                v = st.scripted.take_number(1, st.n)
                st.cur = v - 1 if v is not None else st.chance().randrange(st.n)
            else:
                st.cur = st.chance().randrange(st.n)
        ops.append(choose_first)

        def given(st, fr):
            if st.hook is not None:  # an example's `given:` position
                st.hook(st)
        ops.append(given)
        for k, ph in enumerate(phases):
            repeat = ph.repeat if ph else 1
            tp = self._turn(c, ph.turn if ph else spec.turn)
            again = c.condition(ph.while_) if ph else None
            start = c.program(f"phase {ph.name} start", ph.start) if ph else None
            endp = c.program(f"phase {ph.name} end", ph.end) if ph else None
            name = ph.name if ph else None

            def init(st, fr, k=k):
                fr[2][k] = 0
            ops.append(init)
            head = len(ops)
            ops.append(None)  # exit test, patched below
            if ph:
                def begin_phase(st, fr, k=k, name=name, slot=len(phases) + k):
                    st.phase = name
                    fr[2][slot] = st.turn  # a phase without `until` is one round: a turn for each player
                    if st.log is not None:
                        st.event("phase", phase=name, round=fr[2][k] + 1)
                ops.append(begin_phase)
                ops.append(_call(start))
            # The turn cycle (begin a turn, offer actions, end the turn) is generated code in `flow`.
            cy = Cycle(start=len(ops), loop=len(ops) + 1, end_at=len(ops) + 2)
            ops += [_in_flow] * 3
            done = len(ops)
            if ph:
                ops.append(_call(endp))

            def next_round(st, fr, k=k, head=head):
                fr[2][k] += 1
                fr[1] = head
            ops.append(next_round)
            exit_ = len(ops)

            def exit_test(st, fr, k=k, repeat=repeat, exit_=exit_, again=again):
                if fr[2][k] >= repeat or again is not None and not again(st, [None] * st.g.scratch):
                    fr[1] = exit_
            ops[head] = exit_test
            turn = ph.turn if ph else spec.turn
            cy.done = done
            cy.turn_start = _nonempty(tp.start)
            cy.turn_end = _nonempty(tp.end)
            cy.whens = [self.spec.actions[n].when for n, _s in turn.actions]
            cy.params = [list(self.spec.actions[n].params.values()) for n, _s in turn.actions]
            cy.actions = tp.actions
            cy.programs = [prog for *_, prog in tp.actions]
            cy.until, cy.end_when, cy.end_always = ph.until if ph else None, spec.end_when, self.end_always
            if ph and ph.until is None:
                cy.round_slot = len(phases) + k
            cy.tvar_start = self.tvar_start
            cy.scratch = [None] * max([self.scratch] + [p.n_locals for *_, p in tp.actions])
            cycles.append(cy)
        ops.append(lambda st, fr: st.finish())
        main.fn = c.gen.flow(ops, cycles, self.budget)
        return main

    def start(self, n: int) -> "Start":
        """What every game with `n` players starts from (built once per player count)."""
        if n not in self._starts:
            zones, where = start_zones(self.spec, n, len(self.card_type), self.options)
            self._starts[n] = Start(list(range(n)), [[q for q in range(n) if q != p] for p in range(n)], zones,
                                    _zone_sums(self.sum_tables, zones), where, len(where) - where.count(-1))
        return self._starts[n]

    def sides(self, n: int) -> list[list[int]]:
        """The sides of a game with `n` players (`game.teams`, lang/teams.py): one side per seat without."""
        return self._side_table(n)[0]

    def side_index(self, n: int) -> list[int]:
        """Each seat's side (0-based) in a game with `n` players."""
        return self._side_table(n)[1]

    def _side_table(self, n: int) -> tuple[list[list[int]], list[int]]:
        got = self._sides.get(n)
        if got is None:
            t = self.spec.teams
            sides = t.sides(n) if t is not None else [[p] for p in range(n)]
            index = [0] * n
            for k, side in enumerate(sides):
                for p in side:
                    index[p] = k
            got = self._sides[n] = (sides, index)
        return got

    # -- playing -----------------------------------------------------------------
    def new_game(self, players: int, seed: int, *, log: bool = False, check_invariants: bool = False,
                 hook: Callable[["State"], None] | None = None,
                 prepare: Callable[["State"], None] | None = None, auto: list | None = None,
                 chance: Chance | None = None) -> "State":
        """A new game, run to its first decision.

        Args:
            players: how many play (within the spec's `game.players`).
            seed: the seed of every chance draw (same spec, options, readings, seed and choices: the same
                game, byte for byte).
            log: keep the event log (`State.log`), as `rulewright run --log` writes it.
            check_invariants: check the engine's and the spec's invariants after every step.
            chance: a script of dice outcomes and deck orders to use instead of the seed (see `Chance`);
                the game keeps its own copy, setup's own draws and shuffles included.

        Raises:
            SetupError: a player count or a start value the spec does not allow.
            ChanceError: the chance script runs out or does not fit during setup.

        `hook`, `prepare` and `auto` are internal: `hook` sets up a position after setup, `prepare` runs
        before setup (a spec example's dice and stacked decks), `auto` seats agents that decide inside
        the run (`lab.runner.play`), so the game runs to its end at once."""
        spec = self.spec
        if not spec.min_players <= players <= spec.max_players:
            raise SetupError(f"{spec.name} is for {spec.min_players} to {spec.max_players} players, not {players}")
        for v in spec.vars["global"].values():
            if v.type == "player" and v.start >= players:
                raise SetupError(f"'{v.name}' starts at seat {v.start + 1}, but there are {players} players")
        st = State(self, players, seed, log, check_invariants)
        st.hook = hook
        st.auto = auto
        if chance is not None:
            _install_chance(st, chance)
        if prepare is not None:
            prepare(st)
        st.run()
        return st

    def resume(self, players: int, seed: int, choices: list[int], **kw: Any) -> "State":
        """Rebuild a game from its seed and choices (replay is exact): `resume(**{k: save[k] for k in
        ("players", "seed", "choices")})` of a `State.save()`. A game played with a chance script
        replays with the same script (`chance=`); raises `IllegalChoice` when a choice does not exist."""
        st = self.new_game(players, seed, **kw)
        for i in choices:
            if st.status is not Status.RUNNING:
                raise IllegalChoice("the saved game has more choices than the game has decisions")
            st.apply(i)
        return st

    # -- showing values ------------------------------------------------------------
    def zone_name(self, zid: int) -> str:
        """A zone id as `view()` names it: a shared zone by its name (`deck`), a player's as `P2.hand`."""
        if zid < self.S:
            return self.shared_zone_names[zid]
        seat, k = divmod(zid - self.S, self.P)
        return f"P{seat + 1}.{self.player_zone_names[k]}"

    def show(self, v: Any, ty: T) -> str:
        if ty is T.PLAYER:
            return f"P{v + 1}"
        if ty is T.CARD:
            return self.card_label[v]
        if ty is T.ZONE:
            return self.zone_name(v)
        if ty in ELEMENT and ty is not T.ZONE:
            el = ELEMENT[ty]
            if el in ELEMENT:  # a list of lists: `a7, a6; b7, b6`
                return "; ".join(self.show(x, el) for x in v) if v else "nothing"
            return ", ".join(self.show(x, el) for x in v) if v else "nothing"
        if ty is T.BOOL:
            return "yes" if v else "no"
        return str(v)


def _start(v: Any, boards: dict) -> Any:
    """A variable's start value as the state holds it: a `type: cell` variable's is a cell of this game's board
    (its `start:` cell, else the board's first cell in reading order)."""
    if v.type != "cell":
        return v.start
    board = boards[v.board]
    return board.named.get(v.start, board.cells[0]) if v.start is not None else board.cells[0]


def start_zones(spec: Spec, n: int, n_ids: int, options: dict | None = None) -> tuple[list[list[int]], list[int]]:
    """Each zone's cards when a game with `n` players starts, and each card's zone (-1: not in this game).

    A type's cards take its first ids; a per-seat type (`in:` a player zone) gives each seat its own
    block of ids, and a count per player count leaves the rest of the block out of the game."""
    S, P = spec.n_shared, spec.n_player_zones
    zones: list[list[int]] = [[] for _ in range(S + P * n)]
    where = [-1] * n_ids
    for ct in spec.cards.values():
        z = spec.zones[ct.zone]
        k = ct.in_play(n, options)
        if ct.per_seat:
            block = ct.ids // max(spec.max_players, 1)
            for seat in range(n):
                zid = S + seat * P + z.index
                for c in range(ct.first_id + seat * block, ct.first_id + seat * block + k):
                    zones[zid].append(c)
                    where[c] = zid
        else:
            for c in range(ct.first_id, ct.first_id + k):
                zones[z.index].append(c)
                where[c] = z.index
    return zones, where


def _coerce(v: Any, allowed: list) -> Any:
    """Command-line option values arrive as text."""
    if isinstance(v, str):
        for a in allowed:
            if str(a).lower() == v.lower():
                return a
    return v


def _zone_sums(tables: list[tuple], zones: list[list[int]]) -> list[list[int]]:
    """Per kept property (its table of values per card), the sum over each zone's cards."""
    return [[sum(map(t.__getitem__, z)) for z in zones] for t in tables]


def _call(prog: Program) -> Callable:
    if _nonempty(prog) is None:  # nothing to run: skip the frame
        return _noop

    def call(st, fr):
        L = [None] * prog.n_locals
        plain = prog.plain
        if plain is None:  # it may pause: a frame of its own, run by the engine
            st.stack.append([prog, 0, L])
            return None
        try:  # it never pauses: at once, without a frame
            return plain(st, L)
        except Exception:  # the engine names the rule that failed: it must be on the stack
            st.stack.append([prog, 0, L])
            raise
    return call


def _nonempty(prog: Program) -> Program | None:
    return None if prog.code is None or not prog.code.ast else prog


def _noop(st, fr) -> None:
    return None


def _in_flow(st, fr) -> None:
    raise AssertionError("a turn cycle's step runs in the generated flow, never from the op list")


_new_state = object.__new__
QUIET_ROUNDS = 50  # rounds without a single decision before a game counts as stalled


@dataclass(slots=True)
class Cycle:
    """One phase's turn cycle, for `PyGen.flow`: where it sits in the op list and what it runs."""
    start: int  # op index: begin a turn
    loop: int  # offer the turn's actions; back here after each one
    end_at: int  # end the turn, then begin the next one (or leave the cycle)
    done: int = 0  # where the phase goes on when its `until` holds
    round_slot: int = -1  # a phase without `until`: the flow frame's slot holding the turn its round began at
    turn_start: Program | None = None
    turn_end: Program | None = None
    whens: list = field(default_factory=list)  # per action: its `when` Code or None
    params: list = field(default_factory=list)  # per action: its parameters' Code
    actions: list = field(default_factory=list)  # the decision's meta (see TurnProgram.actions)
    programs: list = field(default_factory=list)  # per action: the program it runs
    until: Any = None
    end_when: Any = None
    end_always: bool = False
    tvar_start: list = field(default_factory=list)
    scratch: list = field(default_factory=list)
    quiet_rounds: int = QUIET_ROUNDS
    max_options: int = MAX_OPTIONS

    @staticmethod
    def stalled(st: "State") -> None:
        raise Stalled(f"nobody had a decision to make for {QUIET_ROUNDS} rounds: no way out")

    @staticmethod
    def no_action(st: "State") -> None:
        """Nobody can act: the turn passes. A whole round of that is a stall."""
        st.idle += 1
        if st.log is not None:
            st.event("say", text=f"P{st.cur + 1} has no legal action: the turn passes.")
        if st.idle > st.n:
            raise Stalled("no player has a legal action")
        st.turn_over = True

    @staticmethod
    def too_many() -> None:
        raise RuleError(f"an action with more than {MAX_OPTIONS:,} choices of its parameters")


def numbered(labels: list[str]) -> list[str]:
    """The labels made unique: a repeated label gets ' (2)', ' (3)' ..."""
    if len(set(labels)) == len(labels):  # the common case: nothing to number
        return labels
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(lab if seen[lab] == 1 else f"{lab} ({seen[lab]})")
    return out


class State:
    """Everything that changes during one game: a game is played with `decision()` (or `to_move` and
    `option_count`) and `apply(i)`, until `status` is no longer `running`.

    Public attributes (read them, never assign them): `status` (a `Status`), `n` (players), `seed`,
    `turn` (turns played), `decisions`, `choices` (the option index of every decision so far),
    `winners` (seats from 0, once finished), `reason` (why a stalled or failed game stopped), `phase`
    (the current phase's name, or None), `cur` (the seat whose turn it is, from 0), `log` (the event
    list when the game was started with `log=True`, else None). Everything else is the engine's.
    Seats are numbered from 0 throughout the Python API; narration, the CLI and specs say P1 for seat 0.
    """
    __slots__ = ("g", "n", "seed", "seats", "others", "rng", "zones", "where", "gvars", "pvars", "tvars", "cur",
                 "stack", "pkind", "pplayer", "popts", "pmeta", "status", "winners", "reason", "turn", "steps",
                 "decisions", "log", "choices", "turn_over", "in_turn", "idle", "phase", "check", "hook", "quiet",
                 "rig", "auto", "zsum", "marking", "moved", "nxt", "order", "skips", "scripted", "rng_cow",
                 "chosen", "halt", "work", "shown")

    def __init__(self, g: Game, n: int, seed: int, log: bool, check: bool):
        self.g = g
        self.n = n
        self.seed = seed
        start = g.start(n)
        self.seats, self.others = start.seats, start.others  # shared by every game with n players: never changed
        self.rng = random.Random(seed)
        self.rng_cow = False  # rng is shared with a clone (or a seed still to be planted): see chance()
        self.zones: list[list[int]] = [z[:] for z in start.zones]
        self.where = start.where[:]
        self.zsum: list[list[int]] = [r[:] for r in start.zsum]
        self.gvars = g.gvar_start[:]
        self.pvars = [[v] * n for v in g.pvar_start]
        self.tvars = g.tvar_start[:]
        self.cur = 0
        self.stack = [[g.main, 0, [None] * g.main.n_locals]]  # frames: [program, pc, locals]
        self.pkind = -1
        self.pplayer = -1
        self.popts: list | None = None
        self.pmeta: Any = None
        self.status = Status.RUNNING
        self.winners: list[int] = []
        self.reason: str | None = None
        self.turn = 0
        self.steps = 0
        self.work = 0  # elements expressions went through since the last step they were charged (limits.WORK_PER_STEP)
        self.decisions = 0
        self.log: list[dict] | None = [] if log else None
        self.choices: list[int] = []
        self.turn_over = False
        self.in_turn = False
        self.idle = 0
        self.phase: str | None = None
        self.check = check
        self.hook = None
        self.quiet = 0  # turns since the last decision
        self.rig: Callable[["State", int], None] | None = None  # an example's stacked shuffles
        # Agents per seat that decide inside the run, without returning to the caller at each decision.
        self.auto: list | None = None
        # Seat-aware narration (runtime/redact.py): while `marking`, card_text() marks each card it shows,
        # and a logged game remembers where each card moved from since the last decision.
        self.marking = False
        self.moved: dict[int, int] = {}
        self.chosen: tuple[dict, list[int]] | None = None  # the last choice's event and its secret cards
        # Who plays next (turn order statements): a chosen seat (-1: none), the direction, seats to skip.
        self.nxt = -1
        self.order = 1
        self.skips = 0
        self.scripted: Chance | None = None  # a chance script (runtime/chance.py): its outcomes are taken first
        # A search's copy that must stop where the next turn would begin (after the last turn's end and any
        # phase end): run() returns there with no decision pending; a later run() begins that turn.
        self.halt = False
        # Secrets revealed by a rule (`reveal x`, lang/hidden.py): (row, seat) of a player variable, (row, -1)
        # of a global one; a revealed value that changes is a secret again (`conceal`). Immutable, so a clone
        # shares it for free and a change makes a new one.
        self.shown: frozenset[tuple[int, int]] = frozenset()

    def resum(self) -> None:
        """Recount the kept per-zone sums (after something rearranged cards without moves)."""
        self.zsum = _zone_sums(self.g.sum_tables, self.zones)

    # -- protocol --------------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The seat (from 0) that must choose now; -1 when the game is over. Formats nothing."""
        return self.pplayer if self.popts is not None else -1

    @property
    def option_count(self) -> int:
        """How many options the pending decision has (`apply(i)` takes 0 to `option_count - 1`); 0 when
        the game is over. Formats no label: the fast way to count options in a loop."""
        opts = self.popts
        return len(opts) if opts is not None else 0

    def label(self, i: int) -> str:
        """The readable label of option `i` of the pending decision (the same text as `decision().labels[i]`)."""
        labels = self.labels()
        if not 0 <= i < len(labels):
            raise IllegalChoice(f"option {i!r} does not exist: there are {len(labels)} options")
        return labels[i]

    def decision(self) -> Decision | None:
        """The pending decision with every option's label, or None when the game is over.

        Formatting labels costs more than many a rule: a loop that only picks uses `option_count` and
        `to_move` instead, and reads `label(i)` when it needs one."""
        if self.status is not Status.RUNNING:
            return None
        kinds = {ACTION: "action", VALUE: "value", OPTION: "option", SUBSET: "subset"}
        return Decision(self.pplayer, kinds[self.pkind], self._prompt(), self.labels())

    def labels(self) -> list[str]:
        """Readable labels of the pending options, unique (a repeated label gets ' (2)', ' (3)' ...)."""
        return numbered(self._labels())

    def _labels(self) -> list[str]:
        # Showing the options is not playing: the work their labels' expressions do is not charged to
        # the game (a logged game and an unlogged one, a watched one and a bot's, use the same steps).
        steps, work = self.steps, self.work
        try:
            return self._labels_charged()
        finally:
            self.steps, self.work = steps, work

    def _labels_charged(self) -> list[str]:
        g = self.g
        opts, meta, kind = self.popts or [], self.pmeta, self.pkind
        if kind == ACTION:
            out = []
            for o in opts:
                if isinstance(o, int):
                    out.append(meta[o][1])
                else:
                    ai, params = o
                    tpl = g.label_tpl.get(meta[ai][0]) if g.label_tpl else None
                    if tpl is not None:
                        out.append(self._fill_label(meta[ai][0], tpl, params))
                        continue
                    shown = ", ".join(self._show_param(meta[ai][0], k, x) for k, x in enumerate(params))
                    out.append(f"{meta[ai][1]}: {shown}")
            return out
        if kind == OPTION:
            fr = self.stack[-1]
            out = []
            for entry, x in opts:
                slot, _coll, _cond, label, _start = entry
                if slot >= 0:
                    fr[2][slot] = x
                out.append(label(self, fr[2]))
            return out
        slot, _prompt, ty = meta[:3]
        el = T.CARDS if kind == SUBSET else ELEMENT.get(ty, T.STR)
        return [self.card_text(x, el) for x in opts]

    def _fill_label(self, action_name: str, tpl, params: list) -> str:
        """An action label with `{parameter}` holes, filled (lang/labels.py); unnamed parameters follow it."""
        out = []
        for part in tpl.parts:
            if type(part) is str:
                out.append(part)
            elif part.prop is None:
                out.append(self._show_param(action_name, part.param, params[part.param]))
            else:
                x = params[part.param]
                value = str(self.g.props[part.prop][x])
                if self.marking:  # the property of a card some seat may not see is as secret as the card
                    from .redact import mark
                    value = mark(x, value)
                out.append(value)
        text = "".join(out)
        if tpl.rest:
            text += ": " + ", ".join(self._show_param(action_name, k, params[k]) for k in tpl.rest)
        return text

    def _show_param(self, action_name: str, k: int, x: Any) -> str:
        g = self.g
        el = g.param_show.get((action_name, k))
        if el is None:  # once per game, action and parameter: search agents label options all the time
            code = list(g.spec.actions[action_name].params.values())[k]
            ty = code.ast.ty if code.ast is not None else T.ANY
            el = ELEMENT.get(ty, T.STR)
            g.param_show[(action_name, k)] = el
        return self.card_text(x, el)

    def _prompt(self) -> str:
        if self.pkind == ACTION:
            return "your action"
        prompt = self.pmeta[1]
        if not prompt:
            return "choose"
        steps, work = self.steps, self.work  # showing is not playing: see _labels
        try:
            return prompt(self, self.stack[-1][2])
        finally:
            self.steps, self.work = steps, work

    def apply(self, i: int) -> None:
        """Take option `i` (from 0) of the pending decision and run to the next decision or the end.

        Raises:
            IllegalChoice: the game is over, or option `i` does not exist.
            ChanceError: a chance script ran out or did not fit (the game has stopped as `error`)."""
        opts = self.popts
        if opts is None:
            raise IllegalChoice("the game is over" if self.status is not Status.RUNNING else "nothing to choose")
        if type(i) is not int or not 0 <= i < len(opts):
            raise IllegalChoice(f"option {i!r} does not exist: there are {len(opts)} options (0-{len(opts) - 1})")
        self.take(i)
        self.run()

    def take(self, i: int) -> None:
        """Record option `i` of the pending decision and set up what it does (without running it)."""
        opts = self.popts
        self.choices.append(i)
        self.decisions += 1
        if self.log is not None:
            self.log_choice(i)
        kind = self.pkind
        o = opts[i]
        self.popts = None
        if kind == ACTION:
            if type(o) is int:
                prog = self.pmeta[o][3]
                self.stack.append([prog, 0, [None] * prog.n_locals])
            else:
                ai, params = o
                prog = self.pmeta[ai][3]
                self.stack.append([prog, 0, [*params] + [None] * (prog.n_locals - len(params))])
        elif kind == OPTION:
            fr = self.stack[-1]
            entry, x = o
            if entry[0] >= 0:
                fr[2][entry[0]] = x
            fr[1] = entry[4]
        else:
            self.stack[-1][2][self.pmeta[0]] = o

    def log_choice(self, i: int) -> None:
        from .redact import secret_spans
        label = self.labels()[i]
        if self.pkind == VALUE and len(self.pmeta) > 3 or self.pkind == ACTION and self._secret_action(i):
            # a simultaneous choice, or a secret action's (lang/hidden.py): nobody else sees it
            self.event("choice", player=self.pplayer, choice=label, index=i, of=len(self.popts), sealed=True)
            self.moved = {}
            self.chosen = None  # a new step: an earlier choice is no longer widened
            return
        self.marking = True
        try:
            marked = self._labels()[i]
        finally:
            self.marking = False
        cards: list[int] = []
        hidden = secret_spans(self, marked, cards)
        self.event("choice", player=self.pplayer, choice=label, index=i, of=len(self.popts),
                   **({"hidden": hidden} if hidden else {}))
        self.chosen = (self.log[-1], cards) if hidden else None  # widened as its cards move (redact.widen)
        self.moved = {}  # a new step: what a seat saw move before this choice is behind it

    def _secret_action(self, i: int) -> bool:
        o = self.popts[i]
        name = self.pmeta[o if isinstance(o, int) else o[0]][0]
        return self.g.spec.actions[name].secret

    def card_text(self, v: Any, ty: T) -> str:
        """A card (or cards) as narration shows it; marked with its id while `marking` (see redact.py)."""
        if not self.marking or ty not in (T.CARD, T.CARDS):
            return self.g.show(v, ty)
        from .redact import mark
        if ty is T.CARD:
            return mark(v, self.g.card_label[v])
        return ", ".join(mark(c, self.g.card_label[c]) for c in v) if v else "nothing"

    def secret_text(self, text: str, reads: tuple, owners: tuple) -> str:
        """A narration hole that reads hidden variables: marked with the seats that may read it (redact.py)."""
        if not self.marking:
            return text
        from .redact import mark_value, reads_seers
        seers = reads_seers(self, reads, owners)
        return text if len(seers) == self.n else mark_value(seers, text)

    def reveal(self, scope: str, rows: tuple, owner: int | None) -> None:
        """`reveal x`: every seat may read these rows of `owner` (of the game, for a global) until they change."""
        seat = -1 if owner is None else owner
        self.shown = self.shown.union((row, seat) for row in rows)
        if self.log is not None:
            vd = self.g.spec.vars[scope]
            names = {v.index: v for v in vd.values()}
            values = [(self.pvars[r][owner] if scope == "player" else self.gvars[r]) for r in rows]
            first = names[rows[0]]
            what = self.g.spec.keyed[scope][first.name.split("[", 1)[0]].label if first.key is not None and \
                len(rows) > 1 else first.label  # a whole keyed variable by its name, one key as `dice (2)`
            self.event("reveal", player=owner, what=what, values=values)

    def conceal(self, scope: str, row: int, owner: int | None) -> None:
        self.shown = self.shown - {(row, -1 if owner is None else owner)}

    def conceal_rows(self, scope: str, rows: tuple, owner: int | None) -> None:
        seat = -1 if owner is None else owner
        self.shown = self.shown.difference((row, seat) for row in rows)

    def say(self, text: str) -> None:
        """Log a `say` line; cards some seat may not see are listed as `hidden` spans (see redact.py)."""
        from .redact import secret_spans, unmark
        self.marking = False
        hidden = secret_spans(self, text)
        self.event("say", text=unmark(text)[0], **({"hidden": hidden} if hidden else {}))

    def run(self) -> None:
        stack = self.stack
        try:
            while True:
                try:
                    while True:
                        fr = stack[-1]
                        if fr[0].fn(self, fr):
                            if self.check:
                                self._after()
                            return
                except EndTurn:
                    self.end_turn()
                except EndGame:
                    self.finish()
                    return self._after()
        except ChanceError as exc:  # the caller's script, not the spec, is at fault: say so to the caller
            self._stop(Status.ERROR, str(exc))
            raise
        except RuleError as exc:
            self._stop(Status.ERROR, f"{exc} (in {stack[-1][0].name})")
        except Stalled as exc:
            self._stop(Status.STALLED, str(exc))
        except RecursionError:
            self._stop(Status.ERROR, f"procedures call each other too deeply (in {stack[-1][0].name})")
        except Exception as exc:  # a case the checker let through: the game ends as an error, with its seed
            self._stop(Status.ERROR, f"rule code failed ({type(exc).__name__}: {exc}) in {stack[-1][0].name}")
        self._after()

    def _after(self) -> None:
        if self.check and self.status is Status.RUNNING or self.check and self.status is Status.FINISHED:
            self.check_invariants()

    def _stop(self, status: Status, reason: str) -> None:
        self.status = status
        self.reason = reason
        self.popts = None
        if self.log is not None:
            self.event("end", status=str(status), reason=reason, winners=[], turns=self.turn)

    def check_invariants(self) -> None:
        g = self.g
        for name, f in g.invariants.items():
            if f is not None and not f(self, [None] * g.scratch):
                self._stop(Status.ERROR, f"invariant '{name}' broken")
                return
        seen = 0
        for zid, z in enumerate(self.zones):
            for c in z:
                if self.where[c] != zid:
                    self._stop(Status.ERROR, f"card {c} is misplaced")
                    return
            seen += len(z)
        if seen != g.start(self.n).in_play:
            self._stop(Status.ERROR, "cards were lost or duplicated")
            return
        kept = self.zsum
        self.resum()
        if kept != self.zsum:
            self._stop(Status.ERROR, "the kept zone sums are out of date")

    # -- called by compiled ops --------------------------------------------------
    def ask(self, kind: int, player: int, options: list, meta: Any) -> bool:
        g = self.g
        if g.end_always and g.end_when is not None and g.end_when(self, [None] * g.scratch):
            return self.finish()
        if not options:
            raise Stalled(f"P{player + 1} must choose but has no legal option")
        if len(options) > MAX_OPTIONS:
            raise RuleError(f"a decision with {len(options):,} options (the limit is {MAX_OPTIONS:,})")
        self.steps += 1  # tick(), inline: this runs at every decision
        if self.steps > g.budget:
            self.steps -= 1
            self.tick()  # raises, with steps at budget + 1 like every other way to run out
        self.quiet = 0
        self.pkind, self.pplayer, self.popts, self.pmeta = kind, player, options, meta
        if self.auto is None:
            return True
        self.take(self.auto[player].pick(self))  # the seat's agent decides here and now
        return None

    def tick(self) -> None:
        self.steps += 1
        if self.steps > self.g.budget:
            raise Stalled(f"no end within the step budget ({self.g.budget} steps)")
        if len(self.stack) > MAX_CALL_DEPTH:
            raise RuleError(f"procedures and triggers call each other more than {MAX_CALL_DEPTH:,} deep")

    def spend(self, n: int) -> int:
        """Charge a loop's `n` iterations to the step budget at once; returns `n`."""
        if n > 0:
            if self.steps + n > self.g.budget:
                self.steps = self.g.budget
                self.tick()  # raises: the budget is spent
            self.steps += n
        return n

    def pass_turn(self) -> int:
        """The seat of the next turn: a chosen one (`next turn to`, `extra turn`), else the next seat in
        the turn order's direction, past skipped ones."""
        if self.nxt >= 0:
            p, self.nxt = self.nxt, -1
        else:
            p = (self.cur + self.order * (1 + self.skips)) % self.n
        self.skips = 0
        skip_if = self.g.skip_if
        if skip_if is not None:  # pass over the players `flow.skip_if` holds for (`me` is each candidate)
            cur, L = self.cur, [None] * self.g.scratch
            for _ in range(self.n):
                self.cur = p
                out = skip_if(self, L)
                self.cur = cur
                if not out:
                    return p
                p = (p + self.order) % self.n
            return cur
        return p

    def end_turn(self) -> None:
        if not self.in_turn:
            raise RuleError("`end turn` outside a turn")
        self.turn_over = True
        del self.stack[1:]

    def finish(self) -> bool:
        g = self.g
        teams = g.spec.teams
        if g.winners_fn is not None:
            self.winners = sorted(set(g.winners_fn(self, [None] * g.scratch)))
            if teams is not None:  # a side wins together: every seat of a side one of its seats won for
                sides, index = g._side_table(self.n)
                self.winners = sorted({q for p in self.winners for q in sides[index[p]]})
        elif g.score_idx is not None and teams is not None:
            scores = self.side_scores()
            top = max(scores)
            sides = g.sides(self.n)
            self.winners = sorted(p for k, side in enumerate(sides) if scores[k] == top for p in side)
        elif g.score_idx is not None:
            row = self.pvars[g.score_idx]
            top = max(row)
            self.winners = [p for p in self.seats if row[p] == top]
        self.status = Status.FINISHED
        self.popts = None
        del self.stack[1:]
        if self.log is not None:
            sides = {"side_scores": self.side_scores()} if g.spec.teams is not None and g.score_idx is not None else {}
            self.event("end", status="finished", winners=self.winners, turns=self.turn,
                       scores=self.scores(), **sides)
        return True

    def scores(self) -> list[int] | None:
        i = self.g.score_idx
        return None if i is None else self.pvars[i][:]

    def side_scores(self) -> list[int] | None:
        """Each side's score (`game.teams.score`: the highest of its seats', or their sum), or None."""
        i, teams = self.g.score_idx, self.g.spec.teams
        if i is None or teams is None:
            return None
        row = self.pvars[i]
        pick = sum if teams.score == "sum" else max
        return [pick(row[p] for p in side) for side in self.g.sides(self.n)]

    def move_card(self, c: int, dst: int) -> None:
        src = self.where[c]
        zl = self.zones[src]
        if zl and zl[-1] == c:
            zl.pop()
        else:
            zl.remove(c)
        self.zones[dst].append(c)
        self.where[c] = dst
        for j, t in enumerate(self.g.sum_tables):
            zs = self.zsum[j]
            zs[src] -= t[c]
            zs[dst] += t[c]
        if self.log is not None:
            self.log_move([c], src, dst)
        if self.g.triggers:
            self._fire(dst, [c])

    def log_move(self, cards: list[int], src: int, dst: int) -> None:
        g = self.g
        moved = self.moved
        for c in cards:
            moved.setdefault(c, src)  # the first place it left in this step
        if self.chosen is not None:
            from .redact import widen, zone_seers
            widen(self.chosen[0], self.chosen[1], cards, zone_seers(g, dst, self.n), self.n)
        self.event("move", cards=[g.card_label[c] for c in cards], src=g.zone_name(src), dst=g.zone_name(dst))

    def move_zone(self, src: int, dst: int) -> None:
        cards = self.zones[src]
        if src == dst or not cards:
            return
        self.zones[src] = []
        self.zones[dst].extend(cards)
        where = self.where
        for c in cards:
            where[c] = dst
        for zs in self.zsum:
            zs[dst] += zs[src]
            zs[src] = 0
        if self.log is not None:
            self.log_move(cards, src, dst)
        if self.g.triggers:
            self._fire(dst, cards)

    def move_cards(self, cards: list[int], dst: int) -> None:
        for c in cards:
            self.move_card(c, dst)

    def chance(self) -> random.Random:
        """The game's RNG, made this state's own first if a clone shares it (copy on write).

        A clone shares its parent's `random.Random` and both are marked; the first of them to draw copies
        the generator's state (the other keeps the untouched original), so a clone costs no RNG copy
        until it meets chance, and the stream each state draws is exactly the one it would draw alone.
        `rng` may also be an int: a seed planted by `reseed()`, turned into a generator on first use."""
        if self.rng_cow:
            old = self.rng
            if type(old) is int:
                self.rng = random.Random(old)
            else:
                self.rng = random.Random(0)  # (a fixed seed: unseeded, it would read the OS's entropy first)
                self.rng.setstate(old.getstate())
            self.rng_cow = False
        return self.rng

    def reseed(self, seed: int) -> None:
        """From here on chance comes from `seed` (for search: a determinized copy's own future)."""
        self.rng = seed
        self.rng_cow = True

    def draw_from(self, rng: random.Random) -> None:
        """From here on chance is drawn from `rng` itself, in turn with whoever else draws from it (for
        search: a copy that is played out and never cloned, drawing from its agent's own generator). A clone
        of this state would not keep the stream it had at the clone: the owner of `rng` draws on."""
        self.rng = rng
        self.rng_cow = False

    # -- chance from outside (runtime/chance.py) -----------------------------------------
    def script_chance(self, dice: Iterable[int] = (), decks: Mapping[str, Sequence] | None = None) -> None:
        """Add outcomes to this game's chance script, after what it still holds: the next numbers
        (`dice`) and the next shuffles' orders (`decks`, top card first), as `Chance` takes them. A game
        started without a script gets a strict one here. Raises `ChanceError` for a zone or card the spec
        does not have, or a card it holds fewer of than the order lists."""
        _install_chance(self, Chance(dice, decks), add=True)

    def chance_left(self) -> Chance | None:
        """What the chance script has not used yet (a copy: its `dice`, its `decks`' orders), or None when
        the game has no script. `len()` of it is 0 when the game used every outcome it was given."""
        return self.scripted.copy() if self.scripted is not None else None

    def shuffle(self, z: int) -> None:
        _shuffle(self.rng if not self.rng_cow else self.chance(), self.zones[z])
        if self.rig is not None:
            self.rig(self, z)
        if self.log is not None:
            self.event("shuffle", zone=self.g.zone_name(z))

    def _fire(self, dst: int, cards: list[int]) -> None:
        g = self.g
        if dst < g.S:
            key, owner = ("shared", dst), self.cur
        else:
            owner, k = divmod(dst - g.S, g.P)
            key = ("player", k)
        found = g.triggers.get(key)
        if not found:
            return
        pending = []
        for c in cards:
            for when, prog in found:
                L = [None] * max(prog.n_locals, 2)
                L[0], L[1] = c, owner
                if when is None or when(self, L):
                    pending.append([prog, 0, L])
        self.stack.extend(reversed(pending))  # the first card's trigger runs first
        if pending:  # triggers that fire each other end at the budget or the call depth
            self.tick()

    def event(self, kind: str, **data: Any) -> None:
        self.log.append({"e": kind, **data})

    # -- copies and views ----------------------------------------------------------
    def clone(self) -> "State":
        """An independent copy (without the log and the seated agents); the RNG is shared copy-on-write."""
        s = _new_state(State)
        s.g, s.n, s.seed, s.seats, s.others = self.g, self.n, self.seed, self.seats, self.others
        s.rng = self.rng
        s.rng_cow = self.rng_cow = True  # whichever of the two draws first copies it (chance())
        copy = list.copy
        s.zones = [*map(copy, self.zones)]
        s.where = self.where[:]
        s.zsum = [*map(copy, self.zsum)]
        s.gvars = self.gvars[:]
        s.pvars = [*map(copy, self.pvars)]
        s.tvars = self.tvars[:]
        s.cur = self.cur
        s.stack = [[f[0], f[1], f[2][:]] for f in self.stack]
        s.pkind, s.pplayer, s.popts, s.pmeta = self.pkind, self.pplayer, self.popts, self.pmeta
        s.status, s.winners, s.reason = self.status, self.winners[:], self.reason
        s.turn, s.steps, s.decisions = self.turn, self.steps, self.decisions
        s.moved = {}
        s.chosen = None
        s.scripted = self.scripted.copy() if self.scripted is not None else None
        s.log = None
        s.choices = self.choices[:]
        s.turn_over, s.in_turn, s.idle, s.phase = self.turn_over, self.in_turn, self.idle, self.phase
        s.check, s.hook, s.quiet, s.rig = self.check, self.hook, self.quiet, self.rig
        s.auto = None  # a copy is played by whoever made it
        s.marking, s.nxt, s.order, s.skips = self.marking, self.nxt, self.order, self.skips
        s.shown = self.shown  # immutable: shared
        for name in _SHALLOW:  # slots added later and not listed above: shared, as a plain attribute copy would
            setattr(s, name, getattr(self, name))
        return s

    def save(self) -> Save:
        """The game as a small JSON-ready dict (see `Save`): seed, players, options, readings and choices
        rebuild it exactly (`Game.resume`)."""
        g = self.g
        return {"spec": g.spec.name, "players": self.n, "seed": self.seed, "options": dict(g.options),
                "readings": dict(g.readings), "choices": self.choices[:]}

    def fingerprint(self) -> tuple:
        """Everything observable about the position (for equality tests)."""
        return (tuple(map(tuple, self.zones)), tuple(self.gvars), tuple(map(tuple, self.pvars)), tuple(self.tvars),
                self.cur, self.turn, str(self.status), tuple(self.winners), self.chance().getstate(),
                tuple(sorted(self.shown)),
                (self.nxt, self.order, self.skips),
                tuple((f[0].name, f[1]) for f in self.stack), tuple(self.popts or ()) if self.pkind != OPTION
                else len(self.popts or ()))

    def view(self, player: int) -> View:
        """What seat `player` (from 0) may see, as a JSON-ready dict (see `View`): zones it may not look
        into show only how many cards they hold, cards it may see appear by their labels, and a variable it
        may not read (`visible: owner`, `side`, `nobody`) reads "(hidden)". `player` -1 is a spectator, who
        holds no seat and sees what is public only. runtime/redact.py decides, for every face."""
        from .redact import seat_view
        return seat_view(self, player)

    def result(self) -> Result:
        """How the game stands or ended, with its seed and choices (see `Result`)."""
        return Result(str(self.status), self.winners[:], self.turn, self.decisions, self.steps, self.scores(),
                      self.reason, self.seed, self.n, self.choices[:])


# The slots State.clone() copies by name; any other slot is copied shallow (see clone()).
_CLONED = frozenset(("g", "n", "seed", "seats", "others", "rng", "rng_cow", "zones", "where", "zsum", "gvars",
                     "pvars", "tvars", "cur", "stack", "pkind", "pplayer", "popts", "pmeta", "status", "winners",
                     "reason", "turn", "steps", "decisions", "log", "choices", "turn_over", "in_turn", "idle",
                     "phase", "check", "hook", "quiet", "rig", "auto", "moved", "scripted", "marking", "nxt",
                     "order", "skips", "chosen", "shown"))
_SHALLOW = tuple(n for n in State.__slots__ if n not in _CLONED)
