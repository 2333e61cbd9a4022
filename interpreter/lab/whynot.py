"""Why not: why an action of the turn is not among a player's options.

Owns explaining a refusal in the spec's own words: for every action the
current turn lists but the pending decision does not offer, the part of its
`when:` condition that is false (split at `and`), the current values of the
names it reads, or the `choose:` parameter that has no possible value; with
the action's `rule:` (the rulebook sentence) and where the action stands in
the spec. It evaluates conditions on a copy of the state (work inside an
expression counts against the step budget: the game itself is not charged).

It never shows a value the deciding seat may not see: a name that reads a
hidden zone or another seat's hand (lab/audit.reads_hidden) is listed as
hidden, not with its value (`rulewright lint` warns of such a `when:`, W523).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any
from weakref import WeakKeyDictionary

from ..lang import hidden, nodes as N
from ..runtime.redact import HIDDEN_VALUE, reads_seers
from ..compile.compiler import ACTION, Compiler
from ..runtime.engine import Game, State
from ..lang.kinds import T
from .audit import reads_hidden

_compilers: "WeakKeyDictionary[Game, Compiler]" = WeakKeyDictionary()


@dataclass(slots=True)
class WhyNot:
    action: str  # the action's name in the spec
    label: str
    reasons: list[str]
    rule: str | None
    where: str | None  # path:line of the action in the spec
    values: list[str] = field(default_factory=list)  # "turn.flips = 0"


def _compiler(game: Game) -> Compiler:
    if game not in _compilers:
        _compilers[game] = Compiler(game.spec, game.options, game.readings)
    return _compilers[game]


def _conjuncts(e: N.Expr) -> list[N.Expr]:
    if isinstance(e, N.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _readable_leaves(e: Any, out: list) -> None:
    """Names, attributes and calls whose value helps a reader (not inside filters, not constants)."""
    if isinstance(e, (N.Int, N.Str, N.Bool)):
        return
    if isinstance(e, N.Filter):
        out.append(e)
        return
    if isinstance(e, N.Attr) and e.ref is not None and e.ref[0] in ("option", "reading"):
        return
    if isinstance(e, (N.Name, N.Attr, N.Call)) and e.ty in (T.INT, T.BOOL, T.STR, T.PLAYER, T.CARD):
        if not (isinstance(e, N.Name) and e.ref is not None and e.ref[0] == "local"):
            out.append(e)
        return
    if isinstance(e, N.Node):
        for f in fields(e):
            v = getattr(e, f.name)
            if isinstance(v, N.Node):
                _readable_leaves(v, out)
            elif isinstance(v, list):
                for x in v:
                    if isinstance(x, N.Node):
                        _readable_leaves(x, out)


def _readable(state: State, comp: Compiler, leaf: N.Expr, scratch: list) -> bool:
    """Whether the deciding player may read the value of `leaf` (it may read hidden variables: lang/hidden.py)."""
    reads = hidden.hidden_reads(state.g.spec, leaf)
    if not reads:
        return True
    try:
        owners = tuple(None if r.owner is None else comp.gen.expression(r.owner)(state, scratch[:]) for r in reads)
    except Exception:  # an owner that needs context the whole condition gives it: any seat's
        owners = (None,) * len(reads)
    return state.pplayer in reads_seers(state, tuple((r.scope, r.rows) for r in reads), owners)


def unavailable(state: State) -> list[WhyNot]:
    """Every action of this turn that the pending decision does not offer, with the reason."""
    if state.pkind != ACTION or state.popts is None:
        return []
    offered = {o if isinstance(o, int) else o[0] for o in state.popts}
    state = state.clone()  # evaluating charges the step budget: a copy's, never the game's
    out = []
    for ai, (name, label, _params, _prog) in enumerate(state.pmeta):
        if ai not in offered:
            out.append(explain(state, name, label))
    return out


def explain(state: State, name: str, label: str) -> WhyNot:
    g = state.g
    a = g.spec.actions[name]
    where = f"{a.span.path}:{a.span.line}" if a.span is not None else None
    reasons: list[str] = []
    values: list[str] = []
    comp = _compiler(g)
    if a.when is not None and a.when.ast is not None:
        text = a.when.text.value
        scratch = [None] * (max(a.when.n_locals, 1) + 4)
        try:
            refused = not comp.gen.condition(a.when)(state, scratch)
        except Exception as exc:  # the step budget ran out inside it (Stalled), a rule error ...
            return WhyNot(name, label, [f"`{text.strip()}` cannot be worked out now ({exc})"], a.rule, where, values)
        if refused:
            for part in _conjuncts(a.when.ast):
                try:
                    false = not comp.gen.expression(part)(state, scratch[:])
                except Exception:
                    continue
                if false:
                    reasons.append(f"`{text[part.pos[0]:part.pos[1]].strip()}` is false")
                    leaves: list = []
                    _readable_leaves(part, leaves)
                    for leaf in leaves:
                        shown = text[leaf.pos[0]:leaf.pos[1]].strip()
                        if reads_hidden(leaf, g.spec) is not None:
                            item = f"{shown} = (hidden from you)"
                            if item not in values:
                                values.append(item)
                            continue
                        try:
                            v = comp.gen.expression(leaf)(state, scratch[:])
                        except Exception:  # a leaf may need context the whole condition gives it
                            continue
                        ty = leaf.ty if leaf.ty is not None else T.ANY
                        item = f"{shown} = {g.show(v, ty) if _readable(state, comp, leaf, scratch) else HIDDEN_VALUE}"
                        if item not in values:
                            values.append(item)
            if not reasons:
                reasons.append(f"`{text.strip()}` is false")
    if not reasons:
        reasons += _no_values(state, comp, a)
        if not reasons:
            reasons.append("the rules do not offer it at this point")
    if "{" in label:  # a label template (`{src}{dst}`): its holes shown by their parameters' names
        label = re.sub(r"\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}", r"<\1>", label)
    return WhyNot(name, label, reasons, a.rule, where, values)


def _no_values(state: State, comp, a) -> list[str]:
    """Why an action's parameters give no option: the first one whose list is empty, or, for a move with
    two ends (`src`, then `dst: targets(src)`), that every value of the first leaves the next one empty."""
    params = list(a.params.items())
    if not params or any(code.ast is None for _n, code in params):
        return [f"no value of `{n}` can be chosen now (`{c.text.value.strip()}`)" for n, c in params]
    size = max(max(code.n_locals for _n, code in params), len(params)) + 4
    first, code = params[0]
    values = list(comp.gen.collection(code.ast)(state, [None] * size))
    if not values:
        return [f"no value of `{first}` can be chosen now (`{code.text.value.strip()}` is empty)"]
    if len(params) == 1:
        return []
    second, code2 = params[1]
    f2 = comp.gen.collection(code2.ast)
    shown = ", ".join(state.g.show(v, _element(params[0][1].ast.ty)) for v in values[:6])
    for v in values:
        scratch = [None] * size
        scratch[0] = v
        if list(f2(state, scratch)):
            return []  # some pair exists: a later parameter or the action's `when` is the reason
    return [f"every `{first}` ({shown}{', ...' if len(values) > 6 else ''}) leaves no `{second}` "
            f"(`{code2.text.value.strip()}` is empty for each)"]


def _element(ty) -> T:
    from ..lang.kinds import ELEMENT
    return ELEMENT.get(ty, T.ANY)
