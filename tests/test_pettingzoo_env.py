"""The PettingZoo AEC environment (skipped without the rl extra)."""
from __future__ import annotations

import glob
import os
import random

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test  # noqa: E402

from helpers import STUN  # noqa: E402
from interpreter.api import load_game  # noqa: E402
from interpreter.agents.determinize import unseen_zones  # noqa: E402
from interpreter.pettingzoo_env import RulewrightEnv, env  # noqa: E402

HANDS = "tests/specs/hands.yaml"


# Both warnings come with every environment whose observation is {"observation", "action_mask"},
# PettingZoo's own card and board games included.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning",
                            "ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("spec, players", [(STUN, 2), (STUN, 4), (HANDS, 3)], ids=["stun-2", "stun-4", "hands-3"])
def test_pettingzoo_api_test(spec, players):
    api_test(env(spec, players), num_cycles=300)


SHIPPED = sorted(glob.glob("games/*.yaml"))


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning",
                            "ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("spec", SHIPPED, ids=[os.path.basename(p) for p in SHIPPED])
def test_pettingzoo_api_test_on_every_shipped_spec(spec):
    e = env(spec, load_game(spec).spec.min_players)
    api_test(e, num_cycles=100)


def test_layout_is_documented_and_stable():
    e = env(STUN, 3)
    names = e.describe()
    assert len(names) == e.encoder.size == e.observation_space("player_0")["observation"].shape[0]
    assert names[:2] == ["draw.size", "draw.visible"]
    assert "seat+1.chips" in names and names[-1] == "game_over"
    assert e.max_options == 3  # a STUN PLUS chip: the centre or either opponent


def test_observation_never_shows_hidden_cards():
    e = RulewrightEnv(HANDS, 3)
    e.reset(seed=4)
    st = e.state
    me = st.pplayer
    before = e.observe(f"player_{me}")["observation"].copy()
    zones = unseen_zones(st.g, st.n, me)
    pool = [c for z in zones for c in st.zones[z]]
    random.Random(1).shuffle(pool)
    at = 0
    for z in zones:
        k = len(st.zones[z])
        st.zones[z] = pool[at:at + k]
        at += k
    after = e.observe(f"player_{me}")["observation"]
    assert np.array_equal(before, after)
    # and the observer's own hand is there, by card type
    names = e.describe()
    own = [i for i, n in enumerate(names) if n.startswith("seat+0.hand.count[")]
    assert before[own].sum() == 2


def test_a_game_to_its_end_pays_the_winner():
    e = env(STUN, 2)
    e.reset(seed=3)
    rng = random.Random(0)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(100_000):
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(list(legal))))
    assert sorted(total.values()) == [-1.0, 1.0]
    assert e.agents == []


def test_masked_action_is_refused():
    e = env(STUN, 2)
    e.reset(seed=0)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0]) if (obs["action_mask"] == 0).any() else e.max_options
    with pytest.raises(ValueError, match="not a legal option"):
        e.step(illegal)
