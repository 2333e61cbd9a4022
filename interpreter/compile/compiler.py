"""Compile: checked AST -> closures the engine runs.

Owns: turning each expression into a Python closure `f(state, locals)` and
each block of statements into a flat list of ops (`op(state, frame)`) with
jumps, so execution can pause at any `choose` (also inside loops and nested
procedure calls) and resume later; the state only needs to keep a stack of
(program, pc, locals). Options and ambiguity readings are fixed for a
compiled game, so `option.x` and `reading.x == "y"` fold to constants and
untaken branches are never emitted. No spec text is ever evaluated: every
closure is built from the checked tree.

`Program`, the shape of a compiled expression (`Fn`) and the kinds of
pending decision (ACTION, VALUE, OPTION, SUBSET) are program.py's: the
engine, the agents and the faces import them from there or from here.
"""
from __future__ import annotations

import operator
from itertools import combinations
from typing import Any, Callable

from ..lang import boards, hidden, nodes as N
from ..lang.builtins import BUILTINS, PROP, RuleError, divide, join, modulo, multiply
from ..lang.kinds import COLLECTIONS, T
from .codegen import PyGen, _work
from .support import _NOCONST
from ..lang.model import Code, Spec, codes, self_calling
from .program import Fn, Program
from .program import ACTION, OPTION, SUBSET, VALUE  # noqa: F401  (imported from here before the split)

MAX_SUBSET_SOURCE = 16

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


