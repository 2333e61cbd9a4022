"""An option's values as a spec gives them: listed one by one, or as a range.

Owns `option_values` (a `values:` list, or `{from, to, step}` with both ends
included) and its bound, `MAX_OPTION_VALUES`. The model, the boards and the
counts all read options' values before the model is built, so this module
imports none of them.
"""
from __future__ import annotations

from typing import Any


MAX_OPTION_VALUES = 1_000  # values of one option given as a range (`values: {from: 2, to: 10}`)


def option_values(raw: Any) -> list[Any]:
    """An option's `values` as a list: listed one by one, or a range `{from: 2, to: 10, step: 2}`, both ends
    included (cut at MAX_OPTION_VALUES: the checker says so, E413). Reads the YAML data without changing it."""
    if isinstance(raw, dict):
        lo, hi, step = raw.get("from"), raw.get("to"), raw.get("step", 1)
        if not all(type(x) is int for x in (lo, hi, step)) or step < 1:
            return []
        return list(range(lo, min(hi, lo + (MAX_OPTION_VALUES - 1) * step) + 1, step))
    return list(raw or [])
