"""Python source generated from the checked syntax tree, for speed.

Owns: turning expressions, procedures and whole programs (resumable state
machines: a decision can stand anywhere) into Python functions, and the
game's flow: each phase's turn cycle with its action decision, where agents
that decide inside the run (State.auto) take their choice at once. Only the
compiler's own text goes into
the generated source: slots become `L[3]`, variables `st.gvars[0]`, and
every literal from the spec (texts, card-property tables, option values)
is passed in a constants table `K` and referred to by index, so no spec
text is ever pasted into code. Whatever this module does not handle falls
back to the closure compiler (`H[i]`), which has the same semantics.
"""
from __future__ import annotations

import itertools
import re
from typing import Any, Callable

from ..lang import boards, hidden, nodes as N
from ..lang.builtins import (MAX_LIST, MAX_NUMBER, RuleError, after_of, bottom_of, divide, join, last_of, modulo, multiply,
                       numbers, position_of, random_number, roll_dice)
from ..spec.diagnostics import Diagnostic, SpecError
from ..lang.kinds import COLLECTIONS, T
from ..lang.limits import MAX_CALL_DEPTH, MAX_OPTIONS, WORK_PER_STEP


class EndTurn(Exception):
    """`end turn` inside generated code: unwinds to the flow."""


class EndGame(Exception):
    """`end game` inside generated code: the game is over."""


_COLL_TYPES = (T.CARDS, T.PLAYERS, T.INTS, T.STRS)
_ASSIGN_OPS = {"=": "=", "+=": "+=", "-=": "-="}
_COLL_HELPERS = {"first": "_first", "last": "_last", "position": "_position", "after": "_after"}
_CMP = {"==", "!=", "<", "<=", ">", ">="}
_ARITH = {"+", "-", "*"}


