"""The load pipeline: from a spec file to a compiled, playable Game.

Owns the order of the stages (load -> schema -> model -> check -> compile)
and a cache of checked specs, so comparing readings or options does not
re-parse. It lives in the run-time stage because its product is a Game;
`interpreter.api` re-exports it as the front door, and the later stages
(lab, faces) load games through it.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ..lang import checker, model
from ..lang.model import Spec
from ..spec import loader, schema
from ..spec.diagnostics import Diagnostic, Severity, Span, SpecError
from .engine import DEFAULT_BUDGET, Game

_cache: dict[str, tuple[tuple, tuple[Spec, list[Diagnostic]]]] = {}


def check_spec(path: str, text: str | None = None) -> tuple[Spec | None, list[Diagnostic]]:
    """Run every check stage; return the spec (None if it has errors) and all diagnostics.

    With `text`, check that YAML (an editor's unsaved buffer) as the spec at `path`."""
    a = analyse(path, text)
    return (a.spec if a.ok else None), a.diagnostics


@dataclass(slots=True)
class Analysis:
    """Everything the check stages learnt about a spec, as far as they got (editors use the partial results)."""
    diagnostics: list[Diagnostic]
    doc: loader.Document | None = None  # None when the YAML did not load
    spec: Spec | None = None  # the model, checked (annotated) even when the checker found errors
    ok: bool = False


def analyse(path: str, text: str | None = None, allow: tuple[str, ...] | None = None) -> Analysis:
    """Run every check stage on the spec at `path` (or on `text` as that spec), keeping what each produced.

    `allow`: the folders its `extends:` bases may be in (default: the spec's own folder and
    RULEWRIGHT_ALLOW; spec/files.py)."""
    try:
        return _analyse(path, text, allow)
    except RecursionError:  # the limits on nesting should come first; this is the net under them
        return Analysis([Diagnostic("E444", "the spec nests too deeply to check", Span(path, 1, 1, 1, 2),
                                    hint="some part of it is nested far deeper than a spec needs")])


def _analyse(path: str, text: str | None, allow: tuple[str, ...] | None = None) -> Analysis:
    try:
        doc = loader.load(path, text=text, allow=allow)
    except SpecError as exc:
        return Analysis(exc.diagnostics)
    diags = list(schema.check(doc))
    if diags:
        return Analysis(sorted(diags, key=Diagnostic.sort_key), doc)
    try:
        spec = model.build(doc)
    except SpecError as exc:
        return Analysis(exc.diagnostics, doc)
    diags = sorted(checker.check(spec), key=Diagnostic.sort_key)
    if any(d.severity is Severity.ERROR for d in diags):
        return Analysis(diags, doc, spec)
    try:  # compiled once with the defaults: a spec that checks also runs
        compile_game(spec)
    except SpecError as exc:
        return Analysis(sorted(diags + exc.diagnostics, key=Diagnostic.sort_key), doc, spec)
    return Analysis(diags, doc, spec, True)


def compile_game(spec: Spec, options: dict[str, Any] | None = None, readings: dict[str, str] | None = None,
                 budget: int = DEFAULT_BUDGET, coverage: bool = False) -> Game:
    """Compile a checked spec; rules too deep for Python to compile are a SpecError, not a crash."""
    try:
        return Game(spec, options, readings, budget, coverage)
    except RecursionError:
        raise SpecError([Diagnostic("E443", "these rules nest too deeply (with the procedures and functions "
                                            "they use) to compile", Span(spec.doc.path, 1, 1, 1, 2),
                                    hint="move inner loops or long expressions into procedures or functions")]) from None


def load_spec(path: str) -> tuple[Spec, list[Diagnostic]]:
    """A checked spec and its warnings; raises SpecError with every error."""
    key = os.path.abspath(path)
    hit = _cache.get(key)
    if hit is None or hit[0] != _stamps(hit[1][0].doc.sources):
        spec, diags = check_spec(path)
        if spec is None:
            raise SpecError(diags)
        # A variant is stale when any of its files (itself and its bases) changed.
        _cache[key] = (_stamps(spec.doc.sources), (spec, diags))
    return _cache[key][1]


def _stamps(paths) -> tuple:
    out = []
    for p in sorted(paths):
        try:
            st = os.stat(p)
            out.append((p, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((p, None, None))
    return tuple(out)


def load_game(path: str, options: dict[str, Any] | None = None, readings: dict[str, str] | None = None,
              budget: int = DEFAULT_BUDGET, coverage: bool = False) -> Game:
    """Load, check and compile a spec for the given options and ambiguity readings.

    Args:
        path: the spec file (a variant's `extends:` is followed).
        options: option values by name (`{"win_chips": 3}`); the others keep their defaults.
        readings: an interpretation per ambiguity (`{"first_flip": "optional"}`); the others keep theirs.
        budget: the step budget of each game (a game that exceeds it ends as `stalled`).
        coverage: count which rules and branches ran (for `lint`; slower).

    Raises:
        SpecError: the spec does not check (every diagnostic is in its `diagnostics`).
        SetupError: an unknown option or reading, or a value it does not allow.

    The checked spec is cached by path (and the files' modification times), so loading it again for
    other options costs only the compile."""
    spec, _ = load_spec(path)
    return compile_game(spec, options, readings, budget, coverage)
