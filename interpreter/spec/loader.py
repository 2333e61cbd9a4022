"""YAML loading with positions.

Owns: turning a spec file into plain data (dicts, lists, scalars) plus a
position index: for every key path, where its key and its value stand in the
file. Also resolves `extends:` (a variant file on top of its base). Uses
PyYAML's safe loader only, so a spec can never construct Python objects.
Duplicate keys, which PyYAML would silently accept, are errors here.

It does not check structure (schema.py) nor parse rules (syntax.py).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import yaml

from . import files
from .diagnostics import Diagnostic, Span, SpecError, Text

Path = tuple[Any, ...]
# libyaml's parser when PyYAML has it (about 10x faster); both only build plain data.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_SPEC_BYTES = files.MAX_SPEC_BYTES  # a spec (or a base it extends) larger than this is refused before it is read
MAX_YAML_DEPTH = 40  # mappings and lists inside each other; real specs use fewer than 10
MAX_YAML_VALUES = 200_000  # keys, values and list items once aliases (*name) are expanded; a large spec has 10,000


@dataclass(slots=True)
class Located:
    key: Span | None
    value: Span
    node: Any  # the yaml node, to rebuild Text with exact anchors


@dataclass(slots=True)
class Document:
    """A loaded spec: its data and where every part of it came from."""
    path: str
    source: str
    data: Any
    where: dict[Path, Located] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)  # path -> text, base files too
    # Texts a variant joined to its base's (`append:`/`prepend:`): the pieces in order,
    # each where it was written and its own text.
    joins: dict[Path, list[tuple[Located, str]]] = field(default_factory=dict)

    def span(self, path: Path, key: bool = False) -> Span | None:
        """The span of the value at `path` (or of its key), or the nearest parent's."""
        p = tuple(path)
        while True:
            loc = self.where.get(p)
            if loc is not None:
                return (loc.key or loc.value) if key else loc.value
            if not p:
                return None
            p = p[:-1]

    def text(self, path: Path) -> Text:
        """The string at `path` as a Text that maps offsets to file positions."""
        pieces = self.joins.get(tuple(path))
        if pieces is not None:
            return self._joined(pieces, str(_get(self.data, path)))
        loc = self.where[tuple(path)]
        value = _get(self.data, path)
        return scalar_text(loc.node, str(value), loc.value.path, self.sources.get(loc.value.path, ""))

    def _joined(self, pieces: list[tuple[Located, str]], value: str) -> Text:
        anchors: list[tuple[int, int]] = []
        paths: list[str] = []
        for loc, piece in pieces:
            piece = piece.rstrip("\n")
            t = scalar_text(loc.node, piece, loc.value.path, self.sources.get(loc.value.path, ""))
            n = piece.count("\n") + 1
            got = (t.anchors + [t.anchors[-1]] * n)[:n] if t.anchors else [(loc.value.line, loc.value.col)] * n
            anchors.extend(got)
            paths.extend([loc.value.path] * n)
        return Text(value, pieces[0][0].value.path, anchors, paths=paths)


def _get(data: Any, path: Path) -> Any:
    for k in path:
        data = data[k]
    return data


def _span(path: str, node: yaml.Node) -> Span:
    s, e = node.start_mark, node.end_mark
    return Span(path, s.line + 1, s.column + 1, e.line + 1, e.column + 1)


def scalar_text(node: yaml.ScalarNode, value: str, path: str, source: str) -> Text:
    """Map each line of a scalar's value to its place in the file."""
    mark = node.start_mark
    lines = source.splitlines()
    style = node.style
    if style in ("|", ">"):
        # Block scalar: content starts on the next line at a fixed indent.
        first = mark.line + 1
        indent = 0
        for raw in lines[first:]:
            if raw.strip():
                indent = len(raw) - len(raw.lstrip(" "))
                break
        n = value.count("\n") + 1
        anchors = [(first + 1 + i, indent + 1) for i in range(n)]
        if style == "|":
            return Text(value, path, anchors)
    quote = 1 if style in ("'", '"') else 0
    anchors = [(mark.line + 1, mark.column + 1 + quote)]
    raw = source[mark.index:node.end_mark.index]
    if "\n" not in raw and "\\" not in raw and "''" not in raw:
        return Text(value, path, anchors)  # one line, nothing folded or escaped: the anchor is exact
    return Text(value, path, anchors, _align(value, source, mark.index + quote, node.end_mark.index))


