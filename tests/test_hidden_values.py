"""Secrets that are not cards (issue 29): no face shows a seat a value hidden from it.

The ground truth is the engine's true state, not runtime/redact.py: every game is played twice in
lockstep with the same seed and choices, once as it is and once with every value seat s may not read
changed in the true state (the other seats' secret dice rolled differently, and after every step each
hidden variable s may not read, by the spec's `visible:` and sides alone, set to another value). What
seat s is shown must be the same in both games, step by step, until the first `reveal`: the narration
of `run --as-seat` / `play` (seat_events) and of the browser table (seat_narration), `State.view(s)`
(the table and `play` show it), the labels
of the pending options, the RL observation. The test also checks that the two games did differ.
"""
import contextlib
import glob
import os
import random

import pytest

from interpreter import api
from interpreter.cli.narrate import narrate
from interpreter.lang import hidden
from interpreter.lang.model import codes
from interpreter.runtime.engine import Status
from interpreter.runtime.redact import HIDDEN_VALUE, seat_events, seat_labels, seat_prompt
from interpreter.web.narration import seat_narration, visible_labels

from spec_helpers import write

SHIPPED = sorted(glob.glob("games/*.yaml")) + ["tests/specs/secret_values.yaml"]


def _has_secrets(game) -> bool:
    spec = game.spec
    rolls = any(hidden.rolls_in(c.ast, hidden.SECRET_ROLLS) for c in codes(spec) if c.ast is not None)
    return rolls or any(v.visible != "public" for vs in spec.vars.values() for v in vs.values())


SECRET = [p for p in SHIPPED if _has_secrets(api.load_game(p))]


def test_the_shipped_games_with_secrets_are_walked():
    assert "games/liars_dice.yaml" in SECRET and "tests/specs/secret_values.yaml" in SECRET


def _readers(game, n: int, vis: str, owner: int | None) -> set[int]:
    """Who may read a value by the spec alone (no reveal): its visibility and the sides."""
    if vis == "public":
        return set(range(n))
    if vis == "owner":
        return {owner}
    if vis == "side":
        return {q for side in game.spec.teams.sides(n) if owner in side for q in side}
    return set()


def _other(v, vd, n: int):
    """Another value the variable may hold."""
    if vd.type == "bool":
        return not v
    if vd.type == "player":
        return (v + 1) % n
    if vd.type == "text":
        values = vd.values or [v, v + "'"]
        return next(x for x in values if x != v)
    up = v + 1
    return up if vd.max is None or up <= vd.max else v - 1


def _perturb(st, seat: int) -> int:
    """Change, in the true state, every hidden value `seat` may not read; returns how many changed."""
    g, n, changed = st.g, st.n, 0
    for vd in g.spec.vars["global"].values():
        if seat not in _readers(g, n, vd.visible, None):
            st.gvars[vd.index] = _other(st.gvars[vd.index], vd, n)
            changed += 1
    for vd in g.spec.vars["player"].values():
        for p in range(n):
            if seat not in _readers(g, n, vd.visible, p):
                st.pvars[vd.index][p] = _other(st.pvars[vd.index][p], vd, n)
                changed += 1
    return changed


@contextlib.contextmanager
def _other_dice(seat: int):
    """Secret dice rolled for any seat but `seat` come out differently (each die one face up, from the same
    random numbers, so the rest of the game's chance is the same)."""
    real = hidden.roll_dice

    def rolled(st, n, sides, player=None, seers=None):
        out = real(st, n, sides, player, seers)
        if player != seat:
            out[:] = [d % sides + 1 for d in out]
            if st.log is not None and st.log[-1].get("e") == "roll":
                st.log[-1]["dice"] = list(out)
        return out
    hidden.roll_dice = rolled
    try:
        yield
    finally:
        hidden.roll_dice = real


def _until_reveal(events: list[dict]) -> tuple[list[dict], bool]:
    for i, e in enumerate(events):
        if e["e"] == "reveal":
            return events[:i], True
    return events, False


