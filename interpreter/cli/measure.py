"""The commands that measure a spec over many games: `compare`, `ambiguities` (the lab), `lint`.

Owns their arguments and their tables: a comparison of two specs or
variants, every ambiguity's verdict with its interval and the games it took
to decide, the margins in force, and the lint findings. The measuring itself
is the lab's (interpreter/lab/).
"""
from __future__ import annotations

import json

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..spec.diagnostics import SpecError
from ..runtime.engine import SetupError
from .common import (Failed, _agents, _compiling_note, _load, _pairs, _show_diagnostics, agent_opt, budget_opt,
                     engine_opt, err, margin_opt, option_opt, out, players_opt, reading_opt, seed_opt, write_report)


@click.command()
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
    for col in ("ambiguity", "interpretation", "verdict", "games", "games to decide", "turns",
                "largest win-share change", "stalled", "margin"):
        t.add_column(col)
    for a in rep.ambiguities:
        for k, r in enumerate(a.readings):
            iv = _key_intervals(r.intervals)
            win = iv["win"]
            style = _VERDICT_STYLE[r.verdict]
            shown = r.verdict != "unreachable"
            t.add_row(a.name if k == 0 else "", r.interpretation + (" (contradicts the text)" if r.contradicts_text else ""),
                      f"[{style}]{r.verdict}[/{style}]" + (" (identical games)" if r.identical and shown else ""),
                      f"{r.games:,}" if shown else "-", _games_to_decide(r),
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
    counts = sorted({r.games for a in rep.ambiguities for r in a.readings if r.verdict != "unreachable"})
    per = (f"{rep.games:,} games per interpretation" if len(counts) < 2 or rep.mode != "sequential" else
           f"{rep.games:,} games under the default, each interpretation until decided "
           f"({counts[0]:,} to {counts[-1]:,})")
    out.print(f"{spec_name}: {per}, {players} players, seed {seed}, players: "
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


@click.command()
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
        from ..lab.report import write_lab_report
        write_report(write_lab_report, rep, report_dir)
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


@click.command()
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
