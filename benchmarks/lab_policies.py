"""The ambiguity lab under random, greedy and MCTS players: verdicts, games played and seconds taken.

For one spec, runs the lab once per policy (every seat the same agent),
each with its own number of games (search agents are slow, so they get
fewer), and prints each ambiguity's verdict per policy, the games per
interpretation, the seconds each policy took, and the ambiguities whose
verdict is a random-play artefact (material only for random players) or
depends on the players. `--json FILE` keeps every report.

    python benchmarks/lab_policies.py games/stun.yaml -p 4 --policy random:2000 --policy greedy:100 \\
        --policy mcts:20:60 --json stun-lab.json

A policy is AGENT:GAMES (the last colon-separated number is the game count: `mcts:20:60` is MCTS with 20
iterations, 60 games).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from interpreter.lab.ambiguities import LabReport, ambiguity_lab  # noqa: E402
from interpreter.lab.policies import PolicyLab, sensitivity_of  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec")
    ap.add_argument("-p", "--players", type=int, required=True)
    ap.add_argument("--policy", action="append", default=[], help="AGENT:GAMES, e.g. greedy:100 or mcts:20:60")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--budget", type=int, default=None, help="steps per game before it counts as stalled")
    ap.add_argument("--until-decided", action="store_true", help="play each policy until decided (cap: 10x GAMES)")
    ap.add_argument("--json", dest="json_path")
    ap.add_argument("--report", dest="report_dir", help="also write the lab's HTML report (needs matplotlib)")
    ap.add_argument("--from-json", dest="from_json", action="append", default=[],
                    help="play nothing: read the reports a --json run saved (repeatable: one file per run)")
    args = ap.parse_args(argv)
    reports, timings = {}, {}
    for path in args.from_json:
        with open(path, encoding="utf-8") as fh:
            saved = json.load(fh)
        timings.update(saved["seconds"])
        reports.update({p: LabReport.from_dict(r) for p, r in saved["reports"].items()})
    for item in args.policy if not args.from_json else []:
        agent, _, games = item.rpartition(":")
        t0 = time.perf_counter()
        seats = {} if agent == "random" else {s: agent for s in range(args.players)}
        rep = ambiguity_lab(args.spec, args.players, int(games), args.seed, agents=seats, workers=args.workers,
                            until_decided=args.until_decided, max_games=10 * int(games), budget=args.budget)
        timings[agent] = time.perf_counter() - t0
        reports[agent] = rep
        print(f"{agent}: {rep.games} games per interpretation, {timings[agent]:.0f} s", flush=True)
        for a in rep.ambiguities:
            print(f"  {a.name}: {a.verdict}" + (f" (~{a.games_to_decide} games would decide it)"
                                                if a.games_to_decide else ""), flush=True)
    names = [a.name for a in next(iter(reports.values())).ambiguities]
    print("\n| ambiguity | " + " | ".join(f"{p} ({reports[p].games} games, {timings[p]:.0f} s)" for p in reports)
          + " | policy |")
    print("|---" * (len(reports) + 2) + "|")
    flagged, sensitivity = [], []
    for name in names:
        s = sensitivity_of(name, reports)
        verdicts = s.verdicts
        sensitivity.append(s)
        if s.random_artefact or s.policy_dependent:
            flagged.append(s)
        print(f"| {name} | " + " | ".join(verdicts.values()) + f" | {s.note} |")
    print("\nrandom-play artefacts: " + (", ".join(s.ambiguity for s in flagged if s.random_artefact) or "none"))
    print("policy-dependent: " + (", ".join(s.ambiguity for s in flagged if s.policy_dependent) or "none"))
    for s in flagged:
        for d in s.differs:
            print(f"  {s.ambiguity}: {d}")
    if args.report_dir:
        from interpreter.lab.report import write_lab_report
        lab = PolicyLab(args.spec, args.players, args.seed, list(reports), list(reports.values()), sensitivity)
        print("report written to " + write_lab_report(lab, args.report_dir))
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as fh:
            json.dump({"spec": args.spec, "players": args.players, "seed": args.seed,
                       "seconds": timings, "reports": {p: r.as_dict() for p, r in reports.items()}}, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
