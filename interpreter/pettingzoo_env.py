"""A PettingZoo AEC environment over any spec (needs `pip install 'rulewright[rl]'`).

Owns the fixed-size numeric encoding of one player's view, the fixed action
space, rewards, and the AEC bookkeeping. The game itself is the engine's:
one `State`, `decision()` / `apply()`; an observation is built from what
`State.view(player)` shows, never from hidden cards.

Agents are `player_0` ... `player_{n-1}` (seat k+1 is `player_k`).

Action space: `Discrete(max_options)`. Action `i` is option `i` of the
pending decision, in the engine's stable order (the labels of
`State.decision()`); `action_mask[i]` is 1 for the options that exist now.
`max_options` defaults to the largest number of options met in 16 random
games (seeds 0-15), at least 2; a decision with more options than that
exposes only its first `max_options` (`info["truncated_options"]` says how
many were cut). A masked-out action raises `ValueError`.

Observation: `{"observation": float32[D], "action_mask": int8[max_options]}`.
Seats are relative: block r describes the player r seats after the
observer (r = 0 is the observer). In order:
  1. zones: each shared zone (spec order), then for r = 0..n-1 each
     per-player zone of that seat: [cards in it, 1 if the observer can see
     its cards, then per card type (spec order) how many of the zone's cards
     are of that type, then a one-hot of the top card's type]; the type
     counts and top are 0 for a zone the observer cannot see.
     Block size per zone: 2 + 2 * card types.
  2. global variables (spec order), then for r = 0..n-1 that seat's player
     variables, then the turn variables; bools are 0/1. A variable the
     observer may not read (`visible: owner`, `side`, `nobody`, not revealed:
     runtime/redact.py decides) is 0.
  3. one-hot (n) of the seat whose turn it is, one-hot (n) of the seat that
     must decide now (both relative), one-hot (4) of the decision kind
     (action, value, option, subset), the number of options (0 unless the
     observer decides: another seat's count could tell what it holds), and
     1 if the game is over.
`RulewrightEnv.describe()` names every entry.

Rewards come only at the end: +1 to each winner and -1 to everyone else; a
game without a winner gives 0 to all; a stalled game is a truncation, an
engine error also ends the episode as truncated (its reason is in `infos`).
"""
from __future__ import annotations

import functools
import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - depends on the install
    raise ImportError("the PettingZoo environment needs the rl extra: pip install 'rulewright[rl]'") from exc

from .api import load_game
from .compile.compiler import ACTION, OPTION, SUBSET, VALUE
from .runtime.engine import Game, State, Status
from .runtime.redact import seat_values, zone_sight

KINDS = (ACTION, VALUE, OPTION, SUBSET)
UNBOUNDED = 1e9  # the Box bound of a variable the spec gives no min or max


def probe_max_options(game: Game, players: int, games: int = 16) -> int:
    """The largest number of options in `games` random games (a default action space size)."""
    top = 2
    for seed in range(games):
        rng = random.Random(seed)
        st = game.new_game(players, seed)
        while st.status is Status.RUNNING:
            top = max(top, len(st.popts))
            st.apply(rng.randrange(len(st.popts)))
    return top


