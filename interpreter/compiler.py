"""Compile: checked AST -> closures the engine runs.

Owns: turning each expression into a Python closure `f(state, locals)` and
each block of statements into a flat list of ops (`op(state, frame)`) with
jumps, so execution can pause at any `choose` (also inside loops and nested
procedure calls) and resume later; the state only needs to keep a stack of
(program, pc, locals). Options and ambiguity readings are fixed for a
compiled game, so `option.x` and `reading.x == "y"` fold to constants and
untaken branches are never emitted. No spec text is ever evaluated: every
closure is built from the checked tree.
"""
from __future__ import annotations

import operator
from itertools import combinations
from typing import Any, Callable

from . import nodes as N
from .builtins import BUILTINS, RuleError
from .kinds import T
from .model import Code, Spec

Fn = Callable[[Any, list], Any]
_NOCONST = object()
MAX_SUBSET_SOURCE = 16

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


class Program:
    """A compiled block: flat ops, the local slots it needs, and its origin."""
    __slots__ = ("name", "ops", "n_locals", "code")

    def __init__(self, name: str, code: Code | None = None):
        self.name = name
        self.ops: list[Callable] = []
        self.n_locals = 0
        self.code = code

    def __repr__(self) -> str:
        return f"<Program {self.name}: {len(self.ops)} ops>"


class Frame:
    __slots__ = ("prog", "pc", "L")

    def __init__(self, prog: Program, pc: int, L: list):
        self.prog, self.pc, self.L = prog, pc, L

    def copy(self) -> "Frame":
        return Frame(self.prog, self.pc, self.L[:])


# Kinds of pending decision
ACTION, VALUE, OPTION, SUBSET = 0, 1, 2, 3


def _ret(st, fr) -> None:
    st.stack.pop()


