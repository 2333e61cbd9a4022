"""Identical cards make one option (interpreter/compile/interchange.py; issue 18)."""
from interpreter.api import load_game, load_spec
from interpreter.compile.interchange import ordered_zones
from interpreter.runtime.engine import Status

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


def test_cards_of_a_zone_read_in_order_stay_apart():
    assert ordered_zones(load_spec(HEAPS)[0]) == {"row"}
    assert _decision("row").labels == ["Red", "Red (2)"]


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
