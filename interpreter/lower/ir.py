"""The intermediate form: one typed node per meaning, every name resolved to a number.

Owns the node classes a lowered game is made of (and `walk`, over them), and nothing else: no
lowering (lowering.py), no running. Values are whole numbers at run time, whatever their type
says: a player is a seat (0-based), a card its id, a zone its id (shared zones first, then each
seat's zones), a text its number in `Game.strings`, a cell its board's first cell's number plus
`row * columns + column` (0-based, with the columns of the largest board the options allow), a
boolean 0 or 1; a list is a sequence of such numbers. Options are numbered values the game receives
when it starts (`Param`), as are ambiguity readings (the number of the interpretation), so one
lowered game serves every variant.

Every node keeps `at`, the `Code` it comes from and its span there, so a backend that cannot run a
node names it at its file:line:col. Both backends read it: the Python engine (compile/, which maps
an interned text back to its string, and a cell number to its board's cell) and the kernel.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..lang.kinds import T

Where = tuple[Any, tuple[int, int] | None]  # (model.Code or None, character span in its text or None)


# ---- expressions ---------------------------------------------------------------------------------
@dataclass(slots=True, eq=False)
class X:
    ty: T
    at: Where


@dataclass(slots=True, eq=False)
class Const(X):
    value: int  # texts interned (Game.strings), booleans 0/1


@dataclass(slots=True, eq=False)
class ConstList(X):
    values: tuple[int, ...]


@dataclass(slots=True, eq=False)
class Param(X):
    """An option's value (`kind` "option") or an ambiguity's reading ("reading"), given at run time."""
    kind: str
    index: int
    name: str


@dataclass(slots=True, eq=False)
class Var(X):
    """A plain variable slot: global, per player (of `owner`), or of the turn."""
    scope: str
    index: int
    owner: X | None
    name: str


@dataclass(slots=True, eq=False)
class Keyed(X):
    """`name[key]` of a keyed variable: slot `base + offset(key)`.

    `keys` says how a key becomes an offset: ("range", lo, hi) for number keys lo..hi, ("cell", base) for
    a cell (its number less `base`, its board's first cell's), ("table", {key: offset}) for texts (interned)
    and numbers that are not one range."""
    scope: str
    base: int
    key: X
    keys: tuple
    owner: X | None
    name: str


@dataclass(slots=True, eq=False)
class Local(X):
    slot: int


@dataclass(slots=True, eq=False)
class Special(X):
    """`me`, `players`, `others`, `winners`."""
    what: str


@dataclass(slots=True, eq=False)
class Zone(X):
    """A shared zone (owner None) or one of `owner`'s zones (`index` among the per-player zones)."""
    index: int
    owner: X | None


@dataclass(slots=True, eq=False)
class Prop(X):
    """A card's property: `table[card]` (texts interned)."""
    name: str
    table: tuple[int, ...]
    card: X


@dataclass(slots=True, eq=False)
class Seat(X):
    player: X


@dataclass(slots=True, eq=False)
class CellPart(X):
    part: str  # "row" | "column"
    cell: X


@dataclass(slots=True, eq=False)
class CellName(X):
    """A cell named in the rules (`a1`) whose number depends on the options: on a board numbered from the
    bottom whose rows an option sets, `row` (as named, from the bottom) is counted from the last row."""
    board: int
    column: int  # 1-based, as named
    row: int  # 1-based, as named


@dataclass(slots=True, eq=False)
class BoardRef(X):
    index: int


@dataclass(slots=True, eq=False)
class Builtin(X):
    """A builtin of the language by name; `prop` is a PROP argument (not in `args`): ("prop", table, its
    name) or ("pvar", slot)."""
    name: str
    args: list[X]
    prop: tuple | None = None


@dataclass(slots=True, eq=False)
class FuncCall(X):
    name: str
    args: list[X]


@dataclass(slots=True, eq=False)
class Comprehension(X):
    """Over the elements of `coll` bound to local `slot`, those with `cond` (None: all):
    kind "filter" (the elements), "while" (the elements up to the first without `cond`), "map" (`value`
    of each), "any" / "all" (whether some / every element has `cond`), or an aggregate of `value`: "sum",
    "highest", "lowest", "best", "worst". Going through a collection (but `players`) costs a step of the
    budget per WORK_PER_STEP elements (lang/limits.py), as in the engine."""
    kind: str
    slot: int
    coll: X
    cond: X | None
    value: X | None


@dataclass(slots=True, eq=False)
class Concat(X):
    """`left + right` of two texts. Every text is an interned number, so lowering lists the values each
    side can have and interns every joined text: `table` maps (left, right) to the joined text's number."""
    left: X
    right: X
    table: dict[tuple[int, int], int] | None  # None: a side is not one of a known few texts


