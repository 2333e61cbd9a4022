"""Checking statements: moves, assignments, calls, choices, conditions and loops, in their scopes.

Owns `StatementChecks`, the part of the checker (checker.Checker) that walks
each block of rule text (`s_Move`, `s_Assign`, `s_ChooseOption`, ...): what a
statement may change, where a choice may stand and who makes it, which
statements end a turn, and the names `let` and loops bind.
"""
from __future__ import annotations


from . import hidden, nodes as N
from .builtins import BUILTINS, NAMESPACES, SPECIAL_NAMES
from ..spec.diagnostics import did_you_mean
from .kinds import COLLECTIONS, ELEMENT, T, word
from .model import Code
from .check_expressions import PARAM_TYPES, _Scope


def _ends_turn(body: list) -> bool:
    """A body that ends with `end turn`/`end game` never falls through to what follows."""
    return bool(body) and isinstance(body[-1], (N.EndTurn, N.EndGame))


class StatementChecks:
    """Statements and their scopes (a part of Checker)."""

    # -- code units ----------------------------------------------------------
    def block_scope(self, code: Code, allow_end_turn: bool) -> _Scope:
        return _Scope(code, allow_end_turn, True)

    def block(self, code: Code, allow_end_turn: bool) -> None:
        sc = self.block_scope(code, allow_end_turn)
        self.stmts(code, sc, code.ast)
        code.n_locals = sc.n

    # -- statements ----------------------------------------------------------
    def stmts(self, code: Code, sc: _Scope, body: list | None) -> None:
        for i, st in enumerate(body or []):
            if isinstance(st, N.Reveal) and "reveal" in self.spec.procedures:  # the spec's own procedure
                body[i] = st = N.CallStmt(st.pos, st.call)
            self.stmt(code, sc, st)

    def stmt(self, code: Code, sc: _Scope, st: N.Stmt) -> None:
        m = getattr(self, "s_" + type(st).__name__)
        m(code, sc, st)

    def s_Move(self, code, sc, st: N.Move) -> None:
        t = self.expr(st.what, code, sc)
        self.expect_type(code, t, frozenset({T.CARD, T.CARDS, T.ZONE}), st.what, "move")
        self.expect_type(code, self.expr(st.dest, code, sc), T.ZONE, st.dest, "move ... to")

    def s_Shuffle(self, code, sc, st: N.Shuffle) -> None:
        self.expect_type(code, self.expr(st.zone, code, sc), T.ZONE, st.zone, "shuffle")

    def s_Let(self, code, sc, st: N.Let) -> None:
        ty = self.expr(st.value, code, sc)
        if st.name in SPECIAL_NAMES or st.name in NAMESPACES or self._global_name(st.name):
            self.error("E422", f"'{st.name}' is already the name of something in the game", code, st.pos,
                       hint="pick another name for the local variable")
        found = sc.lookup(st.name)
        if found is not None:
            slot, old = found
            if old != ty and T.ANY not in (old, ty):
                self.error("E423", f"'{st.name}' was {word(old)}, cannot become {word(ty)}", code, st.value.pos)
            elif old is T.ANY and ty in COLLECTIONS:
                self._settle(sc, st.name, ty)
            st.slot = slot
            sc.bound.add(slot)
        else:
            st.slot = sc.bind(st.name, ty)

    @staticmethod
    def _settle(sc: _Scope, name: str, ty: T) -> None:
        """A local that held an empty list `[]` (elements of no kind yet) takes the kind of the list given it."""
        for f in reversed(sc.frames):
            if name in f:
                f[name] = (f[name][0], T.CARDS if ty is T.ZONE else ty)
                return

    def _global_name(self, name: str) -> bool:
        s = self.spec
        return name in s.vars["global"] or name in s.keyed["global"] or name in self.szones

    def var_names(self, scope: str) -> list[str]:
        """Variable names as written in rules (a keyed variable once, without its keys)."""
        return [n for n in self.spec.vars[scope] if "[" not in n] + list(self.spec.keyed[scope])

    def s_Assign(self, code, sc, st: N.Assign) -> None:
        t = st.target
        tt = self.expr(t, code, sc)
        ref = getattr(t, "ref", None)
        keyed = isinstance(t, N.Index) and ref is not None and ref[0] == "keyed"
        if not keyed and (isinstance(t, N.Index) or ref is None or ref[0] not in ("local", "gvar", "pvar", "tvar")):
            if tt is not T.ANY:
                self.error("E424", "only variables can be assigned", code, t.pos,
                           hint="assign a local, a global, a player or a turn variable")
            self.expr(st.value, code, sc)  # its own errors still count
            return
        vt = self.expr(st.value, code, sc)
        if tt is T.ANY and vt in COLLECTIONS and isinstance(t, N.Name) and ref[0] == "local":
            self._settle(sc, t.id, vt)  # `let seen = []`, then `seen = seen + [c]`: a list of cells from now on
        if st.op == "=":
            self.literal_value(t, st.value, code)  # a text variable's value is one of its `values`
        if st.op in ("+=", "-="):
            self.expect_type(code, tt, T.INT, t, st.op)
            self.expect_type(code, vt, T.INT, st.value, st.op)
        else:
            self.expect_type(code, vt, tt, st.value, "=")

    def s_CallStmt(self, code, sc, st: N.CallStmt) -> None:
        call = st.call
        pr = self.spec.procedures.get(call.func)
        if pr is None:
            if call.func in self.spec.functions or call.func in BUILTINS:
                self.error("E425", f"'{call.func}' gives a value; it does nothing as a statement", code, call.pos,
                           hint="use it inside an expression, e.g. `let x = ...`")
            else:
                self.error("E403", f"unknown procedure '{call.func}'", code, call.func_pos,
                           hint=did_you_mean(call.func, self.spec.procedures))
            for a in call.args:
                self.expr(a, code, sc)
            return
        self.called.add(call.func)
        call.ref = ("proc", call.func)
        self.check_args(code, sc, call, [PARAM_TYPES[t] for t in pr.params.values()], list(pr.params))

    def check_args(self, code, sc, call: N.Call, types: list, names: list[str]) -> None:
        if len(call.args) != len(types):
            self.error("E426", f"'{call.func}' takes {len(types)} argument(s), {len(call.args)} given", code, call.pos,
                       hint=f"{call.func}({', '.join(names)})")
        for a, t in zip(call.args, types):
            self.expect_type(code, self.expr(a, code, sc), t, a, f"argument of {call.func}")
        for a in call.args[len(types):]:
            self.expr(a, code, sc)

    def s_EndTurn(self, code, sc, st) -> None:
        if not sc.allow_end_turn:
            self.error("E427", "`end turn` can only be used during a turn", code, st.pos,
                       hint="use it in an action, a procedure or the turn's `start`")

    def s_EndGame(self, code, sc, st) -> None:
        pass

    def s_Pass(self, code, sc, st) -> None:
        pass

    def s_TurnOrder(self, code, sc, st: N.TurnOrder) -> None:
        if st.who is not None:
            self.expect_type(code, self.expr(st.who, code, sc), T.PLAYER, st.who, "next turn to")

    def s_Reveal(self, code, sc, st: N.Reveal) -> None:
        hidden.check_reveal(self, code, sc, st)

    def s_Say(self, code, sc, st: N.Say) -> None:
        self.pure(st.text, code, sc)  # evaluated only when somebody reads the log

    def pure(self, e: N.Expr, code, sc: _Scope) -> T:
        """An expression the engine may evaluate any number of times (or never): no dice in it (E445)."""
        saved, sc.allow_effects = sc.allow_effects, False
        try:
            return self.expr(e, code, sc)
        finally:
            sc.allow_effects = saved

    def _by(self, code, sc, by) -> None:
        if by is not None:
            self.expect_type(code, self.expr(by, code, sc), T.PLAYER, by, "choose ... by")

    def s_ChooseValue(self, code, sc, st: N.ChooseValue) -> None:
        ty = self.expr(st.source, code, sc)
        self.expect_type(code, ty, COLLECTIONS, st.source, "choose ... from")
        self._by(code, sc, st.by)
        if st.prompt:
            self.pure(st.prompt, code, sc)
        found = sc.lookup(st.name)
        st.slot = found[0] if found else sc.bind(st.name, ELEMENT.get(ty, T.ANY))

    def s_ChooseSubset(self, code, sc, st: N.ChooseSubset) -> None:
        ty = self.expr(st.source, code, sc)
        self.expect_type(code, ty, frozenset({T.CARDS, T.ZONE}), st.source, "choose subset ... of")
        self._by(code, sc, st.by)
        if st.prompt:
            self.pure(st.prompt, code, sc)
        found = sc.lookup(st.name)
        st.slot = found[0] if found else sc.bind(st.name, T.CARDS)
        self.expect_type(code, self.pure(st.cond, code, sc), T.BOOL, st.cond, "where")

    def _branches(self, code, sc, bodies: list, exhaustive: bool) -> None:
        """Check alternative bodies; afterwards a local is bound only if every way through binds it."""
        before = set(sc.bound)
        after: list[set[int]] = []
        for body in bodies:
            sc.bound = set(before)
            self.stmts(code, sc, body)
            if not _ends_turn(body):
                after.append(sc.bound)
        if not exhaustive:
            after.append(before)
        sc.bound = set.intersection(*after) if after else before

    def s_If(self, code, sc, st: N.If) -> None:
        for cond, _body in st.branches:
            self.expect_type(code, self.expr(cond, code, sc), T.BOOL, cond, "if")
        bodies = [body for _c, body in st.branches] + ([st.orelse] if st.orelse else [])
        self._branches(code, sc, bodies, exhaustive=st.orelse is not None)

    def s_ForEach(self, code, sc, st: N.ForEach) -> None:
        ty = self.expr(st.coll, code, sc)
        self.expect_type(code, ty, COLLECTIONS, st.coll, "for each")
        sc.frames.append({})
        st.slot = sc.bind(st.var, ELEMENT.get(ty, T.ANY))
        sc.n += 2  # hidden slots: the list being walked and the position in it
        self._branches(code, sc, [st.body], exhaustive=False)  # the body may run no time at all
        sc.frames.pop()

    def s_Repeat(self, code, sc, st: N.Repeat) -> None:
        self.expect_type(code, self.expr(st.count, code, sc), T.INT, st.count, "repeat")
        st.slot = sc.n  # hidden slot: iterations left
        sc.n += 1
        self._branches(code, sc, [st.body], exhaustive=False)

    def s_While(self, code, sc, st: N.While) -> None:
        self.expect_type(code, self.expr(st.cond, code, sc), T.BOOL, st.cond, "while")
        self._branches(code, sc, [st.body], exhaustive=False)

    def s_ChooseTogether(self, code, sc, st: N.ChooseTogether) -> None:
        pt = self.expr(st.players, code, sc)
        self.expect_type(code, pt, T.PLAYERS, st.players, "choose together ... for each")
        sc.frames.append({})
        st.slot = sc.bind(st.name, T.ANY)
        sc.bind(st.var, T.PLAYER)
        sc.n += 3  # hidden slots: the players, the position among them, the choices made so far
        ty = self.pure(st.source, code, sc)
        self.expect_type(code, ty, COLLECTIONS, st.source, "choose together ... from")
        sc.frames[-1][st.name] = (st.slot, ELEMENT.get(ty, T.ANY))
        if st.prompt:
            self.pure(st.prompt, code, sc)
        inner = self._choice_inside(st.body)
        if inner is not None:
            self.error("E448", "a choice inside a simultaneous choice: the others' choices are revealed here",
                       code, inner.pos,
                       hint="make this choice after the `choose together` block, or add it to the block's players' "
                            "choice")
        self._branches(code, sc, [st.body], exhaustive=True)
        sc.frames.pop()

    def _may_end_turn(self, body: list, seen: set | None = None) -> bool:
        """Whether `body` says `end turn` or `end game` somewhere (also in the procedures it calls)."""
        seen = set() if seen is None else seen
        for n in N.walk(body):
            if isinstance(n, (N.EndTurn, N.EndGame)):
                return True
            if isinstance(n, N.CallStmt) and n.call.func in self.spec.procedures and n.call.func not in seen:
                seen.add(n.call.func)
                if self._may_end_turn(self.spec.procedures[n.call.func].do.ast or [], seen):
                    return True
        return False

    def _choice_inside(self, body: list, seen: set | None = None):
        """The first statement in `body` that asks for a decision (also in the procedures it calls)."""
        seen = set() if seen is None else seen
        for n in N.walk(body):
            if isinstance(n, (N.ChooseValue, N.ChooseSubset, N.ChooseOption, N.ChooseTogether)):
                return n
            if isinstance(n, N.CallStmt) and n.call.func in self.spec.procedures and n.call.func not in seen:
                seen.add(n.call.func)
                if self._choice_inside(self.spec.procedures[n.call.func].do.ast or [], seen) is not None:
                    return n
        return None

    def s_ChooseOption(self, code, sc, st: N.ChooseOption) -> None:
        self._by(code, sc, st.by)
        if st.prompt:
            self.pure(st.prompt, code, sc)
        before = set(sc.bound)
        after: list[set[int]] = []  # exactly one option runs (no open option stalls the game)
        for opt in st.options:
            sc.bound = set(before)
            sc.frames.append({})
            if opt.var is not None:
                ty = self.expr(opt.coll, code, sc)
                self.expect_type(code, ty, COLLECTIONS, opt.coll, "option for")
                opt.slot = sc.bind(opt.var, ELEMENT.get(ty, T.ANY))
            self.pure(opt.label, code, sc)
            if opt.cond is not None:
                self.expect_type(code, self.pure(opt.cond, code, sc), T.BOOL, opt.cond, "when")
            self.stmts(code, sc, opt.body)
            sc.frames.pop()
            if not _ends_turn(opt.body):
                after.append(sc.bound)
        sc.bound = set.intersection(*after) if after else before
