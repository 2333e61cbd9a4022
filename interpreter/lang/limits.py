"""Limits on the size of a spec that the checker enforces.

Owns the spec-level limits that need the whole spec (cards in total) or a
walk over the checked tree (loops nested in loops), each reported as a
positioned error by `check(spec)`. Limits that must be enforced before
anything else can run stay with the stage that meets them first: the file
size and YAML depth in loader.py, the nesting of one rule text in syntax.py,
run-time limits (steps, call depth, list sizes, options of a decision) in
engine.py and builtins.py, the work inside expressions (WORK_PER_STEP, charged by
the compilers). docs/guides/limits.md ("Hardening and limits") lists them all.
"""
from __future__ import annotations

from typing import Iterator

from . import nodes as N
from ..spec.diagnostics import Diagnostic
from .model import Code, Spec, codes

MAX_CARDS = 10_000  # cards in the whole game (the schema caps each card type's count too)
# Loops inside loops in one rule. Generated Python nests them, and Python refuses more than 20 nested
# blocks; what is left is room for the program's own loop and for procedures inlined into the loop.
MAX_LOOP_NESTING = 16
MAX_OPTIONS = 10_000  # options of one decision
MAX_CALL_DEPTH = 1_000  # procedure calls and triggers in progress at once (an endless recursion ends here)
# Work inside one expression counts against the step budget: every WORK_PER_STEP elements that a filter,
# a `[... for x in ...]` list, an aggregate (`sum`, `highest`, `best` ... of), a quantifier (`any`, `all`) or a
# `[x in ... while ...]` list goes through cost one step (the last two are charged their whole list),
# so a filter inside a filter over large ranges stalls at the budget instead of running for ever. Lists
# of the players are free (at most 16 elements, and the compilers read some of them without a pass).
WORK_PER_STEP = 100

_LOOPS = (N.ForEach, N.Repeat, N.While)


def check(spec: Spec) -> Iterator[Diagnostic]:
    total = sum(c.ids for c in spec.cards.values())
    if total > MAX_CARDS:
        yield Diagnostic("E441", f"the game has {total:,} cards; the limit is {MAX_CARDS:,}",
                         spec.doc.span(("components", "cards"), key=True),
                         hint="a card type with `count` stands for many identical cards; lower the counts")
    for code in _codes(spec):
        deep = _too_deep_loop(code.ast)
        if deep is not None:
            start = deep.pos[0]
            line_end = code.text.value.find("\n", start)  # the loop's first line, not its whole body
            yield Diagnostic("E442", f"loops nest more than {MAX_LOOP_NESTING} deep here",
                             code.text.locate(start, deep.pos[1] if line_end < 0 else line_end),
                             hint="move the inner loops into a procedure")


def _codes(spec: Spec) -> Iterator[Code]:
    """The spec's blocks of statements (where loops can nest)."""
    return (code for code in codes(spec) if isinstance(code.ast, list))


def _too_deep_loop(stmts: list) -> N.Stmt | None:
    """The first loop nested more than MAX_LOOP_NESTING deep (an iterative walk)."""
    stack = [(s, 0) for s in stmts]
    while stack:
        s, depth = stack.pop()
        if isinstance(s, _LOOPS):
            depth += 1
            if depth > MAX_LOOP_NESTING:
                return s
        for body in _bodies(s):
            stack.extend((x, depth) for x in body)
    return None


def _bodies(s: N.Stmt) -> list[list]:
    if isinstance(s, N.If):
        return [b for _, b in s.branches] + ([s.orelse] if s.orelse else [])
    if isinstance(s, _LOOPS):
        return [s.body]
    if isinstance(s, N.ChooseOption):
        return [o.body for o in s.options]
    return []