@dataclass(slots=True, eq=False)
class Template(X):
    """A text with holes (`"{me} draws {c}"`): its parts, each an interned text (an int) or a `Hole`."""
    parts: list


@dataclass(slots=True, eq=False)
class Hole:
    """One hole of a `Template`: its value, and the hidden variables it reads (lang/hidden.py), each as
    (scope, its rows, its owner or None), so narration can hide it from the seats that may not read them."""
    value: X
    secret: tuple = ()


@dataclass(slots=True, eq=False)
class Unary(X):
    op: str
    operand: X


@dataclass(slots=True, eq=False)
class Binary(X):
    op: str
    left: X
    right: X


@dataclass(slots=True, eq=False)
class Ternary(X):
    cond: X
    then: X
    orelse: X


@dataclass(slots=True, eq=False)
class LetIn(X):
    slot: int
    value: X
    body: X


@dataclass(slots=True, eq=False)
class ListOf(X):
    items: list[X]


# ---- statements ------------------------------------------------------------------------------------
@dataclass(slots=True, eq=False)
class S:
    at: Where


@dataclass(slots=True, eq=False)
class Move(S):
    what: X  # a card, a list of cards, or a zone (all its cards)
    dest: X


@dataclass(slots=True, eq=False)
class Shuffle(S):
    zone: X


@dataclass(slots=True, eq=False)
class Let(S):
    slot: int
    value: X


@dataclass(slots=True, eq=False)
class Assign(S):
    """`target op value`; `bounds` are the variable's (min, max, clamp, allowed interned texts or None),
    None for a local."""
    target: X
    op: str
    value: X
    bounds: tuple | None


@dataclass(slots=True, eq=False)
class Call(S):
    proc: str
    args: list[X]


@dataclass(slots=True, eq=False)
class EndTurn(S):
    pass


@dataclass(slots=True, eq=False)
class EndGame(S):
    pass


@dataclass(slots=True, eq=False)
class Pass(S):
    pass


@dataclass(slots=True, eq=False)
class TurnOrder(S):
    what: str  # "to", "skip", "reverse", "extra"
    who: X | None


@dataclass(slots=True, eq=False)
class Reveal(S):
    """`reveal x`: a hidden variable shown to every seat. Who may read what changes no rule, so a backend
    whose players read no views only computes what naming the variable computes: its owner (`owner`, for
    a player's variable) and, for one key of a keyed variable, that key's slot (`key`, a `Keyed`, which
    checks the key; its owner is then `key.owner`)."""
    owner: X | None
    key: X | None
    scope: str = "player"
    rows: tuple = ()  # the variable's rows (every key of a keyed variable); () for one key (`key`)


@dataclass(slots=True, eq=False)
class Say(S):
    """Narration: the Python engine logs it; a kernel game is never logged."""
    text: Template


@dataclass(slots=True, eq=False)
class If(S):
    branches: list[tuple[X, list[S]]]
    orelse: list[S] | None


@dataclass(slots=True, eq=False)
class ForEach(S):
    slot: int
    coll: X
    body: list[S]


@dataclass(slots=True, eq=False)
class Repeat(S):
    count: X
    body: list[S]
    slot: int = -1  # the local that counts down the repetitions left


@dataclass(slots=True, eq=False)
class While(S):
    cond: X
    body: list[S]


@dataclass(slots=True, eq=False)
class Opt:
    """One option of a `choose`: offered when `cond` holds (None: always); with `slot`, one option per
    element of `coll`, bound to that local."""
    cond: X | None
    slot: int | None
    coll: X | None
    body: list[S]
    label: Template | None = None
    at: Where | None = None


@dataclass(slots=True, eq=False)
class ChooseOption(S):
    by: X | None
    options: list[Opt]
    prompt: Template | None = None


@dataclass(slots=True, eq=False)
class ChooseValue(S):
    slot: int
    source: X
    by: X | None
    prompt: Template | None = None


@dataclass(slots=True, eq=False)
class ChooseSubset(S):
    """A subset of the cards of `source` for which `cond` holds (with the subset at local `slot`); the
    options are every such subset, smallest first, each size in the source's order (`itertools.combinations`)."""
    slot: int
    source: X
    cond: X
    by: X | None
    prompt: Template | None = None


@dataclass(slots=True, eq=False)
class ChooseTogether(S):
    """Simultaneous choices: each player of `players` in turn (bound to local `slot + 1`) chooses from
    `source` without seeing the others' choices; then `body` runs once per player, with the player at
    `slot + 1` and their choice at `slot`."""
    slot: int
    source: X
    players: X
    body: list[S]
    prompt: Template | None = None


