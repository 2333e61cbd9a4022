"""Variants and expansions: a spec written on top of another (`extends:`).

Owns merging a variant `Document` onto its base `Document`, keeping where
every part of the result was written: a value the variant wrote points into
the variant file, everything else into the base file, so a later stage's
diagnostic lands in the file that holds the offending text. It does not
check the merged result (schema.py, checker.py do, as for any spec).

A variant file says `extends: BASE.yaml`, then any of:

- **sections** (`zones:`, `actions:`, `state:` ...) written as in a full spec
  are *added*, merged key by key into the base's mappings, as deep as they
  go. Adding a key the base already has is an error (E111): say `set:` or
  `replace:` to change it.
- `set:` PATH: VALUE, changing a value the base gives (a number, a text,
  a piece of rule text, a list). The value must be of that kind too.
- `replace:` PATH: ENTRY, swapping a whole entry (a mapping: an action, a
  procedure, a card type ...) for a new one.
- `remove:` [PATH, ...], deleting entries.
- `append:` / `prepend:` PATH: RULE TEXT, adding lines after / before the
  lines of a piece of rule text (`do:`, `start:`, `end:` ...) of the base.

A PATH is the keys from the top of the spec joined by dots
(`options.win_chips.default`); a list item is named by its `name:` or its
position from 0 (`flow.phases.year.end`). Every PATH must exist in the base
(E110, with a did-you-mean among the keys there), each PATH may be changed
only once (E111), and set/replace take the kind of value they expect
(E112). The order of the file does not matter: `remove:` first (so a
removed entry may be written anew as an addition), then additions, then
set, replace, append, prepend.
"""
from __future__ import annotations

import copy
from typing import Any, Iterator

from .diagnostics import Diagnostic, Span, SpecError, did_you_mean
from .document import Document, Located, Path, json_type, value_at

VERBS = ("set", "replace", "append", "prepend", "remove")
IGNORED = ("extends", "$schema")


def _show(path: Path) -> str:
    return ".".join(str(k) for k in path) or "the spec"


# What `set:` and `replace:` swap (a whole entry, a mapping?), and what each says when the base's value
# is of the other form (the message, its hint) or the variant's is (the message).
_SWAPS = {
    "set": (False, "'{dotted}' is {old}; `set:` changes a single value",
            "to swap the whole entry, write it under `replace:`",
            "`set:` gives '{dotted}' {value}, but the base has {old} there"),
    "replace": (True, "'{dotted}' is {old}; `replace:` swaps a whole entry",
                "to change a single value, write it under `set:`",
                "`replace:` needs a whole entry (a mapping) for '{dotted}', not {value}"),
}
_KINDS: dict[str | None, str] = {"object": "an entry (a mapping)", "array": "a list", "string": "a text",
                                 "null": "nothing"}


def _kind(v: Any) -> str:
    """What a message calls a value of the spec: an entry, a list, a text, nothing, or (else) a value."""
    return _KINDS.get(json_type(v), "a value")


