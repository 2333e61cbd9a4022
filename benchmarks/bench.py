"""Interpreter against hand-written baselines: random-agent games per second, side by side.

This module owns the throughput benchmark of DESIGN.md section 7. For each entry
of BENCHMARKS it plays the same game seeds through the hand-written baseline and
through the interpreter running the spec, in one process, alternating the two
sides for several rounds and keeping each side's best round, and prints games/s,
decisions/s and the speed ratio interpreter / hand-written (goal: >= 0.5).

Because both sides play the same seeds with the same agent convention, it also
counts games whose results differ; that is a cheap smoke test, the real
differential test lives in tests/.

It deliberately does not profile, spread games over processes or store results:
one core, one batch, numbers on stdout.

    python benchmarks/bench.py --games 2000 --players 4 --seed 1 [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    # Run as `python benchmarks/bench.py`, sys.path holds benchmarks/, not the repo.
    sys.path.insert(0, str(ROOT))

from benchmarks import first_in_flight_handwritten, stun_handwritten, stun_lean, stunt_academy_handwritten  # noqa: E402

Baseline = Callable[..., dict]


@dataclass(frozen=True, slots=True)
class Benchmark:
    """One game measured both ways. Option names are shared by spec and baseline."""

    name: str
    spec: str  # relative to the repository root
    baseline: Baseline  # play(n_players, seed, **options, readings=...) -> dict
    options: dict[str, Any] = field(default_factory=dict)
    readings: dict[str, str] = field(default_factory=dict)
    same_games: bool = True  # False: a baseline with its own random streams, compared by statistics, not seed by seed


# Add a game here: its spec, its hand-written play function, the options to run.
BENCHMARKS: tuple[Benchmark, ...] = (
    Benchmark("stun", "games/stun.yaml", stun_handwritten.play, {"win_chips": 5}),
    # The honest reference: random play written for speed (benchmarks/stun_lean.py), statistically the same games.
    Benchmark("stun-lean", "games/stun.yaml", stun_lean.play, {"win_chips": 5}, same_games=False),
    Benchmark("stunt-academy", "games/stunt-academy.yaml", stunt_academy_handwritten.play),
    Benchmark("first-in-flight", "games/first-in-flight.yaml", first_in_flight_handwritten.play),
    Benchmark("fif-stunt-pack", "games/first-in-flight-stunt-pack.yaml", first_in_flight_handwritten.play_stunt_pack),
)


@dataclass(slots=True)
class Side:
    """Best timing of one side over the rounds, and the results of its games."""

    seconds: float = float("inf")
    decisions: int = 0
    results: list[tuple] = field(default_factory=list)
    error: str | None = None

    def rates(self, games: int) -> dict[str, float | int | str | None]:
        if self.error is not None:
            return {"error": self.error}
        return {
            "seconds": round(self.seconds, 4),
            "games_per_second": round(games / self.seconds, 1),
            "decisions": self.decisions,
            "decisions_per_second": round(self.decisions / self.seconds, 1),
        }


@dataclass(slots=True)
class Row:
    name: str
    hand: Side
    interp: Side
    load_seconds: float | None = None
    mismatches: int | None = None
    first_mismatch: dict | None = None
    statistics: str | None = None  # a baseline with its own streams: both sides' mean turns and decisions

    def ratio(self) -> float | None:
        if self.hand.error or self.interp.error or not self.interp.results:
            return None
        return self.hand.seconds / self.interp.seconds  # = interp games/s / hand games/s


def _stand_in_game_seed(master: int, index: int) -> int:
    # Used only when the interpreter (and its seed derivation) cannot be imported,
    # so baselines can still be timed; these seeds differ from the real ones.
    return master * 1_000_003 + index


def _import_interpreter() -> tuple[Callable | None, Callable | None, Callable, str | None]:
    """Return (load_game, play_random, game_seed, error message or None)."""
    try:
        from interpreter.api import load_game, play_random
        from interpreter.runtime.seeds import game_seed
    except ImportError as exc:
        return None, None, _stand_in_game_seed, f"{type(exc).__name__}: {exc}"
    return load_game, play_random, game_seed, None


def _run_hand(bench: Benchmark, players: int, seeds: list[int]) -> tuple[float, list[tuple]]:
    play = bench.baseline
    options, readings = bench.options, bench.readings
    results = []
    start = time.process_time()
    for seed in seeds:
        r = play(players, seed, **options, readings=readings)
        if "winners" in r:  # a game with shared wins reports them all
            winners = tuple(r["winners"])
        else:
            winners = () if r["winner"] is None else (r["winner"],)
        results.append((r["status"], winners, r["turns"], r["decisions"]))
    return time.process_time() - start, results


def _run_interp(
    play_random: Callable, game: Any, players: int, seeds: list[int]
) -> tuple[float, list[tuple]]:
    results = []
    start = time.process_time()
    for seed in seeds:
        r = play_random(game, players=players, seed=seed)
        status = getattr(r.status, "value", r.status)  # a StrEnum or a plain str
        results.append((status, tuple(r.winners), r.turns, r.decisions))
    return time.process_time() - start, results


def _record(side: Side, seconds: float, results: list[tuple]) -> None:
    if seconds < side.seconds:
        side.seconds = seconds
    if not side.results:
        side.results = results
        side.decisions = sum(r[3] for r in results)


def _compare(row: Row, seeds: list[int], same_games: bool = True) -> None:
    if row.hand.error or row.interp.error or not row.interp.results:
        return
    if not same_games:
        def means(results: list[tuple]) -> str:
            k = len(results)
            return f"turns {sum(r[2] for r in results) / k:.1f}, decisions {sum(r[3] for r in results) / k:.1f}"
        row.statistics = (f"own random streams, so compared by means (tests/test_stun_lean.py tests them): "
                          f"hand-written {means(row.hand.results)}; interpreter {means(row.interp.results)}")
        return
    keys = ("status", "winners", "turns", "decisions")
    bad = [i for i, (h, t) in enumerate(zip(row.hand.results, row.interp.results)) if h != t]
    row.mismatches = len(bad)
    if bad:
        i = bad[0]
        row.first_mismatch = {
            "index": i,
            "seed": seeds[i],
            "hand": dict(zip(keys, row.hand.results[i])),
            "interpreter": dict(zip(keys, row.interp.results[i])),
        }


def run(
    benches: list[Benchmark], players: int, seeds: list[int], rounds: int, interpreter: tuple
) -> list[Row]:
    load_game, play_random, _, interp_error = interpreter
    rows = []
    for bench in benches:
        row = Row(bench.name, Side(), Side(error=interp_error))
        game = None
        if row.interp.error is None:
            start = time.perf_counter()
            try:
                game = load_game(
                    str(ROOT / bench.spec), options=bench.options, readings=bench.readings
                )
            except Exception as exc:  # a broken spec must not hide the other rows
                row.interp.error = f"load_game failed: {type(exc).__name__}: {exc}"
            row.load_seconds = time.perf_counter() - start
        # Alternate the sides so a slow spell of the machine hits both.
        for _ in range(rounds):
            if row.hand.error is None:
                try:
                    _record(row.hand, *_run_hand(bench, players, seeds))
                except Exception as exc:  # e.g. a reading the baseline does not know
                    row.hand.error = f"baseline failed: {type(exc).__name__}: {exc}"
            if game is not None and row.interp.error is None:
                try:
                    _record(row.interp, *_run_interp(play_random, game, players, seeds))
                except Exception as exc:
                    row.interp.error = f"play_random failed: {type(exc).__name__}: {exc}"
        _compare(row, seeds, bench.same_games)
        rows.append(row)
    return rows


def _print_table(rows: list[Row], games: int, players: int, master: int, rounds: int) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{games} games x {players} players, master seed {master}, best of {rounds} rounds"
    )
    for column in ("game", "side", "games/s", "decisions/s", "seconds"):
        table.add_column(column, justify="left" if column in ("game", "side") else "right")
    table.add_column("ratio", justify="right")  # interpreter speed / hand-written speed
    table.add_column("agree", justify="right")  # games with identical results
    for row in rows:
        ratio = row.ratio()
        for side_name, side in (("hand-written", row.hand), ("interpreter", row.interp)):
            first = side is row.hand
            if side.error is not None:
                cells = ["[red]n/a[/red]", "", ""]  # the reason is printed below
            else:
                cells = [
                    f"{games / side.seconds:,.0f}",
                    f"{side.decisions / side.seconds:,.0f}",
                    f"{side.seconds:.3f}",
                ]
            table.add_row(
                row.name if first else "",
                side_name,
                *cells,
                "" if first or ratio is None else f"{ratio:.2f}",
                "" if first or row.mismatches is None else f"{games - row.mismatches}/{games}",
            )
    console = Console(width=None if sys.stdout.isatty() else 160)
    console.print(table)
    for row in rows:
        for side_name, side in (("hand-written", row.hand), ("interpreter", row.interp)):
            if side.error is not None:
                console.print(f"[red]{row.name} {side_name}:[/red] {side.error}")
        if row.load_seconds is not None and row.interp.error is None:
            console.print(f"{row.name}: load_game took {row.load_seconds:.3f} s (not in games/s)")
        if row.first_mismatch is not None:
            console.print(f"[yellow]{row.name}: first differing game[/yellow] {row.first_mismatch}")
        if row.statistics is not None:
            console.print(f"{row.name}: {row.statistics}")


def _parse_value(text: str) -> Any:
    """Read an --option value the way a spec would: bool, int, else the string."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


