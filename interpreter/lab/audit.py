"""Static audits of a spec's text against its rulebook and its zones (part of `lint`).

Owns two findings that need no game to be played:

- W520, a quote that is not the rulebook's words: every `rule:`, `quote:` and
  flavour line must occur in the rulebook text as written, typos kept (the
  matching is `trace.misquotes`: whitespace, letter case, curly quote marks and
  list bullets normalised, "..." may leave words out);
- W522, an ambiguity whose default has no `why` (a reading taken without
  saying so);
- W523, an action whose `when:` reads cards the acting seat may not see (a
  hidden zone, another seat's hand) for more than their number: whether the
  action is offered then tells that seat what it cannot see, and `why` (the
  terminal's and the table's) will not show those values (`reads_hidden`);
- W521, narration that shows hidden content it cannot redact: a `say`, an
  option label or a prompt with a `{...}` hole that reads cards of a zone some
  seat may not see (visibility `hidden` or `owner`) and shows something other
  than the cards themselves (a sum, a property, a best card's value). Holes
  that show cards are redacted per seat at run time (`runtime.redact`), and a
  count of a zone is public (every view shows the size of every zone).

It deliberately does not judge whether a reading follows the text; that is
the ambiguities' `why` and `contradicts_text`.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Callable

from ..lang import nodes as N
from ..lang.kinds import T
from ..lang.model import Spec, codes, guards
from ..spec.diagnostics import Diagnostic, Severity
from .trace import misquotes

_PUBLIC_OF_A_ZONE = {"count", "empty"}  # what every seat may know of any zone


def audit(spec: Spec) -> list[Diagnostic]:
    from .leaks import leak_findings  # hidden values stored where every seat reads them (W530-W532)
    return (misquote_findings(spec) + hidden_hole_findings(spec) + unexplained_default_findings(spec)
            + hidden_condition_findings(spec) + leak_findings(spec))


def reads_hidden(e: N.Node, spec: Spec, depth: int = 0) -> N.Node | None:
    """The first reference under `e` to cards the seat whose turn it is may not see, read for more than
    their number: a zone of visibility `hidden`, or an `owner` zone that is not `me`'s own (through the
    spec's own functions too). None when `e` reads only what that seat may see."""
    return _first_read(e, spec, lambda n: _hidden_to_me(n, spec), depth)


def _hidden_to_me(n: N.Node, spec: Spec) -> bool:
    """A zone of visibility `hidden`, or an `owner` zone that is not `me`'s own."""
    name = _name(n)
    z = spec.zones.get(name) if getattr(n, "ty", None) is T.ZONE and isinstance(name, str) else None
    if z is None or z.visibility == "public":
        return False
    own = (z.visibility == "owner" and isinstance(n, N.Attr) and isinstance(n.obj, N.Name)
           and n.obj.ref is not None and n.obj.ref[0] == "me")
    return not own


def _name(n: N.Node) -> str | None:
    return n.name if isinstance(n, N.Attr) else n.id if isinstance(n, N.Name) else None


def _first_read(e: N.Node, spec: Spec, secret: Callable[[N.Node], bool], depth: int = 0) -> N.Node | None:
    """The first node under `e` that `secret` says reads what may not be read, looking into the spec's own
    functions (8 calls deep) and past the builtins that read only a zone's size (`_PUBLIC_OF_A_ZONE`)."""
    stack = [e]
    while stack:
        n = stack.pop()
        if isinstance(n, N.Call) and n.func in _PUBLIC_OF_A_ZONE:
            continue
        if isinstance(n, N.Call) and n.func in spec.functions and depth < 8:
            body = spec.functions[n.func].value
            if body is not None and body.ast is not None and _first_read(body.ast, spec, secret, depth + 1) is not None:
                return n
        if secret(n):
            return n
        stack.extend(_kids(n))
    return None


def hidden_condition_findings(spec: Spec) -> list[Diagnostic]:
    """W523: an action's `when:` that reads what the acting seat may not see."""
    out = []
    for a, when in guards(spec):
        found = reads_hidden(when.ast, spec)
        if found is None:
            continue
        shown = when.text.value[found.pos[0]:found.pos[1]].strip() if found.pos else ""
        out.append(Diagnostic(
            "W523", f"the `when:` of action '{a.name}' reads the cards of `{shown}`, which the acting player "
                    "may not see",
            when.locate(found.pos), severity=Severity.WARNING,
            hint="whether the action is offered tells the player what is hidden (and `why` will not show "
                 "those values): decide on what the player may see, or check it in `do:`"))
    return out


def unexplained_default_findings(spec: Spec) -> list[Diagnostic]:
    """W522: an ambiguity whose default reading says nothing of why it was chosen."""
    return [Diagnostic("W522", f"ambiguity '{a.name}' gives no `why` for its default '{a.default}'",
                       a.span, severity=Severity.WARNING,
                       hint="say why the default follows the text best (or that the text is silent)")
            for a in spec.ambiguities.values() if not (a.why or "").strip()]


def misquote_findings(spec: Spec) -> list[Diagnostic]:
    out = []
    for at, where, piece in misquotes(spec) or []:
        short = piece if len(piece) <= 60 else piece[:57] + "..."
        out.append(Diagnostic("W520", f"this quote is not the rulebook's words: \"{short}\" is not in the text",
                              spec.doc.span(at), severity=Severity.WARNING,
                              hint="quote the rulebook verbatim, typos kept (\"...\" may leave words out)",
                              note=f"in {where}"))
    return out


def _secret_zones(spec: Spec) -> set[str]:
    return {z.name for z in spec.zones.values() if z.visibility != "public"}


def _reads_secret(e: N.Node, secret: set[str], spec: Spec, depth: int = 0) -> N.Node | None:
    """The first reference under `e` to a non-public zone that is read for more than its size
    (through the spec's own functions too)."""
    return _first_read(e, spec, lambda n: getattr(n, "ty", None) is T.ZONE and _name(n) in secret, depth)


def _kids(n: N.Node) -> list:
    out = []
    for f in fields(n):
        if f.name in ("pos", "ty", "ref"):
            continue
        v = getattr(n, f.name)
        if isinstance(v, N.Node):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(x for x in v if isinstance(x, N.Node))
    return out


def hidden_hole_findings(spec: Spec) -> list[Diagnostic]:
    secret = _secret_zones(spec)
    if not secret:
        return []
    out = []
    seen = set()
    for code in codes(spec):
        if code is None or code.ast is None:
            continue
        for node in N.walk(code.ast):
            if not isinstance(node, N.Template):
                continue
            for part in node.parts:
                if isinstance(part, str) or part.ty in (T.CARD, T.CARDS, T.ZONE):
                    continue  # cards are redacted per seat when shown
                found = _reads_secret(part, secret, spec)
                if found is None or (id(code), id(part)) in seen:
                    continue
                seen.add((id(code), id(part)))
                out.append(Diagnostic("W521", "this narration shows what is in a zone some seats may not see",
                                      code.locate(part.pos), severity=Severity.WARNING,
                                      hint="show the cards themselves (they are hidden from the seats that may "
                                           "not see them) or only a count"))
    return out
