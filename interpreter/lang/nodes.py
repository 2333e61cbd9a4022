"""AST of the rules language: one dataclass per grammar rule.

Owns the shape of conditions and effects after parsing. Every node keeps its
character span (`pos`) inside the text it was parsed from; the `Text` that
owns that string maps spans back to file:line:col. The checker fills the
`ty` (static type) and `ref` (what a name resolves to) annotations; the
compiler only reads them. Nothing here evaluates anything.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

Pos = tuple[int, int]  # [start, end) character offsets in the parsed text


@dataclass(slots=True, eq=False)
class Node:
    pos: Pos


# ---- expressions ----------------------------------------------------------
@dataclass(slots=True, eq=False)
class Expr(Node):
    ty: Any = field(default=None, kw_only=True)  # set by the checker


@dataclass(slots=True, eq=False)
class Int(Expr):
    value: int


@dataclass(slots=True, eq=False)
class Str(Expr):
    value: str


@dataclass(slots=True, eq=False)
class Bool(Expr):
    value: bool


@dataclass(slots=True, eq=False)
class Name(Expr):
    id: str
    ref: Any = field(default=None, kw_only=True)  # set by the checker


@dataclass(slots=True, eq=False)
class Attr(Expr):
    obj: Expr
    name: str
    name_pos: Pos
    ref: Any = field(default=None, kw_only=True)


@dataclass(slots=True, eq=False)
class Index(Expr):
    obj: Expr
    key: Expr
    ref: Any = field(default=None, kw_only=True)  # set by the checker for a keyed variable


@dataclass(slots=True, eq=False)
class Call(Expr):
    func: str
    func_pos: Pos
    args: list[Expr]
    ref: Any = field(default=None, kw_only=True)


@dataclass(slots=True, eq=False)
class ListLit(Expr):
    items: list[Expr]


@dataclass(slots=True, eq=False)
class Filter(Expr):
    """`[x in coll where cond]`; with `stop`, `[x in coll while cond]`: the elements up to the first that fails."""
    var: str
    coll: Expr
    cond: Expr
    slot: int = field(default=-1, kw_only=True)
    stop: bool = field(default=False, kw_only=True)


@dataclass(slots=True, eq=False)
class Quantifier(Expr):
    """`any c in cells(grid) where disc[c] == 0`, `all c in me.hand where c.red`: whether some (every)
    element satisfies a condition, looking no further than the first witness (or counter-example)."""
    func: str
    func_pos: Pos
    var: str
    coll: Expr
    cond: Expr
    slot: int = field(default=-1, kw_only=True)


@dataclass(slots=True, eq=False)
class MapList(Expr):
    """`[value for var in coll where cond]`: one value per element (that satisfies the condition)."""
    value: Expr
    var: str
    coll: Expr
    cond: Expr | None
    slot: int = field(default=-1, kw_only=True)


@dataclass(slots=True, eq=False)
class Aggregate(Expr):
    """`best p in players by score(p)`, `sum c in me.hand where c.red of c.value`: an aggregate
    (sum, highest, lowest, best, worst) of an expression over the elements of a collection."""
    func: str
    func_pos: Pos
    var: str
    coll: Expr
    cond: Expr | None
    value: Expr
    slot: int = field(default=-1, kw_only=True)


@dataclass(slots=True, eq=False)
class Unary(Expr):
    op: str  # "-" or "not"
    operand: Expr


@dataclass(slots=True, eq=False)
class Binary(Expr):
    op: str  # + - * // % == != < <= > >= and or
    left: Expr
    right: Expr


@dataclass(slots=True, eq=False)
class Ternary(Expr):
    cond: Expr
    then: Expr
    orelse: Expr


@dataclass(slots=True, eq=False)
class LetIn(Expr):
    """`let name = value in body`: a named value inside an expression (a function's scoring table)."""
    name: str
    value: Expr
    body: Expr
    slot: int = field(default=-1, kw_only=True)


@dataclass(slots=True, eq=False)
class Template(Expr):
    """A string with {expr} holes (say, option labels, prompts)."""
    parts: list[str | Expr]


# ---- statements -----------------------------------------------------------
@dataclass(slots=True, eq=False)
class Stmt(Node):
    pass


@dataclass(slots=True, eq=False)
class Move(Stmt):
    what: Expr
    dest: Expr


@dataclass(slots=True, eq=False)
class Shuffle(Stmt):
    zone: Expr


@dataclass(slots=True, eq=False)
class Let(Stmt):
    name: str
    value: Expr
    slot: int = field(default=-1, kw_only=True)


@dataclass(slots=True, eq=False)
class Assign(Stmt):
    target: Expr
    op: str  # "=", "+=", "-="
    value: Expr


@dataclass(slots=True, eq=False)
class CallStmt(Stmt):
    call: Call


@dataclass(slots=True, eq=False)
class EndTurn(Stmt):
    pass


@dataclass(slots=True, eq=False)
class EndGame(Stmt):
    pass


@dataclass(slots=True, eq=False)
class TurnOrder(Stmt):
    """Who plays next: `next turn to p` ("to"), `skip next player` ("skip"),
    `reverse turn order` ("reverse"), `extra turn` ("extra")."""
    what: str
    who: Expr | None = None


@dataclass(slots=True, eq=False)
class Reveal(Stmt):
    """`reveal(me.dice)`: a hidden variable shown to every seat until it next changes (lang/hidden.py).
    Written as a procedure call, so a spec's own procedure named `reveal` keeps its meaning (the checker
    turns the statement back into that call)."""
    target: Expr
    call: Call
    scope: str = field(default="player", kw_only=True)  # set by the checker
    rows: tuple = field(default=(), kw_only=True)  # the variable's rows (every key of a keyed variable)
    owner: Expr | None = field(default=None, kw_only=True)  # whose, for a player variable


@dataclass(slots=True, eq=False)
class Say(Stmt):
    text: Template


@dataclass(slots=True, eq=False)
class Pass(Stmt):
    pass


@dataclass(slots=True, eq=False)
class ChooseValue(Stmt):
    name: str
    source: Expr
    by: Expr | None
    prompt: Template | None
    slot: int = field(default=-1, kw_only=True)


@dataclass(slots=True, eq=False)
class ChooseSubset(Stmt):
    name: str
    source: Expr
    cond: Expr
    by: Expr | None
    prompt: Template | None
    slot: int = field(default=-1, kw_only=True)


@dataclass(slots=True, eq=False)
class If(Stmt):
    branches: list[tuple[Expr, list[Stmt]]]
    orelse: list[Stmt] | None


@dataclass(slots=True, eq=False)
class ForEach(Stmt):
    var: str
    coll: Expr
    body: list[Stmt]
    slot: int = field(default=-1, kw_only=True)


@dataclass(slots=True, eq=False)
class Repeat(Stmt):
    count: Expr
    body: list[Stmt]
    slot: int = field(default=-1, kw_only=True)


@dataclass(slots=True, eq=False)
class While(Stmt):
    cond: Expr
    body: list[Stmt]


@dataclass(slots=True, eq=False)
class Option(Node):
    label: Template
    cond: Expr | None
    body: list[Stmt]
    var: str | None = None  # `option for p in ...`: one option per element
    coll: Expr | None = None
    slot: int = field(default=-1, kw_only=True)


@dataclass(slots=True, eq=False)
class ChooseOption(Stmt):
    by: Expr | None
    prompt: Template | None
    options: list[Option]


@dataclass(slots=True, eq=False)
class ChooseTogether(Stmt):
    """`choose together card from p.hand for each p in players: body`: simultaneous choices.

    Every player of `players` chooses from `source` (evaluated with `var` bound to them) without
    seeing the others' choices; then `body` runs once per player, with `var` and `name` bound."""
    name: str
    source: Expr
    var: str
    players: Expr
    prompt: Template | None
    body: list[Stmt]
    slot: int = field(default=-1, kw_only=True)  # the choice; var at slot+1, then players list, index, picks


def walk(node: Any):
    """Yield every node below (and including) `node`, depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Node):
            yield n
            for f in fields(n):
                if f.name not in ("pos", "ty", "ref"):
                    stack.append(getattr(n, f.name))
        elif isinstance(n, (list, tuple)):
            stack.extend(reversed(n))