class PyGen:
    """Emits source for one compiled game; `build()` turns it into functions."""

    def __init__(self, comp):
        self.comp = comp  # the closure Compiler: constants folding, refs, fallbacks
        self.K: list[Any] = []
        self.H: list[Callable] = []
        self.defs: list[str] = []
        self.ns: dict[str, Any] = {"K": self.K, "H": self.H, "EndTurn": EndTurn, "EndGame": EndGame,
                                   "RuleError": RuleError, "_L": _L, "_top": _top, "_seen": _seen, "_best": _best,
                                   "_best_of": _best_of, "_first": _first, "_seat": _seat,
                                   "_last": last_of, "_bottom": bottom_of, "_position": position_of,
                                   "_after": after_of, "_div": divide, "_mod": modulo,
                                   "_each": _each, "_work": _work, "_join": join, "_mul": multiply, "_range": numbers,
                                   "_roll_dice": roll_dice, "_random_number": random_number,
                                   "_takewhile": itertools.takewhile,
                                   "__builtins__": _SAFE_BUILTINS}
        self.ns.update({name: fn for name, fn in boards.CODEGEN.values()})  # the board builtins' helpers
        self._n = 0
        self.local_names: list[dict[int, str]] = [{}]
        self._proc_fns: dict[str, str] = {}
        self._inlining: set[str] = set()
        # Coverage mode (lint, the ambiguity lab): count every rule, branch, option and reading used.
        self.coverage = comp.coverage
        self.points: list[tuple[str, str, Any]] = []  # (kind, what, span)
        self.COV: list[int] = []
        self.ns["COV"] = self.COV
        self.codes: list[Any] = []  # the Code being compiled, for positions
        self._guards: list[str] = []  # open branches that depend on a reading or an option
        self._func_fns: dict[str, str] = {}
        self._key_tables: dict[tuple, str] = {}  # (id of a keyed variable's slot table, its name) -> constant
        self.together: list = []  # the simultaneous choices of the program being compiled (`Together`)
        self._resumable = False  # emitting the body of a resumable program `R_(st, fr)`
        # Locate mode (replaying a game that failed, to name the rule text): before each statement and
        # condition, `POS[0]` records which one runs. Never on in normal play, so the hot path is unchanged.
        self.locate = getattr(comp, "locate", False)
        self.marks: list[tuple[Any, N.Node]] = []  # (Code, node) per mark
        self.POS: list[int | None] = [None]
        if self.locate:  # only then: normal play's namespace is exactly as before
            self.ns["POS"] = self.POS
            self.ns["_m"] = _mark

    # -- tables ----------------------------------------------------------------
    def k(self, v: Any) -> str:
        """A constant, as a global name `K<i>` of the generated code (never its text)."""
        for i, x in enumerate(self.K):
            if x is v or (type(x) is type(v) and isinstance(v, (str, tuple)) and x == v):
                return f"K{i}"
        self.K.append(v)
        self.ns[f"K{len(self.K) - 1}"] = v
        return f"K{len(self.K) - 1}"

    def h(self, fn: Callable) -> str:
        self.H.append(fn)
        return f"H[{len(self.H) - 1}]"

    def fresh(self, prefix: str) -> str:
        self._n += 1
        return f"{prefix}{self._n}"

    def lit(self, v: Any) -> str:
        if v is True or v is False:
            return "True" if v else "False"
        if type(v) is int:
            return str(int(v))
        return self.k(v)

    def local(self, slot: int) -> str:
        for frame in reversed(self.local_names):
            if slot in frame:
                return frame[slot]
        return f"L[{slot}]"

    # -- coverage -------------------------------------------------------------------
    def hit(self, kind: str, what: str, node: N.Node | None) -> list[str]:
        """A counter line for one coverage point (nothing when not measuring).

        A branch whose condition reads an ambiguity or an option is recorded
        as `branch:reading` / `branch:option`: it is meant to run only under
        some readings, so lint does not call it dead.
        """
        if not self.coverage:
            return []
        if kind == "branch" and node is not None:
            conds = [c for c, _ in node.branches] if isinstance(node, N.If) else [node]
            refs = {getattr(n, "ref", None) and n.ref[0] for c in conds for n in N.walk(c)}
            kind = "branch:reading" if "reading" in refs else "branch:option" if "option" in refs else kind
        elif self._guards and kind != "reading":
            kind = f"{kind}:{self._guards[-1]}"  # inside a branch that only some readings take
        code = self.codes[-1] if self.codes else None
        span = code.text.locate(*node.pos) if code is not None and node is not None else (
            code.span if code is not None else None)
        self.points.append((kind, what, span))
        self.COV.append(0)
        return [f"COV[{len(self.COV) - 1}] += 1"]

    def mark(self, node: N.Node) -> list[str]:
        """Locate mode: a line recording that `node` of the rule text being compiled runs now."""
        code = self.codes[-1] if self.codes else None
        if not self.locate or code is None:
            return []
        self.marks.append((code, node))
        return [f"POS[0] = {len(self.marks) - 1}"]

    # -- expressions -------------------------------------------------------------
    def expr(self, e: N.Expr) -> str:
        c = self.comp.const(e)
        if c is not _nc():
            return self.lit(c)
        m = getattr(self, "x_" + type(e).__name__, None)
        src = m(e) if m else None
        if src is None:  # not handled here: call the closure version
            return f"{self.h(self.comp.cexpr(e))}(st, {self._frame_locals(e)})"
        return src

    def _frame_locals(self, e: N.Expr | None = None) -> str:
        """`L` as the closure version expects it, with Python-local bindings put back.

        It is long enough for the slots the closure itself writes (a filter's
        element), also where the generated code has no list (`L = None` in a
        function)."""
        mapped: dict[int, str] = {}
        for frame in self.local_names:
            mapped.update(frame)
        need = 1 + max((n.slot for n in N.walk(e) if isinstance(n, (N.Filter, N.MapList, N.LetIn, N.Aggregate, N.Quantifier))), default=-1) if e is not None else 0
        if not mapped and not need:
            return "L"
        pairs = ", ".join(f"({int(k)}, {v})" for k, v in sorted(mapped.items()))
        return f"_L(L, ({pairs}{',' if pairs else ''}), {int(need)})"

    def coll(self, e: N.Expr) -> str:
        src = self.expr(e)
        return f"st.zones[{src}]" if e.ty is T.ZONE else src

    def x_Name(self, e: N.Name) -> str | None:
        kind = e.ref[0]
        if kind == "local":
            return self.local(e.ref[1])
        if kind == "me":
            return "st.cur"
        if kind == "players":
            return "st.seats"
        if kind == "others":
            return "st.others[st.cur]"
        if kind == "winners":
            return "st.winners"
        if kind == "gvar":
            return f"st.gvars[{int(e.ref[1])}]"
        if kind == "zone":
            return str(int(e.ref[1]))
        if kind == "const":  # a list constant (a number or a text is folded); a copy, so rules cannot change it
            return f"list({self.k(tuple(self.comp.spec.constants[e.ref[1]]))})"
        if kind == "board":  # the board's geometry (interpreter/lang/boards.py), from the compiler's table
            return self.k(self.comp.boards[e.ref[1]])
        if kind == "cellname" and e.id in self.comp.boards[e.ref[1]].named:  # `a8`: the cell itself
            return self.k(self.comp.boards[e.ref[1]].named[e.id])
        return None

    def x_Attr(self, e: N.Attr) -> str | None:
        kind = e.ref[0]
        if kind == "reading":  # only reached in coverage mode (otherwise a constant)
            line = self.hit("reading", e.name, e)[0]
            return f"_seen(COV, {int(line[4:line.index(']')])}, {self.k(self.comp.readings[e.name])})"
        if kind == "tvar":
            return f"st.tvars[{int(e.ref[1])}]"
        obj = self.expr(e.obj)
        if kind == "pvar":
            return f"st.pvars[{int(e.ref[1])}][{obj}]"
        if kind == "pzone":
            return f"({int(self.comp.S + e.ref[1])} + ({obj}) * {int(self.comp.P)})"
        if kind == "seat":
            return f"(({obj}) + 1)"
        if kind == "prop":
            return f"{self.k(self.comp.props[e.name])}[{obj}]"
        if kind == "ctype":
            return f"{self.k(tuple(self.comp.card_type))}[{obj}]"
        if kind == "cell":
            return f"({obj}).{'row' if e.name == 'row' else 'column'}"
        return None

    def x_Index(self, e: N.Index) -> str | None:
        if e.ref is None:
            return None  # a position in a list: the closure version checks its bounds
        row, slot = self._keyed(e)
        return f"{row}[{slot}]"

    def _keyed(self, e: N.Index) -> tuple[str, str]:
        """`x[key]` of a keyed variable as (its row, the index in that row)."""
        scope = e.ref[1]
        kv, table = self.comp.key_slots(e)
        k = self.comp.const(e.key)
        if k is not _nc() and k in table:
            slot = str(int(table[k]))
        elif kv.board is not None and len(self.comp.boards) == 1:  # one board: every cell is one of its cells
            slot = f"{self.k(boards.slot_row(self.comp.boards[kv.board], table))}[({self.expr(e.key)}).index]"
        else:
            slot = f"{self._key_table(table, kv.name)}[{self.expr(e.key)}]"
        if scope == "player":
            return f"st.pvars[{slot}]", self.expr(e.obj.obj)
        return ("st.gvars" if scope == "global" else "st.tvars"), slot

    def _key_table(self, table: dict, name: str) -> str:
        """A keyed variable's slots by key, as a constant whose lookup of a missing key is a rule error."""
        got = self._key_tables.get((id(table), name))
        if got is None:
            got = self._key_tables[(id(table), name)] = self.k(_Keys(table, name))
        return got

    def args(self, args: list, params: dict[str, str]) -> list[str]:
        """Arguments of a function or procedure; a zone given for a `cards` parameter is its cards."""
        return [self.coll(a) if kind == "cards" else self.expr(a) for a, kind in zip(args, params.values())]

    def x_Call(self, e: N.Call) -> str | None:
        kind, name = e.ref
        if kind == "func":
            args = self.args(e.args, self.comp.spec.functions[name].params)
            if name not in self._inlining and all(_SIMPLE.match(x) for x in args):
                # Inline the function's expression, its parameters bound to the (side-effect free) arguments.
                f = self.comp.spec.functions[name]
                saved, self.local_names = self.local_names, [dict(enumerate(args))]
                self._inlining.add(name)
                try:
                    return f"({self.expr(f.value.ast)})"
                finally:
                    self._inlining.discard(name)
                    self.local_names = saved
            fn = self.function(name)
            return f"{fn}(st{''.join(', ' + x for x in args)})"
        a = e.args
        if name == "count":
            return "st.n" if _is_players_count(e) else f"len({self.coll(a[0])})"
        if name == "top":
            z = self.expr(a[0])
            if isinstance(a[0], N.Name) or isinstance(a[0], N.Attr) and isinstance(a[0].obj, N.Name):
                # cheap to work out twice: no call when the zone has cards
                return f"(st.zones[{z}][-1] if st.zones[{z}] else _top(st, {z}))"
            return f"_top(st, {z})"
        if name == "empty":
            return f"(not {self.coll(a[0])})"
        if name == "sum" and len(a) == 2 and a[0].ty is T.ZONE and a[1].ref[0] == "prop" and a[1].ref[1] in self.comp.summed:
            return f"st.zsum[{int(self.comp.summed[a[1].ref[1]])}][{self.expr(a[0])}]"  # kept up to date by moves
        if name in ("sum", "highest", "lowest") and len(a) == 2:
            fn = {"sum": "sum", "highest": "max", "lowest": "min"}[name]
            if _is_players(a[0]) and a[1].ref[0] == "pvar":  # a player variable's row holds every seat, in order
                return f"{fn}(st.pvars[{int(a[1].ref[1])}])"
            tail = "" if name == "sum" else ", default=0"
            return f"{fn}(map({self._getter(a[1].ref)}, {self.coll(a[0])}){tail})"
        if name == "sum":
            return f"sum({self.coll(a[0])})"
        if name in ("highest", "lowest"):
            return f"{'max' if name == 'highest' else 'min'}({self.coll(a[0])}, default=0)"
        if name in ("best", "worst"):
            return f"_best({self.coll(a[0])}, {self._getter(a[1].ref)}, {'max' if name == 'best' else 'min'})"
        if name == "contains":
            return f"({self.expr(a[1])} in {self.coll(a[0])})"
        if name == "range":
            return f"_range({self.expr(a[0])}, {self.expr(a[1])})"
        if name == "first" and len(a) == 2:
            return f"{self.coll(a[0])}[:max(0, {self.expr(a[1])})]"
        if name in _COLL_HELPERS:  # helper(list, value...)
            return f"{_COLL_HELPERS[name]}({self.coll(a[0])}{''.join(', ' + self.expr(x) for x in a[1:])})"
        if name in boards.CODEGEN:  # a board builtin (interpreter/lang/boards.py): helper(args)
            short = boards.codegen_call(self, name, a)
            if short is not None:
                return short
            return f"{boards.CODEGEN[name][0]}({', '.join(self.expr(x) for x in a)})"
        if name == "bottom":
            return f"_bottom(st, {self.expr(a[0])})"
        if name == "seat":
            k = self.comp.const(a[0])
            if type(k) is int and 1 <= k <= self.comp.spec.min_players:  # a seat every game has
                return str(k - 1)
            return f"_seat(st, {self.expr(a[0])})"
        if name in ("max", "min"):
            return f"{name}({', '.join(self.expr(x) for x in a)})"
        if name == "abs":
            return f"abs({self.expr(a[0])})"
        if name == "next":
            step = "st.order" if self.comp.turn_order else "1"  # the turn order's direction, when a rule can reverse it
            return f"(({self.expr(a[0])}) + {step}) % st.n"
        if name in ("roll", "dice"):
            return f"{'sum(' if name == 'roll' else '('}_roll_dice(st, {self.expr(a[0])}, {self.expr(a[1])}))"
        if name == "random":
            return f"_random_number(st, {self.expr(a[0])}, {self.expr(a[1])})"
        return None

    def _getter(self, prop: tuple) -> str:
        """A PROP argument as a lookup function: a card property table or a player variable row."""
        if prop[0] == "prop":
            return f"{self.k(self.comp.props[prop[1]])}.__getitem__"
        return f"st.pvars[{int(prop[1])}].__getitem__"

    def x_ListLit(self, e: N.ListLit) -> str:
        return "[" + ", ".join(self.expr(x) for x in e.items) + "]"

    def worked(self, e: N.Expr) -> str:
        """A collection an expression goes through, its length charged to the step budget (limits.WORK_PER_STEP)."""
        return self.coll(e) if _is_players(e) else f"_work(st, {self.coll(e)})"

    def x_Filter(self, e: N.Filter) -> str:
        coll = self.worked(e.coll)
        if e.stop:  # `[x in coll while cond]`: up to the first element that fails (nothing after it is looked at)
            v = self.fresh("v")
            self.local_names.append({e.slot: v})
            cond = self.expr(e.cond)
            self.local_names.pop()
            return f"list(_takewhile(lambda {v}: {cond}, {coll}))"
        v = self.fresh("v")
        self.local_names.append({e.slot: v})
        cond = self.expr(e.cond)
        self.local_names.pop()
        return f"[{v} for {v} in {coll} if {cond}]"

    def x_Quantifier(self, e: N.Quantifier) -> str:
        coll = self.worked(e.coll)
        v = self.fresh("v")
        self.local_names.append({e.slot: v})
        cond = self.expr(e.cond)
        self.local_names.pop()
        if e.func == "any":
            return f"any({cond} for {v} in {coll})"  # a generator: stops at the first witness
        return f"all({cond} for {v} in {coll})"

    def x_LetIn(self, e: N.LetIn) -> str:
        v = self.fresh("v")
        value = self.expr(e.value)
        self.local_names.append({e.slot: v})
        body = self.expr(e.body)
        self.local_names.pop()
        return f"(lambda {v}: {body})({value})"  # a lambda, not `:=`, which a comprehension's iterable refuses

    def _over(self, e: N.MapList | N.Aggregate) -> tuple[str, str, str, str]:
        """A `[value for x in coll where cond]` form's parts: (element name, value, collection, ' if cond')."""
        coll = self.worked(e.coll)
        v = self.fresh("v")
        self.local_names.append({e.slot: v})
        value = self.expr(e.value)
        cond = f" if {self.expr(e.cond)}" if e.cond is not None else ""
        self.local_names.pop()
        return v, value, coll, cond

    def x_MapList(self, e: N.MapList) -> str:
        v, value, coll, cond = self._over(e)
        return f"[{value} for {v} in {coll}{cond}]"

    def x_Aggregate(self, e: N.Aggregate) -> str:
        v, value, coll, cond = self._over(e)
        if e.func == "sum":
            return f"sum([{value} for {v} in {coll}{cond}])"
        if e.func in ("highest", "lowest"):
            return f"{'max' if e.func == 'highest' else 'min'}([{value} for {v} in {coll}{cond}], default=0)"
        return f"_best_of([({v}, {value}) for {v} in {coll}{cond}], {'max' if e.func == 'best' else 'min'})"

    def x_Unary(self, e: N.Unary) -> str:
        inner = self.expr(e.operand)
        return f"(not {inner})" if e.op == "not" else f"(-{inner})"

    def x_Binary(self, e: N.Binary) -> str | None:
        op = e.op
        c = self.comp.const(e.right)
        some = self._some_player(e, c)
        if some is not None:
            return some
        if _is_count(e.left) and c == 0 and type(c) is int and op in ("==", ">", "!="):  # empty or not: no len()
            inner = self.coll(e.left.args[0])
            return f"(not {inner})" if op == "==" else f"(not not {inner})"
        if op in ("and", "or"):
            # A side fixed by the options and readings drops out (`x or False` is `x`).
            neutral = op == "and"
            for side, other in ((e.left, e.right), (e.right, e.left)):
                fixed = self.comp.const(side)
                if fixed is not _nc() and bool(fixed) is neutral and other.ty is T.BOOL:
                    return self.expr(other)
            return f"({self.expr(e.left)} {op} {self.expr(e.right)})"
        if op == "+" and (e.left.ty in COLLECTIONS or e.ty in COLLECTIONS):
            return f"_join({self.coll(e.left)}, {self.coll(e.right)})"
        if op == "*":
            # A count times a modest constant cannot grow past the limit: a plain product.
            for a, b in ((e.left, e.right), (e.right, e.left)):
                factor = self.comp.const(a)
                if type(factor) is int and abs(factor) * MAX_LIST <= MAX_NUMBER and _is_count(b):
                    return f"({self.expr(e.left)} * {self.expr(e.right)})"
            return f"_mul({self.expr(e.left)}, {self.expr(e.right)})"
        if op in _CMP or op in _ARITH:
            return f"({self.expr(e.left)} {op} {self.expr(e.right)})"
        if op in ("//", "%"):
            if (type(c) is int and c != 0) or _is_players_count(e.right):  # never a division by zero
                return f"({self.expr(e.left)} {op} {self.expr(e.right)})"
            return f"{'_div' if op == '//' else '_mod'}({self.expr(e.left)}, {self.expr(e.right)})"
        return None

    def _some_player(self, e: N.Binary, c: Any) -> str | None:
        """`count([p in players where p.v OP x]) > 0` (or `== 0`) as one look at v's row: max, min or `in`.

        `c` is the right side's value when the options and readings fix it."""
        if not (isinstance(e.left, N.Call) and e.left.ref == ("builtin", "count") and type(c) is int
                and (e.op, c) in ((">", 0), (">=", 1), ("!=", 0), ("==", 0))):
            return None
        f = e.left.args[0]
        if not (isinstance(f, N.Filter) and not f.stop and _is_players(f.coll) and isinstance(f.cond, N.Binary)
                and f.cond.op in (">=", ">", "<=", "<", "==")):
            return None
        v, x = f.cond.left, f.cond.right
        if not (isinstance(v, N.Attr) and v.ref[0] == "pvar" and isinstance(v.obj, N.Name)
                and v.obj.ref == ("local", f.slot)):
            return None
        if any(isinstance(n, N.Name) and n.ref == ("local", f.slot) for n in N.walk(x)):
            return None  # the bound reads the player too
        row, bound = f"st.pvars[{int(v.ref[1])}]", self.expr(x)
        test = {">=": f"max({row}) >= {bound}", ">": f"max({row}) > {bound}", "<=": f"min({row}) <= {bound}",
                "<": f"min({row}) < {bound}", "==": f"{bound} in {row}"}[f.cond.op]
        return f"(not ({test}))" if e.op == "==" else f"({test})"

    def x_Ternary(self, e: N.Ternary) -> str:
        c = self.comp.const(e.cond)
        if c is not _nc():
            return self.expr(e.then if c else e.orelse)
        return f"({self.expr(e.then)} if {self.expr(e.cond)} else {self.expr(e.orelse)})"

    def x_Template(self, e: N.Template) -> str:
        parts = []
        for p in e.parts:
            if isinstance(p, str):
                parts.append(self.k(p))
            elif p.ty is T.ZONE:  # a zone is shown as the cards in it
                parts.append(f"st.card_text({self.coll(p)}, {self.k(T.CARDS)})")
            elif p.ty in (T.CARD, T.CARDS):  # cards are marked for the seat-aware narration (runtime/redact.py)
                parts.append(f"st.card_text({self.expr(p)}, {self.k(p.ty)})")
            else:
                parts.append(self._secret_hole(p, f"st.g.show({self.expr(p)}, {self.k(p.ty)})"))
        return "''.join((" + ", ".join(parts) + ",))" if parts else self.k("")

    def _secret_hole(self, p: N.Expr, shown: str) -> str:
        """A narration hole that reads hidden variables (lang/hidden.py), marked with the seats that may read
        it, so the seat-aware narration hides it from the others (runtime/redact.py)."""
        reads = hidden.hidden_reads(self.comp.spec, p)
        if not reads:
            return shown
        rows = self.k(tuple((r.scope, r.rows) for r in reads))
        owners = ", ".join("None" if r.owner is None else self.expr(r.owner) for r in reads)
        return f"st.secret_text({shown}, {rows}, ({owners},))"

    # -- user functions and procedures ----------------------------------------------
    def function(self, name: str) -> str:
        if name in self._func_fns:
            return self._func_fns[name]
        fname = self.fresh("F_")
        self._func_fns[name] = fname
        f = self.comp.spec.functions[name]
        params = [f"a{i}" for i in range(len(f.params))]
        saved, self.local_names = self.local_names, [{i: p for i, p in enumerate(params)}]
        body = self.expr(f.value.ast)
        self.local_names = saved
        self.define(fname, f"def {fname}(st{''.join(', ' + p for p in params)}):\n    L = None\n    return {body}\n")
        return fname

    def procedure(self, name: str) -> str:
        """A procedure that never pauses, as a plain function `P(st, L)`."""
        if name in self._proc_fns:
            return self._proc_fns[name]
        fname = self.fresh("P_")
        self._proc_fns[name] = fname
        pr = self.comp.spec.procedures[name]
        saved, self.local_names = self.local_names, [{}]
        resumable, self._resumable = self._resumable, False
        self.codes.append(pr.do)
        body = self.block(pr.do.ast or [], 1)
        self.codes.pop()
        self.local_names = saved
        self._resumable = resumable
        self.define(fname, f"def {fname}(st, L):\n{body}", pr.do)
        return fname

    # -- statements ---------------------------------------------------------------------
    def block(self, stmts: list, depth: int) -> str:
        lines: list[str] = []
        for s in stmts:
            lines.extend(self.stmt(s))
        if not lines:
            lines = ["pass"]
        pad = "    " * depth
        return "".join(f"{pad}{ln}\n" for ln in lines)

    def sub(self, stmts: list) -> list[str]:
        out = []
        for s in stmts:
            out.extend("    " + ln for ln in self.stmt(s))
        return out or ["    pass"]

    def stmt(self, s: N.Stmt) -> list[str]:
        if self.locate:
            return self.mark(s) + getattr(self, "s_" + type(s).__name__)(s)
        return getattr(self, "s_" + type(s).__name__)(s)

    def s_Move(self, s: N.Move) -> list[str]:
        what, dest = self.expr(s.what), self.expr(s.dest)
        ty = s.what.ty
        if ty is T.CARD and not self.comp.spec.triggers:
            # The engine's move_card, inline (no trigger can fire in this spec).
            c, d = self.fresh("c"), self.fresh("d")
            return [f"{c} = {what}", f"{d} = {dest}"] + self._move_card(c, d)
        if ty is not T.ZONE and not self.comp.spec.triggers:  # move_cards: each card as above
            c, d = self.fresh("c"), self.fresh("d")
            fresh = isinstance(s.what, N.Filter)  # a new list already: the moves cannot disturb it
            head = f"for {c} in {what}:" if fresh else f"for {c} in list({what}):"
            return [f"{d} = {dest}", head] + ["    " + ln for ln in self._move_card(c, d)]
        if ty is T.CARD:
            return [f"st.move_card({what}, {dest})"]
        if ty is T.ZONE and not self.comp.spec.triggers:
            # The engine's move_zone, inline.
            src, d, cs, c, w = self.fresh("s"), self.fresh("d"), self.fresh("cs"), self.fresh("c"), self.fresh("w")
            return [f"{src} = {what}", f"{d} = {dest}", f"{cs} = st.zones[{src}]", f"if {cs} and {src} != {d}:",
                    f"    st.zones[{src}] = []", f"    st.zones[{d}].extend({cs})", f"    {w} = st.where",
                    f"    for {c} in {cs}:", f"        {w}[{c}] = {d}",
                    *(ln for j in self.comp.summed.values()
                      for ln in (f"    st.zsum[{int(j)}][{d}] += st.zsum[{int(j)}][{src}]",
                                 f"    st.zsum[{int(j)}][{src}] = 0")),
                    "    if st.log is not None:", f"        st.log_move({cs}, {src}, {d})"]
        if ty is T.ZONE:
            return [f"st.move_zone({what}, {dest})"]
        return [f"st.move_cards(list({what}), {dest})"]

    def _move_card(self, c: str, d: str) -> list[str]:
        """State.move_card of card `c` to zone `d` (both Python names), inline."""
        src, z = self.fresh("s"), self.fresh("z")
        return [f"{src} = st.where[{c}]", f"{z} = st.zones[{src}]",
                f"if {z}[-1] == {c}:", f"    {z}.pop()", "else:", f"    {z}.remove({c})",
                f"st.zones[{d}].append({c})", f"st.where[{c}] = {d}",
                *(ln for p, j in self.comp.summed.items()
                  for ln in (f"st.zsum[{int(j)}][{src}] -= {self.k(self.comp.props[p])}[{c}]",
                             f"st.zsum[{int(j)}][{d}] += {self.k(self.comp.props[p])}[{c}]")),
                "if st.log is not None:", f"    st.log_move([{c}], {src}, {d})"]

    def s_Shuffle(self, s: N.Shuffle) -> list[str]:
        return [f"st.shuffle({self.expr(s.zone)})"]

    def s_Let(self, s: N.Let) -> list[str]:
        return [f"{self.local(s.slot)} = {self.expr(s.value)}"]

    def s_Assign(self, s: N.Assign) -> list[str]:
        t = s.target
        kind = t.ref[0]
        val = self.expr(s.value)
        if kind == "keyed":
            return self._assign_keyed(s, val)
        if kind == "local":
            target = self.local(t.ref[1])
            return [f"{target} {_ASSIGN_OPS[s.op]} {val}"]
        scope = {"gvar": "global", "pvar": "player", "tvar": "turn"}[kind]
        vd = self.comp.vardefs[scope][t.ref[1]]
        i = int(vd.index)
        if kind == "pvar":
            row, key = f"st.pvars[{i}]", self.expr(t.obj)
        else:
            row, key = ("st.gvars" if kind == "gvar" else "st.tvars"), str(i)
        if vd.visible != "public":  # a revealed secret that changes is a secret again (lang/hidden.py)
            owner = key if kind == "pvar" else "None"
            return self._plain_assign(s, val, vd, row, key) + [f"if st.shown: st.conceal({self.k(scope)}, {i}, {owner})"]
        return self._plain_assign(s, val, vd, row, key)

    def _plain_assign(self, s: N.Assign, val: str, vd: Any, row: str, key: str) -> list[str]:
        r, kk, v = self.fresh("r"), self.fresh("k"), self.fresh("v")
        new = val if s.op == "=" else f"{r}[{kk}] {'+' if s.op == '+=' else '-'} {val}"
        lines = [f"{r} = {row}", f"{kk} = {key}", f"{v} = {new}"]
        tests = []
        c = self.comp.const(s.value) if s.op == "=" else None
        if type(c) is int and (vd.min is None or c >= vd.min) and (vd.max is None or c <= vd.max):
            return [f"{row}[{key}] = {int(c)}"]  # a constant within bounds needs no check
        if vd.min is not None:
            tests.append(f"{v} < {int(vd.min)}")
        if vd.max is not None:
            tests.append(f"{v} > {int(vd.max)}")
        if vd.type == "text" and vd.values:  # an enumeration: the fitter names the values
            tests.append(f"{v} not in {self.k(frozenset(vd.values))}")
        if not tests:  # no bounds to keep
            return [f"{row}[{key}] {_ASSIGN_OPS[s.op]} {val}"]
        # out of bounds: the fitter cuts (a cap) or raises a rule error
        lines += [f"if {' or '.join(tests)}:", f"    {v} = {self.h(self.comp.fitter(vd))}({v})"]
        return lines + [f"{r}[{kk}] = {v}"]

    def _assign_keyed(self, s: N.Assign, val: str) -> list[str]:
        kv, _table = self.comp.key_slots(s.target)
        vd = self.comp.vardefs[kv.scope][kv.index]
        lines = self._assign_keyed_value(s, val)
        if vd.visible != "public":  # a revealed secret that changes is a secret again (lang/hidden.py)
            owner = self.expr(s.target.obj.obj) if kv.scope == "player" else "None"
            lines.append(f"if st.shown: st.conceal({self.k(kv.scope)}, {self._key_row(s.target)}, {owner})")
        return lines

    def _assign_keyed_value(self, s: N.Assign, val: str) -> list[str]:
        row, key = self._keyed(s.target)
        kv, table = self.comp.key_slots(s.target)
        vd = self.comp.vardefs[kv.scope][kv.index]  # every key shares the declaration's bounds
        r, kk, v = self.fresh("r"), self.fresh("k"), self.fresh("v")
        new = val if s.op == "=" else f"{r}[{kk}] {'+' if s.op == '+=' else '-'} {val}"
        lines = [f"{r} = {row}", f"{kk} = {key}", f"{v} = {new}"]
        tests = []
        if vd.min is not None:
            tests.append(f"{v} < {int(vd.min)}")
        if vd.max is not None:
            tests.append(f"{v} > {int(vd.max)}")
        if not tests:
            return [f"{row}[{key}] {_ASSIGN_OPS[s.op]} {val}"]
        lines += [f"if {' or '.join(tests)}:", f"    {v} = {self.h(self.comp.fitter(vd))}({v})"]
        return lines + [f"{r}[{kk}] = {v}"]

    def s_CallStmt(self, s: N.CallStmt) -> list[str]:
        name = s.call.func
        params = self.comp.spec.procedures[name].params
        if name not in self._inlining:
            return self.inline_procedure(name, self.args(s.call.args, params))
        fn = self.procedure(name)
        n = self.comp.spec.procedures[name].do.n_locals
        args = self.args(s.call.args, params)
        pad = n - len(args)
        lst = "[" + ", ".join(args) + "]" + (f" + [None] * {pad}" if pad > 0 else "")
        return [f"{fn}(st, {lst})"]

    def inline_procedure(self, name: str, args: list[str]) -> list[str]:
        """A never-pausing procedure's body in place: its locals become Python variables."""
        pr = self.comp.spec.procedures[name]
        names = {i: self.fresh("p") for i in range(max(pr.do.n_locals, len(args)))}
        lines = [f"{names[i]} = {a}" for i, a in enumerate(args)]
        self._inlining.add(name)
        self.local_names.append(names)
        self.codes.append(pr.do)
        try:
            body = self.hit("rule", f"procedure {name}", None)
            for st in pr.do.ast or []:
                body.extend(self.stmt(st))
        finally:
            self.codes.pop()
            self.local_names.pop()
            self._inlining.discard(name)
        if any("_L(" in ln for ln in body):
            # A closure fallback reads every named local (`_L`), so none may be unbound there.
            lines += [f"{names[i]} = None" for i in range(len(args), len(names))]
        return lines + body or ["pass"]

    def s_EndTurn(self, s) -> list[str]:
        # In a resumable program the frame can return to the engine; elsewhere (a procedure run as a
        # plain function) the exception unwinds to the engine's loop, which does the same.
        if not self._resumable:
            return ["raise EndTurn()"]
        # State.end_turn, inline (it runs once a turn); called only to raise when not in a turn.
        return ["if not st.in_turn:", "    st.end_turn()  # raises", "st.turn_over = True", "del st.stack[1:]",
                "return None"]

    def s_EndGame(self, s) -> list[str]:
        return ["return st.finish()"] if self._resumable else ["raise EndGame()"]

    def s_Pass(self, s) -> list[str]:
        return ["pass"]

    def s_TurnOrder(self, s: N.TurnOrder) -> list[str]:
        """Who plays next (State.pass_turn reads these when the turn passes)."""
        if s.what == "to":
            return [f"st.nxt = {self.expr(s.who)}"]
        if s.what == "extra":
            return ["st.nxt = st.cur"]
        if s.what == "skip":
            return ["st.skips += 1"]
        return ["st.order = -st.order"]

    def s_Reveal(self, s: N.Reveal) -> list[str]:
        owner = "None" if s.owner is None else self.expr(s.owner)
        if not s.rows:  # one key of a keyed variable: its row
            return [f"st.reveal({self.k(s.scope)}, ({self._key_row(s.target)},), {owner})"]
        return [f"st.reveal({self.k(s.scope)}, {self.k(tuple(s.rows))}, {owner})"]

    def _key_row(self, e: N.Index) -> str:
        """The variable row (slot) `x[key]` of a keyed variable names."""
        row, key = self._keyed(e)
        return row[len("st.pvars["):-1] if e.ref[1] == "player" else key
    # Narration runs only in a logged game: the work its expressions do is not charged to the game (a
    # logged game and an unlogged one take the same steps), except what it would take past the budget.
    def _uncharged(self, lines: list[str]) -> list[str]:
        k = self.fresh("k")
        return [f"{k} = st.steps, st.work  # narration: its work is not charged", *lines, f"st.steps, st.work = {k}"]

    def s_Say(self, s: N.Say) -> list[str]:
        return ["if st.log is not None:", "    st.marking = True",
                *("    " + ln for ln in self._uncharged([f"st.say({self.expr(s.text)})"]))]

    def s_If(self, s: N.If) -> list[str]:
        if _narration_only(s) and not self.coverage:  # choosing what to say: skip the tests when nobody listens
            return ["if st.log is not None:"] + ["    " + ln for ln in self._uncharged(self._if(s))]
        return self._if(s)

    def _if(self, s: N.If) -> list[str]:
        out: list[str] = []
        first = True
        for cond_e, body in s.branches:
            c = self.comp.const(cond_e)
            if c is not _nc() and not c:
                continue
            if c is not _nc():  # always true: this branch, and nothing after it
                if first:
                    out.extend(ln[4:] for ln in self.sub(body))
                    return out or ["pass"]
                out.append("else:")
                out.extend(self.sub(body))
                return out
            out.append(f"{'if' if first else 'elif'} {self.expr(cond_e)}:")
            hit = self.hit("branch", "if", cond_e)
            out.extend("    " + ln for ln in hit)
            with self._guarded(cond_e):
                out.extend(self.sub(body))
            first = False
        if s.orelse:
            if first:
                return [ln[4:] for ln in self.sub(s.orelse)]
            out.append("else:")
            out.extend("    " + ln for ln in self.hit("branch", "else", s))
            with self._guarded(s):
                out.extend(self.sub(s.orelse))
        return out or ["pass"]

    def _guarded(self, node: N.Node):
        """While emitting a branch that only some readings/options take, mark its coverage points."""
        import contextlib
        conds = [c for c, _ in node.branches] if isinstance(node, N.If) else [node]
        refs = {getattr(n, "ref", None) and n.ref[0] for c in conds for n in N.walk(c)}
        tag = "reading" if "reading" in refs else "option" if "option" in refs else None

        @contextlib.contextmanager
        def guard():
            if tag:
                self._guards.append(tag)
            try:
                yield
            finally:
                if tag:
                    self._guards.pop()
        return guard()

    def s_ForEach(self, s: N.ForEach) -> list[str]:
        # The element is a Python local (the loop cannot pause, and it is out of scope after the loop);
        # the iterations are charged to the step budget up front.
        v = self.fresh("e")
        head = [f"for {v} in _each(st, {self.coll(s.coll)}):"]
        if _is_players(s.coll):  # the seats never change: no copy
            # State.spend, inline; called only to raise when the budget is spent.
            head = ["if st.steps + st.n > st.g.budget:", "    st.spend(st.n)  # raises", "st.steps += st.n",
                    f"for {v} in st.seats:"]
        self.local_names.append({s.slot: v})
        try:
            return head + self.sub(s.body)
        finally:
            self.local_names.pop()

    def s_Repeat(self, s: N.Repeat) -> list[str]:
        return [f"for _ in range(st.spend({self.expr(s.count)})):"] + self.sub(s.body)

    def s_While(self, s: N.While) -> list[str]:
        return [f"while {self.expr(s.cond)}:", "    st.tick()"] + self.sub(s.body)

    # -- resumable programs ----------------------------------------------------------------
    def program(self, name: str, stmts: list, code: Any = None) -> Callable:
        """A block as one resumable function `fn(st, fr)`.

        Statements that may pause (a `choose`, a call of a procedure that
        chooses) split the block into numbered parts; `fr[1]` (the frame's pc) says which part
        to run next, so the function can return at a decision and be called
        again when the decision is taken. Runs of statements that never pause
        are plain Python inside one part.
        """
        self._blocks: list[list[str]] = [[]]
        self.together: list[Together] = []  # this program's simultaneous choices
        self._labels: dict[int, int] = {}
        self._patch: list[tuple[list, int]] = []  # option entries whose start label needs its part number
        self.codes.append(code)
        self._blocks[-1].extend(self.hit("rule", name, None))
        self._resumable = True
        try:
            self._emit(stmts)
        finally:
            self._resumable = False
        self.codes.pop()
        self._jump_end_of_program()
        fname = self.fresh("R_")
        # Jump threading: a part that only jumps elsewhere is skipped by every jump to it.
        target = dict(self._labels)
        for lab, k in self._labels.items():
            seen = set()
            while self._blocks[k][:1] and _pure_jump(self._blocks[k]) and k not in seen:
                seen.add(k)
                k = self._labels[_pure_jump(self._blocks[k])]
            target[lab] = k
        ends = {k for k, blk in enumerate(self._blocks) if blk == ["st.stack.pop()", "return None"]}
        resolved = []
        for k, blk in enumerate(self._blocks):
            out = [_resolve_labels(ln, target) for ln in blk]
            # Tail call: a call whose return would only end this program replaces this program's frame.
            if (len(out) >= 10 and out[-10].endswith("# direct call") and out[-7].startswith("fr[1] = ")
                    and int(out[-7][8:]) in ends and out[-2:] == [f"pc = {out[-7][8:]}", "continue"]):
                out[-9:] = ["st.stack[-1] = f_", "st.tick()", f"return {out[-6][3:-1]}"]
            if (len(out) >= 4 and out[-4].endswith("# call") and out[-2].startswith("fr[1] = ")
                    and int(out[-2][8:]) in ends and out[-1] == "return None"):
                out[-4] = out[-4].replace("st.stack.append(", "st.stack[-1] = (", 1)
                del out[-2]
            # A part that ends by jumping forward falls through the `if pc == ...` tests below it.
            resolved.append(_skip_by_else(out, k))
        for entry, lab in self._patch:
            entry[4] = target[lab]
        resolved = [_inline_ticks(blk) for blk in resolved]
        # A part runs only when `pc` names it: at the start (0), after a jump or when resumed.
        entered, todo, back = set(), [0] + [entry[4] for entry, _lab in self._patch], False
        while todo:
            k = todo.pop()
            if k not in entered:
                entered.add(k)
                for ln in resolved[k]:
                    for m in _JUMP.findall(ln):
                        todo.append(int(m))
                        back = back or int(m) == 0
        if entered == {0} and not back:  # straight-line code: no dispatch loop
            body = "".join(f"    {ln}\n" for ln in resolved[0])
            src = f"def {fname}(st, fr):\n    L = fr[2]\n{body}"
        else:
            src = f"def {fname}(st, fr):\n    L = fr[2]\n    pc = fr[1]\n    while True:\n"
            for k, blk in enumerate(resolved):
                if k in entered:
                    src += f"        if pc == {k}:\n"
                    src += "".join(f"            {ln}\n" for ln in blk)
        return self.define(fname, _alias_state(src), code)

    def plain(self, name: str, stmts: list, code: Any = None) -> Callable:
        """A block that can never pause as a plain function `fn(st, L)`: no frame, no resume point.

        `end turn` and `end game` return at once, as in a resumable program."""
        self.codes.append(code)
        self._resumable = True
        try:
            body = self.hit("rule", name, None) + [ln for s in stmts for ln in self.stmt(s)]
        finally:
            self._resumable = False
            self.codes.pop()
        fname = self.fresh("A_")
        src = f"def {fname}(st, L):\n" + "".join(f"    {ln}\n" for ln in _inline_ticks(body) or ["pass"])
        return self.define(fname, _alias_state(src), code)

    def _label(self) -> int:
        self._n += 1
        return self._n

    def _place(self, lab: int) -> None:
        """Start a new part here; falling into it from the previous part jumps."""
        cur = self._blocks[-1]
        if not cur or not (cur[-1].startswith("continue") or cur[-1].startswith("return")
                           or cur[-1].startswith("raise")):
            cur.extend([f"pc = \u00a7{lab}\u00a7", "continue"])
        self._blocks.append([])
        self._labels[lab] = len(self._blocks) - 1

    def _goto(self, lab: int) -> list[str]:
        return [f"pc = \u00a7{lab}\u00a7", "continue"]

    def _jump_end_of_program(self) -> None:
        self._blocks[-1].extend(["st.stack.pop()", "return None"])

    def _emit(self, stmts: list) -> None:
        run: list = []
        for s in stmts:
            if self.comp.can_pause(s):
                self._flush(run)
                run = []
                self._blocks[-1].extend(self.mark(s))
                getattr(self, "p_" + type(s).__name__)(s)
            else:
                run.append(s)
        self._flush(run)

    def _flush(self, run: list) -> None:
        for s in run:
            self._blocks[-1].extend(self.stmt(s))

    def p_If(self, s: N.If) -> None:
        end = self._label()
        for cond_e, body in s.branches:
            c = self.comp.const(cond_e)
            if c is not _nc() and not c:
                continue
            if c is not _nc():
                self._emit(body)
                self._blocks[-1].extend(self._goto(end))
                self._place(end)
                return
            nxt = self._label()
            self._blocks[-1].extend([f"if not {self.expr(cond_e)}:", f"    pc = \u00a7{nxt}\u00a7", "    continue"])
            self._blocks[-1].extend(self.hit("branch", "if", cond_e))
            with self._guarded(cond_e):
                self._emit(body)
            self._blocks[-1].extend(self._goto(end))
            self._place(nxt)
        if s.orelse:
            self._blocks[-1].extend(self.hit("branch", "else", s))
            with self._guarded(s):
                self._emit(s.orelse)
        self._place(end)

    def p_ForEach(self, s: N.ForEach) -> None:
        v, lst, idx = s.slot, s.slot + 1, s.slot + 2
        head, end = self._label(), self._label()
        self._blocks[-1].extend([f"L[{lst}] = _each(st, {self.coll(s.coll)})", f"L[{idx}] = 0"])
        self._place(head)
        self._blocks[-1].extend([f"if L[{idx}] >= len(L[{lst}]):", f"    pc = \u00a7{end}\u00a7", "    continue",
                                 f"L[{v}] = L[{lst}][L[{idx}]]", f"L[{idx}] += 1"])
        self._emit(s.body)
        self._blocks[-1].extend(self._goto(head))
        self._place(end)

    def p_Repeat(self, s: N.Repeat) -> None:
        head, end = self._label(), self._label()
        self._blocks[-1].append(f"L[{s.slot}] = st.spend({self.expr(s.count)})")
        self._place(head)
        self._blocks[-1].extend([f"if L[{s.slot}] <= 0:", f"    pc = \u00a7{end}\u00a7", "    continue",
                                 f"L[{s.slot}] -= 1"])
        self._emit(s.body)
        self._blocks[-1].extend(self._goto(head))
        self._place(end)

    def p_While(self, s: N.While) -> None:
        head, end = self._label(), self._label()
        self._place(head)
        self._blocks[-1].extend([f"if not {self.expr(s.cond)}:", f"    pc = \u00a7{end}\u00a7", "    continue"])
        self._emit(s.body)
        self._blocks[-1].extend(["st.tick()"] + self._goto(head))
        self._place(end)

    def _pause(self, call: str) -> None:
        """Save where to resume, then hand control back to the engine."""
        resume = self._label()
        self._blocks[-1].extend([f"fr[1] = \u00a7{resume}\u00a7", f"return {call}"])
        self._place(resume)

    def _ask(self, call: str) -> None:
        """Pause for a decision; when an agent took it at once (State.auto), go on here without a return."""
        resume = self._label()
        self._blocks[-1].extend([f"fr[1] = \u00a7{resume}\u00a7", f"if {call}:", "    return True",
                                 "if st.stack[-1] is not fr:", "    return None", "pc = fr[1]", "continue"])
        self._place(resume)

    def p_CallStmt(self, s: N.CallStmt) -> None:
        prog = self.comp.procs[s.call.func]
        args = self.args(s.call.args, self.comp.spec.procedures[s.call.func].params)
        locs = f"[None] * {self.k(prog)}.n_locals"
        if args:
            locs = f"[{', '.join(args)}] + [None] * ({self.k(prog)}.n_locals - {len(args)})"
        frame = f"[{self.k(prog)}, 0, {locs}]"
        if s.call.func in self.comp.recursive:  # through the engine's loop: Python's stack stays flat
            self._blocks[-1].extend([f"st.stack.append({frame})  # call", "st.tick()"])
            self._pause("None")
            return
        # Called at once; back to the engine only if it pauses, or left something to run on the stack.
        resume = self._label()
        self._blocks[-1].extend([f"f_ = {frame}  # direct call", "st.stack.append(f_)", "st.tick()",
                                 f"fr[1] = \u00a7{resume}\u00a7", f"if {self.k(prog)}.fn(st, f_):", "    return True",
                                 "if st.stack[-1] is not fr:", "    return None"])
        self._place(resume)

    def p_Move(self, s: N.Move) -> None:
        self._blocks[-1].extend(self.s_Move(s))
        self._pause("None")  # triggers fired by the move run now, before the next statement

    def _who(self, by: N.Expr | None) -> str:
        return "st.cur" if by is None else self.expr(by)

    def p_ChooseValue(self, s: N.ChooseValue) -> None:
        prompt = self.comp.expr(s.prompt) if s.prompt else None
        meta = self.k((s.slot, prompt, s.source.ty))
        opts = f"list({self.coll(s.source)})"
        if s.source.ty in (T.ZONE, T.CARDS):  # identical cards make one option (interchange.py)
            opts = f"{self.h(self.comp.interchange().values)}(st, {opts})"
        self._ask(f"st.ask(1, {self._who(s.by)}, {opts}, {meta})")

    def p_ChooseTogether(self, s: N.ChooseTogether) -> None:
        """Each player chooses in turn, none seeing the others' choices (kept in a hidden local until all
        have chosen, a new list at each choice so copies of the state never share it); then the body
        runs once per player. Determinization re-draws the choices of the others (`Together`)."""
        c, p, lst, idx, picks = s.slot, s.slot + 1, s.slot + 2, s.slot + 3, s.slot + 4
        head, reveal = self._label(), self._label()
        self._blocks[-1].extend([f"L[{lst}] = _each(st, {self.coll(s.players)})", f"L[{idx}] = 0", f"L[{picks}] = ()"])
        self._place(head)
        prompt = self.comp.expr(s.prompt) if s.prompt else None
        meta = self.k((c, prompt, s.source.ty, "sealed"))  # sealed: narration does not show the choice
        self._blocks[-1].extend([f"if L[{idx}] >= len(L[{lst}]):", f"    pc = \u00a7{reveal}\u00a7", "    continue",
                                 f"L[{p}] = L[{lst}][L[{idx}]]"])
        self._ask(f"st.ask(1, L[{p}], list({self.coll(s.source)}), {meta})")
        self._blocks[-1].extend([f"L[{picks}] = L[{picks}] + (L[{c}],)", f"L[{idx}] += 1"] + self._goto(head))
        self._place(reveal)
        k = self.fresh("k")
        self._blocks[-1].extend([f"for {k} in range(len(L[{lst}])):", f"    L[{p}] = L[{lst}][{k}]",
                                 f"    L[{c}] = L[{picks}][{k}]"] + self.sub(s.body) + [f"L[{picks}] = ()"])
        self.together.append(Together(c, p, lst, idx, picks, self.comp.cexpr(s.source), s.source.ty))

    def p_ChooseSubset(self, s: N.ChooseSubset) -> None:
        prompt = self.comp.expr(s.prompt) if s.prompt else None
        meta = self.k((s.slot, prompt, T.CARDS))
        finder = self.h(self.comp.subset_finder(s))
        self._ask(f"st.ask(3, {self._who(s.by)}, {finder}(st, L), {meta})")

    def p_ChooseOption(self, s: N.ChooseOption) -> None:
        prompt = self.comp.expr(s.prompt) if s.prompt else None
        end = self._label()
        starts = []
        find = ["o_ = []"]  # the options open now, with their bound element
        for opt in s.options:
            c = self.comp.const(opt.cond) if opt.cond is not None else True
            if c is not _nc() and not c:
                continue
            entry = [opt.slot if opt.var is not None else -1, None, None, self.comp.expr(opt.label), -1]
            start = self._label()
            starts.append((start, opt))
            self._patch.append((entry, start))
            pad = ""
            if opt.var is not None:
                head = self._loop("x_", opt.coll)
                find += head
                self.local_names.append({opt.slot: "x_"})
                pad = "    " * len(head)
            if c is _nc():
                find.append(f"{pad}if {self.expr(opt.cond)}:")
                pad += "    "
            if opt.var is not None:
                self.local_names.pop()
            find.append(f"{pad}o_.append(({self.k(entry)}, {'x_' if opt.var is not None else 'None'}))")
        meta = self.k((None, prompt, None))
        self._blocks[-1].extend(find)
        if self.comp.spec.end_check == "always" and self.comp.spec.end_when is not None:
            self._ask(f"st.ask(2, {self._who(s.by)}, o_, {meta})")
        else:
            # State.ask and State.take inline when the seat's agent decides at once: its option's part runs next.
            resume = self._label()
            self._blocks[-1].extend([
                f"w_ = {self._who(s.by)}", f"fr[1] = \u00a7{resume}\u00a7",
                f"if st.auto is None or not o_ or len(o_) > {int(MAX_OPTIONS)}:",
                f"    if st.ask(2, w_, o_, {meta}):", "        return True",
                "    if st.stack[-1] is not fr:", "        return None", "    pc = fr[1]", "    continue",
                *_pending(2, "w_", "o_", meta, "st.g.budget"), *_agent_picks("w_"),
                "e_, x_ = o_[i]", "if e_[0] >= 0:", "    L[e_[0]] = x_", "pc = e_[4]", "continue"])
            self._place(resume)
        self._blocks[-1].extend(self._goto(end))  # never reached: apply() sets the part
        for start, opt in starts:
            self._place(start)
            self._blocks[-1].extend(self.hit("option", "option", opt))
            self._emit(opt.body)
            self._blocks[-1].extend(self._goto(end))
        self._place(end)

    def flow(self, ops: list, cycles: list, budget: int) -> Callable:
        """The game's flow as one function: each phase's turn cycle inline, the rest as calls of `ops`.

        A turn cycle has three entry points (its `Cycle` indices into `ops`):
        `start` begins a turn and runs its start effects, `loop` offers the
        turn's actions (and comes back there after each one), `end_at` ends the
        turn and begins the next one, unless the game or the phase ends.
        """
        lines = ["pc = fr[1]"]
        for cy in cycles:
            lines.append(f"if {int(cy.start)} <= pc <= {int(cy.end_at)}:")
            lines += ["    " + ln for ln in self._cycle(cy, budget)]
        name = self.fresh("FLOW_")
        # The other steps (setup, phase starts and ends, round counting) one after another in this call, as
        # long as none of them pauses, ends the game or leaves a frame to run; a turn cycle is entered anew.
        cycle = " or ".join(f"{int(cy.start)} <= pc <= {int(cy.end_at)}" for cy in cycles)
        lines += ["while True:", f"    op = {self.k(ops)}[pc]", "    fr[1] = pc + 1", "    r = op(st, fr)",
                  "    if r is not None or st.stack[-1] is not fr:", "        return r", "    pc = fr[1]",
                  f"    if {cycle}:", f"        return {name}(st, fr)"]
        return self.define(name, _alias_state(f"def {name}(st, fr):\n" + "".join(f"    {ln}\n" for ln in lines),
                                              cur=False))

    def _cycle(self, cy, budget: int) -> list[str]:
        loop, end_at, start = int(cy.loop), int(cy.end_at), int(cy.start)
        out = [f"L = {self.k(cy.scratch)}", "while True:", f"    if pc == {loop}:", "        if st.turn_over:"]
        out += [f"            pc = {end_at}"]
        if cy.turn_end is not None:  # the turn's end effects, then `end_at`
            out += ["            " + ln for ln in self._run_now(cy.turn_end, end_at)]
        out += ["        else:"]
        out += ["            " + ln for ln in self._decide(cy, budget)]
        out += [f"    if pc == {end_at}:", "        st.in_turn = False"]
        if cy.end_when is not None:
            out += [f"        if {self._cond(cy.end_when)}:", "            return st.finish()"]
        out += ["        st.cur = st.pass_turn()" if self.comp.turn_order else "        st.cur = (st.cur + 1) % st.n"]
        if cy.until is not None:
            out += [f"        if {self._cond(cy.until)}:", f"            fr[1] = {int(cy.done)}", "            return None"]
        elif cy.round_slot >= 0:  # a phase without `until`: its round ends when every player has had a turn
            out += [f"        if st.turn - fr[2][{int(cy.round_slot)}] >= st.n:", f"            fr[1] = {int(cy.done)}",
                    "            return None"]
        out += [f"        pc = {start}"]
        # Begin a turn: the step budget, stall detection, fresh turn variables.
        out += [f"    if pc == {start}:"]
        out += ["        if st.halt:", f"            fr[1] = {start}", "            return True"]  # a search's copy: judged here
        if self.comp.turn_order:  # a seat chosen outside a turn (setup, a phase's start or end) plays now
            out += ["        if st.nxt >= 0:", "            st.cur = st.nxt", "            st.nxt = -1"]
        out += ["        st.turn += 1", *(["        POS[0] = None"] if self.locate else []),
                *("        " + ln for ln in _tick(str(int(budget)))),
                "        st.quiet += 1",
                f"        if st.quiet > {int(cy.quiet_rounds)} * st.n:", f"            {self.h(cy.stalled)}(st)",
                f"        st.tvars = {self.k(cy.tvar_start)}[:]", "        st.turn_over = False", "        st.in_turn = True",
                "        if st.log is not None:", "            st.event('turn', turn=st.turn, player=st.cur)",
                f"        pc = {loop}"]
        if cy.turn_start is not None:
            out += ["        " + ln for ln in self._run_now(cy.turn_start, loop)]
        return out

    def _run_now(self, prog, resume: int) -> list[str]:
        """Run a program at once; back to the engine only if it pauses or left a call to run."""
        return [f"fr[1] = {int(resume)}", f"p = {self.k(prog)}", f"a = [None] * {int(prog.n_locals)}",
                *self._call_now("p", "a", f"pc = {int(resume)}")]

    @staticmethod
    def _call_now(p: str, a: str, after: str) -> list[str]:
        """Run program `p` with locals `a` from the flow: without a frame when it can never pause."""
        return [f"if {p}.plain is not None:",
                "    try:", f"        if {p}.plain(st, {a}):", "            return True",
                "    except Exception:",  # the engine names the rule that failed: it must be on the stack
                f"        st.stack.append([{p}, 0, {a}])", "        raise", f"    {after}",
                "else:", f"    f = [{p}, 0, {a}]", "    st.stack.append(f)", f"    if {p}.fn(st, f):",
                "        return True", "    if st.stack[-1] is not fr:", "        return None"]

    def _loop(self, var: str, coll: N.Expr) -> list[str]:
        """`for var in coll:` with a filter's condition as an `if` inside (no list is built)."""
        if not isinstance(coll, N.Filter) or coll.stop:
            return [f"for {var} in {self.coll(coll)}:"]
        self.local_names.append({coll.slot: var})
        cond = self.expr(coll.cond)
        self.local_names.pop()
        return [f"for {var} in {self.coll(coll.coll)}:", f"    if {cond}:"]

    def _cond(self, code) -> str:
        self.codes.append(code)
        try:
            if self.locate:
                return self._marked(code.ast)
            return self.expr(code.ast)
        finally:
            self.codes.pop()

    def _decide(self, cy, budget: int) -> list[str]:
        """The turn's action decision: the legal actions, in the spec's order, then the pause."""
        out = ["found = []"]
        for i, (when, params) in enumerate(zip(cy.whens, cy.params)):
            body: list[str] = []
            names: dict[int, str] = {}
            pad = ""
            for k, p in enumerate(params):  # one loop per parameter; later ones may read earlier ones
                self.local_names.append(dict(names))
                self.codes.append(p)
                head = self.mark(p.ast) + self._loop(f"a{k}", p.ast)
                self.codes.pop()
                self.local_names.pop()
                body += [pad + ln for ln in head]
                names[k] = f"a{k}"
                pad += "    " * len(head)
            if params:
                body += [f"{pad}found.append(({i}, ({''.join(f'a{k}, ' for k in range(len(params)))})))",
                         f"{pad}if len(found) > {int(cy.max_options)}:", f"{pad}    {self.h(cy.too_many)}()"]
            else:
                body.append(f"found.append({i})")
            if when is None or when.ast is None:
                out += body
            else:
                out += [f"if {self._cond(when)}:"] + ["    " + ln for ln in body]
        # The legal actions are listed for the player to move, read once (a condition cannot move the turn on).
        out = ["me_ = st.cur", *(re.sub(r"\bst\.cur\b", "me_", ln) for ln in out)]
        out += ["if not found:", f"    {self.h(cy.no_action)}(st)", "    continue", "st.idle = 0"]
        if cy.end_always and cy.end_when is not None:
            out += [f"if {self._cond(cy.end_when)}:", "    return st.finish()"]
        # The pause (State.ask, inline): one step of the budget, then the decision is pending.
        out += [*_pending(0, "st.cur", "found", self.k(cy.actions), str(int(budget))), f"fr[1] = {int(cy.loop)}",
                "if st.auto is None:", "    return True",
                # The seat's agent decides now; the chosen action runs at once (State.take for actions).
                *_agent_picks("st.cur"), "o = found[i]",
                "if type(o) is int:", f"    p = {self.k(cy.programs)}[o]", "    a = [None] * p.n_locals",
                "else:", f"    p = {self.k(cy.programs)}[o[0]]", "    a = [*o[1]] + [None] * (p.n_locals - len(o[1]))",
                *self._call_now("p", "a", "continue")]
        return out

    # -- output -----------------------------------------------------------------------------
    def define(self, name: str, src: str, code: Any = None) -> Callable:
        """Compile one generated definition into the shared namespace (`code`: the rule it comes from)."""
        self.defs.append(src)
        # The source is the compiler's own text (see the module docstring).
        try:
            exec(compile(src, f"<rulewright {name}>", "exec"), self.ns)
        except (SyntaxError, RecursionError, MemoryError):
            # Python's own limits (nested blocks, parentheses) met by procedures and functions inlined
            # into each other: a spec error at the rule being compiled, not a crash.
            code = code or next((c for c in reversed(self.codes) if c is not None), None)
            raise SpecError([Diagnostic(
                "E443", "these rules nest too deeply (with the procedures and functions they use) to compile",
                code.span if code is not None else None,
                hint="move inner loops or long expressions into procedures or functions")]) from None
        return self.ns[name]

    def expression(self, e: N.Expr) -> Callable:
        """An expression as a function `f(st, L)`."""
        name = self.fresh("E_")
        if self.locate and self.codes and self.codes[-1] is not None and self.codes[-1].ast is e:
            return self.define(name, f"def {name}(st, L):\n    return {self._marked(e)}\n")
        return self.define(name, f"def {name}(st, L):\n    return {self.expr(e)}\n")

    def _marked(self, e: N.Expr) -> str:
        """Locate mode: an expression that records where it is before it is evaluated."""
        m = self.mark(e)
        return f"(_m(POS, {m[0][9:]}) or ({self.expr(e)}))" if m else self.expr(e)

    def source(self) -> str:
        return "\n".join(self.defs)


