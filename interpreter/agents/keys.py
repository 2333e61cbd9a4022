"""Option keys for search trees: the pending options' labels, without formatting them again.

Owns `option_labels(state)`: exactly the list `state.labels()` returns (readable labels, made unique
the way `engine.numbered` numbers a repeated one), read from a per-game memo of the labels that
depend on the game alone, so that MCTS can key its children by label at every node of every
iteration without formatting cards, players and parameters each time:

- an action's label is a function of the action (its entry in the cycle's action table) and its
  parameter values: the label template, the card labels and card properties it shows are fixed
  when the game is loaded;
- a `choose` value's (and a `choose subset`'s) label is a function of the value's type and the value.

Only the labels of a `choose one of` list (OPTION decisions) are computed every time, by the
engine: their label expressions may read the state. A memo is per game and per action table (the
tables are constants of the compiled cycles), holds at most `MEMO_MAX` labels (then starts over),
and is never used while the state marks cards for narration (`State.marking`), whose labels differ.
`tests/test_search_speed_keys.py` checks the equality with `state.labels()` on random positions of
every spec in games/.
"""
from __future__ import annotations

from weakref import WeakKeyDictionary

from ..compile.compiler import ACTION, OPTION, SUBSET
from ..lang.kinds import T
from ..runtime.engine import Game, State, numbered

MEMO_MAX = 100_000  # labels kept per table before it starts over (bounded memory in long sweeps)
# `choose` values whose label is a function of the value alone and whose values are plain ints (card ids,
# zone ids, seats): no two of them compare equal with different labels (as True == 1 would)
_PLAIN = frozenset((T.CARDS, T.ZONE, T.PLAYERS))

_memos: "WeakKeyDictionary[Game, dict]" = WeakKeyDictionary()


def label_memo(game: Game) -> dict:
    """The memo of `game`'s labels (look it up once per search, pass it to option_labels)."""
    memo = _memos.get(game)
    if memo is None:
        memo = _memos[game] = {}
    return memo


def option_labels(st: State, memo: dict | None = None) -> list[str]:
    """`st.labels()`, from the memo (of `st`'s game) where the labels depend on the game alone. The list
    may be the memo's own (an action decision's whole list is kept): read it, do not change it."""
    kind = st.pkind
    if kind == OPTION or st.marking:
        return numbered(st._labels())
    if memo is None:
        memo = label_memo(st.g)
    opts = st.popts
    if kind == ACTION:
        # An action's parameters are typed one type each by the checker, so equal parameter tuples of one
        # action show the same text.
        meta = st.pmeta
        per = memo.get(id(meta))  # one action table: the same object for every decision of its cycle
        if per is None or per[0] is not meta:
            per = memo[id(meta)] = (meta, {}, {})
        table, lists = per[1], per[2]
        try:
            whole = tuple(opts)  # a list of options met before (the same actions, the same parameters)
            got = lists.get(whole)
        except TypeError:  # an unhashable parameter value: no memo
            return numbered(st._labels())
        if got is not None:
            return got
        try:
            out = [meta[o][1] if type(o) is int else table[o] for o in opts]
        except KeyError:  # an action with parameters not labelled yet: the engine labels this decision
            out = st._labels()
            if len(table) > MEMO_MAX:
                table.clear()
            for o, lab in zip(opts, out):
                if type(o) is not int:
                    table[o] = lab
        if len(lists) > MEMO_MAX:
            lists.clear()
        got = lists[whole] = numbered(out)
        return got
    ty = st.pmeta[2]
    if kind != SUBSET and ty not in _PLAIN:
        return numbered(st._labels())  # numbers, texts: formatting them is as cheap as a look-up
    table = memo.get((kind, ty))
    if table is None:
        table = memo[(kind, ty)] = {}
    keys = [*map(tuple, opts)] if kind == SUBSET else opts
    try:
        out = [table[k] for k in keys]
    except KeyError:
        out = st._labels()
        if len(table) > MEMO_MAX:
            table.clear()
        table.update(zip(keys, out))
    return numbered(out)
