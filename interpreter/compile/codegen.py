"""Python source generated from the intermediate form (lower/ir.py): how the Python engine runs each node.

Owns `PyGen`, the code generator: its constants table and names, compiling
generated definitions into one namespace, and the functions the rest of
the interpreter evaluates rule text with (`expression`, `collection`,
`condition`: a condition, a measure, an example's expectation, a heuristic).
It reads the lowered form, the one the kernel (interpreter/kernel) reads
too: lowering resolved every name once (variable slots, zones, card
properties, keyed variables, cells, options and readings), so the generator
only decides how to run each node. A condition of the lowered game it is
handed as it is (`condition(x)`, its rule text at `x.at[0]`); what it is
handed from the checked tree (a condition, a block, a part of a condition
from the lab) it takes lowered from the compiler, the game's own where the
game holds it (`ir_of`; the compiler's `lowered_block`). Its parts, one module each:
expressions.py (expressions), statements.py (statements without
decisions), flow.py (programs that hold decisions, and the game's turn
cycle); support.py holds what the generated code calls as it runs,
lang/builtins.py each builtin's `run` function. Only the compiler's own
text goes into the generated source: slots become `L[3]`, variables
`st.gvars[0]`, and every literal (texts, which the lowered form holds as
numbers of its `strings`, card-property tables, option values) and every
object the engine hands in is passed in a constants table `K` and referred
to by index, so no spec text is ever pasted into code. The generator
handles every node: lowering is total, so it never meets a construct it
cannot run (the kernel, a separate backend, names what it does not run and
is checked against this one by replaying its games).
"""
from __future__ import annotations

import itertools
from typing import Any, Callable

from ..lang import boards, nodes as N
from ..lang.kinds import T
from ..lang.builtins import BUILTINS, RuleError, divide, join, modulo, multiply
from ..lower import ir
from ..spec.diagnostics import Diagnostic, SpecError
from .support import (EndGame, EndTurn, _SAFE_BUILTINS, _at, _best_of, _each, _fail, _fit, _mark, _seen, _subsets,
                      _work)
from .expressions import ExprGen
from .statements import StmtGen
from .flow import FlowGen
from .flow import Together  # noqa: F401  (imported from here before the split)


