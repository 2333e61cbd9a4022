"""Compile: what drives compiling a checked spec into the functions the engine runs.

Owns the `Compiler`: the tables generated code reads (card properties by
id, card types, kept zone sums, boards, keyed variables' slots), constant
folding (`const`: options and ambiguity readings are fixed for a compiled
game, so `option.x` and `reading.x == "y"` fold and untaken branches are
never emitted), which procedures can pause or call themselves, and filling
each `Program` with the code generator's functions (codegen.PyGen). What
each construct means is said once, by the generator: an expression, a
condition or a measure outside a program is `gen.expression(e)` /
`gen.condition(code)`, a function `f(state, locals)` of generated source. No
spec text is ever evaluated: the generated source is built from the checked
tree and these tables.

`Program`, the shape of a compiled expression (`Fn`) and the kinds of
pending decision (ACTION, VALUE, OPTION, SUBSET) are program.py's: the
engine, the agents and the faces import them from there (`Program` and the
kinds also from here).
"""
from __future__ import annotations

import operator
from typing import Any

from ..lang import boards, nodes as N
from ..lang.kinds import T
from .codegen import PyGen
from .support import _NOCONST, MAX_SUBSET_SOURCE  # noqa: F401  (the kernel reads MAX_SUBSET_SOURCE here)
from ..lang.model import Code, Spec, codes, self_calling
from .program import Program
from .program import ACTION, OPTION, SUBSET, VALUE  # noqa: F401  (imported from here before the split)

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


def summed_props(spec: Spec, props: dict[str, tuple]) -> tuple[str, ...]:
    """Number properties some rule sums over a whole zone (`sum(me.held, points)`), in a fixed order.

    The state keeps those sums per zone up to date at every move, so such a
    sum costs one lookup however many cards the zone holds. The list depends
    on the spec alone, so every compiler of one spec agrees on it."""
    found = {n.args[1].ref[1] for code in codes(spec) if code.ast is not None for n in N.walk(code.ast)
             if isinstance(n, N.Call) and n.ref == ("builtin", "sum") and len(n.args) == 2
             and n.args[0].ty is T.ZONE and n.args[1].ref and n.args[1].ref[0] == "prop"}
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
        self.summed = {p: j for j, p in enumerate(summed_props(spec, self.props))}  # prop -> State.zsum row
        self.procs: dict[str, Program] = {n: Program(f"procedure {n}", p.do) for n, p in spec.procedures.items()}
        self.vardefs = {scope: list(vs.values()) for scope, vs in spec.vars.items()}
        self.boards = boards.boards_for(spec, options)  # each board's cells, sized for these options
        self.triggers: dict[int, list] = {}  # zone def key -> [(when, program)]
        # A rule changes who plays next (`next turn to`, `skip`, `reverse`, `extra turn`): the flow asks the
        # state whose turn it is; otherwise turns simply go round (and the generated flow stays as it was).
        self.turn_order = spec.skip_if is not None or any(
            isinstance(n, N.TurnOrder) for code in codes(spec) if code.ast is not None for n in N.walk(code.ast))
        self.gen = PyGen(self)
        self.pausable = self._pausable_procedures()
        self.recursive = self._recursive_procedures()

    # -- public ----------------------------------------------------------------
    def compile_all(self) -> None:
        for name, pr in self.spec.procedures.items():
            self.fill(self.procs[name], pr.do)
        for name, tr in self.spec.triggers.items():
            prog = self.program(f"trigger {name}", tr.do)
            when = self.gen.expression(tr.when.ast) if tr.when else None
            z = self.spec.zones[tr.zone]
            self.triggers.setdefault((z.owner, z.index), []).append((when, prog))

    def program(self, name: str, code: Code | None) -> Program:
        prog = Program(name, code)
        if code is not None:
            self.fill(prog, code)
        return prog

    def fill(self, prog: Program, code: Code) -> None:
        prog.n_locals = code.n_locals
        prog.fn = self.gen.program(prog.name, code.ast or [], code)
        prog.together = self.gen.together[:]  # the simultaneous choices the program just compiled holds
        if not self.coverage and not any(self.can_pause(s) for s in code.ast or []):
            prog.plain = self.gen.plain(prog.name, code.ast or [], code)

    # -- constants -------------------------------------------------------------
    def const(self, e: N.Expr) -> Any:
        if isinstance(e, (N.Int, N.Str, N.Bool)):
            return e.value
        if isinstance(e, N.Name) and e.ref is not None and e.ref[0] == "const" and \
                not isinstance(self.spec.constants[e.ref[1]], list):
            return self.spec.constants[e.ref[1]]
        if isinstance(e, N.Attr) and e.ref is not None:
            if e.ref[0] == "option":
                return self.options[e.name]
            if e.ref[0] == "reading" and not self.coverage:
                return self.readings[e.name]
        if isinstance(e, N.Unary):
            v = self.const(e.operand)
            if v is _NOCONST:
                return v
            return (not v) if e.op == "not" else -v
        if isinstance(e, N.Binary):
            a = self.const(e.left)
            if e.op == "and" and a is False or e.op == "or" and a is True:
                return a
            b = self.const(e.right)
            if a is _NOCONST or b is _NOCONST:
                if e.op == "and" and b is False or e.op == "or" and b is True:
                    return b
                return _NOCONST
            if e.op == "and":
                return a and b
            if e.op == "or":
                return a or b
            fn = _ARITH.get(e.op) or _COMPARE.get(e.op)
            try:
                return fn(a, b)
            except (TypeError, ZeroDivisionError):
                return _NOCONST
        return _NOCONST

    # -- tables -----------------------------------------------------------------
    def key_slots(self, e: N.Index) -> tuple[Any, dict]:
        """The keyed variable an index names: its definition and {key: variable slot}."""
        _, scope, name = e.ref
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
                if name not in found and any(self._pauses(s, found) for s in pr.do.ast or []):
                    found.add(name)
                    changed = True
        return found

    def _recursive_procedures(self) -> set[str]:
        """Procedures that can call themselves, directly or through others."""
        calls = {name: {n.call.func for n in N.walk(pr.do.ast or []) if isinstance(n, N.CallStmt)}
                 for name, pr in self.spec.procedures.items()}
        return self_calling(calls)

    def can_pause(self, st: N.Stmt) -> bool:
        return self._pauses(st, self.pausable)

    def _pauses(self, st: N.Stmt, pausable: set[str]) -> bool:
        if isinstance(st, (N.ChooseValue, N.ChooseSubset, N.ChooseOption, N.ChooseTogether)):
            return True
        if isinstance(st, N.Move):
            return bool(self.spec.triggers)  # a trigger runs right after its move, and may pause
        if isinstance(st, N.CallStmt):
            return st.call.func in pausable
        if isinstance(st, N.If):  # only the branches the code generator emits (options and readings are fixed)
            for cond, body in st.branches:
                c = self.const(cond)
                if c is not _NOCONST and not c:
                    continue
                if any(self._pauses(s, pausable) for s in body):
                    return True
                if c is not _NOCONST:  # always taken: nothing after it is emitted
                    return False
            return any(self._pauses(s, pausable) for s in st.orelse or [])
        if isinstance(st, (N.ForEach, N.Repeat, N.While)):
            return any(self._pauses(s, pausable) for s in st.body)
        return False

    def interchange(self):
        """Which cards are interchangeable in a choice (built once per compiled game)."""
        if getattr(self, "_interchange", None) is None:
            from .interchange import Interchange
            self._interchange = Interchange(self.spec, self.card_type)
        return self._interchange