class Together:
    """Where a `choose together` keeps its state in a frame's locals, and how to list a player's options:
    what determinization needs to re-draw the choices a player has not seen."""
    __slots__ = ("choice", "player", "players", "index", "picks", "source", "ty")

    def __init__(self, choice, player, players, index, picks, source, ty):
        self.choice, self.player, self.players, self.index, self.picks = choice, player, players, index, picks
        self.source, self.ty = source, ty

    def options(self, st, L) -> list:
        v = self.source(st, L)
        return list(st.zones[v]) if self.ty is T.ZONE else list(v)


def _is_players(e: N.Expr) -> bool:
    return isinstance(e, N.Name) and e.ref[0] == "players"


def _is_count(e: N.Expr) -> bool:
    """`count(...)`: at most MAX_LIST."""
    return isinstance(e, N.Call) and e.ref == ("builtin", "count")


def _is_players_count(e: N.Expr) -> bool:
    """`count(players)`: at least 1."""
    return _is_count(e) and isinstance(e.args[0], N.Name) and e.args[0].ref[0] == "players"


def _narration_only(s: N.Stmt) -> bool:
    if isinstance(s, N.Say):
        return True
    if isinstance(s, N.If):
        bodies = [b for _, b in s.branches] + ([s.orelse] if s.orelse else [])
        return all(all(_narration_only(x) for x in b) for b in bodies)
    return False


