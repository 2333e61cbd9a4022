"""Boards: grids of cells, declared in a spec's `boards:` section.

Owns the whole concept, so that the checker and the compilers only hook in:
- the declaration: `grid: {rows: 6, columns: 7}`, each size a number (1 to 26) or an expression of
  game options (`option.size + 1`), folded here without evaluating spec text as Python;
- cell names: column letter and row number, `a1` the top left cell (row 1 is the top row, as a page
  is read; "down" goes to higher rows), or with `origin: bottom` the bottom left one (chess and
  checkers notation), so logs and option labels read like a rulebook's diagram;
- each seat's forward direction (`forward: [down, up]`, read as `forward(board, p)`);
- the run-time geometry (`Board`, `Cell`): the cells row by row, with each cell's steps in the eight
  directions precomputed, so neighbours and lines never produce a cell off the board;
- the board builtins (`cells`, `cell`, `on_board`, `neighbours`, `diagonals`, `step`, `can_step`,
  `line`), joined to the one builtin table (builtins.py);
- the static checks the checker delegates: a cell `check` can see is off the board (E471), an
  unknown direction (E472), a cell of another board used as a key (E473), board declarations and
  `cells:` variables (E470, E474).

What it deliberately does not do: hexagonal or irregular boards (a keyed variable still does those),
cell-valued variables (a cell is kept as the key of a variable instead), or a board-shaped
observation for learning agents (boards are ordinary variable slots, observed like any other).
"""
from __future__ import annotations

import itertools
import re
from typing import Any, Iterator

from . import nodes as N
from . import builtins as _builtins
from .builtins import Builtin, RuleError
from .kinds import T

MAX_SIDE = 26  # rows and columns of a board: columns are named a to z (and at most 16 boards: the schema)
COLUMN_NAMES = "abcdefghijklmnopqrstuvwxyz"
DIRECTIONS: dict[str, tuple[int, int]] = {  # (rows, columns) of one step; row 1 is the top row
    "up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1),
    "up left": (-1, -1), "up right": (-1, 1), "down left": (1, -1), "down right": (1, 1),
}
ORTHOGONAL = ("up", "left", "right", "down")  # reading order: the cell above first, the one below last
DIAGONAL = ("up left", "up right", "down left", "down right")


def cell_name(row: int, column: int) -> str:
    return f"{COLUMN_NAMES[column - 1]}{row}"


def cell_names(rows: int, columns: int) -> list[str]:
    """Every cell of a rows x columns board, row by row: the keys of a `cells:` variable."""
    return [cell_name(r, c) for r in range(1, rows + 1) for c in range(1, columns + 1)]


# -- sizes: a number or an expression of options ------------------------------------------------
_FOLD = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
         "//": lambda a, b: a // b if b else None}


def fold(e: Any, options: dict[str, Any], constants: dict[str, Any]) -> int | None:
    """A board size from its expression: numbers, `option.x`, named number constants and + - * //.
    None when the expression is anything else (the checker says so: E474)."""
    if isinstance(e, N.Int):
        return e.value
    if isinstance(e, N.Attr) and isinstance(e.obj, N.Name) and e.obj.id == "option":
        v = options.get(e.name)
        return v if isinstance(v, int) and not isinstance(v, bool) else None
    if isinstance(e, N.Name):
        v = constants.get(e.id)
        return v if isinstance(v, int) and not isinstance(v, bool) else None
    if isinstance(e, N.Unary) and e.op == "-":
        v = fold(e.operand, options, constants)
        return None if v is None else -v
    if isinstance(e, N.Binary) and e.op in _FOLD:
        a, b = fold(e.left, options, constants), fold(e.right, options, constants)
        return None if a is None or b is None else _FOLD[e.op](a, b)
    return None


def size_of(size: Any, options: dict[str, Any], constants: dict[str, Any]) -> int | None:
    """One side of a board for these option values: the declared number, or its expression folded."""
    if isinstance(size, int):
        return size
    return fold(getattr(size, "ast", None), options, constants)


