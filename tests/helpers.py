"""Shared helpers of the test suite (not a test module).

Specs under test are built from `tests/bad_specs/_minimal.yaml`: either as
text with one exact replacement (so the YAML layout, and therefore every
expected position, stays readable) or as plain data dumped to YAML.
Expected positions are found by searching the written text, never typed
in as numbers.
"""
from __future__ import annotations

import copy
import functools
import os
import re
from typing import Any

import yaml

from interpreter.api import check_spec
from interpreter.spec.diagnostics import Diagnostic, Severity

MINIMAL = os.path.join("tests", "bad_specs", "_minimal.yaml")
STUN = os.path.join("games", "stun.yaml")

# A Lark terminal or rule name reaching a user (RPAR, $END, __ANON_0, _NL ...).
TERMINAL_NAME = re.compile(r"\$END|__ANON|__anon|\b(?:RPAR|LPAR|RSQB|LSQB|COLON|COMMA|DOT|EQ|NAME|INT|STRING|"
                           r"COMPARE_OP|MUL_OP|PLUS|MINUS|_NL|_INDENT|_DEDENT|MORETHAN|LESSTHAN)\b")


@functools.lru_cache(maxsize=None)
def minimal_text() -> str:
    with open(MINIMAL, encoding="utf-8") as fh:
        return fh.read()


def minimal_data() -> dict[str, Any]:
    return copy.deepcopy(_minimal_data())


@functools.lru_cache(maxsize=None)
def _minimal_data() -> dict[str, Any]:
    return yaml.safe_load(minimal_text())


def edit(text: str, old: str, new: str) -> str:
    """`text` with the one occurrence of `old` replaced (an error if it is not exactly one)."""
    n = text.count(old)
    assert n == 1, f"{old!r} occurs {n} times in the spec"
    return text.replace(old, new)


def write(tmp_path, content: str | dict, name: str = "spec.yaml") -> str:
    """Write a spec (text, or data dumped as YAML) and return its path."""
    if not isinstance(content, str):
        content = yaml.safe_dump(content, sort_keys=False, allow_unicode=True, width=1000)
    path = os.path.join(str(tmp_path), name)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(content)
    return path


def write_edited(tmp_path, old: str, new: str, name: str = "spec.yaml") -> tuple[str, str]:
    text = edit(minimal_text(), old, new)
    return write(tmp_path, text, name), text


def where(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the nth occurrence of `needle` in `text`."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1
    return line, col


def diagnostics(path: str) -> list[Diagnostic]:
    return check_spec(path)[1]


def errors(path: str) -> list[Diagnostic]:
    return [d for d in diagnostics(path) if d.severity is Severity.ERROR]


def warnings(path: str) -> list[Diagnostic]:
    return [d for d in diagnostics(path) if d.severity is Severity.WARNING]


def caret_text(text: str, d: Diagnostic) -> str:
    """The file text under a one-line diagnostic's caret."""
    s = d.span
    assert s is not None and s.line == s.end_line, d
    return text.splitlines()[s.line - 1][s.col - 1:s.end_col - 1]


def show(diags: list[Diagnostic]) -> str:
    return "\n".join(f"{d.span and (d.span.line, d.span.col)} {d.severity}[{d.code}] {d.message} | {d.hint}"
                     for d in diags)


# ---- variants of the tiny game in tests/variants/base.yaml -------------------------------------------------
TINY_BASE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "variants", "base.yaml")


def tiny_variant(tmp_path, text: str, name: str = "v.yaml") -> str:
    """Write `text` (a variant that says `extends: base.yaml`) beside a copy of the tiny base."""
    base = tmp_path / "base.yaml"
    if not base.exists():
        base.write_text(open(TINY_BASE, encoding="utf-8").read(), encoding="utf-8")
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def random_walk(st, rng, steps: int | None = None):
    """Play `st` on with uniformly random choices from `rng` (`rng.randrange`): `steps` decisions at most,
    or to the end of the game; returns `st`."""
    from interpreter.runtime.engine import Status
    k = 0
    while st.status is Status.RUNNING and (steps is None or k < steps):
        st.apply(rng.randrange(len(st.popts)))
        k += 1
    return st


def compiled_forms(game, expressions: list[str]) -> list[tuple]:
    """(text, generated function, general function) for each expression, which `game`'s spec holds as functions
    f0, f1, ...: the code generator's code with its shortcuts, and without them (each builtin a call of its
    `run` function, products and divisions checked, keyed cells through the key table, functions called, not
    inlined), to compare on the same positions."""
    from interpreter.compile.codegen import PyGen
    from interpreter.compile.compiler import Compiler
    comp = Compiler(game.spec, game.options, game.readings)
    general = PyGen(comp, shortcuts=False)
    out = []
    for i, text in enumerate(expressions):
        ast = game.spec.functions[f"f{i}"].value.ast
        out.append((text, comp.gen.expression(ast), general.expression(ast)))
    return out


def generated_source(game, expressions: list[str], shortcuts: bool = True) -> dict[str, str]:
    """The generated Python of each expression (spec functions f0, f1, ... as for `compiled_forms`)."""
    from interpreter.compile.codegen import PyGen
    from interpreter.compile.compiler import Compiler
    comp = Compiler(game.spec, game.options, game.readings)
    gen = comp.gen if shortcuts else PyGen(comp, shortcuts=False)
    return {text: gen.expr(comp.lowered_function(f"f{i}").value) for i, text in enumerate(expressions)}
