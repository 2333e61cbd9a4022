"""`rulewright tune`: the variant search on the command line (its own module: commands.py names it, and imports
it only when it is run; it imports common.py, never commands.py).

Owns the command's arguments, the rendering of bad `--target` and `--vary`
text as positioned diagnostics (exit 2), the ranked table, the Pareto line,
the policy-sensitivity warnings, and writing `--out` (a variant spec, written
atomically and checked before it is kept), `--report` and `--json`. The
search itself is interpreter/lab/tune.py's.
"""
from __future__ import annotations

import json
import os

import click
from rich.table import Table

from ..spec.diagnostics import SpecError, render_in
from .common import (Failed, _load, _pairs, _show_diagnostics, backend_opt, budget_opt, err, option_opt, out,
                     reading_opt, seed_opt, workers_opt, write_report)


class BadArguments(Failed):
    """Arguments that cannot be used, already shown as diagnostics (exit 2, as a usage error)."""
    exit_code = 2


_MEETS_STYLE = {"true": "green", "false": "red", "undecided": "magenta"}
_VERDICT_STYLE = {"inside": "green", "outside": "red", "undecided": "magenta"}


def _cell(e) -> str:
    if e.target.objective:
        return e.shown
    return f"{e.shown} [{_VERDICT_STYLE[e.verdict]}]{e.verdict}[/{_VERDICT_STYLE[e.verdict]}]"


def _print_search(rep, s, show: int) -> None:
    from ..lab.tune import CONFIRM_OFFSET
    what = "every variant" if s.mode == "exhaustive" else f"{len(s.candidates)} of {rep.space} variants (Optuna TPE)"
    out.print(f"{rep.game}: {what}, {rep.players} players, {s.policy} players, seed {rep.seed}; batches of "
              f"{rep.games} games growing to {rep.max_games}; {s.games:,} games in all, {s.seconds:.1f} s "
              f"(CPU {s.cpu_seconds:.1f} s)", markup=False)
    t = Table(title_justify="left", title="ranked, those meeting every target first; variant: what differs from "
              "the spec's defaults; each target's mean with its anytime-valid "
              f"{rep.level:.0%} interval (Bonferroni over the targets); * Pareto set; † a reading the rulebook's "
              "words rule out")
    t.add_column("#", justify="right")
    t.add_column("variant")
    t.add_column("meets")
    for tg in rep.targets:
        t.add_column(tg.text)
    t.add_column("games", justify="right")
    t.add_column("stopped")
    ranked = s.ranked
    by_label = {c.label: c for c in ranked}
    for c in ranked[:show]:
        style = _MEETS_STYLE[c.meets]
        if c.error:
            t.add_row(str(c.rank), c.changes, "[red]error[/red]", *["-"] * len(rep.targets), "0", c.error)
            continue
        stopped = ("early: " + ", ".join(e.target.measure for e in c.estimates if e.verdict == "outside")
                   if c.stopped.startswith("outside") else "cap" if c.stopped.endswith("(the cap)") else c.stopped)
        if c.same_as:
            stopped += f" (the games of #{by_label[c.same_as].rank})"
        t.add_row(f"{c.rank}{'*' if c.pareto else ''}", c.changes + (" †" if c.against_text else ""),
                  f"[{style}]{c.meets}[/{style}]", *[_cell(e) for e in c.estimates], f"{c.games:,}", stopped)
    out.print(t)
    if len(ranked) > show:
        out.print(f"... and {len(ranked) - show} more (--show N, or --json for all)", markup=False)
    meeting = [c for c in ranked if c.meets == "true"]
    undecided = [c for c in ranked if c.meets == "undecided"]
    out.print(f"meet every target: {len(meeting)}; undecided: {len(undecided)}; fail: "
              f"{sum(c.meets == 'false' for c in ranked)}", markup=False)
    twins = sum(c.same_as is not None for c in ranked)
    if twins:
        out.print(f"{twins} variant(s) played exactly the games of a better-ranked one: what they change never "
                  "happens in these games, or changes nothing", markup=False)
    front = [c.changes + (" †" if c.against_text else "") for c in ranked if c.pareto]
    if len(rep.targets) > 1:
        shown = "; ".join(front[:8]) + (f" and {len(front) - 8} more" if len(front) > 8 else "") if front else "none"
        out.print("the Pareto set (no other variant beats these: surely better on a target, surely worse on none): "
                  + shown, markup=False)
    for c in ranked:
        if c.confirmed is not None:
            f = c.confirmed
            style = _MEETS_STYLE[f.meets]
            out.print(f"confirmed #{c.rank} {c.changes} on {f.games:,} other games (master seed "
                      f"{rep.seed + CONFIRM_OFFSET}): meets [{style}]{f.meets}[/{style}]; "
                      + "; ".join(f"{e.target.text} {e.shown}" for e in f.estimates))
    best = s.best
    if best is not None:
        out.print(f"best: {best.label} (meets: {best.meets})" +
                  (f"; it reads {', '.join(best.against_text)} against the rulebook's words" if best.against_text
                   else ""), markup=False)


