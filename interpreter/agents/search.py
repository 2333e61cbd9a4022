"""Search agents: greedy one-step lookahead and information-set MCTS.

Owns the two agents that look ahead by simulating on clones. Both see the
game only through `determinize()`: every simulation starts from a state
re-dealt from what the deciding player can see, with a fresh RNG, never
from the true state, so neither can read a hidden card or the true deck
order. Their own randomness comes from a seed per (game, seat), so a game
with bots replays exactly.

- `greedy` takes the option whose resulting position has the best value
  (the spec's `heuristics.value`, else `end.score`) on average over a few
  determinizations (the same ones for every option, to compare like with
  like). The position is judged once the decider's turn has played out (where
  the next turn would begin, after any phase end: `State.halt`): the decider's own
  further decisions in the same turn (at most 12) are taken at random, with
  the same uniforms for every option (`turn=0`: judge at the
  very next decision, as before; that made greedy cash in at once, e.g.
  descend at the first card in First in Flight, and lose to random).
- `mcts` is single-observer information-set MCTS (Cowling, Powley and
  Whitehouse 2012): one tree over the decider's information sets, a new
  determinization each iteration, children keyed by chooser and option label (labels are
  unique within a decision; the chooser is part of the key because the tree is open loop:
  after the same moves, different determinizations can put different players next; the labels come
  from a per-game memo, exactly as `State.labels()` would format them: `keys.option_labels`), UCB
  with availability counts, random playouts, and each node's reward the
  win share of the player who chose its move. A playout runs to the end of
  the game, or (the default when the spec has a heuristic or a score) stops
  after `depth` random decisions and is judged: the seat(s) with the best
  heuristic value share the win (or a softmax of the values, with `tau`); a
  cut where every seat is worth the same goes on for `depth` more decisions
  (to the end, or `max_playout` in all). The playout's random player is seated
  in the state, so its decisions run inside the engine. The next search starts
  from the subtree of the decider's last move, followed down the moves made
  since, as long as each was one the decider saw (its own, or another seat's
  public choice; a hidden or sealed one starts a fresh tree). A sample draws its chance from the
  agent's own stream (`Determinizer.sample(share=True)`: no generator built per playout). Chance
  (draws, shuffles) is not in the tree: it is whatever the determinization's
  deck order and RNG make it ("open loop").
"""
from __future__ import annotations

import math
import random
from time import perf_counter as _clock
from itertools import repeat
from typing import Any, Iterator

from .determinize import Determinizer
from ..compile.compiler import ACTION, OPTION, VALUE
from ..runtime.engine import State, Status
from ..runtime.redact import secret_spans
from .keys import label_memo, option_labels
from .heuristics import judges, outcome, position_value, value_function
from ..runtime.seeds import agent_seed

_uniform = random.Random.random  # map(_uniform, repeat(rng, k)): k draws of rng.random(), in C
_SALT = 0x5EA5C4  # search agents draw from their own stream, not the random agent's
_FOLLOW_UP = 12  # greedy: at most this many of the decider's own further decisions in the turn, played at random
AUTO_DEPTH = 10  # random decisions per playout before judging (STUN: stronger than full playouts, and faster)


