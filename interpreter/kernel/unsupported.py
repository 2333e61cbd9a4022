"""What the kernel does not run: `Unsupported`, naming the construct and its file:line:col.

Lowering (interpreter/lower/) expresses every checked spec; the kernel's generators (emit.py,
search_emit.py, agents.py) raise this for what they do not run, and that spec runs on the Python
engine (kernel.choose says so, with the reason).
"""
from __future__ import annotations

from typing import Any

from ..lower import ir


class Unsupported(Exception):
    """A construct of the intermediate form the kernel does not run yet: at a node's `at`, or at `span`."""

    def __init__(self, construct: str, at: ir.Where | None = None, span: Any = None):
        self.construct = construct
        if span is None and at is not None and at[0] is not None:
            code, pos = at
            span = code.text.locate(*pos) if pos else code.span
        self.span = span
        where = f"{span.path}:{span.line}:{span.col}: " if span is not None else ""
        super().__init__(f"{where}{construct}")
