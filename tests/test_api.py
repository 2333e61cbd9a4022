"""The public Python API (interpreter/api.py): its numbering, reprs, fast loop, chance scripts and types.

Everything here goes through `interpreter.api` only, as a researcher's script would.
"""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys

import pytest

from interpreter import api
from interpreter.api import Chance, ChanceError, IllegalChoice, Status, load_game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_everything_in_all_is_importable_and_documented():
    for name in api.__all__:
        obj = getattr(api, name)
        assert (getattr(obj, "__doc__", None) or "").strip(), f"interpreter.api.{name} has no docstring"


def test_seats_are_numbered_from_0_everywhere_and_narration_says_p1():
    game = load_game("games/stun.yaml")
    st = game.new_game(3, 7, log=True)
    seen = set()
    while st.status is Status.RUNNING:
        d = st.decision()
        assert d.player == st.to_move and 0 <= d.player < 3
        assert st.view(d.player)["decision"] == d.labels  # view(seat) takes the same number
        seen.add(d.player)
        st.apply(0)
    assert seen == {0, 1, 2}
    r = st.result()
    end = st.log[-1]
    assert end["e"] == "end" and end["winners"] == r.winners  # the log numbers seats like the API
    assert all(0 <= w < 3 for w in r.winners) and r.scores[r.winners[0]] == max(r.scores)
    assert f"P{r.winners[0] + 1}" in repr(r)


def test_a_result_repr_stays_short_however_long_the_game():
    game = load_game("games/stun.yaml", budget=20_000)
    r = api.play_random(game, 6, 3)
    assert len(r.choices) > 100
    text = repr(r)
    assert len(text) < 300 and f"<{len(r.choices)} choices>" in text and r.status in text


@pytest.mark.parametrize("path, players", [("games/stun.yaml", 3), ("games/uno.yaml", 3),
                                           ("games/stunt-academy.yaml", 3), ("games/maedn.yaml", 2)])
def test_the_fast_loop_agrees_with_decision(path, players):
    """option_count, to_move and label(i) say what decision() says, without formatting labels."""
    game = load_game(path)
    st = game.new_game(players, 1)
    rng = random.Random(1)
    for _ in range(200):
        if st.status is not Status.RUNNING:
            break
        d = st.decision()
        assert (st.to_move, st.option_count) == (d.player, len(d.labels))
        i = rng.randrange(st.option_count)
        assert st.label(i) == d.labels[i]
        st.apply(i)
    assert st.status is not Status.RUNNING or st.decisions == 200
    if st.status is not Status.RUNNING:
        assert (st.to_move, st.option_count, st.decision()) == (-1, 0, None)
        with pytest.raises(IllegalChoice):
            st.apply(0)


def test_the_fast_loop_plays_the_game_play_random_plays():
    game = load_game("games/stun.yaml")
    st = game.new_game(4, 5)
    agents = [api.make_agent("random", 5, seat) for seat in range(4)]
    while st.status is Status.RUNNING:
        st.apply(agents[st.to_move].pick(st))
    assert st.result().choices == api.play_random(game, 4, 5).choices


# -- chance from outside -------------------------------------------------------------------------------
def test_scripted_dice_are_the_dice_rolled():
    game = load_game("games/cant_stop.yaml")
    dice = [3, 4, 1, 6, 2, 2, 5, 5, 6, 6, 1, 1]
    st = game.new_game(2, 1, log=True, chance=Chance(dice=[2] + dice, strict=False))
    assert st.cur == 1  # the random first seat is the script's first number (2 of 1..2), as seat 1
    rolls = [x for e in st.log if e["e"] == "roll" for x in e["dice"]]
    assert rolls == dice[:len(rolls)] and rolls
    left = st.chance_left()
    assert left.dice == dice[len(rolls):] and len(left) == len(dice) - len(rolls)


