"""The machinery that makes search agents fast keeps the games they see exact.

Copy-on-write RNG in `State.clone` (a clone and its parent draw the same streams they would draw alone),
a clone that copies every slot, one `Determinizer` per decision, MCTS keeping its subtree across the
decider's own consecutive decisions, and Ray running at most `--workers` chunks at once. Speed itself is
measured in benchmarks/ (speed.py, agents.py), never here.
"""
import random
import sys
import types

import pytest

from interpreter.agents.determinize import Determinizer, determinize
from interpreter.agents.search import MctsAgent
from interpreter.lab import runner
from interpreter.lab.runner import play
from interpreter.runtime.engine import State, Status
from interpreter.runtime.pipeline import load_game

from helpers import random_walk

STUN = "games/stun.yaml"


def _midgame(spec=STUN, players=4, seed=3, moves=30):
    game = load_game(spec)
    st = game.new_game(players, seed)
    rng = random.Random(seed)
    random_walk(st, rng, moves)
    return game, st


def _finish(st, seed):
    rng = random.Random(seed)
    random_walk(st, rng)
    return st.fingerprint(), st.choices[:]


def test_clone_copies_every_slot():
    _game, st = _midgame()
    twin = st.clone()
    for name in State.__slots__:
        assert hasattr(twin, name), f"clone() does not set State.{name}: add it to clone()"
    assert twin.fingerprint() == st.fingerprint()
    assert twin.log is None and twin.auto is None


@pytest.mark.parametrize("first", ["parent", "clone"])
def test_parent_and_clone_draw_their_own_streams(first):
    """Whichever of the two meets chance first, both play exactly the game they would play alone."""
    _game, st = _midgame()
    alone = st.clone()
    alone.chance()  # its own generator from the start
    expected = _finish(alone, 11)
    twin = st.clone()
    a, b = (st, twin) if first == "parent" else (twin, st)
    assert _finish(a, 11) == expected
    assert _finish(b, 11) == expected


def test_clone_chains_share_until_used():
    _game, st = _midgame()
    c1 = st.clone()
    c2 = c1.clone()
    assert c1.rng is st.rng and c2.rng is st.rng  # no copy yet
    expected = _finish(st.clone(), 5)
    assert _finish(c2, 5) == expected
    assert _finish(st, 5) == expected
    assert _finish(c1, 5) == expected


def test_reseed_plants_a_seed_used_on_first_chance():
    _game, st = _midgame()
    a, b = st.clone(), st.clone()
    a.reseed(42)
    b.rng = random.Random(42)
    b.rng_cow = False
    assert _finish(a, 3) == _finish(b, 3)


def test_samples_of_a_determinizer_are_consistent_deals():
    game, st = _midgame("tests/specs/hands.yaml", players=3, moves=4)
    me = st.pplayer
    d = Determinizer(st, me)
    rng = random.Random(1)
    deals = set()
    for _ in range(20):
        s = d.sample(rng)
        assert s.view(me) == st.view(me)
        assert all(s.where[c] == z for z, cards in enumerate(s.zones) for c in cards)
        kept = s.zsum
        s.resum()
        assert s.zsum == kept
        deals.add(tuple(map(tuple, s.zones)))
    assert len(deals) > 1
    assert determinize(st, me, random.Random(1)).zones == Determinizer(st, me).sample(random.Random(1)).zones


def test_mcts_keeps_its_subtree_on_its_own_next_decision():
    game = load_game(STUN)
    agent = MctsAgent(5, 0, iterations=20)
    other = runner.make_agent("random", 5, 1)
    st = game.new_game(2, 5)
    while st.status is Status.RUNNING:
        st.apply((agent if st.pplayer == 0 else other).pick(st))
    assert agent.reused > 0  # STUN: a turn is several flips in a row


def test_mcts_reuses_only_the_subtree_of_the_move_it_took():
    _game, st = _midgame(players=2, moves=7)
    while len(st.popts) < 2:
        st.apply(0)
    me = st.pplayer
    agent = MctsAgent(9, me, iterations=30)
    i = agent.pick(st)
    kept = agent._kept
    mine_node = agent.last_root.children[me][st.labels()[i]]
    mine = st.clone()
    mine.apply(i)
    assert agent._root(mine) is mine_node
    agent._kept = kept
    if len(st.popts) > 1:  # another move: a fresh tree
        elsewhere = st.clone()
        elsewhere.apply((i + 1) % len(st.popts))
        assert agent._root(elsewhere) is not mine_node
    agent._kept = kept
    later = mine.clone()
    if later.status is Status.RUNNING:
        who, label = later.pplayer, later.labels()[0]
        later.apply(0)  # someone's public choice (STUN shows every card): the walk goes on down the tree
        expected = mine_node.children.get(who, {}).get(label)
        got = agent._root(later)
        assert got is expected if expected is not None else got.visits == 0