@click.command()
@click.argument("spec")
@click.option("--players", "-p", type=click.IntRange(1, 16), required=True, help="Number of players.")
@click.option("--vary", "vary", multiple=True, metavar="NAME[=V1,V2,...]",
              help="An option or ambiguity to search over (repeatable): all its values, or NAME=A,B,C, or "
                   "NAME=LO..HI for an integer option.")
@click.option("--target", "targets", multiple=True, metavar="TARGET",
              help="What the game should be like (repeatable): a band over a measure (`turns 60..90`, "
                   "`wins spread <= 2pt`, `stalled <= 0.5pt`, `margin >= 3`, `win P1 45%..55%`, a spec measure) "
                   "or a direction (`minimise turns`, `maximise margin`).")
@click.option("--games", "-g", type=click.IntRange(10), default=200, show_default=True,
              help="Games in a candidate's first batch; each later batch doubles its games.")
@click.option("--max-games", type=click.IntRange(10), default=3200, show_default=True,
              help="Games per candidate at most.")
@seed_opt
@workers_opt
@backend_opt
@click.option("--address", default=None, help="Ray cluster address (e.g. auto); none starts a local Ray.")
@click.option("--search", type=click.Choice(["auto", "exhaustive", "optuna"]), default="auto", show_default=True,
              help="Every variant, or Optuna's sampler with pruning; auto: every variant when there are at most "
                   "--trials of them.")
@click.option("--trials", type=click.IntRange(1), default=100, show_default=True,
              help="Variants Optuna tries at most.")
@click.option("--agents", "policies", metavar="AGENT,AGENT,...", default=None,
              help="Who plays (every seat that agent): random, greedy, mcts:50 ...; several: search once each, "
                   "and flag a best variant that depends on who plays. Default: the spec's lab.agents, or random.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False),
              help="Write the best variant as a spec that extends SPEC (checked before it is kept).")
@click.option("--report", "report_dir", type=click.Path(file_okay=False),
              help="Write an HTML report with a plot of each target across the searched values.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with every candidate.")
@click.option("--confirm", type=click.IntRange(0), default=0, show_default=True,
              help="Play the best K variants that meet (or may meet) the targets again on other seeds, judged afresh "
                   "(free of the optimism of picking the best of many).")
