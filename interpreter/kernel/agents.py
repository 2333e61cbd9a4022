"""Search agents on the kernel: the registry's agents (`greedy`, `cautious`, `mcts`; `first` and `last`), by
the same names and settings, played natively.

Owns which seated agents the kernel can run (`why_not_agents`), the search kernel of a spec (`SearchKernel`:
search_emit.py's module, built and cached as the random kernel is) and its batches. The Python agents
(`agents/search.py`) stay the reference: the kernel's greedy takes the same steps (the same samples of
re-dealt positions for every option, its own turn played out at random with common uniforms, the same
early stop and the same judging), from its own random streams, so its games are not the Python agent's
game for game, only as strong (tests/test_kernel_agents.py compares win shares with their intervals).
What a seat may not know (hidden cards, hidden variables, the others' sealed picks of a `choose together`)
is drawn again in every search copy, as the Python determinizer does (search_deal.py).
`cautious` is the kernel's greedy judged by the worst case, as the Python one is the Python greedy so
judged; `mcts:time=...` reads the wall clock every 8 iterations (so a game with it depends on the
machine's speed, as on the Python engine: its record still replays in the reference engine).
"""
from __future__ import annotations

import numpy as np

from ..lang.model import Spec
from ..lower.lowering import Lowerer
from .unsupported import Unsupported
from ..runtime.engine import Game
from ..runtime.seeds import game_seed
from . import layout as Y
from .build import load_module
from .search_deal import home_seats, secrets_of, unseen_zones
from .search_emit import SearchEmitter

KERNEL_AGENTS = {"random": 0, "greedy": 1, "mcts": 2, "cautious": 3, "first": 4, "last": 5}
"""The agents the kernel plays (the registry's, and `last`, the lab's policy that lab/policies.py registers),
each with its kind in the search kernel (search_prelude.py's `abatch`); every other one runs on the Python
engine, named."""
_kernels: dict[int, tuple[Spec, "SearchKernel | Unsupported"]] = {}


def why_not_agents(agents: dict[int, str] | None) -> str | None:
    """Why these seated agents cannot all run on the kernel (None when they can)."""
    from ..agents.registry import parse_agent
    parsed = [parse_agent(t) for t in (agents or {}).values()]
    names = sorted({name for name, _ in parsed} - set(KERNEL_AGENTS))
    if names:
        return (f"agent {', '.join(names)} is not yet on the kernel (the kernel plays "
                f"{', '.join(KERNEL_AGENTS)})")
    return None


def timed(agents: dict[int, str] | None) -> bool:
    """Whether a seat searches by the clock (`mcts:time=...`): then its games depend on the machine's speed."""
    from ..agents.registry import parse_agent
    return any(t != "random" and parse_agent(t)[1].get("time") for t in (agents or {}).values())


def searching(agents: dict[int, str] | None) -> bool:
    """Whether any seat has an agent other than random (then games run on the search kernel)."""
    return any(t != "random" for t in (agents or {}).values())


def search_kernel_for(spec: Spec) -> "SearchKernel":
    """The search kernel of a spec (built once per process); raises Unsupported naming what it cannot run."""
    got = _kernels.get(id(spec))
    if got is None or got[0] is not spec:  # an id is reused once its spec is gone: the spec itself is kept
        try:
            hit: SearchKernel | Unsupported = SearchKernel(spec)
        except Unsupported as exc:
            hit = exc
        _kernels[id(spec)] = (spec, hit)
    else:
        hit = got[1]
    if isinstance(hit, Unsupported):
        raise hit
    return hit


