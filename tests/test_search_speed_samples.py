"""Determinized samples as the faster search agents take them: the same deal, no hidden information.

`Determinizer.sample(rng, share=True)` (MCTS) lets the sample draw its chance from `rng` itself instead
of building a generator of its own; a sample carries no copy of the game's choice history. Neither may
let the true game through: not its hidden cards, not its future chance.
"""
import random

from interpreter.agents.determinize import Determinizer
from interpreter.runtime.engine import Status
from interpreter.runtime.pipeline import load_game

from helpers import random_walk


def _midgame(spec, players, seed, moves):
    st = load_game(spec).new_game(players, seed)
    rng = random.Random(seed)
    random_walk(st, rng, moves)
    return st


def _play_out(s, seed, limit=3000):
    rng = random.Random(seed)
    while s.status is Status.RUNNING and limit:
        s.apply(rng.randrange(len(s.popts)))
        limit -= 1
    return s.fingerprint()[:-1], s.choices[:]


def test_a_shared_sample_deals_the_same_and_draws_from_the_callers_stream():
    st = _midgame("games/stun.yaml", 3, 4, 25)
    truth = st.chance().getstate()
    d = Determinizer(st, st.pplayer)
    a, b = random.Random(8), random.Random(8)
    own, shared = d.sample(a), d.sample(b, share=True)
    assert own.zones == shared.zones and own.where == shared.where
    assert shared.rng is b and not shared.rng_cow
    assert own.choices == shared.choices == [] and own.decisions == st.decisions
    before = b.getstate()
    _play_out(shared, 1)
    assert b.getstate() != before or shared.status is not Status.RUNNING
    assert st.chance().getstate() == truth  # the true game's generator is not touched


def test_a_sample_does_not_know_the_true_future_chance():
    """Two true games that look the same to the decider but differ in every future shuffle and roll give
    the same samples and the same played-out futures."""
    for spec, players, seed, moves in (("games/stun.yaml", 2, 5, 30), ("games/stunt-academy.yaml", 3, 2, 40),
                                       ("games/uno.yaml", 3, 1, 20)):
        st = _midgame(spec, players, seed, moves)
        if st.status is not Status.RUNNING:
            continue
        other = st.clone()
        other.reseed(987654321)  # another future for the true game
        me = st.pplayer
        for share in (False, True):
            x = Determinizer(st, me).sample(random.Random(3), share=share)
            y = Determinizer(other, me).sample(random.Random(3), share=share)
            assert x.zones == y.zones
            assert _play_out(x, 7) == _play_out(y, 7), (spec, share)


def test_speed_benchmark_compares_with_several_checkouts(tmp_path, capsys):
    """`benchmarks/speed.py --old A --old B`: one run, a ratio column per other checkout."""
    import json
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from benchmarks import speed
    out = tmp_path / "speed.json"
    assert speed.main(["--old", str(root), "--old", str(root), "--rounds", "1", "--seconds", "0",
                       "--only", "duel", "--json", str(out)]) == 0
    header = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("workload")][0]
    assert "new/old " in header + " " and "new/old2" in header
    row = json.loads(out.read_text())["duel"]
    assert row["ratio"] > 0 and row["ratio_old2"] > 0 and set(row) >= {"new", "old", "old2"}
