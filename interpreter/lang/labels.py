"""Action labels as templates: `label: "bid {card}"`, `label: "play {card} on {target}"`.

Owns reading the `{...}` holes of an action's label: a hole naming one of the action's parameters
(`{card}`) is filled with the chosen value, shown as options show it, and `{card.value}` with a
property of the chosen card. A label with such holes is the whole option label (`bid 5`); the
parameters it does not name still follow it after a colon, as they do after a plain label
(`give 5: P2`), so every option stays distinct. A hole that cannot be filled (an unknown name, a
property of something that is not a card) stays as written, and the checker warns (W404) at the hole.

It does not show values (the engine does) nor decide types (the checker gives them).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

HOLE = re.compile(r"\{([^{}]*)\}")


@dataclass(slots=True, frozen=True)
class Fill:
    """A hole filled by parameter `param` (its index), or by the property `prop` of the chosen card."""
    param: int
    prop: str | None = None


Part = Union[str, Fill]


@dataclass(slots=True)
class Template:
    parts: list[Part]
    rest: list[int]  # the parameters the label does not name, shown after it as before


@dataclass(slots=True)
class BadHole:
    start: int
    end: int
    text: str
    why: str


def holes(label: str) -> list[tuple[int, int, str]]:
    """(start, end, inner text) of every `{...}` hole of a label."""
    return [(m.start(), m.end(), m.group(1).strip()) for m in HOLE.finditer(label)]


def template(label: str, params: list[str], card_params: set[str], card_props: set[str]
             ) -> tuple[Template | None, list[BadHole]]:
    """The label's template (None when no hole can be filled) and the holes that cannot be filled."""
    parts: list[Part] = []
    bad: list[BadHole] = []
    named: set[int] = set()
    at = 0
    for start, end, inner in holes(label):
        name, _, prop = inner.partition(".")
        fill = None
        if name not in params:
            bad.append(BadHole(start, end, inner, "unknown" if params else "no parameters"))
        elif prop and name not in card_params:
            bad.append(BadHole(start, end, inner, "not a card"))
        elif prop and prop not in card_props:
            bad.append(BadHole(start, end, inner, "no property"))
        elif not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", prop or "x"):
            bad.append(BadHole(start, end, inner, "unknown"))
        else:
            fill = Fill(params.index(name), prop or None)
            named.add(fill.param)
        parts.append(label[at:start])
        parts.append(fill if fill is not None else label[start:end])
        at = end
    parts.append(label[at:])
    if not named:
        return None, bad
    return Template([p for p in parts if p != ""], [k for k in range(len(params)) if k not in named]), bad


def action_template(spec, action) -> tuple[Template | None, list[BadHole]]:
    """An action's label template, from its checked parameters (a card parameter's `{p.prop}` too)."""
    from .kinds import T
    params = list(action.params)
    if not holes(action.label):
        return None, []
    cards = {n for n, code in action.params.items()
             if code.ast is not None and code.ast.ty in (T.CARDS, T.ZONE, T.CARD)}
    props = {k for ct in spec.cards.values() for k in ct.props}
    return template(action.label, params, cards, props)