def _pure_jump(block: list[str]) -> int | None:
    """The label a part jumps to when that is all it does."""
    if len(block) == 2 and block[1] == "continue" and block[0].startswith("pc = \u00a7"):
        return int(block[0][6:-1])
    return None


_JUMP = re.compile(r"^\s*(?:pc|fr\[1\]) = (\d+)$")  # where a line of a resolved part sends `pc`
_MAX_ELSE_NESTING = 20  # well inside Python's limits on nested blocks, whatever the part is nested in


def _skip_by_else(part: list[str], k: int, depth: int = 0) -> list[str]:
    """Part `k` without `continue` for its forward jumps: they fall through the `if pc == ...` tests below.

    `if c: pc = N; continue; rest` becomes `if c: pc = N else: rest`, so the
    rest of the part is skipped without going round the dispatch loop again.
    """
    out: list[str] = []
    for i, ln in enumerate(part):
        if (depth < _MAX_ELSE_NESTING and ln.startswith("if ") and ln.endswith(":") and i + 2 < len(part)
                and part[i + 1].startswith("    pc = ") and part[i + 2] == "    continue"
                and part[i + 1][9:].isdigit() and int(part[i + 1][9:]) > k):
            rest = _skip_by_else(part[i + 3:], k, depth + 1)
            return out + [ln, part[i + 1], "else:"] + ["    " + x for x in rest or ["pass"]]
        out.append(ln)
    if (len(out) >= 2 and out[-1] == "continue" and out[-2].startswith("pc = ") and out[-2][5:].isdigit()
            and int(out[-2][5:]) > k):
        out.pop()
    return out


