"""How strong and how fast the bots are: win share against random agents, per shipped spec.

For every spec in games/ (or those given), one agent plays against random
agents in all other seats; its seat rotates from game to game so no seat's
advantage counts for it. It reports the agent's win share (ties split),
a 95% confidence interval (Wilson score), what a random agent would expect
(1/players) and a one-sided test of "no better than random" (the p-value of
the share under a random seat's chance, normal approximation); and, for
mcts, how the share grows with its budget. Speed, per row: the agent's own
decisions per second (time inside its `pick`), for mcts its search
iterations per second (decisions with more than one option x iterations),
beside a first row of random play (every seat random, decisions/s of whole
games). Games are spread over processes with per-game seeds from the master
seed, so the numbers but the timings do not depend on --workers.

    python benchmarks/agents.py                         # every spec, default matchups
    python benchmarks/agents.py games/stun.yaml --games 200 --budgets 10,30,100,300 --workers 2
    python benchmarks/agents.py --json results.json

Each matchup is measured on both engines in the same run (`--engines kernel,python`): the kernel row
plays the search agents natively (interpreter/kernel/agents.py: the same agent by name and settings);
its decisions/s are those of whole games (every seat) and its iterations/s the agent's iterations over the
batch's CPU time (random seats included, so they are a floor), the Python row's the agent's own picks.
`--targets` measures issue 24's targets, kernel against Python engine, each side in CPU time:

    python benchmarks/agents.py --targets            # greedy everywhere in 4p STUN; mcts in 2p STUN, 3p Stunt Academy
    python benchmarks/agents.py --targets --only cautious,time   # cautious (4p STUN, 3p Love Letter); mcts:time=
    python benchmarks/agents.py --targets --only secrets  # greedy in Liar's Dice (hidden dice), mcts in Goofspiel

The time-budget rows (`time`): `mcts:time=20ms` on both engines (iterations/s and win share: a timed
agent is as strong as the iterations its engine fits in the time, so the kernel's is the stronger), and
the cost of reading the clock: `mcts:200` against `mcts:iterations=200,time=60s` on the kernel, which
play the same games (the budget is never reached), so their iterations/s differ by the check alone.
"""
from __future__ import annotations

import argparse
import glob
import json
import math
import multiprocessing as mp
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from interpreter.api import load_game  # noqa: E402
from interpreter.spec.diagnostics import SpecError  # noqa: E402
from interpreter.runtime.engine import Status  # noqa: E402
from interpreter.lab.runner import make_agents  # noqa: E402
from interpreter.runtime.seeds import game_seed  # noqa: E402

_games: dict = {}


class _Timed:
    """An agent whose picks are counted and timed (and, for mcts, its search iterations)."""

    def __init__(self, inner):
        self.inner, self.name = inner, inner.name
        self.picks = self.iterations = 0
        self.seconds = 0.0

    def pick(self, state) -> int:
        t0 = time.perf_counter()
        i = self.inner.pick(state)
        self.seconds += time.perf_counter() - t0
        self.picks += 1
        if self.name == "mcts":  # the iterations it took (a time budget stops them before `iterations`)
            self.iterations = self.inner.used
        return i


def _one(task: tuple) -> tuple:
    """(the agent's win share, finished, seconds, its picks, their seconds, its iterations, decisions) of one game."""
    path, players, agent, master, i = task
    if path not in _games:
        _games[path] = load_game(path)
    game = _games[path]
    seat = i % players
    seed = game_seed(master, i)
    t0 = time.perf_counter()
    seated = make_agents({seat: agent}, players, seed)
    timed = seated[seat] = _Timed(seated[seat])
    st = game.new_game(players, seed)
    st.auto = seated  # as runner.play does: the agents decide inside the run
    while st.status is Status.RUNNING:
        st.apply(seated[st.pplayer].pick(st))
    share = (1.0 / len(st.winners)) if seat in st.winners else 0.0
    return (share, st.status is Status.FINISHED, time.perf_counter() - t0, timed.picks, timed.seconds,
            timed.iterations, st.decisions)


def p_not_better(share_sum: float, n: int, p0: float) -> float:
    """One-sided p-value of "the agent wins no more than a random seat would" (normal approximation).

    Ties give fractional wins, so the variance is estimated from the shares seen, not p0 (1 - p0)."""
    if n < 2:
        return 1.0
    p = share_sum / n
    sd = math.sqrt(max(p * (1 - p), p0 * (1 - p0)) / n)
    return 0.5 * math.erfc((p - p0) / sd / math.sqrt(2))


