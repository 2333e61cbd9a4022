"""The commands about one spec file: `check`, `test` (its examples), `upgrade`, `explain`.

Owns their arguments and output: diagnostics (a kept verdict for a clean
spec, verdicts.py), the merged YAML of `check --merged`, the examples'
results, the upgraded text or its diff, and the plain-words explanation.
"""
from __future__ import annotations

import os
import sys
from typing import Any

import click

from .. import api
from . import verdicts
from ..spec.diagnostics import Severity, SourceCache, render
from .common import Failed, _checked_spec, _show_diagnostics, err, out, seed_opt
from .measure import _lab_progress


@click.command()
@click.argument("specs", nargs=-1, required=True)
@click.option("--no-warnings", is_flag=True, help="Show errors only.")
@click.option("--merged", is_flag=True, help="Print the spec after `extends:` is resolved (YAML).")
def check(specs: tuple[str, ...], no_warnings: bool, merged: bool) -> None:
    """Validate specs: exit 0 if clean, 1 if any has errors."""
    bad = 0
    for path in specs:
        if not os.path.exists(path):
            err.print(f"error: {path}: no such file", markup=False)
            bad += 1
            continue
        spec, diags = api.check_spec(path)
        _show_diagnostics(diags, warnings=not no_warnings)
        errors = sum(d.severity is Severity.ERROR for d in diags)
        warns = len(diags) - errors
        if errors:
            bad += 1
            err.print(f"{path}: {errors} error(s), {warns} warning(s)", markup=False)
        else:
            out.print(f"{path}: ok ({spec.name}, {warns} warning(s))", markup=False)
            sources = SourceCache()
            verdicts.remember(path, list(spec.doc.sources), spec.name, [render(d, sources) for d in diags])
            if merged:
                out.print(_dump_yaml(spec.doc.data), markup=False)
    if bad:
        sys.exit(1)


def _dump_yaml(data: Any) -> str:
    """YAML as a person writes it: rule text as `|` blocks, keys in the spec's order."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper, value: str):
        style = "|" if "\n" in value and all(not ln.endswith(" ") for ln in value.split("\n")) else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)
    Dumper.add_representer(str, text)
    return yaml.dump(data, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=100)


@click.command("test")
@click.argument("specs", nargs=-1, required=True)
def test_cmd(specs: tuple[str, ...]) -> None:
    """Run the spec's examples (the rulebook's worked examples and checkable statements)."""
    from ..runtime.scenarios import run_examples
    failed = 0
    total = 0
    for path in specs:
        spec = _checked_spec(path)
        for o in run_examples(spec):
            _show_diagnostics([x.diagnostic(spec) for x in o.legacy], warnings=True)
            total += 1
            mark = "[green]pass[/green]" if o.ok else "[red]FAIL[/red]"
            out.print(f"{mark} {spec.name}: {o.name}")
            if not o.ok:
                failed += 1
                out.print(f"     {o.message}", markup=False)
                if o.rule:
                    out.print(f"     rule: \"{o.rule}\"", markup=False)
    out.print(f"{total - failed} passed, {failed} failed", markup=False)
    if failed:
        sys.exit(1)


@click.command()
@click.argument("spec")
@click.option("--diff", "show_diff", is_flag=True, help="Print the changes as a unified diff and write nothing.")
def upgrade(spec: str, show_diff: bool) -> None:
    """Rewrite a spec for the current language version, proven by running its examples again."""
    import difflib
    from ..runtime.upgrade import UpgradeError, upgrade as do_upgrade, write
    if not os.path.exists(spec):
        raise Failed(f"{spec}: no such file")
    try:
        up = do_upgrade(spec)
    except UpgradeError as exc:
        raise Failed(f"{spec}: {exc}") from None
    for line in up.changes:
        out.print(line, markup=False)
    if not up.changed:
        out.print(f"{spec}: already written for the current language; nothing to change", markup=False)
        return
    if show_diff:
        out.print("".join(difflib.unified_diff(up.before.splitlines(True), up.after.splitlines(True), spec, spec)),
                  markup=False, end="")
        return
    write(up)
    out.print(f"{spec}: upgraded; its {up.examples} example(s) were run again and pass as before", markup=False)


@click.command()
@click.argument("spec")
@click.option("--measure", is_flag=True, help="Also measure every ambiguity (the lab) and show its verdict.")
@click.option("--players", "-p", type=click.IntRange(1, 16), default=None, help="Players for --measure.")
@click.option("--games", "-g", type=click.IntRange(10), default=500, show_default=True, help="Games for --measure.")
@seed_opt
def explain(spec: str, measure: bool, players: int | None, games: int, seed: int) -> None:
    """The spec as readable rules (Markdown), each beside the rulebook sentence it encodes, and which
    rulebook paragraphs no rule encodes."""
    from ..lab.explain import explain as do_explain
    s = _checked_spec(spec)
    verdicts = None
    if measure and s.ambiguities:
        from ..lab.ambiguities import ambiguity_lab
        n = players or max(s.min_players, 2)
        progress, update = _lab_progress("measuring")
        with progress:
            rep = ambiguity_lab(spec, n, games, seed, progress=update)
        verdicts = {a.name: (a.verdict, {r.interpretation: r.verdict for r in a.readings}) for a in rep.ambiguities}
    click.echo(do_explain(s, verdicts))