class GreedyAgent:
    """The option with the best average heuristic value once the decider's turn has played out."""
    name = "greedy"
    salt = _SALT

    def __init__(self, game_seed: int = 0, seat: int = 0, samples: int = 16, turn: int = 1, sure: float = 2.0):
        if samples < 1:
            raise ValueError(f"{self.name}: samples must be at least 1")
        if turn not in (0, 1):
            raise ValueError("greedy: turn must be 1 (play my turn out at random) or 0 (judge one decision later)")
        if sure < 0:
            raise ValueError("greedy: sure must be 0 (always every sample) or more")
        self.samples = samples
        self.turn = turn
        self.sure = sure  # stop sampling once the leader is ahead of every other option by `sure` standard errors
        self.used = 0  # samples taken, over all decisions (for benchmarks and tests)
        self.rng = random.Random(agent_seed(game_seed, seat) ^ self.salt)

    def pick(self, state: State) -> int:
        n = len(state.popts)
        if n == 1:
            return 0
        scores = self.judge(self.rows(state), n)
        best = max(scores)
        return self.rng.choice([i for i, t in enumerate(scores) if t >= best - 1e-9])

    def judge(self, rows: Iterator[list[float]], n: int) -> list[float]:
        """Each option's score from the rows of values `rows` yields: their sum (the average, times the samples),
        stopping early once the leader is settled."""
        totals = [0.0] * n
        stop = _Settled(n, self.sure) if self.sure else None
        m = 0
        for m, row in enumerate(rows, 1):
            for i in range(n):
                totals[i] += row[i]
            if stop is not None and stop.add(row, totals):
                break
        self.used += m
        return totals

    def rows(self, state: State) -> Iterator[list[float]]:
        """Per determinization (at most `samples` of them, drawn as they are asked for), the value for the
        decider of each option's resulting position."""
        n = len(state.popts)
        me = state.pplayer
        value = value_function(state.g)
        dets = Determinizer(state, me)
        rng = self.rng
        turn = state.turn if self.turn else -1
        running = Status.RUNNING
        for _ in range(self.samples):
            det = dets.sample(rng)
            # The same uniforms for every option's follow-up decisions: options are compared on like chances.
            us = [*map(_uniform, repeat(rng, _FOLLOW_UP))] if turn >= 0 else None  # = rng.random() 12 times
            row = [0.0] * n
            for i in range(n):
                s = det.clone() if i < n - 1 else det
                if us is None:
                    s.take(i)
                    s.run()
                else:
                    s.halt = True  # the copy stops where the next turn would begin (after a phase end)
                    s.take(i)
                    s.run()
                    k = 0
                    # my own further decisions of this turn, at random (stop at the first decision of another seat)
                    while s.popts is not None and s.pplayer == me and s.turn == turn and k < _FOLLOW_UP:
                        s.take(int(us[k] * len(s.popts)))
                        s.run()
                        k += 1
                row[i] = value(s, me) if s.status is running else position_value(s, me, value)
            yield row


_MIN_SAMPLES = 4  # greedy judges no option settled on fewer samples than this


class _Settled:
    """Greedy's early stop: whether the leading option is ahead of every other by more than `sure` standard
    errors of the paired differences (the samples are common to all options), or by every sample when they
    do not vary. Keeps the sums of the differences to the leader and of their squares, so that a sample
    costs O(options) (all the rows are summed again only when the leader changes)."""
    __slots__ = ("sure2", "rows", "best", "d1", "d2")

    def __init__(self, n: int, sure: float):
        self.sure2 = sure * sure
        self.rows: list[list[float]] = []
        self.best = -1
        self.d1 = [0.0] * n  # per option j: the sum over samples of (value of the leader - value of j)
        self.d2 = [0.0] * n  # ... and of its square

    def add(self, row: list[float], totals: list[float]) -> bool:
        """Take one sample's values (`totals`: the sums so far, `row` included); True once settled."""
        rows = self.rows
        rows.append(row)
        m = len(rows)
        best = totals.index(max(totals))
        d1, d2 = self.d1, self.d2
        if best != self.best:  # a new leader: its differences to every option, summed over the rows again
            self.best = best
            for j in range(len(d1)):
                ds = [r[best] - r[j] for r in rows]
                d1[j] = sum(ds)
                d2[j] = sum(x * x for x in ds)
            if m < _MIN_SAMPLES:
                return False
            return all(j == best or _ahead(d1[j], d2[j], m, self.sure2) for j in range(len(d1)))
        vb = row[best]
        settled = m >= _MIN_SAMPLES
        sure2 = self.sure2
        for j, v in enumerate(row):
            x = vb - v
            s1 = d1[j] = d1[j] + x
            s2 = d2[j] = d2[j] + x * x
            if settled and j != best and (s1 <= 0 or s1 * s1 * (m - 1) <= sure2 * (m * s2 - s1 * s1)):
                settled = False
        return settled


def _ahead(s1: float, s2: float, m: int, sure2: float) -> bool:
    """Mean difference s1 / m is positive and its square times m exceeds sure^2 times the variance (both
    sides times m * (m - 1)): (s1 / m)^2 * m > sure^2 * (s2 - s1^2 / m) / (m - 1)."""
    return s1 > 0 and s1 * s1 * (m - 1) > sure2 * (m * s2 - s1 * s1)


class _Node:
    __slots__ = ("children", "visits", "avail", "reward", "player")

    def __init__(self, player: int):
        self.children: dict[int, dict[str, _Node]] = {}  # chooser -> option label -> child
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.player = player  # who chose the move into this node


