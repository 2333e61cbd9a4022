"""The verdicts of clean checks, kept on disk so an unchanged spec is not checked again.

Owns: the verdict cache of `rulewright check`. A spec that checked clean is
remembered under the hash of its text, the interpreter that checked it, and
every file it was built from (its `extends:` bases), and the allow-list
(RULEWRIGHT_ALLOW) it was checked under. Files are read as spec/files.py reads
them (bounded, regular files only: a 700 MB file is never read whole). Standard
library only (and spec/cache.py and spec/files.py, themselves standard library only): `launch` reads these verdicts
before anything heavy is imported, and `commands` writes them after a full check.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import tempfile

from ..spec import files
from ..spec.cache import cache_folder

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_VERSION = 1  # bump when the format of a verdict changes
_LIBRARIES = ("yaml", "jsonschema", "referencing", "lark")  # what the check runs on besides Rulewright


def interpreter_key() -> str:
    """Changes whenever the checker could answer differently: its sources, grammar, schema, libraries, Python."""
    h = hashlib.sha256(f"{_VERSION} {sys.version}".encode())
    for lib in _LIBRARIES:  # an upgraded library may word a message differently (found, not imported)
        spec = importlib.util.find_spec(lib)
        st = os.stat(spec.origin) if spec is not None and spec.origin else None
        h.update(f"{lib} {st and st.st_size} {st and st.st_mtime_ns}\n".encode())
    for sub in ("interpreter", "grammar", "schema"):
        top = os.path.join(_ROOT, sub)
        for folder, dirs, names in os.walk(top):  # the interpreter is a tree of stage packages
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(names):
                if not name.endswith((".py", ".lark", ".json")):
                    continue
                st = os.stat(os.path.join(folder, name))
                rel = os.path.relpath(os.path.join(folder, name), _ROOT)
                h.update(f"{rel} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _digest(path: str) -> str:
    return files.digest(path)  # bounded, regular files only: a 700 MB file or a FIFO is Refused (an OSError)


def _entry(path: str, interpreter: str) -> str:
    # The allow-list decides which bases may be read: a verdict holds for the list it was given under.
    allow = os.environ.get(files.ALLOW_ENV, "")
    key = hashlib.sha256(f"{interpreter} {os.path.abspath(path)} {_digest(path)} {allow}".encode()).hexdigest()[:32]
    return os.path.join(cache_folder(), f"verdict-{key}.json")


def remember(path: str, sources: list[str], name: str, warnings: list[str]) -> None:
    """Keep the verdict of a clean check of `path` (built from `sources`, with these rendered warnings)."""
    try:
        verdict = {"name": name, "warnings": warnings, "sources": {s: _digest(s) for s in sources}}
        target = _entry(path, interpreter_key())
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(verdict, fh)
        os.replace(tmp, target)
    except (OSError, ValueError):
        pass  # a verdict that cannot be kept only costs time next run


def recall(path: str, interpreter: str) -> dict | None:
    """The kept verdict of `path` if neither it, its bases nor the interpreter changed since."""
    try:
        with open(_entry(path, interpreter), encoding="utf-8") as fh:
            verdict = json.load(fh)
        if all(_digest(s) == d for s, d in verdict["sources"].items()):
            return verdict
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return None
