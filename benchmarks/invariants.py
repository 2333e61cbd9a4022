"""Engine invariants over many random games of every shipped spec (outside the unit tests).

This module owns the long invariant run of the hardening issue. For each spec
in games/ it plays `--games` games (default 10,000) with random agents, each
game with its own seed, player count, options and ambiguity readings drawn
from the master seed. Random players cannot reach what only careful play
reaches (six STUN players holding 4 chips each), so a share of the games
(`--careful`, default 10%) seats a careful agent at every seat instead,
`cautious` and `greedy:2` in turn (`--careful-agent`, repeatable). They look
ahead on clones, so a careful game costs far more than a random one (six-player
STUN on the 2-core machine, under load: random 0.014 s a game, greedy:2 0.6 s,
cautious 1.2 s); `--careful 0` gives the random-only run of old. After every
decision (and at the end) it checks:

- cards: every card is in exactly one zone, and the card index agrees;
- bounds: every variable with a `min`/`max` is within it;
- invariants: the spec's own `invariants:` (conserved chips, coins ...) hold;
- options: while the game runs, the pending decision has at least one
  option, and its labels are unique;
- errors: no game ends with a rule error (a stall is a finding about the
  rules, counted but not a violation).

It prints one table row per spec, the first violating seed of each kind (to
reproduce: `rulewright run SPEC -p N --seed S` with the options shown), and
exits 1 if anything was violated. It deliberately does not time the engine
(bench.py does) nor shrink failures (tests/test_properties.py does).

    python benchmarks/invariants.py [--games 10000] [--seed 1] [-w 2] [--spec games/stun.yaml] [--json]
                                    [--careful 0.1] [--careful-agent cautious --careful-agent greedy:2]
"""
from __future__ import annotations

import argparse
import glob
import json
import multiprocessing as mp
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    # Run as `python benchmarks/invariants.py`, sys.path holds benchmarks/, not the repo.
    sys.path.insert(0, str(ROOT))

from interpreter.api import load_game, load_spec  # noqa: E402
from interpreter.runtime.engine import Status  # noqa: E402
from interpreter.lab.runner import make_agents  # noqa: E402
from interpreter.runtime.seeds import game_seed  # noqa: E402

KINDS = ("cards", "bounds", "invariants", "options", "errors")
BUDGET = 200_000
CAREFUL = ("cautious", "greedy:2")


@dataclass(slots=True)
class Tally:
    """What the games of one spec showed."""
    spec: str
    games: int = 0
    finished: int = 0
    stalled: int = 0
    errors: int = 0
    positions: int = 0  # positions audited (one per decision, and the end)
    violations: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    first: dict[str, str] = field(default_factory=dict)  # kind -> how to reproduce, and what broke
    stalls: dict[str, int] = field(default_factory=dict)  # reason -> games
    seconds: float = 0.0

    def add(self, r: dict) -> None:
        self.games += 1
        self.positions += r["positions"]
        setattr(self, r["status"], getattr(self, r["status"]) + 1)
        if r["reason"]:
            self.stalls[r["reason"]] = self.stalls.get(r["reason"], 0) + 1
        for kind, what in r["violations"].items():
            self.violations[kind] += 1
            self.first.setdefault(kind, f"seed {r['seed']}, {r['players']} players, {r['settings']}: {what}")

    @property
    def violated(self) -> int:
        return sum(self.violations.values())


_games: dict[tuple, object] = {}


def _game(path: str, options: tuple, readings: tuple):
    key = (path, options, readings)
    if key not in _games:
        _games[key] = load_game(path, dict(options), dict(readings), budget=BUDGET)
    return _games[key]


def settings_for(path: str, seed: int) -> tuple[int, tuple, tuple]:
    """Players, options and readings of one game, drawn from its seed."""
    spec = load_spec(path)[0]
    rng = random.Random(seed ^ 0x5EED)
    players = rng.randint(spec.min_players, spec.max_players)
    varied = rng.random() < 0.5  # half the games with the spec's defaults (a variant's own), half with any
    options = tuple((n, rng.choice(o.values) if varied else o.default) for n, o in sorted(spec.options.items()))
    readings = tuple((n, rng.choice(sorted(a.interpretations)) if varied else a.default)
                     for n, a in sorted(spec.ambiguities.items()))
    return players, options, readings


def audit(st, bounds: list, n_cards: int) -> dict[str, str]:
    """The invariants a position breaks: kind -> what (empty when it is sound)."""
    bad: dict[str, str] = {}
    seen = 0
    for zid, zone in enumerate(st.zones):
        seen += len(zone)
        for c in zone:
            if st.where[c] != zid:
                bad["cards"] = f"card {c} is in {st.g.zone_name(zid)} but indexed in zone {st.where[c]}"
    if "cards" not in bad and (seen != n_cards or len(set(c for z in st.zones for c in z)) != n_cards):
        bad["cards"] = f"{seen} cards placed, {n_cards} in the game"
    for scope, i, name, lo, hi in bounds:
        values = [st.gvars[i]] if scope == "global" else st.pvars[i] if scope == "player" else [st.tvars[i]]
        for v in values:
            if lo is not None and v < lo or hi is not None and v > hi:
                bad["bounds"] = f"{name} = {v}, outside [{lo}, {hi}]"
    g = st.g
    for name, f in g.invariants.items():
        try:
            ok = f is None or f(st, [None] * g.scratch)
        except Exception as exc:  # an invariant that cannot even be evaluated is broken too
            ok, name = False, f"{name} ({type(exc).__name__}: {exc})"
        if not ok:
            bad["invariants"] = f"invariant {name} broken at turn {st.turn}"
    if st.status is Status.RUNNING:
        labels = st.labels() if st.popts else []
        if not labels:
            bad["options"] = f"a decision of P{st.pplayer + 1} with no option at turn {st.turn}"
        elif len(set(labels)) != len(labels):
            bad["options"] = f"repeated labels {labels}"
    return bad


