"""Where a game that failed went wrong: the rule text, the seed, the choices.

Owns: turning a game that ended as an error (a rule did something
impossible: the top card of an empty zone, a key that is not among a
variable's keys, a seat that does not exist) or that ran out of its step
budget into a positioned diagnostic: `file:line:col`, the source line with
a caret under the rule text that was running, the seed, and the choices
that reproduce it (`rulewright run --seed S` plays the same game).

How: normal play is compiled without any bookkeeping, so nothing here costs
anything until a game fails. A failed game is replayed from its seed and
choices by the same spec compiled in *locate mode* (codegen records which
statement or condition runs), which names the statement; the part of it that
fails is then narrowed by the kind of error (the one `top(...)` of the
statement, its one keyed index ...), else the caret spans the statement.

It does not decide what counts as a failure (engine.py does) nor print
(the faces render the diagnostic).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from ..lang import nodes as N
from ..spec.diagnostics import Diagnostic, Severity, Span
from .engine import DEFAULT_BUDGET, Game, IllegalChoice, SetupError, State, Status

RULE_ERROR = "E600"  # a rule failed during a game
BUDGET = "W601"  # the step budget ran out while this rule text was running

# The words a run-time error starts with, and the expressions that can raise it.
_RAISERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("top of", ("top", "last")),
    ("bottom of", ("bottom", "first")),
    ("first of", ("first",)),
    ("last of", ("last",)),
    ("seat(", ("seat",)),
    ("range(", ("range",)),
    ("division by zero", ("//", "%")),
    ("a number too large", ("*",)),
    ("cell(", ("cell",)),  # a cell off the board (interpreter/lang/boards.py)
    ("step(", ("step",)),
)


@dataclass(slots=True)
class Fault:
    """A game that failed, where, and how to play it again."""
    status: str  # "error" or "stalled"
    reason: str
    span: Span | None
    seed: int
    players: int
    choices: list[int] = field(default_factory=list)
    options: dict = field(default_factory=dict)
    readings: dict = field(default_factory=dict)
    path: str = "SPEC"
    budget: int = DEFAULT_BUDGET
    agents: dict = field(default_factory=dict)  # seat (0-based) -> agent name, when not random
    engine: str = "python"  # "kernel": a kernel game (`run --engine kernel` narrates it again)

    def diagnostic(self) -> Diagnostic:
        """The fault as a diagnostic (`path:line:col: error[E600]: ...`), with how to reproduce it."""
        code, sev = (RULE_ERROR, Severity.ERROR) if self.status == "error" else (BUDGET, Severity.WARNING)
        return Diagnostic(code, self.reason, self.span, hint=self.reproduce(), note=self.choices_note(),
                          severity=sev)

    def reproduce(self) -> str:
        """The command line that plays this game again."""
        extra = "".join(f" --option {k}={v}" for k, v in sorted(self.options.items()))
        extra += "".join(f" --reading {k}={v}" for k, v in sorted(self.readings.items()))
        extra += f" --budget {self.budget}" if self.budget != DEFAULT_BUDGET else ""
        extra += "".join(f" --agent {k + 1}={v}" for k, v in sorted(self.agents.items()))
        extra += " --engine kernel" if self.engine == "kernel" else ""
        return f"reproduce with: rulewright run {self.path} -p {self.players} --seed {self.seed}{extra}"

    def choices_note(self) -> str:
        if not self.choices:
            return "before the first decision"
        shown = ", ".join(map(str, self.choices[-20:]))
        which = "the last 20 " if len(self.choices) > 20 else ""
        return f"after {len(self.choices)} choice(s); {which}option indices: {shown}"


def locate(game: Game, st: State, agents: dict | None = None, prepare=None, engine: str = "python") -> Fault | None:
    """The fault of a finished game `st` of `game`, positioned in the spec; None when it did not fail.

    `agents` (seat -> agent name) only goes into the command line that reproduces the game.

    The game is replayed from its seed and choices, compiled in locate mode
    with the same options, readings and budget; `prepare` scripts its chance first (a kernel game's
    record, interpreter/kernel/replay.py), `engine` says which engine played it."""
    budget_out = st.status is Status.STALLED and "step budget" in (st.reason or "")
    if st.status is not Status.ERROR and not budget_out:
        return None
    options = {k: v for k, v in game.options.items() if v != game.spec.options[k].default}
    readings = {k: v for k, v in game.readings.items() if v != game.spec.ambiguities[k].default}
    fault = Fault(str(st.status), st.reason or "", None, st.seed, st.n, list(st.choices), options, readings,
                  game.spec.doc.path, game.budget, dict(agents or {}), engine)
    if fault.reason.startswith("invariant '"):  # checked after a step, by the engine: the invariant is the place
        code = game.spec.invariants.get(fault.reason.split("'")[1])
        fault.span = code.span if code is not None else None
        return fault
    try:
        probe = Game(game.spec, game.options, game.readings, game.budget, locate=True)
        again = probe.resume(st.n, st.seed, list(st.choices), check_invariants=st.check,
                             **({"prepare": prepare} if prepare is not None else {}))
    except (IllegalChoice, SetupError, RecursionError):
        return fault  # the replay went elsewhere (a hook set up the position): no place to show
    if again.status is not st.status or probe.at[0] is None:
        return fault
    code, node = probe.marks[probe.at[0]]
    if not isinstance(node, N.Node):  # a lowered statement: the rule text's statement at its place
        node = next(n for n in N.walk((node.at[0] or code).ast) if isinstance(n, N.Stmt) and n.pos == node.at[1])
    part = narrow(node, fault.reason)
    fault.span = code.text.locate(*part.pos)
    return fault


def narrow(node: N.Node, reason: str) -> N.Node:
    """The part of a statement or condition that raised `reason`: one candidate, else the whole."""
    kinds: tuple[str, ...] = ()
    for start, raisers in _RAISERS:
        if reason.startswith(start):
            kinds = raisers
    keyed = " is not a key of " in reason
    found = []
    for n in _own_nodes(node):
        if isinstance(n, N.Call) and n.func in kinds:
            found.append(n)
        elif isinstance(n, N.Binary) and n.op in kinds:
            found.append(n)
        elif keyed and isinstance(n, N.Index) and n.ref is not None and n.ref[0] == "keyed":
            found.append(n)
    return found[0] if len(found) == 1 else node


def _own_nodes(node: N.Node):
    """The expressions of a statement itself (its conditions, values), not those of the blocks inside it."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, N.Node):
            if isinstance(n, N.Stmt) and n is not node:
                continue
            yield n
            for f in fields(n):
                if f.name not in ("pos", "ty", "ref", "body", "orelse"):
                    stack.append(getattr(n, f.name))
        elif isinstance(n, (list, tuple)):
            stack.extend(reversed(n))
