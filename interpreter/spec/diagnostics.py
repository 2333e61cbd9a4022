"""Source positions and diagnostics.

Owns: where a piece of text came from (`Span`, `Text`), the diagnostic record
every stage yields, its rendering (`path:line:col: error[CODE]: message`, the
source line, a caret, at most one help line), and `SpecError`, which carries a
sorted list of diagnostics out of the pipeline. Stages never print; the CLI
renders.

Codes by stage: E1xx YAML, E2xx schema, E3xx syntax, E4xx semantic,
E5xx runtime (examples, invariants), E6xx rule failures in a game, E7xx command-line arguments read
as text (`tune`'s --target and --vary); warnings are W4xx.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Iterable

from . import files


@dataclass(slots=True, frozen=True)
class Span:
    """1-based line and column of a range in a file; end is exclusive."""
    path: str
    line: int
    col: int
    end_line: int
    end_col: int


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(slots=True)
class Diagnostic:
    """One finding about a spec, as `check` prints it: `path:line:col: error[CODE]: message`.

    Attributes:
        code: the stable code (`E403`; `docs/reference/diagnostics.md` explains each).
        message: what is wrong, in a sentence.
        span: where (1-based line and column), or None for a finding about no one place.
        hint: at most one suggestion (`did you mean 'count_of'?`).
        note: context (`in action 'flip'`).
        severity: `error` or `warning`.
    """
    code: str
    message: str
    span: Span | None
    hint: str | None = None
    note: str | None = None
    severity: Severity = Severity.ERROR

    def sort_key(self) -> tuple:
        s = self.span
        return (s.path, s.line, s.col, self.code) if s else ("", 0, 0, self.code)


class SpecError(Exception):
    """Raised by a pipeline stage with every diagnostic it collected."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        super().__init__(f"{len(self.diagnostics)} error(s) in spec")


@dataclass(slots=True)
class Text:
    """A string taken from a file (a YAML scalar, or a whole file).

    `anchors` maps each line of the string to the file (line, column) where
    that line's first character stands, so a span inside the string can be
    located in the file. Quoted YAML scalars with escapes may be off by the
    escape length; everything else is exact. A text joined from several
    files (a variant adding lines to its base's rule text) gives each line's
    file in `paths`; otherwise every line is in `path`.
    """
    value: str
    path: str
    anchors: list[tuple[int, int]] = field(default_factory=list)
    points: list[tuple[int, int]] | None = None  # per character, when folding or escapes moved them
    paths: list[str] | None = None  # per line, when the lines come from several files

    def locate(self, start: int, end: int | None = None) -> Span:
        end = start if end is None else end
        p1, l1, c1 = self._point(start)
        p2, l2, c2 = self._point(max(start, end))
        if p2 != p1 or (l2, c2) <= (l1, c1):
            c2 = c1 + 1
            l2 = l1
        return Span(p1, l1, c1, l2, c2)

    def _point(self, offset: int) -> tuple[str, int, int]:
        offset = max(0, min(offset, len(self.value)))
        if self.points:
            return (self.path, *self.points[min(offset, len(self.points) - 1)])
        before = self.value[:offset]
        k = before.count("\n")
        col = offset - (before.rfind("\n") + 1)
        if not self.anchors:
            return (self.path, k + 1, col + 1)
        k = min(k, len(self.anchors) - 1)
        line, col0 = self.anchors[k]
        return (self.paths[k] if self.paths else self.path, line, col0 + col)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """One suggestion, from names valid in that place only."""
    found = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{found[0]}'?" if found else None


MAX_SOURCE = 4_000_000  # characters of a file read to show its lines (specs are refused past 2 MB)


class SourceCache:
    """File text by path, for rendering source lines under diagnostics."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str]] = {}

    def add(self, path: str, text: str) -> None:
        self._lines[path] = text.splitlines()

    def line(self, path: str, line: int) -> str | None:
        lines = self._lines.get(path)
        if lines is None:
            try:  # regular files only, bounded: the path may be /dev/zero or a FIFO
                lines = files.read_bytes(path, MAX_SOURCE).decode("utf-8", errors="replace").splitlines()
            except OSError:
                lines = []
            self._lines[path] = lines
        return lines[line - 1] if 0 < line <= len(lines) else None


MAX_SHOWN = 160  # characters of a source line shown under a diagnostic


def render(d: Diagnostic, sources: SourceCache | None = None) -> str:
    """The rustc/CPython-style block for one diagnostic."""
    sources = sources or SourceCache()
    s = d.span
    head = f"{d.severity}[{d.code}]: {d.message}"
    if s is None:
        out = [head]
    else:
        out = [f"{s.path}:{s.line}:{s.col}: {head}"]
        text = sources.line(s.path, s.line)
        if text is not None:
            width = len(str(s.line))
            end = s.end_col if s.end_line == s.line else len(text) + 1
            col = s.col
            if len(text) > MAX_SHOWN:  # a window around the caret, not a whole minified file
                start = max(0, min(col - 1 - MAX_SHOWN // 4, len(text) - MAX_SHOWN))
                text = ("..." if start else "") + text[start:start + MAX_SHOWN] + \
                    ("..." if start + MAX_SHOWN < len(text) else "")
                shift = start - (3 if start else 0)
                col, end = col - shift, min(end - shift, len(text) + 1)
            carets = "^" * max(1, end - col)
            out.append(f"{' ' * width} |")
            out.append(f"{s.line} | {text.expandtabs(1)}")
            out.append(f"{' ' * width} | {' ' * (col - 1)}{carets}")
    pad = " " * (len(str(s.line)) if s else 0)
    if d.hint:
        out.append(f"{pad} = help: {d.hint}")
    if d.note:
        out.append(f"{pad} = note: {d.note}")
    return "\n".join(out)


def render_in(diagnostics: Iterable[Diagnostic], sources: dict[str, str]) -> list[str]:
    """Each diagnostic's block, its lines read from `sources` (path -> text: the pseudo-files of command-line
    arguments, `--target` and `--vary`) before any file of that name."""
    cache = SourceCache()
    for path, text in sources.items():
        cache.add(path, text)
    return [render(d, cache) for d in diagnostics]