# ---- the game ----------------------------------------------------------------------------------------
@dataclass(slots=True, eq=False)
class Block:
    """A piece of rule code: its statements, the number of local slots it needs, its name (`action play`,
    `phase deal start`: how the Python engine names its program), and the `Code` it lowers."""
    body: list[S]
    n_locals: int
    name: str
    code: Any = None


@dataclass(slots=True, eq=False)
class Procedure:
    name: str
    params: list[T]  # locals 0..k-1
    block: Block


@dataclass(slots=True, eq=False)
class Function:
    name: str
    params: list[T]
    value: X
    n_locals: int


@dataclass(slots=True, eq=False)
class Action:
    name: str
    when: X | None
    params: list[X]  # the k-th parameter's candidates, bound to local k (later ones may read earlier ones)
    block: Block


@dataclass(slots=True, eq=False)
class Turn:
    """A phase's turn; `index` numbers the spec's turns: phases without a `turn:` of their own play the
    game's, and share its number (the Python engine compiles one turn once)."""
    start: Block | None
    end: Block | None
    actions: list[Action]
    index: int = 0


@dataclass(slots=True, eq=False)
class Phase:
    name: str | None
    repeat: int
    while_: X | None
    start: Block | None
    until: X | None
    end: Block | None
    turn: Turn


@dataclass(slots=True, eq=False)
class Board:
    name: str
    max_rows: int
    max_columns: int  # the columns of the largest board: a cell is base + row * max_columns + column
    bottom: bool = False  # `origin: bottom`: rows are numbered from the bottom (cells stay in reading order)
    forward: tuple[int, ...] = ()  # each seat's forward direction (interned: a direction's number)
    base: int = 0  # the number of its first cell: boards' cells are numbered one board after another
    span: Any = None  # its declaration
    # Its size for given options is the spec's (lang/boards.py folds it): the backend receives it at run time.
    # A cell's number counts rows as the diagram is drawn, top row first, whatever the origin.


@dataclass(slots=True, eq=False)
class Trigger:
    """`triggers:`: after a card moves into zone `zone` (shared, or each seat's when `per_player`), `block`
    runs if `when` holds (None: always)."""
    name: str
    zone: int
    per_player: bool
    when: X | None
    block: Block
    span: Any = None


@dataclass(slots=True, eq=False)
class Teams:
    """`game.teams`: the sides of a game of each player count (`sides[n]`: each side's seats, in the order
    declared), and how a side's score is made of its seats' ("same": the highest, "sum": their sum)."""
    score: str
    sides: dict[int, list[list[int]]]


@dataclass(slots=True, eq=False)
class VarInfo:
    """One slot of a scope: its start value (interned) and bounds (min, max, clamp); `start` is None for a
    cell the options place (a `CellName`'s board and name are then in `cell`)."""
    name: str
    start: int | None
    bounds: tuple
    cell: CellName | None = None
    span: Any = None  # its declaration


@dataclass(slots=True)
class Game:
    name: str
    min_players: int
    max_players: int
    strings: list[str]
    n_cards: int  # card ids
    card_type: list[str]
    n_shared: int
    n_player_zones: int
    gvars: list[VarInfo]
    pvars: list[VarInfo]
    tvars: list[VarInfo]
    options: list[tuple[str, list[int]]]  # per option: name, its values encoded
    readings: list[tuple[str, list[str]]]  # per ambiguity: name, its interpretations
    boards: list[Board]
    procedures: dict[str, Procedure]
    functions: dict[str, Function]
    setup: Block | None
    first: X | None  # None: drawn at random
    phases: list[Phase]
    end_when: X | None
    end_always: bool
    winners: X | None
    score: int | None  # the player variable slot of `end.score`
    turn_order: bool  # some rule changes who plays next
    n_scratch: int  # locals the game's conditions need
    skip_if: X | None = None  # `flow.skip_if`: a player it holds for (as `me`) is passed over
    measures: list[X] = field(default_factory=list)  # `measures:`, read when a game has finished
    teams: Teams | None = None  # `game.teams`: a side wins together (and team(), partner() ... read it)
    triggers: list[Trigger] = field(default_factory=list)
    invariants: dict[str, X | None] = field(default_factory=dict)  # `invariants:` (checked, never played), by name
    extra: dict = field(default_factory=dict)


def walk(x: Any):
    """Every expression and statement node in `x` (a node, or lists, tuples and dicts of them), depth first."""
    stack = [x]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())
        elif hasattr(n, "__dataclass_fields__"):
            if isinstance(n, (X, S)):
                yield n
            stack.extend(getattr(n, f) for f in n.__dataclass_fields__ if f not in ("at", "ty"))
