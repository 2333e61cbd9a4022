"""Generated Python for expressions: names, attributes, calls, collections, arithmetic, templates.

Owns `ExprGen`, the part of the code generator (codegen.PyGen) that turns a
checked expression into a Python expression string over the state (`st`) and
the frame (`L`); what it cannot handle goes back to the closure compiler
(`H[i]`) through PyGen.hit.
"""
from __future__ import annotations

import re
from typing import Any

from ..lang import boards, hidden, nodes as N
from ..lang.builtins import MAX_LIST, MAX_NUMBER
from ..lang.kinds import COLLECTIONS, T
from .support import _Keys, _nc


_COLL_TYPES = (T.CARDS, T.PLAYERS, T.INTS, T.STRS)


_COLL_HELPERS = {"first": "_first", "last": "_last", "position": "_position", "after": "_after"}


# Builtins that are one call of a Python function on their arguments: (the function, whether the state
# comes first).
_CALLS = {"range": ("_range", False), "bottom": ("_bottom", True), "max": ("max", False), "min": ("min", False),
          "abs": ("abs", False), "random": ("_random_number", True)}


_CMP = {"==", "!=", "<", "<=", ">", ">="}


_ARITH = {"+", "-", "*"}


def _is_players(e: N.Expr) -> bool:
    return isinstance(e, N.Name) and e.ref[0] == "players"


def _is_count(e: N.Expr) -> bool:
    """`count(...)`: at most MAX_LIST."""
    return isinstance(e, N.Call) and e.ref == ("builtin", "count")


def _is_players_count(e: N.Expr) -> bool:
    """`count(players)`: at least 1."""
    return _is_count(e) and isinstance(e.args[0], N.Name) and e.args[0].ref[0] == "players"


_SIMPLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*(\[[0-9]+\])?$|^-?[0-9]+$")


class ExprGen:
    """Expressions as Python source (a part of PyGen)."""

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
            slot = f"{self._key_table(table, scope, kv.name)}[{self.expr(e.key)}]"
        if scope == "player":
            return f"st.pvars[{slot}]", self.expr(e.obj.obj)
        return ("st.gvars" if scope == "global" else "st.tvars"), slot

    def _key_table(self, table: dict, scope: str, name: str) -> str:
        """A keyed variable's slots by key, as a constant whose lookup of a missing key is a rule error.
        One constant per variable (its scope and name fix its table within a compiled game), so the
        generated source is the same in every run (it was keyed by the table's `id`, which memory reuse
        made hit or miss from run to run)."""
        got = self._key_tables.get((scope, name))
        if got is None:
            got = self._key_tables[(scope, name)] = self.k(_Keys(table, name))
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
        if name in _CALLS:
            fn, state = _CALLS[name]
            return f"{fn}({', '.join((['st'] if state else []) + [self.expr(x) for x in a])})"
        if name == "first" and len(a) == 2:
            return f"{self.coll(a[0])}[:max(0, {self.expr(a[1])})]"
        if name in _COLL_HELPERS:  # helper(list, value...)
            return f"{_COLL_HELPERS[name]}({self.coll(a[0])}{''.join(', ' + self.expr(x) for x in a[1:])})"
        if name in boards.CODEGEN:  # a board builtin (interpreter/lang/boards.py): helper(args)
            short = boards.codegen_call(self, name, a)
            if short is not None:
                return short
            return f"{boards.CODEGEN[name][0]}({', '.join(self.expr(x) for x in a)})"
        if name == "seat":
            k = self.comp.const(a[0])
            if type(k) is int and 1 <= k <= self.comp.spec.min_players:  # a seat every game has
                return str(k - 1)
            return f"_seat(st, {self.expr(a[0])})"
        if name == "next":
            step = "st.order" if self.comp.turn_order else "1"  # the turn order's direction, when a rule can reverse it
            return f"(({self.expr(a[0])}) + {step}) % st.n"
        if name in ("roll", "dice"):
            return f"{'sum(' if name == 'roll' else '('}_roll_dice(st, {self.expr(a[0])}, {self.expr(a[1])}))"
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
