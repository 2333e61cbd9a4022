"""Semantic checks: names, types, arity, references, flow sanity.

Owns: resolving every name in every piece of rule text (locals, players,
zones, variables, options, ambiguity readings, card properties, procedures,
functions, builtins), giving every expression its static type, allocating
local-variable slots, and the spec-level checks (card counts, defaults,
flow references). Annotations are written onto the AST (`ty`, `ref`,
`slot`) for the compiler; diagnostics are yielded, all of them, sorted
later. Suggestions only come from names valid in that place.
"""
from __future__ import annotations

from typing import Any, Iterator

from . import boards, counts, decks, givens, hidden, labels, limits, nodes as N, teams
from .builtins import BUILTINS, NAMESPACES, PROP, SPECIAL_NAMES, STATEMENT_WORDS
from ..spec.diagnostics import Diagnostic, Severity, Span, did_you_mean
from .kinds import COLLECTIONS, ELEMENT, LIST_OF, T, accepts, word
from .model import MAX_RANGE_KEYS, Code, Spec, codes

VAR_TYPES = {"int": T.INT, "bool": T.BOOL, "text": T.STR, "player": T.PLAYER, "cell": T.CELL}  # a variable's `type:`
PARAM_TYPES = {"int": T.INT, "bool": T.BOOL, "str": T.STR, "card": T.CARD, "player": T.PLAYER,
               "cards": T.CARDS, "players": T.PLAYERS, "zone": T.ZONE, "ints": T.INTS, "strs": T.STRS,
               "cell": T.CELL, "cells": T.CELLS, "card lists": T.CARD_LISTS, "player lists": T.PLAYER_LISTS,
               "int lists": T.INT_LISTS, "str lists": T.STR_LISTS, "cell lists": T.CELL_LISTS}


def _value_type(v: Any) -> T:
    if isinstance(v, bool):
        return T.BOOL
    if isinstance(v, int):
        return T.INT
    return T.STR


AGGREGATES = ("sum", "highest", "lowest", "best", "worst")  # `NAME x in list by/of value`
QUANTIFIERS = ("any", "all")  # `NAME x in list where condition`


class _Scope:
    """Local variables of one piece of code: nested blocks share one slot space."""

    def __init__(self, code: Code, allow_end_turn: bool, allow_effects: bool):
        self.code = code
        self.frames: list[dict[str, tuple[int, T]]] = [{}]
        self.n = 0
        self.allow_end_turn = allow_end_turn
        self.allow_effects = allow_effects
        self.bound: set[int] = set()  # slots that surely hold a value at this point of the code

    def lookup(self, name: str) -> tuple[int, T] | None:
        for f in reversed(self.frames):
            if name in f:
                return f[name]
        return None

    def bind(self, name: str, ty: T, bound: bool = True) -> int:
        slot = self.n
        self.n += 1
        self.frames[-1][name] = (slot, ty)
        if bound:
            self.bound.add(slot)
        return slot

    def names(self) -> list[str]:
        return [n for f in self.frames for n in f]


