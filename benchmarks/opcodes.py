"""Python bytecodes per decision: a speed measure that machine load cannot disturb.

Owns counting the bytecode instructions CPython executes (`sys.settrace`
with opcode events) while random players play a batch of games, per
decision, for the interpreter on given specs and for the hand-written STUN
baselines, and which functions they are spent in. Timings on a shared
machine move by 10-30% from run to run; an opcode count is the same on
every run of this script (a fresh process, same seeds, same games), so it shows a change of a few percent
that a timing cannot, and where the work goes. It is a proxy: opcodes differ
in cost (a C call that sorts a list is one), so compare counts of similar
code, and confirm a gain with `bench.py` or `speed.py`.

    python benchmarks/opcodes.py                          # STUN -p 4, the lean and hand-written STUN
    python benchmarks/opcodes.py games/stunt-academy.yaml:3 tests/specs/duel.yaml:2 --games 50 --top 8
    python benchmarks/opcodes.py --root /tmp/before --no-baselines   # an older checkout's interpreter

Counting makes play about 20x slower; 100 STUN games take a few seconds.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
from collections import Counter
from typing import Callable

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def count(play: Callable[[int], int], games: int) -> tuple[int, int, Counter]:
    """Run `play(i)` (it returns the decisions of game i) for i < games, counting opcodes:
    (opcodes, decisions, opcodes per function name)."""
    per: Counter = Counter()

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        name = frame.f_code.co_name

        def local(frame, event, arg):
            if event == "opcode":
                per[name] += 1
            return local
        return local
    decisions = 0
    # A collection during the count would run other objects' finalizers (and gc callbacks) under the
    # tracer: which ones depends on what ran before, so the count would too.
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    sys.settrace(tracer)
    try:
        for i in range(games):
            decisions += play(i)
    finally:
        sys.settrace(None)
        if was_enabled:
            gc.enable()
    return sum(per.values()), decisions, per


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("specs", nargs="*", default=["games/stun.yaml:4"], help="SPEC:PLAYERS (default: STUN, 4)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--top", type=int, default=5, help="functions to list per row")
    ap.add_argument("--no-baselines", action="store_true", help="leave out the hand-written STUN rows")
    ap.add_argument("--root", default=HERE, help="the checkout whose interpreter/ plays (default: this one), "
                    "e.g. an older copy from `git archive`, for a before/after count")
    args = ap.parse_args(argv)
    sys.path.insert(0, os.path.abspath(args.root))
    if HERE not in sys.path:
        sys.path.append(HERE)  # the baselines
    from interpreter.lab import runner
    from interpreter.runtime.pipeline import load_game
    from interpreter.runtime.seeds import game_seed
    from interpreter.spec.diagnostics import SpecError, render

    rows: list[tuple[str, Callable[[int], int]]] = []
    for item in args.specs:
        path, _, players = item.rpartition(":")
        if not path or not players.isdigit():
            raise SystemExit(f"opcodes.py: '{item}' is not SPEC:PLAYERS (e.g. games/stun.yaml:4)")
        try:
            game, n = load_game(path), int(players)
        except OSError as exc:
            raise SystemExit(f"opcodes.py: {path}: {exc.strerror or exc}") from None
        except SpecError as exc:
            raise SystemExit("\n".join(map(render, exc.diagnostics)) + f"\nopcodes.py: {path}: the spec has errors")
        rows.append((f"{os.path.basename(path)} -p {n}", lambda i, game=game, n=n: runner.play(
            game, n, game_seed(1, i)).decisions))
    if not args.no_baselines:
        from benchmarks import stun_handwritten, stun_lean
        for mod in (stun_handwritten, stun_lean):
            rows.append((f"{mod.__name__.split('.')[-1]} -p 4",
                         lambda i, mod=mod: mod.play(4, game_seed(1, i))["decisions"]))
    print(f"{'':28s} {'opcodes/decision':>17s}  where (opcodes/decision)")
    for label, play in rows:
        total, decisions, per = count(play, args.games)
        top = ", ".join(f"{name} {k / decisions:.0f}" for name, k in per.most_common(args.top))
        print(f"{label:28s} {total / max(decisions, 1):17.1f}  {top}")
    print(f"({args.games} games of random play per row, seeds game_seed(1, i); the same on every run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
