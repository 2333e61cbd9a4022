"""Running games on the kernel: a spec's kernel built once, batches of whole games for any variant.

Owns `Kernel` (lower, generate, build, once per spec and process), the start position of a player count
and its options as a flat state (the reference engine's own start: `runtime.engine.start_zones`), the
run-time parameters (players, budget, options, readings, board sizes), per-game seeds (`seeds.game_seed`,
so results do not depend on how games are split over workers), and turning a batch's rows into the
per-game summaries a sweep reads (`lab.runner.Stats`). A kernel game that stalls, fails, or comes near
the step budget is played again with its record and replayed in the reference engine, whose result
(status, reason) is the one reported: the kernel only ever speeds up what the engine would say.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..lang import boards as B
from ..lang.model import Spec
from ..lower import ir
from ..lower.lowering import lower
from ..runtime.engine import Game, start_zones
from ..runtime.seeds import game_seed
from . import emit, layout as Y
from .build import load_module
from .unsupported import Unsupported

_kernels: dict[int, "Kernel | Unsupported"] = {}
RECORD_CHOICES = 1 << 20
RECORD_CHANCE = 1 << 21
NEAR_BUDGET = 0.5  # a kernel game past this share of the step budget is confirmed by the reference engine


def kernel_for(spec: Spec) -> "Kernel":
    """The kernel of a spec (built once per process); raises Unsupported naming what it cannot run."""
    hit = _kernels.get(id(spec))
    if hit is None or (isinstance(hit, Kernel) and hit.spec is not spec):
        try:
            hit = Kernel(spec)
        except Unsupported as exc:
            hit = exc
        _kernels[id(spec)] = hit
    if isinstance(hit, Unsupported):
        raise hit
    return hit


def unsupported(spec: Spec, build: Callable[[Spec], Any] | None = None) -> Unsupported | None:
    """Why this spec cannot run on the kernel (on `build`'s, e.g. agents.search_kernel_for), or None when it can."""
    try:
        (build or kernel_for)(spec)
    except Unsupported as exc:
        return exc
    return None


@dataclass(slots=True)
class Row:
    """One kernel game, as the batch left it."""
    status: int
    turns: int
    decisions: int
    steps: int
    stop: int
    winners: tuple[int, ...]
    scores: tuple[int, ...] | None


class Kernel:
    """A spec's kernel: lowered and generated once; compiled (or loaded from the disk cache) on first use."""

    def __init__(self, spec: Spec):
        self.spec = spec
        from ..compile.interchange import Interchange
        self.ir: ir.Game = lower(spec)
        em = emit.Emitter(self.ir, Interchange(self.ir))
        self.source = em.module()
        self.layout = em.Y
        self.kept = em.kept_tables  # the kept zone sums' card values (layout: sums)
        self._module = None
        self._starts: dict[tuple, np.ndarray] = {}

    @property
    def module(self):
        if self._module is None:
            self._module = load_module(self.source)
        return self._module

    # -- inputs --------------------------------------------------------------------------------------
    def params(self, players: int, game: Game) -> np.ndarray:
        L, g = self.layout, self.ir
        par = np.zeros(L.n_params, dtype=np.int64)
        par[Y.P_N] = players
        par[Y.P_BUDGET] = game.budget
        for i, (name, _values) in enumerate(g.options):
            par[L.opt + i] = _encode(game.options[name], g)
        for i, (name, interps) in enumerate(g.readings):
            par[L.read + i] = interps.index(game.readings[name])
        boards = B.boards_for(self.spec, game.options)
        for i, b in enumerate(g.boards):
            par[L.board + 2 * i] = boards[b.name].rows
            par[L.board + 2 * i + 1] = boards[b.name].columns
        return par

    def start(self, players: int, game: Game) -> np.ndarray:
        key = (players, tuple(sorted((k, repr(v)) for k, v in game.options.items())))
        if key in self._starts:
            return self._starts[key]
        L, g = self.layout, self.ir
        st = np.zeros(L.size, dtype=np.int64)
        st[Y.N] = players
        st[Y.ORDER] = 1
        st[Y.NXT] = -1
        for i, v in enumerate(g.gvars):
            st[L.gv + i] = v.start
        for i, v in enumerate(g.pvars):
            st[L.pv + i * L.max_players:L.pv + i * L.max_players + players] = v.start
        for i, v in enumerate(g.tvars):
            st[L.tv + i] = v.start
        zones, where = start_zones(self.spec, players, g.n_cards, game.options)
        for z, cards in enumerate(zones):
            zid = z if z < L.n_shared else z  # the engine numbers zones as the kernel does: shared, then by seat
            st[L.zl + zid] = len(cards)
            st[L.zc + zid * L.n_cards:L.zc + zid * L.n_cards + len(cards)] = cards
        st[L.wh:L.wh + len(where)] = where
        for j, table in enumerate(self.kept):
            for z, cards in enumerate(zones):
                st[L.zs + j * L.n_zones + z] = sum(table[c] for c in cards)
        self._starts[key] = st
        return st

    # -- running -------------------------------------------------------------------------------------
    def batch(self, game: Game, players: int, seeds: list[int] | np.ndarray) -> np.ndarray:
        """One row per game: status, turns, decisions, steps, stop code, record sizes, winner flags, scores."""
        seeds = np.asarray(seeds, dtype=np.int64)
        out = np.zeros((len(seeds), self.layout.out_columns(len(self.ir.readings), len(self.ir.measures))), dtype=np.int64)
        empty = np.zeros(0, dtype=np.int64)
        self.module.batch(self.start(players, game), self.params(players, game), seeds, out, empty, empty)
        return out

    def record(self, game: Game, players: int, seed: int) -> tuple[np.ndarray, list[int], list[int]]:
        """One game again, with its record: (its row, its choices, its chance record)."""
        rch = np.zeros(RECORD_CHOICES, dtype=np.int64)
        rcc = np.zeros(RECORD_CHANCE, dtype=np.int64)
        out = np.zeros((1, self.layout.out_columns(len(self.ir.readings), len(self.ir.measures))), dtype=np.int64)
        self.module.batch(self.start(players, game), self.params(players, game),
                          np.asarray([seed], dtype=np.int64), out, rch, rcc)
        row = out[0]
        return row, rch[:row[5]].tolist(), rcc[:row[6]].tolist()

    def row(self, r: np.ndarray, players: int) -> Row:
        mp = self.layout.max_players
        winners = tuple(p for p in range(players) if r[7 + p])
        scores = tuple(int(x) for x in r[7 + mp:7 + mp + players]) if self.ir.score is not None else None
        return Row(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), winners, scores)

    def summaries(self, game: Game, players: int, master: int, start: int, stop: int,
                  coverage: bool = False) -> tuple[list[tuple], list[int] | None]:
        """Games start..stop-1 of a sweep with master seed `master`, as `lab.runner` summaries; with
        `coverage`, also the game's coverage counts (`game.points`, which must be a coverage-mode Game):
        the kernel counts the readings rules read, which is what the ambiguity lab asks of them."""
        seeds = game_seeds(master, start, stop)
        rows = self.batch(game, players, seeds)
        hits = None
        if coverage:
            hits = [0] * len(game.points)
            first = 7 + 2 * self.layout.max_players
            seen = rows[:, first:first + len(self.ir.readings)].sum(axis=0)
            for r, (name, _interps) in enumerate(self.ir.readings):
                at = next((j for j, (kind, what, _span) in enumerate(game.points)
                           if kind == "reading" and what == name), None)
                if at is not None:
                    hits[at] += int(seen[r])
        out = []
        mp, scored = self.layout.max_players, self.ir.score is not None
        m0 = 7 + 2 * mp + len(self.ir.readings)
        m1 = m0 + len(self.ir.measures)
        limit = NEAR_BUDGET * game.budget
        for seed, r in zip(seeds, rows.tolist()):  # plain ints: a row's fields are read once each
            if r[0] != Y.FINISHED or r[3] > limit:
                out.append(self.confirmed(game, players, seed))
                continue
            winners = tuple(p for p in range(players) if r[7 + p])
            scores = tuple(r[7 + mp:7 + mp + players]) if scored else None
            out.append(("finished", winners, r[1], r[2], scores, None, seed, tuple(r[m0:m1])))
        return out, hits

    def confirmed(self, game: Game, players: int, seed: int) -> tuple:
        """A kernel game as the reference engine plays it from the kernel's record (its summary)."""
        from ..runtime.engine import Status
        from .replay import replay
        _row, choices, chance = self.record(game, players, seed)
        st = replay(game, players, seed, choices, chance)
        i = game.score_idx
        measured = _measured(game, st) if game.spec.measures and st.status is Status.FINISHED else ()
        return (str(st.status), tuple(st.winners), st.turn, st.decisions,
                None if i is None else tuple(st.pvars[i]), st.reason, seed, measured)

    def replayed(self, game: Game, players: int, seed: int, **kw):
        """The reference engine's State of kernel game `seed` (`kw`: new_game's log, check_invariants),
        and the hook that scripts its chance into another replay (runtime/faults.py positions a failure so)."""
        from .replay import decode, prepare_for, replay
        _row, choices, chance = self.record(game, players, seed)
        return replay(game, players, seed, choices, chance, **kw), prepare_for(decode(chance))