def _resolve_labels(line: str, labels: dict[int, int]) -> str:
    parts = line.split("\u00a7")
    for i in range(1, len(parts), 2):
        parts[i] = str(labels[int(parts[i])])
    return "".join(parts)


# Parts of the state whose list object never changes while a game runs (only their items do): a
# generated function reads each once, into a local, when it reads it at all.
_STATE_LISTS = (("st.zones", "Z_"), ("st.where", "W_"), ("st.gvars", "G_"), ("st.pvars", "P_"), ("st.zsum", "S_"))


def _alias_state(src: str, cur: bool = True) -> str:
    """`src` with the state lists read once at its top; with `cur`, the current player too (only the flow
    moves the turn on, so inside a program `st.cur` never changes)."""
    head, _, body = src.partition("\n")
    aliases = []
    for attr, alias in _STATE_LISTS + ((("st.cur", "C_"),) if cur else ()):
        if attr in body:
            body = body.replace(attr, alias)
            aliases.append(f"    {alias} = {attr}\n")
    return head + "\n" + "".join(aliases) + body


def _tick(budget: str = "st.g.budget", depth: bool = False) -> list[str]:
    """State.tick inline (one step of the budget; with `depth`, the call depth too): it is called only to raise."""
    test = f"st.steps >= {budget}" + (f" or len(st.stack) > {int(MAX_CALL_DEPTH)}" if depth else "")
    return [f"if {test}:", "    st.tick()  # raises", "st.steps += 1"]


