"""Lowering: a checked `Spec` -> `ir.Game`, once per spec (not per variant).

Owns the resolution of every checker reference into a typed IR node (ir.py): variable and zone
slots, interned texts, card-property tables, keyed variables' key maps, cells as numbers, options
and readings as run-time parameters, the flow as data. It is total: every spec the checker accepts
lowers. What a backend does not run is that backend's to say (the kernel raises
`kernel.unsupported.Unsupported`, naming the construct and its file:line:col; the spec then runs
on the Python engine).

What it deliberately does not do: fold options or readings (they are run-time values here; the
Python engine's compiler folds them for its variant), or decide how a backend runs a node. Both
backends read a whole `ir.Game`: the kernel (`lower`) and the Python engine (its compiler's
`Lowerer.game()`: the engine's flow, the generated code and the interchangeable cards come from it);
`lowered` and `lowered_stmts` lower what a game does not hold (an example's `expect`, a heuristic,
the lab's parts of conditions).
"""
from __future__ import annotations

from typing import Any

from ..lang import boards as B, hidden, nodes as N
from ..lang.kinds import T
from ..lang.model import Code, Spec
from . import ir


_SCOPES = {"gvar": "global", "pvar": "player", "tvar": "turn"}
_VAR_T = {"int": T.INT, "bool": T.BOOL, "text": T.STR, "player": T.PLAYER}