def option_settings(spec_options: dict, size: Any) -> Iterator[dict[str, Any]]:
    """Every combination of the values of the options a size expression reads (at most 1,000)."""
    names = sorted({n.name for n in N.walk(size.ast) if isinstance(n, N.Attr) and isinstance(n.obj, N.Name)
                    and n.obj.id == "option" and n.name in spec_options}) if getattr(size, "ast", None) else []
    values = [_field(spec_options[n], "values") for n in names]
    for combo in itertools.islice(itertools.product(*values), 1000):
        yield {**{n: _field(o, "default") for n, o in spec_options.items()}, **dict(zip(names, combo))}


def _field(option: Any, name: str) -> Any:
    """An option's `values`/`default`, from its OptionDef or (while the model is built) its YAML."""
    if isinstance(option, dict):
        if name == "values":
            from .options import option_values
            return option_values(option.get("values"))
        return option.get(name)
    return getattr(option, name)


def largest(size: Any, spec_options: dict, constants: dict[str, Any]) -> int:
    """The largest a side can be under any option values (the slots a `cells:` variable needs)."""
    sizes = [size_of(size, o, constants) for o in option_settings(spec_options, size)]
    sizes = [s for s in sizes if s is not None]
    return max(1, min(MAX_SIDE, max(sizes, default=1)))


# -- run time --------------------------------------------------------------------------------------
class Cell(str):
    """One cell of one board: shown as its name (`c3`); equal only to the same cell of the same board.
    `row` is the row as the board numbers it (from the bottom on a board with `origin: bottom`).

    A cell is a text (its name) to everything outside the rules, so a variable holding one (`type: cell`)
    is shown, logged and sent to the table as `c3` with no conversion; inside the rules it compares, hashes
    and sorts as a cell of its board (a plain text never equals it there: the checker keeps kinds apart)."""

    def __new__(cls, board: "Board", row: int, column: int, index: int, order: int | None = None) -> "Cell":
        self = super().__new__(cls, cell_name(row, column))
        self.board, self.row, self.column, self.index = board, row, column, index
        self.name = str.__str__(self)
        # an int, so sets and dicts of cells iterate the same every run
        self._hash = (board.order if order is None else order) * 1024 + index
        return self

    def __str__(self) -> str:
        return self.name

    __repr__ = __str__

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Cell) and other._hash == self._hash
                                 and other.board.name == self.board.name)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __lt__(self, other: "Cell") -> bool:
        return self._hash < other._hash

    def __getnewargs__(self):  # a pickle or a copy makes the cell again (its board may not be filled in yet)
        return self.board, self.row, self.column, self.index, self._hash // 1024


class Board:
    """A board as one game (its options) has it: every cell made once, steps precomputed.

    The cells are made in reading order, the top row of the diagram first; `origin: bottom` only numbers
    the rows from the bottom (chess's and checkers' notation), so directions stay as the diagram is drawn.
    `forward` is each seat's forward direction (`forward: [down, up]`), empty when the board has none."""

    def __init__(self, name: str, label: str, rows: int, columns: int, order: int, origin: str = "top",
                 forward: tuple[str, ...] = ()):
        self.name, self.label, self.rows, self.columns, self.order = name, label, rows, columns, order
        self.origin, self.forward = origin, tuple(forward)
        shown = (lambda r: r) if origin == "top" else (lambda r: rows + 1 - r)  # a row of the diagram as numbered
        self.cells = tuple(Cell(self, shown(r), c, i) for i, (r, c) in
                           enumerate((r, c) for r in range(1, rows + 1) for c in range(1, columns + 1)))
        self.at = {(x.row, x.column): x for x in self.cells}
        self.named = {x.name: x for x in self.cells}
        drawn = {(shown(x.row), x.column): x for x in self.cells}  # the diagram's rows, top first
        self.steps = {d: tuple(drawn.get((shown(x.row) + dr, x.column + dc)) for x in self.cells)
                      for d, (dr, dc) in DIRECTIONS.items()}
        self.orthogonal = tuple(tuple(y for d in ORTHOGONAL if (y := self.steps[d][x.index]) is not None)
                                for x in self.cells)
        self.diagonal = tuple(tuple(y for d in DIAGONAL if (y := self.steps[d][x.index]) is not None)
                              for x in self.cells)

    def __str__(self) -> str:
        return self.name

    def sizes(self) -> str:
        return f"{self.rows} row{'s' * (self.rows != 1)} and {self.columns} column{'s' * (self.columns != 1)}"

    def cell(self, row: int, column: int) -> Cell:
        x = self.at.get((row, column))
        if x is None:
            raise RuleError(f"cell({self.name}, {row}, {column}) is off the board: {self.name} has {self.sizes()}")
        return x