class Encoder:
    """One player's view as a fixed-size float vector (layout in the module docstring)."""

    def __init__(self, game: Game, players: int):
        g, spec = game, game.spec
        self.g, self.n = g, players
        self.types = list(spec.cards)
        self.type_index = {t: i for i, t in enumerate(self.types)}
        self.card_type = [self.type_index[t] for t in g.card_type]
        self.T = len(self.types)
        self.zone_block = 2 + 2 * self.T
        self.n_zones = g.S + g.P * players
        self.vdefs = list(spec.vars["global"].values()), list(spec.vars["player"].values()), \
            list(spec.vars["turn"].values())
        G, Pv, Tv = (len(v) for v in self.vdefs)
        # Text and player variables as numbers: a text's position among its values (from 1; 0 for another
        # text), a player's seat counted from the observer (as the zones are).
        self._special = any(v.type in ("text", "player", "cell") for vs in self.vdefs for v in vs)
        self._secret = any(v.visible != "public" for vs in self.vdefs for v in vs)  # lang/hidden.py
        self.size = self.n_zones * self.zone_block + G + Pv * players + Tv + 2 * players + len(KINDS) + 2
        self.low, self.high = self._bounds()

    def _zone_order(self, observer: int) -> list[tuple[int, str]]:
        """(zone id, name relative to the observer) in encoding order."""
        g = self.g
        out = [(z, g.shared_zone_names[z]) for z in range(g.S)]
        for r in range(self.n):
            seat = (observer + r) % self.n
            for k in range(g.P):
                out.append((g.S + seat * g.P + k, f"seat+{r}.{g.player_zone_names[k]}"))
        return out

    def _visible(self, zid: int, observer: int) -> bool:
        return zone_sight(self.g, self.n, observer)[zid]  # the one reading of zone visibility (runtime/redact.py)

    def _bounds(self) -> tuple[np.ndarray, np.ndarray]:
        lo = np.zeros(self.size, dtype=np.float32)
        hi = np.ones(self.size, dtype=np.float32)
        cards = float(len(self.g.card_type))
        i = 0
        for _ in range(self.n_zones):
            hi[i] = cards
            hi[i + 2:i + 2 + self.T] = cards
            i += self.zone_block
        G, Pv, Tv = self.vdefs
        for vd in G + Pv * self.n + Tv:
            if vd.type == "bool":
                lo[i], hi[i] = 0, 1
            elif vd.type == "text":
                lo[i], hi[i] = 0, len(vd.values or ())
            elif vd.type == "player":
                lo[i], hi[i] = 0, self.n - 1
            elif vd.type == "cell":  # a cell as its place on its board, in reading order
                lo[i], hi[i] = 0, len(self.g.boards[vd.board].cells) - 1
            else:
                lo[i] = vd.min if vd.min is not None else -UNBOUNDED
                hi[i] = vd.max if vd.max is not None else UNBOUNDED
            if vd.visible != "public":  # what the observer may not read is 0: in the box too
                lo[i], hi[i] = min(lo[i], 0), max(hi[i], 0)
            i += 1
        i += 2 * self.n + len(KINDS)
        hi[i] = UNBOUNDED  # number of options
        return lo, hi

    def encode(self, st: State, observer: int) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        T, block, ct = self.T, self.zone_block, self.card_type
        i = 0
        for zid, _name in self._zone_order(observer):
            cards = st.zones[zid]
            out[i] = len(cards)
            if self._visible(zid, observer):
                out[i + 1] = 1
                for c in cards:
                    out[i + 2 + ct[c]] += 1
                if cards:
                    out[i + 2 + T + ct[cards[-1]]] = 1
            i += block
        gv, rows = seat_values(st, observer)  # a value the observer may not read is None here, 0 below
        vals: list = list(gv)
        for r in range(self.n):
            vals.extend(rows[(observer + r) % self.n])
        vals.extend(st.tvars)
        if self._special:
            G, Pv, Tv = self.vdefs
            vals = [0.0 if x is None else self._number(vd, x, observer) for vd, x in zip(G + Pv * self.n + Tv, vals)]
        elif self._secret:
            vals = [0.0 if x is None else x for x in vals]
        out[i:i + len(vals)] = np.asarray(vals, dtype=np.float32)
        i += len(vals)
        n = self.n
        out[i + (st.cur - observer) % n] = 1
        i += n
        if st.status is Status.RUNNING:
            out[i + (st.pplayer - observer) % n] = 1
            out[i + n + KINDS.index(st.pkind)] = 1
            if st.pplayer == observer:  # another seat's option count can tell what is in its hand
                out[i + n + len(KINDS)] = len(st.popts)
        else:
            out[i + n + len(KINDS) + 1] = 1
        return out

    def _number(self, vd, x, observer: int) -> float:
        if vd.type == "text":
            return float(vd.values.index(x) + 1) if vd.values and x in vd.values else 0.0
        if vd.type == "player":
            return float((x - observer) % self.n)
        if vd.type == "cell":
            return float(x.index)
        return float(x)

    def describe(self) -> list[str]:
        """A name for every entry of the vector (for the observer's own seat as seat+0)."""
        names = []
        for _zid, zname in self._zone_order(0):
            names += [f"{zname}.size", f"{zname}.visible"]
            names += [f"{zname}.count[{t}]" for t in self.types] + [f"{zname}.top[{t}]" for t in self.types]
        G, Pv, Tv = self.vdefs
        names += [f"global.{v.name}" for v in G]
        names += [f"seat+{r}.{v.name}" for r in range(self.n) for v in Pv]
        names += [f"turn.{v.name}" for v in Tv]
        names += [f"current=seat+{r}" for r in range(self.n)] + [f"deciding=seat+{r}" for r in range(self.n)]
        names += ["kind=action", "kind=value", "kind=option", "kind=subset", "options", "game_over"]
        return names


