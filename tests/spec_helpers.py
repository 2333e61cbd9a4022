"""Small helpers for tests that need a spec written inline (not a test module)."""
from __future__ import annotations

import textwrap

from interpreter import api
from interpreter.spec.diagnostics import Severity
from interpreter.runtime.scenarios import run_examples


def write(tmp_path, text: str, name: str = "spec.yaml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return str(path)


def diagnostics(path: str) -> list:
    _spec, diags = api.check_spec(path)
    return diags


def errors(path: str) -> list[tuple[str, str]]:
    return [(d.code, d.message) for d in diagnostics(path) if d.severity is Severity.ERROR]


def failed_examples(path: str) -> dict[str, str]:
    spec, _ = api.load_spec(path)
    return {o.name: o.message for o in run_examples(spec) if not o.ok}
