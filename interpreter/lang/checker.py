"""Semantic checks: names, types, arity, references, flow sanity.

Owns `check(spec)` and the `Checker`: resolving every name in every piece of
rule text (locals, players, zones, variables, options, ambiguity readings,
card properties, procedures, functions, builtins), giving every expression
its static type, allocating local-variable slots, and the spec-level checks
(card counts, defaults, flow references). Annotations are written onto the
AST (`ty`, `ref`, `slot`) for the compiler; diagnostics are yielded, all of
them, sorted later. Suggestions only come from names valid in that place.
The checker is read by what it checks, one module each: check_sections.py
(the spec section by section), check_statements.py (statements and their
scopes), check_expressions.py (the types of expressions); this module holds
the run over the whole spec and the diagnostics it collects.
"""
from __future__ import annotations

from typing import Iterator

from . import counts, decks, givens, limits, nodes as N
from ..spec.diagnostics import Diagnostic, Severity, Span
from .kinds import T
from .model import Code, Spec
from .check_expressions import ExpressionChecks, PARAM_TYPES, _value_type
from .check_expressions import VAR_TYPES, _Scope  # noqa: F401  (imported from here before the split)
from .check_statements import StatementChecks
from .check_sections import SectionChecks


class Checker(ExpressionChecks, StatementChecks, SectionChecks):
    def __init__(self, spec: Spec):
        self.spec = spec
        self.diags: list[Diagnostic] = []
        self.used_readings: set[str] = set()
        self.called: set[str] = set()
        self.func_types: dict[str, T] = {}
        self._func_stack: list[str] = []
        props: dict[str, set] = {}
        self.prop_types: dict[str, T] = {}
        for ct in spec.cards.values():
            for k, v in ct.props.items():
                props.setdefault(k, set()).add(v)
                self.prop_types.setdefault(k, _value_type(v))
        self.prop_values = props
        self.pzones = {z.name: z for z in spec.zones.values() if z.owner == "player"}
        self.szones = {z.name: z for z in spec.zones.values() if z.owner == "shared"}

    # -- reporting ----------------------------------------------------------
    def error(self, code: str, msg: str, at: Code | Span | None, pos: N.Pos | None = None,
              hint: str | None = None, note: str | None = None) -> None:
        self._emit(code, msg, at, pos, hint, note, Severity.ERROR)

    def warn(self, code: str, msg: str, at: Code | Span | None, pos: N.Pos | None = None,
             hint: str | None = None) -> None:
        self._emit(code, msg, at, pos, hint, None, Severity.WARNING)

    def _emit(self, code, msg, at, pos, hint, note, sev) -> None:
        span = at.locate(pos) if isinstance(at, Code) else at
        self.diags.append(Diagnostic(code, msg, span, hint, note, sev))

    # -- entry ---------------------------------------------------------------
    def run(self) -> list[Diagnostic]:
        s = self.spec
        self.structure()
        for name, f in s.functions.items():
            self.function_type(name)
        if s.setup:
            self.block(s.setup, allow_end_turn=False)
        if not isinstance(s.first, str):
            self.condition(s.first, T.PLAYER)
        if s.skip_if is not None:
            self.condition(s.skip_if, T.BOOL)
        turns = [s.turn] + [ph.turn for ph in s.phases if ph.turn is not s.turn]
        for t in turns:
            if t.start:
                self.block(t.start, allow_end_turn=True)
            if t.end:
                self.block(t.end, allow_end_turn=False)
        for ph in s.phases:
            for c in (ph.start, ph.end):
                if c:
                    self.block(c, allow_end_turn=False)
            if ph.until:
                self.condition(ph.until, T.BOOL)
            if ph.while_:
                self.condition(ph.while_, T.BOOL)
        for a in s.actions.values():
            self.action(a)
        for pr in s.procedures.values():
            sc = self.block_scope(pr.do, True)
            for pname, ptype in pr.params.items():
                sc.bind(pname, PARAM_TYPES[ptype])
            self.stmts(pr.do, sc, pr.do.ast)
            pr.do.n_locals = sc.n
        for tr in s.triggers.values():
            sc = self.block_scope(tr.do, False)
            sc.bind("card", T.CARD)
            sc.bind("owner", T.PLAYER)
            if tr.when and tr.when.ast is not None:
                self.expect_type(tr.when, self.expr(tr.when.ast, tr.when, sc), T.BOOL, tr.when.ast)
            self.stmts(tr.do, sc, tr.do.ast)
            tr.do.n_locals = sc.n
            if tr.when:
                tr.when.n_locals = sc.n
        for c, ty in ((s.end_when, T.BOOL), (s.winners, T.PLAYERS)):
            if c:
                self.condition(c, ty)
        for c in s.invariants.values():
            self.condition(c, T.BOOL)
        for m in s.measures.values():
            self.condition(m.value, frozenset({T.INT, T.BOOL}))
        if s.lab is not None:
            self.lab_settings()
        if s.heuristic:
            self.condition(s.heuristic, T.INT)  # evaluated once per player, with `me` bound to that player
        for ex in s.examples.values():
            for c in ex.expect:
                self.condition(c, T.BOOL)
        self.usage_warnings()
        return self.diags


def check(spec: Spec) -> Iterator[Diagnostic]:
    yield from Checker(spec).run()
    yield from limits.check(spec)
    yield from decks.check(spec.doc)
    yield from decks.check_counts(spec.doc, spec.min_players, spec.max_players)
    yield from givens.check(spec)
    yield from counts.check(spec)
