"""The `rulewright` command line (the contract of DESIGN.md section 5).

Owns: parsing arguments (click), rendering diagnostics, tables and progress
(rich), exit codes (0 ok, 1 spec errors or failed checks, 2 usage), and the
promise that bad input never shows a Python traceback. Every command that
runs games takes --option NAME=VALUE and --reading AMBIGUITY=INTERPRETATION.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from .. import api
from . import verdicts
from ..spec import files
from ..spec.diagnostics import Severity, SourceCache, SpecError, render
from ..runtime.engine import SetupError, Status

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
budget_opt = click.option("--budget", type=click.IntRange(100), default=None,
                          help="Step budget per game before it counts as stalled.")
engine_opt = click.option("--engine", type=click.Choice(["kernel", "python"]), default=None,
                          help="Where games run: the kernel (native, random players; compiled once per spec and "
                               "cached) or the Python engine (the reference). Default: the kernel where it applies. "
                               "Each engine has its own random streams: a seed's games differ between them.")


class _Group(click.Group):
    """The command group, with commands that live in their own modules (which use this module's helpers)
    imported only when named: those modules import this one, never the other way round."""
    elsewhere = {"tune": "tune"}  # command -> module of interpreter.cli holding a click command of that name

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.elsewhere])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.elsewhere:
            import importlib
            return getattr(importlib.import_module(f"{__package__}.{self.elsewhere[name]}"), name)
        return super().get_command(ctx, name)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulewright")
def cli() -> None:
    """Rulewright: tabletop game rules as checked, runnable specs."""


@cli.command()
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


@cli.command()
@click.argument("spec")
@players_opt
@seed_opt
@click.option("--log", "log_path", type=click.Path(dir_okay=False), help="Write the full event log (JSON lines).")
@click.option("--verbose", "-v", is_flag=True, help="Also show every card move and shuffle.")
@click.option("--as-seat", "as_seat", type=click.IntRange(1), default=None,
              help="Narrate what seat K is shown (other seats' hidden cards hidden); the --log keeps everything.")
@option_opt
@reading_opt
@agent_opt
@budget_opt
@click.option("--engine", type=click.Choice(["kernel", "python"]), default="python", show_default=True,
              help="kernel: narrate the game the kernel plays with this seed (as `simulate --engine kernel` "
                   "played it), replayed in the Python engine from the kernel's choices and chance.")
def run(spec: str, players: int, seed: int, log_path: str | None, verbose: bool, as_seat: int | None, options,
        readings, agents, budget, engine: str = "python") -> None:
    """Play one game and narrate it."""
    from ..runtime.gamelog import header, lines, write_atomic
    from .narrate import narrate
    from ..lab.runner import play
    game = _load(spec, _pairs(options, "--option"), _pairs(readings, "--reading"), budget)
    seats = _agents(agents, players)
    if log_path and not os.path.isdir(os.path.dirname(os.path.abspath(log_path))):
        raise click.UsageError(f"--log: the folder of {log_path} does not exist")
    prepare = None
    try:
        if engine == "kernel":
            st, prepare = _kernel_game(game, players, seed, seats, log_path)
        else:
            st = play(game, players, seed, seats, log=True, check=True)
    except SetupError as exc:
        raise click.UsageError(str(exc)) from None
    if log_path:  # the log first: it is the artifact, the narration only a view of it
        try:
            write_atomic(log_path, "\n".join(lines(header(spec, game, players, seed, seats), st.log)) + "\n")
        except OSError as exc:
            raise Failed(f"cannot write the log {log_path}: {exc.strerror or exc}") from None
        err.print(f"log written to {log_path}", markup=False)
    out.print(f"{game.spec.name}: {players} players, seed {seed}", markup=False)
    events = st.log
    if as_seat is not None:
        if as_seat > players:
            raise click.UsageError(f"--as-seat {as_seat}: the game has {players} players")
        from ..runtime.redact import seat_events
        events = seat_events(st.log, game, players, as_seat - 1)
    for line in narrate(events, verbose):
        out.print(line, markup=False)
    if _show_fault(game, st, seats, prepare, engine) or st.status is Status.ERROR:
        raise Failed(f"the game stopped with an error: {st.reason}" if st.status is Status.ERROR else "")


def _compiling_note(spec_obj, engine: str) -> None:
    """Say so before a spec's kernel is compiled (seconds, once: later runs load it from the disk cache)."""
    if engine != "kernel":
        return
    from ..kernel.build import cache_dir, is_cached
    from ..kernel.run import kernel_for
    if not is_cached(kernel_for(spec_obj).source):
        err.print(f"compiling the kernel of {spec_obj.name} (once: it is cached in {cache_dir()})", markup=False)


def _kernel_game(game, players: int, seed: int, seats: dict, log_path: str | None):
    """The kernel's game of `seed`, replayed (logged) in the Python engine: (State, its chance hook)."""
    from ..kernel import why_not
    if log_path:
        raise click.UsageError("--log with --engine kernel: a log replays from its seed on the Python engine; "
                               "log a Python engine game instead")
    reason = why_not(game.spec, seats)
    if reason is not None:
        raise click.UsageError(f"--engine kernel: {reason}")
    if not game.spec.min_players <= players <= game.spec.max_players:
        raise SetupError(f"{game.spec.name} is for {game.spec.min_players} to {game.spec.max_players} players, "
                         f"not {players}")
    from ..kernel.agents import search_kernel_for, searching
    if searching(seats):  # search agents: the search kernel's game (kernel/agents.py)
        return search_kernel_for(game.spec).replayed(game, players, seed, seats, log=True, check_invariants=True)
    from ..kernel.run import kernel_for
    return kernel_for(game.spec).replayed(game, players, seed, log=True, check_invariants=True)


def _show_fault(game, st, agents: dict, prepare=None, engine: str = "python") -> bool:
    """A game that failed (or ran out of budget): the rule text that was running, positioned; True if shown.
    A kernel game comes with its chance (`prepare`), so the replay that positions it is the same game."""
    from ..runtime.faults import locate
    fault = locate(game, st, agents, prepare=prepare, engine=engine)
    if fault is None:
        return False
    err.print(render(fault.diagnostic()), markup=False)
    return st.status is Status.ERROR


@cli.command()
@click.argument("spec")
@players_opt
@click.option("--games", "-g", type=click.IntRange(1), default=1000, show_default=True)
@seed_opt
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True,
              help="Processes to use; with --backend ray, chunks of games running at once on the cluster.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="Where games run: local processes, or a Ray cluster (pip install 'rulewright[ray]').")
@click.option("--address", default=None, help="Ray cluster address (e.g. auto, ray://host:10001); none starts a local Ray.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@option_opt
@reading_opt
@agent_opt
@budget_opt
@engine_opt
def simulate(spec: str, players: int, games: int, seed: int, workers: int, backend: str, address: str | None,
             as_json: bool, options, readings, agents, budget, engine: str | None = None) -> None:
    """Play many games and report statistics."""
    from ..lab.runner import GameSpec, require_ray, sweep, use_backend
    if backend == "ray":
        try:
            require_ray()  # say so before any game is played
        except RuntimeError as exc:
            raise Failed(str(exc)) from None
    use_backend(backend, address)
    opts, reads = _pairs(options, "--option"), _pairs(readings, "--reading")
    game = _load(spec, opts, reads, budget)
    if not game.spec.min_players <= players <= game.spec.max_players:
        raise click.UsageError(f"{game.spec.name} is for {game.spec.min_players} to {game.spec.max_players} "
                               f"players, not {players}")
    from ..kernel import choose
    seats = _agents(agents, players)
    engine, note = choose(game.spec, seats, engine)
    if note:
        err.print(f"note: {note}", markup=False)
    _compiling_note(game.spec, engine)
    gs = GameSpec(spec, opts, reads, game.budget, seats, engine=engine)
    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("games", total=games)
        stats = sweep(gs, players, games, seed, workers, lambda k: progress.advance(task, k), game=game)
    d = stats.as_dict()
    d = {"spec": spec, "game": game.spec.name, "players": players, "seed": seed, "workers": workers, "backend": backend,
         "engine": engine, **({"engine_note": note} if note else {}),
         "options": game.options, "readings": game.readings, **d}
    if as_json:
        click.echo(json.dumps(d, sort_keys=False))
        return
    _stats_table(d, {**{f"--option {k}": v for k, v in opts.items()}, **{f"--reading {k}": v for k, v in reads.items()}})
    if d["error_samples"]:  # the first failed game again, to show the rule text that failed
        first = d["error_samples"][0]["seed"]
        if engine == "kernel":  # the kernel's game, replayed in the Python engine from its record
            from ..kernel.agents import search_kernel_for, searching
            from ..kernel.run import kernel_for
            if searching(gs.agents):
                st, prepare = search_kernel_for(game.spec).replayed(game, players, first, gs.agents)
            else:
                st, prepare = kernel_for(game.spec).replayed(game, players, first)
            _show_fault(game, st, gs.agents, prepare, engine)
        else:
            from ..lab.runner import play
            _show_fault(game, play(game, players, first, gs.agents), gs.agents)


def _ci(est: dict | None, pct: bool = False, digits: int = 1) -> str:
    """` [lo, hi]` of a 95% interval, or nothing when it is not known."""
    ci = (est or {}).get("ci95")
    if not ci:
        return ""
    return f" [{ci[0]:.1%}, {ci[1]:.1%}]" if pct else f" [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


_ENGINE_NAMES = {"kernel": "on the kernel ", "python": "on the Python engine "}


def _stats_table(d: dict[str, Any], flags: dict[str, str]) -> None:
    t = Table(title=f"{d['game']}: {d['games']} games, {d['players']} players, seed {d['seed']} "
                    f"{_ENGINE_NAMES.get(d.get('engine'), '')}(means with 95% intervals)",
              title_justify="left")
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_row("finished", str(d["finished"]))
    t.add_row("stalled", f"{d['stalled']} ({d['stalled_rate']['mean']:.1%}{_ci(d['stalled_rate'], True)})")
    t.add_row("errors", str(d["errors"]))
    t.add_row("shared wins (draws) / no winner" if not d.get("sides") else "won by two sides or more (draws) / no winner",
              f"{d['draws']} / {d['no_winner']}")
    tu = d["turns"]
    t.add_row("turns mean", f"{tu['mean']:.1f}{_ci(tu)}")
    t.add_row("turns p50 / p95 / max", f"{tu['p50']} / {tu['p95']} / {tu['max']}")
    t.add_row("decisions per game", f"{d['decisions_per_game']:.1f}{_ci(d['decisions'])}")
    if d["margin"]["mean"] is not None:
        t.add_row("winning margin (mean)", f"{d['margin']['mean']:.2f}{_ci(d['margin'], digits=2)}")
    for i, w in enumerate(d["wins"]):
        t.add_row(f"wins P{i + 1}", f"{w:.1%} [{d['wins_ci95'][i][0]:.1%}, {d['wins_ci95'][i][1]:.1%}]"
                  if d["wins_ci95"][i] else f"{w:.1%}")
    for side in d.get("sides") or []:  # a game of sides (game.teams): a side wins together
        seats = "+".join(f"P{p}" for p in side["seats"])
        t.add_row(f"wins {side['name']} ({seats})", f"{side['wins']:.1%}" + (
            f" [{side['wins_ci95'][0]:.1%}, {side['wins_ci95'][1]:.1%}]" if side["wins_ci95"] else ""))
    for name, m in d["measures"].items():
        t.add_row(f"{m['label']} (mean)", "-" if m["mean"] is None else f"{m['mean']:.2f}{_ci(m, digits=2)}")
    t.add_row("seconds", f"{d['seconds']:.2f}")
    t.add_row("games per second", f"{d['games_per_second']:.0f}" if d["games_per_second"] else "-")
    out.print(t)
    if d["stalled_seeds"]:
        reasons = "; ".join(f"{r} ({n})" for r, n in d["stall_reasons"].items())
        out.print(f"stalled games (a finding about the rules): {reasons}.", markup=False)
        out.print(f"reproduce one: rulewright run {d['spec']} -p {d['players']} --seed {d['stalled_seeds'][0]}"
                  + "".join(f" {k}={v}" for k, v in flags.items()), markup=False)
    for e in d["error_samples"][:3]:
        out.print(f"error in game with seed {e['seed']}: {e['reason']}", markup=False)


@cli.command()
@click.argument("specs", nargs=-1, required=True)
@players_opt
@click.option("--games", "-g", type=click.IntRange(1), default=1000, show_default=True)
@seed_opt
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True, help="Processes to use.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@option_opt
@reading_opt
@agent_opt
@margin_opt
@budget_opt
def compare(specs: tuple[str, ...], players: int, games: int, seed: int, workers: int, as_json: bool, options,
            readings, agents, margins, budget) -> None:
    """Specs side by side (a game and its variants), each playing the same game seeds, with paired
    intervals and a verdict for each against the first.

    --option and --reading apply to every spec that declares that name; SPEC::NAME=VALUE,... sets
    options or readings for one column only (e.g. games/stun.yaml::win_chips=3).
    """
    from ..lab.compare import CompareError, change, compare as do_compare, show
    if len(specs) < 2:
        raise click.UsageError("compare needs two or more specs")
    for p in specs:
        _load(p.partition("::")[0], {}, {}, budget)  # report spec errors before any game is played
    opts, reads = _pairs(options, "--option"), _pairs(readings, "--reading")
    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("games", total=games * len(specs))
        try:
            d = do_compare(list(specs), players, games, seed, workers, opts, reads, budget,
                           _agents(agents, players) if agents else None, lambda k: progress.advance(task, k),
                           _pairs(margins, "--margin"))
        except (CompareError, SetupError) as exc:
            raise click.UsageError(str(exc)) from None
        except SpecError as exc:
            _show_diagnostics(exc.diagnostics)
            raise Failed(f"{specs[0]}: the lab section has errors; nothing was run") from None
    if as_json:
        click.echo(json.dumps(d, sort_keys=False))
        return
    cols = d["specs"]
    t = Table(title=f"{games} games per spec, {players} players ({d['policy']}), seed {seed}: the same game seeds "
                    f"for every spec; measures are means per finished game, with 95% intervals", title_justify="left")
    t.add_column("measure")
    for k, c in enumerate(cols):
        t.add_column(chr(65 + k), justify="right")
    for k in range(1, len(cols)):
        t.add_column(f"{chr(65 + k)} - A", justify="right")
    for r in d["rows"]:
        vals = r["values"]
        cis = r.get("ci95") or [None] * len(vals)
        t.add_row(r["label"], *[show(v, r["kind"], ci) for v, ci in zip(vals, cis)],
                  *[change(vals[0], v, r["kind"]) for v in vals[1:]])
    out.print(t)
    for k, c in enumerate(cols[1:], start=1):
        moved = [x for x in c["differences"] if x["verdict"] == "material"]
        style = _VERDICT_STYLE[c["verdict"]]
        what = "; ".join(f"{x['measure']} {x['mean']:+.3g} [{x['lo']:+.3g}, {x['hi']:+.3g}] beyond +-{x['margin']:.3g}"
                         for x in moved)
        more = (f"; about {c['games_to_decide']:,} games would decide it" if c.get("games_to_decide") else
                "; more games than can be estimated would decide it" if c["verdict"] == "undecided" else "")
        out.print(f"{chr(65 + k)} vs A: [{style}]{c['verdict']}[/{style}]" + (f" ({what})" if what else "") + more
                  + " (paired 95% intervals, Bonferroni over measures, against the margins)")
    out.print("margins: " + ", ".join(f"{n} +-{m['value']:.3g}" + (f" ({m['set']})" if m["relative"] else "")
                                      for n, m in d["margins"].items() if m["value"] is not None), markup=False)
    for k, c in enumerate(cols):
        given = {**opts, **reads, **c["settings"]}
        settings = ", ".join(f"{n}={v}" for n, v in {**c["options"], **c["readings"]}.items() if n in given)
        out.print(f"{chr(65 + k)} = {c['spec']}: {c['game']}" + (f" ({settings})" if settings else ""), markup=False)
    for c in cols:
        if c["stalled_seeds"]:
            out.print(f"{c['spec']}: stalled games (a finding about the rules), e.g. seed {c['stalled_seeds'][0]}",
                      markup=False)
        for e in c["error_samples"][:3]:
            out.print(f"{c['spec']}: error in game with seed {e['seed']}: {e['reason']}", markup=False)


@cli.command("test")
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


@cli.command()
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


@cli.command()
@click.argument("log")
@click.option("--spec", "spec_path", help="Replay against this spec instead of the one named in the log.")
def replay(log: str, spec_path: str | None) -> None:
    """Re-run a logged game and confirm every event matches."""
    from ..runtime.gamelog import LogError, replay as do_replay
    try:
        rep = do_replay(log, spec_path)
    except LogError as exc:
        raise Failed(str(exc)) from None
    except SpecError as exc:
        _show_diagnostics(exc.diagnostics)
        raise Failed("the spec named in the log has errors") from None
    except SetupError as exc:
        raise Failed(f"the log's settings do not fit the spec: {exc}") from None
    if rep.note:
        err.print(f"note: {rep.note}", markup=False)
    if rep.ok:
        out.print(f"{log}: replay matches ({rep.events} events)", markup=False)
        return
    out.print(f"{log}:{rep.first_difference}: first difference", markup=False)
    out.print(f"  log:    {rep.expected}", markup=False)
    out.print(f"  replay: {rep.got}", markup=False)
    sys.exit(1)


@cli.command()
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


def _lab_progress(label: str):
    progress = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=err, transient=True, disable=not err.is_terminal)
    task = progress.add_task(label, total=None)

    def update(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)
    return progress, update


def _fmt_iv(iv, pct: bool = False) -> str:
    if iv is None:
        return "-"
    if pct:
        return f"{iv.mean:+.1%} [{iv.lo:+.1%}, {iv.hi:+.1%}]"
    return f"{iv.mean:+.2f} [{iv.lo:+.2f}, {iv.hi:+.2f}]"


def _key_intervals(intervals) -> dict:
    by = {i.measure: i for i in intervals}
    wins = [i for i in intervals if i.measure.startswith("win ")]
    top_win = max(wins, key=lambda i: abs(i.mean), default=None)
    return {"turns": by.get("turns"), "win": top_win, "stalled": by.get("stalled"), "margin": by.get("margin"),
            "errors": by.get("errors")}


_VERDICT_STYLE = {"material": "bold red", "immaterial": "green", "undecided": "magenta", "unreachable": "yellow",
                  "baseline": "bold"}


def _lab_settings(spec_obj, margins: tuple[str, ...], agents: tuple[str, ...], players: int):
    """(--margin pairs, --agent seats or None) for the lab, or a usage error before any game is played."""
    from ..lab import settings as S
    pairs = _pairs(margins, "--margin")
    try:
        S.margins_for(spec_obj, pairs)
    except S.SettingsError as exc:
        raise click.UsageError(str(exc)) from None
    return pairs, (_agents(agents, players) if agents else None)


def _games_to_decide(r) -> str:
    if r.verdict != "undecided":
        return ""
    return f"~{r.games_to_decide:,}" if r.games_to_decide else "many"


def _lab_table(rep, title: str) -> Table:
    t = Table(title_justify="left", title=title)
    for col in ("ambiguity", "interpretation", "verdict", "games to decide", "turns", "largest win-share change",
                "stalled", "margin"):
        t.add_column(col)
    for a in rep.ambiguities:
        for k, r in enumerate(a.readings):
            iv = _key_intervals(r.intervals)
            win = iv["win"]
            style = _VERDICT_STYLE[r.verdict]
            shown = r.verdict != "unreachable"
            t.add_row(a.name if k == 0 else "", r.interpretation + (" (contradicts the text)" if r.contradicts_text else ""),
                      f"[{style}]{r.verdict}[/{style}]" + (" (identical games)" if r.identical and shown else ""),
                      _games_to_decide(r),
                      _fmt_iv(iv["turns"]) if shown else "-",
                      f"{win.measure[4:]} {_fmt_iv(win, True)}" if win and shown else "-",
                      _fmt_iv(iv["stalled"], True) if shown else "-",
                      _fmt_iv(iv["margin"]) if iv["margin"] and shown else "-")
    return t


def _margins_line(rep) -> str:
    parts = []
    for name, m in rep.margins.items():
        if m["value"] is None:
            continue
        value = f"{m['value'] * 100:.2g}pt" if name in ("wins", "stalled", "errors") else f"{m['value']:.3g}"
        parts.append(f"{name} +-{value}" + (f" ({m['set']} of the default)" if m["relative"] else ""))
    return "margins: " + ", ".join(parts)


def _print_lab(rep, spec_name: str, players: int, seed: int) -> None:
    b = rep.baseline
    how = {"sequential": f"played until decided (cap {rep.max_games or 0:,}; anytime-valid intervals)",
           "precision": "ran until the intervals were narrow enough", "fixed": "fixed number of games"}[rep.mode]
    out.print(f"{spec_name}: {rep.games:,} games per interpretation, {players} players, seed {seed}, players: "
              f"{rep.policy}; {how}; {rep.seconds:.1f} s", markup=False)
    out.print(f"default readings: {b['finished']} finished, {b['stalled']} stalled, {b['errors']} errors, "
              f"{b['turns_mean']} turns on average", markup=False)
    if b.get("side_wins"):  # a game of sides: who wins is a side
        out.print("wins by side: " + ", ".join(f"{s['name']} {s['wins']:.1%}" for s in b["side_wins"]), markup=False)
    out.print(_margins_line(rep), markup=False)
    out.print(_lab_table(rep, "difference from the default, 95% intervals (Bonferroni over measures); material: "
                              "outside the margin, immaterial: inside it"))
    for a in rep.ambiguities:
        more = (f"; about {a.games_to_decide:,} games per interpretation would decide it" if a.games_to_decide
                else "; more games than can be estimated would decide it" if a.verdict == "undecided" else "")
        out.print(f"{a.name}: [{_VERDICT_STYLE[a.verdict]}]{a.verdict}[/{_VERDICT_STYLE[a.verdict]}]"
                  f" (default: {a.default}){more}")


@cli.command()
@click.argument("spec")
@players_opt
@click.option("--games", "-g", type=click.IntRange(10), default=1000, show_default=True,
              help="Games per interpretation (the same seeds for each); with --until-decided, the first batch.")
@seed_opt
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True)
@click.option("--until-decided", is_flag=True,
              help="Play in batches until every reading is material, immaterial or unreachable, or --max-games "
                   "is reached (anytime-valid intervals: looking after every batch does not raise the error rate).")
