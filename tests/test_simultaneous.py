"""Simultaneous choices: `choose together ... for each p in players: ...`."""
from __future__ import annotations

import random

from interpreter import api
from interpreter.agents.determinize import determinize
from interpreter.runtime.engine import Game, Status

from spec_helpers import errors, failed_examples, write

SPEC = open("tests/specs/sealed_bids.yaml", encoding="utf-8").read()


def _game(tmp_path, text=SPEC):
    spec, _ = api.load_spec(write(tmp_path, text))
    return Game(spec)


def test_everybody_chooses_then_the_choices_are_revealed(tmp_path):
    assert errors(write(tmp_path, SPEC)) == []
    assert failed_examples(write(tmp_path, SPEC, "b.yaml")) == {}
    st = _game(tmp_path).new_game(3, 1, log=True)
    st.apply(0)  # bid
    assert st.decision().player == 0
    st.apply(0)
    assert st.decision().player == 1  # P2 chooses next, P1's bid not yet applied
    assert all(v == 0 for v in st.pvars[0])  # nobody's bid is known
    st.apply(0)
    st.apply(0)
    assert st.turn == 2 and sum(st.pvars[1]) >= 1  # revealed and scored together
    choices = [e for e in st.log if e["e"] == "choice" and e.get("sealed")]
    assert len(choices) == 3


def test_a_searching_player_does_not_see_the_choices_made_before_its_own(tmp_path):
    st = _game(tmp_path).new_game(2, 5)
    st.apply(0)  # bid
    st.apply(0)  # P1 bids the first coin of the purse
    frame = st.stack[-1]
    t = frame[0].together[0]
    assert len(frame[2][t.picks]) == 1
    seen = set()
    for k in range(30):
        d = determinize(st, 1, random.Random(k))
        pick = d.stack[-1][2][t.picks][0]
        assert pick in d.zones[d.g.S + 0 * d.g.P + 0]  # a coin of P1's re-dealt purse
        seen.add(d.g.card_type[pick])
        d.apply(0)
        assert d.status is not Status.ERROR, d.reason
    assert len(seen) > 1  # the true bid is not what every copy assumes
    # the real game is untouched
    assert len(st.stack[-1][2][t.picks]) == 1


def test_a_choice_inside_a_simultaneous_choice_is_refused(tmp_path):
    bad = SPEC.replace("        p.bid = c.value\n", "        p.bid = c.value\n        choose x from players\n")
    errs = errors(write(tmp_path, bad))
    assert [c for c, _ in errs] == ["E448"], errs
    bad = SPEC.replace('for each p in players as "your sealed bid"', 'for each p in bank as "your sealed bid"')
    assert "E431" in [c for c, _ in errors(write(tmp_path, bad, "b.yaml"))]


def test_a_turn_without_actions_must_end_itself(tmp_path):
    from spec_helpers import diagnostics
    ok = SPEC.replace("  turn:\n    actions: [bid]\n", "  turn:\n    start: bid_round()\n").replace(
        "actions:\n  bid:\n    label: bid\n    do: |\n", "procedures:\n  bid_round:\n    do: |\n")
    assert [d.code for d in diagnostics(write(tmp_path, ok))] == [], [d.message for d in diagnostics(write(tmp_path, ok))]
    stuck = ok.replace("      end turn\n", "")
    assert "W405" in [d.code for d in diagnostics(write(tmp_path, stuck, "s.yaml"))]
