"""Checking the spec's sections: variables, zones, cards, actions, functions, flow, lab settings.

Owns `SectionChecks`, the part of the checker (checker.Checker) that goes
through the spec section by section (`structure`): every variable's type and
start, cell variables and their boards, names that shadow others, each
action's condition and body and each function's type, the lab's settings,
and the warnings about what is declared but never used.
"""
from __future__ import annotations

from typing import Any

from . import boards, hidden, labels, nodes as N, teams
from .builtins import BUILTINS, NAMESPACES, SPECIAL_NAMES, STATEMENT_WORDS
from ..spec.diagnostics import Span, did_you_mean
from .kinds import COLLECTIONS, ELEMENT, T, word
from .model import MAX_RANGE_KEYS, Code, codes
from .check_expressions import PARAM_TYPES, _Scope, _value_type


class SectionChecks:
    """The spec section by section (a part of Checker)."""

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