class Compiler:
    def __init__(self, spec: Spec, options: dict[str, Any], readings: dict[str, str]):
        self.spec = spec
        self.options = options
        self.readings = readings
        self.S = spec.n_shared
        self.P = spec.n_player_zones
        self.props: dict[str, tuple] = {}
        self.card_type: list[str] = []
        for ct in spec.cards.values():
            self.card_type.extend([ct.name] * ct.count)
        for p in {k for ct in spec.cards.values() for k in ct.props}:
            self.props[p] = tuple(spec.cards[t].props[p] for t in self.card_type)
        self.procs: dict[str, Program] = {n: Program(f"procedure {n}", p.do) for n, p in spec.procedures.items()}
        self.funcs: dict[str, Fn] = {}
        self.vardefs = {scope: list(vs.values()) for scope, vs in spec.vars.items()}
        self.triggers: dict[int, list] = {}  # zone def key -> [(when, program)]

    # -- public ----------------------------------------------------------------
    def compile_all(self) -> None:
        for name, pr in self.spec.procedures.items():
            self.block_into(self.procs[name], pr.do)
        for name, tr in self.spec.triggers.items():
            prog = Program(f"trigger {name}", tr.do)
            self.block_into(prog, tr.do)
            when = self.expr(tr.when.ast) if tr.when else None
            z = self.spec.zones[tr.zone]
            self.triggers.setdefault((z.owner, z.index), []).append((when, prog))

    def program(self, name: str, code: Code | None) -> Program:
        prog = Program(name, code)
        if code is not None:
            self.block_into(prog, code)
        else:
            prog.ops.append(_ret)
        return prog

    def condition(self, code: Code | None) -> Fn | None:
        return None if code is None or code.ast is None else self.expr(code.ast)

    # -- constants -------------------------------------------------------------
    def const(self, e: N.Expr) -> Any:
        if isinstance(e, (N.Int, N.Str, N.Bool)):
            return e.value
        if isinstance(e, N.Attr) and e.ref is not None:
            if e.ref[0] == "option":
                return self.options[e.name]
            if e.ref[0] == "reading":
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
    def expr(self, e: N.Expr) -> Fn:
        c = self.const(e)
        if c is not _NOCONST:
            return lambda st, L: c
        return getattr(self, "x_" + type(e).__name__)(e)

    def coll(self, e: N.Expr) -> Fn:
        """A collection as a list (a zone becomes its card list)."""
        f = self.expr(e)
        if e.ty is T.ZONE:
            return lambda st, L: st.zones[f(st, L)]
        return f

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
        raise AssertionError(e.ref)

    def x_Attr(self, e: N.Attr) -> Fn:
        kind = e.ref[0]
        if kind == "tvar":
            i = e.ref[1]
            return lambda st, L: st.tvars[i]
        obj = self.expr(e.obj)
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
        raise AssertionError(e.ref)

    def x_Index(self, e: N.Index) -> Fn:
        if e.ref is not None:
            return self._keyed_get(e)
        coll, key = self.coll(e.obj), self.expr(e.key)

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
            args, types, props = [], [], []
            for i, a in enumerate(e.args):
                if i > 0 and b.params[i] == "PROP":
                    args.append(None)
                    types.append(T.INT)
                    props.append(a.ref)
                else:
                    args.append(self.expr(a))
                    types.append(a.ty)
                    props.append(None)
            return b.build(args, types, props)
        f = self.spec.functions[name]
        if name not in self.funcs:
            self.funcs[name] = None  # type: ignore[assignment]  # recursion is rejected by the checker
            self.funcs[name] = self.expr(f.value.ast)
        body = self.funcs[name]
        n = f.value.n_locals
        args = self._args(e.args, f.params)
        if len(args) == 1:
            a0 = args[0]
            pad = [None] * (n - 1)
            return lambda st, L: body(st, [a0(st, L), *pad])
        return lambda st, L: body(st, [a(st, L) for a in args] + [None] * (n - len(args)))

    def _args(self, args: list, params: dict[str, str]) -> list[Fn]:
        """Arguments of a function or procedure call; a zone given for a `cards` parameter becomes its cards."""
        kinds = list(params.values())
        return [self.coll(a) if i < len(kinds) and kinds[i] == "cards" else self.expr(a) for i, a in enumerate(args)]

    def x_ListLit(self, e: N.ListLit) -> Fn:
        fs = [self.expr(x) for x in e.items]
        return lambda st, L: [f(st, L) for f in fs]

    def x_Filter(self, e: N.Filter) -> Fn:
        coll, cond, slot = self.coll(e.coll), self.expr(e.cond), e.slot

        def filt(st, L):
            out = []
            for x in coll(st, L):
                L[slot] = x
                if cond(st, L):
                    out.append(x)
            return out
        return filt

    def x_Unary(self, e: N.Unary) -> Fn:
        f = self.expr(e.operand)
        if e.op == "not":
            return lambda st, L: not f(st, L)
        return lambda st, L: -f(st, L)

    def x_Binary(self, e: N.Binary) -> Fn:
        op = e.op
        a = self.expr(e.left)
        b = self.expr(e.right)
        ca, cb = self.const(e.left), self.const(e.right)
        if op == "and":
            return lambda st, L: a(st, L) and b(st, L)
        if op == "or":
            return lambda st, L: a(st, L) or b(st, L)
        if op == "+" and e.left.ty in (T.ZONE, T.CARDS, T.PLAYERS, T.STRS, T.INTS):
            la, lb = self.coll(e.left), self.coll(e.right)
            return lambda st, L: list(la(st, L)) + list(lb(st, L))
        if op == "//" or op == "%":
            fn = _ARITH[op]

            def div(st, L):
                d = b(st, L)
                if d == 0:
                    raise RuleError("division by zero")
                return fn(a(st, L), d)
            return div
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
        c, a, b = self.expr(e.cond), self.expr(e.then), self.expr(e.orelse)
        return lambda st, L: a(st, L) if c(st, L) else b(st, L)

    def x_Template(self, e: N.Template) -> Fn:
        parts: list[Any] = []
        for p in e.parts:
            if isinstance(p, str):
                parts.append(p)
            elif p.ty is T.ZONE:  # a zone is shown as the cards in it
                parts.append((self.coll(p), T.CARDS))
            else:
                parts.append((self.expr(p), p.ty))

        def render(st, L):
            return "".join(p if isinstance(p, str) else st.g.show(p[0](st, L), p[1]) for p in parts)
        return render

    # -- statements --------------------------------------------------------------
    def block_into(self, prog: Program, code: Code) -> None:
        prog.n_locals = code.n_locals
        self.stmts(prog.ops, code.ast or [])
        prog.ops.append(_ret)

    def stmts(self, ops: list, body: list) -> None:
        for st in body:
            getattr(self, "s_" + type(st).__name__)(ops, st)

    def s_Move(self, ops, s: N.Move) -> None:
        what, dest = self.expr(s.what), self.expr(s.dest)
        ty = s.what.ty
        if ty is T.CARD:
            ops.append(lambda st, fr: st.move_card(what(st, fr.L), dest(st, fr.L)))
        elif ty is T.ZONE:
            ops.append(lambda st, fr: st.move_zone(what(st, fr.L), dest(st, fr.L)))
        else:
            ops.append(lambda st, fr: st.move_cards(list(what(st, fr.L)), dest(st, fr.L)))

    def s_Shuffle(self, ops, s: N.Shuffle) -> None:
        z = self.expr(s.zone)
        ops.append(lambda st, fr: st.shuffle(z(st, fr.L)))

    def s_Let(self, ops, s: N.Let) -> None:
        f, i = self.expr(s.value), s.slot

        def let(st, fr):
            fr.L[i] = f(st, fr.L)
        ops.append(let)

    def s_Assign(self, ops, s: N.Assign) -> None:
        t = s.target
        if isinstance(t, N.Index):
            return self._keyed_assign(ops, s)
        kind = t.ref[0]
        val = self.expr(s.value)
        sign = {"=": 0, "+=": 1, "-=": -1}[s.op]
        if kind == "local":
            i = t.ref[1]
            if sign == 0:
                def op(st, fr):
                    fr.L[i] = val(st, fr.L)
            else:
                def op(st, fr):
                    fr.L[i] += sign * val(st, fr.L)
            ops.append(op)
            return
        scope = {"gvar": "global", "pvar": "player", "tvar": "turn"}[kind]
        vd = self.vardefs[scope][t.ref[1]]
        i = vd.index
        lo, hi, clamp, name = vd.min, vd.max, vd.clamp, vd.name
        bounded = lo is not None or hi is not None

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

        if kind == "pvar":
            who = self.expr(t.obj)
            is_me = isinstance(t.obj, N.Name) and t.obj.ref == ("me",)
            if sign == 0:
                def op(st, fr):
                    v = val(st, fr.L)
                    st.pvars[i][who(st, fr.L)] = fit(v) if bounded else v
            elif is_me:
                def op(st, fr):
                    row = st.pvars[i]
                    v = row[st.cur] + sign * val(st, fr.L)
                    row[st.cur] = fit(v) if bounded else v
            else:
                def op(st, fr):
                    row = st.pvars[i]
                    p = who(st, fr.L)
                    v = row[p] + sign * val(st, fr.L)
                    row[p] = fit(v) if bounded else v
        else:
            attr = "gvars" if kind == "gvar" else "tvars"
            if sign == 0:
                def op(st, fr):
                    v = val(st, fr.L)
                    getattr(st, attr)[i] = fit(v) if bounded else v
            else:
                def op(st, fr):
                    row = getattr(st, attr)
                    v = row[i] + sign * val(st, fr.L)
                    row[i] = fit(v) if bounded else v
        ops.append(op)

    # -- keyed variables (`keys:`): one plain variable slot per key ---------------
    def _key_slot(self, e: N.Index) -> tuple[str, int | None, Fn | None, Fn | None]:
        """(scope, constant slot or None, slot function or None, owner function or None)."""
        _, scope, name = e.ref
        kv = self.spec.keyed[scope][name]
        owner = self.expr(e.obj.obj) if scope == "player" else None
        table = {k: kv.index + j for j, k in enumerate(kv.keys)}
        k = self.const(e.key)
        if k is not _NOCONST and k in table:
            return scope, table[k], None, owner
        key = self.expr(e.key)
        shown = ", ".join(map(str, kv.keys))

        def slot(st, L):
            k = key(st, L)
            if k not in table:
                raise RuleError(f"'{k}' is not a key of '{name}' (keys: {shown})")
            return table[k]
        return scope, None, slot, owner

    def _keyed_get(self, e: N.Index) -> Fn:
        scope, i, slot, owner = self._key_slot(e)
        if scope == "player":
            if i is not None:
                return lambda st, L: st.pvars[i][owner(st, L)]
            return lambda st, L: st.pvars[slot(st, L)][owner(st, L)]
        attr = "gvars" if scope == "global" else "tvars"
        if i is not None:
            return lambda st, L: getattr(st, attr)[i]
        return lambda st, L: getattr(st, attr)[slot(st, L)]

    def _keyed_assign(self, ops, s: N.Assign) -> None:
        scope, i, slot, owner = self._key_slot(s.target)
        val = self.expr(s.value)
        sign = {"=": 0, "+=": 1, "-=": -1}[s.op]
        defs = self.vardefs[scope]
        _, _, name = s.target.ref

        def fit(k: int, v):
            vd = defs[k]
            if vd.min is not None and v < vd.min:
                if vd.clamp:
                    return vd.min
                raise RuleError(f"'{vd.name}' would become {v}, below its minimum {vd.min}")
            if vd.max is not None and v > vd.max:
                if vd.clamp:
                    return vd.max
                raise RuleError(f"'{vd.name}' would become {v}, above its maximum {vd.max}")
            return v

        attr = "gvars" if scope == "global" else "tvars"

        def op(st, fr):
            L = fr.L
            k = i if i is not None else slot(st, L)
            if scope == "player":
                row, at = st.pvars[k], owner(st, L)
            else:
                row, at = getattr(st, attr), k
            v = val(st, L)
            row[at] = fit(k, v if sign == 0 else row[at] + sign * v)
        ops.append(op)

    def s_CallStmt(self, ops, s: N.CallStmt) -> None:
        prog = self.procs[s.call.func]
        args = self._args(s.call.args, self.spec.procedures[s.call.func].params)
        k = len(args)

        def call(st, fr):
            n = prog.n_locals
            L = [a(st, fr.L) for a in args]
            if n > k:
                L.extend([None] * (n - k))
            st.stack.append(Frame(prog, 0, L))
            st.tick()
        ops.append(call)

    def s_EndTurn(self, ops, s) -> None:
        ops.append(lambda st, fr: st.end_turn())

    def s_EndGame(self, ops, s) -> None:
        ops.append(lambda st, fr: st.end_game())

    def s_Pass(self, ops, s) -> None:
        pass

    def s_Say(self, ops, s: N.Say) -> None:
        text = self.expr(s.text)

        def say(st, fr):
            if st.log is not None:
                st.event("say", text=text(st, fr.L))
        ops.append(say)

    def _chooser(self, by: N.Expr | None) -> Fn:
        if by is None:
            return lambda st, L: st.cur
        return self.expr(by)

    def s_ChooseValue(self, ops, s: N.ChooseValue) -> None:
        src, who, slot = self.coll(s.source), self._chooser(s.by), s.slot
        prompt = self.expr(s.prompt) if s.prompt else None
        elem = s.source.ty

        def choose(st, fr):
            values = list(src(st, fr.L))
            return st.ask(VALUE, who(st, fr.L), values, (slot, prompt, elem))
        ops.append(choose)

    def s_ChooseSubset(self, ops, s: N.ChooseSubset) -> None:
        src, who, slot, cond = self.coll(s.source), self._chooser(s.by), s.slot, self.expr(s.cond)
        prompt = self.expr(s.prompt) if s.prompt else None

        def choose(st, fr):
            items = list(src(st, fr.L))
            if len(items) > MAX_SUBSET_SOURCE:
                raise RuleError(f"choose subset: {len(items)} cards is too many to list every subset")
            L = fr.L
            found = []
            for k in range(len(items) + 1):
                for combo in combinations(items, k):
                    L[slot] = list(combo)
                    if cond(st, L):
                        found.append(list(combo))
            return st.ask(SUBSET, who(st, L), found, (slot, prompt, T.CARDS))
        ops.append(choose)

    def _jump(self, ops) -> int:
        ops.append(None)
        return len(ops) - 1

    @staticmethod
    def _goto(target: int) -> Callable:
        def goto(st, fr):
            fr.pc = target
        return goto

    @staticmethod
    def _unless(cond: Fn, target: int) -> Callable:
        def unless(st, fr):
            if not cond(st, fr.L):
                fr.pc = target
        return unless

    def s_If(self, ops, s: N.If) -> None:
        ends = []
        for cond_e, body in s.branches:
            c = self.const(cond_e)
            if c is not _NOCONST and not c:
                continue  # branch can never run with these options and readings
            if c is not _NOCONST:
                self.stmts(ops, body)  # always taken: later branches are dead
                break
            cond = self.expr(cond_e)
            j = self._jump(ops)
            self.stmts(ops, body)
            ends.append(self._jump(ops))
            ops[j] = self._unless(cond, len(ops))
        else:
            if s.orelse:
                self.stmts(ops, s.orelse)
        for j in ends:
            ops[j] = self._goto(len(ops))

    def s_ForEach(self, ops, s: N.ForEach) -> None:
        coll, v = self.coll(s.coll), s.slot
        lst, idx = v + 1, v + 2

        def init(st, fr):
            fr.L[lst] = list(coll(st, fr.L))
            fr.L[idx] = 0
        ops.append(init)
        head = len(ops)
        j = self._jump(ops)
        self.stmts(ops, s.body)
        ops.append(self._back(head))
        end = len(ops)

        def step(st, fr):
            L = fr.L
            i = L[idx]
            items = L[lst]
            if i >= len(items):
                fr.pc = end
            else:
                L[v] = items[i]
                L[idx] = i + 1
        ops[j] = step

    @staticmethod
    def _back(target: int) -> Callable:
        def back(st, fr):
            fr.pc = target
            st.tick()
        return back

    def s_Repeat(self, ops, s: N.Repeat) -> None:
        count, slot = self.expr(s.count), s.slot

        def init(st, fr):
            fr.L[slot] = count(st, fr.L)
        ops.append(init)
        head = len(ops)
        j = self._jump(ops)
        self.stmts(ops, s.body)
        ops.append(self._back(head))
        end = len(ops)

        def step(st, fr):
            if fr.L[slot] <= 0:
                fr.pc = end
            else:
                fr.L[slot] -= 1
        ops[j] = step

    def s_While(self, ops, s: N.While) -> None:
        cond = self.expr(s.cond)
        head = len(ops)
        j = self._jump(ops)
        self.stmts(ops, s.body)
        ops.append(self._back(head))
        ops[j] = self._unless(cond, len(ops))

    def s_ChooseOption(self, ops, s: N.ChooseOption) -> None:
        who = self._chooser(s.by)
        prompt = self.expr(s.prompt) if s.prompt else None
        j = self._jump(ops)
        entries = []  # (slot or -1, coll or None, cond or None, label, start)
        ends = []
        for opt in s.options:
            c = self.const(opt.cond) if opt.cond is not None else True
            if c is not _NOCONST and not c:
                continue
            cond = None if c is not _NOCONST else self.expr(opt.cond)
            coll = self.coll(opt.coll) if opt.var is not None else None
            start = len(ops)
            self.stmts(ops, opt.body)
            ends.append(self._jump(ops))
            entries.append((opt.slot if opt.var is not None else -1, coll, cond, self.expr(opt.label), start))
        end = len(ops)
        for e in ends:
            ops[e] = self._goto(end)

        def choose(st, fr):
            L = fr.L
            found = []
            for entry in entries:
                slot, coll, cond, _label, _start = entry
                if coll is None:
                    if cond is None or cond(st, L):
                        found.append((entry, None))
                else:
                    for x in list(coll(st, L)):
                        L[slot] = x
                        if cond is None or cond(st, L):
                            found.append((entry, x))
            return st.ask(OPTION, who(st, L), found, (None, prompt, None))
        ops[j] = choose