def _pairs(items: list[str], flag: str) -> dict[str, str]:
    pairs = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise SystemExit(f"bench.py: {flag} expects NAME=VALUE, got {item!r}")
        pairs[name] = value
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1, help="master seed")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per side, best is kept")
    parser.add_argument(
        "--game", action="append", choices=[b.name for b in BENCHMARKS],
        help="benchmark only this game (repeatable; default: all)",
    )
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--reading", action="append", default=[], metavar="AMBIGUITY=READING")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")

    options = {k: _parse_value(v) for k, v in _pairs(args.option, "--option").items()}
    readings = _pairs(args.reading, "--reading")
    benches = [
        Benchmark(b.name, b.spec, b.baseline, {**b.options, **options}, {**b.readings, **readings}, b.same_games)
        for b in BENCHMARKS
        if args.game is None or b.name in args.game
    ]

    interpreter = _import_interpreter()
    game_seed, interp_error = interpreter[2], interpreter[3]
    if interp_error is not None:
        print(
            f"bench.py: cannot import the interpreter ({interp_error}); timing the "
            "hand-written baselines only, with stand-in seeds.",
            file=sys.stderr,
        )
    seeds = [game_seed(args.seed, i) for i in range(args.games)]
    rows = run(benches, args.players, seeds, args.rounds, interpreter)

    if args.json:
        report = {
            "games": args.games,
            "players": args.players,
            "seed": args.seed,
            "rounds": args.rounds,
            "seeds": "stand-in" if interp_error else "interpreter.runtime.seeds.game_seed",
            "results": [
                {
                    "game": row.name,
                    "options": bench.options,
                    "readings": bench.readings,
                    "hand_written": row.hand.rates(args.games),
                    "interpreter": row.interp.rates(args.games),
                    "load_seconds": row.load_seconds,
                    "ratio": row.ratio(),
                    "mismatches": row.mismatches,
                    "first_mismatch": row.first_mismatch,
                    "statistics": row.statistics,
                }
                for row, bench in zip(rows, benches)
            ],
        }
        print(json.dumps(report, indent=2))
    else:
        _print_table(rows, args.games, args.players, args.seed, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
