"""What the browser table costs: bot games per second, engine alone vs the table vs HTTP, side by side.

The same bot games (the same specs, seeds and seats), in one process, in rounds that alternate the
sides, each side's best round kept:
- engine: `State.apply` with the agents, a log kept (what `rulewright run` does);
- table:  the web table's `Table` (the same games, plus each seat's view and redacted narration);
- http:   a real uvicorn server on loopback, one client starting each game and reading it back;
- http xN: the same with N clients at once, each its own browser session.
It prints games/s for each and the ratios to the engine. Timings on a shared machine are noisy: run
several rounds and read the spread it prints.

    python benchmarks/table.py --games 40 --rounds 3 --clients 4
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "tests")):
    if p not in sys.path:
        sys.path.insert(0, p)
os.chdir(ROOT)

from interpreter.api import load_game, make_agent  # noqa: E402
from interpreter.runtime.engine import Status  # noqa: E402
from interpreter.runtime.seeds import game_seed  # noqa: E402
from interpreter.web.app import Limits, create_app  # noqa: E402
from interpreter.web.tables import Settings, Table  # noqa: E402

CASES = [("stun", "games/stun.yaml", 3), ("secrets", "tests/specs/secrets.yaml", 2)]


def engine_side(games: dict, n: int) -> None:
    for sid, _path, players in CASES:
        g = games[sid]
        for s in range(n):
            st = g.new_game(players, s, log=True)
            while st.status is Status.RUNNING:
                st.apply(make_agent("random", game_seed(s, len(st.choices)), st.pplayer).pick(st))


def table_side(games: dict, n: int) -> None:
    for sid, _path, players in CASES:
        for s in range(n):
            Table(games[sid], Settings(sid, players, s, seats=["random"] * players))


def http_side(url: str, n: int, clients: int) -> None:
    import httpx

    def one(k: int) -> None:
        with httpx.Client(base_url=url, timeout=60) as c:
            for sid, _path, players in CASES:
                for s in range(k, n, clients):
                    r = c.post("/api/games", json={"spec": sid, "players": players, "seed": s,
                                                   "seats": ["random"] * players})
                    r.raise_for_status()
                    c.get(f"/api/games/{r.json()['id']}").raise_for_status()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(one, range(clients)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per spec per side and round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clients", type=int, default=4)
    a = ap.parse_args()
    from web_helpers import running
    games = {sid: load_game(path) for sid, path, _ in CASES}
    app = create_app([path for _, path, _ in CASES],  # the table's caps lifted: this measures speed, not limits
                     limits=Limits(sessions=1000, games_per_session=10_000, games=1_000_000, memory_mb=1_000_000))
    total = a.games * len(CASES)
    times: dict[str, list[float]] = {"engine": [], "table": [], "http x1": [], f"http x{a.clients}": []}
    with running(app) as url:
        http_side(url, 2, 1)  # warm up: compiled games, the thread pool
        for _ in range(a.rounds):
            for name, fn in (("engine", lambda: engine_side(games, a.games)),
                             ("table", lambda: table_side(games, a.games)),
                             ("http x1", lambda: http_side(url, a.games, 1)),
                             (f"http x{a.clients}", lambda: http_side(url, a.games, a.clients))):
                t0 = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - t0)
    best_engine = min(times["engine"])
    print(f"{total} bot games per side and round ({', '.join(f'{s} {p}p' for s, _, p in CASES)}), "
          f"{a.rounds} rounds, best round kept (spread: worst/best)")
    for name, ts in times.items():
        best = min(ts)
        print(f"  {name:10s} {total / best:8.1f} games/s   x{best_engine / best:5.2f} of the engine   "
              f"spread {max(ts) / best:4.2f}")


if __name__ == "__main__":
    main()
