"""The builtin functions of the rules language: one table for everybody.

Each entry says what arguments it takes, what it returns, what it means (a
doc line and an example that the tests parse and check), and how it runs
(`run`, a plain function of its evaluated arguments, which generated code
calls). The checker reads the signatures, the code generator the `run` functions, and
`rulewright explain` and docs/reference/builtins.md the docs. A builtin argument written `PROP`
is a property name: a card property (`points`) for a list of cards, or a
player variable (`chips`) for a list of players.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from .kinds import ELEMENT, LIST_OF, T

PROP = "PROP"


class RuleError(Exception):
    """A rule did something impossible at run time (top of an empty zone ...)."""


# Values a rule may build: past these a game ends as an error instead of filling the machine's memory.
MAX_LIST = 100_000  # elements of a list (range, joined lists)
MAX_NUMBER = 2 ** 63  # the size of a product (`*`); sums grow only one bit per step


def join(a, b) -> list:
    """`a + b` of two collections."""
    out = list(a) + list(b)
    if len(out) > MAX_LIST:
        raise RuleError(f"a list of {len(out):,} elements (the limit is {MAX_LIST:,})")
    return out


def multiply(a: int, b: int) -> int:
    v = a * b
    if -MAX_NUMBER <= v <= MAX_NUMBER:
        return v
    raise RuleError(f"a number too large for a game ({a} * {b})")


@dataclass(frozen=True, slots=True)
class Builtin:
    name: str
    params: tuple  # each a T, a frozenset of T, or PROP
    returns: Callable[[list], T]  # from the argument types
    doc: str
    example: str
    run: Callable[..., Any]  # run(st, *args) with `state`, else run(*args): the builtin's one meaning
    min_args: int | None = None
    chance: bool = False  # draws from the game's random numbers: only in effects, never in conditions
    state: bool = False  # `run` takes the game state first


# What each builtin computes, as a plain function of its evaluated arguments: a list or zone argument
# comes as its list of elements (a zone's cards), a PROP argument as the function that reads the property
# of an element (`props[c]`, `pvars[v][p]`). Generated code (compile/) calls these; where it computes a
# builtin inline instead (a shortcut), the tests check the shortcut against this.
def sum_of(items, get: Callable | None = None) -> int:
    return sum(items) if get is None else sum(map(get, items))


def highest_of(items, get: Callable | None = None) -> int:
    return max(items if get is None else map(get, items), default=0)


def lowest_of(items, get: Callable | None = None) -> int:
    return min(items if get is None else map(get, items), default=0)


def tied_of(items, get: Callable, pick: Callable) -> list:
    """The elements whose value (`get`) is the one `pick` (max or min) picks: all of them when tied."""
    items = list(items)
    if not items:
        return []
    top = pick(map(get, items))
    return [x for x in items if get(x) == top]


best_of = partial(tied_of, pick=max)  # best(items, get), without a second Python call
worst_of = partial(tied_of, pick=min)


def top_of(st, z: int) -> int:
    cards = st.zones[z]
    if not cards:
        raise RuleError(f"top of {st.g.zone_name(z)}: the zone is empty")
    return cards[-1]


def bottom_of(st, z: int) -> int:
    cards = st.zones[z]
    if not cards:
        raise RuleError(f"bottom of {st.g.zone_name(z)}: the zone is empty")
    return cards[0]


def first_of(items, k: int | None = None):
    if k is not None:
        return list(items[:max(0, k)])
    if not items:
        raise RuleError("first of an empty list")
    return items[0]


def last_of(items, k: int | None = None):
    if k is not None:
        return list(items[-k:]) if k > 0 else []
    if not items:
        raise RuleError("last of an empty list")
    return items[-1]


def position_of(items, v) -> int:
    return items.index(v) + 1 if v in items else 0


def after_of(items, v) -> list:
    for i, y in enumerate(items):
        if y == v:
            return list(items[i + 1:])
    return []


def divide(a: int, b: int) -> int:
    if b == 0:
        raise RuleError("division by zero")
    return a // b


def modulo(a: int, b: int) -> int:
    if b == 0:
        raise RuleError("division by zero")
    return a % b


def seat_of(st, k: int) -> int:
    if not 1 <= k <= st.n:
        raise RuleError(f"seat({k}): there are {st.n} players")
    return k - 1


def next_of(st, p: int) -> int:
    return (p + st.order) % st.n  # the turn order's direction (`reverse turn order`)


def empty_of(items) -> bool:
    return not items


def contains_of(items, x) -> bool:
    return x in items


def numbers(a: int, b: int) -> list[int]:
    """range(a, b): a to b, both included."""
    if b - a >= MAX_LIST:
        raise RuleError(f"range({a}, {b}) would hold {b - a + 1:,} numbers (the limit is {MAX_LIST:,})")
    return list(range(a, b + 1))


# Chance without cards: dice and random numbers, from the state's seeded RNG. A chance script (an example's
# `given: rolls: [4, 3]`, or `Chance` from the Python API) gives the next values first, in order; they must fit.
MAX_DICE = 100  # dice in one roll
MAX_SIDES = 1_000  # sides of one die


def random_number(st, lo: int, hi: int) -> int:
    """A number from lo to hi, both included: the next scripted one, else from the state's RNG."""
    if lo > hi:
        raise RuleError(f"random({lo}, {hi}): the first number is larger than the second")
    script = st.scripted  # a chance script (runtime/chance.py): an example's rolls, or one given from outside
    if script is not None:
        v = script.take_number(lo, hi)
        if v is not None:
            return v
    return st.chance().randint(lo, hi)  # copy-on-write: a clone may share the RNG


