"""Search agents on the kernel (interpreter/kernel/agents.py, search_emit.py) mean what the Python agents mean.

- The search kernel, with every seat random, plays the random kernel's games game for game (its flow is
  the random kernel's made resumable: this catches the two drifting apart).
- A game with greedy seats, paused and resumed at every greedy decision, is a legal game of the rules: its
  record replays in the reference engine to the same end.
- Same strength: greedy's win share against random players on the kernel and on the Python engine agree
  within their 95% intervals, and the kernel's beats random, on STUN and two games with hidden hands (No
  Thanks, Love Letter: hidden deck and hands), and with RULEWRIGHT_KERNEL_ALL=1 on First in Flight and Uno
  too (a spec the kernel does not run yet is skipped with its reason). Stunt Academy's greedy is slow on the Python engine, so it is in benchmarks/agents.py
  (mcts there), with the long version of everything here.
- mcts likewise (two-player STUN, `mcts:50`); its time budget (`mcts:time=50ms`) on both engines: it stops
  the search, a timed kernel game still replays in the engine from its record, and a budget never reached
  leaves the game as the iteration budget alone makes it.
- cautious likewise (STUN, No Thanks, Love Letter), and `first` always takes the first option: every agent
  of the registry runs on the kernel; one that does not would be named, and its games run on the Python engine.
- Secrets that are not cards (hidden variables, `choose together`): tests/test_kernel_secrets.py.

Compiling a search kernel costs seconds: the cache directory is shared with tests/test_kernel.py.
"""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

from interpreter.kernel import why_not
from interpreter.kernel.agents import search_kernel_for
from interpreter.kernel.layout import STATUS_NAMES
from interpreter.kernel.replay import replay
from interpreter.kernel.run import kernel_for
from interpreter.lab.runner import play
from interpreter.runtime.pipeline import load_game
from interpreter.runtime.seeds import game_seed


@pytest.fixture(scope="module", autouse=True)
def kernel_cache(tmp_path_factory):
    saved = os.environ.get("RULEWRIGHT_CACHE")
    if saved is None:
        os.environ["RULEWRIGHT_CACHE"] = str(tmp_path_factory.getbasetemp().parent / "rulewright-kernels")
    yield
    if saved is None:
        os.environ.pop("RULEWRIGHT_CACHE", None)


def _share(won: list[float]) -> tuple[float, float]:
    """The mean share and its standard error, never 0: the variance is at least that of a share one win
    (or one loss) from the one seen (a seat that won every game of few still has an uncertain share)."""
    xs = np.asarray(won, dtype=float)
    n = len(xs)
    p = (xs.sum() + 1) / (n + 2)
    return float(xs.mean()), float(max(xs.std(ddof=1), math.sqrt(p * (1 - p))) / math.sqrt(n))


@pytest.mark.parametrize("path,players", [("games/stun.yaml", 4)])
def test_search_kernel_with_random_seats_plays_the_random_kernels_games(path, players):
    game = load_game(path)
    seeds = [game_seed(3, i) for i in range(300)]
    rows, used = search_kernel_for(game.spec).batch(game, players, seeds, {})
    assert used == 0
    assert (rows == kernel_for(game.spec).batch(game, players, seeds)).all()


# Compiling a search kernel from a cold cache is most of these tests' time (First in Flight's about a
# minute on two cores), so the suite compiles three (STUN, Love Letter, No Thanks) and the rest run with
# RULEWRIGHT_KERNEL_ALL=1, as tests/test_kernel.py's extra specs do; benchmarks/agents.py has them all.
ALL = bool(os.environ.get("RULEWRIGHT_KERNEL_ALL"))
REPLAYED = [
    ("games/stun.yaml", 4, {0: "greedy", 2: "greedy:samples=4,turn=0"}),
    ("games/stun.yaml", 4, {1: "cautious", 3: "cautious:8", 0: "first"}),
    ("games/love_letter.yaml", 3, {0: "cautious", 2: "greedy:4"}),  # hidden hands and deck
    ("games/stun.yaml", 2, {0: "mcts:time=2ms"}),  # a timed search: its game is the one recorded
]
if ALL:
    REPLAYED += [("games/uno.yaml", 3, {1: "greedy"}), ("games/no_thanks.yaml", 4, {2: "cautious", 0: "mcts:time=1ms"})]


