"""Compile: what drives compiling a checked spec into the functions the engine runs.

Owns the `Compiler`: the lowered form the generator reads (`ir`, the
whole game lowered once by its `Lowerer`, lower/lowering.py, as the kernel
lowers it; `lowered` gives each block's and condition's lowered form, the
game's own, and lowers once what the game does not hold: an example's
`expect`, a heuristic), the zones whose cards are interchangeable
(interchange.py, from `ir`), the tables generated code reads (card
properties by id, card types, kept zone sums, boards, keyed variables'
slots by key: the Python engine's own values, looked up in the spec model
by the name a lowered node carries), constant folding (`const`, on the
lowered form: options and ambiguity readings are fixed for a compiled game,
so `option.x` and `reading.x == "y"` fold and untaken branches are never
emitted), which procedures can pause or call themselves, and filling each
`Program` with the code generator's functions (codegen.PyGen). How each
node runs on the Python engine is said once, by the generator: an
expression, a condition or a measure outside a program is
`gen.expression(e)` / `gen.condition(code)`, a function `f(state, locals)`
of generated source. No spec text is ever evaluated: the generated source
is built from the lowered form and these tables.

`Program`, the shape of a compiled expression (`Fn`) and the kinds of
pending decision (ACTION, VALUE, OPTION, SUBSET) are program.py's: the
engine, the agents and the faces import them from there (`Program` and the
kinds also from here).
"""
from __future__ import annotations

import operator
from typing import Any

from ..lang import boards
from ..lang.kinds import T
from ..lang.check_expressions import PARAM_TYPES
from ..lower import ir
from ..lower.lowering import Lowerer
from .codegen import PyGen
from .support import _NOCONST, _NO_READING, MAX_SUBSET_SOURCE  # noqa: F401  (the kernel reads MAX_SUBSET_SOURCE here)
from ..lang.model import Code, Spec, codes, self_calling
from .program import Program
from .program import ACTION, OPTION, SUBSET, VALUE  # noqa: F401  (imported from here before the split)

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


def summed_props(rules: list, props: dict[str, tuple]) -> tuple[str, ...]:
    """Number properties some rule (of the lowered `rules`) sums over a whole zone (`sum(me.held, points)`),
    in a fixed order.

    The state keeps those sums per zone up to date at every move, so such a
    sum costs one lookup however many cards the zone holds. The list depends
    on the spec alone, so every compiler of one spec agrees on it."""
    found = {n.prop[2] for n in ir.walk(rules) if isinstance(n, ir.Builtin) and n.name == "sum"
             and n.prop is not None and n.prop[0] == "prop" and n.args[0].ty is T.ZONE}
    return tuple(sorted(p for p in found if p in props and all(type(v) in (int, bool) for v in props[p])))