def roll_dice(st, n: int, sides: int, player: int | None = None, seers: tuple | None = None) -> list[int]:
    """`n` dice of `sides` sides, in the order rolled (logged as one `roll` event).

    The roll is the player's whose turn it is (nobody's outside a turn: a die rolled in setup is the
    game's); a secret roll (lang/hidden.py) names its player and the seats that see it (`seers`)."""
    if not 0 <= n <= MAX_DICE:
        raise RuleError(f"a roll of {n} dice (from 0 to {MAX_DICE} dice can be rolled at once)")
    if not 1 <= sides <= MAX_SIDES:
        raise RuleError(f"a die with {sides} sides (a die has 1 to {MAX_SIDES} sides)")
    out = [random_number(st, 1, sides) for _ in range(n)]
    if st.log is not None:
        who = player if player is not None else st.cur if st.in_turn else None
        if seers is None:
            st.event("roll", player=who, dice=out, sides=sides)
        else:
            st.event("roll", player=who, dice=out, sides=sides, seers=list(seers))
    return out


def roll_total(st, n: int, sides: int) -> int:
    return sum(roll_dice(st, n, sides))


def combinations_of(items, k: int | None = None) -> list[list]:
    """The k-element combinations of a list, in the list's order (`[a, b], [a, c], [b, c]`); without k, every
    combination of one element or more, the smaller ones first. Bounded by MAX_LIST, like any list."""
    items = list(items)
    sizes = [k] if k is not None else list(range(1, len(items) + 1))
    total = sum(math.comb(len(items), n) for n in sizes if 0 <= n <= len(items))
    if total > MAX_LIST:
        raise RuleError(f"combinations of {len(items)} elements: {total:,} of them (the limit is {MAX_LIST:,})")
    return [list(c) for n in sizes if n >= 0 for c in itertools.combinations(items, n)]


def top_sum_of(items, get: Callable, k: int) -> int:
    if k <= 0:
        return 0
    return sum(sorted(map(get, items), reverse=True)[:k])


def place_points_of(items, get: Callable, table: list, x) -> int:
    if x not in items:
        return 0
    mine = get(x)
    above = tied = 0
    for y in items:
        v = get(y)
        if v > mine:
            above += 1
        elif v == mine:
            tied += 1
    return sum(table[above:above + tied]) // tied


def _elem(types: list) -> T:
    return ELEMENT.get(types[0], T.ANY)