def wilson(share_sum: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (fractional successes from ties are fine)."""
    if n == 0:
        return 0.0, 1.0
    p = share_sum / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def match(pool, path: str, players: int, agent: str, games: int, seed: int) -> dict:
    tasks = [(path, players, agent, seed, i) for i in range(games)]
    t0 = time.perf_counter()
    results = list(pool.imap(_one, tasks)) if pool else [_one(t) for t in tasks]
    wall = time.perf_counter() - t0
    wins = sum(r[0] for r in results)
    lo, hi = wilson(wins, games)
    picks, pick_s, iters = sum(r[3] for r in results), sum(r[4] for r in results), sum(r[5] for r in results)
    game_s, decisions = sum(r[2] for r in results), sum(r[6] for r in results)
    return {"spec": path, "players": players, "agent": agent, "games": games, "seed": seed,
            "win_share": round(wins / games, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "random_expects": round(1 / players, 4), "p_not_better": p_not_better(wins, games, 1 / players),
            "unfinished": sum(not r[1] for r in results),
            "seconds_per_game": round(game_s / games, 3), "wall_seconds": round(wall, 1),
            "decisions_per_second": round(picks / pick_s, 1) if pick_s > 0 else None,
            "game_decisions_per_second": round(decisions / game_s, 1) if game_s > 0 else None,
            "iterations_per_second": round(iters / pick_s, 1) if iters and pick_s > 0 else None}


def kernel_match(path: str, players: int, agent: str, games: int, seed: int, every_seat: bool = False) -> dict | None:
    """`match` on the kernel (None when the kernel cannot play these games: the reason is printed)."""
    from interpreter.kernel import why_not
    from interpreter.kernel.agents import search_kernel_for
    game = load_game(path)
    seats = {p: agent for p in range(players)} if every_seat else {0: agent}
    reason = why_not(game.spec, seats)
    if reason is not None:
        print(f"{agent + ' [kernel]':<28} not on the kernel: {reason}")
        return None
    sk = search_kernel_for(game.spec)
    sk.batch(game, players, [game_seed(seed, 0)], seats)  # compiled (or loaded) before the clock starts
    wins = decisions = used = 0
    cpu = 0.0
    finished = 0
    for seat in range(players):  # the agent's seat rotates, as in `match`
        mine = [game_seed(seed, i) for i in range(seat, games, players)]
        if not mine:
            continue
        ag = seats if every_seat else {seat: agent}
        t0 = time.process_time()
        rows, k = sk.batch(game, players, mine, ag)
        cpu += time.process_time() - t0
        used += k
        decisions += int(rows[:, 2].sum())
        finished += int((rows[:, 0] == 1).sum())
        me = 0 if every_seat else seat  # every seat the same agent: seat 0's share, as python_every_seat's
        for r in rows:
            w = r[7:7 + players]
            if w[me] and w.sum():
                wins += 1.0 / w.sum()
    lo, hi = wilson(wins, games)
    return {"spec": path, "players": players, "agent": agent, "engine": "kernel", "games": games, "seed": seed,
            "win_share": round(wins / games, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "random_expects": round(1 / players, 4), "p_not_better": p_not_better(wins, games, 1 / players),
            "unfinished": games - finished, "seconds_per_game": round(cpu / games, 5),
            "decisions_per_second": round(decisions / cpu, 1) if cpu > 0 else None,
            "game_decisions_per_second": round(decisions / cpu, 1) if cpu > 0 else None,
            "iterations_per_second": round(used / cpu, 1) if used and agent.startswith("mcts") and cpu > 0 else None}


def python_every_seat(path: str, players: int, agent: str, games: int, seed: int) -> dict:
    """Every seat `agent` on the Python engine: decisions/s of whole games (CPU time), seat 0's share."""
    from interpreter.lab.runner import play
    game = load_game(path)
    wins, decisions = 0.0, 0
    t0 = time.process_time()
    for i in range(games):
        st = play(game, players, game_seed(seed, i), {p: agent for p in range(players)})
        decisions += st.decisions
        wins += 1.0 / len(st.winners) if 0 in st.winners else 0.0
    cpu = time.process_time() - t0
    lo, hi = wilson(wins, games)
    return {"spec": path, "players": players, "agent": agent, "engine": "python", "games": games,
            "win_share": round(wins / games, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "decisions_per_second": round(decisions / cpu, 1)}


def _print_row(label: str, r: dict, rate_key: str = "decisions_per_second") -> None:
    ci = f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]"
    it = f"{r['iterations_per_second']:>10,.0f}" if r.get("iterations_per_second") else f"{'':>10}"
    print(f"{label:<34} {r['win_share']:>9.3f}  {ci:<15} {r['games']:>6} {r.get(rate_key) or 0:>12,.0f} {it}",
          flush=True)


def _every_seat(agent: str, games: int, py_games: int, seed: int, out: list, goal: str = "",
                path: str = "games/stun.yaml", players: int = 4, name: str = "STUN") -> None:
    """`agent` in every seat (of 4-player STUN) on both engines: decisions/s of whole games, seat 0's share."""
    r_k = kernel_match(path, players, agent, games, seed, every_seat=True)
    r_p = python_every_seat(path, players, agent, py_games, seed)
    _print_row(f"{agent} x{players}, {players}p {name} [kernel] seat 0", r_k)
    _print_row(f"{agent} x{players}, {players}p {name} [python] seat 0", r_p)
    print(f"{'  ratio' + goal:<34} {r_k['decisions_per_second'] / r_p['decisions_per_second']:>48.1f}x")
    out += [r_k, r_p]


def _both(path: str, players: int, agent: str, k_games: int, p_games: int, seed: int, out: list) -> tuple:
    """`agent` in one seat against random players, on the kernel and on the Python engine (the agent's own
    decisions/s there); the two rows printed and kept."""
    k = kernel_match(path, players, agent, k_games, seed)
    p = match(None, path, players, agent, p_games, seed)
    p["engine"] = "python"
    name = os.path.basename(path).removesuffix(".yaml")
    if k is not None:
        _print_row(f"{agent}, {players}p {name} [kernel]", k)
        out.append(k)
    _print_row(f"{agent}, {players}p {name} [python]", p)
    out.append(p)
    return k, p


def targets(games: int, seed: int, out: list, only: set[str] | None = None) -> None:
    """Issue 24's targets, each kernel against Python engine in one run (`only`: of greedy, mcts, cautious,
    time, secrets)."""
    print(f"\n{'target':<34} {'win share':>9}  {'95% CI':<15} {'games':>6} {'decisions/s':>12} {'iter/s':>10}")
    py_games = max(20, games // 10)
    if only is None or "greedy" in only:
        _every_seat("greedy", games, py_games, seed, out, " (goal: 10x)")
    if only is None or "cautious" in only:
        _every_seat("cautious", games, py_games, seed, out)
        _both("games/love_letter.yaml", 3, "cautious", games, py_games, seed, out)  # hidden hands, vs random
    if only is None or "time" in only:
        k, p = _both("games/stun.yaml", 2, "mcts:time=20ms", max(10, games // 40), max(10, games // 40), seed, out)
        _iter_ratio(k, p)
        plain = kernel_match("games/stun.yaml", 2, "mcts:200", games // 4, seed)
        timed = kernel_match("games/stun.yaml", 2, "mcts:iterations=200,time=60s", games // 4, seed)
        if plain is not None and timed is not None:
            _print_row("mcts:200, 2p STUN [kernel]", plain)
            _print_row("  the same, time=60s [kernel]", timed)
            print(f"{'  the clock check costs':<34} "
                  f"{100 * (1 - timed['iterations_per_second'] / plain['iterations_per_second']):>58.1f}%")
            out += [plain, timed]
    if only is None or "secrets" in only:  # hidden variables (Liar's Dice's dice), sealed picks (Goofspiel)
        _every_seat("greedy", games * 5, py_games * 5, seed, out, "", "games/liars_dice.yaml", 2, "Liar's Dice")
        _both("games/liars_dice.yaml", 2, "greedy", games * 5, py_games * 10, seed, out)
        _both("games/goofspiel.yaml", 2, "mcts:50", games, py_games, seed, out)
    if only is not None and "mcts" not in only:
        return
    for path, players in (("games/stun.yaml", 2), ("games/stunt-academy.yaml", 3)):
        k, p = _both(path, players, "mcts:200", games // 4, max(10, py_games // 2), seed, out)
        _iter_ratio(k, p, " (goal: 20x)")


def _iter_ratio(k: dict | None, p: dict, goal: str = "") -> None:
    if k is not None and p.get("iterations_per_second"):
        print(f"{'  ratio of iter/s' + goal:<34} {k['iterations_per_second'] / p['iterations_per_second']:>59.1f}x")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="*", help="specs to measure (default: every games/*.yaml)")
    ap.add_argument("--players", type=int, default=None, help="players per game (default: each spec's minimum)")
    ap.add_argument("--games", type=int, default=100, help="games per matchup")
    ap.add_argument("--agents", default="greedy,mcts:100", help="agents measured against random, comma-separated "
                    "(settings with ';' instead of ',': mcts:100;depth=10)")
    ap.add_argument("--budgets", default="10,30,100,300", help="mcts iterations for the strength-vs-budget curve "
                    "('' to skip)")
    ap.add_argument("--budget-agent", default="mcts:{}", help="the agent of the curve, {} is the budget")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", dest="json_path", help="also write every result to this file")
    ap.add_argument("--engines", default="kernel,python", help="engines each matchup is measured on")
    ap.add_argument("--targets", action="store_true", help="only issue 24's speed targets (see above)")
    ap.add_argument("--only", default="", help="with --targets: which of greedy,mcts,cautious,time,secrets "
                    "(default: all)")
    args = ap.parse_args(argv)
    if args.targets:
        out: list = []
        targets(args.games * 10 if args.games != 100 else 400, args.seed, out,
                {w for w in args.only.split(",") if w} or None)
        if args.json_path:
            with open(args.json_path, "w", encoding="utf-8") as fh:
                json.dump(out, fh, indent=1)
        return 0
    engines = [e for e in args.engines.split(",") if e]
    specs = args.specs or sorted(glob.glob(os.path.join(ROOT, "games", "*.yaml")))
    agents = [a.replace(";", ",") for a in args.agents.split(",") if a]
    budgets = [int(b) for b in args.budgets.split(",") if b]
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    pool = ctx.Pool(args.workers) if args.workers > 1 else None
    out = []
    try:
        for path in specs:
            rel = os.path.relpath(path, ROOT)
            try:
                game = load_game(path)
            except SpecError:
                print(f"\n{rel}: skipped, the spec has errors (rulewright check {rel})")
                continue
            n = args.players or game.spec.min_players
            print(f"\n{game.spec.name} ({rel}), {n} players, {args.games} games per row, seed {args.seed}")
            print(f"{'agent vs random':<28} {'win share':>9}  {'95% CI':<15} {'random':>6} {'p(<=rnd)':>8} "
                  f"{'s/game':>7} {'decisions/s':>11} {'iter/s':>8}")
            curve = args.budget_agent.replace(";", ",")
            rows = [("random", "reference")] + [(a, "matchup") for a in agents] + \
                [(curve.format(b), "budget") for b in budgets]
            for agent, kind in rows:
                if "kernel" in engines and kind != "reference":
                    k = kernel_match(path, n, agent, args.games, args.seed)
                    if k is not None:
                        k["kind"] = kind
                        out.append(k)
                        ci = f"[{k['ci95'][0]:.3f}, {k['ci95'][1]:.3f}]"
                        it = f"{k['iterations_per_second']:>8,.0f}" if k["iterations_per_second"] else f"{'':>8}"
                        print(f"{agent + ' [kernel]':<28} {k['win_share']:>9.3f}  {ci:<15} {k['random_expects']:>6.3f} "
                              f"{k['p_not_better']:>8.3g} {k['seconds_per_game']:>7.3f} "
                              f"{k['decisions_per_second'] or 0:>11,.0f} {it}", flush=True)
                if "python" not in engines and kind != "reference":
                    continue
                r = match(pool, path, n, agent, args.games if kind != "reference" else max(args.games, 200),
                          args.seed)
                r["kind"] = kind
                out.append(r)
                ci = f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]"
                # random play: decisions/s of whole games (every seat); an agent: its own picks only
                rate = r["game_decisions_per_second"] if kind == "reference" else r["decisions_per_second"]
                it = f"{r['iterations_per_second']:>8,.0f}" if r["iterations_per_second"] else f"{'':>8}"
                print(f"{agent:<28} {r['win_share']:>9.3f}  {ci:<15} {r['random_expects']:>6.3f} "
                      f"{r['p_not_better']:>8.3g} {r['seconds_per_game']:>7.2f} {rate or 0:>11,.0f} {it}"
                      + (f"  ({r['unfinished']} unfinished)" if r["unfinished"] else ""), flush=True)
    finally:
        if pool:
            pool.close()
            pool.join()
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