def _replays(game, players: int, seed: int, agents: dict[int, str]) -> list[int]:
    """Kernel game `seed` with these agents, replayed in the reference engine from its record to the same end;
    its choices."""
    sk = search_kernel_for(game.spec)
    row, choices, chance = sk.record(game, players, seed, agents)
    st = replay(game, players, seed, choices, chance)
    assert STATUS_NAMES[int(row[0])] == str(st.status)
    assert (int(row[1]), int(row[2])) == (st.turn, st.decisions)
    assert tuple(p for p in range(players) if row[7 + p]) == tuple(st.winners)
    assert sk.layout.max_players >= players
    return choices


@pytest.mark.parametrize("path,players,agents", REPLAYED)
def test_search_kernel_games_replay_identically_in_the_engine(path, players, agents):
    game = load_game(path)
    for i in range(6):
        _replays(game, players, game_seed(11, i), agents)


@pytest.mark.parametrize("agent,pick", [("first", lambda n: 0), ("last", lambda n: n - 1)])
def test_first_and_last_take_their_option_on_the_kernel(agent, pick):
    import interpreter.lab.policies  # noqa: F401  (registers the lab's `last` policy)
    from interpreter.kernel.replay import decode, prepare_for
    from interpreter.runtime.engine import Status
    game = load_game("games/stun.yaml")
    sk = search_kernel_for(game.spec)
    for i in range(4):
        seed = game_seed(12, i)
        row, choices, chance = sk.record(game, 3, seed, dict.fromkeys(range(3), agent))
        st = game.new_game(3, seed, prepare=prepare_for(decode(chance)))
        for c in choices:  # every seat's every choice is the agent's, in the engine's own option lists
            assert c == pick(len(st.popts))
            st.apply(c)
        assert st.status is not Status.RUNNING and st.decisions == int(row[2]) and len(choices) > 10


# (spec, players, kernel games, Python games): sized to keep each case to a few seconds once compiled
GREEDY = [
    ("games/stun.yaml", 4, 600, 60),
    ("games/no_thanks.yaml", 4, 600, 60),
    ("games/love_letter.yaml", 3, 600, 60),
] + ([("games/first-in-flight.yaml", 3, 400, 40), ("games/uno.yaml", 3, 400, 40)] if ALL else [])


def _on_the_kernel(game, agents) -> None:
    """Skip, saying why, a spec the kernel does not run yet (the reason names the construct and its position)."""
    reason = why_not(game.spec, agents)
    if reason is not None:
        pytest.skip(f"not on the kernel yet: {reason}")


def _as_strong(path: str, players: int, agent: str, k_games: int, p_games: int, seat: int = 0,
               others: dict[int, str] | None = None) -> None:
    """`agent` in `seat` against random players (or `others` in their seats): its win share on the kernel and
    on the Python engine agree within their 95% intervals, and against random players the kernel's beats a
    random seat's."""
    game = load_game(path)
    agents = {**(others or {}), seat: agent}
    _on_the_kernel(game, agents)
    rows, used = search_kernel_for(game.spec).batch(game, players, [game_seed(5, i) for i in range(k_games)],
                                                    agents)
    assert used > 0  # it searched (samples or iterations)
    wins = rows[:, 7:7 + players]
    k_mean, k_se = _share([w[seat] / w.sum() if w.sum() else 0.0 for w in wins])
    won = []
    for i in range(p_games):
        st = play(game, players, game_seed(6, i), agents)
        won.append(1.0 / len(st.winners) if seat in st.winners else 0.0)
    p_mean, p_se = _share(won)
    assert abs(k_mean - p_mean) <= 1.96 * math.hypot(k_se, p_se), (k_mean, k_se, p_mean, p_se)
    if others is None:
        assert k_mean - 1.96 * k_se > 1.0 / players  # and it plays better than the random players it meets


@pytest.mark.parametrize("path,players,k_games,p_games", GREEDY)
def test_greedy_is_as_strong_on_the_kernel_as_on_the_python_engine(path, players, k_games, p_games):
    _as_strong(path, players, "greedy", k_games, p_games)


# cautious is cheap on both engines (it looks one decision ahead): larger samples than greedy's
CAUTIOUS = [
    ("games/stun.yaml", 4, 2000, 200),
    ("games/no_thanks.yaml", 4, 1000, 200),
    ("games/love_letter.yaml", 3, 2000, 300),
]


@pytest.mark.parametrize("path,players,k_games,p_games", CAUTIOUS)
def test_cautious_is_as_strong_on_the_kernel_as_on_the_python_engine(path, players, k_games, p_games):
    _as_strong(path, players, "cautious", k_games, p_games)