def agent_for(seed: int, careful: float, agents: tuple) -> str:
    """The agent every seat of one game plays: random, or (a `careful` share of games) one of `agents`."""
    rng = random.Random(seed ^ 0xCA4E)
    if agents and rng.random() < careful:
        return agents[rng.randrange(len(agents))]
    return "random"


def play_one(args: tuple) -> dict:
    path, master, index = args[:3]
    careful, careful_agents = args[3] if len(args) > 3 else (0.0, ())
    seed = game_seed(master, index)
    players, options, readings = settings_for(path, seed)
    who = agent_for(seed, careful, careful_agents)
    game = _game(path, options, readings)
    spec = game.spec
    bounds = [(scope, v.index, v.name, v.min, v.max) for scope, vs in spec.vars.items() for v in vs.values()
              if v.min is not None or v.max is not None]
    agents = make_agents({} if who == "random" else dict.fromkeys(range(players), who), players, seed)
    st = game.new_game(players, seed)
    found: dict[str, str] = {}
    positions = 0
    while True:
        positions += 1
        for kind, what in audit(st, bounds, spec.n_cards).items():
            found.setdefault(kind, f"{what} (after {len(st.choices)} choices)")
        if st.status is not Status.RUNNING or not st.popts:
            break
        st.apply(agents[st.pplayer].pick(st))
    if st.status is Status.ERROR:
        found.setdefault("errors", st.reason or "?")
    elif st.status is Status.STALLED and "no legal option" in (st.reason or ""):
        found.setdefault("options", st.reason)  # the engine stops a game at a `choose` with nothing to choose
    changed = {k: v for k, v in options + readings
               if v != (spec.options[k].default if k in spec.options else spec.ambiguities[k].default)}
    return {"status": str(st.status), "reason": st.reason if st.status is Status.STALLED else None,
            "seed": seed, "players": players, "positions": positions,
            "settings": (" ".join(f"{k}={v}" for k, v in changed.items()) or "defaults")
            + ("" if who == "random" else f", every seat {who}"), "agent": who, "violations": found}


def run_spec(path: str, games: int, master: int, workers: int, careful: float = 0.1,
             careful_agents: tuple = CAREFUL) -> Tally:
    tally = Tally(path)
    t0 = time.perf_counter()
    tasks = [(path, master, i, (careful, tuple(careful_agents))) for i in range(games)]
    if workers <= 1:
        for r in map(play_one, tasks):
            tally.add(r)
    else:
        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        with ctx.Pool(workers) as pool:
            for r in pool.imap(play_one, tasks, chunksize=50):
                tally.add(r)
    tally.seconds = time.perf_counter() - t0
    return tally


def table(tallies: list[Tally]) -> str:
    head = ["spec", "games", "finished", "stalled", "errors", "positions", *[f"bad {k}" for k in KINDS[:-1]],
            "games/s"]
    rows = [[t.spec, t.games, t.finished, t.stalled, t.errors, t.positions,
             *[t.violations[k] for k in KINDS[:-1]], f"{t.games / t.seconds:.0f}" if t.seconds else "-"]
            for t in tallies]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = lambda r: "  ".join(str(x).rjust(w) if k else str(x).ljust(w) for k, (x, w) in enumerate(zip(r, widths)))
    out = [line(head), line(["-" * w for w in widths])] + [line(r) for r in rows]
    for t in tallies:
        for reason, n in sorted(t.stalls.items(), key=lambda x: -x[1]):
            out.append(f"{t.spec}: {n} stalled: {reason}")
        for kind, what in t.first.items():
            out.append(f"{t.spec}: first {kind} violation: {what}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", "-g", type=int, default=10_000, help="games per spec (default 10,000)")
    ap.add_argument("--seed", "-s", type=int, default=1, help="master seed")
    ap.add_argument("--workers", "-w", type=int, default=1, help="processes")
    ap.add_argument("--spec", action="append", help="a spec (repeatable; default every games/*.yaml)")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    ap.add_argument("--careful", type=float, default=0.1, help="share of games with a careful agent at every seat")
    ap.add_argument("--careful-agent", action="append", help=f"careful agents (default: {', '.join(CAREFUL)})")
    a = ap.parse_args(argv)
    specs = [str(Path(p).resolve()) for p in a.spec] if a.spec else sorted(glob.glob(str(ROOT / "games" / "*.yaml")))
    tallies = []
    for path in specs:
        load_spec(path)  # spec errors before any game is played
        tallies.append(run_spec(path, a.games, a.seed, a.workers, a.careful, tuple(a.careful_agent or CAREFUL)))
        tallies[-1].spec = str(Path(path).relative_to(ROOT)) if Path(path).is_relative_to(ROOT) else path
        if not a.json:
            print(f"{tallies[-1].spec}: {tallies[-1].games} games in {tallies[-1].seconds:.1f} s", file=sys.stderr)
    if a.json:
        print(json.dumps([{"spec": t.spec, "games": t.games, "finished": t.finished, "stalled": t.stalled,
                           "errors": t.errors, "positions": t.positions, "violations": t.violations,
                           "first": t.first, "seconds": round(t.seconds, 2)} for t in tallies]))
    else:
        print(table(tallies))
    bad = sum(t.violated for t in tallies)
    if bad and not a.json:
        print(f"{bad} game(s) broke an invariant", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