def boards_for(spec: Any, options: dict[str, Any]) -> dict[str, Board]:
    """The boards of one game, sized for its option values (the compiler's table)."""
    out = {}
    for i, b in enumerate(spec.boards.values()):
        rows = size_of(b.rows, options, spec.constants) or 1
        columns = size_of(b.columns, options, spec.constants) or 1
        out[b.name] = Board(b.name, b.label, max(1, min(MAX_SIDE, rows)), max(1, min(MAX_SIDE, columns)), i,
                            b.origin, b.forward)
    return out


def key_table(board: Board, table: dict) -> dict:
    """A `cells:` variable's {cell name: slot} as {cell: slot} for the cells this game's board has."""
    return {board.named[k]: slot for k, slot in table.items() if k in board.named}


def direction(d: str) -> tuple:
    if d not in DIRECTIONS:
        raise RuleError(f"'{d}' is not a direction ({', '.join(DIRECTIONS)})")
    return d


def step_of(x: Cell, d: str) -> Cell:
    y = x.board.steps[direction(d)][x.index]
    if y is None:
        raise RuleError(f"step({x}, \"{d}\") leaves the board: {x.board.name} has {x.board.sizes()}")
    return y


def line_of(x: Cell, d: str, n: int | None = None) -> list[Cell]:
    """Up to n cells from x (x first) in a direction, stopping at the edge of the board."""
    steps = x.board.steps[direction(d)]
    if n is not None:
        n = max(0, n)
    out = []
    y: Cell | None = x
    while y is not None and (n is None or len(out) < n):
        out.append(y)
        y = steps[y.index]
    return out


def cells_of(board: Board) -> list[Cell]:
    return list(board.cells)


def cell_of(board: Board, row: int, column: int) -> Cell:
    return board.cell(row, column)


def on_board_of(board: Board, row: int, column: int) -> bool:
    return (row, column) in board.at


def neighbours_of(x: Cell) -> list[Cell]:
    return list(x.board.orthogonal[x.index])


def diagonals_of(x: Cell) -> list[Cell]:
    return list(x.board.diagonal[x.index])


def can_step_of(x: Cell, d: str) -> bool:
    return x.board.steps[direction(d)][x.index] is not None


def step_at(steps: tuple, x: Cell, d: str) -> Cell:
    """`step` with a literal direction on a game's only board: the direction's step table given."""
    y = steps[x.index]
    if y is None:
        return step_of(x, d)  # raises, naming the step
    return y


def forward_of(board: Board, seat: int) -> str:
    """The direction a seat (from 0) plays forward on a board (`forward: [down, up]`)."""
    if not board.forward:
        raise RuleError(f"board '{board.name}' gives no forward direction (`forward:` in its declaration)")
    if seat >= len(board.forward):
        raise RuleError(f"board '{board.name}' gives a forward direction for {len(board.forward)} seat(s), "
                        f"not for seat {seat + 1}")
    return board.forward[seat]


def slot_row(board: Board, table: dict) -> tuple:
    """A `cells:` variable's slots by cell index (generated code reads `row[c.index]`)."""
    return tuple(table[c] for c in board.cells)


# The helper generated code calls for a `step` in a direction it knows (compile/expressions.py), by this name.
CODEGEN_HELPERS = {"_b_step_at": step_at}