@pytest.mark.parametrize("path,players,k_games,p_games", [("games/stun.yaml", 2, 300, 30)])
def test_mcts_is_as_strong_on_the_kernel_as_on_the_python_engine(path, players, k_games, p_games):
    _as_strong(path, players, "mcts:50", k_games, p_games)


def test_every_agent_of_the_registry_runs_on_the_kernel_and_another_would_be_named(monkeypatch):
    import interpreter.lab.policies  # noqa: F401  (registers the lab's `last` policy)
    from interpreter.agents.registry import AGENTS, FirstAgent
    from interpreter.kernel.agents import KERNEL_AGENTS
    game = load_game("games/stun.yaml")
    assert set(AGENTS) == set(KERNEL_AGENTS)
    assert why_not(game.spec, {0: "greedy:samples=8", 1: "cautious:2", 2: "mcts:iterations=50,depth=4",
                               3: "first"}) is None
    assert why_not(game.spec, {0: "last"}) is None
    assert why_not(game.spec, {1: "mcts:time=50ms"}) is None
    monkeypatch.setitem(AGENTS, "oracle", FirstAgent)  # an agent added to the registry but not to the kernel
    reason = why_not(game.spec, {0: "oracle", 1: "greedy"})
    assert reason is not None and reason.startswith("agent oracle is not yet on the kernel") and "cautious" in reason


def test_mcts_time_budget_stops_the_kernel_search():
    from interpreter.agents.registry import MCTS_TIMED_CAP
    game = load_game("games/stun.yaml")
    sk = search_kernel_for(game.spec)
    seeds = [game_seed(13, i) for i in range(3)]
    _rows, used = sk.batch(game, 2, seeds[:1], {0: "mcts:time=1ms"})
    # the clock, read every 8 iterations, stopped every search of the game long before the iteration cap
    assert 8 <= used < MCTS_TIMED_CAP
    # a budget no decision reaches leaves the search as the iterations alone make it: the same games
    plain, used_plain = sk.batch(game, 2, seeds, {0: "mcts:20"})
    timed, used_timed = sk.batch(game, 2, seeds, {0: "mcts:iterations=20,time=60s"})
    assert (plain == timed).all() and used_plain == used_timed > 0


def test_mcts_time_budget_stops_the_python_search():
    from interpreter.agents.registry import AgentError, make_agent
    game = load_game("games/stun.yaml")
    st = game.new_game(2, 1)
    agent = make_agent("mcts:time=20ms", 1, st.pplayer)
    assert agent.iterations >= 1000 and agent.seconds == pytest.approx(0.02)
    while len(st.popts) < 2:
        st.apply(0)
    agent.pick(st)
    visits = sum(ch.visits for kids in agent.last_root.children.values() for ch in kids.values())
    assert 8 <= visits < agent.iterations  # stopped by the clock, after at least one round of 8
    with pytest.raises(AgentError):
        make_agent("mcts:time=soon", 1, 0)


def test_simulate_and_run_play_search_agents_on_the_kernel():
    import json

    from click.testing import CliRunner

    from interpreter.cli.commands import cli
    args = ["simulate", "games/stun.yaml", "-p", "4", "-g", "60", "--seed", "4", "--agent", "1=greedy:4", "--engine", "kernel", "--json"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["engine"] == "kernel" and d["games"] == 60 and "engine_note" not in d, d.get("engine_note")
    r = CliRunner().invoke(cli, ["simulate", "games/stun.yaml", "-p", "2", "-g", "5", "--agent", "1=cautious",
                                 "--engine", "kernel", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["engine"] == "kernel" and "engine_note" not in d
    # `run --engine kernel` narrates the search kernel's game (its record replayed in the engine)
    game = load_game("games/stun.yaml")
    seed = 9
    row, _choices, _chance = search_kernel_for(game.spec).record(game, 4, seed, {0: "greedy:4"})
    r = CliRunner().invoke(cli, ["run", "games/stun.yaml", "-p", "4", "--seed", str(seed), "--engine", "kernel",
                                 "--agent", "1=greedy:4"])
    assert r.exit_code == 0, r.output
    winners = [p for p in range(4) if row[7 + p]]
    last = [ln for ln in r.output.splitlines() if ln.startswith("== ")][-1]
    assert last.startswith(f"== P{winners[0] + 1} wins after {int(row[1])} turns"), (last, row[:7])