class PyGen(FlowGen, ExprGen, StmtGen):
    """Emits source for one compiled game and compiles it (`define`) into functions."""

    def __init__(self, comp, shortcuts: bool = True):
        self.comp = comp  # the Compiler: its tables (props, boards, keyed slots) and constant folding
        # Shortcuts: builtins, products, divisions, keyed cells and small functions computed inline where that
        # means the same as the general form; off, every builtin is a call of its `run` (the tests compare).
        self.shortcuts = shortcuts
        self.K: list[Any] = []
        self.defs: list[str] = []
        self.ns: dict[str, Any] = {"K": self.K, "EndTurn": EndTurn, "EndGame": EndGame,
                                   "RuleError": RuleError, "_seen": _seen, "_best_of": _best_of,
                                   "_at": _at, "_fail": _fail, "_fit": _fit, "_subsets": _subsets,
                                   "_div": divide, "_mod": modulo,
                                   "_each": _each, "_work": _work, "_join": join, "_mul": multiply,
                                   "_takewhile": itertools.takewhile,
                                   "__builtins__": _SAFE_BUILTINS}
        # Each builtin's meaning (lang/builtins.py), as `B_<name>`; builtin names are identifiers of that table.
        self.ns.update({f"B_{name}": b.run for name, b in BUILTINS.items()})
        self.ns.update(boards.CODEGEN_HELPERS)
        self._n = 0
        self.local_names: list[dict[int, str]] = [{}]
        self._proc_fns: dict[str, str] = {}
        self._inlining: set[str] = set()
        # Coverage mode (lint, the ambiguity lab): count every rule, branch, option and reading used.
        self.coverage = comp.coverage
        self.points: list[tuple[str, str, Any]] = []  # (kind, what, span)
        self.COV: list[int] = []
        self.ns["COV"] = self.COV
        self.codes: list[Any] = []  # the Code being compiled, for positions
        self._guards: list[str] = []  # open branches that depend on a reading or an option
        self._func_fns: dict[str, str] = {}
        self._lowered: dict[int, tuple] = {}  # id of a checked-tree expression -> (it, its lowered form)
        self._key_tables: dict[tuple, str] = {}  # (a keyed variable's scope, its name) -> constant
        self.together: list = []  # the simultaneous choices of the program being compiled (`Together`)
        self._resumable = False  # emitting the body of a resumable program `R_(st, fr)`
        # Locate mode (replaying a game that failed, to name the rule text): before each statement and
        # condition, `POS[0]` records which one runs. Never on in normal play, so the hot path is unchanged.
        self.locate = getattr(comp, "locate", False)
        self.marks: list[tuple[Any, Any]] = []  # (Code, node of its tree or lowered statement) per mark
        self.POS: list[int | None] = [None]
        if self.locate:  # only then: normal play's namespace is exactly as before
            self.ns["POS"] = self.POS
            self.ns["_m"] = _mark

    # -- tables ----------------------------------------------------------------
    def k(self, v: Any) -> str:
        """A constant (or an object the engine hands in: a table, a program, a callback), as a global name
        `K<i>` of the generated code (never its text)."""
        for i, x in enumerate(self.K):
            if x is v or (type(x) is type(v) and isinstance(v, (str, tuple)) and x == v):
                return f"K{i}"
        self.K.append(v)
        self.ns[f"K{len(self.K) - 1}"] = v
        return f"K{len(self.K) - 1}"

    def fresh(self, prefix: str) -> str:
        self._n += 1
        return f"{prefix}{self._n}"

    def lit(self, v: Any) -> str:
        if v is True or v is False:
            return "True" if v else "False"
        if type(v) is int:
            return str(int(v))
        return self.k(v)

    def local(self, slot: int) -> str:
        for frame in reversed(self.local_names):
            if slot in frame:
                return frame[slot]
        return f"L[{slot}]"

    # -- coverage -------------------------------------------------------------------
    def hit(self, kind: str, what: str, node: Any) -> list[str]:
        """A counter line for one coverage point (nothing when not measuring).

        A branch whose condition reads an ambiguity or an option is recorded
        as `branch:reading` / `branch:option`: it is meant to run only under
        some readings, so lint does not call it dead.
        """
        if not self.coverage:
            return []
        if kind == "branch" and node is not None:
            tag = self.param_tag(node)
            kind = f"branch:{tag}" if tag else kind
        elif self._guards and kind != "reading":
            kind = f"{kind}:{self._guards[-1]}"  # inside a branch that only some readings take
        code = self.codes[-1] if self.codes else None
        pos = None if node is None else node.at[1]
        span = code.text.locate(*pos) if code is not None and pos is not None else (
            code.span if code is not None else None)
        self.points.append((kind, what, span))
        self.COV.append(0)
        return [f"COV[{len(self.COV) - 1}] += 1"]

    def mark(self, node: N.Node | ir.S) -> list[str]:
        """Locate mode: a line recording that `node` (of the rule text being compiled, or a lowered statement
        of it: runtime/faults.py finds its rule text by its place) runs now."""
        code = self.codes[-1] if self.codes else None
        if not self.locate or code is None:
            return []
        self.marks.append((code, node))
        return [f"POS[0] = {len(self.marks) - 1}"]

    # -- user functions and procedures ----------------------------------------------
    def function(self, name: str) -> str:
        """A spec function as a plain function `F(st, a0, a1...)` of its arguments."""
        f = self.comp.lowered_function(name)
        params = [f"a{i}" for i in range(len(f.params))]

        def write(fname: str) -> tuple[str, Any]:
            body = self.expr(f.value)
            return f"def {fname}(st{''.join(', ' + p for p in params)}):\n    L = None\n    return {body}\n", None
        return self._routine(self._func_fns, name, "F_", dict(enumerate(params)), write)

    def procedure(self, name: str) -> str:
        """A procedure that never pauses, as a plain function `P(st, L)`."""
        pr = self.comp.spec.procedures[name]

        def write(fname: str) -> tuple[str, Any]:
            resumable, self._resumable = self._resumable, False
            self.codes.append(pr.do)
            body = self.block(self.comp.lowered_block(pr.do), 1)
            self.codes.pop()
            self._resumable = resumable
            return f"def {fname}(st, L):\n{body}", pr.do
        return self._routine(self._proc_fns, name, "P_", {}, write)

    def _routine(self, made: dict[str, str], name: str, prefix: str, local_names: dict[int, str],
                 write: Callable[[str], tuple[str, Any]]) -> str:
        """The name of the generated definition of spec function or procedure `name`, defined the first time
        it is asked for: the name is taken before the body is written, so a recursive call finds it;
        `write(fname)` gives the source and the rule code it comes from, with `local_names` for the locals."""
        if name not in made:
            fname = made[name] = self.fresh(prefix)
            saved, self.local_names = self.local_names, [local_names]
            src, code = write(fname)
            self.local_names = saved
            self.define(fname, src, code)
        return made[name]

    # -- output -----------------------------------------------------------------------------
    def define(self, name: str, src: str, code: Any = None) -> Callable:
        """Compile one generated definition into the shared namespace (`code`: the rule it comes from)."""
        self.defs.append(src)
        # The source is the compiler's own text (see the module docstring).
        try:
            exec(compile(src, f"<rulewright {name}>", "exec"), self.ns)
        except (SyntaxError, RecursionError, MemoryError):
            # Python's own limits (nested blocks, parentheses) met by procedures and functions inlined
            # into each other: a spec error at the rule being compiled, not a crash.
            code = code or next((c for c in reversed(self.codes) if c is not None), None)
            raise SpecError([Diagnostic(
                "E443", "these rules nest too deeply (with the procedures and functions they use) to compile",
                code.span if code is not None else None,
                hint="move inner loops or long expressions into procedures or functions")]) from None
        return self.ns[name]

    def expression(self, e: N.Expr | ir.X, as_list: bool = False) -> Callable:
        """An expression (of the checked tree, or lowered) as a function `f(st, L)` of its own: every local
        it reads is read from `L`. With `as_list`, a zone's value is its list of cards (`collection`)."""
        name = self.fresh("E_")
        saved, self.local_names = self.local_names, [{}]
        try:
            if self.locate and self.codes and self.codes[-1] is not None and self.codes[-1].ast is e:
                src = self._marked(e)
            else:
                src = self.expr(self.ir_of(e))
            if as_list and e.ty is T.ZONE:
                src = f"st.zones[{src}]"
            return self.define(name, f"def {name}(st, L):\n    return {src}\n")
        finally:
            self.local_names = saved

    def collection(self, e: N.Expr) -> Callable:
        """A list-valued expression as a function `f(st, L)` of its elements (a zone: its cards)."""
        return self.expression(e, as_list=True)

    def condition(self, code: Any) -> Callable | None:
        """A piece of rule code outside a program (a condition, a measure, an example's `expect`, a heuristic)
        as a function `f(st, L)`, positions and coverage counted against it; None when there is none. `code`
        is its `Code`, or a condition of the lowered game (`ir.X`, its `Code` at `at[0]`)."""
        x = code if isinstance(code, ir.X) else None
        if x is not None:
            code = x.at[0]
        if code is None or code.ast is None:
            return None
        self.codes.append(code)
        try:  # locate mode marks the rule text itself (the one a fault names)
            return self.expression(code.ast if x is None or self.locate else x)
        finally:
            self.codes.pop()

    def _marked(self, e: N.Expr) -> str:
        """Locate mode: an expression (of the checked tree: the rule text a fault names) that records where it
        is before it is evaluated."""
        m = self.mark(e)
        x = self.ir_of(e)
        return f"(_m(POS, {m[0][9:]}) or ({self.expr(x)}))" if m else self.expr(x)

    def source(self) -> str:
        return "\n".join(self.defs)