def _align(value: str, source: str, start: int, end: int) -> list[tuple[int, int]]:
    """File (line, col) of every character of a folded or escaped scalar's value.

    YAML folds line breaks into spaces and decodes escapes, so the value and
    the file text differ; walk both, matching characters and skipping what
    folding and escaping removed.
    """
    line_starts = [0]
    for i, ch in enumerate(source):
        if ch == "\n":
            line_starts.append(i + 1)

    def where(pos: int) -> tuple[int, int]:
        lo, hi = 0, len(line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if line_starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return (lo + 1, pos - line_starts[lo] + 1)

    points = []
    r = start
    for ch in value:
        if ch in " \n":
            while r < end and source[r] in " \t\r\n" and ch == "\n" and source[r] != "\n":
                r += 1
            points.append(where(min(r, end)))
            if r < end and source[r] in " \n":
                r += 1
            while r < end and source[r] in " \t\r\n" and (r == 0 or source[r - 1] == "\n"):
                r += 1  # the indentation of a continuation line
            continue
        found = source.find(ch, r, min(end, r + 8))  # an escape sequence is a few characters long
        if found < 0:
            points.append(where(min(r, end)))
            r += 1
        else:
            points.append(where(found))
            r = found + 1
    points.append(where(min(r, end)))  # the end of the value
    return points


class _Builder:
    def __init__(self, path: str, source: str):
        self.path = path
        self.source = source
        self.where: dict[Path, Located] = {}
        self.errors: list[Diagnostic] = []
        self.loader: Any = None
        self.values = 0

    def build(self, loader: type = _Loader) -> Any:
        try:
            self.loader = loader(self.source)  # the pure-Python reader refuses control characters here
            self._check_depth(loader)
            root = self.loader.get_single_node()
        except yaml.YAMLError as exc:
            if loader is not yaml.SafeLoader:
                # Report with the pure-Python parser: the same words on every machine.
                if self.loader is not None:
                    self.loader.dispose()
                return self.build(yaml.SafeLoader)
            self._raise(exc)
        finally:
            if self.loader is not None:
                self.loader.dispose()
        return self._data(root)

    def _check_depth(self, loader: type) -> None:
        """Refuse deep nesting before composing: libyaml's composer recurses in C (a crash, not an error)."""
        scan = loader(self.source)
        depth = 0
        try:
            while scan.check_event():
                ev = scan.get_event()
                if isinstance(ev, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                    depth += 1
                    if depth > MAX_YAML_DEPTH:
                        m = ev.start_mark
                        raise SpecError([Diagnostic(
                            "E107", f"the YAML nests more than {MAX_YAML_DEPTH} levels deep",
                            Span(self.path, m.line + 1, m.column + 1, m.line + 1, m.column + 2),
                            hint="a spec needs only a few levels: sections, entries, their fields")])
                elif isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                    depth -= 1
        finally:
            scan.dispose()

    def _raise(self, exc: yaml.YAMLError) -> None:
        if isinstance(exc, yaml.reader.ReaderError):
            line = self.source.count("\n", 0, exc.position) + 1
            col = exc.position - (self.source.rfind("\n", 0, exc.position) + 1) + 1
            raise SpecError([Diagnostic(
                "E101", f"malformed YAML: character U+{exc.character:04X} is not allowed in a spec",
                Span(self.path, line, col, line, col + 1), hint="remove the control character")]) from None
        if isinstance(exc, yaml.MarkedYAMLError):
            mark = exc.problem_mark or exc.context_mark
            line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            problem = exc.problem or exc.context or "malformed YAML"
            hint = _yaml_hint(problem)
            if "another document" in problem:
                problem = "a second YAML document in the file"
            problem = problem.replace("\t", "\\t")
            raise SpecError([Diagnostic(
                "E101", f"malformed YAML: {problem}", Span(self.path, line, col, line, col + 1),
                hint=hint)]) from None
        raise SpecError([Diagnostic("E101", f"malformed YAML: {exc}", Span(self.path, 1, 1, 1, 2))]) from None

    def _data(self, root: yaml.Node | None) -> Any:
        if root is None:
            raise SpecError([Diagnostic("E102", "the spec is empty", Span(self.path, 1, 1, 1, 2),
                                        hint="a spec is a YAML mapping that starts with `game:`")])
        data = self.node(root, (), None)
        if self.errors:
            raise SpecError(self.errors)
        return data

    def node(self, node: yaml.Node, path: Path, key: Span | None) -> Any:
        self.values += 1
        if self.values > MAX_YAML_VALUES:  # aliases of aliases repeat a value exponentially often
            raise SpecError([Diagnostic(
                "E109", f"the YAML holds more than {MAX_YAML_VALUES:,} values once its aliases are expanded",
                _span(self.path, node), hint="an alias (*name) repeats everything its anchor (&name) holds: "
                                             "use fewer aliases")])
        self.where[path] = Located(key, _span(self.path, node), node)
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for knode, vnode in node.value:
                if not isinstance(knode, yaml.ScalarNode):
                    self.errors.append(Diagnostic("E103", "a key must be a plain name", _span(self.path, knode)))
                    continue
                if knode.tag == "tag:yaml.org,2002:merge":
                    self.errors.append(Diagnostic("E103", "YAML merge keys (<<) are not supported in specs",
                                                  _span(self.path, knode), hint="use `extends:` for variants"))
                    continue
                k = self._scalar(knode)
                if isinstance(k, bool):
                    self.errors.append(Diagnostic(
                        "E103", f"the key '{knode.value}' reads as {str(k).lower()} in YAML", _span(self.path, knode),
                        hint=f"quote it: \"{knode.value}\" (YAML reads yes/no/on/off as true/false)"))
                    continue
                if not isinstance(k, (str, int)) or k is None:
                    self.errors.append(Diagnostic("E103", f"a key must be a name, not {k!r}", _span(self.path, knode)))
                    continue
                if k in out:
                    first = self.where[path + (k,)].key
                    self.errors.append(Diagnostic(
                        "E104", f"duplicate key '{k}'", _span(self.path, knode),
                        hint="YAML keeps only one of them; merge the two entries",
                        note=f"first defined at line {first.line}" if first else None))
                    continue
                out[k] = self.node(vnode, path + (k,), _span(self.path, knode))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.node(v, path + (i,), None) for i, v in enumerate(node.value)]
        value = self._scalar(node)
        if not isinstance(value, (str, int, float, bool)) and value is not None:
            # dates, binary and other YAML types are not part of a spec
            return str(value)
        return value


    def _scalar(self, node: yaml.Node) -> Any:
        try:
            return self.loader.construct_object(node)
        except yaml.YAMLError:
            # The safe loader refuses tags such as !!python/object: a spec is plain data.
            self.errors.append(Diagnostic("E106", f"unsupported YAML tag {node.tag}", _span(self.path, node),
                                          hint="specs hold plain data: remove the tag"))
            return None


def _yaml_hint(problem: str) -> str | None:
    if "tab" in problem or "\t" in problem or "\\t" in problem:
        return "indent with spaces, not tabs"
    if "another document" in problem:
        return "a spec is one YAML document: remove the second `---` (or what follows it)"
    if "mapping values are not allowed" in problem:
        return "quote a value that contains ': ' (for example a rule expression)"
    if "could not find expected ':'" in problem:
        return "each entry needs `key: value`"
    return None


def load_file(path: str) -> Document:
    """Load one YAML file with positions (no `extends` resolution), read as files.read_text reads it."""
    try:
        source = files.read_text(path, MAX_SPEC_BYTES)
    except files.Refused as exc:
        if exc.too_large:
            raise SpecError([Diagnostic(
                "E108", exc.strerror, Span(path, 1, 1, 1, 2),
                hint="a spec holds rules, not data: split it into a base and variants that `extends:` it")]) from None
        code = "E100" if "UTF-8" in exc.strerror else "E114"
        raise SpecError([Diagnostic(code, f"cannot read spec: {exc.strerror}" if code == "E100" else
                                    f"the spec is {exc.strerror}", Span(path, 1, 1, 1, 2))]) from None
    except OSError as exc:
        raise SpecError([Diagnostic("E100", f"cannot read spec: {exc.strerror}", Span(path, 1, 1, 1, 2))]) from None
    return load_source(path, source)


def load_source(path: str, source: str) -> Document:
    """Load YAML text held in memory as if it were the file at `path` (an editor's unsaved buffer)."""
    if len(source) > MAX_SPEC_BYTES:
        raise SpecError([Diagnostic(
            "E108", f"the spec is more than {MAX_SPEC_BYTES:,} bytes", Span(path, 1, 1, 1, 2),
            hint="a spec holds rules, not data: split it into a base and variants that `extends:` it")])
    b = _Builder(path, source)
    data = b.build()
    return Document(path, source, data, b.where, {path: source})


def is_spec_file(path: str) -> bool:
    """Whether the file at `path` reads as a spec (a mapping with `game:` or `extends:`) or cannot be read.

    For a spec named by another file (a log, a save): one that is not a spec is refused with
    words of its own, before any diagnostic could quote what it holds. A file that does not load
    is left to the loader, which reports why at its position."""
    try:
        data = load_file(path).data
    except SpecError:
        return True
    return isinstance(data, dict) and bool({"game", "extends"} & set(data))


def load(path: str, _seen: tuple[str, ...] = (), text: str | None = None,
         allow: tuple[str, ...] | None = None) -> Document:
    """Load a spec, merging it onto its base when it says `extends:`.

    With `text`, the spec's own YAML is that text rather than the file's (its
    bases are still read from disk, relative to `path`). A base must be a
    `.yaml` file inside the spec's folder or one of `allow` (and of the
    RULEWRIGHT_ALLOW list): files.py says why."""
    if allow is None:
        allow = files.allowed_folders(os.path.dirname(os.path.abspath(path)))
    doc = load_file(path) if text is None else load_source(path, text)
    if not isinstance(doc.data, dict) or "extends" not in doc.data:
        return doc
    from .variants import merge  # local import: variants depends on Document
    base_name = doc.data["extends"]
    span = doc.span(("extends",))
    if not isinstance(base_name, str):
        raise SpecError([Diagnostic("E201", "`extends` must be a file name", span)])
    base_path = os.path.normpath(os.path.join(os.path.dirname(path), base_name))
    problem = files.named_file_problem(base_path, allow)
    if problem:
        raise SpecError([Diagnostic("E115", f"the base '{base_name}' is not read: {problem}", span,
                                    hint="name a spec in this spec's folder (or below it), or add its folder to "
                                         f"{files.ALLOW_ENV}")])
    if os.path.abspath(base_path) in _seen + (os.path.abspath(path),):
        raise SpecError([Diagnostic("E105", f"extending '{base_name}' leads back to this file (a cycle)", span,
                                    hint="a base cannot extend its own variant")])
    if not os.path.exists(base_path):
        raise SpecError([Diagnostic("E100", f"base spec '{base_name}' not found", span,
                                    hint=f"looked for {base_path}")])
    try:
        base = load(base_path, _seen + (os.path.abspath(path),), allow=allow)
    except SpecError as exc:
        # A base that is not an ordinary file is reported where it is named, not at its own 1:1.
        bad = [d for d in exc.diagnostics if d.code in ("E114", "E108") and d.span and d.span.path == base_path]
        if bad:
            raise SpecError([Diagnostic(bad[0].code, bad[0].message.replace("the spec", f"the base '{base_name}'", 1),
                                        span, hint=bad[0].hint)]) from None
        raise
    if not isinstance(base.data, dict) or not ({"game", "extends"} & set(base.data)):
        # Never quote a file that is not a spec: its keys could be anyone's secrets.
        raise SpecError([Diagnostic("E116", f"the base '{base_name}' is not a Rulewright spec "
                                            "(it has no `game:` section)", span,
                                    hint="`extends:` names a spec: a YAML file that starts with `game:`")])
    return merge(base, doc)
