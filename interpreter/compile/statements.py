"""Generated Python for statements without decisions: moves, assignments, calls, conditions, loops, `say`.

Owns `StmtGen`, the part of the code generator (codegen.PyGen) that turns a
block of lowered statements (lower/ir.py) into lines of Python (`block`, the
`s_*` statements), procedures inlined where they are small.
"""
from __future__ import annotations

from typing import Any

from ..lang.kinds import T
from ..lower import ir
from .expressions import _is_players
from .support import _nc


_ASSIGN_OPS = {"=": "=", "+=": "+=", "-=": "-="}


def _narration_only(s: ir.S) -> bool:
    if isinstance(s, ir.Say):
        return True
    if isinstance(s, ir.If):
        bodies = [b for _, b in s.branches] + ([s.orelse] if s.orelse else [])
        return all(all(_narration_only(x) for x in b) for b in bodies)
    return False


class StmtGen:
    """Statements as lines of Python (a part of PyGen)."""

    # -- statements ---------------------------------------------------------------------
    def block(self, stmts: list, depth: int) -> str:
        lines: list[str] = []
        for s in stmts:
            lines.extend(self.stmt(s))
        if not lines:
            lines = ["pass"]
        pad = "    " * depth
        return "".join(f"{pad}{ln}\n" for ln in lines)

    def sub(self, stmts: list) -> list[str]:
        out = []
        for s in stmts:
            out.extend("    " + ln for ln in self.stmt(s))
        return out or ["    pass"]

    def stmt(self, s: ir.S) -> list[str]:
        if self.locate:
            return self.mark(s) + getattr(self, "s_" + type(s).__name__)(s)
        return getattr(self, "s_" + type(s).__name__)(s)

    def s_Move(self, s: ir.Move) -> list[str]:
        what, dest = self.expr(s.what), self.expr(s.dest)
        ty = s.what.ty
        if ty is T.CARD and not self.comp.spec.triggers:
            # The engine's move_card, inline (no trigger can fire in this spec).
            c, d = self.fresh("c"), self.fresh("d")
            return [f"{c} = {what}", f"{d} = {dest}"] + self._move_card(c, d)
        if ty is not T.ZONE and not self.comp.spec.triggers:  # move_cards: each card as above
            c, d = self.fresh("c"), self.fresh("d")
            # a new list already: the moves cannot disturb it
            fresh = isinstance(s.what, ir.Comprehension) and s.what.kind in ("filter", "while")
            head = f"for {c} in {what}:" if fresh else f"for {c} in list({what}):"
            return [f"{d} = {dest}", head] + ["    " + ln for ln in self._move_card(c, d)]
        if ty is T.CARD:
            return [f"st.move_card({what}, {dest})"]
        if ty is T.ZONE and not self.comp.spec.triggers:
            # The engine's move_zone, inline.
            src, d, cs, c, w = self.fresh("s"), self.fresh("d"), self.fresh("cs"), self.fresh("c"), self.fresh("w")
            return [f"{src} = {what}", f"{d} = {dest}", f"{cs} = st.zones[{src}]", f"if {cs} and {src} != {d}:",
                    f"    st.zones[{src}] = []", f"    st.zones[{d}].extend({cs})", f"    {w} = st.where",
                    f"    for {c} in {cs}:", f"        {w}[{c}] = {d}",
                    *(ln for j in self.comp.summed.values()
                      for ln in (f"    st.zsum[{int(j)}][{d}] += st.zsum[{int(j)}][{src}]",
                                 f"    st.zsum[{int(j)}][{src}] = 0")),
                    "    if st.log is not None:", f"        st.log_move({cs}, {src}, {d})"]
        if ty is T.ZONE:
            return [f"st.move_zone({what}, {dest})"]
        return [f"st.move_cards(list({what}), {dest})"]

    def _move_card(self, c: str, d: str) -> list[str]:
        """State.move_card of card `c` to zone `d` (both Python names), inline."""
        src, z = self.fresh("s"), self.fresh("z")
        return [f"{src} = st.where[{c}]", f"{z} = st.zones[{src}]",
                f"if {z}[-1] == {c}:", f"    {z}.pop()", "else:", f"    {z}.remove({c})",
                f"st.zones[{d}].append({c})", f"st.where[{c}] = {d}",
                *(ln for p, j in self.comp.summed.items()
                  for ln in (f"st.zsum[{int(j)}][{src}] -= {self.k(self.comp.props[p])}[{c}]",
                             f"st.zsum[{int(j)}][{d}] += {self.k(self.comp.props[p])}[{c}]")),
                "if st.log is not None:", f"    st.log_move([{c}], {src}, {d})"]

    def s_Shuffle(self, s: ir.Shuffle) -> list[str]:
        return [f"st.shuffle({self.expr(s.zone)})"]

    def s_Let(self, s: ir.Let) -> list[str]:
        return [f"{self.local(s.slot)} = {self.expr(s.value)}"]

    def s_Assign(self, s: ir.Assign) -> list[str]:
        t = s.target
        val = self.expr(s.value)
        if isinstance(t, ir.Keyed):
            return self._assign_keyed(s, val)
        if isinstance(t, ir.Local):
            return [f"{self.local(t.slot)} {_ASSIGN_OPS[s.op]} {val}"]
        vd = self.comp.vardefs[t.scope][t.index]
        i = int(vd.index)
        if t.scope == "player":
            row, key = f"st.pvars[{i}]", self.expr(t.owner)
        else:
            row, key = ("st.gvars" if t.scope == "global" else "st.tvars"), str(i)
        if vd.visible != "public":  # a revealed secret that changes is a secret again (lang/hidden.py)
            owner = key if t.scope == "player" else "None"
            return self._plain_assign(s, val, vd, row, key) + [f"if st.shown: st.conceal({self.k(t.scope)}, {i}, {owner})"]
        return self._plain_assign(s, val, vd, row, key)

    def _plain_assign(self, s: ir.Assign, val: str, vd: Any, row: str, key: str) -> list[str]:
        r, kk, v = self.fresh("r"), self.fresh("k"), self.fresh("v")
        new = val if s.op == "=" else f"{r}[{kk}] {'+' if s.op == '+=' else '-'} {val}"
        lines = [f"{r} = {row}", f"{kk} = {key}", f"{v} = {new}"]
        tests = []
        c = self.fold(s.value) if s.op == "=" else None
        if type(c) is int and (vd.min is None or c >= vd.min) and (vd.max is None or c <= vd.max):
            return [f"{row}[{key}] = {int(c)}"]  # a constant within bounds needs no check
        if vd.min is not None:
            tests.append(f"{v} < {int(vd.min)}")
        if vd.max is not None:
            tests.append(f"{v} > {int(vd.max)}")
        if vd.type == "text" and vd.values:  # an enumeration: _fit names the values
            tests.append(f"{v} not in {self.k(frozenset(vd.values))}")
        if not tests:  # no bounds to keep
            return [f"{row}[{key}] {_ASSIGN_OPS[s.op]} {val}"]
        # out of bounds: _fit cuts (a cap) or raises a rule error
        lines += [f"if {' or '.join(tests)}:", f"    {v} = _fit({self.k(vd)}, {v})"]
        return lines + [f"{r}[{kk}] = {v}"]

    def _assign_keyed(self, s: ir.Assign, val: str) -> list[str]:
        x = s.target
        kv, _table = self.comp.key_slots(x.scope, x.name)
        vd = self.comp.vardefs[kv.scope][kv.index]
        lines = self._assign_keyed_value(s, val)
        if vd.visible != "public":  # a revealed secret that changes is a secret again (lang/hidden.py)
            owner = self.expr(x.owner) if kv.scope == "player" else "None"
            lines.append(f"if st.shown: st.conceal({self.k(kv.scope)}, {self._key_row(x)}, {owner})")
        return lines

    def _assign_keyed_value(self, s: ir.Assign, val: str) -> list[str]:
        row, key = self._keyed(s.target)
        x = s.target
        kv, table = self.comp.key_slots(x.scope, x.name)
        vd = self.comp.vardefs[kv.scope][kv.index]  # every key shares the declaration's bounds
        r, kk, v = self.fresh("r"), self.fresh("k"), self.fresh("v")
        new = val if s.op == "=" else f"{r}[{kk}] {'+' if s.op == '+=' else '-'} {val}"
        lines = [f"{r} = {row}", f"{kk} = {key}", f"{v} = {new}"]
        tests = []
        if vd.min is not None:
            tests.append(f"{v} < {int(vd.min)}")
        if vd.max is not None:
            tests.append(f"{v} > {int(vd.max)}")
        if not tests:
            return [f"{row}[{key}] {_ASSIGN_OPS[s.op]} {val}"]
        lines += [f"if {' or '.join(tests)}:", f"    {v} = _fit({self.k(vd)}, {v})"]
        return lines + [f"{r}[{kk}] = {v}"]

    def s_Call(self, s: ir.Call) -> list[str]:
        name = s.proc
        params = self.comp.param_types(name)
        if name not in self._inlining:
            return self.inline_procedure(name, self.args(s.args, params))
        fn = self.procedure(name)
        n = self.comp.spec.procedures[name].do.n_locals
        args = self.args(s.args, params)
        pad = n - len(args)
        lst = "[" + ", ".join(args) + "]" + (f" + [None] * {pad}" if pad > 0 else "")
        return [f"{fn}(st, {lst})"]

    def inline_procedure(self, name: str, args: list[str]) -> list[str]:
        """A never-pausing procedure's body in place: its locals become Python variables."""
        pr = self.comp.spec.procedures[name]
        names = {i: self.fresh("p") for i in range(max(pr.do.n_locals, len(args)))}
        lines = [f"{names[i]} = {a}" for i, a in enumerate(args)]
        self._inlining.add(name)
        self.local_names.append(names)
        self.codes.append(pr.do)
        try:
            body = self.hit("rule", f"procedure {name}", None)
            for st in self.comp.lowered_block(pr.do):
                body.extend(self.stmt(st))
        finally:
            self.codes.pop()
            self.local_names.pop()
            self._inlining.discard(name)
        return lines + body or ["pass"]

    def s_EndTurn(self, s) -> list[str]:
        # In a resumable program the frame can return to the engine; elsewhere (a procedure run as a
        # plain function) the exception unwinds to the engine's loop, which does the same.
        if not self._resumable:
            return ["raise EndTurn()"]
        # State.end_turn, inline (it runs once a turn); called only to raise when not in a turn.
        return ["if not st.in_turn:", "    st.end_turn()  # raises", "st.turn_over = True", "del st.stack[1:]",
                "return None"]

    def s_EndGame(self, s) -> list[str]:
        return ["return st.finish()"] if self._resumable else ["raise EndGame()"]

    def s_Pass(self, s) -> list[str]:
        return ["pass"]

    def s_TurnOrder(self, s: ir.TurnOrder) -> list[str]:
        """Who plays next (State.pass_turn reads these when the turn passes)."""
        if s.what == "to":
            return [f"st.nxt = {self.expr(s.who)}"]
        if s.what == "extra":
            return ["st.nxt = st.cur"]
        if s.what == "skip":
            return ["st.skips += 1"]
        return ["st.order = -st.order"]

    def s_Reveal(self, s: ir.Reveal) -> list[str]:
        owner = "None" if s.owner is None else self.expr(s.owner)
        if not s.rows:  # one key of a keyed variable: its row
            return [f"st.reveal({self.k(s.scope)}, ({self._key_row(s.key)},), {owner})"]
        return [f"st.reveal({self.k(s.scope)}, {self.k(tuple(s.rows))}, {owner})"]

    def _key_row(self, x: ir.Keyed) -> str:
        """The variable row (slot) `x[key]` of a keyed variable names."""
        row, key = self._keyed(x)
        return row[len("st.pvars["):-1] if x.scope == "player" else key

    # Narration runs only in a logged game: the work its expressions do is not charged to the game (a
    # logged game and an unlogged one take the same steps), except what it would take past the budget.
    def _uncharged(self, lines: list[str]) -> list[str]:
        k = self.fresh("k")
        return [f"{k} = st.steps, st.work  # narration: its work is not charged", *lines, f"st.steps, st.work = {k}"]

    def s_Say(self, s: ir.Say) -> list[str]:
        return ["if st.log is not None:", "    st.marking = True",
                *("    " + ln for ln in self._uncharged([f"st.say({self.expr(s.text)})"]))]

    def s_If(self, s: ir.If) -> list[str]:
        if _narration_only(s) and not self.coverage:  # choosing what to say: skip the tests when nobody listens
            return ["if st.log is not None:"] + ["    " + ln for ln in self._uncharged(self._if(s))]
        return self._if(s)

    def _if(self, s: ir.If) -> list[str]:
        out: list[str] = []
        first = True
        for cond_e, body in s.branches:
            c = self.fold(cond_e)
            if c is not _nc() and not c:
                continue
            if c is not _nc():  # always true: this branch, and nothing after it
                if first:
                    out.extend(ln[4:] for ln in self.sub(body))
                    return out or ["pass"]
                out.append("else:")
                out.extend(self.sub(body))
                return out
            out.append(f"{'if' if first else 'elif'} {self.expr(cond_e)}:")
            hit = self.hit("branch", "if", cond_e)
            out.extend("    " + ln for ln in hit)
            with self._guarded(cond_e):
                out.extend(self.sub(body))
            first = False
        if s.orelse:
            if first:
                return [ln[4:] for ln in self.sub(s.orelse)]
            out.append("else:")
            out.extend("    " + ln for ln in self.hit("branch", "else", s))
            with self._guarded(s):
                out.extend(self.sub(s.orelse))
        return out or ["pass"]

    def _guarded(self, node: ir.If | ir.X):
        """While emitting a branch that only some readings/options take, mark its coverage points."""
        import contextlib
        tag = self.param_tag(node)

        @contextlib.contextmanager
        def guard():
            if tag:
                self._guards.append(tag)
            try:
                yield
            finally:
                if tag:
                    self._guards.pop()
        return guard()

    def s_ForEach(self, s: ir.ForEach) -> list[str]:
        # The element is a Python local (the loop cannot pause, and it is out of scope after the loop);
        # the iterations are charged to the step budget up front.
        v = self.fresh("e")
        head = [f"for {v} in _each(st, {self.coll(s.coll)}):"]
        if _is_players(s.coll):  # the seats never change: no copy
            # State.spend, inline; called only to raise when the budget is spent.
            head = ["if st.steps + st.n > st.g.budget:", "    st.spend(st.n)  # raises", "st.steps += st.n",
                    f"for {v} in st.seats:"]
        self.local_names.append({s.slot: v})
        try:
            return head + self.sub(s.body)
        finally:
            self.local_names.pop()

    def s_Repeat(self, s: ir.Repeat) -> list[str]:
        return [f"for _ in range(st.spend({self.expr(s.count)})):"] + self.sub(s.body)

    def s_While(self, s: ir.While) -> list[str]:
        return [f"while {self.expr(s.cond)}:", "    st.tick()"] + self.sub(s.body)
