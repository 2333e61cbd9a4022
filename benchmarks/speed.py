"""Search agents and per-game cost, before against after: decisions/s side by side in one run.

Owns the speed workloads of issue 16 and running them against two checkouts of
Rulewright (this one and, say, /work/main) in alternating rounds, so that both
sides of every ratio see the same machine load. Each round runs every workload
once per side, in a fresh child process (`python benchmarks/speed.py --child
ROOT`) that imports `interpreter` from ROOT; each side keeps its best round.
Rates are per second of the child's CPU time (`time.process_time`), so other
load on a shared machine disturbs them less than wall time would.

Workloads (same seeds on both sides; the games themselves may differ where
agent-side randomness changed, which is why the rates are per decision):
- greedy4: greedy in every seat of 4-player STUN (decisions/s)
- greedy4_t0: the same with `greedy:turn=0`, judged one decision later as the
  greedy before issue 16 did (a checkout without that setting plays `greedy`)
- mcts2: mcts (default settings) in seat 1 of 2-player STUN, random elsewhere
  (search iterations/s: decisions with more than one option x iterations)
- mcts_sa: the same on 3-player Stunt Academy
- mcts_sa_t0: the same with `mcts:tied=0` (a tied cut playout is judged, as
  before issue 16, instead of playing on; an older checkout plays `mcts`)
- duel: random play of a two-decision game (tests/specs/duel.yaml) through
  the sweep a `simulate` runs (games/s: the per-game start cost)
- random4: random play of 4-player STUN through the sweep (games/s)

It deliberately does not measure strength (benchmarks/agents.py does) nor
the interpreter against hand-written code (benchmarks/bench.py does).

    python benchmarks/speed.py --old /work/main --rounds 3 --seconds 4
    python benchmarks/speed.py --old /tmp/before --old /work/main   # two ratio columns, one run
    python benchmarks/speed.py --old /tmp/before --specs /tmp/before   # both sides on the older specs
    python benchmarks/speed.py --child .          # one side, one round, JSON on stdout
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOADS = ("greedy4", "greedy4_t0", "mcts2", "mcts_sa", "mcts_sa_t0", "duel", "random4")


def _child(root: str, seconds: float, only: list[str], specs: str = HERE) -> dict:
    """Run the workloads with `interpreter` imported from `root`."""
    sys.path.insert(0, os.path.abspath(root))
    from interpreter.runtime.pipeline import load_game
    from interpreter.lab import runner
    from interpreter.agents import search
    from interpreter.runtime.seeds import game_seed

    def timed_games(game, players, agents, count_iterations=False):
        """Games with fixed seeds until `seconds` have passed: (games, decisions, iterations, seconds)."""
        counted = [0]
        if count_iterations:
            pick = search.MctsAgent.pick

            def counting(self, state, _pick=pick):
                if len(state.popts) > 1:
                    counted[0] += self.iterations
                return _pick(self, state)
            search.MctsAgent.pick = counting
        try:
            t0 = clock()
            games = decisions = 0
            while games == 0 or clock() - t0 < seconds:
                st = runner.play(game, players, game_seed(1, games), agents)
                games += 1
                decisions += st.decisions
            return games, decisions, counted[0], clock() - t0
        finally:
            if count_iterations:
                search.MctsAgent.pick = pick

    clock = time.process_time  # CPU time of this process: the shared machine's load counts less
    def _known(text: str, fallback: str) -> str:
        """`text` if this checkout knows its settings, else `fallback` (the older algorithm's name)."""
        from interpreter.agents.registry import AgentError, parse_agent
        try:
            parse_agent(text)
            return text
        except AgentError:
            return fallback

    out: dict = {}

    def spec(rel: str) -> str:
        """The spec from `specs` (this checkout's unless --specs says), on both sides; the other checkout's
        own copy when its interpreter cannot load that one (a spec that grew features since: STUN's later
        readings; then the two sides play different versions of it: --specs OLD puts both on the old ones)."""
        for path in (os.path.join(specs, rel), os.path.join(HERE, rel)):  # a spec --specs lacks: this checkout's
            if os.path.exists(path):
                try:
                    load_game(path)
                    return path
                except Exception:  # noqa: BLE001 (any failure to load: fall back to that checkout's own spec)
                    break
        return os.path.join(os.path.abspath(root), rel)
    if "greedy4" in only:
        g = load_game(spec("games/stun.yaml"))
        n, d, _, s = timed_games(g, 4, {k: "greedy" for k in range(4)})
        out["greedy4"] = {"rate": d / s, "unit": "decisions/s", "games": n}
    if "greedy4_t0" in only:
        name = _known("greedy:turn=0", "greedy")
        g = load_game(spec("games/stun.yaml"))
        n, d, _, s = timed_games(g, 4, {k: name for k in range(4)})
        out["greedy4_t0"] = {"rate": d / s, "unit": "decisions/s", "games": n}
    if "mcts2" in only:
        g = load_game(spec("games/stun.yaml"))
        n, d, it, s = timed_games(g, 2, {0: "mcts"}, count_iterations=True)
        out["mcts2"] = {"rate": it / s, "unit": "iterations/s", "games": n}
    if "mcts_sa" in only:
        g = load_game(spec("games/stunt-academy.yaml"))
        n, d, it, s = timed_games(g, 3, {0: "mcts"}, count_iterations=True)
        out["mcts_sa"] = {"rate": it / s, "unit": "iterations/s", "games": n}
    if "mcts_sa_t0" in only:
        g = load_game(spec("games/stunt-academy.yaml"))
        n, d, it, s = timed_games(g, 3, {0: _known("mcts:tied=0", "mcts")}, count_iterations=True)
        out["mcts_sa_t0"] = {"rate": it / s, "unit": "iterations/s", "games": n}
    for name, rel, players, count in (("duel", "tests/specs/duel.yaml", 2, 20000),
                                      ("random4", "games/stun.yaml", 4, 2000)):
        if name not in only:
            continue
        gs = runner.GameSpec(spec(rel))
        game = gs.load()
        runner.sweep(gs, players, 50, 1, 1, game=game)  # warm up
        best = 0.0
        t0 = clock()
        while best == 0.0 or clock() - t0 < seconds:
            t1 = clock()
            runner.sweep(gs, players, count, 1, 1, game=game)
            best = max(best, count / (clock() - t1))
        out[name] = {"rate": best, "unit": "games/s", "games": count}
    return out


def _run_side(python: str, root: str, seconds: float, only: list[str], specs: str = HERE) -> dict:
    cmd = [python, os.path.abspath(__file__), "--child", root, "--seconds", str(seconds), "--only", ",".join(only),
           "--specs", os.path.abspath(specs)]
    env = dict(os.environ, PYTHONPATH=os.path.abspath(root), PYTHONHASHSEED="0")
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=HERE)
    if res.returncode != 0:
        raise SystemExit(f"{root}: the workload failed:\n{res.stderr}")
    return json.loads(res.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", action="append", default=[],
                    help="a checkout to compare with (its interpreter/ is imported); repeat it for several, "
                    "each gets its own ratio column")
    ap.add_argument("--new", default=HERE, help="this checkout (default)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=4.0, help="per workload, side and round")
    ap.add_argument("--only", default=",".join(WORKLOADS), help="workloads, comma-separated")
    ap.add_argument("--specs", default=HERE, help="the checkout whose games/ and tests/specs/ both sides play "
                    "(default: this one)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--json", dest="json_path", help="also write the figures to this file")
    args = ap.parse_args(argv)
    only = [w for w in args.only.split(",") if w]
    if args.child:
        print(json.dumps(_child(args.child, args.seconds, only, args.specs)))
        return 0
    olds = {("old" if i == 0 else f"old{i + 1}"): path for i, path in enumerate(args.old)}
    sides = {"new": args.new} | olds
    rounds: dict[str, list[dict]] = {k: [] for k in sides}
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(sides)[::-1]  # alternate who goes first
        for k in order:
            rounds[k].append(_run_side(sys.executable, sides[k], args.seconds, only, args.specs))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    for k, path in olds.items():
        print(f"{k}: {path}")
    table = {}
    print(f"{'workload':<10} {'unit':<13} " + " ".join(f"{k + ' best':>12} {k + ' spread':>11}" for k in sides)
          + "".join(f"  {'new/' + k:>8} {'per round':>11}" for k in olds))
    for w in only:
        row = {}
        for k in sides:
            rates = [rd[w]["rate"] for rd in rounds[k]]
            row[k] = {"best": max(rates), "min": min(rates), "rounds": rates}
        unit = rounds["new"][0][w]["unit"]
        line = f"{w:<10} {unit:<13} " + " ".join(
            f"{row[k]['best']:>12.1f} {100 * (1 - row[k]['min'] / row[k]['best']):>10.0f}%" for k in sides)
        for k in olds:
            row["ratio" if k == "old" else f"ratio_{k}"] = ratio = row["new"]["best"] / row[k]["best"]
            # each round's own ratio (both sides ran back to back in it, under the same load): their range
            # is how far one ratio can be trusted
            paired = [a / b for a, b in zip(row["new"]["rounds"], row[k]["rounds"])]
            row["paired" if k == "old" else f"paired_{k}"] = paired
            line += f"  {ratio:>7.2f}x {min(paired):>5.2f}-{max(paired):.2f}x"
        table[w] = row
        print(line)
    print("(best of the rounds; spread = how far the worst round fell below the best; per round = the range of"
          " the ratios of the rounds, each measured under one load)")
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump(table, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
