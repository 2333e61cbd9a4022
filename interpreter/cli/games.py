"""The commands that play games: `run` (one game, narrated), `simulate` (many, their statistics), `replay`, `play`.

Owns their arguments and what they print: a game's narration or its fault,
the statistics table of a sweep with each figure's interval, a replayed
log's verdict, and the start of terminal play (cli/play.py plays it).
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..spec.diagnostics import SpecError, render
from ..runtime.engine import SetupError, Status
from .common import (Failed, _agents, _compiling_note, _load, _pairs, _show_diagnostics, agent_opt, backend_opt,
                     budget_opt, engine_opt, err, option_opt, out, players_opt, reading_opt, seed_opt, workers_opt)


@click.command()
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
    from ..runtime.narrate import narrate
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


@click.command()
@click.argument("spec")
@players_opt
@click.option("--games", "-g", type=click.IntRange(1), default=1000, show_default=True)
@seed_opt
@workers_opt
@backend_opt
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


@click.command()
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


@click.command()
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
