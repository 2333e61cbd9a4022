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
# Earlier stages first. A module may import its own stage and earlier ones. The faces share a rank, none of
# them is imported by a stage, and none imports another (test_no_face_leans_on_another).
ORDER = ["spec", "lang", "lower", "compile", "runtime", "agents", "kernel", "lab", "api", "faces"]
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


# --- Modules, not only stages: no circles, no face leaning on another, no very long module without a reason ---

MODULE_NAMES = {module_name(p) for p in MODULES}
# The faces that may be started from the command line, and only lazily (inside the command that starts them).
LAUNCHERS = {"interpreter.web.server", "interpreter.lsp.server"}
LONG = 600  # lines; a module over this says why in its docstring, in a paragraph opening with one of LONG_BECAUSE
LONG_BECAUSE = (f"Over {LONG} lines because", "Why it is one long module:")

# Cases allowed while they are being opened, each named here in plain sight; empty since the modules were split
# by concern. An entry that no longer holds fails too, so that it is struck off.
CIRCLES_ALLOWED: set[frozenset[str]] = set()
FACE_IMPORTS_ALLOWED: set[tuple[str, str]] = set()
LONG_ALLOWED: set[str] = set()


def short(module: str) -> str:
    return module.removeprefix("interpreter.")


def module_imports(path: pathlib.Path) -> list[tuple[int, str, bool]]:
    """(line, module, lazy) for every in-package module this file imports, resolved to a module file:
    `from .x import y` is x unless y is itself a module; `if TYPE_CHECKING:` imports count like any other;
    lazy = inside a function."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    return module_imports_in(path.read_text(encoding="utf-8"), package, MODULE_NAMES)


def module_imports_in(source: str, package: str, known: set[str]) -> list[tuple[int, str, bool]]:
    out = []

    def visit(node: ast.AST, lazy: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                out.extend((child.lineno, a.name, inner) for a in child.names
                           if a.name.split(".")[0] == "interpreter")
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - child.level + 1]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if target.split(".")[0] == "interpreter":
                    for a in child.names:
                        sub = f"{target}.{a.name}"
                        out.append((child.lineno, sub if sub in known else target, inner))
            visit(child, inner)

    visit(ast.parse(source), False)
    return out


def import_graph() -> dict[str, dict[str, int]]:
    """module -> {module it imports: the first line that does}; a package's __init__ is the package's name."""
    graph: dict[str, dict[str, int]] = {}
    for path in MODULES:
        here = module_name(path)
        graph[here] = {}
        for line, target, _ in module_imports(path):
            if target != here and target in MODULE_NAMES:
                graph[here].setdefault(target, line)
    return graph


def circles(graph: dict[str, dict[str, int]] | dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


def test_no_module_imports_one_that_imports_it_back():
    graph = import_graph()
    paths = {module_name(p): p for p in MODULES}
    found = {frozenset(short(m) for m in c): c for c in circles(graph)}
    new = []
    for key, members in found.items():
        if key not in CIRCLES_ALLOWED:
            ties = [f"  {paths[m].relative_to(PACKAGE.parent)}:{line}: imports {short(t)}"
                    for m in sorted(members) for t, line in sorted(graph[m].items()) if t in members]
            new.append(f"{', '.join(sorted(key))}:\n" + "\n".join(ties))
    assert not new, "modules that import each other (directly or round a longer loop):\n" + "\n".join(new)
    stale = CIRCLES_ALLOWED - set(found)
    assert not stale, f"circles no longer there: strike them from CIRCLES_ALLOWED: {sorted(map(sorted, stale))}"


def test_no_face_leans_on_another():
    """Faces stand side by side: the command line may start the table and the language server, nothing more."""
    leaning, seen = [], set()
    for path in MODULES:
        here = module_name(path)
        if stage_of(here) != "faces":
            continue
        for line, target, lazy in module_imports(path):
            if stage_of(target) != "faces" or face_of(target) == face_of(here):
                continue
            if face_of(here) == "cli" and target in LAUNCHERS and lazy:
                continue
            seen.add((short(here), short(target)))
            if (short(here), short(target)) not in FACE_IMPORTS_ALLOWED:
                leaning.append(f"{path.relative_to(PACKAGE.parent)}:{line}: imports {target}")
    assert not leaning, "a face imports another face (shared code belongs below the faces):\n" + "\n".join(leaning)
    stale = FACE_IMPORTS_ALLOWED - seen
    assert not stale, f"no longer imported: strike them from FACE_IMPORTS_ALLOWED: {sorted(stale)}"


def face_of(module: str) -> str:
    return module.split(".")[1]


def test_long_modules_say_why():
    long, seen = [], set()
    for path in MODULES:
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines <= LONG:
            continue
        doc = ast.get_docstring(ast.parse(text)) or ""
        if any(p.strip().startswith(LONG_BECAUSE) for p in doc.split("\n\n")):
            continue
        seen.add(short(module_name(path)))
        if short(module_name(path)) not in LONG_ALLOWED:
            long.append(f"{path.relative_to(PACKAGE.parent)}: {lines} lines")
    assert not long, (f"modules over {LONG} lines: split them by concern, or say why in a docstring paragraph "
                      f"opening with {' or '.join(map(repr, LONG_BECAUSE))}:\n" + "\n".join(long))
    stale = LONG_ALLOWED - seen
    assert not stale, f"no longer over {LONG} lines (or now say why): strike them from LONG_ALLOWED: {sorted(stale)}"


def test_the_module_checks_can_fail():
    """Circles of any length are found, lone loops are not circles, and guarded and lazy imports are seen."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": {"d"}, "f": {"f", "a"}}
    assert sorted(map(sorted, circles(graph))) == [["a", "b", "c"], ["d", "e"]]
    known = {"interpreter.runtime.engine", "interpreter.runtime.redact", "interpreter.web.server"}
    src = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .engine import Game\n"
           "from . import redact\ndef f():\n    from ..web.server import serve\n")
    assert module_imports_in(src, "interpreter.runtime", known) == [
        (3, "interpreter.runtime.engine", False), (4, "interpreter.runtime.redact", False),
        (6, "interpreter.web.server", True)]