def _as_list(f: Fn, ty: T) -> Fn:
    """A collection-valued function; a zone's becomes its card list."""
    if ty is T.ZONE:
        return lambda st, L: st.zones[f(st, L)]
    return f


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
        self.funcs: dict[str, Fn] = {}
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
            when = self.expr(tr.when.ast) if tr.when else None
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

    def condition(self, code: Code | None) -> Fn | None:
        if code is None or code.ast is None:
            return None
        self.gen.codes.append(code)
        try:
            return self.expr(code.ast)
        finally:
            self.gen.codes.pop()

    def expr(self, e: N.Expr) -> Fn:
        """An expression as one generated Python function (falls back to closures)."""
        return self.gen.expression(e)

    def coll(self, e: N.Expr) -> Fn:
        """A collection as a list (a zone becomes its card list)."""
        return _as_list(self.expr(e), e.ty)

    def fitter(self, vd) -> Callable[[int], int]:
        """Bounds of a variable: cut to the bound (clamp) or a rule error."""
        lo, hi, clamp, name = vd.min, vd.max, vd.clamp, vd.name
        if vd.type == "text" and vd.values:
            allowed = vd.values

            def member(v):
                if v not in allowed:
                    raise RuleError(f"'{name}' cannot be {v!r} (its values: {', '.join(allowed)})")
                return v
            return member

        def fit(v):
            if lo is not None and v < lo:
                if clamp:
                    return lo
                raise RuleError(f"'{name}' would become {v}, below its minimum {lo}")
            if hi is not None and v > hi:
                if clamp:
                    return hi
                raise RuleError(f"'{name}' would become {v}, above its maximum {hi}")
            return v
        return fit

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

    # -- expressions -----------------------------------------------------------
    def cexpr(self, e: N.Expr) -> Fn:
        """An expression as a tree of closures (the reference semantics)."""
        c = self.const(e)
        if c is not _NOCONST:
            return lambda st, L: c
        return getattr(self, "x_" + type(e).__name__)(e)

    def ccoll(self, e: N.Expr) -> Fn:
        """`coll` for the closure version."""
        return _as_list(self.cexpr(e), e.ty)

    def x_Name(self, e: N.Name) -> Fn:
        kind = e.ref[0]
        if kind == "local":
            i = e.ref[1]
            return lambda st, L: L[i]
        if kind == "me":
            return lambda st, L: st.cur
        if kind == "players":
            return lambda st, L: st.seats
        if kind == "others":
            return lambda st, L: st.others[st.cur]
        if kind == "winners":
            return lambda st, L: st.winners
        if kind == "gvar":
            i = e.ref[1]
            return lambda st, L: st.gvars[i]
        if kind == "zone":
            z = e.ref[1]
            return lambda st, L: z
        if kind == "const":
            v = self.spec.constants[e.ref[1]]
            if isinstance(v, list):
                return lambda st, L: list(v)  # a fresh list: nothing can change the constant
            return lambda st, L: v
        if kind == "board":
            board = self.boards[e.ref[1]]
            return lambda st, L: board
        if kind == "cellname":  # a cell named as on the diagram (`a8`); a smaller board (options) may lack it
            board = self.boards[e.ref[1]]
            x = board.named.get(e.id)
            if x is None:
                def off(st, L):
                    raise RuleError(f"cell {e.id} is off the board: {board.name} has {board.sizes()}")
                return off
            return lambda st, L: x
        raise AssertionError(e.ref)

    def x_Attr(self, e: N.Attr) -> Fn:
        kind = e.ref[0]
        if kind == "reading":  # only reached in coverage mode (otherwise a constant); not counted here
            value = self.readings[e.name]
            return lambda st, L: value
        if kind == "tvar":
            i = e.ref[1]
            return lambda st, L: st.tvars[i]
        obj = self.cexpr(e.obj)
        if kind == "pvar":
            i = e.ref[1]
            if isinstance(e.obj, N.Name) and e.obj.ref == ("me",):
                return lambda st, L: st.pvars[i][st.cur]
            return lambda st, L: st.pvars[i][obj(st, L)]
        if kind == "pzone":
            base, P = self.S + e.ref[1], self.P
            if isinstance(e.obj, N.Name) and e.obj.ref == ("me",):
                return lambda st, L: base + st.cur * P
            return lambda st, L: base + obj(st, L) * P
        if kind == "seat":
            return lambda st, L: obj(st, L) + 1
        if kind == "prop":
            table = self.props[e.name]
            return lambda st, L: table[obj(st, L)]
        if kind == "ctype":
            names = tuple(self.card_type)
            return lambda st, L: names[obj(st, L)]
        if kind == "cell":  # a cell's row or column
            if e.name == "row":
                return lambda st, L: obj(st, L).row
            return lambda st, L: obj(st, L).column
        raise AssertionError(e.ref)

    def x_Index(self, e: N.Index) -> Fn:
        if e.ref is not None:
            return self._keyed_get(e)
        coll, key = self.ccoll(e.obj), self.cexpr(e.key)

        def index(st, L):
            items, k = coll(st, L), key(st, L)
            if not 1 <= k <= len(items):
                raise RuleError(f"position {k} does not exist (there are {len(items)})")
            return items[k - 1]
        return index

    def x_Call(self, e: N.Call) -> Fn:
        kind, name = e.ref
        if kind == "builtin":
            b = BUILTINS[name]
            args: list[Fn] = []
            for want, a in zip(b.params, e.args):
                if want == PROP and a.ref[0] == "prop":
                    get = self.props[a.ref[1]].__getitem__
                    args.append(lambda st, L, get=get: get)
                elif want == PROP:
                    args.append(lambda st, L, i=a.ref[1]: st.pvars[i].__getitem__)
                else:
                    args.append(self.ccoll(a) if isinstance(want, frozenset) else self.cexpr(a))
            run = b.run
            if b.state:
                return lambda st, L: run(st, *[f(st, L) for f in args])
            return lambda st, L: run(*[f(st, L) for f in args])
        f = self.spec.functions[name]
        if name not in self.funcs:
            self.funcs[name] = None  # type: ignore[assignment]  # recursion is rejected by the checker
            self.funcs[name] = self.cexpr(f.value.ast)
        body = self.funcs[name]
        n = f.value.n_locals
        args = [self.ccoll(a) if kind == "cards" else self.cexpr(a) for a, kind in zip(e.args, f.params.values())]
        if len(args) == 1:
            a0 = args[0]
            pad = [None] * (n - 1)
            return lambda st, L: body(st, [a0(st, L), *pad])
        return lambda st, L: body(st, [a(st, L) for a in args] + [None] * (n - len(args)))

    def x_ListLit(self, e: N.ListLit) -> Fn:
        fs = [self.cexpr(x) for x in e.items]
        return lambda st, L: [f(st, L) for f in fs]

    def cworked(self, e: N.Expr) -> Fn:
        """A collection an expression goes through, charged to the step budget as codegen's `_work` charges it."""
        coll = self.ccoll(e)
        if isinstance(e, N.Name) and e.ref[0] == "players":
            return coll
        return lambda st, L: _work(st, coll(st, L))

    def x_Filter(self, e: N.Filter) -> Fn:
        coll, cond, slot = self.cworked(e.coll), self.cexpr(e.cond), e.slot
        if e.stop:  # `[x in coll while cond]`: up to the first element that fails
            def take(st, L):
                out = []
                for x in coll(st, L):
                    L[slot] = x
                    if not cond(st, L):
                        break
                    out.append(x)
                return out
            return take

        def filt(st, L):
            out = []
            for x in coll(st, L):
                L[slot] = x
                if cond(st, L):
                    out.append(x)
            return out
        return filt

    def x_Quantifier(self, e: N.Quantifier) -> Fn:
        coll, cond, slot, want = self.cworked(e.coll), self.cexpr(e.cond), e.slot, e.func == "any"

        def quantifier(st, L):
            for x in coll(st, L):
                L[slot] = x
                if bool(cond(st, L)) is want:
                    return want  # the first witness (any) or counter-example (all) decides
            return not want
        return quantifier

    def x_LetIn(self, e: N.LetIn) -> Fn:
        value, body, slot = self.cexpr(e.value), self.cexpr(e.body), e.slot

        def let_in(st, L):
            L[slot] = value(st, L)
            return body(st, L)
        return let_in

    def x_MapList(self, e: N.MapList) -> Fn:
        coll, value, slot = self.cworked(e.coll), self.cexpr(e.value), e.slot
        cond = self.cexpr(e.cond) if e.cond is not None else None

        def mapped(st, L):
            out = []
            for x in coll(st, L):
                L[slot] = x
                if cond is None or cond(st, L):
                    out.append(value(st, L))
            return out
        return mapped

    def x_Aggregate(self, e: N.Aggregate) -> Fn:
        coll, value, slot = self.cworked(e.coll), self.cexpr(e.value), e.slot
        cond = self.cexpr(e.cond) if e.cond is not None else None
        func = e.func

        def aggregate(st, L):
            keyed = []
            for x in coll(st, L):
                L[slot] = x
                if cond is None or cond(st, L):
                    keyed.append((x, value(st, L)))
            if func == "sum":
                return sum(k for _x, k in keyed)
            if func in ("highest", "lowest"):
                return (max if func == "highest" else min)((k for _x, k in keyed), default=0)
            if not keyed:
                return []
            top = (max if func == "best" else min)(k for _x, k in keyed)
            return [x for x, k in keyed if k == top]
        return aggregate

    def x_Unary(self, e: N.Unary) -> Fn:
        f = self.cexpr(e.operand)
        if e.op == "not":
            return lambda st, L: not f(st, L)
        return lambda st, L: -f(st, L)

    def x_Binary(self, e: N.Binary) -> Fn:
        op = e.op
        a = self.cexpr(e.left)
        b = self.cexpr(e.right)
        cb = self.const(e.right)
        if op == "and":
            return lambda st, L: a(st, L) and b(st, L)
        if op == "or":
            return lambda st, L: a(st, L) or b(st, L)
        if op == "+" and (e.left.ty in COLLECTIONS or e.ty in COLLECTIONS):  # lists and zones; `[] + [c]` too
            la, lb = self.ccoll(e.left), self.ccoll(e.right)
            return lambda st, L: join(la(st, L), lb(st, L))
        if op == "*":
            return lambda st, L: multiply(a(st, L), b(st, L))
        if op == "//" or op == "%":
            fn = divide if op == "//" else modulo
            return lambda st, L: fn(a(st, L), b(st, L))
        fn = _ARITH.get(op) or _COMPARE[op]
        # The hottest shapes get a closure without the extra call.
        if cb is not _NOCONST:
            if op == ">=":
                return lambda st, L: a(st, L) >= cb
            if op == ">":
                return lambda st, L: a(st, L) > cb
            if op == "==":
                return lambda st, L: a(st, L) == cb
            if op == "<":
                return lambda st, L: a(st, L) < cb
            if op == "+":
                return lambda st, L: a(st, L) + cb
            return lambda st, L: fn(a(st, L), cb)
        if op == "+":
            return lambda st, L: a(st, L) + b(st, L)
        return lambda st, L: fn(a(st, L), b(st, L))

    def x_Ternary(self, e: N.Ternary) -> Fn:
        c, a, b = self.cexpr(e.cond), self.cexpr(e.then), self.cexpr(e.orelse)
        return lambda st, L: a(st, L) if c(st, L) else b(st, L)

    def x_Template(self, e: N.Template) -> Fn:
        parts: list[Any] = []
        for p in e.parts:
            if isinstance(p, str):
                parts.append(p)
            elif p.ty is T.ZONE:  # a zone is shown as the cards in it
                parts.append((self.ccoll(p), T.CARDS))
            else:
                reads = hidden.hidden_reads(self.spec, p)
                if reads:  # marked with the seats that may read it (runtime/redact.py)
                    parts.append((self._secret_hole(self.cexpr(p), p.ty, reads), T.STR))
                else:
                    parts.append((self.cexpr(p), p.ty))

        def render(st, L):
            return "".join(p if isinstance(p, str) else st.card_text(p[0](st, L), p[1]) for p in parts)
        return render

    def _secret_hole(self, f: Fn, ty: T, reads: list) -> Fn:
        rows = tuple((r.scope, r.rows) for r in reads)
        owners = [None if r.owner is None else self.cexpr(r.owner) for r in reads]
        return lambda st, L: st.secret_text(st.g.show(f(st, L), ty), rows,
                                            tuple(None if o is None else o(st, L) for o in owners))

    # -- keyed variables (`keys:`): one plain variable slot per key ---------------
    def key_slots(self, e: N.Index) -> tuple[Any, dict]:
        """The keyed variable an index names: its definition and {key: variable slot}."""
        _, scope, name = e.ref
        kv = self.spec.keyed[scope][name]
        table = {k: kv.index + j for j, k in enumerate(kv.keys)}
        return kv, (boards.key_table(self.boards[kv.board], table) if kv.board is not None else table)

    def key_slot(self, e: N.Index) -> tuple[int | None, Fn | None]:
        """The variable slot of `x[key]`: a constant, or a function of the state."""
        kv, table = self.key_slots(e)
        k = self.const(e.key)
        if k is not _NOCONST and k in table:
            return table[k], None
        key, name, shown = self.cexpr(e.key), kv.name, ", ".join(map(str, kv.keys))

        def slot(st, L):
            k = key(st, L)
            if k not in table:
                raise RuleError(f"'{k}' is not a key of '{name}' (keys: {shown})")
            return table[k]
        return None, slot

    def _keyed_get(self, e: N.Index) -> Fn:
        scope = e.ref[1]
        i, slot = self.key_slot(e)
        if scope == "player":
            owner = self.cexpr(e.obj.obj)
            if i is not None:
                return lambda st, L: st.pvars[i][owner(st, L)]
            return lambda st, L: st.pvars[slot(st, L)][owner(st, L)]
        attr = "gvars" if scope == "global" else "tvars"
        if i is not None:
            return lambda st, L: getattr(st, attr)[i]
        return lambda st, L: getattr(st, attr)[slot(st, L)]

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

    def subset_finder(self, s: N.ChooseSubset) -> Fn:
        """Every subset of the source that satisfies the condition, smallest first."""
        saved, self.gen.local_names = self.gen.local_names, []  # generated, reading every local from L
        try:
            src, slot, cond = self.coll(s.source), s.slot, self.expr(s.cond)  # the test runs once per subset
        finally:
            self.gen.local_names = saved
        merge = self.interchange().subsets  # identical cards make one subset (interchange.py)

        def find(st, L):
            items = list(src(st, L))
            if len(items) > MAX_SUBSET_SOURCE:
                raise RuleError(f"choose subset: {len(items)} cards is too many to list every subset")
            found = []
            for k in range(len(items) + 1):
                for combo in combinations(items, k):
                    L[slot] = list(combo)
                    if cond(st, L):
                        found.append(list(combo))
            return merge(st, found)
        return find

    def interchange(self):
        """Which cards are interchangeable in a choice (built once per compiled game)."""
        if getattr(self, "_interchange", None) is None:
            from .interchange import Interchange
            self._interchange = Interchange(self.spec, self.card_type)
        return self._interchange
