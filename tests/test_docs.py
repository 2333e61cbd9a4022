"""The documentation site: every snippet checks, the reference covers the code, the strict build passes.

- Snippet rule (HELPERS.md): every ```yaml block under docs/ is a complete spec, or a variant whose
  `extends:` path is relative to the repository root, and passes `rulewright check`; a block whose
  first line is `# expect: E123` must fail with that code. Blocks are checked in memory, as the
  spec at the repository root would be (pipeline.analyse with a path there).
- The generated reference (docs/hooks/reference.py) is committed under docs/reference/ and current
  (`python docs/hooks/reference.py` regenerates it); it covers every field of the schema, every
  statement and expression of the grammar, every builtin, and every diagnostic code that
  interpreter/ can emit, and no spec field is left without a meaning; each diagnostic's bad snippet
  produces its code and the fixed one does not.
- `mkdocs build --strict` passes (warnings are errors).
"""
from __future__ import annotations

import glob
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

import pytest

from interpreter.runtime.pipeline import analyse
from interpreter.spec.diagnostics import Severity

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")


def _hook():
    spec = importlib.util.spec_from_file_location("docs_reference_hook", os.path.join(DOCS, "hooks", "reference.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


R = _hook()


def yaml_blocks(markdown: str) -> list[tuple[int, str]]:
    """(line, text) of every ```yaml fenced block, indented ones (in admonitions) too."""
    out = []
    lines = markdown.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```yaml\s*$", lines[i])
        if m:
            pad, start, body = m.group(1), i + 1, []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i][len(pad):] if lines[i].startswith(pad) else lines[i].lstrip())
                i += 1
            out.append((start, "\n".join(body) + "\n"))
        i += 1
    return out


def check_text(text: str) -> list:
    """The diagnostics of `text` checked as a spec at the repository root (so `extends:` paths are from there)."""
    return analyse(os.path.join(ROOT, "snippet.yaml"), text).diagnostics


def _pages() -> list[tuple[str, str]]:
    pages = [(os.path.relpath(p, ROOT), open(p, encoding="utf-8").read())
             for p in sorted(glob.glob(os.path.join(DOCS, "**", "*.md"), recursive=True))]
    return pages  # the generated reference pages are among them: committed, and current (below)


SNIPPETS = [(f"{path}:{line}", text) for path, page in _pages() for line, text in yaml_blocks(page)]


@pytest.mark.parametrize("where, text", SNIPPETS, ids=[w for w, _ in SNIPPETS])
def test_every_yaml_snippet_checks(where, text):
    first = text.splitlines()[0] if text.strip() else ""
    m = re.match(r"#\s*expect:\s*([EW]\d{3})", first)
    code = m.group(1) if m else None
    if code is not None and R.diagnostics().get(code, {}).get("stage") in ("run", "lint"):
        pytest.skip("a run-time or lint finding: test_diagnostic_snippets plays it")
    diags = check_text(text)
    errors = [f"{d.code} {d.span.line if d.span else ''}: {d.message}" for d in diags if d.severity is Severity.ERROR]
    if code is None:
        assert not errors, f"{where}: the snippet does not check:\n" + "\n".join(errors)
    else:
        assert code in [d.code for d in diags], f"{where}: expected {code}, got {[d.code for d in diags]}"


def test_docs_have_snippets():
    assert len(SNIPPETS) > 100  # the tutorial, cookbook and diagnostics pages


CHECKED = [(w, t) for w, t in SNIPPETS if not re.match(r"#\s*expect:", t) and "examples:" in t]


@pytest.mark.parametrize("where, text", CHECKED, ids=[w for w, _ in CHECKED])
def test_examples_in_snippets_pass(where, text):
    """A snippet that shows `examples:` shows ones that pass (`rulewright test`)."""
    from interpreter.runtime.scenarios import run_examples
    a = analyse(os.path.join(ROOT, "snippet.yaml"), text)
    assert a.ok
    failed = [(o.name, o.message) for o in run_examples(a.spec) if not o.ok]
    assert not failed, f"{where}: {failed}"


PLAYED = [(w, t) for w, t in SNIPPETS if not re.match(r"#\s*expect:", t)
          and (w.startswith("docs/cookbook/") or w.startswith("docs/tutorial.md"))]


@pytest.mark.parametrize("where, text", PLAYED, ids=[w for w, _ in PLAYED])
def test_cookbook_games_play_without_errors(where, text):
    """The recipes are games that run: 20 random games each, none stopped by a rule error."""
    from interpreter.lab.runner import play
    from interpreter.runtime.engine import Status
    from interpreter.runtime.pipeline import compile_game
    a = analyse(os.path.join(ROOT, "snippet.yaml"), text)
    assert a.ok
    game = compile_game(a.spec, budget=20_000)
    for seed in range(20):
        st = play(game, a.spec.min_players, seed, check=True)
        assert st.status is not Status.ERROR, f"{where}: seed {seed}: {st.reason}"


# -- the reference covers the code ----------------------------------------------------------------
def _schema_keys() -> set[str]:
    """Every property name the schema declares, found by a plain walk (not the hook's)."""
    import json
    keys: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.get("properties", {}).items():
                keys.add(k)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(json.load(open(os.path.join(ROOT, "schema", "spec.schema.json"), encoding="utf-8")))
    return keys


def test_generated_reference_is_committed_and_current():
    stale = R.stale()
    assert not stale, f"{stale}: out of date with their sources; run `python docs/hooks/reference.py` and commit them"


def _spec_rows() -> list[tuple[str, str]]:
    rows = []
    for ln in R.spec_page().splitlines():
        cells = [c.strip() for c in ln.split("|")[1:-1]]
        if len(cells) == 4 and cells[0].startswith("`"):
            rows.append((cells[0].strip("`"), cells[3]))
    return rows


def test_every_spec_field_has_a_meaning():
    """No entry is empty, a bare default, or a placeholder; a variable's start value is not a turn's start."""
    rows = _spec_rows()
    assert len(rows) >= 100
    empty = [p for p, d in rows if not d or d.startswith("Default:") or d.rstrip(".") in ("Rule text", "Rules-language text")]
    assert not empty, f"spec fields without a meaning (add one to docs/reference/fields.yaml): {empty}"
    wrong = [p for p, d in rows if "value at the start" in d and not p.startswith("state.")]
    assert not wrong, f"these fields carry a variable's start-value text: {wrong}"
    meaning = dict(rows)
    assert "random" in meaning["flow.first"] and "Default" in meaning["flow.first"]
    assert "default 1" in meaning["flow.phases[].repeat"] and "last phase is done" in meaning["flow.phases[].repeat"]
    assert "always" in meaning["end.check"] and "before every decision" in meaning["end.check"]


def test_spec_reference_covers_every_schema_field():
    page = R.spec_page()
    documented = set(re.findall(r"`([^`]+)`", page))
    names = {seg for path in documented for seg in re.split(r"[.\[\]]+", path) if seg}
    missing = sorted(k for k in _schema_keys() if k not in names)
    assert not missing, f"schema fields missing from the spec reference: {missing}"
    assert len(list(R.spec_fields())) >= 100


def _grammar() -> str:
    return open(os.path.join(ROOT, "grammar", "rules.lark"), encoding="utf-8").read()


def test_language_reference_covers_every_statement_and_expression():
    g = _grammar()
    stmts = set()
    for holder in ("simple_stmt", "compound_stmt"):
        body = re.search(rf"^\?{holder}:(.*?)(?=^\S|\Z)", g, re.S | re.M).group(1)
        stmts |= set(re.findall(r"[a-z_]+", body))
    exprs = set(re.findall(r"->\s*([a-z_]+)", g)) - {"option_for"}  # `option for` is part of choose_option
    lang = R._language()
    missing = sorted(s for s in stmts if s not in lang["statements"]) + \
        sorted(e for e in exprs if e not in lang["expressions"])
    assert not missing, f"add these grammar rules to docs/reference/language.yaml: {missing}"
    page = R.language_page()
    for name in stmts | exprs:
        assert f"### `{name.rstrip('_')}`" in page, name
    assert "option for" in lang["statements"]["choose_option"]["example"]


LANG_EXAMPLES = [(f"{sec}.{name}", e["example"]) for sec, table in R._language().items() for name, e in table.items()]


@pytest.mark.parametrize("name, body", LANG_EXAMPLES, ids=[n for n, _ in LANG_EXAMPLES])
def test_language_examples_check(name, body):
    """Each example is rule text that checks, as a procedure of docs/examples/minimal.yaml."""
    text = (f"extends: {R.MINIMAL}\nprocedures:\n  example:\n    do: |\n"
            + "".join(f"      {ln}\n" for ln in body.splitlines()) + "append:\n  actions.stop.do: example()\n")
    errors = [(d.code, d.message) for d in check_text(text) if d.severity is Severity.ERROR]
    assert not errors, f"{name}: {errors}"


def test_builtins_reference_covers_every_builtin():
    from interpreter.lang.builtins import BUILTINS
    page = R.builtins_page()
    for name, b in BUILTINS.items():
        assert f"## `{name}`" in page and b.example in page and b.doc in page, name


def _codes_in_source() -> set[str]:
    found = set()
    for path in glob.glob(os.path.join(ROOT, "interpreter", "**", "*.py"), recursive=True):
        found |= set(re.findall(r"[\"']([EW]\d{3})[\"']", open(path, encoding="utf-8").read()))
    return found


def test_every_diagnostic_code_is_documented():
    table = R.diagnostics()
    missing = sorted(_codes_in_source() - set(table))
    assert not missing, (f"diagnostic codes with no entry in docs/reference/diagnostics.yaml: {missing} "
                         "(add a title and a bad and a fixed snippet)")
    stale = sorted(set(table) - _codes_in_source())
    assert not stale, f"docs/reference/diagnostics.yaml documents codes the interpreter no longer has: {stale}"
    for code, e in table.items():
        assert e["stage"] in ("check", "run", "lint", "none"), code
        assert (e["stage"] == "none") == ("bad" not in e or e["bad"] is None), code
        if e["stage"] == "none":
            assert e.get("why"), f"{code}: say why no snippet shows it"
    page = R.diagnostics_page()
    assert all(f"### {code}:" in page for code in table)


DIAG = [(code, e) for code, e in R.diagnostics().items() if e["stage"] != "none"]


def _codes(e: dict, text: str) -> tuple[list[str], list]:
    if e["stage"] == "check":
        diags = check_text(text)
        return [d.code for d in diags], diags
    from interpreter.lab.lint import lint
    from interpreter.lab.runner import play
    from interpreter.runtime.faults import locate
    from interpreter.runtime.pipeline import load_game
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "spec.yaml")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        if e.get("rulebook"):  # the rulebook the snippet quotes (its `game.rulebook.source`), beside it
            with open(os.path.join(tmp, "rulebook.txt"), "w", encoding="utf-8") as fh:
                fh.write(e["rulebook"])
        static = analyse(path, text).diagnostics
        if e["stage"] == "run":
            game = load_game(path, budget=e.get("budget", 200_000))
            fault = locate(game, play(game, e["players"], e["seed"]))
            return [d.code for d in static] + ([fault.diagnostic().code] if fault else []), static
        # random players find what these snippets show; careful ones would only add search time
        found = lint(path, e["players"], e["games"], 1, {}, {}, also=())
        return [d.code for d in found], static


@pytest.mark.parametrize("code, entry", DIAG, ids=[c for c, _ in DIAG])
def test_diagnostic_snippets(code, entry):
    """The bad snippet produces its code; the fixed one does not, and has no error at all."""
    bad, _ = _codes(entry, entry["bad"])
    assert code in bad, f"{code}: the bad snippet gives {bad}"
    good, diags = _codes(entry, entry["fixed"])
    assert code not in good, f"{code}: the fixed snippet still gives it"
    assert not [d for d in diags if d.severity is Severity.ERROR], f"{code}: the fixed snippet has errors: {good}"


def test_strict_build(tmp_path):
    """`mkdocs build --strict`: every page builds, every link and anchor resolves, no warning."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
                       cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    for page in ("index.html", "tutorial/index.html", "reference/diagnostics/index.html", "reference/python/index.html",
                 "reference/builtins/index.html", "guides/api/index.html", "guides/cli/index.html"):
        assert (tmp_path / "site" / page).exists(), page
    ref = (tmp_path / "site" / "reference" / "python" / "index.html").read_text(encoding="utf-8")
    assert "Load, check and compile a spec" in ref  # the docstring reference is there
    from interpreter import api
    missing = [name for name in api.__all__ if not re.search(rf'id="interpreter\.[\w.]*\.{name}"', ref)]
    assert not missing, f"public names of interpreter.api missing from docs/reference/python.md: {missing}"
    for member in ("option_count", "script_chance", "chance_left", "winners", "strict"):
        assert member in ref, member
    cli = (tmp_path / "site" / "guides" / "cli" / "index.html").read_text(encoding="utf-8")
    assert "rulewright simulate" in cli and "rulewright lsp" in cli  # the click commands are there


PYTHON = [(f"{path}:{line}", m.group(1)) for path, page in _pages() if path.startswith("docs/guides")
          for line, m in ((page[:m.start()].count("\n") + 1, m) for m in re.finditer(r"```python\n(.*?)```", page, re.S))]


@pytest.mark.parametrize("where, code", PYTHON, ids=[w for w, _ in PYTHON])
def test_python_snippets_run(where, code, monkeypatch):
    monkeypatch.chdir(ROOT)
    exec(compile(code, where, "exec"), {})


def test_field_notes_name_real_fields():
    paths = [p for p, *_ in R.spec_fields()]
    for key in R.field_notes():
        if key.startswith("*."):
            assert any(p.endswith(key[1:]) for p in paths), key
        else:
            assert key in paths, f"docs/reference/fields.yaml: no field {key} in the schema"


JSON_COMMANDS = {
    "simulate": (["simulate", "games/first-in-flight.yaml", "-p", "3", "--games", "20", "--seed", "1", "--json"],
                 "guides/scale.md", "### `simulate --json`"),
    "compare": (["compare", "games/stun.yaml", "games/stun-short.yaml", "-p", "3", "--games", "20", "--seed", "1",
                 "--json"], "guides/lab.md", "### `compare --json`"),
    "ambiguities": (["ambiguities", "games/stun.yaml", "-p", "3", "--games", "10", "--seed", "1", "--json"],
                    "guides/lab.md", "### `ambiguities --json`"),
    "policy lab": (["ambiguities", "games/stun.yaml", "-p", "2", "--games", "10", "--seed", "1", "--agents",
                    "random,first", "--budget", "3000", "--json"], "guides/lab.md", "### `ambiguities --json`"),
}


@pytest.mark.parametrize("name", sorted(JSON_COMMANDS))
def test_every_json_field_is_documented(name):
    """The guides name every field `simulate`, `compare` and `ambiguities` print with --json, nested ones too."""
    import json
    from click.testing import CliRunner
    from interpreter.cli.commands import cli
    argv, page, heading = JSON_COMMANDS[name]
    r = CliRunner().invoke(cli, argv)
    assert r.exit_code == 0, r.output
    keys: set[str] = set()
    named = ("options", "readings", "measures", "stall_reasons", "margins", "agents", "settings", "verdicts")

    def walk(x, parent=""):
        if isinstance(x, dict):
            for k, v in x.items():
                if parent in named or parent == "interpretations":  # names: readings, policies, measures ...
                    if parent == "margins" or parent == "measures":
                        walk(v, "")  # a measure's name is the spec's; its fields are documented
                    continue
                keys.add(k)
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, parent + "[]")  # a list's entries: their fields are documented, not named
    walk(json.loads(r.output))
    assert {"verdict", "differences", "mean"} & keys or name == "simulate", keys
    text = open(os.path.join(DOCS, page), encoding="utf-8").read()
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    if name == "compare":  # a spec's column holds simulate's fields, documented there
        scale = open(os.path.join(DOCS, "guides", "scale.md"), encoding="utf-8").read()
        section += scale.split("### `simulate --json`", 1)[1] + text.split("### `ambiguities --json`", 1)[1]
    missing = sorted(k for k in keys if f"`{k}`" not in section)
    assert not missing, f"{name} --json fields missing from docs/{page} ({heading}): {missing}"