def test_mcts_walks_down_other_seats_public_choices():
    game = load_game(STUN)
    agent = MctsAgent(5, 0, iterations=20)
    other = runner.make_agent("random", 5, 1)
    st = game.new_game(2, 5)
    after_other = 0
    while st.status is Status.RUNNING:
        if st.pplayer == 0 and len(st.popts) > 1:
            before = agent.reused
            last = agent._kept
            i = agent.pick(st)
            if agent.reused > before and last is not None and len(st.choices) > last[2]:
                after_other += 1  # reused across the other seat's turn
            st.apply(i)
        else:
            st.apply(other.pick(st) if st.pplayer == 1 else 0)
    assert after_other > 0


def test_a_card_i_cannot_see_in_another_seats_choice_starts_a_fresh_tree():
    from interpreter.agents.search import _seen_by
    game = load_game("games/uno.yaml")
    st = game.new_game(2, 3)
    while len(st.popts) < 2:
        st.apply(0)
    who = st.pplayer
    shows_hand = [k for k, lab in enumerate(st.labels()) if lab not in ("draw a card", "pass")]
    assert shows_hand, st.labels()
    assert _seen_by(st, shows_hand[0], who)  # my own hand
    assert not _seen_by(st, shows_hand[0], 1 - who)  # another seat's hand card, named in the label


def test_bots_still_replay_exactly():
    game = load_game(STUN)
    seats = {0: "greedy:4", 1: "mcts:10"}
    a = play(game, 3, 12, seats)
    b = play(game, 3, 12, seats)
    assert a.choices == b.choices and a.winners == b.winners


def test_ray_keeps_at_most_workers_chunks_in_flight(monkeypatch):
    """`--workers` with Ray: how many chunks run at once (a stand-in Ray records it)."""
    state = {"live": 0, "peak": 0}

    class Ref:
        def __init__(self, value):
            self.value = value
            state["live"] += 1
            state["peak"] = max(state["peak"], state["live"])

    fake = types.SimpleNamespace(
        is_initialized=lambda: True,
        remote=lambda f: types.SimpleNamespace(remote=lambda t: Ref(f(t))),
        get=lambda ref: (state.__setitem__("live", state["live"] - 1), ref.value)[1])
    monkeypatch.setitem(sys.modules, "ray", fake)
    gs = runner.GameSpec(STUN)
    local = runner.sweep(gs, 3, 40, 4, 1).as_dict()
    runner.use_backend("ray")
    try:
        for workers in (1, 3):
            state["peak"] = 0
            got = runner.sweep(gs, 3, 40, 4, workers).as_dict()
            assert state["peak"] == workers
            for k in ("seconds", "games_per_second"):
                got.pop(k), local.pop(k, None)
            assert got == {k: v for k, v in local.items() if k in got}
    finally:
        runner.use_backend("local")


def test_random_pick_draws_like_its_stream():
    """The random agent's inlined pick replays `Stream.randrange` word for word (the baselines replay it)."""
    from interpreter.agents.registry import RandomAgent
    from interpreter.runtime.rng import Stream

    agent = RandomAgent(17, 2)
    twin = Stream(17 * 1000 + 3)
    fake = types.SimpleNamespace(popts=None)
    # past several block ends, and with option counts where Lemire's rejection happens now and then
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100, 1, 1, 2, 3 << 30, (1 << 32) - 1, 1 << 31] * 20:
        fake.popts = range(n)
        assert agent.pick(fake) == twin.randrange(n)
    assert agent.rng.getstate() == twin.getstate()


def _settled(rows, sure):
    """Whether greedy would stop after these samples (each a row of the options' values)."""
    from interpreter.agents.search import _Settled
    n = len(rows[0])
    stop, totals, done = _Settled(n, sure), [0.0] * n, False
    for row in rows:
        totals = [t + v for t, v in zip(totals, row)]
        done = stop.add(row, totals)
    return done


def test_greedy_stops_sampling_once_one_option_is_clearly_ahead():
    from interpreter.agents.search import GreedyAgent
    assert _settled([[5.0, 1.0]] * 4, 2.0)  # ahead on every sample, no spread
    assert not _settled([[5.0, 1.0]] * 3, 2.0)  # fewer than 4 samples: never settled
    assert not _settled([[1.0, 1.0]] * 4, 2.0)  # the same: never settled
    assert not _settled([[9.0, 1.0], [0.0, 1.0], [9.0, 1.0], [0.0, 1.0]], 2.0)  # too noisy
    game = load_game(STUN)
    used = {}
    for sure in (0.0, 2.0):
        agents = [GreedyAgent(7, k, samples=8, sure=sure) for k in range(3)]
        st = game.new_game(3, 7)
        picks = 0
        while st.status is Status.RUNNING and st.decisions < 150:
            picks += len(st.popts) > 1
            st.apply(agents[st.pplayer].pick(st))
        used[sure] = (sum(a.used for a in agents), picks)
    assert used[0.0][0] == 8 * used[0.0][1]  # sure=0: every sample, every decision
    assert used[2.0][0] < 8 * used[2.0][1]


