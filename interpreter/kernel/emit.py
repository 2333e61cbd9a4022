"""The kernel backend's code generator: `ir.Game` -> Python source for numba's `@njit`, one module per spec.

Owns the meaning of each IR node on the flat state (layout.py): a game is one function `play` that runs
setup, the flow, every turn and the built-in random agent's choices to the end, with no option lists,
frames or labels; `batch` plays many games from their seeds. Options and readings are read from the
parameters array at run time, so one compiled module serves every variant.

Only the generator's own text goes into the source: functions are numbered (`B3`, `P1`, `F0`), every
table (card properties, constant lists, key maps) is a module constant of numbers, and no name or
text of the spec is ever pasted into it. What it cannot run raises `Unsupported` with the node's
position. The Python engine (`runtime/engine.py` with `compile/`) is the reference; tests replay kernel
games there (kernel/replay.py). The fixed helpers every module starts with are prelude.py's.

Why it is one long module: one generator class with one method per kind of IR node (ir.py), each
holding that node's meaning on the kernel; split by node kind, a reader would chase one `choose`
through several files.
"""
from __future__ import annotations

from typing import Any

from ..lang import boards as B
from ..lang.kinds import ELEMENT, T
from ..lang.limits import MAX_OPTIONS, WORK_PER_STEP
from ..lang.model import self_calling
from ..lower import ir
from . import layout as Y
from .unsupported import Unsupported
from .prelude import DRIVER as _DRIVER, RUNTIME as _RUNTIME

_LISTS = (T.CARDS, T.PLAYERS, T.INTS, T.STRS, T.CELLS)
_ARITH = {"+", "-", "*"}
_CMP = {"==", "!=", "<", "<=", ">", ">="}
MAX_DICE, MAX_SIDES = 100, 1_000
QUIET_ROUNDS = 50
ARENA = 1 << 14  # numbers of the lists rules make, per game array (prelude.py's `_new`; beyond: the heap)

VERSION = "11"  # bump when the generated code's meaning changes: cached kernels are rebuilt

# A builtin that is one call of a prelude helper: name (or name/argument count) -> (the helper, its
# arguments in order: "s" the state, "a" the next argument as an array, "v" the next as a value, a digit
# that number; "*": every argument as a value).
_HELPERS = {
    "max": ("max", "*"), "min": ("min", "*"), "abs": ("abs", "v"), "top": ("_top", "sv"), "bottom": ("_bottom", "sv"),
    "first/1": ("_first", "sa"), "first/2": ("_firstn", "sav"),
    "last/1": ("_last", "sa"), "last/2": ("_lastn", "sav"), "after": ("_after", "sav"), "seat": ("_seat", "sv"),
    "contains": ("_contains", "av"), "position": ("_position", "av"), "range": ("_range", "svv"),
    "sorted": ("_sorted", "sa"), "random": ("_random", "svv"), "roll": ("_roll", "svv"), "dice": ("_dice", "svv"),
    "cells": ("_cells", "sv"), "on_board": ("_on_board", "svvv"), "step": ("_step", "svv"),
    "can_step": ("_can_step", "svv"), "neighbours": ("_around", "sv04"), "diagonals": ("_around", "sv44"),
    # dice rolled as a seat (lang/hidden.py): for every seat to see, or for that seat's eyes only
    "player_roll": ("_roll_as", "svvv"), "secret_roll": ("_roll_as", "svvv"), "player_dice": ("_dice_as", "svvv"),
    "secret_dice": ("_dice_as", "svvv"),
}


def _cell_name(c: ir.CellName) -> str:
    return (f"the cell {B.COLUMN_NAMES[c.column - 1]}{c.row} of a board numbered from the bottom whose rows "
            "depend on options")


def _narration_only(s: ir.S) -> bool:
    if isinstance(s, (ir.Say, ir.Pass)):
        return True
    if isinstance(s, ir.If):
        return all(_narration_only(x) for _c, body in s.branches for x in body) and \
            all(_narration_only(x) for x in s.orelse or [])
    return False