@click.option("--batch", type=click.IntRange(10), default=None,
              help="Games per batch after the first, with --until-decided (default: --games).")
@click.option("--precision", type=click.FloatRange(0.0005, 1.0), default=None,
              help="Instead of a fixed --games: play until every share/rate interval is narrower than "
                   "+-P, and game length within +-P x its mean.")
@click.option("--max-games", type=click.IntRange(10), default=100_000, show_default=True,
              help="Games per interpretation at most, with --until-decided or --precision.")
@click.option("--only", multiple=True, metavar="AMBIGUITY", help="Measure only these ambiguities.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), help="Write an HTML report with plots.")
@margin_opt
@agent_opt
@click.option("--agents", "policies", metavar="AGENT,AGENT,...", default=None,
              help="Measure under each of these policies (every seat that agent), e.g. random,greedy,mcts:50, "
                   "and flag the verdicts that depend on who plays.")
@option_opt
@budget_opt
@engine_opt
def ambiguities(spec: str, players: int, games: int, seed: int, workers: int, until_decided: bool, batch,
                precision, max_games, only, as_json: bool, report_dir, margins, agents, policies, options,
                budget, engine: str | None = None) -> None:
    """Every ambiguity, and what each of its interpretations changes: material (outside the margin),
    immaterial (inside it), undecided (play more) or unreachable. Paired seeds, 95% intervals."""
    from ..lab import settings as S
    from ..lab.ambiguities import ambiguity_lab
    opts = _pairs(options, "--option")
    game = _load(spec, opts, {})
    unknown = [a for a in only if a not in game.spec.ambiguities]
    if unknown:
        raise click.UsageError(f"--only: unknown ambiguity '{unknown[0]}' (known: {', '.join(game.spec.ambiguities)})")
    if not game.spec.min_players <= players <= game.spec.max_players:
        raise click.UsageError(f"{game.spec.name} is for {game.spec.min_players} to {game.spec.max_players} players")
    if until_decided and precision is not None:
        raise click.UsageError("--until-decided and --precision are two ways to stop: give one")
    if policies is not None and agents:
        raise click.UsageError("--agents (one policy for every seat, several runs) and --agent: give one")
    margin_pairs, seats = _lab_settings(game.spec, margins, agents, players)
    try:
        policy_list = S.parse_policies(policies) if policies is not None else None
        if seats is None and policy_list is None:
            S.spec_agents(game.spec, players)  # a bad name in the spec's lab.agents, at its position
    except S.SettingsError as exc:
        raise click.UsageError(str(exc)) from None
    except SpecError as exc:
        _show_diagnostics(exc.diagnostics)
        raise Failed(f"{spec}: the lab section has errors; nothing was run") from None
    if policy_list is not None and not policy_list:
        raise click.UsageError("--agents: name at least one agent")
    if not game.spec.ambiguities:
        out.print(f"{spec}: the spec declares no ambiguities", markup=False)
        return
    if report_dir:  # before the games: a report that cannot be written should not cost a long run
        from ..lab.report import ReportError, _plt
        try:
            _plt()
        except ReportError as exc:
            raise Failed(str(exc)) from None
    lab = dict(options=opts, workers=workers, precision=precision, max_games=max_games, only=list(only) or None,
               margins=margin_pairs, until_decided=until_decided, batch=batch, budget=budget, engine=engine)
    from ..kernel import choose
    lab_engine, lab_note = choose(game.spec, S.spec_agents(game.spec, players) if seats is None else seats, engine)
    if lab_note and engine != "python":
        err.print(f"note: {lab_note}", markup=False)
    _compiling_note(game.spec, lab_engine)
    progress, update = _lab_progress("measuring")
    with progress:
        if policy_list is None:
            rep = ambiguity_lab(spec, players, games, seed, agents=seats, progress=update, **lab)
        else:
            from ..lab.policies import policy_lab
            rep = policy_lab(spec, players, games, seed, policy_list, progress=lambda _p: update, **lab)
    if report_dir:
        from ..lab.report import ReportError, write_lab_report
        try:
            path = write_lab_report(rep, report_dir)
        except ReportError as exc:
            raise Failed(str(exc)) from None
        except OSError as exc:
            raise Failed(f"cannot write the report in {report_dir}: {exc.strerror or exc}") from None
        err.print(f"report written to {path}", markup=False)
    if as_json:
        click.echo(json.dumps(rep.as_dict()))
        return
    if policy_list is None:
        _print_lab(rep, game.spec.name, players, seed)
        return
    for r in rep.reports:
        _print_lab(r, game.spec.name, players, seed)
        out.print("")
    t = Table(title_justify="left", title="verdicts by who plays (every seat the same agent)")
    t.add_column("ambiguity")
    for p in rep.policies:
        t.add_column(p)
    t.add_column("depends on the players?")
    for s in rep.sensitivity:
        flag = ("[bold red]random-play artefact[/bold red]" if s.random_artefact else
                "[bold yellow]yes[/bold yellow]" if s.policy_dependent else "no")
        t.add_row(s.ambiguity, *[f"[{_VERDICT_STYLE[s.verdicts[p]]}]{s.verdicts[p]}[/{_VERDICT_STYLE[s.verdicts[p]]}]"
                                 for p in rep.policies], flag)
    out.print(t)
    for s in rep.sensitivity:
        out.print(f"{s.ambiguity}: {s.note}", markup=False)


@cli.command()
@click.argument("spec")
@click.option("--players", "-p", type=click.IntRange(1, 16), default=None, help="Players (default: the minimum).")
@click.option("--games", "-g", type=click.IntRange(1), default=300, show_default=True)
@seed_opt
@option_opt
@reading_opt
@click.option("--with", "also", multiple=True, metavar="AGENT",
              help="Also play a tenth as many games with AGENT at every seat (repeatable; default: greedy:2 "
                   "and cautious; `--with none`: random players only).")
def lint(spec: str, players: int | None, games: int, seed: int, options, readings, also) -> None:
    """Findings nobody wrote down: rules that never ran, dead branches and guards, stalls, broken invariants
    (as warnings)."""
    from ..lab.lint import ALSO, lint as do_lint
    from ..agents.registry import AgentError, parse_agent
    also = tuple(a for a in also if a != "none") if also else ALSO
    for a in also:
        try:
            parse_agent(a)
        except AgentError as exc:
            raise click.UsageError(f"--with: {exc}") from None
    opts, reads = _pairs(options, "--option"), _pairs(readings, "--reading")
    game = _load(spec, opts, reads)
    n = players or max(game.spec.min_players, 2)
    if not game.spec.min_players <= n <= game.spec.max_players:
        raise click.UsageError(f"{game.spec.name} is for {game.spec.min_players} to {game.spec.max_players} players")
    diags = do_lint(spec, n, games, seed, opts, reads, also)
    _show_diagnostics(diags)
    extra = f" (and {max(1, games // 10)} each with {', '.join(also)})" if also else ""
    out.print(f"{spec}: {len(diags)} finding(s) in {games} random games{extra} with {n} players; and "
              f"{max(1, games // 10)} random games under each other reading, option value and player count, "
              "and the spec's examples", markup=False)


@cli.command()
@click.argument("spec", required=False)
@click.option("--seat", "-k", type=click.IntRange(1), help="Your seat (1-based).")
@click.option("--players", "-p", type=click.IntRange(1, 16), default=None, help="Number of players (default: the fewest the game allows).")
@seed_opt
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False), help="Go on with a game saved with `save FILE`.")
@option_opt
@reading_opt
@agent_opt
def play(spec: str | None, seat: int | None, players: int | None, seed: int, resume_path: str | None, options,
         readings, agents) -> None:
    """Play a game in the terminal against bots: you see only your own view."""
    from .play import SaveError, Session, Settings, read_save
    replay = None
    if resume_path:
        if spec or seat or players or options or readings or agents:
            raise click.UsageError("--resume takes the spec, seat and settings from the save; give nothing else")
        try:
            settings, replay, note = read_save(resume_path)
        except SaveError as exc:
            raise Failed(str(exc)) from None
        if note:
            err.print(f"note: {note}", markup=False)
        try:
            game = _load(settings.spec, settings.options, settings.readings)
        except click.UsageError as exc:  # the save's options or readings: the save is wrong, not the command
            raise Failed(f"{resume_path}: the save's settings do not fit the spec: {exc.message}") from None
    else:
        if not spec or not seat:
            raise click.UsageError("give SPEC and --seat K (or --resume FILE)")
        opts, reads = _pairs(options, "--option"), _pairs(readings, "--reading")
        game = _load(spec, opts, reads)
        n = players or game.spec.min_players
        if not game.spec.min_players <= n <= game.spec.max_players:
            raise click.UsageError(f"{game.spec.name} is for {game.spec.min_players} to {game.spec.max_players} "
                                   f"players, not {n}")
        if seat > n:
            raise click.UsageError(f"--seat must be 1..{n}")
        bots = _agents(agents, n, human=seat - 1)
        if seat - 1 in bots:
            raise click.UsageError(f"seat {seat} is yours: give --agent for the other seats only")
        settings = Settings(spec, n, seat - 1, seed, opts, reads, bots)
    stdin = sys.stdin  # click.testing.CliRunner swaps it for the input it is given

    def read(prompt: str) -> str | None:
        click.echo(prompt, nl=False)
        line = stdin.readline()
        return line if line else None
    session = Session(game, settings, read, click.echo)
    try:
        click.echo(f"{game.spec.name}: {settings.players} players, you are P{settings.seat + 1}, seed {settings.seed}. "
                   f"Bots: " + ", ".join(f"P{s + 1} {settings.agents.get(s, 'random')}"
                                         for s in range(settings.players) if s != settings.seat))
        st = session.start(replay)
    except SaveError as exc:
        raise Failed(f"{resume_path}: {exc}") from None
    except SetupError as exc:
        if resume_path:
            raise Failed(f"{resume_path}: the save's settings do not fit the spec: {exc}") from None
        raise click.UsageError(str(exc)) from None
    final = session.play(st)
    if final is not None and final.status is Status.ERROR:
        raise Failed(f"the game stopped with an error: {final.reason}")