class Lowerer:
    def __init__(self, spec: Spec):
        self.spec = spec
        self.strings: list[str] = []
        self._sid: dict[str, int] = {}
        self.card_type: list[str] = []
        for ct in spec.cards.values():
            self.card_type.extend([ct.name] * ct.ids)
        self.code: Code | None = None
        self._turns: dict[int, int] = {}  # id of a spec turn -> its number (ir.Turn.index)
        self._late: list | None = None  # in `game`, templates to lower at its end: (node, tree, its Code)
        self.option_index = {n: i for i, n in enumerate(spec.options)}
        self.reading_index = {n: i for i, n in enumerate(spec.ambiguities)}
        for d in B.DIRECTIONS:  # directions first: their numbers index the kernel's step tables
            self.intern(d)
        self.boards, base = [], 0
        for b in spec.boards.values():  # each board's cells numbered after the previous board's
            rows, columns = (B.largest(side, spec.options, spec.constants) for side in (b.rows, b.columns))
            self.boards.append(ir.Board(b.name, rows, columns, b.origin == "bottom",
                                        tuple(self.intern(d) for d in b.forward), base, b.span))
            base += rows * columns
        self.board_index = {b.name: i for i, b in enumerate(spec.boards.values())}

    # -- values ------------------------------------------------------------------------------------
    def intern(self, s: str) -> int:
        if s not in self._sid:
            self._sid[s] = len(self.strings)
            self.strings.append(s)
        return self._sid[s]

    def encode(self, v: Any) -> int:
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, int):
            return v
        if isinstance(v, str):
            return self.intern(v)
        raise TypeError(f"a value the checker lets through is a number, a boolean or a text, not {v!r}")

    def at(self, node: N.Node | None) -> ir.Where:
        return (self.code, node.pos if node is not None else None)

    # -- the game ----------------------------------------------------------------------------------
    def game(self) -> ir.Game:
        self._late = []
        g = self._game()
        late, self._late = self._late, None
        for out, t, self.code in late:
            self._parts(out, t)
        # Last, so every text the rest reads keeps its number: the invariants, which no backend plays.
        g.invariants = {n: self.cond(code) for n, code in self.spec.invariants.items()}
        return g

    def _game(self) -> ir.Game:
        s = self.spec
        vars_ = {scope: [self._varinfo(v) for v in vs.values()] for scope, vs in s.vars.items()}
        options = [(o.name, [self.encode(v) for v in o.values]) for o in s.options.values()]
        readings = [(a.name, list(a.interpretations)) for a in s.ambiguities.values()]
        procs = {n: ir.Procedure(n, [_ptype(t) for t in p.params.values()], self.block(f"procedure {n}", p.do))
                 for n, p in s.procedures.items()}
        funcs = {}
        for n, f in s.functions.items():
            self.code = f.value
            funcs[n] = ir.Function(n, [_ptype(t) for t in f.params.values()], self.expr(f.value.ast), f.value.n_locals)
        phases = []
        if s.phases:
            for ph in s.phases:
                phases.append(ir.Phase(ph.name, ph.repeat, self.cond(ph.while_), self.block(f"phase {ph.name} start", ph.start),
                                       self.cond(ph.until), self.block(f"phase {ph.name} end", ph.end), self.turn(ph.turn)))
        else:
            phases.append(ir.Phase(None, 1, None, None, None, None, self.turn(s.turn)))
        first = None if isinstance(s.first, str) else self.cond(s.first)
        turn_order = s.skip_if is not None or any(
            isinstance(n, N.TurnOrder) for code in _codes(s) for n in N.walk(code.ast))
        scratch = max([c.n_locals for c in (s.end_when, s.winners, s.first if not isinstance(s.first, str) else None)
                       if c is not None] + [c.n_locals for ph in s.phases for c in (ph.while_, ph.until) if c] + [1])
        return ir.Game(
            s.name, s.min_players, s.max_players, self.strings, len(self.card_type), self.card_type, s.n_shared,
            s.n_player_zones, vars_["global"], vars_["player"], vars_["turn"], options, readings, self.boards, procs,
            funcs, self.block("setup", s.setup), first, phases, self.cond(s.end_when), s.end_check == "always",
            self.cond(s.winners), s.vars["player"][s.score].index if s.score else None, turn_order, scratch,
            self.cond(s.skip_if), [self.cond(m.value) for m in s.measures.values()], self._teams(),
            [self._trigger(t) for t in s.triggers.values()])

    def _trigger(self, t) -> ir.Trigger:
        z = self.spec.zones[t.zone]
        name = f"trigger {t.name}"
        return ir.Trigger(t.name, z.index, z.owner == "player", self.cond(t.when),
                          self.block(name, t.do) or ir.Block([], t.do.n_locals, name, t.do), t.span)

    def _teams(self) -> ir.Teams | None:
        t = self.spec.teams
        if t is None:
            return None
        return ir.Teams(t.score, {n: t.sides(n) for n in range(self.spec.min_players, self.spec.max_players + 1)})

    def _varinfo(self, v) -> ir.VarInfo:
        bounds = (v.min, v.max, v.clamp)
        if v.type == "cell":  # a cell variable starts at its cell, else at its board's first cell
            board = self.board_index[v.board] if v.board is not None else 0
            cell = self.cell(v.start, board, (None, None)) if v.start is not None else None
            if isinstance(cell, ir.CellName):
                return ir.VarInfo(v.name, None, bounds, cell, v.span)
            return ir.VarInfo(v.name, cell.value if cell is not None else self.boards[board].base, bounds,
                              span=v.span)
        return ir.VarInfo(v.name, 0 if v.start is None else self.encode(v.start), bounds, span=v.span)

    def cell(self, name: str, board: int, at: ir.Where) -> ir.Const | ir.CellName:
        """A cell named `name` (`d4`: column d, row 4) of board `board`: its number, the board's first cell's
        plus its row as drawn (top first) times the columns, plus its column. With `origin: bottom`, row 1
        is the last row drawn, a number only on a board whose rows no option changes (else a `CellName`)."""
        column, row = B.COLUMN_NAMES.index(name[0]) + 1, int(name[1:])
        b = list(self.spec.boards.values())[board]
        if b.origin == "bottom":
            if not isinstance(b.rows, int):
                return ir.CellName(T.CELL, at, board, column, row)
            row = b.rows + 1 - row
        return ir.Const(T.CELL, at, self.boards[board].base + (row - 1) * self.boards[board].max_columns + (column - 1))

    def turn(self, td) -> ir.Turn:
        actions = []
        for name, _span in td.actions:
            a = self.spec.actions[name]
            params = []
            for p in a.params.values():
                self.code = p
                params.append(self.expr(p.ast))
            actions.append(ir.Action(name, self.cond(a.when), params, self.block(f"action {name}", a.do)))
        index = self._turns.setdefault(id(td), len(self._turns))  # phases that play the game's turn share it
        return ir.Turn(self.block("turn start", td.start), self.block("turn end", td.end), actions, index)

    def lowered(self, code: Code | None, e: N.Expr) -> ir.X:
        """One expression of `code` (a backend's own: a condition, a heuristic, a part of one)."""
        self.code = code
        return self.expr(e)

    def lowered_stmts(self, code: Code | None, body: list) -> list[ir.S]:
        """Statements of `code` (a block, or a part of one)."""
        self.code = code
        return self.stmts(body)

    def cond(self, code: Code | None) -> ir.X | None:
        if code is None or code.ast is None:
            return None
        self.code = code
        return self.expr(code.ast)

    def block(self, name: str, code: Code | None) -> ir.Block | None:
        if code is None or not code.ast:
            return None
        self.code = code
        return ir.Block(self.stmts(code.ast), code.n_locals, name, code)

    # -- statements --------------------------------------------------------------------------------
    def stmts(self, body: list) -> list[ir.S]:
        return [self.stmt(s) for s in body or []]

    def stmt(self, s: N.Stmt) -> ir.S:
        at = self.at(s)
        if isinstance(s, N.Move):
            return ir.Move(at, self.expr(s.what), self.expr(s.dest))
        if isinstance(s, N.Shuffle):
            return ir.Shuffle(at, self.expr(s.zone))
        if isinstance(s, N.Let):
            return ir.Let(at, s.slot, self.expr(s.value))
        if isinstance(s, N.Assign):
            target = self.expr(s.target)
            bounds = None
            if isinstance(target, (ir.Var, ir.Keyed)):
                scope = target.scope
                vd = self._vardef(target)
                allowed = tuple(self.intern(v) for v in vd.values) if vd.type == "text" and vd.values else None
                bounds = (vd.min, vd.max, vd.clamp, allowed)
            return ir.Assign(at, target, s.op, self.expr(s.value), bounds)
        if isinstance(s, N.CallStmt):
            return ir.Call(at, s.call.func, [self.expr(a) for a in s.call.args])
        if isinstance(s, N.EndTurn):
            return ir.EndTurn(at)
        if isinstance(s, N.EndGame):
            return ir.EndGame(at)
        if isinstance(s, N.Pass):
            return ir.Pass(at)
        if isinstance(s, N.TurnOrder):
            return ir.TurnOrder(at, s.what, self.expr(s.who) if s.who is not None else None)
        if isinstance(s, N.Say):
            return ir.Say(at, self.template(s.text))
        if isinstance(s, N.Reveal):
            key = self.expr(s.target) if not s.rows else None  # one key of a keyed variable
            return ir.Reveal(at, self.opt(s.owner), key, s.scope, tuple(s.rows))
        if isinstance(s, N.If):
            return ir.If(at, [(self.expr(c), self.stmts(b)) for c, b in s.branches],
                         self.stmts(s.orelse) if s.orelse is not None else None)
        if isinstance(s, N.ForEach):
            return ir.ForEach(at, s.slot, self.expr(s.coll), self.stmts(s.body))
        if isinstance(s, N.Repeat):
            return ir.Repeat(at, self.expr(s.count), self.stmts(s.body), s.slot)
        if isinstance(s, N.While):
            return ir.While(at, self.expr(s.cond), self.stmts(s.body))
        if isinstance(s, N.ChooseOption):
            opts = [ir.Opt(self.opt(o.cond), o.slot if o.var is not None else None,
                           self.expr(o.coll) if o.var is not None else None, self.stmts(o.body),
                           self.template(o.label), self.at(o)) for o in s.options]
            return ir.ChooseOption(at, self.opt(s.by), opts, self.template(s.prompt))
        if isinstance(s, N.ChooseValue):
            return ir.ChooseValue(at, s.slot, self.expr(s.source), self.opt(s.by), self.template(s.prompt))
        if isinstance(s, N.ChooseSubset):
            return ir.ChooseSubset(at, s.slot, self.expr(s.source), self.expr(s.cond), self.opt(s.by),
                                   self.template(s.prompt))
        if isinstance(s, N.ChooseTogether):
            return ir.ChooseTogether(at, s.slot, self.expr(s.source), self.expr(s.players), self.stmts(s.body),
                                     self.template(s.prompt))
        raise AssertionError(f"a statement lowering does not know: {type(s).__name__}")

    def opt(self, e: N.Expr | None) -> ir.X | None:
        return None if e is None else self.expr(e)

    def template(self, t: N.Template | None) -> ir.Template | None:
        """A text with holes: its texts interned, each hole with the hidden variables it reads."""
        if t is None:
            return None
        out = ir.Template(T.STR, self.at(t), [])
        if self._late is not None:  # lowered once the rest is (`game`): the texts the kernel reads keep their numbers
            self._late.append((out, t, self.code))
        else:
            self._parts(out, t)
        return out

    def _parts(self, out: ir.Template, t: N.Template) -> None:
        for p in t.parts:
            if isinstance(p, str):
                out.parts.append(self.intern(p))
                continue
            secret = tuple((r.scope, tuple(r.rows), None if r.owner is None else self.expr(r.owner))
                           for r in hidden.hidden_reads(self.spec, p))
            out.parts.append(ir.Hole(self.expr(p), secret))

    def _vardef(self, target: ir.Var | ir.Keyed):
        if isinstance(target, ir.Var):
            return list(self.spec.vars[target.scope].values())[target.index]
        return list(self.spec.vars[target.scope].values())[target.base]

    # -- expressions -------------------------------------------------------------------------------
    def expr(self, e: N.Expr) -> ir.X:
        ty, at = e.ty, self.at(e)
        if isinstance(e, N.Int):
            return ir.Const(T.INT, at, e.value)
        if isinstance(e, N.Bool):
            return ir.Const(T.BOOL, at, int(e.value))
        if isinstance(e, N.Str):
            return ir.Const(T.STR, at, self.intern(e.value))
        if isinstance(e, N.Name):
            return self.name(e)
        if isinstance(e, N.Attr):
            return self.attr(e)
        if isinstance(e, N.Index):
            if e.ref is not None:
                return self.keyed(e)
            return ir.Builtin(ty, at, "index", [self.expr(e.obj), self.expr(e.key)])
        if isinstance(e, N.Call):
            kind, name = e.ref
            if kind == "func":
                return ir.FuncCall(ty, at, name, [self.expr(a) for a in e.args])
            return self.builtin(e, name)
        if isinstance(e, N.ListLit):
            return ir.ListOf(ty, at, [self.expr(x) for x in e.items])
        if isinstance(e, N.Filter):  # `while`: the elements up to the first that fails
            return ir.Comprehension(ty, at, "while" if e.stop else "filter", e.slot, self.expr(e.coll),
                                    self.expr(e.cond), None)
        if isinstance(e, N.Quantifier):
            return ir.Comprehension(ty, at, e.func, e.slot, self.expr(e.coll), self.expr(e.cond), None)
        if isinstance(e, N.MapList):
            return ir.Comprehension(ty, at, "map", e.slot, self.expr(e.coll),
                                    self.expr(e.cond) if e.cond is not None else None, self.expr(e.value))
        if isinstance(e, N.Aggregate):
            return ir.Comprehension(ty, at, e.func, e.slot, self.expr(e.coll),
                                    self.expr(e.cond) if e.cond is not None else None, self.expr(e.value))
        if isinstance(e, N.Unary):
            return ir.Unary(ty, at, e.op, self.expr(e.operand))
        if isinstance(e, N.Binary):
            left, right = self.expr(e.left), self.expr(e.right)
            if e.op in ("==", "!=") and T.STR in (left.ty, right.ty):
                left, right = self._reading_text(left, right), self._reading_text(right, left)
            if e.op == "+" and left.ty is T.STR and right.ty is T.STR:
                return self.concat(e, left, right)
            return ir.Binary(ty, at, e.op, left, right)
        if isinstance(e, N.Ternary):
            return ir.Ternary(ty, at, self.expr(e.cond), self.expr(e.then), self.expr(e.orelse))
        if isinstance(e, N.LetIn):
            return ir.LetIn(ty, at, e.slot, self.expr(e.value), self.expr(e.body))
        if isinstance(e, N.Template):
            return self.template(e)
        raise AssertionError(f"an expression lowering does not know: {type(e).__name__}")

    def _reading_text(self, x: ir.X, other: ir.X) -> ir.X:
        """`reading.a == "b"`: the text "b" becomes the number of interpretation b of a."""
        if isinstance(x, ir.Const) and isinstance(other, ir.Param) and other.kind == "reading":
            interps = list(self.spec.ambiguities[other.name].interpretations)
            text = self.strings[x.value]
            return ir.Const(T.INT, x.at, interps.index(text) if text in interps else -1)
        return x

    def concat(self, e: N.Binary, left: ir.X, right: ir.X) -> ir.Concat:
        """Texts joined: every pair of the values the two sides can have, joined and interned."""
        lefts, rights = self.texts(left), self.texts(right)
        table = None if not lefts or not rights else {
            (a, b): self.intern(self.strings[a] + self.strings[b]) for a in sorted(lefts) for b in sorted(rights)}
        return ir.Concat(T.STR, self.at(e), left, right, table)

    def texts(self, x: ir.X) -> set[int] | None:
        """The interned texts a text expression can have, or None when they are not a known few: a
        constant, a seat's forward direction, a text variable with `values:`, a text option, a card
        property, and choices (`if`) and joins of these."""
        if isinstance(x, ir.Const):
            return {x.value}
        if isinstance(x, ir.Builtin) and x.name == "forward":
            return {d for b in self.boards for d in b.forward}
        if isinstance(x, ir.Ternary):
            a, b = self.texts(x.then), self.texts(x.orelse)
            return None if a is None or b is None else a | b
        if isinstance(x, ir.Concat):
            return None if x.table is None else set(x.table.values())
        if isinstance(x, (ir.Var, ir.Keyed)):
            vd = self._vardef(x)
            return {self.intern(v) for v in vd.values} if vd.type == "text" and vd.values else None
        if isinstance(x, ir.Param) and x.kind == "option":
            return {self.encode(v) for v in self.spec.options[x.name].values}
        if isinstance(x, ir.Prop):
            return set(x.table)
        return None

    def name(self, e: N.Name) -> ir.X:
        kind = e.ref[0]
        at = self.at(e)
        if kind == "local":
            return ir.Local(e.ty, at, e.ref[1])
        if kind in ("me", "players", "others", "winners"):
            return ir.Special(e.ty, at, kind)
        if kind == "gvar":
            return ir.Var(e.ty, at, "global", e.ref[1], None, e.id)
        if kind == "zone":
            return ir.Zone(T.ZONE, at, e.ref[1], None)
        if kind == "const":
            v = self.spec.constants[e.ref[1]]
            if isinstance(v, list):
                return ir.ConstList(e.ty, at, tuple(self.encode(x) for x in v))
            return ir.Const(e.ty, at, self.encode(v))
        if kind == "board":
            return ir.BoardRef(T.BOARD, at, self.board_index[e.ref[1]])
        if kind == "cellname":  # `a8`: the cell itself
            return self.cell(e.id, self.board_index[e.ref[1]], at)
        raise AssertionError(f"a name lowering does not know: {kind}")

    def attr(self, e: N.Attr) -> ir.X:
        kind = e.ref[0]
        at = self.at(e)
        if kind == "option":
            return ir.Param(e.ty, at, "option", self.option_index[e.name], e.name)
        if kind == "reading":
            return ir.Param(T.STR, at, "reading", self.reading_index[e.name], e.name)
        if kind == "tvar":
            return ir.Var(e.ty, at, "turn", e.ref[1], None, e.name)
        obj = self.expr(e.obj)
        if kind == "pvar":
            return ir.Var(e.ty, at, "player", e.ref[1], obj, e.name)
        if kind == "pzone":
            return ir.Zone(T.ZONE, at, e.ref[1], obj)
        if kind == "seat":
            return ir.Seat(T.INT, at, obj)
        if kind == "prop":
            table = tuple(self.encode(self.spec.cards[t].props[e.name]) for t in self.card_type)
            return ir.Prop(e.ty, at, e.name, table, obj)
        if kind == "ctype":
            return ir.Prop(T.STR, at, "type", tuple(self.intern(t) for t in self.card_type), obj)
        if kind == "cell":
            return ir.CellPart(T.INT, at, e.name, obj)
        raise AssertionError(f"a field lowering does not know: {kind}")

    def keyed(self, e: N.Index) -> ir.X:
        _, scope, name = e.ref
        kv = self.spec.keyed[scope][name]
        key = self.expr(e.key)
        if kv.board is not None:
            keys: tuple = ("cell", self.boards[self.board_index[kv.board]].base)
        elif all(isinstance(k, int) and not isinstance(k, bool) for k in kv.keys) and \
                list(kv.keys) == list(range(kv.keys[0], kv.keys[0] + len(kv.keys))):
            keys = ("range", kv.keys[0], kv.keys[-1])
        else:  # texts (interned), or numbers that are not one range
            keys = ("table", {self.encode(k): j for j, k in enumerate(kv.keys)})
        owner = self.expr(e.obj.obj) if scope == "player" else None
        return ir.Keyed(e.ty, self.at(e), scope, kv.index, key, keys, owner, name)

    def builtin(self, e: N.Call, name: str) -> ir.X:
        args, prop = [], None
        from ..lang.builtins import BUILTINS, PROP
        b = BUILTINS[name]
        for i, a in enumerate(e.args):
            if i > 0 and b.params[i] == PROP:
                k, key = a.ref
                if k == "prop":
                    table = tuple(self.encode(self.spec.cards[t].props[key]) for t in self.card_type)
                    prop = ("prop", table, key)
                else:
                    prop = ("pvar", key)
            else:
                args.append(self.expr(a))
        return ir.Builtin(e.ty, self.at(e), name, args, prop)


def _ptype(t: str) -> T:
    from ..lang.checker import PARAM_TYPES
    return PARAM_TYPES[t]


def _codes(spec: Spec):
    from ..lang.model import codes
    return [c for c in codes(spec) if c.ast is not None]


def lower(spec: Spec) -> ir.Game:
    """The intermediate form of a checked spec."""
    return Lowerer(spec).game()