def test_a_strict_script_that_runs_out_says_so_and_stops_the_game():
    game = load_game("games/cant_stop.yaml")
    with pytest.raises(ChanceError, match="ran out: the game draws a number from 1 to 6"):
        game.new_game(2, 1, chance=Chance(dice=[1, 3, 4]))
    st = game.new_game(2, 1, chance=Chance(dice=[1, 3, 4, 5, 6]))  # the first seat, then four dice
    assert st.status is Status.RUNNING and not st.chance_left()
    roll = st.decision().labels.index("roll again") if "roll again" in st.decision().labels else None
    if roll is None:  # the first choice pairs the dice; then rolling again needs four more numbers
        st.apply(0)
        roll = st.decision().labels.index("roll again")
    with pytest.raises(ChanceError, match="ran out"):
        st.apply(roll)
    assert st.status is Status.ERROR and "ran out" in st.reason
    with pytest.raises(IllegalChoice):
        st.apply(0)


def test_a_number_that_does_not_fit_the_roll_is_refused():
    game = load_game("games/cant_stop.yaml")
    with pytest.raises(ChanceError, match="does not fit: its next number is 7, but this draw gives 1 to 6"):
        game.new_game(2, 1, chance=Chance(dice=[1, 7, 1, 1, 1]))


def test_deck_orders_by_type_or_label_come_out_on_top():
    """STUN's setup shuffles the draw pile and its first turn turns up cards from its top."""
    game = load_game("games/stun.yaml")
    order = ["chip3", "chip2", "1-chip card", "stun_minus"]  # by card type or by label
    st = game.new_game(3, 2, log=True, chance=Chance(dice=[1], decks={"draw": order}))
    assert st.cur == 0 and isinstance(st.view(0)["zones"]["draw"], int)  # a hidden zone: a count
    turned = [e["cards"][0] for e in st.log if e["e"] == "move" and e["src"] == "draw"]
    assert turned == ["3-chip card"]  # the top card, turned up; the player now decides
    while len(turned) < 4 and st.status is Status.RUNNING:
        st.apply(st.decision().labels.index("turn up a card"))
        turned = [e["cards"][0] for e in st.log if e["e"] == "move" and e["src"] == "draw"]
    assert turned[:4] == ["3-chip card", "2-chip card", "1-chip card", "STUN MINUS"][:len(turned)]
    assert len(turned) >= 2


def test_deck_orders_that_do_not_fit_are_refused_at_once():
    game = load_game("games/stun.yaml")
    with pytest.raises(ChanceError, match="zone 'drawz' the spec does not have"):
        game.new_game(3, 2, chance=Chance(decks={"drawz": ["chip1"]}))
    with pytest.raises(ChanceError, match="neither a card type nor a card label"):
        game.new_game(3, 2, chance=Chance(decks={"draw": ["chip9"]}))
    with pytest.raises(ChanceError, match="has 9 'stun', but a game with 3 players has 8"):
        game.new_game(3, 2, chance=Chance(dice=[1], decks={"draw": ["stun"] * 9}))


def test_a_strict_script_without_an_order_for_a_shuffle_runs_out():
    game = load_game("games/stun.yaml")
    with pytest.raises(ChanceError, match="ran out: the game shuffles draw"):
        game.new_game(3, 2, chance=Chance(dice=[1]))


def test_a_script_is_the_state_s_own_and_clones_copy_it():
    game = load_game("games/cant_stop.yaml")
    st = game.new_game(2, 1, chance=Chance(dice=[1, 3, 4, 5, 6], strict=False))
    st.script_chance(dice=[6, 6, 6, 6])
    copy = st.clone()
    assert copy.chance_left().dice == st.chance_left().dice == [6, 6, 6, 6]
    copy.apply(0)
    assert st.chance_left().dice == [6, 6, 6, 6]  # the copy's rolls are its own
    same = game.new_game(2, 1, chance=Chance(dice=[1, 3, 4, 5, 6, 6, 6, 6, 6], strict=False))
    assert same.fingerprint() == st.fingerprint()


def test_a_script_replays_with_resume():
    game = load_game("games/cant_stop.yaml")
    script = Chance(dice=[2] + [1, 2, 3, 4] * 30, strict=False)
    st = game.new_game(2, 4, chance=script)
    for _ in range(12):
        if st.status is not Status.RUNNING:
            break
        st.apply(st.option_count - 1)
    saved = st.save()
    again = game.resume(saved["players"], saved["seed"], saved["choices"], chance=script)
    assert again.fingerprint() == st.fingerprint()
    assert len(script) == 121  # the caller's script is never used up: each game takes a copy