def _walk(path: str, players: int, seed: int, seat: int, steps: int = 150) -> tuple[int, int]:
    """Compare what `seat` is shown in a game and its perturbed twin; returns (steps compared, values changed)."""
    game = api.load_game(path)
    try:
        from interpreter.pettingzoo_env import Encoder
        enc = Encoder(game, players)
    except ImportError:  # the rl extra is not installed: the other faces are still compared
        enc = None
    a = game.new_game(players, seed, log=True)
    with _other_dice(seat):
        b = game.new_game(players, seed, log=True)
    changed = _perturb(b, seat)
    rng = random.Random(seed)
    seen_a = seen_b = 0
    compared = 0
    for _ in range(steps):
        ea, ra = _until_reveal(a.log[seen_a:])
        eb, rb = _until_reveal(b.log[seen_b:])
        seen_a, seen_b = len(a.log), len(b.log)
        shown_a = list(narrate(seat_events(ea, game, players, seat), verbose=True))
        shown_b = list(narrate(seat_events(eb, game, players, seat), verbose=True))
        assert shown_a == shown_b, f"{path} seed {seed}: P{seat + 1} is told a value hidden from it"
        table_a = seat_narration(ea, [None] * len(ea), game, players, seat, visible_labels(a, seat))
        table_b = seat_narration(eb, [None] * len(eb), game, players, seat, visible_labels(b, seat))
        assert table_a == table_b, f"{path} seed {seed}: the table tells P{seat + 1} a value hidden from it"
        if ra or rb or a.status is not Status.RUNNING or b.status is not Status.RUNNING:
            break
        assert a.view(seat) == b.view(seat), f"{path} seed {seed}: P{seat + 1}'s view shows a hidden value"
        if enc is not None:
            assert (enc.encode(a, seat) == enc.encode(b, seat)).all(), f"{path}: P{seat + 1}'s observation"
        if len(a.popts) != len(b.popts):  # another seat's options depend on its own secrets: the twins part
            break
        assert seat_labels(a, seat) == seat_labels(b, seat)
        assert seat_prompt(a, seat) == seat_prompt(b, seat)
        compared += 1
        i = rng.randrange(len(a.popts))
        a.apply(i)
        with _other_dice(seat):
            b.apply(i)
        changed += _perturb(b, seat)
    return compared, changed


@pytest.mark.parametrize("path", SECRET, ids=[os.path.basename(p) for p in SECRET])
def test_no_seat_is_shown_a_value_hidden_from_it(path):
    game = api.load_game(path)
    n = game.spec.min_players
    compared = changed = 0
    for seed in (1, 2):
        for seat in range(n):
            c, k = _walk(path, n, seed, seat)
            compared += c
            changed += k
    assert compared > 5 and changed > 0  # the games were compared, and the twins did differ


def test_a_hidden_value_reads_hidden_in_view_and_narration():
    game = api.load_game("tests/specs/secret_values.yaml")
    st = game.new_game(4, 2, log=True)
    v = st.view(1)
    assert v["players"][1]["die"] == st.pvars[game.spec.vars["player"]["die"].index][1]
    assert v["players"][0]["die"] == HIDDEN_VALUE and v["global"]["target"] == HIDDEN_VALUE
    assert v["players"][3]["hint"] == 0 and v["players"][2]["hint"] == HIDDEN_VALUE  # seat 4 is on seat 2's side
    lines = list(narrate(seat_events(st.log, game, 4, 1)))
    assert "   P1 rolls a hidden die" in lines and "   P1 looks at their die: (hidden)." in lines
    assert any(line.startswith("   P2 rolls ") and "hidden" not in line for line in lines)


def test_reveal_shows_a_value_until_it_changes():
    game = api.load_game("tests/specs/secret_values.yaml")
    st = game.new_game(4, 3, log=True)
    while st.status is Status.RUNNING:
        st.apply(0)
    v = st.view(1)
    assert v["global"]["target"] != HIDDEN_VALUE  # revealed at the end
    assert v["players"][3]["guess"] != HIDDEN_VALUE  # revealed, unchanged
    assert v["players"][0]["guess"] == HIDDEN_VALUE  # revealed, then set again: a secret again
    last = [e for e in seat_events(st.log, game, 4, 1) if e["e"] == "say"][-1]
    assert last["text"] == "P1's guess, now secret again: (hidden)."


def test_a_secret_action_is_seen_only_by_its_chooser():
    game = api.load_game("tests/specs/secret_values.yaml")
    st = game.new_game(4, 1, log=True)
    st.apply(4)
    choice = next(e for e in st.log if e["e"] == "choice")
    assert choice["sealed"] and choice["choice"] == "guess: 5"
    assert seat_events([choice], game, 4, 1)[0]["choice"] != "guess: 5"
    assert seat_events([choice], game, 4, 0)[0]["choice"] == "guess: 5"


def test_a_die_rolled_for_a_seat_is_that_seats_and_a_setup_roll_is_nobodys(tmp_path):
    game = api.load_game("games/liars_dice.yaml")
    st = game.new_game(2, 1, log=True)
    rolls = [e for e in st.log if e["e"] == "roll"]
    assert [e["player"] for e in rolls] == [0, 1] and [e["seers"] for e in rolls] == [[0], [1]]
    path = write(tmp_path, """
game: {name: Setup dice, players: {min: 2, max: 2}}
state:
  global:
    start: {type: int, start: 0}
setup:
  do: start = roll(1, 6)
flow:
  first: seat(1)
  turn:
    actions: [stop]
actions:
  stop: {do: end game}
end:
  when: "false"
""")
    st = api.load_game(path).new_game(2, 1, log=True)
    roll = next(e for e in st.log if e["e"] == "roll")
    assert roll["player"] is None and list(narrate([roll]))[0].startswith("   the dice show ")


