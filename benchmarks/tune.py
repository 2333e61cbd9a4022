"""What a variant search costs: `rulewright tune` on STUN, timed, and run twice to show the same seed gives
the same answer (issue 26's target: two options and two readings or more, three targets, random players,
within 10 minutes on a 2-core machine).

    python benchmarks/tune.py                                  # every option and reading: 512 variants
    python benchmarks/tune.py --vary win_chips --vary advanced --vary first_flip --vary win_timing
    python benchmarks/tune.py --search optuna --trials 100 --workers 2

Prints wall time and CPU time (this process and its finished worker processes: on a shared machine the CPU
time is the fairer figure), games played, the variants that meet every target with their intervals, and
whether the second run's answer (every candidate's games, verdicts and intervals) equals the first's.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from interpreter.lab.runner import use_backend  # noqa: E402
from interpreter.lab.targets import parse_targets  # noqa: E402
from interpreter.lab.tune import parse_vary, tune  # noqa: E402
from interpreter.runtime.pipeline import load_spec  # noqa: E402

STUN_VARY = ["win_chips", "advanced", "first_flip", "stun_plus_eligibility", "lost_chips", "stun_minus_target",
             "win_timing", "empty_centre", "stun_minus_and_stun"]
TARGETS = ["turns 60..90", "wins spread <= 10pt", "stalled <= 0.5pt"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", default="games/stun.yaml")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--vary", action="append", default=None)
    ap.add_argument("--target", action="append", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--max-games", type=int, default=3200)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--search", default="exhaustive")
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--backend", default="local")
    ap.add_argument("--once", action="store_true", help="Run once (no determinism check).")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    use_backend(a.backend)
    spec, _ = load_spec(a.spec)
    vary = a.vary or [n for n in STUN_VARY if n in spec.options or n in spec.ambiguities]
    axes = parse_vary(vary, spec)
    targets = parse_targets(a.target or TARGETS, list(spec.measures), a.players)
    runs = []
    for _ in range(1 if a.once else 2):
        runs.append(tune(a.spec, a.players, a.seed, targets, axes, games=a.games, max_games=a.max_games,
                         workers=a.workers, search=a.search, trials=a.trials))
    rep = runs[0]

    def answer(r) -> list:
        return [{k: v for k, v in c.items()} for c in r.as_dict()["candidates"]]
    same = None if a.once else answer(runs[0]) == answer(runs[1])
    meeting = [c for c in rep.first.ranked if c.meets == "true"]
    out = {"spec": a.spec, "players": a.players, "vary": vary, "targets": [t.text for t in targets],
           "space": rep.space, "tried": len(rep.first.candidates), "mode": rep.first.mode, "workers": a.workers,
           "games": rep.first.games, "seconds": [round(r.seconds, 1) for r in runs],
           "cpu_seconds": [round(r.cpu_seconds, 1) for r in runs], "same_answer": same,
           "meeting": [{"variant": c.label, **{e.target.text: [e.mean, e.lo, e.hi] for e in c.estimates}}
                       for c in meeting],
           "early_stopped": sum(c.stopped.startswith("outside") and c.games == a.games for c in rep.first.candidates)}
    if a.json:
        print(json.dumps(out))
        return
    print(f"{a.spec}, {a.players} players, random players: {out['tried']} of {rep.space} variants ({rep.first.mode}), "
          f"{len(vary)} names varied, targets {', '.join(out['targets'])}")
    print(f"games: {out['games']:,}; wall {out['seconds']} s; CPU {out['cpu_seconds']} s; "
          f"{out['early_stopped']} candidates stopped after their first batch")
    print(f"meet every target: {len(meeting)}")
    for c in meeting[:10]:
        shown = [f"{e.target.text} {e.target.show(e.mean)} [{e.target.show(e.lo)}, {e.target.show(e.hi)}]"
                 for e in c.estimates]
        print("  " + c.changes + ": " + "; ".join(shown))
    if same is not None:
        print(f"second run, same seed: {'the same answer' if same else 'A DIFFERENT ANSWER'}")


if __name__ == "__main__":
    main()
