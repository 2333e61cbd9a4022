"""The spec model: a validated YAML document as typed Python objects.

Owns: building `Spec` from a schema-clean `Document` (never mutating the
user's data), numbering cards, zones and variables, and parsing every piece
of rule text into its AST with positions. It collects every syntax error
before it stops. Meaning (names, types) is the checker's job.

An option's values as the spec gives them (`option_values`) are
options.py's, which the boards and the counts read before the model is built.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from ..spec.diagnostics import Diagnostic, Span, SpecError, Text
from ..spec.loader import Document
from . import boards, counts, decks, syntax, teams
from .options import option_values


@dataclass(slots=True)
class Code:
    """One piece of rule text: its source, its AST, where it lives in the YAML."""
    text: Text
    kind: str  # "block" or "condition"
    ast: Any
    path: tuple
    span: Span
    n_locals: int = 0  # set by the checker: local variable slots the code needs

    def locate(self, pos: tuple[int, int] | None) -> Span:
        """Where the part of this text at `pos` (a node's span) stands in its file; the whole code's span
        for a part without one."""
        return self.text.locate(*pos) if pos else self.span


@dataclass(slots=True)
class CardType:
    name: str
    label: str
    count: int
    zone: str
    props: dict[str, Any]
    first_id: int
    span: Span | None
    decl: str = ""  # the declaration it comes from: itself, or a product's type (`each:`)
    counts: dict[int, int] | None = None  # cards per player count (`count: {3-5: 11, 6: 9}`), or None: `count`
    per_seat: bool = False  # `in:` names a player zone: each player starts with their own cards of this type
    ids: int = 0  # card ids the type reserves: enough for the most players and the largest count
    count_code: Code | None = None  # `count: "11 if count(players) <= 5 else 9"` (lang/counts.py)
    count_fn: Any = None  # (players, options or None for the defaults) -> the count, for `count_code`

    def in_play(self, n: int, options: dict | None = None) -> int:
        """Cards of this type in a game with `n` players (in each player's zone, for a per-seat type)."""
        if self.count_fn is not None:
            return self.count_fn(n, options)
        return self.count if self.counts is None else self.counts.get(n, 0)


@dataclass(slots=True)
class ZoneDef:
    name: str
    label: str
    owner: str  # "shared" | "player"
    visibility: str
    index: int  # position among the shared zones, or among the per-player zones
    span: Span | None


@dataclass(slots=True)
class VarDef:
    name: str
    scope: str  # "global" | "player" | "turn"
    type: str
    start: Any
    min: int | None
    max: int | None
    clamp: bool
    label: str
    index: int
    span: Span | None
    key: Any = None  # set for one value of a keyed variable (its key)
    values: list | None = None  # a text variable's allowed values (`values: [red, green]`), or None
    board: str | None = None  # a `type: cell` variable's board (its `board:`, or the spec's only board)
    visible: str = "public"  # who may read it: public | owner | side | nobody (lang/hidden.py)


MAX_RANGE_KEYS = 10_000  # keys of one `keys: {from:, to:}` range


@dataclass(slots=True)
class KeyedVar:
    """A variable with one value per key (`keys:`), e.g. `checks["fight"]`.

    Each key's value is an ordinary variable named `name[key]` in `Spec.vars`
    (so the runtime sees plain slots); `index` is the slot of the first key.
    """
    name: str
    scope: str
    type: str
    keys: list[Any]
    index: int
    label: str
    span: Span | None
    board: str | None = None  # `cells: BOARD`: one key per cell of that board (its name, `a1`)


@dataclass(slots=True)
class BoardDef:
    """A board of the `boards:` section (interpreter/lang/boards.py): each side a number or a Code."""
    name: str
    label: str
    rows: Any
    columns: Any
    rule: str | None
    span: Span | None
    origin: str = "top"  # `origin: bottom`: rows are numbered from the bottom row, as chess and checkers do
    forward: tuple[str, ...] = ()  # each seat's forward direction (`forward: [down, up]`)


@dataclass(slots=True)
class Action:
    name: str
    label: str
    rule: str | None
    when: Code | None
    params: dict[str, Code]
    do: Code
    span: Span | None
    secret: bool = False  # `secret: true`: only the chooser sees the choice (lang/hidden.py)


@dataclass(slots=True)
class Routine:
    """What a procedure and a function share: a name, parameters (name -> type), the rulebook rule it
    stands for, and where it is declared."""
    name: str
    params: dict[str, str]
    rule: str | None
    span: Span | None


@dataclass(slots=True)
class Procedure(Routine):
    do: Code  # a block of statements


@dataclass(slots=True)
class Function(Routine):
    value: Code  # an expression


@dataclass(slots=True)
class Trigger:
    name: str
    zone: str
    when: Code | None
    do: Code
    span: Span | None


@dataclass(slots=True)
class TurnDef:
    start: Code | None
    actions: list[tuple[str, Span | None]]
    end: Code | None


@dataclass(slots=True)
class Phase:
    name: str
    repeat: int
    while_: Code | None  # checked before each repetition; the phase stops early when it fails
    start: Code | None
    until: Code | None
    end: Code | None
    turn: TurnDef
    span: Span | None


@dataclass(slots=True)
class Ambiguity:
    name: str
    quote: str
    where: str | None
    interpretations: dict[str, str]
    default: str
    why: str | None
    span: Span | None
    contradicts_text: tuple[str, ...] = ()  # interpretations the rulebook's words rule out


@dataclass(slots=True)
class OptionDef:
    name: str
    label: str
    values: list[Any]
    default: Any
    rule: str | None
    span: Span | None


@dataclass(slots=True)
class Example:
    name: str
    rule: str | None
    players: int | None
    seed: int
    options: dict[str, Any]
    readings: dict[str, str]
    given: dict[str, Any]
    do: list[str]
    expect: list[Code]
    span: Span | None
    offered: list[str] = field(default_factory=list)  # labels the pending decision must offer at the end
    not_offered: list[str] = field(default_factory=list)  # labels it must not offer


@dataclass(slots=True)
class Measure:
    name: str
    label: str
    value: Code
    span: Span | None


@dataclass(slots=True)
class LabDef:
    """The spec's `lab:` section: margins of practical equivalence and default lab players (checked later)."""
    margins: dict[str, tuple[Any, Span | None, Span | None]] = field(default_factory=dict)  # name -> (value, spans)
    agents: dict[str, tuple[str, Span | None]] = field(default_factory=dict)  # seat (`all`, `1`..) -> agent
    span: Span | None = None


@dataclass(slots=True)
class Spec:
    doc: Document
    name: str
    min_players: int
    max_players: int
    cards: dict[str, CardType]
    n_cards: int
    total: int | None
    zones: dict[str, ZoneDef]
    n_player_zones: int
    n_shared: int  # zone ids 0..n_shared-1; then n_player_zones per seat
    vars: dict[str, dict[str, VarDef]]  # scope -> name -> def
    options: dict[str, OptionDef]
    ambiguities: dict[str, Ambiguity]
    assumptions: dict[str, str]
    setup: Code | None
    first: Code | str
    turn: TurnDef
    phases: list[Phase]
    actions: dict[str, Action]
    procedures: dict[str, Procedure]
    functions: dict[str, Function]
    triggers: dict[str, Trigger]
    end_when: Code | None
    end_check: str
    winners: Code | None
    score: str | None
    invariants: dict[str, Code]
    examples: dict[str, Example]
    rulebook: dict[str, Any] = field(default_factory=dict)
    measures: dict[str, Measure] = field(default_factory=dict)
    keyed: dict[str, dict[str, KeyedVar]] = field(default_factory=dict)  # scope -> name -> keyed variable
    heuristic: Code | None = None  # `heuristics.value`: how good a position is for `me` (bots only)
    skip_if: Code | None = None  # `flow.skip_if`: a player for whom it holds is passed over (out of the round)
    constants: dict[str, Any] = field(default_factory=dict)  # `constants:` named values (numbers, texts, lists)
    lab: LabDef | None = None  # the ambiguity lab's settings (margins, players)
    boards: dict[str, BoardDef] = field(default_factory=dict)  # `boards:` grids of cells
    language: int | None = None  # `language: 1`: the version of the rules language it is written for (versions.py)
    teams: Any = None  # `game.teams`: seats on a side (lang/teams.py TeamsDef), or None


CODE_FIELDS = ("setup", "first", "turn", "phases", "actions", "procedures", "functions", "triggers", "end_when",
               "winners", "invariants", "examples", "measures", "heuristic", "skip_if")
"""The fields of a Spec that hold rule text."""


def self_calling(calls: dict[str, set[str]]) -> set[str]:
    """The names that reach themselves in a call graph (`calls`: each procedure -> the ones it calls),
    directly or through others: the closure compiler and the kernel both refuse to inline those."""
    found = set()
    for name in calls:
        seen, todo = set(), list(calls[name])
        while todo:
            n = todo.pop()
            if n not in seen:
                seen.add(n)
                todo.extend(calls.get(n, ()))
        if name in seen:
            found.add(name)
    return found

def codes(spec: Spec, fields: tuple[str, ...] = CODE_FIELDS) -> Iterator[Code]:
    """Every piece of rule text of a spec (blocks and conditions, examples and measures too), each once;
    `fields` narrows the walk to some of CODE_FIELDS."""
    seen: set[int] = set()
    todo: list[Any] = [getattr(spec, f) for f in fields]
    while todo:
        x = todo.pop()
        if isinstance(x, (str, int, float, bool)) or x is None or id(x) in seen:
            continue
        seen.add(id(x))
        if isinstance(x, Code):
            yield x
        elif isinstance(x, dict):
            todo.extend(x.values())
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
        elif hasattr(x, "__dataclass_fields__"):
            todo.extend(getattr(x, f) for f in x.__dataclass_fields__)


def guards(spec: Spec) -> Iterator[tuple[Action, Code]]:
    """Each action whose `when:` parsed, with that condition."""
    for a in spec.actions.values():
        if a.when is not None and a.when.ast is not None:
            yield a, a.when


class _Builder:
    def __init__(self, doc: Document):
        self.doc = doc
        self.errors: list[Diagnostic] = []

    def span(self, *path: Any, key: bool = False) -> Span | None:
        return self.doc.span(path, key=key)

    def lab(self, lab: dict | None) -> LabDef | None:
        if lab is None:
            return None
        margins = {str(k): (v, self.span("lab", "margins", k), self.span("lab", "margins", k, key=True))
                   for k, v in (lab.get("margins") or {}).items()}
        agents = lab.get("agents")
        if isinstance(agents, str):
            seats = {"all": (agents, self.span("lab", "agents"))}
        else:
            seats = {str(k): (str(v), self.span("lab", "agents", k)) for k, v in (agents or {}).items()}
        return LabDef(margins, seats, self.span("lab", key=True))

    def code(self, path: tuple, kind: str) -> Code | None:
        value = self._get(path)
        if value is None:
            return None
        if not isinstance(value, str):
            value = "true" if value is True else "false" if value is False else str(value)
            text = Text(value, self.doc.span(path).path, [(self.doc.span(path).line, self.doc.span(path).col)])
        else:
            text = self.doc.text(path)
        try:
            ast = syntax.parse(text, kind)
        except SpecError as exc:
            self.errors.extend(exc.diagnostics)
            ast = None
        return Code(text, kind, ast, path, self.doc.span(path))

    def _get(self, path: tuple) -> Any:
        data: Any = self.doc.data
        for k in path:
            if not isinstance(data, (dict, list)):
                return None
            try:
                data = data[k]
            except (KeyError, IndexError):
                return None
        return data

    def _count_fn(self, code: Code | None, lo: int, hi: int):
        """A count expression as (players, options) -> count, and the largest count it gives (0 when it
        cannot be worked out: the checker says why, E461)."""
        d = self.doc.data
        opts = {n: option_values(o.get("values")) for n, o in (d.get("options") or {}).items()}
        defaults = {n: o.get("default") for n, o in (d.get("options") or {}).items()}
        constants = dict(d.get("constants") or {})
        if code is None or code.ast is None:
            return (lambda n, o: 0), 0
        try:
            most = max((v for _n, _o, v in counts.every_count(code.ast, lo, hi, opts, defaults, constants)
                        if type(v) is int), default=0)
        except counts.CountProblem:
            return (lambda n, o: 0), 0
        ast = code.ast
        return (lambda n, o: counts.value(ast, n, o if o is not None else defaults, constants)), \
            max(0, min(most, counts.MAX_COUNT))

    def routines(self, section: str, cls: type, body: str, kind: str) -> dict:
        """The procedures or functions of the spec: each with its parameters, rule, place and rule code
        (under `body`, parsed as `kind`)."""
        return {name: cls(name, dict(r.get("params") or {}), r.get("rule"), self.span(section, name, key=True),
                          self.code((section, name, body), kind))
                for name, r in (self.doc.data.get(section) or {}).items()}

    def turn(self, path: tuple) -> TurnDef:
        t = self._get(path) or {}
        actions = [(a, self.span(*path, "actions", i)) for i, a in enumerate(t.get("actions", []))]
        return TurnDef(self.code(path + ("start",), "block"), actions, self.code(path + ("end",), "block"))

    def build(self) -> Spec:
        d = self.doc.data
        game = d["game"]
        cards: dict[str, CardType] = {}
        next_id = 0
        comps = d.get("components") or {}  # a game without cards (dice, a board) needs no components
        defaults = dict(comps.get("defaults") or {})
        player_zones = {n for n, z in (d.get("zones") or {}).items() if z.get("owner") == "player"}
        lo, hi = game["players"]["min"], game["players"]["max"]
        for name, c in (comps.get("cards") or {}).items():
            counts = decks.counts_for(c["count"], lo, hi)  # a count per player count, or None
            count_code, count_fn = None, None
            if isinstance(c["count"], str):  # an expression over count(players) and the options
                count_code = self.code(("components", "cards", name, "count"), "condition")
                count_fn, count = self._count_fn(count_code, lo, hi)
            else:
                count = c["count"] if counts is None else max(counts.values(), default=0)
            per_seat = c["in"] in player_zones
            ids = count * (max(hi, 0) if per_seat else 1)
            for tname, label, attrs in decks.expand(name, c):  # `each:` declares one card type per combination
                cards[tname] = CardType(tname, label, count, c["in"],
                                        {**defaults, **(c.get("props") or {}), **attrs},
                                        next_id, self.span("components", "cards", name, key=True), decl=name,
                                        counts=counts, per_seat=per_seat, ids=ids,
                                        count_code=count_code, count_fn=count_fn)
                next_id += ids
        zones: dict[str, ZoneDef] = {}
        counts = {"shared": 0, "player": 0}
        for name, z in (d.get("zones") or {}).items():
            zones[name] = ZoneDef(name, z.get("label", name), z["owner"], z.get("visibility", "public"),
                                  counts[z["owner"]], self.span("zones", name, key=True))
            counts[z["owner"]] += 1
        boards_ = {name: BoardDef(name, b.get("label", name), *(b[k] if isinstance(b[k], int) else
                                                                self.code(("boards", name, k), "condition")
                                                                for k in ("rows", "columns")),
                                  b.get("rule"), self.span("boards", name, key=True), b.get("origin", "top"),
                                  tuple(b.get("forward") or ()))
                   for name, b in (d.get("boards") or {}).items()}
        vars_: dict[str, dict[str, VarDef]] = {"global": {}, "player": {}, "turn": {}}
        keyed: dict[str, dict[str, KeyedVar]] = {"global": {}, "player": {}, "turn": {}}
        for scope in ("global", "player", "turn"):
            i = 0
            for name, v in ((d.get("state", {}) or {}).get(scope, {}) or {}).items():
                start = v.get("start", {"bool": False, "text": (v.get("values") or [""])[0], "player": 1,
                                        "cell": None}.get(v["type"], 0))
                on = v.get("board") or (next(iter(boards_)) if v["type"] == "cell" and len(boards_) == 1 else None)
                if v["type"] == "player" and isinstance(start, int):
                    start -= 1  # a seat, counted from 1 in the spec, from 0 in the state
                span = self.span("state", scope, name, key=True)
                label = v.get("label", name)
                keys = v.get("keys")
                board = v.get("cells")
                if board is not None:  # one key per cell of the largest the board can be (its name, `a1`)
                    b = boards_.get(board)
                    raw, consts = d.get("options") or {}, d.get("constants") or {}
                    keys = boards.cell_names(boards.largest(b.rows, raw, consts), boards.largest(b.columns, raw, consts)) \
                        if b is not None else ["a1"]
                if isinstance(keys, dict):  # a range of numbers, both ends included (bounded: see MAX_RANGE_KEYS)
                    keys = list(range(keys["from"], min(keys["to"], keys["from"] + MAX_RANGE_KEYS - 1) + 1)) or \
                        [keys["from"]]
                if keys is None:
                    vars_[scope][name] = VarDef(name, scope, v["type"], start, v.get("min"), v.get("max"),
                                                bool(v.get("clamp", False)), label, i, span, values=v.get("values"),
                                                board=on, visible=v.get("visible", "public"))
                    i += 1
                    continue
                keyed[scope][name] = KeyedVar(name, scope, v["type"], list(keys), i, label, span, board)
                for k in keys:
                    vars_[scope][f"{name}[{k}]"] = VarDef(f"{name}[{k}]", scope, v["type"], start, v.get("min"),
                                                          v.get("max"), bool(v.get("clamp", False)),
                                                          f"{label} ({k})", i, span, key=k, values=v.get("values"),
                                                          board=on, visible=v.get("visible", "public"))
                    i += 1
        options = {name: OptionDef(name, o.get("label", name), option_values(o["values"]), o["default"], o.get("rule"),
                                   self.span("options", name, key=True))
                   for name, o in (d.get("options") or {}).items()}
        ambiguities = {name: Ambiguity(name, a["quote"], a.get("where"), dict(a["interpretations"]), a["default"],
                                       a.get("why"), self.span("ambiguities", name, key=True),
                                       tuple(a.get("contradicts_text") or ()))
                       for name, a in (d.get("ambiguities") or {}).items()}
        actions = {}
        for name, a in (d.get("actions") or {}).items():
            p = ("actions", name)
            params = {k: self.code(p + ("choose", k), "condition") for k in (a.get("choose") or {})}
            actions[name] = Action(name, a.get("label", name), a.get("rule"), self.code(p + ("when",), "condition"),
                                   params, self.code(p + ("do",), "block"), self.span(*p, key=True),
                                   bool(a.get("secret", False)))
        procedures = self.routines("procedures", Procedure, "do", "block")
        functions = self.routines("functions", Function, "value", "condition")
        triggers = {name: Trigger(name, t["enter"], self.code(("triggers", name, "when"), "condition"),
                                  self.code(("triggers", name, "do"), "block"), self.span("triggers", name, key=True))
                    for name, t in (d.get("triggers") or {}).items()}
        flow = d["flow"]
        turn = self.turn(("flow", "turn"))
        phases = []
        for i, ph in enumerate(flow.get("phases") or []):
            p = ("flow", "phases", i)
            phases.append(Phase(ph["name"], ph.get("repeat", 1), self.code(p + ("while",), "condition"),
                                self.code(p + ("start",), "block"),
                                self.code(p + ("until",), "condition"), self.code(p + ("end",), "block"),
                                self.turn(p + ("turn",)) if "turn" in ph else turn, self.span(*p)))
        first = flow.get("first", "random")
        first_code = first if first == "random" else self.code(("flow", "first"), "condition")
        end = d["end"]
        examples = {}
        for name, ex in (d.get("examples") or {}).items():
            p = ("examples", name)
            examples[name] = Example(name, ex.get("rule"), ex.get("players"), ex.get("seed", 0),
                                     dict(ex.get("options") or {}), dict(ex.get("readings") or {}),
                                     dict(ex.get("given") or {}), list(ex.get("do") or []),
                                     [self.code(p + ("expect", i), "condition") for i in range(len(ex["expect"]))],
                                     self.span(*p, key=True), list(ex.get("offered") or []),
                                     list(ex.get("not_offered") or []))
        spec = Spec(
            doc=self.doc, name=game["name"], min_players=game["players"]["min"], max_players=game["players"]["max"],
            cards=cards, n_cards=next_id, total=comps.get("total"), zones=zones, n_shared=counts["shared"], n_player_zones=counts["player"], vars=vars_,
            options=options, ambiguities=ambiguities, assumptions=dict(d.get("assumptions") or {}),
            setup=self.code(("setup", "do"), "block"), first=first_code, turn=turn, phases=phases,
            actions=actions, procedures=procedures, functions=functions, triggers=triggers,
            end_when=self.code(("end", "when"), "condition"), end_check=end.get("check", "end_of_turn"),
            winners=self.code(("end", "winners"), "condition"), score=end.get("score"),
            invariants={name: self.code(("invariants", name, "check"), "condition")
                        for name in (d.get("invariants") or {})},
            measures={name: Measure(name, m.get("label", name), self.code(("measures", name, "value"), "condition"),
                                    self.span("measures", name, key=True))
                      for name, m in (d.get("measures") or {}).items()},
            examples=examples, rulebook=dict(game.get("rulebook") or {}), keyed=keyed,
            heuristic=self.code(("heuristics", "value"), "condition"),
            skip_if=self.code(("flow", "skip_if"), "condition"),
            constants=dict(d.get("constants") or {}),
            lab=self.lab(d.get("lab")), boards=boards_, language=d.get("language"),
            teams=teams.build(game.get("teams"), self.span("game", "teams", key=True)),
        )
        if self.errors:
            raise SpecError(self.errors)
        return spec


def build(doc: Document) -> Spec:
    try:
        return _Builder(doc).build()
    finally:
        syntax.save_cache()
