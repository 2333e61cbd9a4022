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
from . import launch
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


def _agents(values: tuple[str, ...], players: int) -> dict[int, str]:
    from ..agents.registry import AgentError, make_agent
    res = {}
    for seat, name in _pairs(values, "--agent").items():
        if not seat.isdigit() or not 1 <= int(seat) <= players:
            raise click.UsageError(f"--agent: seat must be 1..{players}, got '{seat}'")
        try:
            make_agent(name, 0, int(seat) - 1)
        except AgentError as exc:
            raise click.UsageError(f"--agent: {exc}") from None
        res[int(seat) - 1] = name
    return res


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
                         help="Agent for a seat (1-based): random, first, greedy[:SAMPLES], mcts[:ITERATIONS] "
                              "(or NAME:key=value,...). Default random.")
players_opt = click.option("--players", "-p", type=click.IntRange(1, 16), required=True, help="Number of players.")
seed_opt = click.option("--seed", "-s", type=int, default=0, show_default=True, help="Master seed.")
budget_opt = click.option("--budget", type=click.IntRange(100), default=None,
                          help="Step budget per game before it counts as stalled.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
            launch.remember(path, list(spec.doc.sources), spec.name, [render(d, sources) for d in diags])
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
@option_opt
@reading_opt
@agent_opt
@budget_opt
def run(spec: str, players: int, seed: int, log_path: str | None, verbose: bool, options, readings, agents,
        budget) -> None:
    """Play one game and narrate it."""
    from ..runtime.gamelog import header, lines, write_atomic
    from .narrate import narrate
    from ..lab.runner import play
    game = _load(spec, _pairs(options, "--option"), _pairs(readings, "--reading"), budget)
    seats = _agents(agents, players)
    if log_path and not os.path.isdir(os.path.dirname(os.path.abspath(log_path))):
        raise click.UsageError(f"--log: the folder of {log_path} does not exist")
    try:
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
    for line in narrate(st.log, verbose):
        out.print(line, markup=False)
    if st.status is Status.ERROR:
        raise Failed(f"the game stopped with an error: {st.reason}")


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
def simulate(spec: str, players: int, games: int, seed: int, workers: int, backend: str, address: str | None,
             as_json: bool, options, readings, agents, budget) -> None:
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
    gs = GameSpec(spec, opts, reads, game.budget, _agents(agents, players))
    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("games", total=games)
        stats = sweep(gs, players, games, seed, workers, lambda k: progress.advance(task, k), game=game)
    d = stats.as_dict()
    d = {"spec": spec, "game": game.spec.name, "players": players, "seed": seed, "workers": workers, "backend": backend,
         "options": game.options, "readings": game.readings, **d}
    if as_json:
        click.echo(json.dumps(d, sort_keys=False))
        return
    _stats_table(d, {**{f"--option {k}": v for k, v in opts.items()}, **{f"--reading {k}": v for k, v in reads.items()}})


def _stats_table(d: dict[str, Any], flags: dict[str, str]) -> None:
    t = Table(title=f"{d['game']}: {d['games']} games, {d['players']} players, seed {d['seed']}", title_justify="left")
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_row("finished", str(d["finished"]))
    t.add_row("stalled", str(d["stalled"]))
    t.add_row("errors", str(d["errors"]))
    tu = d["turns"]
    t.add_row("turns mean / p50 / p95 / max", f"{tu['mean']:.1f} / {tu['p50']} / {tu['p95']} / {tu['max']}")
    t.add_row("decisions per game", f"{d['decisions_per_game']:.1f}")
    if d["margin"]["mean"] is not None:
        t.add_row("winning margin (mean)", f"{d['margin']['mean']:.2f}")
    for i, w in enumerate(d["wins"]):
        t.add_row(f"wins P{i + 1}", f"{w:.1%}")
    for name, m in d["measures"].items():
        t.add_row(f"{m['label']} (mean)", "-" if m["mean"] is None else f"{m['mean']:.2f}")
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
@budget_opt
def compare(specs: tuple[str, ...], players: int, games: int, seed: int, workers: int, as_json: bool, options,
            readings, agents, budget) -> None:
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
            d = do_compare(list(specs), players, games, seed, workers, opts, reads, budget, _agents(agents, players),
                           lambda k: progress.advance(task, k))
        except (CompareError, SetupError) as exc:
            raise click.UsageError(str(exc)) from None
    if as_json:
        click.echo(json.dumps(d, sort_keys=False))
        return
    cols = d["specs"]
    t = Table(title=f"{games} games per spec, {players} players, seed {seed}: the same game seeds for every spec; "
                    f"measures are means per finished game", title_justify="left")
    t.add_column("measure")
    for k, c in enumerate(cols):
        t.add_column(chr(65 + k), justify="right")
    for k in range(1, len(cols)):
        t.add_column(f"{chr(65 + k)} - A", justify="right")
    for r in d["rows"]:
        vals = r["values"]
        t.add_row(r["label"], *[show(v, r["kind"]) for v in vals],
                  *[change(vals[0], v, r["kind"]) for v in vals[1:]])
    out.print(t)
    for k, c in enumerate(cols[1:], start=1):
        moved = [x for x in c["differences"] if x["lo"] > 0 or x["hi"] < 0]
        style = _VERDICT_STYLE[c["verdict"]]
        what = "; ".join(f"{x['measure']} {x['mean']:+.3g} [{x['lo']:+.3g}, {x['hi']:+.3g}]" for x in moved)
        out.print(f"{chr(65 + k)} vs A: [{style}]{c['verdict']}[/{style}]" + (f" ({what})" if what else "")
                  + " (paired 95% intervals, Bonferroni over measures)")
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


_VERDICT_STYLE = {"material": "bold red", "immaterial": "green", "unreachable": "yellow", "baseline": "bold"}


@cli.command()
@click.argument("spec")
@players_opt
@click.option("--games", "-g", type=click.IntRange(10), default=1000, show_default=True,
              help="Games per interpretation (the same seeds for each).")
@seed_opt
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True)
@click.option("--precision", type=click.FloatRange(0.0005, 1.0), default=None,
              help="Instead of a fixed --games: play until every share/rate interval is narrower than "
                   "+-P, and game length within +-P x its mean.")
