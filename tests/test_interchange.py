"""Identical cards make one option (interpreter/compile/interchange.py; issue 18)."""
from pathlib import Path

from interpreter.api import load_game, load_spec
from interpreter.compile.interchange import ordered_zones
from interpreter.lower.lowering import lower
from interpreter.runtime.engine import Status
from interpreter.runtime.pipeline import check_spec

HEAPS = "tests/specs/heaps.yaml"


def _decision(action: str):
    game = load_game(HEAPS)
    st = game.new_game(2, 1)
    st.apply(st.decision().labels.index(action))
    return st.decision()


def test_a_value_choice_offers_each_kind_of_card_once():
    assert _decision("pick").labels == ["One", "Two"]


def test_a_subset_choice_offers_each_collection_once():
    # One+One+One, One+Two (three ways before), One+One+Two (three ways), One+One+One+Two
    assert _decision("meld").labels == ["One, Two", "One, One, One", "One, One, Two", "One, One, One, Two"]


def _zone(spec, name: str) -> tuple[bool, int]:
    z = spec.zones[name]
    return z.owner == "player", z.index


def test_cards_of_a_zone_read_in_order_stay_apart():
    spec = load_spec(HEAPS)[0]
    assert ordered_zones(lower(spec)) == {_zone(spec, "row")}
    assert _decision("row").labels == ["Red", "Red (2)"]


def test_the_rules_that_read_in_order_are_the_lowered_game_s_invariants_too_but_not_its_measures():
    """ordered_zones reads the lowered game (both backends take it from there): an invariant is a rule, a
    measure reads a finished game and is not; a player's zone is named by its index among theirs."""
    text = Path(HEAPS).read_text().replace("end:\n", "invariants:\n  taken_in_order:\n    rule: a rule\n"
                                            "    check: count(seat(1).taken) == 0 or top(seat(1).taken).value > 0\n"
                                            "measures:\n  heap_top:\n    rule: a measure\n"
                                            "    value: count(heap) == 0 or top(heap).value > 0\nend:\n")
    spec, diags = check_spec(HEAPS, text)
    assert spec is not None, [d.message for d in diags]
    assert ordered_zones(lower(spec)) == {_zone(spec, "row"), _zone(spec, "taken")}


def test_stunt_academy_meld_of_identical_cards_is_offered_once():
    """The audit's finding: a meld of Fighting 1, Fighting 1, Fighting 2 was offered twice ("... (2)")."""
    game = load_game("games/stunt-academy.yaml")
    st = game.new_game(3, 2)
    import random
    rng = random.Random(1)
    seen = 0
    while st.status is Status.RUNNING and seen < 30:
        d = st.decision()
        if d.kind == "subset":
            seen += 1
            assert not any(lab.endswith(")") and " (" in lab and lab.rsplit(" (", 1)[1][:-1].isdigit()
                           for lab in d.labels), d.labels
            assert len(set(d.labels)) == len(d.labels)
        st.apply(rng.randrange(len(st.popts)))
    assert seen > 0