def test_a_search_agents_sample_does_not_know_the_other_cup():
    from interpreter.agents.determinize import determinize
    game = api.load_game("games/liars_dice.yaml")
    st = game.new_game(2, 4)
    die = game.spec.keyed["player"]["die"].index
    rows = range(die, die + 5)
    rng = random.Random(0)
    samples = [determinize(st, 0, rng) for _ in range(40)]
    assert all([s.pvars[r][0] for r in rows] == [st.pvars[r][0] for r in rows] for s in samples)  # my own cup
    theirs = {tuple(s.pvars[r][1] for r in rows) for s in samples}
    assert len(theirs) > 30 and all(1 <= d <= 6 for cup in theirs for d in cup)  # drawn again, as dice
    st2 = game.new_game(2, 5)  # another deal: P2's sampled cup depends on the sample's rng alone, not on P2's cup
    assert {tuple(determinize(st2, 0, random.Random(k)).pvars[r][1] for r in rows) for k in range(3)} == \
        {tuple(determinize(st, 0, random.Random(k)).pvars[r][1] for r in rows) for k in range(3)}


def test_why_not_does_not_show_another_seats_hidden_value(tmp_path):
    from interpreter.lab.whynot import unavailable
    path = write(tmp_path, """
game: {name: Peek, players: {min: 2, max: 2}}
state:
  player:
    die: {type: int, start: 2, visible: owner}
flow:
  first: seat(1)
  turn:
    actions: [wait, strike]
actions:
  wait: {do: end game}
  strike:
    when: next(me).die > 3 and me.die > 3
    do: end game
end:
  when: "false"
""")
    st = api.load_game(path).new_game(2, 1)
    values = unavailable(st)[0].values
    assert "next(me).die = (hidden)" in values and "me.die = 2" in values


def test_the_observation_holds_my_own_dice_and_not_the_others():
    pytest.importorskip("pettingzoo")
    from interpreter.pettingzoo_env import Encoder
    game = api.load_game("games/liars_dice.yaml")
    enc = Encoder(game, 2)
    st = game.new_game(2, 4)
    names = enc.describe()
    die = game.spec.keyed["player"]["die"].index
    mine = [st.pvars[die + k][0] for k in range(5)]
    obs = enc.encode(st, 0)
    at = [i for i, n in enumerate(names) if "die[" in n]
    assert [float(obs[i]) for i in at[:5]] == mine and all(obs[i] == 0 for i in at[5:])


def test_reveal_of_one_key_shows_that_key_alone(tmp_path):
    path = write(tmp_path, """
game: {name: Two dice, players: {min: 2, max: 2}}
state:
  player:
    die: {type: int, keys: [1, 2], start: 0, visible: owner, label: die}
flow:
  first: seat(1)
  turn:
    actions: [show, hide]
actions:
  show:
    do: |
      me.die[1] = secret_roll(me, 1, 6)
      me.die[2] = secret_roll(me, 1, 6)
      reveal(me.die[1])
      say "first {me.die[1]}, second {me.die[2]}"
  hide:
    do: |
      me.die[1] = 0
      end game
end:
  when: "false"
""")
    game = api.load_game(path)
    st = game.new_game(2, 1, log=True)
    st.apply(0)
    v = st.view(1)["players"][0]
    assert v["die[1]"] != HIDDEN_VALUE and v["die[2]"] == HIDDEN_VALUE
    said = seat_events([e for e in st.log if e["e"] == "say"], game, 2, 1)[0]["text"]
    assert said == f"first {v['die[1]']}, second (hidden)"
    assert [e["what"] for e in st.log if e["e"] == "reveal"] == ["die (1)"]
    st.apply(1)
    assert st.view(1)["players"][0]["die[1]"] == HIDDEN_VALUE  # changed: a secret again


def test_lint_follows_a_hidden_value_through_a_local(tmp_path):
    from interpreter.lab.leaks import leak_findings
    path = write(tmp_path, """
game: {name: Leaky, players: {min: 2, max: 2}}
state:
  global:
    total: {type: int, start: 0}
  player:
    die: {type: int, start: 0, visible: owner}
    bid: {type: int, start: 0, visible: owner}
flow:
  first: seat(1)
  turn:
    actions: [roll_die, bid]
actions:
  roll_die:
    do: |
      me.die = roll(1, 6)
      let d = me.die
      if d > 3:
        total = d + 1
      end turn
  bid:
    secret: true
    choose:
      b: range(1, 3)
    do: |
      me.bid = b
      reveal(me.bid)
      total = me.bid
      end game
end:
  when: "false"
""")
    spec, _ = api.load_spec(path)
    assert sorted((d.code, d.span.line) for d in leak_findings(spec)) == [("W530", 15), ("W531", 18)]


def test_each_player_rolls_one_die_in_the_setup_as_themselves():
    st = api.load_game("games/backgammon.yaml").new_game(2, 1, log=True)
    rolls = [e for e in st.log if e["e"] == "roll"][:2]
    assert [e["player"] for e in rolls] == [0, 1] and "seers" not in rolls[0]
    assert list(narrate(rolls)) == [f"   P1 rolls {rolls[0]['dice'][0]}", f"   P2 rolls {rolls[1]['dice'][0]}"]