class RulewrightEnv(AECEnv):
    """AEC environment for one spec and player count (see the module docstring)."""
    metadata = {"render_modes": ["ansi", "human"], "name": "rulewright_v0", "is_parallelizable": False}

    def __init__(self, spec: str | Game, players: int, *, options: dict | None = None,
                 readings: dict | None = None, max_options: int | None = None, render_mode: str | None = None):
        super().__init__()
        self.game = spec if isinstance(spec, Game) else load_game(spec, options, readings)
        g = self.game
        if not g.spec.min_players <= players <= g.spec.max_players:
            raise ValueError(f"{g.spec.name} is for {g.spec.min_players} to {g.spec.max_players} players")
        self.n = players
        self.encoder = Encoder(g, players)
        self.max_options = max_options or probe_max_options(g, players)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{k}" for k in range(players)]
        box = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        mask = spaces.Box(0, 1, (self.max_options,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.max_options) for a in self.possible_agents}
        self._seeds = random.Random(0)
        self.state: State | None = None
        self.metadata = {**self.metadata, "name": f"rulewright_{g.spec.name}_v0"}

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def describe(self) -> list[str]:
        return self.encoder.describe()

    # -- AEC ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = seed if seed is not None else self._seeds.getrandbits(31)
        self.state = self.game.new_game(self.n, game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        if self.state.status is Status.RUNNING:
            self.agent_selection = self.possible_agents[self.state.pplayer]
            self._note_options()
        else:  # a game decided before anyone chose
            self.agent_selection = self.agents[0]
            self._finish()

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        st = self.state
        mask = np.zeros(self.max_options, dtype=np.int8)
        if st.status is Status.RUNNING and st.pplayer == seat:
            mask[:min(len(st.popts), self.max_options)] = 1
        return {"observation": self.encoder.encode(st, seat), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.state
        i = int(action)
        if not 0 <= i < min(len(st.popts), self.max_options):
            raise ValueError(f"action {i} is not a legal option now (legal: 0-{min(len(st.popts), self.max_options) - 1})")
        self._cumulative_rewards[agent] = 0.0
        st.apply(i)
        if st.status is Status.RUNNING:
            self.agent_selection = self.possible_agents[st.pplayer]
            self._note_options()
        else:
            self._finish()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _note_options(self) -> None:
        cut = len(self.state.popts) - self.max_options
        info = self.infos[self.agent_selection]
        if cut > 0:
            info["truncated_options"] = cut
        else:
            info.pop("truncated_options", None)

    def _finish(self) -> None:
        st = self.state
        winners = set(st.winners) if st.status is Status.FINISHED else set()
        for k, a in enumerate(self.possible_agents):
            if a not in self.agents:
                continue
            self.rewards[a] = 0.0 if not winners else (1.0 if k in winners else -1.0)
            if st.status is Status.FINISHED:
                self.terminations[a] = True
            else:
                self.truncations[a] = True
                self.infos[a]["reason"] = f"{st.status}: {st.reason}"
            self.infos[a].pop("truncated_options", None)

    def render(self) -> str | None:
        if self.state is None:
            return None
        seat = self.possible_agents.index(self.agent_selection) if self.agent_selection in self.possible_agents else 0
        v = self.state.view(seat)
        lines = [f"{self.game.spec.name}, turn {v['turn']}, P{v['current'] + 1} to play; view of P{seat + 1}"]
        for name, z in v["zones"].items():
            lines.append(f"  {name}: {z if isinstance(z, int) else ', '.join(z) or '-'}")
        d = self.state.decision()
        if d is not None:
            from .runtime.redact import seat_labels
            labels = seat_labels(self.state, seat)  # the same as d.labels when the viewer decides
            lines += [f"  P{d.player + 1}, {d.prompt}:"] + [f"    {i}. {lab}" for i, lab in enumerate(labels)]
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(spec: str, players: int, **kw: Any) -> RulewrightEnv:
    """The environment for a spec file (PettingZoo's `env()` convention)."""
    return RulewrightEnv(spec, players, **kw)