def _elem_or_list(types: list) -> T:
    """`first(list)` is an element, `first(list, n)` a list."""
    return _same(types) if len(types) == 2 else _elem(types)


def _same(types: list) -> T:
    return T.CARDS if types[0] is T.ZONE else types[0]


COLL = frozenset(ELEMENT)  # every kind of list, a zone too
PICKABLE = frozenset({T.CARDS, T.ZONE, T.PLAYERS})

BUILTINS: dict[str, Builtin] = {b.name: b for b in [
    Builtin("count", (COLL,), lambda ts: T.INT, "How many cards in a zone or elements in a list.",
            "count(draw) + count([p in players where p.chips > 0])", len),
    Builtin("sum", (COLL, PROP), lambda ts: T.INT,
            "The total of a property over a list of cards (a card property) or players (a player variable); "
            "`sum(numbers)` adds a list of numbers; over any expression: `sum c in me.hand of c.value`.", "sum(me.held, points) + sum(players, chips)", sum_of, min_args=1),
    Builtin("highest", (COLL, PROP), lambda ts: T.INT,
            "The largest value of a property over a list (0 when the list is empty); over any expression: "
            "`highest p in players of count(p.hand)`.", "highest(players, chips)",
            highest_of, min_args=1),
    Builtin("lowest", (COLL, PROP), lambda ts: T.INT,
            "The smallest value of a property over a list (0 when the list is empty); over any expression: "
            "`lowest p in players of p.chips - p.debt`.", "lowest(players, chips)",
            lowest_of, min_args=1),
    Builtin("best", (PICKABLE, PROP), _same,
            "The elements of a list that share the highest value of a property (all of them when tied); over any "
            "expression: `best p in players by score(p)`.",
            "best(players, chips)", best_of),
    Builtin("worst", (PICKABLE, PROP), _same,
            "The elements of a list that share the lowest value of a property; over any expression: "
            "`worst c in me.hand by c.value * 2`.", "worst(players, chips)", worst_of),
    Builtin("top", (T.ZONE,), lambda ts: T.CARD, "The top card of a zone (an error if it is empty).",
            "top(draw)", top_of, state=True),
    Builtin("bottom", (T.ZONE,), lambda ts: T.CARD, "The bottom card of a zone (an error if it is empty).",
            "bottom(draw)", bottom_of, state=True),
    Builtin("first", (COLL, T.INT), _elem_or_list,
            "The first element of a list, or the bottom card of a zone; with a number n, the first n elements "
            "(all of them when there are fewer).", "first(players) == seat(1) and count(first(draw, 3)) <= 3", first_of,
            min_args=1),
    Builtin("last", (COLL, T.INT), _elem_or_list,
            "The last element of a list, or the top card of a zone (an error if it is empty); with a number n, "
            "the last n elements.", "last([c in draw where c.points > 0]) == top(draw)", last_of, min_args=1),
    Builtin("after", (COLL, T.ANY), _same,
            "The elements that come after one element of a list; in a zone, the cards put on it later "
            "(nothing when the element is not there).", "first(after(draw, bottom(draw)), 4)", after_of),
    Builtin("seat", (T.INT,), lambda ts: T.PLAYER, "The player at a seat, counted from 1.", "seat(1)", seat_of, state=True),
    Builtin("next", (T.PLAYER,), lambda ts: T.PLAYER, "The player who plays after this one: the next seat to the left, or to the right once a rule "
            "said `reverse turn order`.", "next(me)", next_of, state=True),
    Builtin("empty", (COLL,), lambda ts: T.BOOL, "Whether a zone or list has nothing in it.", "empty(draw)", empty_of),
    Builtin("contains", (COLL, T.ANY), lambda ts: T.BOOL, "Whether a zone or list holds an element.",
            "contains(others, me)", contains_of),
    Builtin("max", (T.INT, T.INT), lambda ts: T.INT, "The larger of numbers.", "max(me.chips - 1, 0)", max),
    Builtin("min", (T.INT, T.INT), lambda ts: T.INT, "The smaller of numbers.", "min(me.chips + 1, 5)", min),
    Builtin("abs", (T.INT,), lambda ts: T.INT, "The size of a number without its sign.", "abs(0 - 2)", abs),
    Builtin("range", (T.INT, T.INT), lambda ts: T.INTS, "The numbers from the first to the second, both included.",
            "range(1, 3)", numbers),
    Builtin("position", (COLL, T.ANY), lambda ts: T.INT,
            "Where an element stands in a list, counted from 1; in a zone, from the bottom card (an ordered row: "
            "position 1 is its first space). 0 when it is not there.", "position(draw, top(draw))", position_of),
    Builtin("top_sum", (PICKABLE, PROP, T.INT), lambda ts: T.INT,
            "The total of the largest values of a property: the best `k` cards or players together "
            "(all of them when there are fewer; 0 when `k` is 0 or less).", "top_sum(me.held, points, 2)", top_sum_of),
    Builtin("place_points", (PICKABLE, PROP, T.INTS, T.ANY), lambda ts: T.INT,
            "Points by placing: rank a list by a property (largest first) and give the place points of a table "
            "(first place, second place, ...) to one of its elements. Tied elements share their places: the "
            "points of those places are summed and divided among them, rounded down. Places beyond the table "
            "score 0; an element not in the list scores 0.", "place_points(players, chips, [5, 3, 1], me)",
            place_points_of),
    Builtin("sorted", (COLL,), _same,
            "A list in order: numbers and texts from the smallest, cards in the order of the component list "
            "(as `each:` declares them), players by seat.", "sorted(me.held)", sorted),
    Builtin("roll", (T.INT, T.INT), lambda ts: T.INT,
            "Roll dice and add them up: `roll(2, 6)` is 2d6. Only in effects (`let r = roll(1, 6)`), never in a "
            "condition; an example scripts the results with `given: rolls: [...]`.", "roll(2, 6)", roll_total, chance=True, state=True),
    Builtin("dice", (T.INT, T.INT), lambda ts: T.INTS,
            "Roll dice and keep each one: `dice(4, 6)` is a list of four numbers from 1 to 6, in the order rolled.",
            "dice(4, 6)", roll_dice, chance=True, state=True),
    Builtin("combinations", (COLL, T.INT), lambda ts: LIST_OF.get(T.CARDS if ts[0] is T.ZONE else ts[0], T.ANY),
            "The ways to pick k elements of a list, each a list in the list's order: `combinations(me.hand, 2)` is "
            "every pair of cards; without k, every pick of one element or more. Fifteens: "
            "`count([s in combinations(me.hand) where sum(s, points) == 15])`.",
            "count([s in combinations(me.held, 2) where sum(s, points) == 2])", combinations_of, min_args=1),
    Builtin("random", (T.INT, T.INT), lambda ts: T.INT,
            "A random number from the first to the second, both included (only in effects).", "random(1, 6)",
            random_number, chance=True, state=True),
]}

# Words that begin a statement (`skip next player`, `reverse turn order`, `extra turn`): they cannot name
# a zone or a variable, since `skip = 1` would read as the start of one.
STATEMENT_WORDS = frozenset({"skip", "reverse", "extra"})

# Names every spec can use without declaring them, with what they mean.
SPECIAL_NAMES = {
    "me": (T.PLAYER, "the player whose turn it is"),
    "players": (T.PLAYERS, "every player, in seat order"),
    "others": (T.PLAYERS, "every player but `me`, in seat order"),
    "winners": (T.PLAYERS, "the players who won (empty until the game is over)"),
}
NAMESPACES = {
    "option": "a game option (`option.win_chips`)",
    "reading": "the interpretation chosen for an ambiguity (`reading.first_flip == \"forced\"`)",
    "turn": "a turn variable (`turn.flips`)",
}

# The board builtins (`cells`, `neighbours`, `line` ...) live with the board concept, in boards.py,
# which adds them to BUILTINS when it is imported (it builds on Builtin above); the package's
# __init__ imports it, so the table is whole wherever it is read. The side builtins (teams.py) and
# the secret dice (hidden.py) register themselves the same way.