class Checker:
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
        if isinstance(at, Code):
            span = at.text.locate(*pos) if pos else at.span
        else:
            span = at
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

    # -- spec-level ------------------------------------------------------------
    def structure(self) -> None:
        s = self.spec
        teams.check(self)
        hidden.check_vars(self)
        if s.min_players > s.max_players:
            self.error("E410", f"game.players: min ({s.min_players}) is more than max ({s.max_players})",
                       s.doc.span(("game", "players")))
        # the box holds what the most demanding player count puts in play (a per-seat type: each seat's cards)
        by_n = {n: sum(c.in_play(n) * (n if c.per_seat else 1) for c in s.cards.values())
                for n in range(s.min_players, min(s.max_players, s.min_players + 1000) + 1)}
        most = max(by_n, key=lambda n: (by_n[n], -n), default=s.min_players)
        counted = by_n.get(most, 0)
        varies = len(set(by_n.values())) > 1
        if s.total is not None and counted != s.total:
            self.error("E411", f"the card counts add up to {counted}{f' (with {most} players)' if varies else ''}, "
                       f"but the rulebook's total is {s.total}",
                       s.doc.span(("components", "total")),
                       hint="check each card type's `count` against the component list")
        propsets = {frozenset(c.props) for c in s.cards.values()}
        if len(propsets) > 1:
            allp = sorted(set().union(*propsets))
            for c in s.cards.values():
                missing = [p for p in allp if p not in c.props]
                if missing:
                    self.error("E412", f"card '{c.name}' has no value for {', '.join(missing)}",
                               s.doc.span(("components", "cards", c.name, "props"), key=True),
                               hint="give every card type a value, or a default under `components.defaults`")
        for p, values in self.prop_values.items():
            if len({_value_type(v) for v in values}) > 1:
                self.error("E412", f"card property '{p}' mixes numbers and texts",
                           s.doc.span(("components", "cards")), hint="give one kind of value per property")
        for c in s.cards.values():
            if c.zone not in self.szones and c.zone not in self.pzones:  # a player zone: each player's own cards
                cands = list(self.szones) + list(self.pzones)
                self.error("E420", f"cards start in '{c.zone}', which is not a zone",
                           s.doc.span(("components", "cards", c.name, "in")),
                           hint=did_you_mean(c.zone, cands) or f"zones: {', '.join(cands)}")
        for o in s.options.values():
            raw = ((s.doc.data.get("options") or {}).get(o.name) or {}).get("values")
            if isinstance(raw, dict) and (not o.values or raw["to"] > o.values[-1] + raw.get("step", 1) - 1):
                self.error("E413", f"option '{o.name}': values from {raw['from']} to {raw['to']} are "
                           f"{'no' if not o.values else 'more than 1,000'} values", s.doc.span(("options", o.name, "values")),
                           hint="`to` is the last value and not below `from`; at most 1,000 values")
                continue
            if o.default not in o.values:
                self.error("E413", f"option '{o.name}': default {o.default!r} is not one of its values",
                           s.doc.span(("options", o.name, "default")))
        for a in s.ambiguities.values():
            if a.default not in a.interpretations:
                self.error("E414", f"ambiguity '{a.name}': default '{a.default}' is not one of its interpretations",
                           s.doc.span(("ambiguities", a.name, "default")),
                           hint=did_you_mean(a.default, a.interpretations))
            for k, name in enumerate(a.contradicts_text):
                if name not in a.interpretations:
                    self.error("E414", f"ambiguity '{a.name}': contradicts_text names '{name}', not one of its "
                               f"interpretations", s.doc.span(("ambiguities", a.name, "contradicts_text", k)),
                               hint=did_you_mean(name, a.interpretations))
                elif name == a.default:
                    self.error("E414", f"ambiguity '{a.name}': the default '{name}' is marked as contradicted "
                               f"by the rulebook's text", s.doc.span(("ambiguities", a.name, "contradicts_text", k)),
                               hint="a default must be a reading the text allows")
        boards.check_decls(self)
        from . import versions
        if s.language is not None and s.language < versions.LANGUAGE:
            kept = [c for c in versions.CHANGES.values() if s.language < c.since]
            self.warn("W421", f"written for language {s.language}: it keeps that version's meanings "
                      f"({'; '.join(c.old for c in kept)})", s.doc.span(("language",)),
                      hint=f"`rulewright upgrade SPEC` rewrites it for language {versions.LANGUAGE} and runs its "
                           "examples again")
        for scope, kvs in s.keyed.items():
            for kv in kvs.values():
                keys = ((s.doc.data.get("state") or {}).get(scope) or {}).get(kv.name, {}).get("keys")
                if isinstance(keys, dict) and not 1 <= keys["to"] - keys["from"] + 1 <= MAX_RANGE_KEYS:
                    self.error("E415", f"variable '{kv.name}': keys from {keys['from']} to {keys['to']} are "
                               f"{keys['to'] - keys['from'] + 1:,} keys (from 1 to {MAX_RANGE_KEYS:,})",
                               s.doc.span(("state", scope, kv.name, "keys")),
                               hint="`to` is the last key, and it is not below `from`")
                if len({isinstance(k, int) for k in kv.keys}) > 1:
                    self.error("E415", f"variable '{kv.name}': keys are all texts or all numbers",
                               s.doc.span(("state", scope, kv.name, "keys")))
        for scope, vs in s.vars.items():
            for v in vs.values():
                if v.key is not None and v.key != s.keyed[scope][v.name.split("[")[0]].keys[0]:
                    continue  # the keys of one keyed variable share one declaration
                name = v.name.split("[")[0]
                raw = ((s.doc.data.get("state") or {}).get(scope) or {}).get(name, {}).get("start")
                if v.type == "text" and v.values and v.start not in v.values:
                    self.error("E415", f"variable '{name}' starts at {v.start!r}, which is not one of its values",
                               s.doc.span(("state", scope, name, "start")) or v.span,
                               hint=f"values: {', '.join(v.values)}")
                if v.type == "player" and raw is not None and (not isinstance(raw, int) or isinstance(raw, bool)
                                                               or not 1 <= raw <= s.max_players):
                    self.error("E415", f"variable '{name}' holds a player; it starts at a seat from 1 to "
                               f"{s.max_players}, not {raw!r}", s.doc.span(("state", scope, name, "start")),
                               hint="`start: 1` is the first seat")
                if v.type == "cell":
                    self.cell_variable(scope, name, v, raw)
                    continue
                if (v.type == "int" and (not isinstance(v.start, int) or isinstance(v.start, bool))
                        or v.type == "text" and not isinstance(v.start, str)
                        or v.type == "bool" and not isinstance(v.start, bool)):
                    self.error("E415", f"variable '{name}' is {v.type} but starts at {v.start!r}",
                               s.doc.span(("state", scope, name, "start")))
                if v.min is not None and v.max is not None and v.min > v.max:
                    self.error("E415", f"variable '{name}': min is more than max", v.span)
                if isinstance(v.start, int) and not isinstance(v.start, bool) and (
                        v.min is not None and v.start < v.min or v.max is not None and v.start > v.max):
                    self.error("E415", f"variable '{name}' starts outside its bounds",
                               s.doc.span(("state", scope, name, "start")))
        names: dict[str, str] = {}
        for n in s.constants:
            if n in BUILTINS and n not in SPECIAL_NAMES:
                self.shadows(n, "constant", s.doc.span(("constants", n), key=True))
            elif n in SPECIAL_NAMES or n in NAMESPACES or n in STATEMENT_WORDS or n in s.zones \
                    or n in s.vars["global"] or n in s.keyed["global"] or n in s.functions or n in s.procedures:
                self.error("E416", f"'{n}' is already the name of something in the game; a constant needs its own",
                           s.doc.span(("constants", n), key=True), hint="pick another name")
        for kind, table in (("zone", s.zones), ("global variable", {**s.vars["global"], **s.keyed["global"]}),
                            ("procedure", s.procedures),
                            ("function", s.functions)):
            for n in table:
                if n in names and not (kind == "function" and names[n] == "procedure"):
                    pass
                if n in SPECIAL_NAMES or n in NAMESPACES or n in STATEMENT_WORDS:
                    self.error("E416", f"'{n}' is a built-in name and cannot name a {kind}", table[n].span,
                               hint="pick another name")
                elif n in BUILTINS:
                    self.shadows(n, kind, table[n].span)
                names[n] = kind
        for n in s.procedures:
            if n in s.functions:
                self.error("E416", f"'{n}' is both a procedure and a function", s.functions[n].span)
        turns = [("flow", "turn", s.turn)] + [(None, None, ph.turn) for ph in s.phases]
        for _, _, t in turns:
            for a, span in t.actions:
                if a not in s.actions:
                    self.error("E409", f"unknown action '{a}'", span,
                               hint=did_you_mean(a, s.actions) or "declare it under `actions:`")
        if s.score is not None and (s.score not in s.vars["player"] or "[" in s.score):
            self.error("E417", f"end.score must be a player variable, '{s.score}' is not",
                       s.doc.span(("end", "score")), hint=did_you_mean(s.score, self.var_names("player")))
        for tr in s.triggers.values():
            if tr.zone not in s.zones:
                self.error("E418", f"trigger '{tr.name}' watches unknown zone '{tr.zone}'",
                           s.doc.span(("triggers", tr.name, "enter")), hint=did_you_mean(tr.zone, s.zones))
        if "turn" not in (s.doc.data.get("flow") or {}) and (not s.phases or any(
                "turn" not in ph_data for ph_data in s.doc.data["flow"].get("phases") or [])):
            self.error("E446", "flow.turn is missing: a phase without its own `turn:` plays flow.turn",
                       s.doc.span(("flow",), key=True),
                       hint="give flow.turn, or a `turn:` in every phase")
        ends = any(isinstance(n, N.EndGame) for c in codes(s) if c.ast is not None for n in N.walk(c.ast))
        # A phase without `until:` is one round: it ends when every player has had a turn in it (its `repeat`
        # plays that many rounds), so a phase whose turns end themselves needs no condition.
        if s.end_when is None and not s.phases and not ends:  # `end game` in a rule ends it too
            self.error("E419", "the game never ends: give `end.when` or phases", s.doc.span(("end",), key=True))

    def cell_variable(self, scope: str, name: str, v: Any, raw: Any) -> None:
        """A `type: cell` variable: on a board the spec has (E470), starting at one of its cells (E415)."""
        s = self.spec
        span = s.doc.span(("state", scope, name, "board")) or v.span
        if v.board is None or v.board not in s.boards:
            what = f"names no board '{v.board}'" if v.board else "needs `board:` (the spec has " + (
                "several boards)" if s.boards else "no board)")
            self.error("E470", f"cell variable '{name}' {what}", span,
                       hint=did_you_mean(v.board or "", list(s.boards)) or
                       (f"boards: {', '.join(s.boards)}" if s.boards else "declare a board under `boards:`"))
            return
        if raw is None:
            return
        b = s.boards[v.board]
        names = boards.cell_names(boards.largest(b.rows, s.options, s.constants),
                                  boards.largest(b.columns, s.options, s.constants))
        if not isinstance(raw, str) or raw not in names:
            self.error("E415", f"cell variable '{name}' starts at {raw!r}, which is not a cell of '{b.name}'",
                       s.doc.span(("state", scope, name, "start")),
                       hint=f"a cell's name, column letter and row: `start: a1` (a1 to {names[-1]})")

    def shadows(self, name: str, kind: str, span: Span | None) -> None:
        """A name the spec gives that a builtin also has: the spec's meaning wins, as a name defined in a
        Python module hides a builtin of that name, so a spec keeps working when the language adds one."""
        use = {"procedure": "a statement `NAME(...)` calls the procedure; in an expression the builtin is called",
               "function": "every call is to the spec's function", "zone": "the name is the zone; a call is the builtin",
               "global variable": "the name is the variable; a call is the builtin",
               "constant": "the name is the constant; a call is the builtin",
               "board": "the name is the board; a call is the builtin"}[kind]
        self.warn("W420", f"'{name}' is also a builtin; the spec's {kind} hides it here", span,
                  hint=f"{use.replace('NAME', name)}; rename the {kind} to reach the builtin everywhere")

    def lab_settings(self) -> None:
        """The `lab:` section: margins for measures that exist, with values that read as margins."""
        from .margins import known_names, parse_margin
        lab, names = self.spec.lab, known_names(self.spec.measures)
        for name, (value, span, key_span) in lab.margins.items():
            if name not in names:
                self.error("E480", f"no measure '{name}' to set a margin for", key_span,
                           hint=did_you_mean(name, names) or f"margins are for: {', '.join(names)}")
                continue
            try:
                parse_margin(value)
            except ValueError as exc:
                self.error("E481", f"lab.margins.{name}: {exc}", span,
                           hint="e.g. `wins: 2pt`, `turns: 5%`, `stalled: 0.005`")
        for seat, (_agent, span) in lab.agents.items():
            if seat != "all" and not (seat.isdigit() and 1 <= int(seat) <= self.spec.max_players):
                self.error("E482", f"lab.agents: no seat '{seat}' (all, or 1..{self.spec.max_players})", span,
                           hint="e.g. `agents: greedy`, or `agents: {all: random, 1: mcts:50}`")

    def usage_warnings(self) -> None:
        s = self.spec
        for a in s.ambiguities.values():
            if a.name not in self.used_readings:
                self.warn("W401", f"ambiguity '{a.name}' is never read: no rule branches on it", a.span,
                          hint=f"use `reading.{a.name} == \"{a.default}\"` where the rule depends on it")
        listed = {a for t in [s.turn] + [ph.turn for ph in s.phases] for a, _ in t.actions}
        for a in s.actions.values():
            if a.name not in listed:
                self.warn("W402", f"action '{a.name}' is never offered: no turn lists it", a.span)
        flow_turn = "turn" in (s.doc.data.get("flow") or {})
        for path, t in [(("flow", "turn"), s.turn)] * flow_turn + [
                (("flow", "phases", i, "turn"), ph.turn) for i, ph in enumerate(s.phases) if ph.turn is not s.turn]:
            ends = t.start is not None and t.start.ast and self._may_end_turn(t.start.ast)
            if not t.actions and not ends:
                self.warn("W405", "this turn offers no action and its `start` never ends it: every turn passes "
                          "with nobody acting, and the game stalls", s.doc.span(path, key=True),
                          hint="list the turn's `actions`, or end its `start` with `end turn`")
        for a in s.actions.values():
            for bad in labels.action_template(s, a)[1]:  # holes naming a parameter are filled in
                span = s.doc.text(("actions", a.name, "label")).locate(bad.start, bad.end)
                if bad.why == "no parameters":
                    hint = (f"this action chooses nothing, so nothing fills it: write the label without "
                            f"{{...}} (`{a.label.split('{')[0].strip() or a.name}`)")
                elif bad.why == "unknown":
                    hint = did_you_mean(bad.text.partition(".")[0], list(a.params)) or \
                        f"a hole names a parameter: {', '.join('{' + p + '}' for p in a.params)}"
                elif bad.why == "not a card":
                    hint = f"only a card parameter has properties: write {{{bad.text.partition('.')[0]}}}"
                else:
                    hint = did_you_mean(bad.text.partition(".")[2], list(self.prop_types)) or \
                        f"card properties: {', '.join(sorted(self.prop_types)) or 'none'}"
                self.warn("W404", f"action '{a.name}': the label's {{{bad.text}}} cannot be filled, so it is "
                          f"shown as written", span, hint=hint)
        for p in s.procedures.values():
            if p.name not in self.called:
                self.warn("W403", f"procedure '{p.name}' is never called", p.span)
        for f in s.functions.values():
            if f.name not in self.called:
                self.warn("W403", f"function '{f.name}' is never used", f.span)

    # -- code units ----------------------------------------------------------
    def block_scope(self, code: Code, allow_end_turn: bool) -> _Scope:
        return _Scope(code, allow_end_turn, True)

    def block(self, code: Code, allow_end_turn: bool) -> None:
        sc = self.block_scope(code, allow_end_turn)
        self.stmts(code, sc, code.ast)
        code.n_locals = sc.n

    def condition(self, code: Code, want: T, sc: _Scope | None = None) -> None:
        if code.ast is None:
            return
        sc = sc or _Scope(code, False, False)
        ty = self.expr(code.ast, code, sc)
        self.expect_type(code, ty, want, code.ast)
        code.n_locals = max(code.n_locals, sc.n)

    def action(self, a) -> None:
        sc = _Scope(a.do, True, True)
        if a.when and a.when.ast is not None:
            self.expect_type(a.when, self.expr(a.when.ast, a.when, _Scope(a.when, False, False)), T.BOOL, a.when.ast)
        # The engine passes the chosen parameters in slots 0..k-1, so they are
        # reserved before any parameter's expression (a filter) takes a slot.
        sc.n = len(a.params)
        for k, (pname, pcode) in enumerate(a.params.items()):
            ty = T.ANY
            if pcode.ast is not None:
                sc.code = pcode
                ty = self.pure(pcode.ast, pcode, sc)
                if ty not in COLLECTIONS and ty is not T.ANY:
                    self.error("E430", f"action parameter '{pname}' must come from a list or zone, not {word(ty)}",
                               pcode, pcode.ast.pos, hint="write the collection to choose from, e.g. `me.hand`")
                    ty = T.ANY
            sc.frames[-1][pname] = (k, ELEMENT.get(ty, T.ANY))
            sc.bound.add(k)
        sc.code = a.do
        self.stmts(a.do, sc, a.do.ast)
        n = sc.n
        a.do.n_locals = n
        for pcode in a.params.values():
            pcode.n_locals = n
        if a.when:
            a.when.n_locals = max(a.when.n_locals, 1)

    def function_type(self, name: str) -> T:
        if name in self.func_types:
            return self.func_types[name]
        f = self.spec.functions[name]
        if name in self._func_stack:
            self.error("E421", f"function '{name}' calls itself", f.span,
                       hint="functions cannot be recursive: a run of cells is `[x in line(c, way) while ...]`, "
                            "a search that stops early is `any x in list where ...`")
            return T.ANY
        self._func_stack.append(name)
        sc = _Scope(f.value, False, False)
        for pname, ptype in f.params.items():
            sc.bind(pname, PARAM_TYPES[ptype])
        ty = self.expr(f.value.ast, f.value, sc) if f.value.ast is not None else T.ANY
        f.value.n_locals = sc.n
        self._func_stack.pop()
        self.func_types[name] = ty
        return ty

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

    # -- expressions ---------------------------------------------------------
    def expect_type(self, code: Code, actual: T, want, node: N.Node, what: str | None = None) -> None:
        if not accepts(want, actual):
            where = f" for {what}" if what else ""
            self.error("E431", f"expected {word(want)}{where}, found {word(actual)}", code, node.pos)

    def expr(self, e: N.Expr, code: Code, sc: _Scope) -> T:
        ty = getattr(self, "e_" + type(e).__name__)(e, code, sc)
        e.ty = ty
        return ty

    def e_Int(self, e, code, sc) -> T:
        return T.INT

    def e_Str(self, e, code, sc) -> T:
        return T.STR

    def e_Bool(self, e, code, sc) -> T:
        return T.BOOL

    def e_Template(self, e: N.Template, code, sc) -> T:
        for p in e.parts:
            if isinstance(p, N.Expr):
                self.expr(p, code, sc)
        return T.STR

    def e_Name(self, e: N.Name, code, sc) -> T:
        s = self.spec
        found = sc.lookup(e.id)
        if found is not None:
            e.ref = ("local", found[0])
            if found[0] not in sc.bound:
                self.error("E428", f"'{e.id}' may have no value here", code, e.pos,
                           hint="it is set with `let` on some paths only: set it before the `if`, or on every path")
            return found[1]
        if e.id in SPECIAL_NAMES:
            e.ref = (e.id,)
            return SPECIAL_NAMES[e.id][0]
        if e.id in s.constants:
            v = s.constants[e.id]
            e.ref = ("const", e.id)
            if isinstance(v, list):
                return T.STRS if v and isinstance(v[0], str) else T.INTS
            return T.STR if isinstance(v, str) else T.INT
        if e.id in s.vars["global"]:
            v = s.vars["global"][e.id]
            e.ref = ("gvar", v.index)
            return VAR_TYPES[v.type]
        if e.id in self.szones:
            e.ref = ("zone", self.szones[e.id].index)
            return T.ZONE
        if e.id in s.boards:
            e.ref = ("board", e.id)
            return T.BOARD
        if e.id in NAMESPACES:
            self.error("E401", f"'{e.id}' needs a field: {NAMESPACES[e.id]}", code, e.pos)
            return T.ANY
        if e.id in s.keyed["global"]:
            return self._needs_key(code, e, s.keyed["global"][e.id], e.id)
        if e.id in self.pzones or e.id in s.vars["player"] or e.id in s.keyed["player"]:
            self.error("E401", f"'{e.id}' belongs to each player; say whose", code, e.pos,
                       hint=f"write `me.{e.id}` or `p.{e.id}`")
            return T.ANY
        if e.id in s.vars["turn"] or e.id in s.keyed["turn"]:
            self.error("E401", f"'{e.id}' is a turn variable", code, e.pos, hint=f"write `turn.{e.id}`")
            return T.ANY
        if e.id in s.functions or e.id in BUILTINS or e.id in s.procedures:
            self.error("E401", f"'{e.id}' is a function; call it with ( )", code, e.pos, hint=f"write `{e.id}(...)`")
            return T.ANY
        at = boards.cell_literal(s, e.id)
        if at is not None:  # a cell named as on the diagram: `piece[a8]`
            e.ref = ("cellname", at[0])
            return T.CELL
        cands = sc.names() + list(SPECIAL_NAMES) + self.var_names("global") + list(self.szones) + list(s.boards)
        hint = did_you_mean(e.id, cands)
        last = boards.last_cell_name(s)
        if last is not None and boards._CELL_NAME.fullmatch(e.id):  # `a9` on a board of eight rows
            hint = f"not a cell of the board: its cells are a1 to {last}"
        elif hint is None and any(e.id in vals for vals in self.prop_values.values()):
            hint = f"a card property value is text: write \"{e.id}\" in quotes"
        self.error("E401", f"unknown name '{e.id}'", code, e.pos, hint=hint)
        return T.ANY

    def e_Attr(self, e: N.Attr, code, sc) -> T:
        s = self.spec
        if isinstance(e.obj, N.Name) and e.obj.id in NAMESPACES and sc.lookup(e.obj.id) is None:
            ns = e.obj.id
            e.obj.ty = T.ANY
            if ns == "option":
                o = s.options.get(e.name)
                if o is None:
                    return self._unknown(code, e, "option", s.options)
                e.ref = ("option", e.name)
                return _value_type(o.default)
            if ns == "reading":
                a = s.ambiguities.get(e.name)
                if a is None:
                    return self._unknown(code, e, "ambiguity", s.ambiguities)
                self.used_readings.add(e.name)
                e.ref = ("reading", e.name)
                return T.STR
            v = s.vars["turn"].get(e.name)
            if e.name in s.keyed["turn"]:
                return self._needs_key(code, e, s.keyed["turn"][e.name], f"turn.{e.name}")
            if v is None:
                return self._unknown(code, e, "turn variable", self.var_names("turn"))
            e.ref = ("tvar", v.index)
            return VAR_TYPES[v.type]
        before = len(self.diags)
        ot = self.expr(e.obj, code, sc)
        if ot is T.PLAYER:
            if e.name in s.vars["player"]:
                v = s.vars["player"][e.name]
                e.ref = ("pvar", v.index)
                return VAR_TYPES[v.type]
            if e.name in s.keyed["player"]:
                return self._needs_key(code, e, s.keyed["player"][e.name], f"p.{e.name}")
            if e.name in self.pzones:
                e.ref = ("pzone", self.pzones[e.name].index)
                return T.ZONE
            if e.name == "seat":
                e.ref = ("seat",)
                return T.INT
            return self._unknown(code, e, "player variable or zone", self.var_names("player") + list(self.pzones) + ["seat"])
        if ot is T.CARD:
            if e.name in self.prop_types:
                e.ref = ("prop", e.name)
                return self.prop_types[e.name]
            if e.name == "type":
                e.ref = ("ctype",)
                return T.STR
            return self._unknown(code, e, "card property", list(self.prop_types) + ["type"])
        if ot is T.CELL:
            if e.name in ("row", "column"):
                e.ref = ("cell", e.name)
                return T.INT
            return self._unknown(code, e, "field of a cell", ["row", "column"])
        if ot is T.ANY:
            if len(self.diags) == before:  # no error explains it: an element of `[]`, whose kind nobody knows
                self.error("E432", f"cannot tell what '{e.name}' belongs to here", code, e.name_pos,
                           hint="an empty list `[]` has elements of no kind: take them from a zone or a list of players")
            return T.ANY
        self.error("E432", f"{word(ot)} has no field '{e.name}'", code, e.name_pos)
        return T.ANY

    def _unknown(self, code, e: N.Attr, what: str, names) -> T:
        names = list(names)
        self.error("E402", f"unknown {what} '{e.name}'", code, e.name_pos,
                   hint=did_you_mean(e.name, names) or (f"known: {', '.join(names)}" if names else f"no {what} is declared"))
        return T.ANY

    def _needs_key(self, code, e: N.Expr, kv, written: str) -> T:
        if kv.board is not None:  # one value per cell of a board (interpreter/lang/boards.py)
            self.error("E436", f"'{kv.name}' holds one value per cell of '{kv.board}'; say which", code, e.pos,
                       hint=f"write `{written}[c]` for a cell c, e.g. `{written}[cell({kv.board}, 1, 1)]`")
            return T.ANY
        key = kv.keys[0]
        shown = f'"{key}"' if isinstance(key, str) else str(key)
        self.error("E436", f"'{kv.name}' holds one value per key; say which", code, e.pos,
                   hint=f"write `{written}[{shown}]` (keys: {', '.join(map(str, kv.keys))})")
        return T.ANY

    def _keyed(self, obj: N.Expr, code, sc):
        """The keyed variable `obj` names (as `x`, `turn.x` or `p.x`) and its owner expression, if any."""
        s = self.spec
        if isinstance(obj, N.Name):
            if sc.lookup(obj.id) is None and obj.id in s.keyed["global"]:
                obj.ty = T.ANY
                return s.keyed["global"][obj.id], None
            return None, None
        if not isinstance(obj, N.Attr):
            return None, None
        if isinstance(obj.obj, N.Name) and obj.obj.id in NAMESPACES and sc.lookup(obj.obj.id) is None:
            if obj.obj.id == "turn" and obj.name in s.keyed["turn"]:
                obj.ty = obj.obj.ty = T.ANY
                return s.keyed["turn"][obj.name], None
            return None, None
        if obj.name in s.keyed["player"]:
            ot = self.expr(obj.obj, code, sc)
            if ot in (T.PLAYER, T.ANY):
                obj.ty = T.ANY
                return s.keyed["player"][obj.name], obj.obj
        return None, None

    def e_Index(self, e: N.Index, code, sc) -> T:
        kv, _owner = self._keyed(e.obj, code, sc)
        if kv is not None:
            want = T.CELL if kv.board is not None else T.INT if isinstance(kv.keys[0], int) else T.STR
            self.expect_type(code, self.expr(e.key, code, sc), want, e.key, f"a key of '{kv.name}'")
            if kv.board is not None:
                boards.check_key(self, kv, e.key, code)
            elif isinstance(e.key, (N.Str, N.Int)) and e.key.value not in kv.keys:
                keys = [str(k) for k in kv.keys]
                self.error("E405", f"'{e.key.value}' is not a key of '{kv.name}'", code, e.key.pos,
                           hint=did_you_mean(str(e.key.value), keys) or f"keys: {', '.join(keys)}")
            e.ref = ("keyed", kv.scope, kv.name)
            return VAR_TYPES[kv.type]
        ot = self.expr(e.obj, code, sc)
        self.expect_type(code, self.expr(e.key, code, sc), T.INT, e.key, "a position")
        if ot not in COLLECTIONS:
            if ot is not T.ANY:
                self.error("E432", f"cannot take a position in {word(ot)}", code, e.obj.pos)
            return T.ANY
        return ELEMENT[ot]

    def e_Call(self, e: N.Call, code, sc) -> T:
        s = self.spec
        if e.func in s.functions:
            f = s.functions[e.func]
            self.called.add(e.func)
            e.ref = ("func", e.func)
            self.check_args(code, sc, e, [PARAM_TYPES[t] for t in f.params.values()], list(f.params))
            return self.function_type(e.func)
        b = BUILTINS.get(e.func)
        if b is None:
            if e.func in s.procedures:
                self.error("E425", f"procedure '{e.func}' gives no value", code, e.func_pos,
                           hint="call it as a statement on its own line")
            elif e.func in QUANTIFIERS:
                self.error("E403", f"`{e.func}` is not called like a function", code, e.func_pos,
                           hint=f"`{e.func} x in list where condition`, e.g. `{e.func} c in me.hand where c.points > 0`")
            else:
                self.error("E403", f"unknown function '{e.func}'", code, e.func_pos,
                           hint=did_you_mean(e.func, list(BUILTINS) + list(s.functions)))
            for a in e.args:
                self.expr(a, code, sc)
            return T.ANY
        e.ref = ("builtin", e.func)
        lo = b.min_args if b.min_args is not None else len(b.params)
        if not lo <= len(e.args) <= len(b.params):
            n = f"{lo}" if lo == len(b.params) else f"{lo} or {len(b.params)}"
            self.error("E426", f"'{e.func}' takes {n} argument(s), {len(e.args)} given", code, e.pos,
                       hint=f"for example: {b.example}")
            for a in e.args:
                self.expr(a, code, sc)
            return T.ANY
        if b.chance and not sc.allow_effects:
            self.error("E445", f"{e.func}() rolls the dice, which a condition or a function cannot do", code, e.pos,
                       hint=f"roll in an effect and keep the result: `let r = {b.example}`, then test `r`")
        types: list[T] = []
        before = len(self.diags)
        for a, want in zip(e.args, b.params):
            if want == PROP:
                types.append(self.prop_arg(a, types[0] if types else T.ANY, code, e, len(self.diags) > before))
                continue
            t = self.expr(a, code, sc)
            self.expect_type(code, t, want, a, f"argument of {e.func}")
            types.append(t)
        if e.func in boards.BOARD_BUILTINS:
            boards.check_call(self, e, code)
        if e.func in teams.TEAM_BUILTINS:
            teams.check_call(self, e, code)
        if e.func in ("sum", "highest", "lowest") and len(e.args) == 1 and types[0] not in (T.INTS, T.ANY):
            self.error("E433", f"{e.func}() of {word(types[0])} needs a property to add up", code, e.pos,
                       hint=f"for example: {b.example}")
        return b.returns(types)

    def prop_arg(self, a: N.Expr, coll: T, code, call: N.Call, reported: bool = False) -> T:
        if coll is T.ANY:  # whose property is unknown: explained by an earlier error, or an empty list `[]`
            if not reported:
                self.error("E434", f"{call.func}() cannot tell whose '{getattr(a, 'id', '?')}' to take here", code,
                           call.pos, hint="an empty list `[]` has elements of no kind: use a zone or a list of players")
            return T.ANY
        if not isinstance(a, N.Name):
            self.error("E434", f"the second argument of {call.func} is a property name", code, a.pos,
                       hint=BUILTINS[call.func].example)
            return T.ANY
        if coll in (T.CARDS, T.ZONE):
            if self.prop_types.get(a.id) is not T.INT:
                self.error("E434", f"'{a.id}' is not a number property of cards", code, a.pos,
                           hint=did_you_mean(a.id, [p for p, t in self.prop_types.items() if t is T.INT]))
                return T.ANY
            a.ref = ("prop", a.id)
        elif coll is T.PLAYERS:
            v = self.spec.vars["player"].get(a.id)
            if v is None or v.type != "int":
                self.error("E434", f"'{a.id}' is not a number variable of players", code, a.pos,
                           hint=did_you_mean(a.id, [n for n, v in self.spec.vars["player"].items()
                                                        if v.type == "int" and "[" not in n]))
                return T.ANY
            a.ref = ("pvar", v.index)
        elif coll is not T.ANY:
            self.error("E434", f"{call.func}() with a property needs cards or players, not {word(coll)}", code, call.pos)
            return T.ANY
        a.ty = T.INT
        return T.INT

    def e_ListLit(self, e: N.ListLit, code, sc) -> T:
        types = [self.expr(x, code, sc) for x in e.items]
        known = [t for t in types if t is not T.ANY]
        if not known:
            return T.ANY
        first = known[0]
        for x, t in zip(e.items, types):
            if t is not T.ANY and t != first:
                self.error("E435", f"a list holds one kind of element: {word(first)}, then {word(t)}", code, x.pos)
                return T.ANY
        if first not in LIST_OF:
            self.error("E435", f"cannot make a list of {word(first)}", code, e.pos)
            return T.ANY
        return LIST_OF[first]

    def e_Filter(self, e: N.Filter, code, sc) -> T:
        ct = self.expr(e.coll, code, sc)
        self.expect_type(code, ct, COLLECTIONS, e.coll, "where")
        sc.frames.append({})
        e.slot = sc.bind(e.var, ELEMENT.get(ct, T.ANY))
        self.expect_type(code, self.expr(e.cond, code, sc), T.BOOL, e.cond, "where")
        sc.frames.pop()
        return T.CARDS if ct is T.ZONE else (ct if ct in COLLECTIONS else T.ANY)

    def e_LetIn(self, e: N.LetIn, code, sc) -> T:
        vt = self.expr(e.value, code, sc)
        if self._global_name(e.name) or sc.lookup(e.name) is not None:
            self.error("E422", f"'{e.name}' is already the name of something here", code, e.pos,
                       hint="pick another name")
        sc.frames.append({})
        e.slot = sc.bind(e.name, vt)
        ty = self.expr(e.body, code, sc)
        sc.frames.pop()
        return ty

    def e_MapList(self, e: N.MapList, code, sc) -> T:
        ct = self.expr(e.coll, code, sc)
        self.expect_type(code, ct, COLLECTIONS, e.coll, "for ... in")
        sc.frames.append({})
        e.slot = sc.bind(e.var, ELEMENT.get(ct, T.ANY))
        if e.cond is not None:
            self.expect_type(code, self.expr(e.cond, code, sc), T.BOOL, e.cond, "where")
        vt = self.expr(e.value, code, sc)
        sc.frames.pop()
        if vt is T.ANY:
            return T.ANY
        if vt not in LIST_OF:
            self.error("E435", f"cannot make a list of {word(vt)}", code, e.value.pos,
                       hint="each value must be a number, a text, a card or a player")
            return T.ANY
        return LIST_OF[vt]

    def e_Quantifier(self, e: N.Quantifier, code, sc) -> T:
        """`any c in cells(grid) where disc[c] == 0`, `all c in me.hand where c.red` (E460 for another word)."""
        if e.func in AGGREGATES:
            self.error("E460", f"`{e.func} {e.var} in ...` needs a value to {'compare' if e.func in ('best', 'worst') else 'add up'}",
                       code, e.func_pos, hint=f"end it with `{'by' if e.func in ('best', 'worst') else 'of'}` and the "
                       f"value: `{e.func} {e.var} in ... where ... {'by' if e.func in ('best', 'worst') else 'of'} {e.var}.points`")
        elif e.func not in QUANTIFIERS:
            self.error("E460", f"'{e.func} {e.var} in ... where ...' is not `any` or `all`", code, e.func_pos,
                       hint=did_you_mean(e.func, QUANTIFIERS) or
                       "`any x in list where condition` or `all x in list where condition`; an aggregate "
                       "ends with `by` or `of` and a value")
        ct = self.expr(e.coll, code, sc)
        self.expect_type(code, ct, COLLECTIONS, e.coll, f"{e.func} ... in")
        sc.frames.append({})
        e.slot = sc.bind(e.var, ELEMENT.get(ct, T.ANY))
        self.expect_type(code, self.expr(e.cond, code, sc), T.BOOL, e.cond, "where")
        sc.frames.pop()
        return T.BOOL if e.func in QUANTIFIERS else T.ANY  # after E460, no cascade of kinds

    def e_Aggregate(self, e: N.Aggregate, code, sc) -> T:
        """`best p in players by score(p)`, `sum c in me.hand where c.red of c.value` (E460 for another word)."""
        if e.func in QUANTIFIERS:
            self.error("E460", f"`{e.func}` ends with its condition: no `by` or `of`", code, e.func_pos,
                       hint=f"`{e.func} {e.var} in ... where condition`")
        elif e.func not in AGGREGATES:
            self.error("E460", f"'{e.func} {e.var} in ...' is not an aggregate", code, e.func_pos,
                       hint=did_you_mean(e.func, AGGREGATES) or f"one of: {', '.join(AGGREGATES)}")
        ct = self.expr(e.coll, code, sc)
        self.expect_type(code, ct, COLLECTIONS, e.coll, f"{e.func} ... in")
        sc.frames.append({})
        e.slot = sc.bind(e.var, ELEMENT.get(ct, T.ANY))
        if e.cond is not None:
            self.expect_type(code, self.expr(e.cond, code, sc), T.BOOL, e.cond, "where")
        self.expect_type(code, self.expr(e.value, code, sc), T.INT, e.value, f"{e.func} ... by" if e.func in
                         ("best", "worst") else f"{e.func} ... of")
        sc.frames.pop()
        if e.func in QUANTIFIERS:
            return T.ANY  # E460 says what is wrong; no cascade of kinds
        if e.func in ("best", "worst"):
            return T.CARDS if ct is T.ZONE else (ct if ct in COLLECTIONS else T.ANY)
        return T.INT

    def e_Unary(self, e: N.Unary, code, sc) -> T:
        t = self.expr(e.operand, code, sc)
        want = T.BOOL if e.op == "not" else T.INT
        self.expect_type(code, t, want, e.operand, e.op)
        return want

    def e_Binary(self, e: N.Binary, code, sc) -> T:
        lt = self.expr(e.left, code, sc)
        rt = self.expr(e.right, code, sc)
        op = e.op
        if op in ("and", "or"):
            self.expect_type(code, lt, T.BOOL, e.left, op)
            self.expect_type(code, rt, T.BOOL, e.right, op)
            return T.BOOL
        if op in ("==", "!="):
            if T.ANY not in (lt, rt) and not (lt == rt or {lt, rt} <= {T.ZONE, T.CARDS}):
                self.error("E431", f"cannot compare {word(lt)} with {word(rt)}", code, e.pos)
            self.literal_value(e.left, e.right, code)
            self.literal_value(e.right, e.left, code)
            return T.BOOL
        if op in ("<", "<=", ">", ">="):
            self.expect_type(code, lt, T.INT, e.left, op)
            self.expect_type(code, rt, T.INT, e.right, op)
            return T.BOOL
        if op == "+" and T.ANY in (lt, rt) and ({lt, rt} & COLLECTIONS):  # `[] + [c]`, `seen + [c]` (seen = [])
            other = rt if lt is T.ANY else lt
            return T.CARDS if other is T.ZONE else other
        if op == "+" and lt in COLLECTIONS and rt in COLLECTIONS:
            l2 = T.CARDS if lt is T.ZONE else lt
            r2 = T.CARDS if rt is T.ZONE else rt
            if l2 != r2:
                self.error("E431", f"cannot join {word(lt)} and {word(rt)}", code, e.pos)
                return T.ANY
            return l2
        if op == "+" and lt is T.STR and rt is T.STR:  # texts joined: `forward(grid, me) + " left"`
            return T.STR
        self.expect_type(code, lt, T.INT, e.left, op)
        self.expect_type(code, rt, T.INT, e.right, op)
        return T.INT

    def literal_value(self, side: N.Expr, lit: N.Expr, code: Code) -> None:
        """Check a text literal compared with a reading, option or card property."""
        ref = getattr(side, "ref", None)
        if not isinstance(lit, N.Str) or ref is None:
            return
        var = {"gvar": "global", "pvar": "player", "tvar": "turn"}.get(ref[0])
        vd = list(self.spec.vars[var].values())[ref[1]] if var else None
        if vd is not None and vd.type == "text" and vd.values:
            allowed = list(vd.values)
            what = f"a value of '{vd.name}'"
        elif ref[0] == "reading":
            allowed = list(self.spec.ambiguities[ref[1]].interpretations)
            what = f"an interpretation of ambiguity '{ref[1]}'"
        elif ref[0] == "option":
            allowed = [str(v) for v in self.spec.options[ref[1]].values]
            what = f"a value of option '{ref[1]}'"
        elif ref[0] == "prop":
            allowed = [str(v) for v in self.prop_values.get(ref[1], ())]
            what = f"a value of card property '{ref[1]}'"
        elif ref[0] == "ctype":
            allowed = list(self.spec.cards)
            what = "a card type"
        else:
            return
        if lit.value not in allowed:
            self.error("E404", f"'{lit.value}' is not {what}", code, lit.pos,
                       hint=did_you_mean(lit.value, allowed) or f"one of: {', '.join(allowed)}")

    def e_Ternary(self, e: N.Ternary, code, sc) -> T:
        self.expect_type(code, self.expr(e.cond, code, sc), T.BOOL, e.cond, "if")
        a = self.expr(e.then, code, sc)
        b = self.expr(e.orelse, code, sc)
        if T.ANY in (a, b):
            return a if b is T.ANY else b
        if a != b:
            self.error("E431", f"both sides of `if ... else` must be the same kind: {word(a)} and {word(b)}", code, e.pos)
            return T.ANY
        return a


def _ends_turn(body: list) -> bool:
    """A body that ends with `end turn`/`end game` never falls through to what follows."""
    return bool(body) and isinstance(body[-1], (N.EndTurn, N.EndGame))


def check(spec: Spec) -> Iterator[Diagnostic]:
    yield from Checker(spec).run()
    yield from limits.check(spec)
    yield from decks.check(spec.doc)
    yield from decks.check_counts(spec.doc, spec.min_players, spec.max_players)
    yield from givens.check(spec)
    yield from counts.check(spec)