@cli.command()
def lsp() -> None:
    """The language server, on stdio, for any editor: diagnostics as you type, completion, hover,
    go to definition, document symbols (docs/guides/editors.md says how to set up VS Code and Neovim)."""
    try:
        from ..lsp.server import serve
    except ImportError as exc:
        raise Failed(f"the language server needs pygls and lsprotocol ({exc}): pip install -e '.[lsp]'") from None
    serve()


@cli.command()
@click.argument("specs", nargs=-1, required=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (loopback by default; anything else lets other machines in).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port (0: any free one).")
@click.option("--log", "log_paths", multiple=True, type=click.Path(dir_okay=False),
              help="A game log (from `run --log`) to step through on the page (repeatable).")
def serve(specs: tuple[str, ...], host: str, port: int, log_paths: tuple[str, ...]) -> None:
    """A playtesting table in the browser for these specs (and only these)."""
    from ..web.server import missing
    need = missing()
    if need:
        raise Failed(need)
    from ..web.server import serve as do_serve
    from ..web.tables import TableError
    for p in specs:
        _checked_spec(p)  # every spec's errors before the server starts
    logs = []
    for p in log_paths:
        try:
            logs.append((os.path.basename(p), files.read_text(p, files.MAX_LOG_BYTES, "log")))
        except OSError as exc:
            raise Failed(f"cannot read the log {p}: {getattr(exc, 'strerror', None) or exc}") from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        err.print(f"warning: listening on {host}: other machines can reach the table", markup=False)
    try:
        do_serve(list(specs), host, port, logs, announce=lambda line: click.echo(line))
    except KeyboardInterrupt:  # uvicorn has shut down cleanly, then passes Ctrl-C on
        err.print("the table is closed", markup=False)
    except TableError as exc:
        raise Failed(str(exc)) from None
    except OSError as exc:
        raise Failed(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None



def main() -> None:
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt:
        err.print("interrupted", markup=False)
        sys.exit(130)
    except Exception as exc:  # a bug in Rulewright, not bad input
        if os.environ.get("RULEWRIGHT_DEBUG"):
            raise
        err.print(f"internal error: {type(exc).__name__}: {exc} (set RULEWRIGHT_DEBUG=1 for details; please report)",
                  markup=False)
        sys.exit(70)


if __name__ == "__main__":
    main()