class Compiler:
    def __init__(self, spec: Spec, options: dict[str, Any], readings: dict[str, str], coverage: bool = False,
                 locate: bool = False):
        self.spec = spec
        self.locate = locate  # record which rule text runs (runtime/faults.py replays a failed game so)
        self.options = options
        self.readings = readings
        self.coverage = coverage  # keep readings as run-time values and count what runs
        self.S = spec.n_shared
        self.P = spec.n_player_zones
        self.props: dict[str, tuple] = {}
        self.card_type: list[str] = []
        for ct in spec.cards.values():
            self.card_type.extend([ct.name] * ct.ids)  # every card some player count puts in play
        for p in {k for ct in spec.cards.values() for k in ct.props}:
            self.props[p] = tuple(spec.cards[t].props[p] for t in self.card_type)
        # The intermediate form the generator reads: the game lowered once (`ir`, lower/lowering.py, as the
        # kernel's), and every piece of rule text it does not hold (an example's, a heuristic) once (`lowered`).
        self.lowerer = Lowerer(spec)
        self.ir: ir.Game = self.lowerer.game()
        self._lowered: dict[int, tuple] = {}  # id of a Code -> (it, its lowered form)
        self._adopt(self.ir)
        rules = [self.lowered(code) for code in codes(spec) if code.ast is not None]
        self.summed = {p: j for j, p in enumerate(summed_props(rules, self.props))}  # prop -> State.zsum row
        self.procs: dict[str, Program] = {n: Program(f"procedure {n}", p.do) for n, p in spec.procedures.items()}
        self.vardefs = {scope: list(vs.values()) for scope, vs in spec.vars.items()}
        self.boards = boards.boards_for(spec, options)  # each board's cells, sized for these options
        self.triggers: dict[tuple, list] = {}  # (zone owner, zone index) -> [(when, program)]
        # A rule changes who plays next (`next turn to`, `skip`, `reverse`, `extra turn`): the flow asks the
        # state whose turn it is; otherwise turns simply go round (and the generated flow stays as it was).
        self.turn_order = self.ir.turn_order
        self.gen = PyGen(self)
        self.pausable = self._pausable_procedures()
        self.recursive = self._recursive_procedures()

    # -- public ----------------------------------------------------------------
    def compile_all(self) -> None:
        for name, pr in self.spec.procedures.items():
            self.fill(self.procs[name], pr.do)
        for t in self.ir.triggers:
            prog = self.program(f"trigger {t.name}", t.block.code)
            when = self.gen.expression(t.when) if t.when is not None else None
            self.triggers.setdefault(("player" if t.per_player else "shared", t.zone), []).append((when, prog))

    def program(self, name: str, code: Code | None) -> Program:
        prog = Program(name, code)
        if code is not None:
            self.fill(prog, code)
        return prog

    def fill(self, prog: Program, code: Code) -> None:
        prog.n_locals = code.n_locals
        body = self.lowered_block(code)
        prog.fn = self.gen.program(prog.name, body, code)
        prog.together = self.gen.together[:]  # the simultaneous choices the program just compiled holds
        if not self.coverage and not any(self.can_pause(s) for s in body):
            prog.plain = self.gen.plain(prog.name, body, code)

    # -- constants -------------------------------------------------------------
    def const(self, e: Any) -> Any:
        """The value of an expression (lowered, or of the checked tree) when the options and readings fix
        it, with the Python engine's values (a text a string), else `_NOCONST`."""
        x = e if isinstance(e, ir.X) else self.lowerer.lowered(None, e)
        if isinstance(x, ir.Const):
            return _NOCONST if x.ty is T.CELL else self.value(x.ty, x.value)
        if isinstance(x, ir.Param):
            if x.kind == "option":
                return self.options[x.name]
            return self.readings[x.name] if not self.coverage else _NOCONST
        if isinstance(x, ir.Concat):
            a, b = self.const(x.left), self.const(x.right)
            return _NOCONST if a is _NOCONST or b is _NOCONST else a + b
        if isinstance(x, ir.Unary):
            v = self.const(x.operand)
            if v is _NOCONST:
                return v
            return (not v) if x.op == "not" else -v
        if isinstance(x, ir.Binary):
            a = self._side(x.left, x.right)
            if x.op == "and" and a is False or x.op == "or" and a is True:
                return a
            b = self._side(x.right, x.left)
            if a is _NOCONST or b is _NOCONST:
                if x.op == "and" and b is False or x.op == "or" and b is True:
                    return b
                return _NOCONST
            if x.op == "and":
                return a and b
            if x.op == "or":
                return a or b
            fn = _ARITH.get(x.op) or _COMPARE.get(x.op)
            try:
                return fn(a, b)
            except (TypeError, ZeroDivisionError):
                return _NOCONST
        return _NOCONST

    def value(self, ty: T, v: int) -> Any:
        """A number of the intermediate form as the Python engine's value of type `ty`."""
        if ty is T.STR:
            return self.lowerer.strings[v]
        if ty is T.BOOL:
            return bool(v)
        return v

    def _side(self, x: ir.X, other: ir.X) -> Any:
        """One side of a comparison, folded; a text compared with a reading (lowering made it the number
        of an interpretation) is that interpretation's text again."""
        reading = self.reading_text(x, other)
        return self.const(x) if reading is None else reading

    def reading_text(self, x: ir.X, other: ir.X) -> Any:
        """The text `x` stands for when it is compared with reading `other` (None: it is not): lowering made
        it the number of an interpretation (`_NO_READING`, equal to no reading: of none)."""
        if isinstance(x, ir.Const) and x.ty is T.INT and isinstance(other, ir.Param) and other.kind == "reading":
            interps = list(self.spec.ambiguities[other.name].interpretations)
            return interps[x.value] if 0 <= x.value < len(interps) else _NO_READING
        return None

    def lowered_function(self, name: str) -> ir.Function:
        """A spec function, lowered (with the game)."""
        return self.ir.functions[name]

    def _adopt(self, g: ir.Game) -> None:
        """The rule text the lowered game holds, as `lowered` gives it: each block's statements and each
        condition's expression are the game's own, lowered once."""
        conds = [g.first, g.end_when, g.winners, g.skip_if, *g.measures, *g.invariants.values(),
                 *(f.value for f in g.functions.values()), *(t.when for t in g.triggers)]
        blocks = [g.setup, *(p.block for p in g.procedures.values()), *(t.block for t in g.triggers)]
        for ph in g.phases:
            conds += [ph.while_, ph.until]
            blocks += [ph.start, ph.end, ph.turn.start, ph.turn.end]
            for a in ph.turn.actions:
                conds += [a.when, *a.params]
                blocks.append(a.block)
        for x in conds:
            if x is not None:
                self._lowered[id(x.at[0])] = (x.at[0], x)
        for b in blocks:
            if b is not None and b.code.ast:
                self._lowered[id(b.code)] = (b.code, b.body)

    def lowered(self, code: Code) -> ir.X | list[ir.S] | None:
        """A piece of rule text, lowered (once): a block's statements, or a condition's expression."""
        got = self._lowered.get(id(code))
        if got is None or got[0] is not code:
            if code.ast is None:
                x = None
            elif isinstance(code.ast, list):
                x = self.lowerer.lowered_stmts(code, code.ast)
            else:
                x = self.lowerer.lowered(code, code.ast)
            got = self._lowered[id(code)] = (code, x)
        return got[1]

    def lowered_block(self, code: Code) -> list[ir.S]:
        """The statements of a block, lowered (once)."""
        return self.lowered(code) or []

    def param_types(self, procedure: str) -> list[T]:
        return [PARAM_TYPES[t] for t in self.spec.procedures[procedure].params.values()]

    # -- tables -----------------------------------------------------------------
    def key_slots(self, scope: str, name: str) -> tuple[Any, dict]:
        """A keyed variable (lowered: its scope and name): its definition and {key: variable slot}."""
        kv = self.spec.keyed[scope][name]
        table = {k: kv.index + j for j, k in enumerate(kv.keys)}
        return kv, (boards.key_table(self.boards[kv.board], table) if kv.board is not None else table)

    # -- pausing ------------------------------------------------------------------
    def _pausable_procedures(self) -> set[str]:
        found: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, pr in self.spec.procedures.items():
                if name not in found and any(self._pauses(s, found) for s in self.lowered_block(pr.do)):
                    found.add(name)
                    changed = True
        return found

    def _recursive_procedures(self) -> set[str]:
        """Procedures that can call themselves, directly or through others."""
        calls = {name: {n.proc for n in ir.walk(self.lowered_block(pr.do)) if isinstance(n, ir.Call)}
                 for name, pr in self.spec.procedures.items()}
        return self_calling(calls)

    def can_pause(self, st: ir.S) -> bool:
        return self._pauses(st, self.pausable)

    def _pauses(self, st: ir.S, pausable: set[str]) -> bool:
        if isinstance(st, (ir.ChooseValue, ir.ChooseSubset, ir.ChooseOption, ir.ChooseTogether)):
            return True
        if isinstance(st, ir.Move):
            return bool(self.spec.triggers)  # a trigger runs right after its move, and may pause
        if isinstance(st, ir.Call):
            return st.proc in pausable
        if isinstance(st, ir.If):  # only the branches the code generator emits (options and readings are fixed)
            for cond, body in st.branches:
                c = self.const(cond)
                if c is not _NOCONST and not c:
                    continue
                if any(self._pauses(s, pausable) for s in body):
                    return True
                if c is not _NOCONST:  # always taken: nothing after it is emitted
                    return False
            return any(self._pauses(s, pausable) for s in st.orelse or [])
        if isinstance(st, (ir.ForEach, ir.Repeat, ir.While)):
            return any(self._pauses(s, pausable) for s in st.body)
        return False

    def interchange(self):
        """Which cards are interchangeable in a choice (built once per compiled game)."""
        if getattr(self, "_interchange", None) is None:
            from .interchange import Interchange
            self._interchange = Interchange(self.ir)
        return self._interchange
