"""Agents: names and settings, heuristics, determinization, and that every
agent decides from its own player's view only (tiny search budgets)."""
from __future__ import annotations

import random

import pytest

from helpers import STUN, edit, write
from interpreter.agents.registry import AgentError, make_agent, parse_agent
from interpreter.api import check_spec, load_game
from interpreter.agents.determinize import determinize, unseen_zones
from interpreter.runtime.engine import Status
from interpreter.agents.heuristics import value_function
from interpreter.lab.runner import play

HANDS = "tests/specs/hands.yaml"


@pytest.mark.parametrize("text, name, settings", [
    ("random", "random", {}),
    ("mcts", "mcts", {}),
    ("mcts:50", "mcts", {"iterations": 50}),
    ("mcts:iterations=30,c=1.5", "mcts", {"iterations": 30, "c": 1.5}),
    ("mcts:20,depth=8,tau=5", "mcts", {"iterations": 20, "depth": 8, "tau": 5.0}),
    ("greedy:4", "greedy", {"samples": 4}),
], ids=lambda v: str(v))
def test_parse_agent(text, name, settings):
    assert parse_agent(text) == (name, settings)


@pytest.mark.parametrize("text, message", [
    ("mtcs", "unknown agent 'mtcs'"),
    ("mcts:lots", "'iterations' must be a int"),
    ("mcts:budget=3", "unknown setting 'budget'"),
    ("random:3", "takes no settings"),
    ("mcts:0", "at least 1"),
], ids=["unknown", "not-a-number", "unknown-setting", "no-settings", "zero"])
def test_bad_agent(text, message):
    with pytest.raises(AgentError, match=message):
        make_agent(text, 0, 0)


def _decision_states(game, players: int, count: int, seed: int = 0):
    """States at decisions with more than one option, from random playouts."""
    rng = random.Random(seed)
    out = []
    g_seed = seed
    while len(out) < count:
        st = game.new_game(players, g_seed)
        g_seed += 1
        while st.status is Status.RUNNING:
            if len(st.popts) > 1 and rng.random() < 0.2:
                out.append(st.clone())
                if len(out) == count:
                    break
            st.apply(rng.randrange(len(st.popts)))
    return out


def _rearranged(st, rng):
    """The same position as its deciding player sees it, hidden cards and future chance changed."""
    s = st.clone()
    zones = unseen_zones(s.g, s.n, s.pplayer)
    pool = [c for z in zones for c in s.zones[z]]
    rng.shuffle(pool)
    at = 0
    for z in zones:
        k = len(s.zones[z])
        s.zones[z] = pool[at:at + k]
        for c in s.zones[z]:
            s.where[c] = z
        at += k
    s.rng = random.Random(rng.random())
    assert s.view(s.pplayer) == st.view(st.pplayer)
    return s


@pytest.mark.parametrize("spec, players", [(STUN, 2), (STUN, 3), (HANDS, 3), ("games/stunt-academy.yaml", 3),
                                           ("games/first-in-flight-stunt-pack.yaml", 3)],
                         ids=["stun-2", "stun-3", "hands-3", "stunt-academy-3", "first-in-flight-3"])
@pytest.mark.parametrize("agent", ["random", "first", "greedy:3", "mcts:12"])
def test_decision_depends_only_on_the_view(spec, players, agent):
    game = load_game(spec)
    rng = random.Random(7)
    changed = 0
    for i, st in enumerate(_decision_states(game, players, 6)):
        other = _rearranged(st, rng)
        changed += other.zones != st.zones
        a = make_agent(agent, 1000 + i, st.pplayer).pick(st)
        b = make_agent(agent, 1000 + i, st.pplayer).pick(other)
        assert a == b, f"{agent} chose {a} with the true hidden cards and {b} with others"
    assert changed, "the test never changed a hidden card"


def test_determinize_keeps_what_the_player_sees():
    game = load_game(HANDS)
    st = _decision_states(game, 3, 1)[0]
    me = st.pplayer
    d1 = determinize(st, me, random.Random(1))
    assert d1.view(me) == st.view(me)
    assert sorted(c for z in d1.zones for c in z) == list(range(len(st.where)))
    assert all(d1.where[c] == z for z, cards in enumerate(d1.zones) for c in cards)
    assert [len(z) for z in d1.zones] == [len(z) for z in st.zones]
    # independent of the true arrangement: same rng, different truth -> same sample
    other = _rearranged(st, random.Random(3))
    assert determinize(other, me, random.Random(1)).zones == d1.zones
    hidden = unseen_zones(game, 3, me)
    assert game.S + me * game.P + 0 not in hidden  # own hand is seen
    assert any(z >= game.S for z in hidden)  # the other hands are not