# -- types ------------------------------------------------------------------------------------------------
def test_py_typed_is_shipped():
    assert os.path.exists(os.path.join(ROOT, "interpreter", "py.typed"))
    text = open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
    assert '"interpreter" = ["py.typed"]' in text


CLIENT = '''
from interpreter.api import Chance, Result, Save, State, Status, View, load_game
game = load_game("games/stun.yaml")
state: State = game.new_game(players=3, seed=7, chance=Chance(dice=[1], strict=False))
while state.status is Status.RUNNING:
    state.apply(state.option_count - 1)
r: Result = state.result()
v: View = state.view(r.winners[0])
s: Save = state.save()
hand: list[str] | int = v["zones"]["P1.held"]
seed: int = s["seed"]
wrong: str = r.winners
'''


def test_a_type_checker_reads_the_api(tmp_path):
    """mypy sees the API's types: the client above checks but for its one deliberate mistake."""
    if shutil.which("mypy") is None and not _has_module("mypy"):
        pytest.skip("mypy is not installed (it is in the test extra)")
    client = tmp_path / "client.py"
    client.write_text(CLIENT, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), "--follow-imports=silent",
                        "--ignore-missing-imports", "--no-error-summary", str(client)], cwd=ROOT,
                       capture_output=True, text=True, timeout=300, env={**os.environ, "MYPYPATH": ROOT})
    errors = [ln for ln in r.stdout.splitlines() if ": error:" in ln]
    assert len(errors) == 1 and 'variable has type "str"' in errors[0] and ":12:" in errors[0], r.stdout + r.stderr


def _has_module(name: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(name) is not None


def test_the_loop_benchmark_runs(capsys):
    """benchmarks/api_loop.py measures its columns (the ratios themselves are the benchmark's, not a test's)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("api_loop", os.path.join(ROOT, "benchmarks", "api_loop.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main(["games/tic_tac_toe.yaml", "--rounds", "1", "--seconds", "0.03", "--json"])
    import json
    (row,) = json.loads(capsys.readouterr().out)
    assert row["spec"] == "games/tic_tac_toe.yaml" and row["games"] >= 5
    assert all(row[k] > 0 for k in ("agents loop", "randrange loop", "decision() loop"))


SHUFFLED_LATE = """
game: {name: Late shuffle, players: {min: 2, max: 2}}
components:
  total: 4
  cards:
    red: {count: 2, in: deck}
    blue: {count: 2, in: deck}
zones:
  deck: {owner: shared, visibility: hidden}
  pile: {owner: shared}
setup:
  do: |
    move top(deck) to pile
    shuffle deck
flow:
  turn:
    actions: [pass]
actions:
  pass:
    do: end game
end:
  winners: "[]"
"""


def test_an_order_the_shuffled_zone_cannot_give_does_not_fit(tmp_path):
    path = tmp_path / "late.yaml"
    path.write_text(SHUFFLED_LATE, encoding="utf-8")
    game = load_game(str(path))
    top = game.card_type[game.new_game(2, 0).zones[1][0]]  # the card setup moves away first (seed 0)
    with pytest.raises(ChanceError, match=f"its order for deck has 2 '{top}', but the zone holds 1 when it is shuffled"):
        game.new_game(2, 0, chance=Chance(dice=[1], decks={"deck": [top, top]}))
    other = "blue" if top == "red" else "red"
    st = game.new_game(2, 0, chance=Chance(dice=[1], decks={"deck": [other, top]}))
    assert [game.card_type[c] for c in st.zones[0][::-1]] == [other, top, other]  # top first, as ordered


def test_a_spectator_sees_public_zones_only():
    game = load_game("games/stun.yaml")
    st = game.new_game(3, 7)
    seat, spectator = st.view(st.to_move), st.view(-1)
    assert spectator["decision"] is None and seat["decision"] == st.decision().labels
    for name, shown in spectator["zones"].items():
        visibility = game.spec.zones[name.split(".")[-1]].visibility
        assert isinstance(shown, list) == (visibility == "public"), (name, visibility, shown)
    assert any(isinstance(v, list) for v in spectator["zones"].values())
    assert any(isinstance(v, int) for v in spectator["zones"].values())
