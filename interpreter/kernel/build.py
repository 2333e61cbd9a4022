"""Building a kernel: the generated module written to a disk cache and imported, so numba caches it too.

Owns the cache directory (`$RULEWRIGHT_CACHE/kernels`, else `$XDG_CACHE_HOME/rulewright/kernels`, else
`~/.cache/rulewright/kernels`), the file name (a hash of the generated source, which is a function of the
lowered game alone, with the kernel's, numba's and Python's versions), and importing the module once per
process. A second process finds both the source and numba's compiled functions (`__pycache__` beside it)
and starts its first game without compiling.

The file is written whole under a temporary name and renamed, so a reader never sees half a module.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import pathlib
import sys
import tempfile
from types import ModuleType

from .emit import VERSION

_loaded: dict[str, ModuleType] = {}


def cache_dir() -> pathlib.Path:
    root = os.environ.get("RULEWRIGHT_CACHE")
    if root:
        base = pathlib.Path(root)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = (pathlib.Path(xdg) if xdg else pathlib.Path.home() / ".cache") / "rulewright"
    return base / "kernels"


def key_of(source: str) -> str:
    import numba
    stamp = f"{VERSION}|{numba.__version__}|{sys.version_info[:3]}|".encode()
    return hashlib.sha256(stamp + source.encode()).hexdigest()[:24]


def is_cached(source: str) -> bool:
    """Whether numba's compiled functions of this kernel are on disk already (no compiling on first use)."""
    key = key_of(source)
    found = cache_dir() / "__pycache__"
    return found.is_dir() and any(p.name.startswith(f"k_{key}.") for p in found.iterdir())


def load_module(source: str) -> ModuleType:
    """The kernel module of this source: written to the cache (once) and imported (once per process)."""
    key = key_of(source)
    if key in _loaded:
        return _loaded[key]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"k_{key}.py"
    if not path.exists() or path.read_text(encoding="utf-8") != source:
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(source)
        os.replace(tmp, path)
    name = f"rulewright_kernel_{key}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)  # the generator's own text (emit.py): numbers, never spec text
    _loaded[key] = module
    return module