def test_the_scoring_gives_the_default_heuristic_with_its_tie_breaks():
    from interpreter.agents.heuristics import scoring_keys, value_function
    sa = "games/stunt-academy.yaml"
    g = load_game(sa)
    names = list(g.spec.vars["player"])
    assert [names[i] for i, _w in scoring_keys(g)] == ["vp"]  # `final_tie: shared`: victory points only
    g = load_game(sa, readings={"final_tie": "checks_then_ep"})
    keys = scoring_keys(g)
    assert [names[i] for i, _w in keys] == ["vp", "check_total", "ep_total"]
    assert keys[0][1] == 1.0 > keys[1][1] > keys[2][1] > 0
    st = g.new_game(3, 1)
    value = value_function(g)
    vp, checks = names.index("vp"), names.index("check_total")
    st.pvars[vp][:] = [3, 3, 2]
    st.pvars[checks][:] = [0, 2, 9]
    assert value(st, 1) > value(st, 0) > value(st, 2)  # vp first, then checks break the tie
    assert scoring_keys(load_game("games/uno.yaml")) == []  # no score, no ranking: running positions are 0


def test_a_search_copy_can_stop_where_the_turn_ends():
    game = load_game(STUN)
    st = game.new_game(2, 4)
    while "stop and keep the cards" not in st.labels():
        st.apply(0)
    stop = st.labels().index("stop and keep the cards")
    halted, plain = st.clone(), st.clone()
    halted.halt = True
    halted.apply(stop)
    assert halted.status is Status.RUNNING and halted.popts is None  # stopped between the turns
    assert halted.turn == st.turn and halted.cur != st.cur  # the turn passed; the next has not begun
    halted.halt = False
    halted.run()  # and goes on exactly as a copy that never stopped
    plain.apply(stop)
    assert halted.popts is not None and halted.turn == st.turn + 1
    assert halted.fingerprint() == plain.fingerprint()


def test_the_start_benchmark_counts_a_start_in_decisions(capsys):
    """benchmarks/start.py runs (its figures are timings: only their shape is checked here)."""
    from benchmarks import start
    m = start.measure("tests/specs/duel.yaml", 2, 20, 1)
    assert m["decisions_per_game"] == 2 and m["start_us"] > 0 and m["start_in_decisions"] > 0
    assert 0 < m["start_share"] < 1
    assert start.main(["tests/specs/duel.yaml:2", "--games", "5", "--rounds", "1"]) == 0
    assert "start =" in capsys.readouterr().out
    assert start.main(["tests/specs/duel.yaml"]) == 2  # no player count: said, not a traceback


def _settled_directly(rows, sure):
    """Greedy's early stop as first written: every paired difference of every row, summed again."""
    m, n = len(rows), len(rows[0])
    totals = [sum(r[j] for r in rows) for j in range(n)]
    best = max(range(n), key=totals.__getitem__)
    for j in range(n):
        if j == best:
            continue
        d = [r[best] - r[j] for r in rows]
        mean = sum(d) / m
        if mean <= 0:
            return False
        var = sum((x - mean) ** 2 for x in d) / (m - 1)
        if mean * mean * m <= sure * sure * var:
            return False
    return True


def test_greedy_early_stop_keeps_its_sums_right():
    """The running sums (differences to the leader, their squares; all summed again when the leader
    changes) decide as the direct computation over every row does, sample after sample."""
    from interpreter.agents.search import _MIN_SAMPLES, _Settled
    rng = random.Random(5)
    agree = stopped = 0
    for trial in range(400):
        n = rng.choice([2, 2, 3, 5])
        spread = rng.choice([0, 1, 3, 10])
        means = [rng.randint(0, 6) for _ in range(n)]
        stop, totals, rows = _Settled(n, 2.0), [0.0] * n, []
        for _m in range(16):
            row = [float(mu + rng.randint(-spread, spread)) for mu in means]
            rows.append(row)
            totals = [t + v for t, v in zip(totals, row)]
            got = stop.add(row, totals)
            want = len(rows) >= _MIN_SAMPLES and _settled_directly(rows, 2.0)
            assert got == want, (trial, rows)
            agree += 1
            if got:
                stopped += 1
                break
    assert stopped > 50 and agree > 1000  # both outcomes are exercised