def _inline_ticks(part: list[str]) -> list[str]:
    """Every `st.tick()` line of a part inline."""
    out = []
    for ln in part:
        if ln.strip() == "st.tick()":
            pad = ln[:len(ln) - len(ln.lstrip())]
            out += [pad + t for t in _tick(depth=True)]
        else:
            out.append(ln)
    return out


def _pending(kind: int, who: str, opts: str, meta: str, budget: str) -> list[str]:
    """State.ask, inline: one step of the budget, then the decision is pending."""
    return [*_tick(budget), "st.quiet = 0", f"st.pkind = {int(kind)}", f"st.pplayer = {who}", f"st.popts = {opts}",
            f"st.pmeta = {meta}"]


def _agent_picks(who: str) -> list[str]:
    """The start of State.take, inline, for an agent that decides at once (State.auto): it picks `i`."""
    return [f"i = st.auto[{who}].pick(st)", "st.choices.append(i)", "st.decisions += 1",
            "if st.log is not None:", "    st.log_choice(i)", "st.popts = None"]


def _each(st, items) -> list:
    """A `for each` list, its iterations charged to the step budget."""
    items = list(items)
    st.spend(len(items))
    return items


def _work(st, items):
    """A list an expression goes through (a filter, a mapped list, an aggregate), its length charged to the
    step budget: a step per WORK_PER_STEP elements (lang/limits.py). Returns `items`."""
    w = st.work + len(items)
    if w >= WORK_PER_STEP:
        st.spend(w // WORK_PER_STEP)
        w %= WORK_PER_STEP
    st.work = w
    return items


def _seen(cov: list, i: int, value: Any) -> Any:
    cov[i] += 1
    return value


def _best(items, get, pick) -> list:
    items = list(items)
    if not items:
        return []
    top = pick(map(get, items))
    return [x for x in items if get(x) == top]


def _best_of(keyed: list, pick) -> list:
    """The elements of (element, value) pairs that share the highest (lowest) value; each value computed once."""
    if not keyed:
        return []
    top = pick(k for _x, k in keyed)
    return [x for x, k in keyed if k == top]


def _first(items):
    if not items:
        raise RuleError("first of an empty list")
    return items[0]


def _mark(pos: list, i: int) -> None:
    """Locate mode: `i` is the rule text that runs now (returns None, so `_m(...) or x` is `x`)."""
    pos[0] = i


def _seat(st, k: int) -> int:
    if not 1 <= k <= st.n:
        raise RuleError(f"seat({k}): there are {st.n} players")
    return k - 1


def _top(st, z: int) -> int:
    cards = st.zones[z]
    if not cards:
        raise RuleError(f"top of {st.g.zone_name(z)}: the zone is empty")
    return cards[-1]


class _Keys(dict):
    """The variable slots of a keyed variable by key; looking up a key it does not have is a rule error."""
    __slots__ = ("name",)

    def __init__(self, table: dict, name: str):
        super().__init__(table)
        self.name = name

    def __missing__(self, k: Any) -> int:
        raise RuleError(f"'{k}' is not a key of '{self.name}' (keys: {', '.join(map(str, self))})")


def _L(L: list | None, pairs: tuple, need: int = 0) -> list:
    out = list(L) if L is not None else []
    need = max([need] + [k + 1 for k, _ in pairs])
    if len(out) < need:
        out.extend([None] * (need - len(out)))
    for k, v in pairs:
        out[k] = v
    return out


_SIMPLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*(\[[0-9]+\])?$|^-?[0-9]+$")

_SAFE_BUILTINS = {"len": len, "sum": sum, "map": map, "list": list, "max": max, "min": min, "abs": abs,
                  "range": range, "type": type, "int": int, "Exception": Exception, "any": any, "all": all}


def _nc():
    from .compiler import _NOCONST
    return _NOCONST