class MctsAgent:
    """Single-observer information-set Monte Carlo tree search."""
    name = "mcts"

    def __init__(self, game_seed: int = 0, seat: int = 0, iterations: int = 200, c: float = 0.7,
                 max_playout: int = 5000, depth: int = -1, tau: float = 0.0, tied: int = 1, time: str = ""):
        if iterations < 1:
            raise ValueError("mcts: iterations must be at least 1")
        # a time budget per decision (`time=50ms`, `time=0.2s`): it stops the search first, the iterations second;
        # with no iterations given it alone does (then a game is no longer the same for the same seed)
        self.seconds = parse_time(time) if time else None
        if depth < -1 or max_playout < 1:
            raise ValueError("mcts: depth must be -1 (auto), 0 (play to the end) or more; max_playout at least 1")
        self.iterations = iterations
        self.c = c
        self.max_playout = max_playout
        # 0: play out to the end; n: stop after n random decisions and judge by the heuristic;
        # -1: AUTO_DEPTH when the spec has a heuristic or a score to judge by, else 0
        self.depth = depth
        self.tau = tau  # judging a cut playout: 0 = the heuristic leader(s) win, else softmax(value / tau)
        self.tied = tied  # 1: a cut where every seat is worth the same plays on; 0: it is judged (a shared win)
        self.rng = random.Random(agent_seed(game_seed, seat) ^ _SALT)
        self.last_root: _Node | None = None  # for inspection and tests
        self.reused = 0  # decisions that started from the subtree kept from the one before
        self.used = 0  # iterations taken, over all decisions (for benchmarks: a time budget stops them early)
        self._kept: tuple | None = None  # (game, seed, choices with mine, a copy before my move, the tree)

    def _root(self, state: State) -> _Node:
        """Where this search starts: the subtree of my last move, followed down the choices made since,
        when each of them is one I saw (mine, or another seat's public choice); else a fresh tree.

        The choices since are replayed on a copy of the state as it was when I moved (it shares the game's
        chance copy-on-write, so it goes the way the game went) to read each one's chooser and label, the
        tree's keys. A choice whose label shows a card I may not see, or a sealed simultaneous choice, ends
        the walk: its label could tell the search something I do not know."""
        kept, self._kept = self._kept, None
        if kept is None:
            return _Node(-1)
        g, seed, n, replay, node = kept
        ch = state.choices
        if state.g is not g or state.seed != seed or len(ch) < n or replay.choices != ch[:n - 1]:
            return _Node(-1)
        me, replay = state.pplayer, replay.clone()  # the kept copy stays as it was (a test may ask twice)
        for k in range(n - 1, len(ch)):
            if node is None or replay.status is not Status.RUNNING:
                return _Node(-1)
            who, c = replay.pplayer, ch[k]
            if not 0 <= c < len(replay.popts) or who != me and not _seen_by(replay, c, me):
                return _Node(-1)
            node = node.children.get(who, {}).get(option_labels(replay)[c])
            replay.apply(c)
        if node is None or replay.decisions != state.decisions:
            return _Node(-1)
        self.reused += 1
        return node

    def pick(self, state: State) -> int:
        memo = label_memo(state.g)
        labels = option_labels(state, memo)
        if len(labels) == 1:
            self._kept = None
            return 0
        me, rng, c = state.pplayer, self.rng, self.c
        rnd = rng.random
        depth = self.depth
        if depth < 0:
            g = state.g
            depth = AUTO_DEPTH if judges(g) else 0
        limit = min(depth or self.max_playout, self.max_playout)
        root = self._root(state)
        dets = Determinizer(state, me)
        log, sqrt = math.log, math.sqrt
        playout = _Playout(rnd)
        seated = [playout] * state.n
        value = value_function(state.g)
        tau = self.tau
        running = Status.RUNNING
        # A sample shares the decision's options; their labels are the game's alone unless they are a
        # `choose one of` list (whose label expressions may read the re-dealt state)
        same_keys = labels if state.pkind != OPTION else None
        deadline = _clock() + self.seconds if self.seconds is not None else None
        for it in range(self.iterations):
            if deadline is not None and it and not it & 7 and _clock() >= deadline:
                break  # the time budget is spent (checked every 8 iterations, and never before the first)
            self.used += 1
            s = dets.sample(rng, share=True)  # its chance comes from my own stream (it is never cloned)
            node, path = root, []
            root_keys = same_keys  # the root's options are this decision's: their labels are `labels`
            # selection and expansion
            while s.status is running:
                if root_keys is not None:
                    keys, root_keys = root_keys, None
                else:
                    keys = option_labels(s, memo)
                who = s.pplayer
                kids = node.children.get(who)
                if kids is None:
                    kids = node.children[who] = {}
                # one pass: every child tried so far was available now; the UCB choice counts only when
                # every option has been tried (else an untried one is expanded)
                untried = None
                best_i, best_u = 0, -1.0
                for j, k in enumerate(keys):
                    ch = kids.get(k)
                    if ch is None:
                        if untried is None:
                            untried = [j]
                        else:
                            untried.append(j)
                        continue
                    avail = ch.avail = ch.avail + 1
                    if untried is None:
                        visits = ch.visits
                        u = ch.reward / visits + c * sqrt(log(avail) / visits)
                        if u > best_u:
                            best_i, best_u = j, u
                if untried is not None:
                    i = untried[int(rnd() * len(untried))] if len(untried) > 1 else untried[0]
                    child = _Node(who)
                    child.avail = 1
                    kids[keys[i]] = child
                    s.take(i)
                    s.run()
                    path.append(child)
                    break
                node = kids[keys[best_i]]
                s.take(best_i)
                s.run()
                path.append(node)
            # playout: random decisions taken inside the run (the engine's seated agents), `limit` at a time;
            # a cut position where every seat is worth the same says nothing, so that playout goes on
            # (Stunt Academy: victory points move only at an exam), up to max_playout decisions in all
            played, reward = 0, None
            while s.status is Status.RUNNING:
                playout.left = limit - 1
                if playout.left > 0:
                    s.auto = seated
                s.take(int(rnd() * len(s.popts)))
                s.run()
                s.auto = None
                played += limit
                if not depth:  # to the end of the game, or max_playout decisions
                    break
                if s.status is Status.RUNNING:
                    values = [value(s, p) for p in range(s.n)]
                    if max(values) > min(values) or not self.tied or played >= self.max_playout:
                        reward = _judge_values(values, tau)
                        break
            if reward is None:
                reward = outcome(s)
            for nd in path:
                nd.visits += 1
                nd.reward += reward[nd.player]
        self.last_root = root
        mine = root.children.get(me, {})
        visits = [mine[k].visits if k in mine else 0 for k in labels]
        top = max(visits)
        i = visits.index(top)
        self._kept = (state.g, state.seed, len(state.choices) + 1, state.clone(), root)
        return i