class Emitter:
    """Writes the source of one kernel module (see the module docstring)."""

    def __init__(self, g: ir.Game, interchange: Any = None):
        self.g = g
        self.interchange = interchange  # compile/interchange.Interchange: identical cards make one option
        # Sums and counts of a whole zone by card values alone are kept up to date at every move (as the
        # engine keeps `sum(zone, prop)`): one lookup instead of a walk over the zone.
        self.kept_tables: list[tuple[int, ...]] = []
        for node in ir.walk([g.procedures, g.functions, g.setup, g.first, g.phases, g.end_when, g.winners,
                           g.skip_if, g.measures]):
            table = _kept(node, g.n_cards)
            if table is not None and table not in self.kept_tables:
                self.kept_tables.append(table)
        self.Y = Y.Layout.of(g, len(self.kept_tables))
        self.consts: list[str] = []  # module constants: `K<i> = np.array([...])`
        self._const_ids: dict[tuple, str] = {}
        self.defs: list[str] = []
        self.lines: list[str] = []
        self.depth = 0
        self._n = 0
        self.proc_ids = {name: f"P{i}" for i, name in enumerate(g.procedures)}
        self.func_ids = {name: f"F{i}" for i, name in enumerate(g.functions)}
        self.max_params = max([len(a.params) for ph in g.phases for a in ph.turn.actions] + [1])
        # Everything a game reads lives in its one array (see _RUNTIME): where each block starts.
        self.PAR = self.Y.size
        self.WK = self.PAR + self.Y.n_params
        self.WKC = self.max_params + 1
        self.TOP = self.WK + (MAX_OPTIONS + 2) * self.WKC  # the arena's next free number, then the arena
        self.RCH = self.TOP + 1 + ARENA
        self.in_function = False
        self._check_recursion()
        self._check_game()
        if g.boards:
            self.maxc = g.boards[0].max_columns
        else:
            self.maxc = 1

    def _check_recursion(self) -> None:
        calls: dict[str, set[str]] = {}
        for name, p in self.g.procedures.items():
            found: set[str] = set()
            _calls(p.block.body, found)
            calls[name] = found
        recursive = self_calling(calls)
        for name in calls:
            if name in recursive:
                p = self.g.procedures[name]
                raise Unsupported(f"procedure '{name}' calls itself (recursion) and is not yet on the kernel",
                                  (p.block.body[0].at if p.block.body else None))

    def _check_game(self) -> None:
        """What the kernel does not run that lowering expresses (the Python engine runs it)."""
        g = self.g
        if len(g.boards) > 1:
            raise Unsupported("a spec with more than one board is not yet on the kernel", span=g.boards[1].span)
        if g.triggers:
            raise Unsupported("triggers are not yet on the kernel", span=g.triggers[0].span)
        for v in g.gvars + g.pvars + g.tvars:
            if v.start is None:
                raise Unsupported(f"{_cell_name(v.cell)} is not yet on the kernel", span=v.span)

    # -- plumbing ----------------------------------------------------------------------------------
    def tmp(self, prefix: str = "t") -> str:
        self._n += 1
        return f"{prefix}{self._n}_"

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def const_array(self, values: tuple) -> str:
        key = tuple(int(v) for v in values)
        if key not in self._const_ids:
            name = f"K{len(self._const_ids)}"
            self._const_ids[key] = name
            self.consts.append(f"{name} = np.array([{', '.join(str(v) for v in key)}], dtype=np.int64)"
                               if key else f"{name} = np.zeros(0, dtype=np.int64)")
        return self._const_ids[key]

    def no(self, what: str, node: Any) -> Unsupported:
        return Unsupported(f"{what} is not yet on the kernel", getattr(node, "at", None))

    def loc(self, slot: int, ty: T) -> str:
        return f"l{int(slot)}{'a' if ty in _LISTS else 'i'}"

    def capture(self, fn, *args) -> tuple[list[str], Any]:
        """Run an emitting function into a separate buffer: (its lines, its result)."""
        saved, self.lines = self.lines, []
        try:
            result = fn(*args)
        finally:
            produced, self.lines = self.lines, saved
        return produced, result

    # -- values ------------------------------------------------------------------------------------
    def player_zone(self, index: int, owner: str) -> str:
        return f"({self.Y.n_shared} + ({owner}) * {self.Y.n_player_zones} + {int(index)})"

    def arr(self, x: ir.X) -> str:
        """A collection as an int64 array (a zone as a view of its cards)."""
        if x.ty is T.ZONE:
            return f"_zv(st, {self.ex(x)})"
        return self.ex(x)

    def ex(self, x: ir.X) -> str:
        fn = getattr(self, "x_" + type(x).__name__, None)
        if fn is None:
            raise self.no(f"the expression {type(x).__name__}", x)
        return fn(x)

    def scalar(self, x: ir.X) -> str:
        """An expression as a local int64 (computed now)."""
        v = self.ex(x)
        t = self.tmp()
        self.line(f"{t} = np.int64({v})")
        return t

    def x_Const(self, x: ir.Const) -> str:
        return str(int(x.value))

    def x_CellName(self, x: ir.CellName) -> str:
        raise self.no(_cell_name(x), x)

    def x_Template(self, x: ir.Template) -> str:
        raise self.no("a text with {holes} as a value", x)

    def x_ConstList(self, x: ir.ConstList) -> str:
        return self.const_array(x.values)

    def x_Param(self, x: ir.Param) -> str:
        if x.kind == "reading":  # counted where it is read, as the engine's coverage counts it
            self.line(f"st[{self.Y.cov + int(x.index)}] += 1")
            return f"st[{self.PAR + self.Y.read + int(x.index)}]"
        return f"st[{self.PAR + self.Y.opt + int(x.index)}]"

    def var_slot(self, x: ir.Var) -> str:
        Yl = self.Y
        if x.scope == "global":
            return str(Yl.gv + int(x.index))
        if x.scope == "turn":
            return str(Yl.tv + int(x.index))
        return f"{Yl.pv + int(x.index) * Yl.max_players} + {self.ex(x.owner)}"

    def x_Var(self, x: ir.Var) -> str:
        return f"st[{self.var_slot(x)}]"

    def keyed_slot(self, x: ir.Keyed) -> str:
        Yl = self.Y
        k = self.scalar(x.key)
        kind = x.keys[0]
        if kind == "range":
            lo, hi = int(x.keys[1]), int(x.keys[2])
            self.line(f"if {k} < {lo} or {k} > {hi}:")
            self.line(f"    _stop(st, 10)")
            self.line(f"    {k} = {lo}")
            off = f"({k} - {lo})"
        elif kind == "cell":
            off = f"({k} - {int(x.keys[1])})" if x.keys[1] else k
        else:
            table = x.keys[1]
            if any(k < 0 for k in table):
                raise self.no("a keyed variable with a key below 0", x)
            size = max(table) + 1 if table else 1
            arr = self.const_array(tuple(table.get(i, -1) for i in range(size)))
            o = self.tmp("o")
            self.line(f"{o} = {arr}[{k}] if 0 <= {k} < {size} else -1")
            self.line(f"if {o} < 0:")
            self.line(f"    _stop(st, 10)")
            self.line(f"    {o} = 0")
            off = o
        if x.scope == "global":
            return f"{Yl.gv + int(x.base)} + {off}"
        if x.scope == "turn":
            return f"{Yl.tv + int(x.base)} + {off}"
        return f"{Yl.pv + int(x.base) * Yl.max_players} + ({off}) * {Yl.max_players} + {self.ex(x.owner)}"

    def x_Keyed(self, x: ir.Keyed) -> str:
        return f"st[{self.keyed_slot(x)}]"

    def x_Local(self, x: ir.Local) -> str:
        return self.loc(x.slot, x.ty)

    def x_Special(self, x: ir.Special) -> str:
        if x.what == "me":
            return f"st[{Y.CUR}]"
        if x.what == "players":
            return f"_range(st, 0, st[{Y.N}] - 1)"
        if x.what == "others":
            return "_others(st)"
        return "_winners(st)"

    def x_Zone(self, x: ir.Zone) -> str:
        if x.owner is None:
            return str(int(x.index))
        return self.player_zone(x.index, self.ex(x.owner))

    def x_Prop(self, x: ir.Prop) -> str:
        return f"{self.const_array(x.table)}[{self.ex(x.card)}]"

    def x_Seat(self, x: ir.Seat) -> str:
        return f"({self.ex(x.player)} + 1)"

    def x_CellPart(self, x: ir.CellPart) -> str:
        c = self.ex(x.cell)
        if x.part == "column":
            return f"(({c}) % {self.maxc} + 1)"
        if self.g.boards[0].bottom:  # numbered from the bottom: the last row drawn is row 1
            return f"(st[{self.PAR + self.Y.board}] - ({c}) // {self.maxc})"
        return f"(({c}) // {self.maxc} + 1)"

    def x_BoardRef(self, x: ir.BoardRef) -> str:
        return str(int(x.index))

    def x_FuncCall(self, x: ir.FuncCall) -> str:
        args = [self.arr(a) if a.ty is T.ZONE and self.g.functions[x.name].params[i] in _LISTS else self.ex(a)
                for i, a in enumerate(x.args)]
        return f"{self.func_ids[x.name]}(st, {''.join(a + ', ' for a in args)})"

    def x_ListOf(self, x: ir.ListOf) -> str:
        if not x.items:
            return "_new(st, 0)"
        if any(i.ty in _LISTS or i.ty is T.ZONE for i in x.items):
            raise self.no("a list of lists", x)
        t = self.tmp("a")
        self.line(f"{t} = _new(st, {len(x.items)})")
        for j, it in enumerate(x.items):
            self.line(f"{t}[{j}] = {self.ex(it)}")
        return t

    def x_Concat(self, x: ir.Concat) -> str:
        """Texts joined: each side's place among the values lowering listed, then that pair's joined text."""
        if x.table is None:
            raise self.no("texts joined with `+` from a value that is not one of a known few texts", x)
        lefts, rights = sorted({a for a, _b in x.table}), sorted({b for _a, b in x.table})
        pl = self.const_array(tuple(lefts.index(v) if v in lefts else -1 for v in range(lefts[-1] + 1)))
        pr = self.const_array(tuple(rights.index(v) if v in rights else -1 for v in range(rights[-1] + 1)))
        joined = self.const_array(tuple(x.table[a, b] for a in lefts for b in rights))
        return f"_join_text(st, {pl}, {pr}, {joined}, {len(rights)}, {self.ex(x.left)}, {self.ex(x.right)})"

    def x_Unary(self, x: ir.Unary) -> str:
        v = self.ex(x.operand)
        return f"(not {v})" if x.op == "not" else f"(-{v})"

    def x_Binary(self, x: ir.Binary) -> str:
        op = x.op
        if op in ("and", "or"):
            a = self.ex(x.left)
            lines, b = self.capture(self.ex, x.right)
            if not lines:
                return f"({a} {op} {b})"
            t = self.tmp("b")
            self.line(f"{t} = bool({a})")
            self.line(f"if {'' if op == 'and' else 'not '}{t}:")
            self.lines += ["    " + ln for ln in lines]
            self.line(f"    {t} = bool({b})")
            return t
        if op == "+" and x.left.ty in _LISTS + (T.ZONE,):
            return f"_join(st, {self.arr(x.left)}, {self.arr(x.right)})"
        if op in ("==", "!=") and (x.left.ty in _LISTS or x.right.ty in _LISTS):
            same = f"_same({self.arr(x.left)}, {self.arr(x.right)})"
            return same if op == "==" else f"(not {same})"
        a, b = self.ex(x.left), self.ex(x.right)
        if op == "//":
            return f"_div(st, {a}, {b})"
        if op == "%":
            return f"_mod(st, {a}, {b})"
        if op in _ARITH or op in _CMP:
            return f"({a} {op} {b})"
        raise self.no(f"the operator {op}", x)

    def x_Ternary(self, x: ir.Ternary) -> str:
        c = self.ex(x.cond)
        la, a = self.capture(self.ex, x.then)
        lb, b = self.capture(self.ex, x.orelse)
        if not la and not lb and x.ty not in _LISTS:
            return f"({a} if {c} else {b})"
        t = self.tmp("a" if x.ty in _LISTS else "v")
        self.line(f"if {c}:")
        self.lines += ["    " + ln for ln in la]
        self.line(f"    {t} = {a}" if x.ty in _LISTS else f"    {t} = np.int64({a})")
        self.line("else:")
        self.lines += ["    " + ln for ln in lb]
        self.line(f"    {t} = {b}" if x.ty in _LISTS else f"    {t} = np.int64({b})")
        return t

    def x_LetIn(self, x: ir.LetIn) -> str:
        v = self.ex(x.value)
        name = self.loc(x.slot, x.value.ty)
        self.line(f"{name} = {v}" if x.value.ty in _LISTS else f"{name} = np.int64({v})")
        return self.ex(x.body)

    # -- iteration ---------------------------------------------------------------------------------
    def loop(self, coll: ir.X, var: str, copy: bool = False) -> tuple[str, int]:
        """Open a loop binding `var` to each element of `coll`; returns (capacity expression, lines opened)."""
        if isinstance(coll, ir.Special) and coll.what == "players":
            self.for_line(f"for {var} in range(st[{Y.N}]):")
            return f"st[{Y.N}]", 1
        if isinstance(coll, ir.Special) and coll.what == "others":
            self.for_line(f"for {var} in range(st[{Y.N}]):")
            self.line(f"    if {var} == st[{Y.CUR}]:")
            self.line("        continue")
            return f"st[{Y.N}]", 1
        if isinstance(coll, ir.Builtin) and coll.name == "range" and not copy:
            a, b = self.scalar(coll.args[0]), self.scalar(coll.args[1])
            self.for_line(f"for {var} in range({a}, {b} + 1):")
            return f"max(0, {b} - {a} + 1)", 1
        # Board collections walked in place: no list is made (a list of cells costs an allocation).
        pb, mc = self.PAR + self.Y.board, self.maxc
        if isinstance(coll, ir.Builtin) and coll.name == "cells":
            b, q, cols = self.scalar(coll.args[0]), self.tmp("q"), self.tmp("c")
            self.line(f"{cols} = st[{pb} + 2 * {b} + 1]")
            self.for_line(f"for {q} in range(st[{pb} + 2 * {b}] * {cols}):")
            self.line(f"    {var} = ({q} // {cols}) * {mc} + {q} % {cols}")
            return f"st[{pb}] * st[{pb} + 1]", 1
        if isinstance(coll, ir.Builtin) and coll.name == "line":
            x, d = self.scalar(coll.args[0]), self.scalar(coll.args[1])
            cap, q, r, c = self.tmp("n"), self.tmp("q"), self.tmp("r"), self.tmp("c")
            self.line(f"{cap} = max(st[{pb}], st[{pb} + 1]) if _dir_ok(st, {d}) else 0")
            if len(coll.args) == 3:
                self.line(f"{cap} = min({cap}, max(0, {self.ex(coll.args[2])}))")
            self.for_line(f"for {q} in range({cap}):")
            self.line(f"    {r} = {x} // {mc} + {q} * DR[{d}]")
            self.line(f"    {c} = {x} % {mc} + {q} * DC[{d}]")
            self.line(f"    if {r} < 0 or {c} < 0 or {r} >= st[{pb}] or {c} >= st[{pb} + 1]:")
            self.line("        break")
            self.line(f"    {var} = {r} * {mc} + {c}")
            return cap, 1
        if isinstance(coll, ir.Builtin) and coll.name in ("neighbours", "diagonals"):
            x, j, r, c = self.scalar(coll.args[0]), self.tmp("j"), self.tmp("r"), self.tmp("c")
            first = 0 if coll.name == "neighbours" else 4
            self.for_line(f"for {j} in range(4):")
            self.line(f"    {r} = {x} // {mc} + DR[ORDER8[{first} + {j}]]")
            self.line(f"    {c} = {x} % {mc} + DC[ORDER8[{first} + {j}]]")
            self.line(f"    if {r} < 0 or {c} < 0 or {r} >= st[{pb}] or {c} >= st[{pb} + 1]:")
            self.line("        continue")
            self.line(f"    {var} = {r} * {mc} + {c}")
            return "4", 1
        src = self.tmp("s")
        self.line(f"{src} = {self.copied(coll) if copy else self.arr(coll)}")
        self.for_line(f"for {var} in {src}:")
        return f"{src}.shape[0]", 1

    def copied(self, x: ir.X) -> str:
        """A list of its own of `x`'s elements (a loop over a zone that its body changes walks a copy)."""
        return f"_copy(st, {self.arr(x)})"

    def for_line(self, header: str, release: bool = True) -> None:
        """A loop's header; with `release`, each pass starts with the arena as it was before the loop (the
        lists a pass made are dead at the next: a pass reads no list an earlier pass made, unless the body
        assigns a list to a local, which `keeps_lists` finds)."""
        if not release:
            self.line(header)
            return
        m = self.tmp("m")
        self.line(f"{m} = st[TOP]")
        self.line(header)
        self.line(f"    st[TOP] = {m}")

    def bind(self, slot: int, ty: T, var: str) -> None:
        self.line(f"{self.loc(slot, ty)} = np.int64({var})")

    def capacity(self, coll: ir.X) -> str:
        """How many elements a collection can have, without making it (a buffer's size)."""
        if isinstance(coll, ir.Special) and coll.what in ("players", "others"):
            return f"st[{Y.N}]"
        pb = self.PAR + self.Y.board
        if isinstance(coll, ir.Builtin) and coll.name == "cells":
            return f"st[{pb}] * st[{pb} + 1]"
        if isinstance(coll, ir.Builtin) and coll.name == "line":
            return f"max(st[{pb}], st[{pb} + 1])"
        if isinstance(coll, ir.Builtin) and coll.name in ("neighbours", "diagonals"):
            return "4"
        if coll.ty is T.ZONE:
            return f"st[{self.Y.zl} + {self.ex(coll)}]"
        return f"{self.arr(coll)}.shape[0]"

    def length(self, coll: ir.X) -> str | None:
        """How many elements a collection has (None for `players`, which the engine never charges)."""
        if isinstance(coll, ir.Special) and coll.what == "players":
            return None
        if isinstance(coll, ir.Special) and coll.what == "others":
            return f"(st[{Y.N}] - 1)"
        if coll.ty is T.ZONE:
            return f"st[{self.Y.zl} + {self.ex(coll)}]"
        pb = self.PAR + self.Y.board
        if isinstance(coll, ir.Builtin) and coll.name == "cells":
            return f"st[{pb}] * st[{pb} + 1]"
        if isinstance(coll, ir.Builtin) and coll.name == "line":
            k = f"max(0, {self.ex(coll.args[2])})" if len(coll.args) == 3 else "-1"
            return f"_line_len(st, {self.ex(coll.args[0])}, {self.ex(coll.args[1])}, {k})"
        if isinstance(coll, ir.Builtin) and coll.name == "range":
            return f"max(0, {self.ex(coll.args[1])} - {self.ex(coll.args[0])} + 1)"
        return f"{self.arr(coll)}.shape[0]"

    def charge(self, coll: ir.X) -> None:
        """The engine's `_work`: a filter, mapped list, aggregate or quantifier charges its collection's
        length to the step budget (a step per WORK_PER_STEP elements)."""
        n = self.length(coll)
        if n is not None:
            self.line(f"_charge(st, {n})")

    def once(self, coll: ir.X) -> ir.X:
        """A collection that must be computed (a function's list, a filter's, a list of items) computed once,
        into a hidden local that the charge, the buffer's size and the loop then read: as the engine goes
        through it once (the work it charges, the chance it draws)."""
        walked = ("range", "cells", "line", "neighbours", "diagonals")  # walked in place (loop)
        if coll.ty is T.ZONE or isinstance(coll, (ir.Special, ir.Local, ir.ConstList)) or \
                (isinstance(coll, ir.Builtin) and coll.name in walked):
            return coll
        slot = 10_000 + self._n  # a hidden local of its own
        self._n += 1
        self.line(f"{self.loc(slot, coll.ty)} = {self.arr(coll)}")
        return ir.Local(coll.ty, coll.at, slot)

    def x_Comprehension(self, x: ir.Comprehension, charged: bool = True) -> str:
        coll = self.once(x.coll)
        el = ELEMENT.get(coll.ty, T.INT)
        kind = x.kind
        v = self.tmp("e")
        if charged:
            self.charge(coll)
        if kind in ("any", "all"):  # the first witness (any) or counter-example (all) decides
            out = self.tmp("b")
            want = kind == "any"
            self.line(f"{out} = {not want}")
            opened = self.loop(coll, v)[1]
            self.depth += opened
            self.bind(x.slot, el, v)
            self.line(f"if bool({self.ex(x.cond)}) == {want}:")
            self.line(f"    {out} = {want}")
            self.line("    break")
            self.depth -= opened
            return out
        if kind in ("filter", "while", "map", "best", "worst"):
            cap = self.tmp("n")
            if isinstance(coll, ir.Builtin) and coll.name == "range":
                src = self.tmp("s")
                self.line(f"{src} = {self.arr(coll)}")
                self.line(f"{cap} = {src}.shape[0]")
                header = lambda: (self.for_line(f"for {v} in {src}:"), 1)[1]  # noqa: E731
            else:
                self.line(f"{cap} = {self.capacity(coll)}")
                header = None
            buf, k = self.tmp("a"), self.tmp("k")
            self.line(f"{buf} = _new(st, {cap})")
            if kind in ("best", "worst"):
                keys = self.tmp("a")
                self.line(f"{keys} = _new(st, {cap})")
            self.line(f"{k} = 0")
            opened = header() if header else self.loop(coll, v)[1]
            self.depth += opened
            self.bind(x.slot, el, v)
            if x.cond is not None and kind != "while":
                c = self.ex(x.cond)
                self.line(f"if {c}:")
                self.depth += 1
            if kind == "while":
                self.line(f"if not ({self.ex(x.cond)}):")
                self.line("    break")
                self.line(f"{buf}[{k}] = {v}")
            elif kind == "filter":
                self.line(f"{buf}[{k}] = {v}")
            elif kind == "map":
                self.line(f"{buf}[{k}] = {self.ex(x.value)}")
            else:
                self.line(f"{buf}[{k}] = {v}")
                self.line(f"{keys}[{k}] = {self.ex(x.value)}")
            self.line(f"{k} += 1")
            if x.cond is not None and kind != "while":
                self.depth -= 1
            self.depth -= opened
            if kind in ("filter", "while", "map"):
                return f"{buf}[:{k}]"
            top, out, m = self.tmp("v"), self.tmp("a"), self.tmp("k")
            self.line(f"{out} = _new(st, {k})")
            self.line(f"{m} = 0")
            self.line(f"if {k} > 0:")
            self.line(f"    {top} = {keys}[0]")
            self.line(f"    for q_ in range({k}):")
            self.line(f"        if {keys}[q_] {'>' if kind == 'best' else '<'} {top}:")
            self.line(f"            {top} = {keys}[q_]")
            self.line(f"    for q_ in range({k}):")
            self.line(f"        if {keys}[q_] == {top}:")
            self.line(f"            {out}[{m}] = {buf}[q_]")
            self.line(f"            {m} += 1")
            return f"{out}[:{m}]"
        # sum, highest, lowest, and count (a filter counted: builtin count)
        acc, seen = self.tmp("v"), self.tmp("b")
        self.line(f"{acc} = 0")
        self.line(f"{seen} = False")
        opened = self.loop(coll, v)[1]
        self.depth += opened
        self.bind(x.slot, el, v)
        if x.cond is not None:
            self.line(f"if {self.ex(x.cond)}:")
            self.depth += 1
        val = "1" if kind == "count" else self.ex(x.value)
        if kind in ("sum", "count"):
            self.line(f"{acc} += {val}")
        else:
            w = self.tmp("v")
            self.line(f"{w} = {val}")
            self.line(f"if not {seen} or {w} {'>' if kind == 'highest' else '<'} {acc}:")
            self.line(f"    {acc} = {w}")
            self.line(f"    {seen} = True")
        if x.cond is not None:
            self.depth -= 1
        self.depth -= opened
        return acc

    # -- builtins ----------------------------------------------------------------------------------
    def x_Builtin(self, x: ir.Builtin) -> str:
        n, a = x.name, x.args
        table = _kept(x, self.g.n_cards)
        if table is not None:
            j = self.kept_tables.index(table)
            if n == "count":  # the filter the engine runs is charged; the kept count needs no walk
                self.charge(a[0].coll)
            return f"st[{self.Y.zs + j * self.Y.n_zones} + {self.ex(a[0].coll if n == 'count' else a[0])}]"
        if n == "count":
            c = a[0]
            if c.ty is T.ZONE:
                return f"st[{self.Y.zl} + {self.ex(c)}]"
            if isinstance(c, ir.Comprehension) and c.kind == "filter":
                return self.x_Comprehension(ir.Comprehension(T.INT, c.at, "count", c.slot, c.coll, c.cond, None))
            if isinstance(c, ir.Special) and c.what == "players":
                return f"st[{Y.N}]"
            if isinstance(c, ir.Special) and c.what == "others":
                return f"(st[{Y.N}] - 1)"
            return f"{self.arr(c)}.shape[0]"
        if n == "empty":
            if a[0].ty is T.ZONE:
                return f"(st[{self.Y.zl} + {self.ex(a[0])}] == 0)"
            return f"({self.arr(a[0])}.shape[0] == 0)"
        if n in ("sum", "highest", "lowest"):
            kind = n
            if x.prop is None:
                value = lambda slot: ir.Local(T.INT, x.at, slot)  # noqa: E731
            elif x.prop[0] == "prop":
                table = x.prop[1]
                value = lambda slot: ir.Prop(T.INT, x.at, "", table, ir.Local(T.CARD, x.at, slot))  # noqa: E731
            else:
                pv = x.prop[1]
                value = lambda slot: ir.Var(T.INT, x.at, "player", pv, ir.Local(T.PLAYER, x.at, slot), "")  # noqa: E731
            slot = 10_000 + self._n  # a hidden local of its own
            self._n += 1
            el = ELEMENT.get(a[0].ty, T.INT)
            return self.x_Comprehension(ir.Comprehension(T.INT, x.at, kind, slot, a[0], None, value(slot)), False)
        if n in ("best", "worst"):
            if x.prop is None:
                raise self.no(f"{n}() without a property", x)
            slot = 10_000 + self._n
            self._n += 1
            if x.prop[0] == "prop":
                val = ir.Prop(T.INT, x.at, "", x.prop[1], ir.Local(T.CARD, x.at, slot))
            else:
                val = ir.Var(T.INT, x.at, "player", x.prop[1], ir.Local(T.PLAYER, x.at, slot), "")
            return self.x_Comprehension(ir.Comprehension(x.ty, x.at, n, slot, a[0], None, val), False)
        if n in ("top_sum", "place_points"):
            slot = 10_000 + self._n
            self._n += 1
            el = ir.Local(ELEMENT.get(a[0].ty, T.INT), x.at, slot)
            val = (ir.Prop(T.INT, x.at, "", x.prop[1], el) if x.prop[0] == "prop"
                   else ir.Var(T.INT, x.at, "player", x.prop[1], el, ""))
            items = self.tmp("s")
            self.line(f"{items} = {self.arr(a[0])}")
            vals = self.x_Comprehension(ir.Comprehension(T.INTS, x.at, "map", slot, a[0], None, val), False)
            if n == "top_sum":
                return f"_top_sum({vals}, {self.ex(a[1])})"
            return f"_place_points({items}, {vals}, {self.arr(a[1])}, {self.ex(a[2])})"
        if n == "next":
            return f"(({self.ex(a[0])} + st[{Y.ORDER}]) % st[{Y.N}])"
        helper = _HELPERS.get(n) or _HELPERS.get(f"{n}/{len(a)}")
        if helper is not None:
            fn, kinds = helper
            args = iter(a)
            parts = ["st" if k == "s" else self.arr(next(args)) if k == "a" else self.ex(next(args)) if k == "v" else k
                     for k in (kinds if kinds != "*" else "v" * len(a))]
            return f"{fn}({', '.join(parts)})"
        if n == "index":
            items, k = self.arr(a[0]), self.scalar(a[1])
            t = self.tmp("s")
            self.line(f"{t} = {items}")
            self.line(f"if {k} < 1 or {k} > {t}.shape[0]:")
            self.line(f"    _stop(st, 10)")
            self.line(f"    {k} = 1")
            self.line(f"if {t}.shape[0] == 0:")
            self.line(f"    {t} = np.zeros(1, np.int64)")
            return f"{t}[{k} - 1]"
        if n == "cell":
            b, r = self.ex(a[0]), self.ex(a[1])
            if self.g.boards[0].bottom:  # the row as drawn (a row off the board stays off it)
                r = f"st[{self.PAR + self.Y.board} + 2 * {b}] + 1 - ({r})"
            return f"_cell(st, {b}, {r}, {self.ex(a[2])})"
        if n == "line":  # at most k cells (never fewer than none), or to the edge
            k = f"max(0, {self.scalar(a[2])})" if len(a) == 3 else "-1"
            return f"_line(st, {self.ex(a[0])}, {self.ex(a[1])}, {k})"
        if n == "forward":
            w = max([len(b.forward) for b in self.g.boards] + [1])
            fw = self.const_array(tuple(b.forward[p] if p < len(b.forward) else -1
                                        for b in self.g.boards for p in range(w)))
            return f"_forward(st, {fw}, {w}, {self.ex(a[0])}, {self.ex(a[1])})"
        if n in ("team", "partner", "teammates", "opponents"):
            sides, members, partners = self.side_tables(x)
            p = self.ex(a[0])
            if n == "team":
                return f"(_of_seat(st, {sides}, {p}) + 1)"
            if n == "partner":  # a side of other than two seats has none: a rule error, as in the engine
                return f"_of_seat(st, {partners}, {p})"
            if n == "opponents":
                return f"_opponents(st, {sides}, {p})"
            return f"_members(st, {sides}, {members}, {p})"
        raise self.no(f"the builtin {n}()", x)

    def side_tables(self, x: ir.X | None = None) -> tuple[str, str, str]:
        """`game.teams` as tables: each seat's side and each seat's partner (-1 unless its side is two
        seats), MP numbers per player count; each side's seats in the order declared, MP per side (-1
        after the last), MP sides per player count."""
        t, mp = self.g.teams, self.Y.max_players
        if t is None:
            raise self.no("a side's builtin in a game without `game.teams`", x)
        side, partner, members = [-1] * ((mp + 1) * mp), [-1] * ((mp + 1) * mp), [-1] * ((mp + 1) * mp * mp)
        for n, sides in t.sides.items():
            for k, seats in enumerate(sides):
                for j, p in enumerate(seats):
                    side[n * mp + p] = k
                    members[(n * mp + k) * mp + j] = p
                    mates = [q for q in seats if q != p]
                    partner[n * mp + p] = mates[0] if len(mates) == 1 else -1
        return self.const_array(tuple(side)), self.const_array(tuple(members)), self.const_array(tuple(partner))

    # -- statements --------------------------------------------------------------------------------
    def block(self, body: list[ir.S]) -> None:
        for s in body:
            self.stmt(s)

    def guard(self) -> None:
        """After a statement that may stop the game (a rule error, a stall): leave at once."""
        self.line(f"if st[{Y.ERR}] != 0:")
        self.line("    return 3")

    def stmt(self, s: ir.S) -> None:
        if _narration_only(s):
            return  # the engine skips narration's tests too when nobody listens
        fn = getattr(self, "s_" + type(s).__name__, None)
        if fn is None:
            raise self.no(f"the statement {type(s).__name__}", s)
        fn(s)

    def s_Say(self, s) -> None:
        return None

    def s_Pass(self, s) -> None:
        self.line("pass")

    def s_Reveal(self, s: ir.Reveal) -> None:
        """Seats' views are no kernel player's input: only what naming the variable computes is run."""
        if s.key is not None:
            self.line(f"{self.tmp('i')} = {self.keyed_slot(s.key)}")
        elif s.owner is not None:
            self.scalar(s.owner)
        self.guard()

    def s_Move(self, s: ir.Move) -> None:
        d = self.scalar(s.dest)
        if s.what.ty is T.CARD:
            self.line(f"_mv(st, {self.ex(s.what)}, {d})")
        elif s.what.ty is T.ZONE:
            self.line(f"_mvz(st, {self.ex(s.what)}, {d})")
        else:
            c = self.tmp("c")
            self.line(f"for {c} in {self.copied(s.what)}:")
            self.line(f"    _mv(st, {c}, {d})")
        self.guard()

    def s_Shuffle(self, s: ir.Shuffle) -> None:
        self.line(f"_shuffle(st, {self.ex(s.zone)})")
        self.guard()

    def s_Let(self, s: ir.Let) -> None:
        v = self.ex(s.value)
        name = self.loc(s.slot, s.value.ty)
        self.line(f"{name} = {v}" if s.value.ty in _LISTS else f"{name} = np.int64({v})")
        self.guard()

    def s_Assign(self, s: ir.Assign) -> None:
        t = s.target
        if isinstance(t, ir.Local):
            name = self.loc(t.slot, t.ty)
            v = self.ex(s.value)
            if t.ty in _LISTS:
                if s.op != "=":
                    raise self.no("`+=` on a list", s)
                self.line(f"{name} = {v}")
            else:
                op = {"=": "", "+=": f"{name} + ", "-=": f"{name} - "}[s.op]
                self.line(f"{name} = np.int64({op}({v}))")
            self.guard()
            return
        slot = self.tmp("i")
        self.line(f"{slot} = {self.keyed_slot(t) if isinstance(t, ir.Keyed) else self.var_slot(t)}")
        v = self.ex(s.value)
        nv = self.tmp("v")
        new = {"=": f"{v}", "+=": f"st[{slot}] + {v}", "-=": f"st[{slot}] - {v}"}[s.op]
        self.line(f"{nv} = np.int64({new})")
        lo, hi, clamp, allowed = s.bounds or (None, None, False, None)
        if allowed is not None:  # a text variable's `values:`
            self.line(f"if not _contains({self.const_array(allowed)}, {nv}):")
            self.line("    return _stop(st, 11)")
        for bound, test in ((lo, "<"), (hi, ">")):
            if bound is None:
                continue
            self.line(f"if {nv} {test} {int(bound)}:")
            if clamp:
                self.line(f"    {nv} = {int(bound)}")
            else:
                self.line(f"    return _stop(st, 11)")
        self.line(f"st[{slot}] = {nv}")
        self.stored(t, slot)
        self.guard()

    def stored(self, target: ir.X, slot: str) -> None:
        """After a variable's new value is stored at `slot` (a hook: the search kernel keeps who may read it)."""

    def s_Call(self, s: ir.Call) -> None:
        p = self.g.procedures[s.proc]
        args = [self.arr(a) if p.params[i] in _LISTS and a.ty is T.ZONE else self.ex(a) for i, a in enumerate(s.args)]
        r, m = self.tmp("r"), self.tmp("m")
        self.line(f"{m} = st[TOP]")
        self.line(f"{r} = {self.proc_ids[s.proc]}(st{''.join(', ' + a for a in args)})")
        self.line(f"st[TOP] = {m}")
        self.line(f"if {r} != 0:")
        self.line(f"    return {r}")

    def s_EndTurn(self, s) -> None:
        self.line("return 1")

    def s_EndGame(self, s) -> None:
        self.line("return 2")

    def s_TurnOrder(self, s: ir.TurnOrder) -> None:
        if s.what == "to":
            self.line(f"st[{Y.NXT}] = {self.ex(s.who)}")
        elif s.what == "extra":
            self.line(f"st[{Y.NXT}] = st[{Y.CUR}]")
        elif s.what == "skip":
            self.line(f"st[{Y.SKIPS}] += 1")
        else:
            self.line(f"st[{Y.ORDER}] = -st[{Y.ORDER}]")

    def s_If(self, s: ir.If) -> None:
        opened = 0
        for i, (cond, body) in enumerate(s.branches):
            if i > 0:  # `elif` as `else: if`, so the condition's own lines stand inside the else
                self.line("else:")
                self.depth += 1
                opened += 1
            self.line(f"if {self.ex(cond)}:")
            self.depth += 1
            self.line("pass")
            self.block(body)
            self.depth -= 1
        if s.orelse:
            self.line("else:")
            self.depth += 1
            self.line("pass")
            self.block(s.orelse)
            self.depth -= 1
        self.depth -= opened

    def s_ForEach(self, s: ir.ForEach) -> None:
        el = ELEMENT.get(s.coll.ty, T.INT)
        v = self.tmp("e")
        if isinstance(s.coll, ir.Special) and s.coll.what == "players":
            self.line(f"if _spend(st, st[{Y.N}]) != 0:")
            self.line("    return 3")
            self.for_line(f"for {v} in range(st[{Y.N}]):", not keeps_lists(s.body))
        else:
            src = self.tmp("s")
            self.line(f"{src} = {self.copied(s.coll)}")
            self.line(f"if _spend(st, {src}.shape[0]) != 0:")
            self.line("    return 3")
            self.for_line(f"for {v} in {src}:", not keeps_lists(s.body))
        self.depth += 1
        self.bind(s.slot, el, v)
        self.block(s.body)
        self.depth -= 1

    def s_Repeat(self, s: ir.Repeat) -> None:
        k = self.scalar(s.count)
        self.line(f"if _spend(st, {k}) != 0:")
        self.line("    return 3")
        self.for_line(f"for _ in range({k}):", not keeps_lists(s.body))
        self.depth += 1
        self.line("pass")
        self.block(s.body)
        self.depth -= 1

    def s_While(self, s: ir.While) -> None:
        self.for_line("while True:", not keeps_lists([s.cond, s.body]))
        self.depth += 1
        c = self.ex(s.cond)
        self.line(f"if not {c}:")
        self.line("    break")
        self.line("if _tick(st) != 0:")
        self.line("    return 3")
        self.block(s.body)
        self.depth -= 1

    def ask(self, n: str) -> None:
        """State.ask: the end of the game checked first (`check: always`), no option is a stall, one step."""
        g = self.g
        if g.end_always and g.end_when is not None:
            self.line(f"if {self.ex(g.end_when)}:")
            self.line("    return 2")
        self.line(f"if {n} == 0:")
        self.line("    return _stop(st, 3)")
        self.line(f"if {n} > {MAX_OPTIONS}:")
        self.line("    return _stop(st, 13)")
        self.line("if _tick(st) != 0:")
        self.line("    return 3")
        self.line(f"st[{Y.QUIET}] = 0")

    def s_ChooseOption(self, s: ir.ChooseOption) -> None:
        n = self.tmp("n")
        self.line(f"{n} = 0")
        for j, o in enumerate(s.options):
            opened = 0
            v = self.tmp("e")
            if o.slot is not None and isinstance(o.coll, ir.Comprehension) and o.coll.kind == "filter":
                # `option for p in [q in ... where ...]`: the filter's test inline, as the engine's `_loop`
                opened = self.loop(o.coll.coll, v)[1]
                self.depth += opened
                self.bind(o.coll.slot, ELEMENT.get(o.coll.coll.ty, T.INT), v)
                self.line(f"if {self.ex(o.coll.cond)}:")
                self.depth += 1
                opened += 1
                self.bind(o.slot, ELEMENT.get(o.coll.ty, T.INT), v)
            elif o.slot is not None:
                opened = self.loop(o.coll, v)[1]
                self.depth += opened
                self.bind(o.slot, ELEMENT.get(o.coll.ty, T.INT), v)
            if o.cond is not None:
                self.line(f"if {self.ex(o.cond)}:")
                self.depth += 1
                opened += 1
            self.line(f"if {n} < {MAX_OPTIONS + 1}:")
            self.line(f"    st[{self.WK} + {n} * {self.WKC} + 0] = {j}")
            self.line(f"    st[{self.WK} + {n} * {self.WKC} + 1] = {v if o.slot is not None else 0}")
            self.line(f"{n} += 1")
            self.depth -= opened
        self.ask(n)
        who = self.ex(s.by) if s.by is not None else f"st[{Y.CUR}]"
        i, j, x = self.tmp("i"), self.tmp("j"), self.tmp("x")
        self.line(f"{i} = _pick(st, {n})")
        self.line(f"{j} = st[{self.WK} + {i} * {self.WKC} + 0]")
        self.line(f"{x} = st[{self.WK} + {i} * {self.WKC} + 1]")
        del who  # the kernel's agents are the same for every seat: who chooses does not change the pick
        for k, o in enumerate(s.options):
            self.line(f"{'if' if k == 0 else 'elif'} {j} == {k}:")
            self.depth += 1
            self.line("pass")
            if o.slot is not None:
                self.bind(o.slot, ELEMENT.get(o.coll.ty, T.INT), x)
            self.block(o.body)
            self.depth -= 1

    def s_ChooseValue(self, s: ir.ChooseValue) -> None:
        src = self.tmp("s")
        self.line(f"{src} = {self.copied(s.source)}")
        if s.source.ty in (T.ZONE, T.CARDS):
            self.interchangeable(src, s)
        self.ask(f"{src}.shape[0]")
        i = self.tmp("i")
        self.line(f"{i} = _pick(st, {src}.shape[0])")
        self.bind(s.slot, ELEMENT.get(s.source.ty, T.INT), f"{src}[{i}]")

    def interchangeable(self, src: str, s: ir.S) -> None:
        """compile/interchange.py's rule, in place on `src`: of the cards of one type lying in one zone whose
        order no rule reads, only the first is an option."""
        ic = self.interchange
        if ic is None:
            raise self.no("`choose` of a card without the interchange table", s)
        if not ic.any:
            return
        S, P, mp = self.Y.n_shared, self.Y.n_player_zones, self.Y.max_players
        loose = self.const_array(tuple(int(ic._loose(z if z < S else S + (z - S) % P)) for z in range(S + P * mp)))
        kind = self.const_array(tuple(ic.kind) or (0,))
        out, k, j, q, c, dup = (self.tmp("a"), self.tmp("k"), self.tmp("j"), self.tmp("q"), self.tmp("c"),
                                self.tmp("b"))
        wh = self.Y.wh
        self.line(f"if {src}.shape[0] >= 2:")
        self.line(f"    {out} = _new(st, {src}.shape[0])")
        self.line(f"    {k} = 0")
        self.line(f"    for {j} in range({src}.shape[0]):")
        self.line(f"        {c} = {src}[{j}]")
        self.line(f"        {dup} = False")
        self.line(f"        if {loose}[st[{wh} + {c}]]:")
        self.line(f"            for {q} in range({k}):")
        self.line(f"                if st[{wh} + {out}[{q}]] == st[{wh} + {c}] and {kind}[{out}[{q}]] == {kind}[{c}]:")
        self.line(f"                    {dup} = True")
        self.line("                    break")
        self.line(f"        if not {dup}:")
        self.line(f"            {out}[{k}] = {c}")
        self.line(f"            {k} += 1")
        self.line(f"    {src} = {out}[:{k}]")

    def s_ChooseSubset(self, s: ir.ChooseSubset) -> None:
        """compile/support.py's _subsets: every subset that satisfies the condition, smallest first,
        each size in `itertools.combinations` order, merged by compile/interchange.py's rule; then the pick."""
        from ..compile.compiler import MAX_SUBSET_SOURCE
        ic = self.interchange
        if ic is None:
            raise self.no("`choose subset` without the interchange table", s)
        src, m, nf, idx, k, t, u, combo, mask = (self.tmp("s"), self.tmp("m"), self.tmp("n"), self.tmp("a"),
                                                 self.tmp("k"), self.tmp("t"), self.tmp("u"), self.tmp("a"),
                                                 self.tmp("b"))
        wk, wkc = self.WK, self.WKC
        self.line(f"{src} = {self.copied(s.source)}")
        self.line(f"{m} = {src}.shape[0]")
        self.line(f"if {m} > {MAX_SUBSET_SOURCE}:")
        self.line("    return _stop(st, 10)")
        self.line(f"{nf} = 0")
        self.line(f"{idx} = np.zeros({MAX_SUBSET_SOURCE} + 1, np.int64)")
        self.line(f"for {k} in range({m} + 1):")
        self.depth += 1
        self.line(f"for {t} in range({k}):")
        self.line(f"    {idx}[{t}] = {t}")
        self.line("while True:")
        self.depth += 1
        self.line(f"{combo} = _new(st, {k})")
        self.line(f"for {t} in range({k}):")
        self.line(f"    {combo}[{t}] = {src}[{idx}[{t}]]")
        self.line(f"{self.loc(s.slot, T.CARDS)} = {combo}")
        self.line(f"if {self.ex(s.cond)}:")
        self.line(f"    {mask} = 0")
        self.line(f"    for {t} in range({k}):")
        self.line(f"        {mask} |= 1 << {idx}[{t}]")
        self.line(f"    if {nf} <= {MAX_OPTIONS}:")
        self.line(f"        st[{wk} + {nf} * {wkc}] = {mask}")
        self.line(f"    {nf} += 1")
        self.line(f"{t} = {k} - 1")
        self.line(f"while {t} >= 0 and {idx}[{t}] == {m} - {k} + {t}:")
        self.line(f"    {t} -= 1")
        self.line(f"if {t} < 0:")
        self.line("    break")
        self.line(f"{idx}[{t}] += 1")
        self.line(f"for {u} in range({t} + 1, {k}):")
        self.line(f"    {idx}[{u}] = {idx}[{u} - 1] + 1")
        self.depth -= 2
        self.line(f"if {nf} > {MAX_OPTIONS}:")
        self.line("    return _stop(st, 13)")
        if ic.any:  # one subset of each multiset of interchangeable kinds, in the order found
            S, P, mp = self.Y.n_shared, self.Y.n_player_zones, self.Y.max_players
            loose = self.const_array(tuple(int(ic._loose(z if z < S else S + (z - S) % P))
                                           for z in range(S + P * mp)))
            kind = self.const_array(tuple(ic.kind) or (0,))
            keys, lens, kept, i, j, q, same = (self.tmp("a"), self.tmp("a"), self.tmp("k"), self.tmp("i"),
                                               self.tmp("j"), self.tmp("q"), self.tmp("b"))
            wh = self.Y.wh
            self.line(f"{keys} = np.zeros(({nf} + 1, {MAX_SUBSET_SOURCE}), np.int64)")
            self.line(f"{lens} = np.zeros({nf} + 1, np.int64)")
            self.line(f"{kept} = 0")
            self.line(f"for {i} in range({nf}):")
            self.depth += 1
            self.line(f"{mask} = st[{wk} + {i} * {wkc}]")
            self.line(f"{q} = 0")
            self.line(f"for {t} in range({m}):")
            self.line(f"    if ({mask} >> {t}) & 1:")
            self.line(f"        {u} = {src}[{t}]")
            self.line(f"        {keys}[{kept}, {q}] = (-1 - st[{wh} + {u}] * {ic.kinds} - {kind}[{u}]) "
                      f"if {loose}[st[{wh} + {u}]] else {u}")
            self.line(f"        {q} += 1")
            self.line(f"{keys}[{kept}, :{q}] = np.sort({keys}[{kept}, :{q}])")
            self.line(f"{lens}[{kept}] = {q}")
            self.line(f"{same} = False")
            self.line(f"for {j} in range({kept}):")
            self.line(f"    if {lens}[{j}] == {q} and _same({keys}[{j}, :{q}], {keys}[{kept}, :{q}]):")
            self.line(f"        {same} = True")
            self.line("        break")
            self.line(f"if not {same}:")
            self.line(f"    st[{wk} + {kept} * {wkc}] = {mask}")
            self.line(f"    {kept} += 1")
            self.depth -= 1
            self.line(f"{nf} = {kept}")
        self.ask(nf)
        i = self.tmp("i")
        self.line(f"{i} = _pick(st, {nf})")
        self.line(f"{mask} = st[{wk} + {i} * {wkc}]")
        self.line(f"{combo} = _new(st, {m})")
        self.line(f"{k} = 0")
        self.line(f"for {t} in range({m}):")
        self.line(f"    if ({mask} >> {t}) & 1:")
        self.line(f"        {combo}[{k}] = {src}[{t}]")
        self.line(f"        {k} += 1")
        self.line(f"{self.loc(s.slot, T.CARDS)} = {combo}[:{k}]")

    def s_ChooseTogether(self, s: ir.ChooseTogether) -> None:
        """Each player chooses in turn (the engine asks them one after another, none seeing the others'
        choices), then the body runs once per player with their choice."""
        who, picks, k, i, src = self.tmp("s"), self.tmp("a"), self.tmp("k"), self.tmp("i"), self.tmp("s")
        self.line(f"{who} = {self.copied(s.players)}")
        self.line(f"if _spend(st, {who}.shape[0]) != 0:")
        self.line("    return 3")
        self.line(f"{picks} = _new(st, {who}.shape[0])")
        self.line(f"for {k} in range({who}.shape[0]):")
        self.depth += 1
        self.bind(s.slot + 1, T.PLAYER, f"{who}[{k}]")
        self.line(f"{src} = {self.copied(s.source)}")
        self.ask(f"{src}.shape[0]")
        self.before_together_pick(who, k)
        self.line(f"{i} = _pick(st, {src}.shape[0])")
        self.line(f"{picks}[{k}] = {src}[{i}]")
        self.after_together_pick(s, who, picks, k)
        self.depth -= 1
        self.line(f"for {k} in range({who}.shape[0]):")
        self.depth += 1
        self.bind(s.slot + 1, T.PLAYER, f"{who}[{k}]")
        self.bind(s.slot, ELEMENT.get(s.source.ty, T.INT), f"{picks}[{k}]")
        self.block(s.body)
        self.depth -= 1

    def before_together_pick(self, who: str, k: str) -> None:
        """Hook before a `choose together` pick of player `who[k]` (the search kernel's: it is sealed)."""

    def after_together_pick(self, s: ir.ChooseTogether, who: str, picks: str, k: str) -> None:
        """Hook after it, with the picks so far in `picks` (the search kernel's: a resumed copy redraws
        the others')."""

    # -- functions ---------------------------------------------------------------------------------
    def function_def(self, name: str, head: str, body: Any, expr: bool = False) -> None:
        saved, depth, self.lines, self.depth = self.lines, self.depth, [], 1
        try:
            if expr:
                v = self.ex(body)
                self.line(f"return {v}")
            else:
                self.line("pass")
                self.block(body)
                self.line("return 0")
        finally:
            produced, self.lines, self.depth = self.lines, saved, depth
        # A function's value is an expression: inlined where it is called (numba's IR inliner), which
        # lets LLVM fuse it into the caller's loops (tic-tac-toe's three-in-a-row check: 1.13x a game).
        inline = ', inline="always"' if expr else ""
        self.defs.append(f"@njit(cache=True{inline})\ndef {name}({head}):\n" + "\n".join(produced) + "\n")

    def params(self, types: list[T]) -> str:
        return "".join(f", {self.loc(k, t)}" for k, t in enumerate(types))

    def block_caller(self):
        """`call_block(b)`: emit a call of block `b` (defined once, as its own function) and what its
        answer means to the flow (end the turn, end the game, pause); both flows, plain and resumable
        (search_emit.py), call blocks this way."""
        g = self.g
        blocks: dict[int, str] = {}

        def call_block(b: ir.Block | None, args: str = "", in_turn: bool = False, after: str = "") -> None:
            if b is None:
                return
            name = blocks.get(id(b))
            if name is None:
                name = blocks[id(b)] = f"B{len(blocks)}"
                self.function_def(name, "st" + args_types.get(id(b), ""), b.body)
            r, m = self.tmp("r"), self.tmp("m")
            self.line(f"{m} = st[TOP]")
            self.line(f"{r} = {name}(st{args})")
            self.line(f"st[TOP] = {m}")
            self.line(f"if {r} == 1:")
            self.line(f"    if st[{Y.IN_TURN}] == 0:")
            self.line("        _stop(st, 12)")
            self.line("        return")
            self.line(f"    st[{Y.TURN_OVER}] = 1")
            self.line(f"elif {r} == 2:")
            self.line("    FIN(st)")
            self.line("    return")
            self.line(f"elif {r} == 3:")
            self.line("    return")

        args_types: dict[int, str] = {}
        for ph in g.phases:
            for a in ph.turn.actions:
                args_types[id(a.block)] = self.params([p.ty if p.ty not in _LISTS else ELEMENT[p.ty]
                                                       for p in a.params]) if a.block is not None else ""

        return call_block

    def flow(self) -> None:
        """The game: setup, the first player, each phase's rounds and turns, to the end (play)."""
        g = self.g
        call_block = self.block_caller()
        saved, self.lines, self.depth = self.lines, [], 1
        self.line(f"n = st[{Y.N}]")
        self.line("st[TOP] = 0")
        self.setup(g, call_block)
        for k, ph in enumerate(g.phases):
            rounds = self.tmp("k")
            self.line(f"{rounds} = 0")
            self.line("while True:")
            self.depth += 1
            self.round_start(ph, str(rounds), call_block)
            begun = self.tmp("t")
            self.line(f"{begun} = st[{Y.TURN}]")  # a phase without `until` is one round: a turn for each player
            # the turn cycle
            self.for_line("while True:")
            self.depth += 1
            self.start_of_turn(g, ph, call_block)
            self.for_line(f"while st[{Y.TURN_OVER}] == 0:")
            self.depth += 1
            self.decide(ph.turn, call_block)
            self.depth -= 1
            self.end_of_turn(g, ph, call_block, str(begun))
            self.depth -= 1
            call_block(ph.end)
            self.line(f"{rounds} += 1")
            self.depth -= 1
        self.line("FIN(st)")
        produced, self.lines, self.depth = self.lines, saved, 0
        self.defs.append("@njit(cache=True)\ndef play(st):\n" + "\n".join(produced) + "\n")

    def round_start(self, ph, rounds: str, call_block) -> None:
        """A round of phase `ph`: the phase ends when its rounds are done or its `while` fails, else its start
        block runs (`rounds`: where the rounds are counted). The resumable flow emits the very same lines."""
        self.line(f"if {rounds} >= {int(ph.repeat)}:")
        self.line("    break")
        if ph.while_ is not None:
            self.line(f"if not {self.ex(ph.while_)}:")
            self.line("    break")
        call_block(ph.start)

    def setup(self, g: ir.Game, call_block) -> None:
        """The setup block and the first player (drawn by chance unless the spec names one); the resumable
        flow (search_emit.py) emits the very same lines."""
        call_block(g.setup)
        if g.first is None:
            self.line(f"st[{Y.CUR}] = _below(st, RNG, n)")
            self.line("_chance(st, 0)")
            self.line(f"_chance(st, st[{Y.CUR}])")
        else:
            self.line(f"st[{Y.CUR}] = {self.ex(g.first)}")

    def start_of_turn(self, g: ir.Game, ph, call_block) -> None:
        """A turn's start: the next player named by the last turn, the turn count and step budget, the
        quiet-round guard against a game that cannot end, fresh turn variables, the turn's start block.
        The resumable flow (search_emit.py) emits the very same lines."""
        if g.turn_order:
            self.line(f"if st[{Y.NXT}] >= 0:")
            self.line(f"    st[{Y.CUR}] = st[{Y.NXT}]")
            self.line(f"    st[{Y.NXT}] = -1")
        self.line(f"st[{Y.TURN}] += 1")
        self.line("if _tick(st) != 0:")
        self.line("    return")
        self.line(f"st[{Y.QUIET}] += 1")
        self.line(f"if st[{Y.QUIET}] > {QUIET_ROUNDS} * n:")
        self.line("    _stop(st, 1)")
        self.line("    return")
        for j, t in enumerate(g.tvars):
            self.line(f"st[{self.Y.tv + j}] = {int(t.start)}")
        self.line(f"st[{Y.TURN_OVER}] = 0")
        self.line(f"st[{Y.IN_TURN}] = 1")
        call_block(ph.turn.start)

    def end_of_turn(self, g: ir.Game, ph, call_block, begun: str) -> None:
        """What follows a turn's last decision: its end block, the end of the game, the next player (turn
        order, skips, `skip_if`) and the end of the phase (`until:`, or one round from `begun`, the turn it
        began at). The resumable flow (search_emit.py) emits the very same lines."""
        call_block(ph.turn.end)
        self.line(f"st[{Y.IN_TURN}] = 0")
        if g.end_when is not None:
            self.line(f"if {self.ex(g.end_when)}:")
            self.line("    FIN(st)")
            self.line("    return")
        if g.turn_order:
            self.line(f"if st[{Y.NXT}] >= 0:")
            self.line(f"    p_ = st[{Y.NXT}]")
            self.line(f"    st[{Y.NXT}] = -1")
            self.line("else:")
            self.line(f"    p_ = (st[{Y.CUR}] + st[{Y.ORDER}] * (1 + st[{Y.SKIPS}])) % n")
            self.line(f"st[{Y.SKIPS}] = 0")
            if g.skip_if is not None:  # State.pass_turn: past the players it holds for (each as `me`)
                self.line(f"c_ = st[{Y.CUR}]")
                self.line("q_ = c_")
                self.line("for _ in range(n):")
                self.depth += 1
                self.line(f"st[{Y.CUR}] = p_")
                self.line(f"s_ = {self.ex(g.skip_if)}")
                self.line(f"st[{Y.CUR}] = c_")
                self.line("if not s_:")
                self.line("    q_ = p_")
                self.line("    break")
                self.line(f"p_ = (p_ + st[{Y.ORDER}]) % n")
                self.depth -= 1
                self.line("p_ = q_")
            self.line(f"st[{Y.CUR}] = p_")
        else:
            self.line(f"st[{Y.CUR}] = (st[{Y.CUR}] + 1) % n")
        if ph.until is not None:
            self.line(f"if {self.ex(ph.until)}:")
            self.line("    break")
        elif ph.name is not None:
            self.line(f"if st[{Y.TURN}] - {begun} >= n:")
            self.line("    break")

    def decide(self, turn: ir.Turn, call_block) -> None:
        """The turn's action decision: the legal actions in the spec's order, each with its parameters."""
        g = self.g
        nf = self.tmp("n")
        self.line(f"{nf} = 0")
        for i, a in enumerate(turn.actions):
            opened = 0
            if a.when is not None:
                self.line(f"if {self.ex(a.when)}:")
                self.depth += 1
                opened += 1
            names = []
            for k, p in enumerate(a.params):
                v = self.tmp("e")
                el = ELEMENT.get(p.ty, p.ty)
                if isinstance(p, ir.Comprehension) and p.kind == "filter":
                    o = self.loop(p.coll, v)[1]
                    self.depth += o
                    self.bind(p.slot, ELEMENT.get(p.coll.ty, T.INT), v)
                    self.bind(k, el, v)
                    self.line(f"if {self.ex(p.cond)}:")
                    self.depth += 1
                    opened += o + 1
                else:
                    o = self.loop(p, v)[1]
                    self.depth += o
                    self.bind(k, el, v)
                    opened += o
                names.append(self.loc(k, el))
            self.line(f"if {nf} <= {MAX_OPTIONS}:")
            self.line(f"    st[{self.WK} + {nf} * {self.WKC} + 0] = {i}")
            for k, nm in enumerate(names):
                self.line(f"    st[{self.WK} + {nf} * {self.WKC} + {k + 1}] = {nm}")
            self.line(f"{nf} += 1")
            if a.params:
                self.line(f"if {nf} > {MAX_OPTIONS}:")
                self.line("    _stop(st, 13)")
                self.line("    return")
            self.depth -= opened
        self.line(f"if {nf} == 0:")
        self.line(f"    st[{Y.IDLE}] += 1")
        self.line(f"    if st[{Y.IDLE}] > n:")
        self.line("        _stop(st, 2)")
        self.line("        return")
        self.line(f"    st[{Y.TURN_OVER}] = 1")
        self.line("    break")
        self.line(f"st[{Y.IDLE}] = 0")
        if g.end_always and g.end_when is not None:
            self.line(f"if {self.ex(g.end_when)}:")
            self.line("    FIN(st)")
            self.line("    return")
        self.line("if _tick(st) != 0:")
        self.line("    return")
        self.line(f"st[{Y.QUIET}] = 0")
        i = self.tmp("i")
        self.line(f"{i} = _pick(st, {nf})")
        self.line(f"if st[{Y.ERR}] != 0:")
        self.line("    return")
        act = self.tmp("a")
        self.line(f"{act} = st[{self.WK} + {i} * {self.WKC} + 0]")
        for k, a in enumerate(turn.actions):
            self.line(f"{'if' if k == 0 else 'elif'} {act} == {k}:")
            self.depth += 1
            self.line("pass")
            args = "".join(f", st[{self.WK} + {i} * {self.WKC} + {j + 1}]" for j in range(len(a.params)))
            call_block(a.block, args)
            self.depth -= 1

    def finish(self) -> None:
        """FIN: the winners (the spec's `winners`, else the highest score), the game finished."""
        g, Yl = self.g, self.Y
        saved, self.lines, self.depth = self.lines, [], 1
        self.line(f"for p in range({Yl.max_players}):")
        self.line(f"    st[{Yl.win} + p] = 0")
        if g.winners is not None:
            w = self.arr(g.winners)
            self.line(f"for p in {w}:")
            self.line(f"    st[{Yl.win} + p] = 1")
            if g.teams is not None:  # a side wins together: every seat of a side one of its seats won for
                sides = self.side_tables()[0]
                self.line(f"won = np.zeros({Yl.max_players}, np.int64)")
                self.line(f"for p in range(st[{Y.N}]):")
                self.line(f"    if st[{Yl.win} + p]:")
                self.line(f"        won[{sides}[st[{Y.N}] * {Yl.max_players} + p]] = 1")
                self.line(f"for p in range(st[{Y.N}]):")
                self.line(f"    st[{Yl.win} + p] = won[{sides}[st[{Y.N}] * {Yl.max_players} + p]]")
        elif g.score is not None and g.teams is not None:  # the sides' scores: the highest of a side's, or the sum
            base, mp = Yl.pv + g.score * Yl.max_players, Yl.max_players
            sides = self.side_tables()[0]
            count = self.const_array(tuple(len(g.teams.sides.get(n, ())) for n in range(mp + 1)))
            self.line(f"ns = {count}[st[{Y.N}]]")
            self.line(f"sc = np.zeros({mp}, np.int64)")
            self.line(f"seen = np.zeros({mp}, np.int64)")
            self.line(f"for p in range(st[{Y.N}]):")
            self.line(f"    k = {sides}[st[{Y.N}] * {mp} + p]")
            if g.teams.score == "sum":
                self.line(f"    sc[k] += st[{base} + p]")
                self.line("    seen[k] = 1")
                self.line("seen[:ns] = 1")  # a side with no seat scores 0, as an empty sum
            else:
                self.line(f"    if seen[k] == 0 or st[{base} + p] > sc[k]:")
                self.line(f"        sc[k] = st[{base} + p]")
                self.line("        seen[k] = 1")
            self.line("top = 0")
            self.line("first = True")
            self.line("for k in range(ns):")
            self.line("    if seen[k] and (first or sc[k] > top):")
            self.line("        top = sc[k]")
            self.line("        first = False")
            self.line(f"for p in range(st[{Y.N}]):")
            self.line(f"    if sc[{sides}[st[{Y.N}] * {mp} + p]] == top:")
            self.line(f"        st[{Yl.win} + p] = 1")
        elif g.score is not None:
            base = Yl.pv + g.score * Yl.max_players
            self.line(f"top = st[{base}]")
            self.line(f"for p in range(st[{Y.N}]):")
            self.line(f"    top = max(top, st[{base} + p])")
            self.line(f"for p in range(st[{Y.N}]):")
            self.line(f"    if st[{base} + p] == top:")
            self.line(f"        st[{Yl.win} + p] = 1")
        self.line(f"st[{Y.STATUS}] = 1")
        produced, self.lines, self.depth = self.lines, saved, 0
        self.defs.append("@njit(cache=True)\ndef FIN(st):\n" + "\n".join(produced) + "\n")

    def measures(self) -> None:
        """MEAS: the spec's measures of a finished game, into `row` (numbers; conditions as 0/1)."""
        saved, self.lines, self.depth = self.lines, [], 1
        self.line("pass")
        for i, m in enumerate(self.g.measures):
            self.line(f"row[{i}] = np.int64({self.ex(m)})")
        produced, self.lines, self.depth = self.lines, saved, 0
        self.defs.append("@njit(cache=True)\ndef MEAS(st, row):\n" + "\n".join(produced) + "\n")

    # -- the module --------------------------------------------------------------------------------
    def module(self) -> str:
        g = self.g
        for name, f in g.functions.items():
            self.function_def(self.func_ids[name], "st" + self.params(f.params), f.value, expr=True)
        for name, p in g.procedures.items():
            self.function_def(self.proc_ids[name], "st" + self.params(p.params), p.block.body)
        self.finish()
        self.measures()
        self.flow()
        Yl = self.Y
        dr = [B.DIRECTIONS[d][0] for d in B.DIRECTIONS]
        dc = [B.DIRECTIONS[d][1] for d in B.DIRECTIONS]
        order8 = [list(B.DIRECTIONS).index(d) for d in B.ORTHOGONAL + B.DIAGONAL]
        head = [
            '"""A Rulewright game kernel, generated (interpreter/kernel/emit.py): numbers only, no spec text."""',
            "import numpy as np",
            "from numba import njit",
            "from interpreter.kernel.native import unowned",
            "",
            *(f"{name} = {int(v)}" for name, v in (
                ("CUR", Y.CUR), ("TURN", Y.TURN), ("STEPS", Y.STEPS), ("DECISIONS", Y.DECISIONS),
                ("STATUS", Y.STATUS), ("N", Y.N), ("ERR", Y.ERR), ("RNG", Y.RNG), ("ARNG", Y.ARNG),
                ("NCH", Y.NCH), ("NCC", Y.NCC), ("ZL", Yl.zl), ("ZC", Yl.zc), ("WH", Yl.wh), ("NC", Yl.n_cards),
                ("WIN", Yl.win), ("COV", Yl.cov), ("NREAD", len(g.readings)), ("NMEAS", len(g.measures)), ("PV", Yl.pv), ("MP", Yl.max_players), ("BOARD", Yl.board), ("MAXC", self.maxc),
                ("SCORE", g.score if g.score is not None else -1), ("MAX_DICE", MAX_DICE),
                ("MAX_SIDES", MAX_SIDES), ("SIZE", Yl.size), ("PAR", self.PAR), ("PB", self.PAR + Yl.board),
                ("RCH", self.RCH), ("TOP", self.TOP), ("AR0", self.TOP + 1), ("ARN", ARENA), ("WORK", Y.WORK), ("WORK_PER_STEP", WORK_PER_STEP), ("ZS", Yl.zs), ("NZ", Yl.n_zones), ("NT", len(self.kept_tables)))),
            f"DR = np.array([{', '.join(map(str, dr))}], dtype=np.int64)",
            f"DC = np.array([{', '.join(map(str, dc))}], dtype=np.int64)",
            f"ORDER8 = np.array([{', '.join(map(str, order8))}], dtype=np.int64)",
            "KS = np.array([" + ", ".join("[" + ", ".join(map(str, t)) + "]" for t in self.kept_tables) +
            "], dtype=np.int64)" if self.kept_tables else f"KS = np.zeros((1, {max(1, g.n_cards)}), dtype=np.int64)",
        ]
        body = "\n\n".join(self.defs)
        return "\n".join(head + self.consts) + "\n" + _RUNTIME + "\n" + body + "\n" + _DRIVER