_DIRS = ", ".join(f'"{d}"' for d in DIRECTIONS)
BOARD_BUILTINS: dict[str, Builtin] = {b.name: b for b in [
    Builtin("cells", (T.BOARD,), lambda ts: T.CELLS,
            "Every cell of a board, row by row from the top row, each row from column a.",
            "count(cells(grid))", cells_of),
    Builtin("cell", (T.BOARD, T.INT, T.INT), lambda ts: T.CELL,
            "The cell of a board at a row and a column, both counted from 1 (row 1 is the top row, or the bottom "
            "one on a board with `origin: bottom`); a cell "
            "off the board is a check error when `check` can see it, a rule error otherwise.",
            "cell(grid, 1, 3)", cell_of),
    Builtin("on_board", (T.BOARD, T.INT, T.INT), lambda ts: T.BOOL,
            "Whether a board has a cell at this row and column.", "on_board(grid, 0, 3)", on_board_of),
    Builtin("neighbours", (T.CELL,), lambda ts: T.CELLS,
            "The cells next to a cell across an edge (up, left, right, down; two to four of them): never a "
            "cell off the board.", "count(neighbours(cell(grid, 1, 1)))", neighbours_of),
    Builtin("diagonals", (T.CELL,), lambda ts: T.CELLS,
            "The cells touching a cell at a corner (up left, up right, down left, down right); "
            "`neighbours(c) + diagonals(c)` are the eight around it.", "diagonals(cell(grid, 2, 2))", diagonals_of),
    Builtin("step", (T.CELL, T.STR), lambda ts: T.CELL,
            f"The cell one step from a cell in a direction ({_DIRS}); off the board is a rule error, so test "
            "`can_step` first.", 'step(cell(grid, 2, 2), "down")', step_of),
    Builtin("can_step", (T.CELL, T.STR), lambda ts: T.BOOL,
            "Whether the board goes on from a cell in a direction.", 'can_step(cell(grid, 1, 1), "up")', can_step_of),
    Builtin("line", (T.CELL, T.STR, T.INT), lambda ts: T.CELLS,
            "The cells in a line from a cell (the cell first) in a direction, up to a number of cells or, "
            "without one, to the edge: it stops at the edge, so four in a row is "
            "`count([x in line(c, \"right\", 4) where mine[x]]) == 4`.",
            'line(cell(grid, 1, 1), "down right", 3)', line_of, min_args=2),
    Builtin("forward", (T.BOARD, T.PLAYER), lambda ts: T.STR,
            "The direction a player plays forward on a board, from its `forward:` list (seat 1 first): "
            "`step(c, forward(grid, me))`; a diagonal forward is `forward(grid, me) + \" left\"`.",
            'forward(grid, me) == "down"', forward_of),
]}

_builtins.BUILTINS.update(BOARD_BUILTINS)


def describe(spec: Any) -> list[str]:
    """The `boards:` section as `rulewright explain` shows it: each board, its size, what its cells hold."""
    out = []
    for b in spec.boards.values():
        sides = [str(x) if isinstance(x, int) else (x.text.value if x is not None else "?")
                 for x in (b.rows, b.columns)]
        held = [f"`{kv.name}` ({kv.label})" for kvs in spec.keyed.values() for kv in kvs.values() if kv.board == b.name]
        corner = "bottom" if b.origin == "bottom" else "top"
        forward = "; forward is " + ", ".join(f"{d} for seat {k}" for k, d in enumerate(b.forward, 1)) if b.forward else ""
        out.append(f"- **{b.label}** (`{b.name}`): {sides[0]} rows and {sides[1]} columns, `a1` the {corner} left cell"
                   + forward + (f"; each cell holds {', '.join(held)}" if held else "")
                   + (f". \"{b.rule}\"" if b.rule else "."))
    return out


# -- static checks (the checker calls these) ---------------------------------------------------------
def _int_const(e: Any, constants: dict[str, Any]) -> int | None:
    return fold(e, {}, constants)


def board_of(e: Any, spec: Any = None, code: Any = None, depth: int = 0) -> str | None:
    """The board an expression's cells belong to, when `check` can tell: a builtin call that names it
    (`cells(b)`, `neighbours(cell(b, 1, 1))`), a filter of such a list, or (given the spec and the code
    the expression is in) a local bound from one: `for each c in cells(b)`, `let c = ...`, a comprehension's
    element, an action's parameter. None when it cannot tell (or the spec has one board: nothing to tell)."""
    if depth > 20:  # `let c = step(c, "up")` binds c from itself: stop following
        return None
    depth += 1
    if isinstance(e, N.Name) and isinstance(e.ref, tuple) and e.ref[:1] in (("board",), ("cellname",)):
        return e.ref[1]
    if isinstance(e, N.Call) and e.func in BOARD_BUILTINS and e.args and isinstance(e.ref, tuple) \
            and e.ref[0] == "builtin":
        return board_of(e.args[0], spec, code, depth)
    if isinstance(e, N.Filter):
        return board_of(e.coll, spec, code, depth)
    if isinstance(e, N.Call) and e.func in ("first", "last", "sorted") and e.args:
        return board_of(e.args[0], spec, code, depth)
    if isinstance(e, N.Name) and isinstance(e.ref, tuple) and e.ref[0] == "local" and code is not None:
        source = _binder(e.ref[1], spec, code)
        return board_of(source, spec, code, depth) if source is not None else None
    return None


