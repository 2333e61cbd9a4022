"""Speed and scale figures, measured side by side in one run.

- workers: games/s of `simulate` with 1..N worker processes, and whether the
  statistics (all but timings) are identical for every N;
- memory: peak memory of a sweep as the number of games grows (it should stay flat);
- clone: microseconds to clone a mid-game state (what a search agent pays);
- check: milliseconds to check a spec as a new process (first run, then again with the files unchanged)
  and in a running process.

    python benchmarks/scale.py [--spec games/stun.yaml] [--players 4] [--games 4000] [--quick]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402


def _simulate(spec: str, players: int, games: int, workers: int) -> dict:
    out = subprocess.run([sys.executable, "-m", "interpreter.cli", "simulate", spec, "-p", str(players), "-g",
                          str(games), "--seed", "1", "-w", str(workers), "--json"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout)


def _peak_kib(spec: str, players: int, games: int) -> int:
    code = ("import resource,sys; from interpreter.lab.runner import GameSpec, sweep; "
            f"sweep(GameSpec({spec!r}), {players}, {games}, 1); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return int(out.stdout.strip().splitlines()[-1])


def _clone_us(spec: str, players: int) -> float:
    from interpreter.api import load_game
    from interpreter.runtime.engine import Status
    import random
    g = load_game(spec)
    st = g.new_game(players, 3)
    r = random.Random(3)
    for _ in range(60):
        if st.status is not Status.RUNNING:
            break
        st.apply(r.randrange(len(st.popts)))
    n = 20000
    t = time.perf_counter()
    for _ in range(n):
        st.clone()
    return (time.perf_counter() - t) / n * 1e6


def _check_ms(spec: str) -> tuple[float, float, float]:
    """`rulewright check` as a new process: the first run, then the median of repeated runs; and in-process."""
    with tempfile.TemporaryDirectory() as cache:  # an empty cache: the first run builds everything
        env = {**os.environ, "XDG_CACHE_HOME": cache}

        def once() -> float:
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "interpreter.cli.launch", "check", spec], capture_output=True,
                           check=True, cwd=ROOT, env=env)
            return (time.perf_counter() - t) * 1000
        first = once()
        again = statistics.median(once() for _ in range(5))
    from interpreter import api
    api.check_spec(spec)
    t = time.perf_counter()
    for _ in range(5):
        api.check_spec(spec)
    return first, again, (time.perf_counter() - t) / 5 * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", default="games/stun.yaml")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--quick", action="store_true", help="smaller memory series")
    a = ap.parse_args()
    con = Console(width=None if sys.stdout.isatty() else 160)
    t = Table(title=f"workers: {a.games} games of {a.spec}, {a.players} players", title_justify="left")
    for c in ("workers", "seconds", "games/s", "speed-up", "same statistics"):
        t.add_column(c, justify="right")
    base = None
    for w in range(1, (os.cpu_count() or 1) + 1):
        d = _simulate(a.spec, a.players, a.games, w)
        key = {k: v for k, v in d.items() if k not in ("seconds", "games_per_second", "workers")}
        if base is None:
            base = (d, key)
        t.add_row(str(w), f"{d['seconds']:.2f}", f"{d['games_per_second']:.0f}",
                  f"{base[0]['seconds'] / d['seconds']:.2f}x", "yes" if key == base[1] else "NO")
    con.print(t)
    m = Table(title="peak memory of one sweep (no logs are kept)", title_justify="left")
    m.add_column("games", justify="right")
    m.add_column("peak MiB", justify="right")
    for n in ([1000, 10000] if a.quick else [1000, 10000, 100000]):
        m.add_row(f"{n:,}", f"{_peak_kib(a.spec, a.players, n) / 1024:.1f}")
    con.print(m)
    first, again, warm = _check_ms(a.spec)
    o = Table(title="other figures", title_justify="left")
    o.add_column("measure")
    o.add_column("value", justify="right")
    o.add_row("clone of a mid-game state", f"{_clone_us(a.spec, a.players):.1f} us")
    o.add_row("rulewright check, first run with an empty cache (new process)", f"{first:.0f} ms")
    o.add_row("rulewright check again, files unchanged (new process, kept verdict)", f"{again:.0f} ms")
    o.add_row("check in a running process (grammar and parsed rules cached)", f"{warm:.1f} ms")
    con.print(o)


if __name__ == "__main__":
    main()
