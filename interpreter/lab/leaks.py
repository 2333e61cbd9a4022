"""Where a hidden value reaches what every seat reads (part of `lint`; issue 29).

Narration holes, option labels and views are redacted by construction (runtime/redact.py), so a
hidden value can only escape through the state itself. This static pass follows values, statement
by statement, through local variables (`let`), and reports:

- W530, a public roll stored in a hidden variable: `roll`/`dice` are narrated to every seat, so
  `me.die = roll(1, 6)` with `die` hidden keeps no secret (use `secret_roll(me, 1, 6)`);
- W531, a hidden value stored in a public variable: `total = me.die + 1` hands every seat what
  `me.die` hides (unless a `reveal` of that variable came first in the same rule text);
- W532, a choice stored in a hidden variable by an action that is not `secret: true`, or by a
  `choose x from` inside a rule (always narrated): the choice itself is narrated to every seat
  ("P1 chooses: bid: 3").

- W533, an action's `when:` that reads a value the acting player may not read (another player's
  `visible: owner` die, a `visible: nobody` target): whether the action is offered tells the player
  what is hidden (W523 says the same of cards).

It deliberately does not judge effects and winners: rules may act on secrets (Liar's Dice's call
counts every die), and what a rule does is public by the rulebook's own design.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Any

from ..lang import hidden, nodes as N
from ..lang.model import Code, Spec, guards
from ..spec.diagnostics import Diagnostic, Severity

ROLL, SECRET, CHOICE, ASKED = "roll", "secret", "choice", "asked"  # ASKED: a `choose x from` inside a rule


def leak_findings(spec: Spec) -> list[Diagnostic]:
    if not any(v.visible != "public" for vs in spec.vars.values() for v in vs.values()):
        return []
    out: list[Diagnostic] = condition_findings(spec)
    done: set[int] = set()
    for a in spec.actions.values():
        if a.do is not None and a.do.ast is not None:
            done.add(id(a.do))
            params = {} if a.secret else {k: name for k, name in enumerate(a.params)}
            _Flow(spec, a.do, out, {k: {CHOICE} for k in params}, a.name).block(a.do.ast)
    from ..lang.model import codes
    for code in codes(spec, ("setup", "turn", "phases", "procedures", "triggers")):
        if id(code) not in done and code.kind == "block" and code.ast is not None:
            _Flow(spec, code, out, {}, None).block(code.ast)
    return out


def condition_findings(spec: Spec) -> list[Diagnostic]:
    """W533: an action's `when:` that reads a hidden value of anybody but the acting player (`me`)."""
    out = []
    for a, when in guards(spec):
        for r in hidden.hidden_reads(spec, when.ast):
            vis = hidden.var_of(spec, r.scope, r.rows[0]).visible
            mine = (r.scope == "player" and vis in ("owner", "side") and isinstance(r.owner, N.Name)
                    and r.owner.ref is not None and r.owner.ref[0] == "me")
            if mine:
                continue
            node = r.owner if r.owner is not None else when.ast
            out.append(Diagnostic(
                "W533", f"the `when:` of action '{a.name}' reads '{r.name}', which the acting player may not read",
                when.locate(node.pos), severity=Severity.WARNING,
                hint="whether the action is offered tells the player the hidden value: decide on what the "
                     "player may read, or check it in `do:`"))
            break
    return out


class _Flow:
    def __init__(self, spec: Spec, code: Code, out: list, taint: dict[int, set[str]], action: str | None):
        self.spec, self.code, self.out, self.taint, self.action = spec, code, out, dict(taint), action
        self.revealed: set[str] = set()

    def kinds(self, e: Any) -> set[str]:
        found: set[str] = set()
        if hidden.rolls_in(e, hidden.PUBLIC_ROLLS):
            found.add(ROLL)
        if hidden.rolls_in(e, hidden.SECRET_ROLLS):
            found.add(SECRET)
        if any(r.name not in self.revealed for r in hidden.hidden_reads(self.spec, e)):
            found.add(SECRET)
        for n in N.walk(e):
            if isinstance(n, N.Name) and n.ref and n.ref[0] == "local":
                found |= self.taint.get(n.ref[1], set())
        return found

    def block(self, stmts: list) -> None:
        for s in stmts or []:
            self.stmt(s)

    def stmt(self, s: N.Stmt) -> None:
        if isinstance(s, N.Let):
            self.taint[s.slot] = self.kinds(s.value)
        elif isinstance(s, N.Assign):
            self.assign(s)
        elif isinstance(s, N.Reveal):
            self.revealed.add(_base(s.target))
        elif isinstance(s, N.ChooseValue):  # narrated to every seat, in a secret action too
            self.taint[s.slot] = {ASKED}
        for f in fields(s):
            v = getattr(s, f.name)
            if isinstance(v, list):
                for x in v:
                    self._nested(x)
            elif isinstance(v, N.Node) and isinstance(v, (N.Option,)):
                self._nested(v)

    def _nested(self, x: Any) -> None:
        if isinstance(x, N.Stmt):
            self.stmt(x)
        elif isinstance(x, N.Option):
            self.block(x.body)
        elif isinstance(x, (list, tuple)):  # an if's (condition, body) branches
            for y in x:
                if isinstance(y, list):
                    self.block(y)
                elif isinstance(y, N.Stmt):
                    self.stmt(y)

    def assign(self, s: N.Assign) -> None:
        t = s.target
        ref = getattr(t, "ref", None)
        if not ref:
            return
        if ref[0] == "local":
            self.taint[ref[1]] = self.kinds(s.value) | self.taint.get(ref[1], set())
            return
        secret = _target_hidden(self.spec, ref)
        if secret is None:
            return
        got = self.kinds(s.value)
        at = self.code.locate(s.pos)
        name = _base(t)
        if secret and ROLL in got:
            self._emit("W530", f"'{name}' is hidden, but the roll stored in it was narrated to every seat", at,
                       "roll it for one seat's eyes: secret_roll(p, n, sides), or secret_dice(p, n, sides)")
        if secret and CHOICE in got:
            self._emit("W532", f"'{name}' is hidden, but action '{self.action}' narrates the choice stored in it "
                               "to every seat", at, "give the action `secret: true`: only its chooser sees the choice")
        elif secret and ASKED in got:
            self._emit("W532", f"'{name}' is hidden, but the choice stored in it is narrated to every seat", at,
                       "make it a parameter of an action with `secret: true`: only its chooser sees the choice")
        if not secret and SECRET in got:
            self._emit("W531", f"'{name}' is public, so every seat reads the hidden value stored in it", at,
                       "keep it in a hidden variable (`visible: owner`), or `reveal(...)` the secret first")

    def _emit(self, code: str, msg: str, at: Any, hint: str) -> None:
        self.out.append(Diagnostic(code, msg, at, hint=hint, severity=Severity.WARNING))


def _target_hidden(spec: Spec, ref: tuple) -> bool | None:
    """Whether an assignment's target variable is hidden (None: not a variable lint follows)."""
    if ref[0] == "pvar":
        return hidden.is_hidden(spec, "player", ref[1])
    if ref[0] == "gvar":
        return hidden.is_hidden(spec, "global", ref[1])
    if ref[0] == "tvar":
        return False
    if ref[0] == "keyed":
        kv = spec.keyed[ref[1]][ref[2]]
        return hidden.is_hidden(spec, kv.scope, kv.index)
    return None


def _base(t: Any) -> str:
    if isinstance(t, N.Index):
        t = t.obj
    if isinstance(t, N.Attr):
        return t.name
    return getattr(t, "id", "?")