def _binder(slot: int, spec: Any, code: Any) -> Any:
    """The expression a local's value comes from: a collection for a loop or a comprehension's element,
    the value of a `let`, the list an action parameter is chosen from."""
    for n in N.walk(code.ast) if code.ast is not None else ():
        if getattr(n, "slot", None) != slot:
            continue
        if isinstance(n, (N.Filter, N.MapList, N.ForEach, N.Quantifier)):
            return n.coll
        if isinstance(n, (N.Let, N.LetIn)):
            return n.value
        if isinstance(n, N.ChooseValue):
            return n.source
    if spec is not None:
        for a in spec.actions.values():
            if a.do is code or code in a.params.values():
                params = list(a.params.values())
                return params[slot].ast if slot < len(params) else None
    return None


_CELL_NAME = re.compile(r"([a-z])([1-9][0-9]?)")


def cell_literal(spec: Any, name: str) -> tuple[str, int, int] | None:
    """(board, row, column) of a cell named in rule text as on the diagram (`a8`): only on a spec with one
    board, whose largest size has that cell, and only where the name means nothing else (the checker asks last)."""
    m = _CELL_NAME.fullmatch(name)
    if m is None or len(spec.boards) != 1:
        return None
    b = next(iter(spec.boards.values()))
    row, column = int(m.group(2)), COLUMN_NAMES.index(m.group(1)) + 1
    if row > largest(b.rows, spec.options, spec.constants) or column > largest(b.columns, spec.options, spec.constants):
        return None
    return b.name, row, column


def last_cell_name(spec: Any) -> str | None:
    """The name of the last cell of the spec's only board at its largest (`h8`), or None (no board or several)."""
    if len(spec.boards) != 1:
        return None
    b = next(iter(spec.boards.values()))
    return cell_name(largest(b.rows, spec.options, spec.constants), largest(b.columns, spec.options, spec.constants))


def static_cell(e: Any, spec: Any) -> tuple[str, int, int] | None:
    """(board, row, column) of a cell `check` can see: `cell(b, 1, 2)`, `a8`, and steps from one."""
    if isinstance(e, N.Name) and isinstance(e.ref, tuple) and e.ref[0] == "cellname":
        return cell_literal(spec, e.id)
    if not isinstance(e, N.Call) or not isinstance(e.ref, tuple) or e.ref[0] != "builtin":
        return None
    if e.func == "cell" and len(e.args) == 3:
        b = board_of(e.args[0])
        r, c = _int_const(e.args[1], spec.constants), _int_const(e.args[2], spec.constants)
        return None if b is None or r is None or c is None else (b, r, c)
    if e.func == "step" and len(e.args) == 2 and isinstance(e.args[1], N.Str) and e.args[1].value in DIRECTIONS:
        base = static_cell(e.args[0], spec)
        if base is None:
            return None
        dr, dc = DIRECTIONS[e.args[1].value]
        if base[0] in spec.boards and spec.boards[base[0]].origin == "bottom":
            dr = -dr  # rows are numbered from the bottom: "up" goes to higher rows
        return base[0], base[1] + dr, base[2] + dc
    return None