def game_seeds(master: int, start: int, stop: int) -> list[int]:
    """`seeds.game_seed(master, i)` for i in start..stop-1, computed with numpy (the same numbers: every
    step of it is arithmetic modulo 2**64 followed by a mask below 2**63)."""
    mask = np.uint64((1 << 63) - 1)
    base = np.uint64((master * 0x9E3779B97F4A7C15 + 0x94D049BB133111EB) & ((1 << 63) - 1))
    i = np.arange(start, stop, dtype=np.uint64)
    with np.errstate(over="ignore"):
        x = (base + i * np.uint64(0xBF58476D1CE4E5B9)) & mask
        x ^= x >> np.uint64(31)
        x = (x * np.uint64(0xD6E8FEB86659FD93)) & mask
        x ^= x >> np.uint64(29)
    return x.tolist()


def _measured(game: Game, st) -> tuple:
    """The spec's measures of a finished engine game (as `lab.measures.measure` reads them: numbers, 0/1)."""
    from ..compile.compiler import Compiler
    c = Compiler(game.spec, game.options, game.readings)
    return tuple(int(c.gen.condition(m.value)(st, [None] * max(m.value.n_locals, 1))) for m in game.spec.measures.values())


def _encode(v: Any, g: ir.Game) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    return g.strings.index(v)
