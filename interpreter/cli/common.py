"""What every command of the command line shares: the consoles, `Failed`, the common options, loading a spec.

Owns the two consoles (`out`, `err`), the error a command ends with
(`Failed`), the options many commands take (`--option`, `--reading`,
`--agent`, `--players`, `--seed`, `--budget`, `--engine`, ...) and their
parsing, showing diagnostics, and loading a checked spec or game; each
module of commands imports it, and it imports none of them.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable

import click
from rich.console import Console

from .. import api
from ..spec.diagnostics import Severity, SourceCache, SpecError, render
from ..runtime.engine import SetupError


# A table piped to a file or another program gets room instead of 80 columns.
# emoji=False: rich would show "spec.yaml:100:7" as "spec.yaml💯7" (":100:" is an emoji code).
out = Console(highlight=False, soft_wrap=True, emoji=False, width=None if sys.stdout.isatty() else 160)


err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


class Failed(click.ClickException):
    """A check failed (exit 1) with a message already shown or short enough to show."""
    exit_code = 1

    def show(self, file=None) -> None:
        if self.message:
            err.print(f"error: {self.message}", markup=False)


def _pairs(values: tuple[str, ...], what: str) -> dict[str, str]:
    outd = {}
    for v in values:
        if "=" not in v:
            raise click.UsageError(f"{what} must be NAME=VALUE, got '{v}'")
        k, _, val = v.partition("=")
        outd[k.strip()] = val.strip()
    return outd


def _agents(values: tuple[str, ...], players: int, human: int | None = None) -> dict[int, str]:
    """--agent SEAT=NAME pairs -> {seat (0-based): name}; SEAT `all` sets every seat (but `human`'s)."""
    from ..agents.registry import AgentError, make_agent
    res = {}
    pairs = _pairs(values, "--agent")
    for seat, name in sorted(pairs.items(), key=lambda kv: kv[0] != "all"):
        if seat != "all" and (not seat.isdigit() or not 1 <= int(seat) <= players):
            raise click.UsageError(f"--agent: seat must be 1..{players} or all, got '{seat}'")
        try:
            make_agent(name, 0, 0)
        except AgentError as exc:
            raise click.UsageError(f"--agent: {exc}") from None
        for k in (range(players) if seat == "all" else [int(seat) - 1]):
            if not (seat == "all" and k == human):
                res[k] = name
    return dict(sorted(res.items()))


def _show_diagnostics(diags, warnings: bool = True) -> None:
    cache = SourceCache()
    for d in diags:
        if d.severity is Severity.WARNING and not warnings:
            continue
        err.print(render(d, cache), markup=False)


def _load(path: str, options: dict, readings: dict, budget: int | None = None):
    if not os.path.exists(path):
        raise Failed(f"{path}: no such file")
    try:
        kw = {"budget": budget} if budget else {}
        return api.load_game(path, options, readings, **kw)
    except SpecError as exc:
        _show_diagnostics(exc.diagnostics)
        n = sum(d.severity is Severity.ERROR for d in exc.diagnostics)
        raise Failed(f"{path}: {n} error(s); nothing was run") from None
    except SetupError as exc:
        raise click.UsageError(str(exc)) from None


def _checked_spec(path: str):
    """The checked spec at `path`, or a clean exit 1 with its diagnostics."""
    if not os.path.exists(path):
        raise Failed(f"{path}: no such file")
    try:
        return api.load_spec(path)[0]
    except SpecError as exc:
        _show_diagnostics(exc.diagnostics)
        raise Failed(f"{path}: the spec has errors") from None


option_opt = click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
                          help="Set a game option (repeatable).")


reading_opt = click.option("--reading", "-r", "readings", multiple=True, metavar="AMBIGUITY=INTERPRETATION",
                           help="Choose how an unclear rule is read (repeatable).")


agent_opt = click.option("--agent", "agents", multiple=True, metavar="SEAT=NAME",
                         help="Agent for a seat (1-based, or all): random, first, greedy[:SAMPLES], "
                              "mcts[:ITERATIONS] (or NAME:key=value,...). Default random.")


margin_opt = click.option("--margin", "margins", multiple=True, metavar="MEASURE=MARGIN",
                          help="Margin within which a difference does not matter (repeatable): wins=0.02 (two "
                               "points of a seat's win share; also 2pt), turns=5% (of the default's mean), "
                               "stalled, errors, margin, or a spec measure. Defaults: wins 2pt, turns 5%, "
                               "stalled 0.5pt, errors 0.5pt, margin 10%, spec measures 5%.")


players_opt = click.option("--players", "-p", type=click.IntRange(1, 16), required=True, help="Number of players.")


seed_opt = click.option("--seed", "-s", type=int, default=0, show_default=True, help="Master seed.")
workers_opt = click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True,
                           help="Processes to use; with --backend ray, chunks of games running at once on the cluster.")
backend_opt = click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
                           help="Where games run: local processes, or a Ray cluster (pip install 'rulewright[ray]').")


budget_opt = click.option("--budget", type=click.IntRange(100), default=None,
                          help="Step budget per game before it counts as stalled.")


engine_opt = click.option("--engine", type=click.Choice(["kernel", "python"]), default=None,
                          help="Where games run: the kernel (native, random players; compiled once per spec and "
                               "cached) or the Python engine (the reference). Default: the kernel where it applies. "
                               "Each engine has its own random streams: a seed's games differ between them.")


def _compiling_note(spec_obj, engine: str) -> None:
    """Say so before a spec's kernel is compiled (seconds, once: later runs load it from the disk cache)."""
    if engine != "kernel":
        return
    from ..kernel.build import cache_dir, is_cached
    from ..kernel.run import kernel_for
    if not is_cached(kernel_for(spec_obj).source):
        err.print(f"compiling the kernel of {spec_obj.name} (once: it is cached in {cache_dir()})", markup=False)


def write_report(write: Callable[[Any, str], str], rep: Any, report_dir: str) -> None:
    """`write(rep, report_dir)` (an HTML report's writer) and where it went; a report that cannot be made or a
    folder that cannot be written ends the command with the reason."""
    from ..lab.report import ReportError
    try:
        path = write(rep, report_dir)
    except ReportError as exc:
        raise Failed(str(exc)) from None
    except OSError as exc:
        raise Failed(f"cannot write the report in {report_dir}: {exc.strerror or exc}") from None
    err.print(f"report written to {path}", markup=False)