def check_call(ck: Any, e: N.Call, code: Any) -> None:
    """After a board builtin's arguments are typed: what `check` can see of its cells and directions."""
    spec = ck.spec
    if e.func in ("step", "can_step", "line") and len(e.args) >= 2 and isinstance(e.args[1], N.Str) \
            and e.args[1].value not in DIRECTIONS:
        from ..spec.diagnostics import did_you_mean
        ck.error("E472", f"'{e.args[1].value}' is not a direction", code, e.args[1].pos,
                 hint=did_you_mean(e.args[1].value, list(DIRECTIONS)) or f"directions: {_DIRS}")
    if e.func == "forward" and e.args:
        b = board_of(e.args[0])
        if b in spec.boards and not spec.boards[b].forward:
            ck.error("E475", f"board '{b}' gives no forward direction", code, e.pos,
                     hint=f"declare each seat's direction on the board: `{b}: {{..., forward: [down, up]}}`")
    if e.func in ("cell", "step"):
        at = static_cell(e, spec)
        if at is None or at[0] not in spec.boards:
            return
        b = spec.boards[at[0]]
        rows = largest(b.rows, spec.options, spec.constants)
        columns = largest(b.columns, spec.options, spec.constants)
        if not (1 <= at[1] <= rows and 1 <= at[2] <= columns):
            what = "this step goes to " if e.func == "step" else ""
            ck.error("E471", f"{what}row {at[1]}, column {at[2]}, off the board '{b.name}' ({rows} rows and "
                     f"{columns} columns)", code, e.pos,
                     hint=f"rows go from 1 to {rows} and columns from 1 to {columns}; `neighbours`, `line` and "
                          "`can_step` never leave the board")


def check_key(ck: Any, kv: Any, key: N.Expr, code: Any) -> None:
    """A cell used as the key of a `cells:` variable: of that variable's board."""
    if len(ck.spec.boards) < 2:
        return  # every cell is a cell of the one board
    other = board_of(key, ck.spec, code)
    if other is not None and other != kv.board:
        ck.error("E473", f"a cell of board '{other}' is not a key of '{kv.name}', which holds a value per cell "
                 f"of '{kv.board}'", code, key.pos,
                 hint=f"take the cell from '{kv.board}', e.g. `cell({kv.board}, row, column)`")


def check_decls(ck: Any) -> None:
    """The `boards:` section and the `cells:` variables (spec-level checks)."""
    from ..spec.diagnostics import did_you_mean
    s = ck.spec
    from .builtins import BUILTINS, NAMESPACES, SPECIAL_NAMES
    for b in s.boards.values():
        if b.name in BUILTINS and b.name not in SPECIAL_NAMES:
            ck.shadows(b.name, "board", b.span)
        elif b.name in SPECIAL_NAMES or b.name in NAMESPACES or b.name in s.zones \
                or b.name in s.constants or b.name in s.vars["global"] or b.name in s.keyed["global"]:
            ck.error("E416", f"'{b.name}' is already the name of something in the game; a board needs its own",
                     b.span, hint="pick another name for the board")
        if b.forward and len(b.forward) < s.max_players:
            ck.error("E475", f"board '{b.name}' gives a forward direction for {len(b.forward)} seat(s), but the "
                     f"game has up to {s.max_players} players", s.doc.span(("boards", b.name, "forward")),
                     hint="give one direction per seat, seat 1 first: `forward: [down, up]`")
        for side in ("rows", "columns"):
            size = getattr(b, side)
            if isinstance(size, int):
                continue
            span = s.doc.span(("boards", b.name, side))
            if size is None or size.ast is None:
                continue  # a syntax error, reported already
            sizes = [size_of(size, o, s.constants) for o in option_settings(s.options, size)]
            if any(x is None for x in sizes):
                ck.error("E474", f"board '{b.name}': {side} must be a number or an expression of game options",
                         span, hint="for example `option.size + 1`, with an option whose values are numbers")
            elif any(not 1 <= x <= MAX_SIDE for x in sizes):
                ck.error("E474", f"board '{b.name}': {side} must be from 1 to {MAX_SIDE} for every option value, "
                         f"not {min(sizes)} to {max(sizes)}", span, hint="a board has 1 to 26 rows and columns")
    for scope, kvs in s.keyed.items():
        for kv in kvs.values():
            if kv.board is None:
                continue
            decl = ((s.doc.data.get("state") or {}).get(scope) or {}).get(kv.name, {})
            span = s.doc.span(("state", scope, kv.name, "cells"))
            if "keys" in decl:
                ck.error("E470", f"variable '{kv.name}' has both `keys:` and `cells:`", span,
                         hint="`cells: BOARD` gives its keys: one per cell; remove `keys:`")
            if kv.board not in s.boards:
                ck.error("E470", f"variable '{kv.name}': unknown board '{kv.board}'", span,
                         hint=did_you_mean(kv.board, list(s.boards)) or
                         (f"boards: {', '.join(s.boards)}" if s.boards else "declare it under `boards:`"))

