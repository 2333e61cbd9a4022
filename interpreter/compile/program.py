"""What a compiled game runs: programs and the kinds of pending decision.

Owns `Program` (a compiled block: the function that runs it from a frame's
pc, its frames' size, whether it can pause), `Fn` (the shape of a compiled
expression, `f(state, locals)`) and the kinds of pending decision (`ACTION`,
`VALUE`, `OPTION`, `SUBSET`) the engine, the agents and the faces read.
"""
from __future__ import annotations

from typing import Any, Callable

from ..lang.model import Code


Fn = Callable[[Any, list], Any]


class Program:
    """A compiled block: `fn(state, frame)` runs it from the frame's pc until it
    pauses for a decision (returns True), calls another program, or ends
    (pops its frame). `n_locals` is the size of its frames' local list.

    A frame of the call stack is a plain list `[program, pc, locals]`: the
    cheapest object Python can make, and frames are made at every call."""
    __slots__ = ("name", "fn", "n_locals", "code", "plain", "together")

    def __init__(self, name: str, code: Code | None = None):
        self.name = name
        self.fn: Callable = _ret
        self.n_locals = 0
        self.code = code
        self.plain: Callable | None = None  # `plain(st, locals)`, no frame: a program that can never pause
        self.together: list = []  # its simultaneous choices (codegen.Together), for determinization

    def __repr__(self) -> str:
        return f"<Program {self.name}: {len(self.ops)} ops>"


# Kinds of pending decision
ACTION, VALUE, OPTION, SUBSET = 0, 1, 2, 3


def _ret(st, fr) -> None:
    st.stack.pop()
