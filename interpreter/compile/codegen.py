"""Python source generated from the checked syntax tree, for speed.

Owns `PyGen`, the code generator: its constants table, names and fallbacks,
and compiling generated definitions into one namespace. Its parts, one
module each: expressions.py (expressions), statements.py (statements
without decisions), flow.py (programs that hold decisions, and the game's
turn cycle); support.py holds what the generated code calls as it runs.
Only the compiler's own text goes into the generated source: slots become
`L[3]`, variables `st.gvars[0]`, and every literal from the spec (texts,
card-property tables, option values) is passed in a constants table `K` and
referred to by index, so no spec text is ever pasted into code. Whatever
this module does not handle falls back to the closure compiler (`H[i]`),
which has the same semantics.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable

from ..lang import boards, nodes as N
from ..lang.builtins import (RuleError, after_of, bottom_of, divide, join, last_of, modulo, multiply, numbers,
                             position_of, random_number, roll_dice)
from ..spec.diagnostics import Diagnostic, SpecError
from .support import (EndGame, EndTurn, _L, _SAFE_BUILTINS, _best, _best_of, _each, _first, _mark, _seat, _seen, _top,
                      _work)
from .expressions import ExprGen
from .statements import StmtGen
from .flow import FlowGen
from .flow import Together  # noqa: F401  (imported from here before the split)


class PyGen(FlowGen, ExprGen, StmtGen):
    """Emits source for one compiled game; `build()` turns it into functions."""

    def __init__(self, comp):
        self.comp = comp  # the closure Compiler: constants folding, refs, fallbacks
        self.K: list[Any] = []
        self.H: list[Callable] = []
        self.defs: list[str] = []
        self.ns: dict[str, Any] = {"K": self.K, "H": self.H, "EndTurn": EndTurn, "EndGame": EndGame,
                                   "RuleError": RuleError, "_L": _L, "_top": _top, "_seen": _seen, "_best": _best,
                                   "_best_of": _best_of, "_first": _first, "_seat": _seat,
                                   "_last": last_of, "_bottom": bottom_of, "_position": position_of,
                                   "_after": after_of, "_div": divide, "_mod": modulo,
                                   "_each": _each, "_work": _work, "_join": join, "_mul": multiply, "_range": numbers,
                                   "_roll_dice": roll_dice, "_random_number": random_number,
                                   "_takewhile": itertools.takewhile,
                                   "__builtins__": _SAFE_BUILTINS}
        self.ns.update({name: fn for name, fn in boards.CODEGEN.values()})  # the board builtins' helpers
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
        self._key_tables: dict[tuple, str] = {}  # (a keyed variable's scope, its name) -> constant
        self.together: list = []  # the simultaneous choices of the program being compiled (`Together`)
        self._resumable = False  # emitting the body of a resumable program `R_(st, fr)`
        # Locate mode (replaying a game that failed, to name the rule text): before each statement and
        # condition, `POS[0]` records which one runs. Never on in normal play, so the hot path is unchanged.
        self.locate = getattr(comp, "locate", False)
        self.marks: list[tuple[Any, N.Node]] = []  # (Code, node) per mark
        self.POS: list[int | None] = [None]
        if self.locate:  # only then: normal play's namespace is exactly as before
            self.ns["POS"] = self.POS
            self.ns["_m"] = _mark

    # -- tables ----------------------------------------------------------------
    def k(self, v: Any) -> str:
        """A constant, as a global name `K<i>` of the generated code (never its text)."""
        for i, x in enumerate(self.K):
            if x is v or (type(x) is type(v) and isinstance(v, (str, tuple)) and x == v):
                return f"K{i}"
        self.K.append(v)
        self.ns[f"K{len(self.K) - 1}"] = v
        return f"K{len(self.K) - 1}"

    def h(self, fn: Callable) -> str:
        self.H.append(fn)
        return f"H[{len(self.H) - 1}]"

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
    def hit(self, kind: str, what: str, node: N.Node | None) -> list[str]:
        """A counter line for one coverage point (nothing when not measuring).

        A branch whose condition reads an ambiguity or an option is recorded
        as `branch:reading` / `branch:option`: it is meant to run only under
        some readings, so lint does not call it dead.
        """
        if not self.coverage:
            return []
        if kind == "branch" and node is not None:
            conds = [c for c, _ in node.branches] if isinstance(node, N.If) else [node]
            refs = {getattr(n, "ref", None) and n.ref[0] for c in conds for n in N.walk(c)}
            kind = "branch:reading" if "reading" in refs else "branch:option" if "option" in refs else kind
        elif self._guards and kind != "reading":
            kind = f"{kind}:{self._guards[-1]}"  # inside a branch that only some readings take
        code = self.codes[-1] if self.codes else None
        span = code.text.locate(*node.pos) if code is not None and node is not None else (
            code.span if code is not None else None)
        self.points.append((kind, what, span))
        self.COV.append(0)
        return [f"COV[{len(self.COV) - 1}] += 1"]

    def mark(self, node: N.Node) -> list[str]:
        """Locate mode: a line recording that `node` of the rule text being compiled runs now."""
        code = self.codes[-1] if self.codes else None
        if not self.locate or code is None:
            return []
        self.marks.append((code, node))
        return [f"POS[0] = {len(self.marks) - 1}"]

    # -- user functions and procedures ----------------------------------------------
    def function(self, name: str) -> str:
        """A spec function as a plain function `F(st, a0, a1...)` of its arguments."""
        f = self.comp.spec.functions[name]
        params = [f"a{i}" for i in range(len(f.params))]

        def write(fname: str) -> tuple[str, Any]:
            body = self.expr(f.value.ast)
            return f"def {fname}(st{''.join(', ' + p for p in params)}):\n    L = None\n    return {body}\n", None
        return self._routine(self._func_fns, name, "F_", dict(enumerate(params)), write)

    def procedure(self, name: str) -> str:
        """A procedure that never pauses, as a plain function `P(st, L)`."""
        pr = self.comp.spec.procedures[name]

        def write(fname: str) -> tuple[str, Any]:
            resumable, self._resumable = self._resumable, False
            self.codes.append(pr.do)
            body = self.block(pr.do.ast or [], 1)
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

    def expression(self, e: N.Expr) -> Callable:
        """An expression as a function `f(st, L)`."""
        name = self.fresh("E_")
        if self.locate and self.codes and self.codes[-1] is not None and self.codes[-1].ast is e:
            return self.define(name, f"def {name}(st, L):\n    return {self._marked(e)}\n")
        return self.define(name, f"def {name}(st, L):\n    return {self.expr(e)}\n")

    def _marked(self, e: N.Expr) -> str:
        """Locate mode: an expression that records where it is before it is evaluated."""
        m = self.mark(e)
        return f"(_m(POS, {m[0][9:]}) or ({self.expr(e)}))" if m else self.expr(e)

    def source(self) -> str:
        return "\n".join(self.defs)