@click.option("--show", type=click.IntRange(1), default=15, show_default=True, help="Rows of the ranked table.")
@option_opt
@reading_opt
@budget_opt
def tune(spec: str, players: int, vary, targets, games: int, max_games: int, seed: int, workers: int, backend: str,
         address, search: str, trials: int, policies, out_path, report_dir, as_json: bool, confirm: int, show: int,
         options, readings, budget) -> None:
    """Search options and readings for the variants that meet design targets: each candidate plays the
    same seeds in growing batches, each target judged inside, outside or undecided; a candidate surely
    outside stops early. A ranked table, the Pareto set, and the best variant as a spec (--out)."""
    from ..lab import settings as S
    from ..lab.runner import require_ray, use_backend
    from ..lab.targets import SOURCE, parse_targets, source_text
    from ..lab.tune import VARY_SOURCE, TuneError, parse_vary, tune as do_tune, variant_yaml
    opts, reads = _pairs(options, "--option"), _pairs(readings, "--reading")
    game = _load(spec, opts, reads, budget)
    s = game.spec
    if not s.min_players <= players <= s.max_players:
        raise click.UsageError(f"{s.name} is for {s.min_players} to {s.max_players} players, not {players}")
    if not vary:
        names = list(s.options) + list(s.ambiguities)
        raise click.UsageError("say what to search over with --vary NAME (repeatable)" +
                               (f"; this spec has: {', '.join(names)}" if names else "; this spec declares no "
                                "options or ambiguities"))
    if not targets:
        raise click.UsageError("say what the game should be like with --target (e.g. --target 'turns 60..90')")
    if out_path:  # before the search: the variant written there must be allowed to extend the spec
        from ..spec import files
        problem = files.named_file_problem(os.path.abspath(spec), files.allowed_folders(
            os.path.dirname(os.path.abspath(out_path))))
        if problem:
            raise click.UsageError(f"--out: a variant in {os.path.dirname(os.path.abspath(out_path))} may not extend "
                                   f"{spec}: {problem}; write it beside the spec, or add the spec's folder to "
                                   f"{files.ALLOW_ENV}")
    bad: list = []  # every bad --vary and --target at once
    try:
        axes = parse_vary(list(vary), s)
    except SpecError as exc:
        bad.extend(exc.diagnostics)
    try:
        wanted = parse_targets(list(targets), list(s.measures), players)
    except SpecError as exc:
        bad.extend(exc.diagnostics)
    if bad:
        for block in render_in(bad, {VARY_SOURCE: source_text(list(vary)), SOURCE: source_text(list(targets))}):
            err.print(block, markup=False)
        raise BadArguments(f"{len(bad)} bad argument(s) (--vary, --target); nothing was run")
    try:
        if policies is not None:
            names = S.parse_policies(policies)
            if not names:
                raise click.UsageError("--agents: name at least one agent")
            seats = [{k: n for k in range(players)} if n != "random" else {} for n in names]
        else:
            seats = [S.spec_agents(s, players)]
    except S.SettingsError as exc:
        raise click.UsageError(str(exc)) from None
    except SpecError as exc:
        _show_diagnostics(exc.diagnostics)
        raise Failed(f"{spec}: the lab section has errors; nothing was run") from None
    if out_path and not os.path.isdir(os.path.dirname(os.path.abspath(out_path))):
        raise click.UsageError(f"--out: the folder of {out_path} does not exist")
    if report_dir:  # before the games: a report that cannot be written should not cost a long run
        from ..lab.report import ReportError, _plt
        try:
            _plt()
        except ReportError as exc:
            raise Failed(str(exc)) from None
    if backend == "ray":
        try:
            require_ray()
        except RuntimeError as exc:
            raise Failed(str(exc)) from None
    use_backend(backend, address)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as progress:
        def started(policy: str, expected: int):
            task = progress.add_task(f"tuning ({policy} players)", total=expected)
            return lambda k: progress.advance(task, k)
        try:
            rep = do_tune(spec, players, seed, wanted, axes, options=opts, readings=reads, policies=seats,
                          games=games, max_games=max_games, workers=workers, trials=trials, search=search,
                          budget=budget, confirm=confirm, progress=started)
        except TuneError as exc:
            raise click.UsageError(str(exc)) from None
    if report_dir:
        from ..lab.tune_report import write_tune_report
        write_report(write_tune_report, rep, report_dir)
    best = rep.best
    wrote = None
    if out_path and best is not None and best.meets != "false":
        wrote = _write_variant(variant_yaml(rep, best, out_path), out_path)
    if as_json:
        d = rep.as_dict()
        d["out"] = wrote
        click.echo(json.dumps(d))
    else:
        for k, srch in enumerate(rep.searches):
            if k:
                out.print("")
            _print_search(rep, srch, show)
        for note in rep.sensitivity:
            out.print(f"[bold yellow]warning[/bold yellow]: {note}")
    if wrote:
        err.print(f"best variant written to {wrote} ({best.label}; meets: {best.meets})", markup=False)
    if out_path and wrote is None:
        raise Failed("no variant meets the targets, or may meet them: nothing was written to " + out_path)


def _write_variant(text: str, out_path: str) -> str:
    """Write the variant atomically, but only once it checks clean as the file it will be (its `extends:` is
    relative to its own folder)."""
    from ..lab.tune import check_variant
    from ..runtime.gamelog import write_atomic
    problems = check_variant(text, os.path.abspath(out_path))
    if problems:
        _show_diagnostics(problems)
        raise Failed("the best variant does not check (a bug in tune; please report it): nothing was written")
    try:
        write_atomic(out_path, text)
    except OSError as exc:
        raise Failed(f"cannot write {out_path}: {exc.strerror or exc}") from None
    return out_path
