"""The runtime: a compiled `Game` and the `State` of one game being played.

Owns `Game` (the flow program: setup, first player, phases and their
rounds, `while`/`until`, phase start and end, turns, the action decision,
end of turn, end of game, winners, `skip_if`; new games and resumed ones)
and `State`. The flow's structure and conditions are read from the lowered
game (`ir.Game`, lower/ir.py, the compiler's: the one the kernel reads too);
the spec model gives only what is shown or where a game starts: names and
labels (an action's label and its parameters' names), zones, cards, the
variables' start values and visibility. `State` is the state of one game
(zones as lists of card ids, variables, the seeded RNG, the call stack of
paused programs, the pending decision), clone, save/resume, per-player
views. `State` is told in
parts, one module each: decisions.py (asking, labelling and taking a
decision), turns.py (the run loop, the step budget, turns and the end of the
game), moves.py (cards moving, shuffles, chance, triggers), telling.py
(`say` lines, cards and hidden values as narration shows them); setup.py
holds where a game starts, status.py the words a game is told in (`Status`,
`Decision`, `Result`, the errors). It never reads files or prints. Chance
given from outside (a `Chance` script) is runtime/chance.py's; the layouts
of views and saves (`View`, `Save`) are runtime/records.py's.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from ..lang.builtins import RuleError
from ..compile.compiler import OPTION, Compiler, Program
from ..lang.kinds import ELEMENT, T
from ..lang.labels import action_template
from ..lang.limits import MAX_OPTIONS
from ..lang.model import Spec
from ..lower import ir
from .chance import Chance, install as _install_chance
from .records import Save, View
from .status import DEFAULT_BUDGET, IllegalChoice, Result, SetupError, Stalled, Status, TurnProgram
from .setup import Start, _coerce, _start, _zone_sums, start_zones
from .decisions import Decisions
from .turns import Turns
from .moves import Moves
from .telling import Telling
from ..lang.limits import MAX_CALL_DEPTH  # noqa: F401  (imported from here before the split)
from .decisions import numbered  # noqa: F401  (imported from here before the split)
from .status import Decision  # noqa: F401  (imported from here before the split)


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
        ir: the lowered game (lower/ir.py) the flow and the generated code are built from.
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
        g = self.ir = c.ir  # the lowered game: the flow below is built from it
        self.skip_if = c.gen.condition(g.skip_if)  # players passed over when the turn passes
        self.setup = _program(c, "setup", g.setup)
        self.first = c.gen.condition(g.first)  # None: drawn at random
        self.end_when = c.gen.condition(g.end_when)
        self.end_always = g.end_always
        self.winners_fn = c.gen.condition(g.winners)
        self.score_idx = g.score
        self.invariants = {n: c.gen.condition(x) for n, x in g.invariants.items()}
        self.scratch = max([_locals(x) for x in (*g.invariants.values(), g.end_when, g.winners, g.skip_if)] +
                           [_locals(x) for ph in g.phases for x in (ph.while_, ph.until)] + [1])
        self._turns: dict[int, TurnProgram] = {}
        self.main = self._main(c)
        self.points = c.gen.points  # coverage points (kind, what, span), when measuring
        self.hits = c.gen.COV
        self.marks, self.at = c.gen.marks, c.gen.POS  # locate mode: which rule text ran last

    # -- the flow program ------------------------------------------------------
    def _turn(self, c: Compiler, td: ir.Turn) -> TurnProgram:
        if td.index not in self._turns:  # phases that play the game's turn share its programs
            actions = []
            for a in td.actions:
                body = a.block.body if a.block is not None else []
                if (not self.coverage and len(body) == 1 and isinstance(body[0], ir.Call) and not body[0].args
                        and not a.params and not c.ir.procedures[body[0].proc].params):
                    prog = c.procs[body[0].proc]  # `do: proc()`: run the procedure itself, one frame less
                else:
                    prog = _program(c, f"action {a.name}", a.block)
                shown = self.spec.actions[a.name]  # how the decision shows it: its label, its parameters' names
                actions.append((a.name, shown.label, list(shown.params), prog))
            self._turns[td.index] = TurnProgram(_program(c, "turn start", td.start), _program(c, "turn end", td.end),
                                                actions)
        return self._turns[td.index]

    def _main(self, c: Compiler) -> Program:
        g = c.ir
        main = Program("flow")
        ops: list[Callable] = []
        phases = g.phases  # a spec without phases: one phase without a name, of one round
        main.n_locals = 2 * len(phases)  # per phase: its round count, and the turn its round began at
        cycles: list[Cycle] = []
        ops.append(_call(self.setup))
        first = self.first
        first_locals = _locals(g.first)

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
            named = ph.name is not None
            tp = self._turn(c, ph.turn)
            again = c.gen.condition(ph.while_)
            start = _program(c, f"phase {ph.name} start", ph.start) if named else None
            endp = _program(c, f"phase {ph.name} end", ph.end) if named else None
            name = ph.name

            def init(st, fr, k=k):
                fr[2][k] = 0
            ops.append(init)
            head = len(ops)
            ops.append(None)  # exit test, patched below
            if named:
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
            if named:
                ops.append(_call(endp))

            def next_round(st, fr, k=k, head=head):
                fr[2][k] += 1
                fr[1] = head
            ops.append(next_round)
            exit_ = len(ops)

            def exit_test(st, fr, k=k, repeat=ph.repeat, exit_=exit_, again=again):
                if fr[2][k] >= repeat or again is not None and not again(st, [None] * st.g.scratch):
                    fr[1] = exit_
            ops[head] = exit_test
            cy.done = done
            cy.turn_start = _nonempty(tp.start)
            cy.turn_end = _nonempty(tp.end)
            cy.whens = [a.when for a in ph.turn.actions]
            cy.params = [a.params for a in ph.turn.actions]
            cy.actions = tp.actions
            cy.programs = [prog for *_, prog in tp.actions]
            cy.until, cy.end_when, cy.end_always = ph.until, g.end_when, g.end_always
            if named and ph.until is None:
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
            t = self.ir.teams
            sides = t.sides[n] if t is not None else [[p] for p in range(n)]
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


def _program(c: Compiler, name: str, block: ir.Block | None) -> Program:
    """The program of a block of the lowered game (an empty one, named `name`, for none)."""
    return c.program(name, block.code if block is not None else None)


def _locals(x: ir.X | None) -> int:
    """The local slots a condition of the lowered game needs (its rule text's)."""
    return x.at[0].n_locals if x is not None else 0


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
    whens: list = field(default_factory=list)  # per action: its `when` (lowered) or None
    params: list = field(default_factory=list)  # per action: its parameters' candidates (lowered)
    actions: list = field(default_factory=list)  # the decision's meta (see TurnProgram.actions)
    programs: list = field(default_factory=list)  # per action: the program it runs
    until: Any = None  # the phase's `until` (lowered) or None
    end_when: Any = None  # the game's `end.when` (lowered) or None
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


class State(Decisions, Turns, Moves, Telling):
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