def _seen_by(st: State, i: int, player: int) -> bool:
    """Whether `player` may read option `i` of the pending decision as it is taken (not sealed, and every
    card its label shows is one `player` may see: the test redaction uses for narration)."""
    if st.pkind == VALUE and len(st.pmeta) > 3:  # a simultaneous choice: nobody sees it yet
        return False
    if st.pkind == ACTION and st._secret_action(i) and st.pplayer != player:  # a secret action (lang/hidden.py)
        return False
    marked = st.marked_label(i)
    return all(player in span[2] for span in secret_spans(st, marked))


class _Playout:
    """The random player of a playout, seated in the state so decisions run inside the engine; after
    `left` more decisions it unseats itself, and the run pauses at the next one."""
    __slots__ = ("rnd", "left")
    name = "playout"

    def __init__(self, rnd):
        self.rnd = rnd
        self.left = 0

    def pick(self, state: State) -> int:
        self.left -= 1
        if self.left <= 0:
            state.auto = None
        return int(self.rnd() * len(state.popts))


def _judge_values(values: list[float], tau: float) -> list[float]:
    """A cut playout's reward from each seat's heuristic value."""
    if tau <= 0:
        top = max(values)
        lead = [v >= top - 1e-9 for v in values]
        k = sum(lead)
        return [1.0 / k if x else 0.0 for x in lead]
    m = max(values)
    ex = [math.exp((v - m) / tau) for v in values]
    z = sum(ex)
    return [e / z for e in ex]


def parse_time(text: str) -> float:
    """`50ms`, `0.2s` or `50` (milliseconds) -> seconds (positive)."""
    t = text.strip().lower()
    scale = 1.0 if t.endswith("s") and not t.endswith("ms") else 0.001
    num = t.removesuffix("ms").removesuffix("s")
    try:
        v = float(num) * scale
    except ValueError:
        raise ValueError(f"mcts: time must look like 50ms or 0.2s, got '{text}'") from None
    if not v > 0 or v > 3600:
        raise ValueError(f"mcts: time must be more than 0 and at most an hour, got '{text}'")
    return v


def parse_params(text: str, defaults: dict[str, Any], positional: str) -> dict[str, Any]:
    """`200` or `iterations=200,c=0.5`: agent settings after `NAME:` on the command line."""
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, val = part.partition("=")
        if not eq:
            key, val = positional, part
        key = key.strip()
        if key not in defaults:
            raise ValueError(f"unknown setting '{key}' (known: {', '.join(defaults)})")
        kind = type(defaults[key])
        try:
            out[key] = kind(val)
        except ValueError:
            raise ValueError(f"setting '{key}' must be a {kind.__name__}, got '{val}'") from None
    return out