@click.option("--max-games", type=click.IntRange(10), default=100_000, show_default=True)
@click.option("--only", multiple=True, metavar="AMBIGUITY", help="Measure only these ambiguities.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), help="Write an HTML report with plots.")
@option_opt
def ambiguities(spec: str, players: int, games: int, seed: int, workers: int, precision, max_games, only,
                as_json: bool, report_dir, options) -> None:
    """Every ambiguity, and what each of its interpretations changes (paired seeds, 95% intervals)."""
    from ..lab.ambiguities import ambiguity_lab
    opts = _pairs(options, "--option")
    game = _load(spec, opts, {})
    unknown = [a for a in only if a not in game.spec.ambiguities]
    if unknown:
        raise click.UsageError(f"--only: unknown ambiguity '{unknown[0]}' (known: {', '.join(game.spec.ambiguities)})")
    if not game.spec.min_players <= players <= game.spec.max_players:
        raise click.UsageError(f"{game.spec.name} is for {game.spec.min_players} to {game.spec.max_players} players")
    if not game.spec.ambiguities:
        out.print(f"{spec}: the spec declares no ambiguities", markup=False)
        return
    if report_dir:  # before the games: a report that cannot be written should not cost a long run
        from ..lab.report import ReportError, _plt
        try:
            _plt()
        except ReportError as exc:
            raise Failed(str(exc)) from None
    progress, update = _lab_progress("measuring")
    with progress:
        rep = ambiguity_lab(spec, players, games, seed, options=opts, workers=workers, precision=precision,
                            max_games=max_games, only=list(only) or None, progress=update)
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
    b = rep.baseline
    out.print(f"{game.spec.name}: {rep.games} games per interpretation, {players} players, seed {seed}"
              + (f" (ran until +-{precision} precision)" if precision else ""), markup=False)
    out.print(f"default readings: {b['finished']} finished, {b['stalled']} stalled, {b['errors']} errors, "
              f"{b['turns_mean']} turns on average", markup=False)
    t = Table(title_justify="left", title="difference from the default, 95% intervals (Bonferroni over measures)")
    for col in ("ambiguity", "interpretation", "verdict", "turns", "largest win-share change", "stalled", "margin"):
        t.add_column(col)
    for a in rep.ambiguities:
        for k, r in enumerate(a.readings):
            iv = _key_intervals(r.intervals)
            win = iv["win"]
            style = _VERDICT_STYLE[r.verdict]
            t.add_row(a.name if k == 0 else "", r.interpretation, f"[{style}]{r.verdict}[/{style}]",
                      _fmt_iv(iv["turns"]) if r.verdict != "unreachable" else "-",
                      f"{win.measure[4:]} {_fmt_iv(win, True)}" if win and r.verdict != "unreachable" else "-",
                      _fmt_iv(iv["stalled"], True) if r.verdict != "unreachable" else "-",
                      _fmt_iv(iv["margin"]) if iv["margin"] and r.verdict != "unreachable" else "-")
    out.print(t)
    for a in rep.ambiguities:
        out.print(f"{a.name}: [{_VERDICT_STYLE[a.verdict]}]{a.verdict}[/{_VERDICT_STYLE[a.verdict]}]"
                  f" (default: {a.default})")


@cli.command()
@click.argument("spec")
@click.option("--players", "-p", type=click.IntRange(1, 16), default=None, help="Players (default: the minimum).")
@click.option("--games", "-g", type=click.IntRange(1), default=300, show_default=True)
@seed_opt
@option_opt
@reading_opt
def lint(spec: str, players: int | None, games: int, seed: int, options, readings) -> None:
    """Findings nobody wrote down: rules that never ran, stalls, broken invariants (as warnings)."""
    from ..lab.lint import lint as do_lint
    opts, reads = _pairs(options, "--option"), _pairs(readings, "--reading")
    game = _load(spec, opts, reads)
    n = players or max(game.spec.min_players, 2)
    if not game.spec.min_players <= n <= game.spec.max_players:
        raise click.UsageError(f"{game.spec.name} is for {game.spec.min_players} to {game.spec.max_players} players")
    diags = do_lint(spec, n, games, seed, opts, reads)
    _show_diagnostics(diags)
    out.print(f"{spec}: {len(diags)} finding(s) in {games} games with {n} players", markup=False)


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
        game = _load(settings.spec, settings.options, settings.readings)
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
        bots = _agents(agents, n)
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
        raise click.UsageError(str(exc)) from None
    final = session.play(st)
    if final is not None and final.status is Status.ERROR:
        raise Failed(f"the game stopped with an error: {final.reason}")


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