class _Merge:
    def __init__(self, base: Document, var: Document):
        self.base = base
        self.var = var
        self.data = copy.deepcopy(base.data)
        self.where: dict[Path, Located] = dict(base.where)
        self.joins = {k: list(v) for k, v in base.joins.items()}
        self.errors: list[Diagnostic] = []
        self.touched: dict[Path, Span | None] = {}
        self.removed: dict[tuple[Path, str], Span | None] = {}  # (parent, key or item name) -> where

    # -- reporting -----------------------------------------------------------
    def error(self, code: str, msg: str, at: Path, hint: str | None = None, note: str | None = None,
              key: bool = True) -> None:
        self.errors.append(Diagnostic(code, msg, self.var.span(at, key=key), hint=hint, note=note))

    def base_note(self, path: Path) -> str | None:
        s = self.where.get(path)
        span = (s.key or s.value) if s else None
        return f"the base gives it at {span.path}:{span.line}:{span.col}" if span else None

    # -- positions -------------------------------------------------------------
    def _drop(self, target: Path) -> None:
        """Forget the positions of everything at and below `target`."""
        n = len(target)
        for table in (self.where, self.joins):
            for p in [p for p in table if p[:n] == target]:
                del table[p]

    def _graft(self, vprefix: Path, target: Path) -> None:
        """Positions of the variant's text at `vprefix` now describe `target` in the result."""
        n = len(vprefix)
        for p, loc in self.var.where.items():
            if p[:n] == vprefix:
                self.where[target + p[n:]] = loc
        for p, pieces in self.var.joins.items():
            if p[:n] == vprefix:
                self.joins[target + p[n:]] = list(pieces)

    def _shift(self, parent: Path, index: int) -> None:
        """A list item at parent[index] was removed: the items after it move up one."""
        n = len(parent)
        for table in (self.where, self.joins):
            moved = {}
            for p in list(table):
                if p[:n] == parent and len(p) > n and isinstance(p[n], int) and p[n] > index:
                    moved[p[:n] + (p[n] - 1,) + p[n + 1:]] = table.pop(p)
            table.update(moved)

    # -- paths -------------------------------------------------------------------
    def resolve(self, dotted: Any, at: Path) -> Path | None:
        """The concrete path that `a.b.0.c` names in the merged data, or None (reported)."""
        if not isinstance(dotted, str) or not dotted or any(not s for s in dotted.split(".")):
            self.error("E113", f"'{dotted}' is not a path", at, hint="write keys joined by dots: `options.win_chips.default`")
            return None
        node: Any = self.data
        path: Path = ()
        for seg in dotted.split("."):
            gone = self.removed.get((path, seg))
            if gone is not None or (path, seg) in self.removed:
                self.error("E111", f"'{_show(path + (seg,))}' is removed by this variant", at,
                           note=f"removed at line {gone.line}" if gone else None)
                return None
            if isinstance(node, dict):
                key = seg if seg in node else next((k for k in node if str(k) == seg), None)
                if key is None:
                    cands = [str(k) for k in node]
                    where = f"in {_show(path)}" if path else "at the top of the spec"
                    self.error("E110", f"the base has no '{seg}' {where}", at,
                               hint=did_you_mean(seg, cands) or (f"there: {', '.join(cands)}" if cands else None))
                    return None
                path += (key,)
                node = node[key]
            elif isinstance(node, list):
                if seg.isdigit():
                    i = int(seg)
                    if i >= len(node):
                        self.error("E110", f"{_show(path)} has {len(node)} item(s), no item {i} (counted from 0)", at)
                        return None
                else:
                    names = [x.get("name") for x in node if isinstance(x, dict)]
                    if seg not in names:
                        cands = [str(n) for n in names if n is not None]
                        self.error("E110", f"{_show(path)} has no item named '{seg}'", at,
                                   hint=did_you_mean(seg, cands) or (f"items: {', '.join(cands)}" if cands else None))
                        return None
                    i = names.index(seg)
                path += (i,)
                node = node[i]
            else:
                self.error("E110", f"{_show(path)} is {_kind(node)}, it has no '{seg}'", at)
                return None
        return path

    def get(self, path: Path) -> Any:
        return value_at(self.data, path)

    def put(self, path: Path, value: Any) -> None:
        self.get(path[:-1])[path[-1]] = value

    def claim(self, path: Path, at: Path) -> bool:
        """Each path may be changed once; and not below or above another change."""
        for p, span in self.touched.items():
            if p[:len(path)] == path or path[:len(p)] == p:
                self.error("E111", f"'{_show(path)}' is changed twice in this variant", at,
                           note=f"also changed at line {span.line}" if span else None)
                return False
        self.touched[path] = self.var.span(at, key=True)
        return True

    # -- the verbs -----------------------------------------------------------------
    def add(self, vpath: Path, value: Any, into: dict, path: Path) -> None:
        key = path[-1]
        if key not in into:
            into[key] = copy.deepcopy(value)
            self._graft(vpath, path)
            return
        old = into[key]
        if isinstance(old, dict) and isinstance(value, dict):
            for k, v in value.items():
                self.add(vpath + (k,), v, old, path + (k,))
            return
        verb = "replace" if isinstance(old, dict) else "set"
        self.error("E111", f"'{_show(path)}' is already in the base", vpath,
                   hint=f"to change it, write it under `{verb}:` as `{_show(path)}`",
                   note=self.base_note(path))

    def entries(self, verb: str) -> list[tuple[Any, Any, Path]]:
        table = self.var.data.get(verb)
        if table is None:
            return []
        if not isinstance(table, dict):
            self.error("E113", f"`{verb}:` takes a mapping of PATH: VALUE", (verb,),
                       hint=f"for example:\n  {verb}:\n    options.win_chips.default: 3" if verb == "set" else None)
            return []
        return [(k, v, (verb, k)) for k, v in table.items()]

    def targets(self, verb: str) -> Iterator[tuple[Any, Any, Path, Path, Any]]:
        """The entries of `verb:` whose path names a place in the base that no other change claims:
        (the dotted path as written, the variant's value, where it is written, the path, the base's value)."""
        for dotted, value, at in self.entries(verb):
            path = self.resolve(dotted, at)
            if path is not None and self.claim(path, at):
                yield dotted, value, at, path, self.get(path)

    def swap(self, verb: str) -> None:
        """`set:` (a single value) or `replace:` (a whole entry): the variant's value takes the base's place,
        when both are of the form the verb swaps."""
        whole, base_is_other, hint, value_is_other = _SWAPS[verb]
        for dotted, value, at, path, old in self.targets(verb):
            words = {"dotted": dotted, "old": _kind(old), "value": _kind(value)}
            if isinstance(old, dict) != whole:
                self.error("E112", base_is_other.format(**words), at, hint=hint)
            elif isinstance(value, dict) != whole:
                self.error("E112", value_is_other.format(**words), at, key=False)
            else:
                self._drop(path)
                self.put(path, copy.deepcopy(value))
                self._graft(at, path)

    def join(self, verb: str) -> None:
        for dotted, value, at, path, old in self.targets(verb):
            if not isinstance(old, str) or not isinstance(value, str):
                bad = old if not isinstance(old, str) else value
                where = f"'{dotted}' in the base" if bad is old else "the text to add"
                self.error("E112", f"`{verb}:` joins rule text, but {where} is {_kind(bad)}", at,
                           key=bad is old)
                continue
            mine = (self.var.where[at], value)
            pieces = self.joins.get(path) or [(self.where[path], old)]
            pieces = pieces + [mine] if verb == "append" else [mine] + pieces
            self.joins[path] = pieces
            self.put(path, "\n".join(p.rstrip("\n") for _, p in pieces) + "\n")

    def remove(self) -> None:
        items = self.var.data.get("remove")
        if items is None:
            return
        if isinstance(items, str):
            items = [items]
            ats = [("remove",)]
        elif isinstance(items, list):
            ats = [("remove", i) for i in range(len(items))]
        else:
            self.error("E113", "`remove:` takes a list of paths", ("remove",))
            return
        found = []
        for dotted, at in zip(items, ats):
            path = self.resolve(dotted, at)
            if path is not None and self.claim(path, at):
                found.append((path, at))
        # Deepest and last list items first, so earlier positions stay valid.
        for path, at in sorted(found, key=lambda pa: (len(pa[0]), pa[0][-1] if isinstance(pa[0][-1], int) else -1),
                               reverse=True):
            parent = self.get(path[:-1])
            item = parent[path[-1]]
            name = item.get("name") if isinstance(parent, list) and isinstance(item, dict) else path[-1]
            self.removed[(path[:-1], str(name))] = self.var.span(at, key=True)
            self._drop(path)
            if isinstance(parent, list):
                del parent[path[-1]]
                self._shift(path[:-1], path[-1])
            else:
                del parent[path[-1]]

    def run(self) -> Document:
        v = self.var.data
        self.remove()
        for k, value in v.items():
            if k in VERBS or k in IGNORED:
                continue
            self.add((k,), value, self.data, (k,))
        self.swap("set")
        self.swap("replace")
        self.join("append")
        self.join("prepend")
        if self.errors:
            raise SpecError(self.errors)
        if self.var.where.get(()):
            self.where[()] = self.var.where[()]
        return Document(self.var.path, self.var.source, self.data, self.where,
                        {**self.base.sources, **self.var.sources}, self.joins)


def merge(base: Document, variant: Document) -> Document:
    """The variant applied to its base: one Document whose positions point into both files."""
    if not isinstance(variant.data, dict):
        raise SpecError([Diagnostic("E113", "a variant is a mapping that starts with `extends:`",
                                    variant.span(()))])
    if not isinstance(base.data, dict):
        raise SpecError([Diagnostic("E113", "the base spec is not a mapping", base.span(()))])
    return _Merge(base, variant).run()
