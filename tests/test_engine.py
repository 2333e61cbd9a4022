"""Engine features added with First in Flight: a phase's `while:` (stop repeating early)."""
from interpreter import api
from interpreter.runner import play
from tests.helpers import tiny_variant


def _phases(st):
    return [(e["phase"], e["round"]) for e in st.log if e["e"] == "phase"]


def test_a_phase_whose_while_fails_is_skipped(tmp_path):
    game = api.load_game(tiny_variant(tmp_path, "extends: base.yaml\nreplace:\n  flow.phases.early:\n"
                                                "    name: early\n    while: 'false'\n    until: 'true'\n"))
    st = play(game, 2, 1, log=True)
    assert st.status == "finished"
    assert [p for p, _ in _phases(st)] == ["late"]


def test_while_stops_the_repetitions_of_a_phase(tmp_path):
    # `early` may repeat 5 times, but only while the draw pile has 8 cards or more.
    path = tiny_variant(tmp_path, """extends: base.yaml
set:
  flow.phases: [{name: early, repeat: 5, while: count(draw) >= 8, until: "true"},
                {name: late, until: empty(draw)}]
""")
    game = api.load_game(path)
    st = play(game, 2, 3, log=True)
    assert st.status == "finished", st.reason
    early = [r for p, r in _phases(st) if p == "early"]
    assert early == [1, 2, 3]  # 10 cards, one taken per repetition: 10, 9, 8 -> three
