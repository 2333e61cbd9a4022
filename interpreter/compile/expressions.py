"""Generated Python for expressions: each node of the intermediate form (lower/ir.py) as a Python expression.

Owns `ExprGen`, the part of the code generator (codegen.PyGen) that turns a
lowered expression into a Python expression string over the state (`st`) and
the frame (`L`). Lowering has resolved every name (slots, zones, properties,
keyed variables, cells, options, readings); this part only decides how the
Python engine runs each node, with the Python engine's values: a text is a
Python string (an interned text is read back through the constants table), a
cell a `boards.Cell` of this game's board. Options and readings are fixed for
a compiled game, so `fold` gives a node's value when they decide it and
untaken branches are never emitted. A builtin is a call of its `run` function
(lang/builtins.py); where computing one inline means the same (`count` as
`len`, a kept zone sum, "some player has ..." as one look at a variable's
row), a shortcut does, unless the generator is made without them
(`PyGen(comp, shortcuts=False)`, which the tests compare with).
"""
from __future__ import annotations

import re
from typing import Any

from ..lang import boards, nodes as N
from ..lang.builtins import BUILTINS, MAX_LIST, MAX_NUMBER, PROP
from ..lang.kinds import COLLECTIONS, ELEMENT, T
from ..lower import ir
from .support import _Keys, _nc


_CMP = {"==", "!=", "<", "<=", ">", ">="}


_ARITH = {"+", "-", "*"}


def _is_players(x: ir.X) -> bool:
    return isinstance(x, ir.Special) and x.what == "players"


def _is_count(x: ir.X) -> bool:
    """`count(...)`: at most MAX_LIST."""
    return isinstance(x, ir.Builtin) and x.name == "count"


def _is_players_count(x: ir.X) -> bool:
    """`count(players)`: at least 1."""
    return _is_count(x) and _is_players(x.args[0])


def _named(x: ir.X) -> bool:
    """A value the rules name with one word (a local, `me`, a zone, a global variable): cheap to read twice."""
    return isinstance(x, (ir.Local, ir.Special, ir.Const, ir.ConstList, ir.BoardRef, ir.CellName)) or \
        isinstance(x, ir.Zone) and x.owner is None or isinstance(x, ir.Var) and x.scope == "global"


def _reads_local(x: ir.X, slot: int) -> bool:
    return any(isinstance(n, ir.Local) and n.slot == slot for n in ir.walk(x))


_SIMPLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*(\[[0-9]+\])?$|^-?[0-9]+$")


