"""`rulewright upgrade SPEC`: rewrite a spec written for an older language version in today's form.

Owns: finding where a spec relies on an older meaning (its examples are run, and each place the
scenarios took an old meaning is recorded: runtime/scenarios.py, lang/versions.py), the text edits
that say the same thing in the current language (`H9` becomes `H9 from box` in `given.zones`), the
`language:` line, and the proof: the rewritten text is checked and its examples run again, and it is
written (atomically) only when every example that passed still passes and no old meaning is left.

What it deliberately does not do: edit a base file a variant extends (it says which file to upgrade
first), reformat the YAML (only the recorded spans and the `language:` line change), or guess a
rewrite it cannot prove with the spec's own examples.
"""
from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field

from ..lang import versions
from ..spec.diagnostics import Severity, Span
from .pipeline import check_spec
from .scenarios import Legacy, run_examples


class UpgradeError(Exception):
    """The spec cannot be upgraded (it has errors, or the rewrite would change what its examples show)."""


@dataclass(slots=True)
class Upgrade:
    path: str
    before: str
    after: str
    changes: list[str] = field(default_factory=list)  # one line per edit, for the report
    examples: int = 0  # examples run again on the new text, all passing as before

    @property
    def changed(self) -> bool:
        return self.before != self.after


_TOP_KEY = re.compile(r"^[A-Za-z_$]", re.M)
_LANGUAGE = re.compile(r"^language:[^\n]*$", re.M)


def _offset(text: str, line: int, col: int) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[:line - 1]) + col - 1


def _edit(text: str, edits: list[tuple[Span, str]]) -> str:
    """Replace each span by its new text, last first, so the earlier offsets stay right."""
    for span, new in sorted(edits, key=lambda e: (e[0].line, e[0].col), reverse=True):
        a, b = _offset(text, span.line, span.col), _offset(text, span.end_line, span.end_col)
        text = text[:a] + new + text[b:]
    return text


def _pin(text: str) -> str:
    """The `language:` line set to the current version (added before the first section if missing)."""
    line = f"language: {versions.LANGUAGE}"
    if _LANGUAGE.search(text):
        return _LANGUAGE.sub(line, text, count=1)
    m = _TOP_KEY.search(text)
    at = m.start() if m else len(text)
    return text[:at] + line + "\n" + text[at:]


def upgrade(path: str) -> Upgrade:
    """The upgraded text of a spec, proven by its examples (raises UpgradeError when it cannot be)."""
    spec, diags = check_spec(path)
    if spec is None:
        bad = [d for d in diags if d.severity is Severity.ERROR]
        raise UpgradeError(f"{path} has {len(bad)} error(s): `rulewright check {path}` shows them; fix them first")
    with open(path, encoding="utf-8") as fh:
        before = fh.read()
    outcomes = run_examples(spec)
    passed = {o.name for o in outcomes if o.ok}
    legacy: list[Legacy] = [x for o in outcomes for x in o.legacy]
    edits, changes = [], []
    for x in legacy:
        span = spec.doc.span(x.path)
        if span is None or os.path.abspath(span.path) != os.path.abspath(path):
            raise UpgradeError(f"{span.path if span else 'a base file'} relies on an older meaning: upgrade it first")
        edits.append((span, x.fixed))
        changes.append(f"{span.path}:{span.line}:{span.col}: '{x.text}' -> '{x.fixed}' ({versions.CHANGES[x.change].new})")
    after = _pin(_edit(before, edits))
    if spec.language != versions.LANGUAGE:
        changes.append(f"language: {spec.language if spec.language is not None else '(inferred)'} -> {versions.LANGUAGE}")
    new, diags = check_spec(path, after)
    if new is None:
        first = next(d for d in diags if d.severity is Severity.ERROR)
        raise UpgradeError(f"the rewritten spec does not check ({first.code}: {first.message}); nothing was written")
    again = run_examples(new)
    lost = sorted(passed - {o.name for o in again if o.ok})
    if lost:
        raise UpgradeError(f"the rewritten spec fails example(s) that passed: {', '.join(lost)}; nothing was written")
    left = [x for o in again for x in o.legacy]
    if left:
        raise UpgradeError(f"the rewritten spec still relies on an older meaning ({left[0].note}); nothing was written")
    return Upgrade(path, before, after, changes, len(again))


def write(up: Upgrade) -> None:
    """Replace the spec file by its upgraded text, atomically (no half-written spec is ever left)."""
    folder = os.path.dirname(os.path.abspath(up.path))
    fd, tmp = tempfile.mkstemp(prefix=".upgrade-", suffix=".yaml", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(up.after)
        os.replace(tmp, up.path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
