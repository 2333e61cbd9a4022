"""Checking expressions: names, attributes, indexing, calls, lists, quantifiers, aggregates, operators.

Owns `ExpressionChecks`, the part of the checker (checker.Checker) that types
every expression, resolves each name to its slot, variable, zone or builtin
(`e_Name`, `e_Attr`, `e_Call`, ...), folds literal values, and reports what
does not fit, with a did-you-mean where a name is close to a known one; and
what every part of the checker reads names and types with: the scopes of
local names (`_Scope`) and the types a variable or parameter may declare.
"""
from __future__ import annotations

from typing import Any

from . import boards, nodes as N, teams
from .builtins import BUILTINS, NAMESPACES, PROP, SPECIAL_NAMES
from ..spec.diagnostics import did_you_mean
from .kinds import COLLECTIONS, ELEMENT, LIST_OF, T, accepts, word
from .model import Code


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


class ExpressionChecks:
    """The types of expressions (a part of Checker)."""

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