class ExprGen:
    """Expressions as Python source (a part of PyGen)."""

    # -- from the checked tree -------------------------------------------------------
    def ir_of(self, e: N.Expr | ir.X) -> ir.X:
        """The lowered form of an expression the generator is handed (one of the checked tree, from the
        engine or the lab, is lowered once, here)."""
        if not isinstance(e, N.Node):
            return e
        code = next((c for c in reversed(self.codes) if c is not None), None)
        if code is not None and code.ast is e:  # a whole condition: the compiler lowered it
            return self.comp.lowered(code)
        got = self._lowered.get(id(e))
        if got is None or got[0] is not e:
            got = self._lowered[id(e)] = (e, self.comp.lowerer.lowered(code, e))
        return got[1]

    def param_tag(self, node: ir.If | ir.X) -> str | None:
        """"reading" when a condition (an `if`: any of its conditions) reads an ambiguity's reading, else
        "option" when it reads an option, else None: a branch only some variants take."""
        conds = [c for c, _ in node.branches] if isinstance(node, ir.If) else [node]
        kinds = {n.kind for n in ir.walk(conds) if isinstance(n, ir.Param)}
        return "reading" if "reading" in kinds else "option" if "option" in kinds else None

    # -- values ----------------------------------------------------------------------
    def fold(self, x: ir.X) -> Any:
        """The value of an expression when the options and readings fix it, else `_NOCONST` (compiler.py)."""
        return self.comp.const(x)

    # -- expressions -------------------------------------------------------------------
    def expr(self, x: ir.X) -> str:
        c = self.fold(x)
        if c is not _nc():
            return self.lit(c)
        return getattr(self, "x_" + type(x).__name__)(x)

    def coll(self, x: ir.X) -> str:
        src = self.expr(x)
        return f"st.zones[{src}]" if x.ty is T.ZONE else src

    def x_Local(self, x: ir.Local) -> str:
        return self.local(x.slot)

    def x_Special(self, x: ir.Special) -> str:
        return {"me": "st.cur", "players": "st.seats", "others": "st.others[st.cur]", "winners": "st.winners"}[x.what]

    def x_Var(self, x: ir.Var) -> str:
        if x.scope == "player":
            return f"st.pvars[{int(x.index)}][{self.expr(x.owner)}]"
        return f"{'st.gvars' if x.scope == 'global' else 'st.tvars'}[{int(x.index)}]"

    def x_Zone(self, x: ir.Zone) -> str:
        if x.owner is None:
            return str(int(x.index))
        return f"({int(self.comp.S + x.index)} + ({self.expr(x.owner)}) * {int(self.comp.P)})"

    def x_ConstList(self, x: ir.ConstList) -> str:
        # a copy, so rules cannot change it
        return f"list({self.k(tuple(self.comp.value(ELEMENT[x.ty], v) for v in x.values))})"

    def x_BoardRef(self, x: ir.BoardRef) -> str:  # the board's geometry (interpreter/lang/boards.py)
        return self.k(self.comp.boards[self.comp.lowerer.boards[x.index].name])

    def x_Const(self, x: ir.Const) -> str:  # only a cell is not folded
        lb = self.comp.lowerer.boards
        b = max((b for b in lb if b.base <= x.value), key=lambda b: b.base)
        drawn, column = divmod(x.value - b.base, b.max_columns)
        return self._cell(lb.index(b), boards.cell_name(b.max_rows - drawn if b.bottom else drawn + 1, column + 1))

    def x_CellName(self, x: ir.CellName) -> str:
        return self._cell(x.board, boards.cell_name(x.row, x.column))

    def _cell(self, index: int, name: str) -> str:
        """`a8`: the cell itself; a smaller board (options) may lack it."""
        board = self.comp.boards[self.comp.lowerer.boards[index].name]
        if name in board.named:
            return self.k(board.named[name])
        return f"_fail({self.k(f'cell {name} is off the board: {board.name} has {board.sizes()}')})"

    def x_Param(self, x: ir.Param) -> str:  # a reading, only reached in coverage mode (otherwise a constant)
        line = self.hit("reading", x.name, x)[0]
        return f"_seen(COV, {int(line[4:line.index(']')])}, {self.k(self.comp.readings[x.name])})"

    def x_Seat(self, x: ir.Seat) -> str:
        return f"(({self.expr(x.player)}) + 1)"

    def x_Prop(self, x: ir.Prop) -> str:
        table = tuple(self.comp.card_type) if x.name == "type" else self.comp.props[x.name]
        return f"{self.k(table)}[{self.expr(x.card)}]"

    def x_CellPart(self, x: ir.CellPart) -> str:
        return f"({self.expr(x.cell)}).{'row' if x.part == 'row' else 'column'}"

    def x_Keyed(self, x: ir.Keyed) -> str:
        row, slot = self._keyed(x)
        return f"{row}[{slot}]"

    def _keyed(self, x: ir.Keyed) -> tuple[str, str]:
        """`x[key]` of a keyed variable as (its row, the index in that row)."""
        kv, table = self.comp.key_slots(x.scope, x.name)
        k = self.fold(x.key)
        if k is not _nc() and k in table:
            slot = str(int(table[k]))
        elif kv.board is not None and len(self.comp.boards) == 1 and self.shortcuts:  # every cell is the board's
            slot = f"{self.k(boards.slot_row(self.comp.boards[kv.board], table))}[({self.expr(x.key)}).index]"
        else:
            slot = f"{self._key_table(table, x.scope, kv.name)}[{self.expr(x.key)}]"
        if x.scope == "player":
            return f"st.pvars[{slot}]", self.expr(x.owner)
        return ("st.gvars" if x.scope == "global" else "st.tvars"), slot

    def _key_table(self, table: dict, scope: str, name: str) -> str:
        """A keyed variable's slots by key, as a constant whose lookup of a missing key is a rule error.
        One constant per variable (its scope and name fix its table within a compiled game), so the
        generated source is the same in every run (it was keyed by the table's `id`, which memory reuse
        made hit or miss from run to run)."""
        got = self._key_tables.get((scope, name))
        if got is None:
            got = self._key_tables[(scope, name)] = self.k(_Keys(table, name))
        return got

    def args(self, args: list, params: list[T]) -> list[str]:
        """Arguments of a function or procedure; a zone given for a `cards` parameter is its cards."""
        return [self.coll(a) if ty is T.CARDS else self.expr(a) for a, ty in zip(args, params)]

    def x_FuncCall(self, x: ir.FuncCall) -> str:
        f = self.comp.lowered_function(x.name)
        args = self.args(x.args, f.params)
        if self.shortcuts and x.name not in self._inlining and all(_SIMPLE.match(a) for a in args):
            # Inline the function's expression, its parameters bound to the (side-effect free) arguments.
            saved, self.local_names = self.local_names, [dict(enumerate(args))]
            self._inlining.add(x.name)
            try:
                return f"({self.expr(f.value)})"
            finally:
                self._inlining.discard(x.name)
                self.local_names = saved
        fn = self.function(x.name)
        return f"{fn}(st{''.join(', ' + a for a in args)})"

    def x_Builtin(self, x: ir.Builtin) -> str:
        if x.name == "index":  # a position in a list, from 1: a rule error past either end
            return f"_at({self.coll(x.args[0])}, {self.expr(x.args[1])})"
        return (self._shortcut(x) if self.shortcuts else None) or self.builtin(x)

    def builtin(self, x: ir.Builtin) -> str:
        """A builtin call as a call of its `run` function (lang/builtins.py), `B_<name>` in the namespace: a
        list or zone argument as its list of elements, a PROP argument as the function that reads it."""
        b = BUILTINS[x.name]
        args = ["st"] if b.state else []
        given = iter(x.args)
        for want, _ in zip(b.params, range(len(x.args) + (x.prop is not None))):
            if want == PROP:
                args.append(self._getter(x.prop))
            elif isinstance(want, frozenset):
                args.append(self.coll(next(given)))
            else:
                args.append(self.expr(next(given)))
        return f"B_{b.name}({', '.join(args)})"

    def _shortcut(self, x: ir.Builtin) -> str | None:
        """A builtin call computed inline, or with a cheaper call, where that means the same as its `run`
        function (the tests check each against `builtin`); None: no shortcut."""
        name, a, prop = x.name, x.args, x.prop
        if name == "count":
            return "st.n" if _is_players_count(x) else f"len({self.coll(a[0])})"
        if name == "top":  # a zone cheap to work out twice: no call when it has cards
            if _named(a[0]) or isinstance(a[0], ir.Zone) and _named(a[0].owner):
                z = self.expr(a[0])
                return f"(st.zones[{z}][-1] if st.zones[{z}] else B_top(st, {z}))"
            return None  # nothing generated yet: the general form generates its argument once
        if name == "empty":
            return f"(not {self.coll(a[0])})"
        if name == "sum" and prop is not None and a[0].ty is T.ZONE and prop[0] == "prop" \
                and prop[2] in self.comp.summed:
            return f"st.zsum[{int(self.comp.summed[prop[2]])}][{self.expr(a[0])}]"  # kept up to date by moves
        if name in ("sum", "highest", "lowest"):
            fn, tail = {"sum": ("sum", ""), "highest": ("max", ", default=0"), "lowest": ("min", ", default=0")}[name]
            if prop is None:
                return f"{fn}({self.coll(a[0])}{tail})"
            if _is_players(a[0]) and prop[0] == "pvar":  # a player variable's row holds every seat, in order
                return f"{fn}(st.pvars[{int(prop[1])}])"
            return f"{fn}(map({self._getter(prop)}, {self.coll(a[0])}){tail})"
        if name == "contains":
            return f"({self.expr(a[1])} in {self.coll(a[0])})"
        if name == "first" and len(a) == 2:
            return f"{self.coll(a[0])}[:max(0, {self.expr(a[1])})]"
        if name in ("step", "can_step") and len(self.comp.boards) == 1:
            return self._step(x)
        if name == "seat":
            k = self.fold(a[0])
            if type(k) is int and 1 <= k <= self.comp.spec.min_players:  # a seat every game has
                return str(k - 1)
            return None
        if name == "next":
            step = "st.order" if self.comp.turn_order else "1"  # the turn order's direction, when a rule can reverse it
            return f"(({self.expr(a[0])}) + {step}) % st.n"
        return None

    def _step(self, x: ir.Builtin) -> str | None:
        """`can_step`/`step` with a literal direction on a game with one board (every cell is then one of its
        cells): a look at the board's step table."""
        d = self.fold(x.args[1])
        if not isinstance(d, str) or d not in boards.DIRECTIONS:
            return None
        steps = self.k(next(iter(self.comp.boards.values())).steps[d])
        cell = self.expr(x.args[0])
        if x.name == "can_step":
            return f"({steps}[({cell}).index] is not None)"
        return f"_b_step_at({steps}, {cell}, {self.k(d)})"

    def _getter(self, prop: tuple) -> str:
        """A PROP argument as a lookup function: a card property table or a player variable row."""
        if prop[0] == "prop":
            return f"{self.k(self.comp.props[prop[2]])}.__getitem__"
        return f"st.pvars[{int(prop[1])}].__getitem__"

    def x_ListOf(self, x: ir.ListOf) -> str:
        return "[" + ", ".join(self.expr(i) for i in x.items) + "]"

    def worked(self, coll: ir.X) -> str:
        """A collection an expression goes through, its length charged to the step budget (limits.WORK_PER_STEP)."""
        return self.coll(coll) if _is_players(coll) else f"_work(st, {self.coll(coll)})"

    def bound(self, slot: int, x: ir.X | None, name: str) -> str:
        """`x` with local `slot` read as the Python name `name` (a comprehension's element)."""
        if x is None:
            return ""
        self.local_names.append({slot: name})
        try:
            return self.expr(x)
        finally:
            self.local_names.pop()

    def x_Comprehension(self, x: ir.Comprehension) -> str:
        coll = self.worked(x.coll)
        v = self.fresh("v")
        if x.kind == "while":  # `[x in coll while cond]`: up to the first element that fails (nothing after it)
            return f"list(_takewhile(lambda {v}: {self.bound(x.slot, x.cond, v)}, {coll}))"
        if x.kind == "filter":
            return f"[{v} for {v} in {coll} if {self.bound(x.slot, x.cond, v)}]"
        if x.kind in ("any", "all"):  # a generator: stops at the first witness
            return f"{x.kind}({self.bound(x.slot, x.cond, v)} for {v} in {coll})"
        value = self.bound(x.slot, x.value, v)
        cond = f" if {self.bound(x.slot, x.cond, v)}" if x.cond is not None else ""
        if x.kind == "map":
            return f"[{value} for {v} in {coll}{cond}]"
        if x.kind == "sum":
            return f"sum([{value} for {v} in {coll}{cond}])"
        if x.kind in ("highest", "lowest"):
            return f"{'max' if x.kind == 'highest' else 'min'}([{value} for {v} in {coll}{cond}], default=0)"
        return f"_best_of([({v}, {value}) for {v} in {coll}{cond}], {'max' if x.kind == 'best' else 'min'})"

    def x_LetIn(self, x: ir.LetIn) -> str:
        v = self.fresh("v")
        value = self.expr(x.value)
        # a lambda, not `:=`, which a comprehension's iterable refuses
        return f"(lambda {v}: {self.bound(x.slot, x.body, v)})({value})"

    def x_Unary(self, x: ir.Unary) -> str:
        inner = self.expr(x.operand)
        return f"(not {inner})" if x.op == "not" else f"(-{inner})"

    def x_Concat(self, x: ir.Concat) -> str:
        return f"({self.expr(x.left)} + {self.expr(x.right)})"

    def side(self, x: ir.X, other: ir.X) -> str:
        reading = self.comp.reading_text(x, other)
        return self.expr(x) if reading is None else self.lit(reading)

    def x_Binary(self, x: ir.Binary) -> str:
        op = x.op
        c = self.fold(x.right)
        some = self._some_player(x, c)
        if some is not None:
            return some
        if self.shortcuts and _is_count(x.left) and c == 0 and type(c) is int and op in ("==", ">", "!="):  # no len()
            inner = self.coll(x.left.args[0])
            return f"(not {inner})" if op == "==" else f"(not not {inner})"
        if op in ("and", "or"):
            # A side fixed by the options and readings drops out (`x or False` is `x`).
            neutral = op == "and"
            for side, other in ((x.left, x.right), (x.right, x.left)):
                fixed = self.fold(side)
                if self.shortcuts and fixed is not _nc() and bool(fixed) is neutral and other.ty is T.BOOL:
                    return self.expr(other)
            return f"({self.expr(x.left)} {op} {self.expr(x.right)})"
        if op == "+" and (x.left.ty in COLLECTIONS or x.ty in COLLECTIONS):
            return f"_join({self.coll(x.left)}, {self.coll(x.right)})"
        if op == "*":
            # A count times a modest constant cannot grow past the limit: a plain product.
            for a, b in ((x.left, x.right), (x.right, x.left)):
                factor = self.fold(a)
                if self.shortcuts and type(factor) is int and abs(factor) * MAX_LIST <= MAX_NUMBER and _is_count(b):
                    return f"({self.expr(x.left)} * {self.expr(x.right)})"
            return f"_mul({self.expr(x.left)}, {self.expr(x.right)})"
        if op in _CMP or op in _ARITH:
            return f"({self.side(x.left, x.right)} {op} {self.side(x.right, x.left)})"
        if op in ("//", "%"):
            if self.shortcuts and ((type(c) is int and c != 0) or _is_players_count(x.right)):  # never by zero
                return f"({self.expr(x.left)} {op} {self.expr(x.right)})"
            return f"{'_div' if op == '//' else '_mod'}({self.expr(x.left)}, {self.expr(x.right)})"
        raise AssertionError(op)

    def _some_player(self, x: ir.Binary, c: Any) -> str | None:
        """`count([p in players where p.v OP x]) > 0` (or `== 0`) as one look at v's row: max, min or `in`.

        `c` is the right side's value when the options and readings fix it."""
        if not (self.shortcuts and _is_count(x.left) and type(c) is int
                and (x.op, c) in ((">", 0), (">=", 1), ("!=", 0), ("==", 0))):
            return None
        f = x.left.args[0]
        if not (isinstance(f, ir.Comprehension) and f.kind == "filter" and _is_players(f.coll)
                and isinstance(f.cond, ir.Binary) and f.cond.op in (">=", ">", "<=", "<", "==")):
            return None
        v, bound = f.cond.left, f.cond.right
        if not (isinstance(v, ir.Var) and v.scope == "player" and isinstance(v.owner, ir.Local)
                and v.owner.slot == f.slot):
            return None
        if _reads_local(bound, f.slot):
            return None  # the bound reads the player too
        row, limit = f"st.pvars[{int(v.index)}]", self.expr(bound)
        test = {">=": f"max({row}) >= {limit}", ">": f"max({row}) > {limit}", "<=": f"min({row}) <= {limit}",
                "<": f"min({row}) < {limit}", "==": f"{limit} in {row}"}[f.cond.op]
        return f"(not ({test}))" if x.op == "==" else f"({test})"

    def x_Ternary(self, x: ir.Ternary) -> str:
        c = self.fold(x.cond)
        if c is not _nc():
            return self.expr(x.then if c else x.orelse)
        return f"({self.expr(x.then)} if {self.expr(x.cond)} else {self.expr(x.orelse)})"

    def x_Template(self, x: ir.Template) -> str:
        parts = []
        for p in x.parts:
            if not isinstance(p, ir.Hole):
                parts.append(self.k(self.comp.lowerer.strings[p]))
            elif p.value.ty is T.ZONE:  # a zone is shown as the cards in it
                parts.append(f"st.card_text({self.coll(p.value)}, {self.k(T.CARDS)})")
            elif p.value.ty in (T.CARD, T.CARDS):  # cards are marked for the seat-aware narration (runtime/redact.py)
                parts.append(f"st.card_text({self.expr(p.value)}, {self.k(p.value.ty)})")
            else:
                parts.append(self._secret_hole(p, f"st.g.show({self.expr(p.value)}, {self.k(p.value.ty)})"))
        return "''.join((" + ", ".join(parts) + ",))" if parts else self.k("")

    def _secret_hole(self, p: ir.Hole, shown: str) -> str:
        """A narration hole that reads hidden variables (lang/hidden.py), marked with the seats that may read
        it, so the seat-aware narration hides it from the others (runtime/redact.py)."""
        if not p.secret:
            return shown
        rows = self.k(tuple((scope, rows) for scope, rows, _owner in p.secret))
        owners = ", ".join("None" if owner is None else self.expr(owner) for _s, _r, owner in p.secret)
        return f"st.secret_text({shown}, {rows}, ({owners},))"
