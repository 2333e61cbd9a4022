"""Static types of the rules language.

A value is an int, a bool, a string, a card, a player, a zone, a cell of a
board, or a list of one of those. Cards and players are both ints at run time, so every
expression's type is fixed when the spec is checked. `ANY` is only used to
stop one error from causing a cascade of others.
"""
from __future__ import annotations

from enum import StrEnum


class T(StrEnum):
    INT = "int"
    BOOL = "bool"
    STR = "str"
    CARD = "card"
    PLAYER = "player"
    ZONE = "zone"
    CARDS = "cards"
    PLAYERS = "players"
    INTS = "ints"
    STRS = "strs"
    CELL = "cell"  # a cell of a board (interpreter/lang/boards.py)
    CELLS = "cells"
    # Lists of lists (`combinations(me.hand, 2)`, `[[src, dst] for ...]`): each element a list of one kind.
    CARD_LISTS = "card lists"
    PLAYER_LISTS = "player lists"
    INT_LISTS = "number lists"
    STR_LISTS = "text lists"
    CELL_LISTS = "cell lists"
    BOARD = "board"
    NONE = "nothing"
    ANY = "any"


ELEMENT = {T.CARDS: T.CARD, T.ZONE: T.CARD, T.PLAYERS: T.PLAYER, T.INTS: T.INT, T.STRS: T.STR, T.CELLS: T.CELL,
           T.CARD_LISTS: T.CARDS, T.PLAYER_LISTS: T.PLAYERS, T.INT_LISTS: T.INTS, T.STR_LISTS: T.STRS,
           T.CELL_LISTS: T.CELLS}
LIST_OF = {T.CARD: T.CARDS, T.PLAYER: T.PLAYERS, T.INT: T.INTS, T.STR: T.STRS, T.CELL: T.CELLS,
           T.CARDS: T.CARD_LISTS, T.PLAYERS: T.PLAYER_LISTS, T.INTS: T.INT_LISTS, T.STRS: T.STR_LISTS,
           T.CELLS: T.CELL_LISTS, T.ZONE: T.CARD_LISTS}
COLLECTIONS = frozenset(ELEMENT)

WORDS = {
    T.INT: "a number", T.BOOL: "a condition (true/false)", T.STR: "a text", T.CARD: "a card",
    T.PLAYER: "a player", T.ZONE: "a zone", T.CARDS: "a list of cards", T.PLAYERS: "a list of players",
    T.INTS: "a list of numbers", T.STRS: "a list of texts", T.NONE: "nothing", T.ANY: "anything",
    T.CELL: "a cell of a board", T.CELLS: "a list of cells", T.BOARD: "a board",
    T.CARD_LISTS: "a list of lists of cards", T.PLAYER_LISTS: "a list of lists of players",
    T.INT_LISTS: "a list of lists of numbers", T.STR_LISTS: "a list of lists of texts",
    T.CELL_LISTS: "a list of lists of cells",
}


def accepts(expected: T | frozenset, actual: T) -> bool:
    """Whether a value of type `actual` may stand where `expected` is needed."""
    if actual is T.ANY:
        return True
    if isinstance(expected, frozenset):
        return any(accepts(e, actual) for e in expected)
    if expected is T.ANY or expected == actual:
        return True
    return expected is T.CARDS and actual is T.ZONE  # a zone stands for its cards


def word(t: T | frozenset) -> str:
    if isinstance(t, frozenset):
        return " or ".join(sorted(WORDS[x] for x in t))
    return WORDS[t]
