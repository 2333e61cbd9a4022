"""The package shows the pipeline: one folder per stage, imports running downward only.

Walks every module of `interpreter/` with `ast` (top-level and lazy imports alike, relative and
absolute) and fails on an import of a later stage. The order is the one the package docstring gives.
"""
from __future__ import annotations

import ast
import pathlib

import pytest

import interpreter

PACKAGE = pathlib.Path(interpreter.__file__).parent
# Earlier stages first. A module may import its own stage and earlier ones. The faces share a rank:
# each may use another's helpers (the web table may narrate), but none of them is imported by a stage.
ORDER = ["spec", "lang", "lower", "compile", "runtime", "kernel", "agents", "lab", "api", "faces"]
FACES = {"cli", "pettingzoo_env", "web", "lsp"}


def stage_of(module: str) -> str:
    """The stage of a dotted module name inside the package ('interpreter.lang.checker' -> 'lang')."""
    parts = module.split(".")
    assert parts[0] == "interpreter", module
    if len(parts) == 1:
        return "root"
    return "faces" if parts[1] in FACES else parts[1]


def module_name(path: pathlib.Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: pathlib.Path) -> list[tuple[int, str]]:
    """Every in-package module this file imports, anywhere in it (lazy imports included)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    return imports_in(path.read_text(encoding="utf-8"), package)


def imports_in(source: str, package: str) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "interpreter"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "interpreter":
                continue
            if node.module is None or target.count(".") == 1 and target.split(".")[1] in ORDER + list(FACES):
                # `from . import x` / `from ..lang import nodes`: the names may be modules
                out += [(node.lineno, f"{target}.{a.name}") for a in node.names]
            else:
                out.append((node.lineno, target))
    return out


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_is_in_a_stage():
    loose = [module_name(p) for p in MODULES if stage_of(module_name(p)) not in ORDER + ["root"]]
    assert not loose, f"modules outside the stages {ORDER}: {loose}"


def test_every_stage_says_what_it_owns():
    for folder in sorted(p for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"):
        init = folder / "__init__.py"
        assert init.exists(), f"{folder.name}/ has no __init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and "import" in doc, f"{folder.name}/__init__.py must say what it owns and may import"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_imports_run_downward(path):
    here = stage_of(module_name(path))
    assert here != "root" or path.name == "__init__.py"
    upward = []
    for line, target in imports(path):
        there = stage_of(target)
        if there == "root":
            continue
        if here == "root" or ORDER.index(there) > ORDER.index(here):
            upward.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {here} imports {target} ({there})")
    assert not upward, "imports must run downward only:\n" + "\n".join(upward)


def test_the_walk_sees_upward_imports():
    """The check itself can fail: lazy relative imports of later stages are found and ranked."""
    found = [t for _, t in imports(PACKAGE / "lang" / "checker.py")]
    assert "interpreter.spec.diagnostics" in found and "interpreter.lang.nodes" in found
    src = "def f():\n    from ..lab.runner import play\n    from .. import api\n    import interpreter.cli.commands\n"
    targets = [stage_of(t) for _, t in imports_in(src, "interpreter.lang")]
    assert targets == ["lab", "api", "faces"]
    assert all(ORDER.index(t) > ORDER.index("lang") for t in targets)