def _card_values(e: ir.X, slot: int, n_cards: int) -> tuple[int, ...] | None:
    """A card-only expression's value for every card id (its element at local `slot`), or None when it
    reads anything else (state, options, readings)."""
    import operator as op
    ops = {"+": op.add, "-": op.sub, "*": op.mul, "==": op.eq, "!=": op.ne, "<": op.lt, "<=": op.le,
           ">": op.gt, ">=": op.ge}

    def value(x: ir.X, c: int):
        if isinstance(x, ir.Const):
            return x.value
        if isinstance(x, ir.Prop) and isinstance(x.card, ir.Local) and x.card.slot == slot:
            return x.table[c]
        if isinstance(x, ir.Unary):
            v = value(x.operand, c)
            return (not v) if x.op == "not" else -v
        if isinstance(x, ir.Binary):
            if x.op == "and":
                return value(x.left, c) and value(x.right, c)
            if x.op == "or":
                return value(x.left, c) or value(x.right, c)
            if x.op in ops:
                return ops[x.op](value(x.left, c), value(x.right, c))
        raise LookupError
    try:
        return tuple(int(value(e, c)) for c in range(n_cards))
    except (LookupError, IndexError):
        return None


def _kept(x: Any, n_cards: int) -> tuple[int, ...] | None:
    """The card-value table of a kept zone sum: `sum(zone, prop)` or `count([c in zone where P(c)])` with P
    of the card's properties alone; None for anything else."""
    if not isinstance(x, ir.Builtin) or not x.args or n_cards == 0:
        return None
    if x.name == "sum" and x.prop is not None and x.prop[0] == "prop" and x.args[0].ty is T.ZONE:
        return tuple(int(v) for v in x.prop[1])
    if x.name == "count" and isinstance(x.args[0], ir.Comprehension) and x.args[0].kind == "filter" \
            and x.args[0].coll.ty is T.ZONE and x.args[0].cond is not None:
        return _card_values(x.args[0].cond, x.args[0].slot, n_cards)
    return None


def keeps_lists(body: Any) -> bool:
    """Whether a loop's body assigns a list to a local (the list may outlive its pass: no release)."""
    return any(isinstance(n, ir.Assign) and isinstance(n.target, ir.Local) and n.target.ty in _LISTS
               for n in ir.walk(body))


def _calls(body: list, out: set[str]) -> None:
    for s in body or []:
        if isinstance(s, ir.Call):
            out.add(s.proc)
        for attr in ("body", "orelse"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                _calls(sub, out)
        if isinstance(s, ir.If):
            for _c, b in s.branches:
                _calls(b, out)
        if isinstance(s, ir.ChooseOption):
            for o in s.options:
                _calls(o.body, out)
        if isinstance(s, ir.ChooseTogether):
            _calls(s.body, out)


def source(g: ir.Game, interchange: Any = None) -> str:  # noqa: D401
    """The kernel module of a lowered game (raises Unsupported for what it cannot run); `interchange`
    (compile/interchange.py's table for the spec) is needed when a rule chooses a card."""
    return Emitter(g, interchange).module()