def test_stun_heuristic_and_score_fallback(tmp_path):
    game = load_game(STUN)
    st = _decision_states(game, 3, 1, seed=4)[0]
    value = value_function(game)
    g = game
    pts = g.props["points"]
    for p in range(3):
        held = sum(pts[c] for c in st.zones[g.S + p * g.P + 1])
        pile = sum(pts[c] for c in st.zones[g.S + p * g.P + 0])
        assert value(st, p) == 15 * st.pvars[0][p] + held + pile
    assert st.cur == st.pplayer  # evaluating for others put `me` back
    with open(STUN, encoding="utf-8") as fh:
        text = fh.read()
    start = text.index("heuristics:")
    plain = text[:start] + text[text.index("invariants:"):]
    path = write(tmp_path, plain.replace("../rulebooks", "rulebooks"), "stun.yaml")
    g2 = load_game(path)
    assert g2.spec.heuristic is None
    v2 = value_function(g2)
    assert [v2(st, p) for p in range(3)] == [float(x) for x in st.pvars[0]]


def test_heuristic_is_checked(tmp_path):
    with open(STUN, encoding="utf-8") as fh:
        text = fh.read()
    bad = edit(text, "value: 15 * me.chips + count_of(me)", "value: 15 * me.chip + count_of(me)")
    spec, diags = check_spec(write(tmp_path, bad, "stun.yaml"))
    assert spec is None
    assert any("chip" in d.message and d.span.line == bad[:bad.index("me.chip +")].count("\n") + 1 for d in diags)


@pytest.mark.parametrize("agent", ["greedy:2", "mcts:5", "mcts:5,depth=0", "mcts:5,depth=6,tau=4"])
def test_bots_finish_games(agent):
    game = load_game(STUN)
    st = play(game, 3, 11, {0: agent, 2: agent})
    assert st.status is Status.FINISHED
    again = play(game, 3, 11, {0: agent, 2: agent})
    assert again.choices == st.choices  # bots are seeded: a game with bots replays exactly


@pytest.mark.parametrize("agent", ["mcts:60", "greedy:4"])
def test_bots_take_the_likely_win(agent):
    """STUN, two players, P1 has 4 chips and 14 counted (12 of them safe in the held pile):
    turning up a card wins unless it is a STUN, which would only cost the pile's 2 points."""
    game = load_game(STUN)

    def hook(st):
        g = st.g
        st.pvars[0][0] = 4
        st.gvars[0] = 21
        for c in [c for c in st.zones[0] if g.card_type[c] == "chip3"][:4]:
            st.move_card(c, g.S + 1)  # P1's held pile
        st.cur = 0

    st = game.new_game(2, 0, hook=hook)
    assert st.status is Status.RUNNING and st.pplayer == 0
    assert st.view(0)["zones"]["P1.pile"] == ["2-chip card"]
    assert st.labels()[make_agent(agent, 1, 0).pick(st)] == "turn up a card"


@pytest.mark.parametrize("args, code, message", [
    (["simulate", STUN, "-p", "2", "--games", "2", "--agent", "1=mcts:3", "--agent", "2=greedy:2", "--json"], 0,
     '"finished": 2'),
    (["run", STUN, "-p", "2", "--agent", "2=mcts:iterations=3,depth=5"], 0, "wins after"),
    (["simulate", STUN, "-p", "2", "--agent", "1=alphazero"], 2, "unknown agent 'alphazero' (known: random, first, greedy, mcts"),
    (["run", STUN, "-p", "2", "--agent", "1=mcts:c=high"], 2, "setting 'c' must be a float"),
], ids=["simulate", "run", "unknown", "bad-setting"])
def test_agents_on_the_command_line(args, code, message):
    from click.testing import CliRunner
    from interpreter.cli.commands import cli
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == code, r.output
    assert message in r.output


def test_strength_benchmark_runs(tmp_path, capsys):
    import json
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_agents", "benchmarks/agents.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "r.json"
    assert mod.main([STUN, "--games", "2", "--agents", "greedy:1", "--budgets", "2", "--workers", "1",
                     "--engines", "python", "--json", str(out)]) == 0  # the kernel rows: tests/test_kernel_agents.py
    rows = json.loads(out.read_text())
    assert [r["agent"] for r in rows] == ["random", "greedy:1", "mcts:2"]
    assert all(0 <= r["ci95"][0] <= r["win_share"] <= r["ci95"][1] <= 1 for r in rows)
    assert rows[0]["game_decisions_per_second"] > 0 and rows[1]["decisions_per_second"] > 0
    assert rows[2]["iterations_per_second"] > 0 and rows[1]["iterations_per_second"] is None
    assert 0 <= rows[1]["p_not_better"] <= 1
    assert "win share" in capsys.readouterr().out
    assert mod.wilson(50, 100) == pytest.approx((0.404, 0.596), abs=1e-3)
    assert mod.p_not_better(50, 100, 0.5) == pytest.approx(0.5)
    assert mod.p_not_better(70, 100, 0.5) < 1e-4 < 0.99 < mod.p_not_better(30, 100, 0.5)


@pytest.mark.parametrize("agent", ["greedy:2", "mcts:8"])
def test_agents_never_change_the_state(agent):
    game = load_game(HANDS)
    for i, st in enumerate(_decision_states(game, 3, 4, seed=2)):
        before = st.fingerprint()
        make_agent(agent, i, st.pplayer).pick(st)
        assert st.fingerprint() == before