class SearchKernel:
    """A spec's kernel for games with search agents (search_emit.py); inputs as the random kernel's."""

    def __init__(self, spec: Spec):
        from .run import kernel_for
        self.spec = spec
        self.base = kernel_for(spec)  # start positions and parameters: the same layout
        lw = Lowerer(spec)
        g = lw.game()
        h = spec.heuristic
        heuristic = lw.cond(h) if h is not None and h.ast is not None else None
        mp = spec.max_players
        from ..compile.interchange import Interchange
        em = SearchEmitter(g, heuristic, [unseen_zones(spec, p) for p in range(mp)], home_seats(spec),
                           secrets_of(spec, lw, g.gvars, g.pvars), Interchange(g))
        self.source = em.module()
        self.layout = em.Y
        self._module = None
        self.reused = 0  # the last batch's mcts decisions that started from a kept tree

    @property
    def module(self):
        if self._module is None:
            self._module = load_module(self.source)
        return self._module

    def settings(self, game: Game, players: int, agents: dict[int, str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per seat: its kind (KERNEL_AGENTS) and settings (search_prelude.abatch); the scoring weights."""
        from ..agents.heuristics import judges, scoring_keys
        from ..agents.registry import SETTINGS, make_agent, parse_agent
        from ..agents.search import AUTO_DEPTH
        mp = self.layout.max_players
        kinds = np.zeros(mp, dtype=np.int64)
        sets = np.zeros((mp, 10), dtype=np.int64)
        for seat, text in agents.items():
            name, given = parse_agent(text)
            if name == "random" or seat >= players:
                continue
            agent = make_agent(text, 0, seat)  # its settings checked as the Python agent checks them (AgentError)
            s = {**SETTINGS[name][1], **given}
            kinds[seat] = KERNEL_AGENTS[name]
            if name == "greedy":
                sets[seat, :3] = (s["samples"], s["turn"], round(s["sure"] * 1000))
            elif name == "cautious":  # greedy's look-ahead one decision later, every sample taken (agents/cautious.py)
                sets[seat, :3] = (s["samples"], 0, 0)
            elif name == "mcts":
                depth = s["depth"] if s["depth"] >= 0 else (AUTO_DEPTH if judges(game) else 0)
                micros = round(agent.seconds * 1e6) if agent.seconds is not None else 0
                sets[seat, 3:] = (s["iterations"], round(s["c"] * 1000), s["max_playout"], depth,
                                  round(s["tau"] * 1000), s["tied"], micros)
        wts = np.zeros(max(1, len(self.spec.vars["player"])), dtype=np.float64)
        for i, w in scoring_keys(game):
            wts[i] = w
        return kinds, sets, wts

    def batch(self, game: Game, players: int, seeds, agents: dict[int, str],
              record: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, int]:
        """One row per game (as run.Kernel.batch), and the samples greedy took in all."""
        seeds = np.asarray(seeds, dtype=np.int64)
        ir_ = self.base.ir
        out = np.zeros((len(seeds), self.layout.out_columns(len(ir_.readings), len(ir_.measures))), dtype=np.int64)
        kinds, sets, wts = self.settings(game, players, agents)
        rch, rcc = record if record is not None else (np.zeros(0, np.int64), np.zeros(0, np.int64))
        used = np.zeros(2, dtype=np.int64)  # greedy's samples and mcts's iterations; mcts's decisions from a kept tree
        self.module.abatch(self.base.start(players, game), self.base.params(players, game), seeds, kinds, sets, wts,
                           out, rch, rcc, used)
        self.reused = int(used[1])
        return out, int(used[0])

    def record(self, game: Game, players: int, seed: int, agents: dict[int, str]) -> tuple[np.ndarray, list, list]:
        from .run import RECORD_CHANCE, RECORD_CHOICES
        rch = np.zeros(RECORD_CHOICES, dtype=np.int64)
        rcc = np.zeros(RECORD_CHANCE, dtype=np.int64)
        out, _ = self.batch(game, players, [seed], agents, (rch, rcc))
        row = out[0]
        return row, rch[:row[5]].tolist(), rcc[:row[6]].tolist()

    def replayed(self, game: Game, players: int, seed: int, agents: dict[int, str], **kw):
        """The reference engine's State of this kernel game (its choices replayed, its chance scripted; `kw`:
        new_game's log, check_invariants), and the hook that scripts its chance into another replay."""
        from .replay import decode, prepare_for, replay
        _row, choices, chance = self.record(game, players, seed, agents)
        return replay(game, players, seed, choices, chance, **kw), prepare_for(decode(chance))

    def summaries(self, game: Game, players: int, master: int, start: int, stop: int, agents: dict[int, str],
                  coverage: bool = False) -> tuple[list[tuple], list[int] | None]:
        """As run.Kernel.summaries, with these agents seated; a game that stalls, fails or nears the budget is
        replayed in the reference engine from its record, whose result is the one reported. A game with a
        timed search is not the same game when played again, so each such game is played with its record."""
        from ..runtime.engine import Status
        from .replay import replay
        from .run import NEAR_BUDGET, _measured
        seeds = [game_seed(master, i) for i in range(start, stop)]
        records: dict[int, tuple] = {}
        if timed(agents):
            rows = np.zeros((len(seeds), self.layout.out_columns(len(self.base.ir.readings),
                                                                 len(self.base.ir.measures))), dtype=np.int64)
            for k, seed in enumerate(seeds):
                records[seed] = self.record(game, players, seed, agents)
                rows[k] = records[seed][0]
        else:
            rows, _used = self.batch(game, players, seeds, agents)
        hits = None
        if coverage:
            hits = [0] * len(game.points)
            first = 7 + 2 * self.layout.max_players
            seen = rows[:, first:first + len(self.base.ir.readings)].sum(axis=0)
            for r, (name, _interps) in enumerate(self.base.ir.readings):
                at = next((j for j, (kind, what, _span) in enumerate(game.points)
                           if kind == "reading" and what == name), None)
                if at is not None:
                    hits[at] += int(seen[r])
        out = []
        mp, scored = self.layout.max_players, self.base.ir.score is not None
        m0 = 7 + 2 * mp + len(self.base.ir.readings)
        m1 = m0 + len(self.base.ir.measures)
        limit = NEAR_BUDGET * game.budget
        for seed, r in zip(seeds, rows.tolist()):
            if r[0] != Y.FINISHED or r[3] > limit:
                _row, choices, chance = records.get(seed) or self.record(game, players, seed, agents)
                st = replay(game, players, seed, choices, chance)
                i = game.score_idx
                measured = _measured(game, st) if game.spec.measures and st.status is Status.FINISHED else ()
                out.append((str(st.status), tuple(st.winners), st.turn, st.decisions,
                            None if i is None else tuple(st.pvars[i]), st.reason, seed, measured))
                continue
            winners = tuple(p for p in range(players) if r[7 + p])
            scores = tuple(r[7 + mp:7 + mp + players]) if scored else None
            out.append(("finished", winners, r[1], r[2], scores, None, seed, tuple(r[m0:m1])))
        return out, hits

