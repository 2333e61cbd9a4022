"""The table's game model and its seat narration (interpreter/web/tables.py, narration.py), without HTTP.

The one-pass visibility the table uses at every step must agree with the engine's `State.view` on
every position of whole games; bots are re-made per decision, so a game replays the same after undo;
the narration quotes the rule and hides what a seat cannot see.
"""
from __future__ import annotations

import pytest

from interpreter import api
from interpreter.web.narration import EVERYONE, HIDDEN, SPECTATOR, visible_labels, visible_to_each
from interpreter.web.tables import Settings, Table, TableError, parse_settings

GAMES = [("games/stun.yaml", 3), ("games/stunt-academy.yaml", 3), ("tests/specs/secrets.yaml", 3),
         ("games/first-in-flight.yaml", 3)]


@pytest.mark.parametrize("path,players", GAMES, ids=[p for p, _ in GAMES])
def test_one_pass_visibility_agrees_with_the_engines_view(path, players):
    g = api.load_game(path)
    viewers = [EVERYONE, SPECTATOR, *range(players)]
    for seed in range(3):
        st = g.new_game(players, seed)
        steps = 0
        while True:
            fast = visible_to_each(st, viewers)
            assert fast == {v: visible_labels(st, v) for v in viewers}
            if st.status is not api.Status.RUNNING or steps > 400:
                break
            st.apply(steps % len(st.popts))
            steps += 1


def test_bots_replay_the_same_after_undo():
    g = api.load_game("games/stun.yaml")
    t = Table(g, Settings("stun", 3, 5, seats=["person", "mcts:8", "greedy:2"]))
    t.choose(0)
    t.choose(0)
    after = t.st.choices[:]
    t.undo()
    t.choose(0)
    assert t.st.choices == after  # the bots answered exactly as before


def test_narration_hides_another_seats_hand_and_keeps_the_rule():
    g = api.load_game("tests/specs/secrets.yaml")
    t = Table(g, Settings("secrets", 2, 1, seats=["random", "random"]))
    p2_says = [line["text"] for line in t.lines[1] if line["kind"] == "say" and line["text"].startswith("P1 holds")]
    p1_says = [line["text"] for line in t.lines[0] if line["kind"] == "say" and line["text"].startswith("P1 holds")]
    assert p1_says and HIDDEN not in p1_says[0]
    assert p2_says[0] == "P1 holds " + ", ".join([HIDDEN] * 3) + "."
    assert any(line["rule"] == "Play a card from your hand face up and score its value." for line in t.lines[0])


def test_a_card_name_inside_a_longer_one_is_not_mistaken_for_it():
    # STUN has a card "STUN" and a card "STUN PLUS": a hidden STUN must not cut "STUN PLUS" in two.
    from interpreter.web.narration import seat_narration
    g = api.load_game("games/stun.yaml")
    events = [{"e": "say", "text": "P1 turns up STUN PLUS: +4."}]
    seen = set(g.card_label) - {"STUN"}
    (line,) = seat_narration(events, [None], g, 2, 0, seen)
    assert line["text"] == "P1 turns up STUN PLUS: +4."
    (line,) = seat_narration([{"e": "say", "text": "STUN and STUN PLUS"}], [None], g, 2, 0, seen)
    assert line["text"] == f"{HIDDEN} and STUN PLUS"


@pytest.mark.parametrize("d,fragment", [
    ({"spec": "stun", "hotseat": "yes"}, "hotseat must be"),
    ({"spec": "stun", "options": {"win_chips": [3]}}, "options must map"),
    ({"spec": "stun", "seed": 2 ** 70}, "seed"),
    ({"spec": "stun", "seats": "person"}, "seats must list"),
], ids=["hotseat-text", "option-list", "huge-seed", "seats-text"])
def test_settings_from_the_page_are_checked(d, fragment):
    class Served:
        spec = api.load_spec("games/stun.yaml")[0]
    with pytest.raises(TableError, match=fragment):
        parse_settings(d, {"stun": Served()})
