"""Partnerships (lang/teams.py): sides from `game.teams`, the side builtins, winners, scores and statistics by side."""
import pytest

from interpreter import api
from interpreter.lab.runner import GameSpec, sweep
from interpreter.lang.teams import TeamsDef
from interpreter.runtime.engine import Status
from interpreter.spec.diagnostics import Severity

from spec_helpers import diagnostics, write

BASE = """
game:
  name: Sides
  players: {min: %(lo)d, max: %(hi)d}
  teams: %(teams)s
state:
  player:
    points: {type: int, start: 0}
flow:
  first: seat(1)
  turn:
    actions: [score]
actions:
  score:
    label: score
    do: |
      %(do)s
      end game
end:
  %(end)s
"""


def spec(tmp_path, teams="{size: 2}", do="me.points += 1", end="score: points", lo=4, hi=4):
    return write(tmp_path, BASE % {"teams": teams, "do": do, "end": end, "lo": lo, "hi": hi})


@pytest.mark.parametrize("n, size, sides", [
    (4, 2, [[0, 2], [1, 3]]),
    (6, 2, [[0, 3], [1, 4], [2, 5]]),
    (6, 3, [[0, 2, 4], [1, 3, 5]]),
], ids=["four_in_pairs", "six_in_pairs", "six_in_threes"])
def test_partners_sit_apart(n, size, sides):
    assert TeamsDef(size, None, [], "same", None).sides(n) == sides


ERRORS = [
    ("size_does_not_divide", dict(teams="{size: 3}"), "E490", 4, "3}"),
    ("one_side", dict(teams="{size: 4}"), "E490", 4, "4}"),
    ("seats_not_a_partition", dict(teams="{seats: [[1, 2], [2, 4]]}"), "E490", 4, "[[1, 2]"),
    ("seats_for_several_counts", dict(teams="{seats: [[1, 3], [2, 4]]}", lo=2), "E490", 4, "[[1, 3]"),
    ("partner_of_three", dict(teams="{size: 3}", lo=6, hi=6, do="partner(me).points += 1"), "E492", 16, "partner"),
]


@pytest.mark.parametrize("name, kw, code, line, word", ERRORS, ids=[e[0] for e in ERRORS])
def test_bad_sides_are_positioned_errors(tmp_path, name, kw, code, line, word):
    found = [d for d in diagnostics(spec(tmp_path, **kw)) if d.severity is Severity.ERROR]
    assert [d.code for d in found] == [code], [d.message for d in found]
    d = found[0]
    assert d.span.line == line and d.span.path.endswith("spec.yaml")
    text = open(d.span.path, encoding="utf-8").read().splitlines()[d.span.line - 1]
    assert text[d.span.col - 1:].startswith(word)


def test_a_side_builtin_without_sides_is_e491(tmp_path):
    path = write(tmp_path, (BASE % {"teams": "{size: 2}", "do": "teammates(me)[1].points += 1", "end": "score: points",
                                    "lo": 4, "hi": 4}).replace("  teams: {size: 2}\n", ""))
    found = [d for d in diagnostics(path) if d.severity is Severity.ERROR]
    assert [d.code for d in found] == ["E491"] and found[0].span.line == 15 and found[0].span.col == 7


def test_a_hidden_side_variable_needs_sides_and_a_global_an_owner(tmp_path):
    path = write(tmp_path, (BASE % {"teams": "{size: 2}", "do": "me.points += 1", "end": "score: points", "lo": 4,
                                    "hi": 4}).replace("  teams: {size: 2}\n", "").replace(
        "    points: {type: int, start: 0}\n",
        "    points: {type: int, start: 0}\n    hint: {type: int, start: 0, visible: side}\n"
        "  global:\n    pot: {type: int, start: 0, visible: owner}\n"))
    found = sorted((d.code, d.span.line) for d in diagnostics(path) if d.severity is Severity.ERROR)
    assert found == [("E493", 7), ("E493", 9)]


def test_a_side_wins_together_with_winners(tmp_path):
    g = api.load_game(spec(tmp_path, end='winners: "[seat(2)]"'))
    st = g.new_game(4, 1)
    st.apply(0)
    assert st.status is Status.FINISHED and st.winners == [1, 3]


@pytest.mark.parametrize("mode, do, scores, winners", [
    ("same", "for each p in teammates(me):\n        p.points = 2", [2, 0], [0, 2]),
    ("sum", "me.points = 1\n      seat(2).points = 1\n      seat(4).points = 1", [1, 2], [1, 3]),
], ids=["same", "sum"])
def test_sides_score_by_their_seats(tmp_path, mode, do, scores, winners):
    g = api.load_game(spec(tmp_path, teams=f"{{size: 2, score: {mode}}}", do=do))
    st = g.new_game(4, 1, log=True)
    st.apply(0)
    assert st.side_scores() == scores and st.winners == winners
    assert st.log[-1]["side_scores"] == scores


def test_partner_and_opponents_at_run_time(tmp_path):
    g = api.load_game(spec(tmp_path, do="partner(me).points = team(me) * 10\n"
                                         "      for each p in opponents(me):\n        p.points = 0 - 1"))
    st = g.new_game(4, 1)
    st.apply(0)
    assert st.scores() == [0, -1, 10, -1]


def test_simulate_reports_wins_by_side_and_no_draw_between_partners():
    gs = GameSpec("games/euchre.yaml")
    d = sweep(gs, 4, 200, 1).as_dict()
    assert d["draws"] == 0 and d["finished"] == 200
    sides = d["sides"]
    assert [s["seats"] for s in sides] == [[1, 3], [2, 4]] and [s["name"] for s in sides] == ["North-South", "East-West"]
    assert abs(sides[0]["wins"] + sides[1]["wins"] - 1) < 1e-9
    assert all(s["wins_ci95"][0] < s["wins"] < s["wins_ci95"][1] for s in sides)
    assert d["wins"][0] == d["wins"][2] and d["margin"]["mean"] >= 2  # partners share; the margin is between sides


def test_the_labs_baseline_gives_wins_by_side():
    from interpreter.lab.ambiguities import baseline_summary
    spec, _ = api.load_spec("games/euchre.yaml")
    results = [("finished", (0, 2), 20, 21, (2, -2), None, 1), ("finished", (1, 3), 20, 21, (-1, 1), None, 2),
               ("finished", (1, 3), 20, 21, (-2, 2), None, 3), ("stalled", (), 9, 9, None, "x", 4)]
    b = baseline_summary(results, 4, spec.teams)
    assert b["side_wins"] == [{"name": "North-South", "seats": [1, 3], "wins": round(1 / 3, 4)},
                              {"name": "East-West", "seats": [2, 4], "wins": round(2 / 3, 4)}]
    assert "side_wins" not in baseline_summary(results, 4)


def test_the_ambiguity_lab_judges_wins_by_side(tmp_path):
    from interpreter.lab.ambiguities import ambiguity_lab
    path = write(tmp_path, """
game:
  name: Side race
  players: {min: 4, max: 4}
  teams: {size: 2, names: [odd seats, even seats]}
ambiguities:
  start:
    quote: "The youngest begins."
    interpretations:
      first: "seat 1 begins"
      second: "seat 2 begins"
    default: first
    why: "seat 1 is the youngest at most tables"
state:
  player:
    laps: {type: int, start: 0}
flow:
  first: seat(1) if reading.start == "first" else seat(2)
  turn:
    actions: [run, rest]
actions:
  run:
    do: |
      me.laps += 1
      if sum(teammates(me), laps) >= 3:
        end game
      end turn
  rest: {do: end turn}
end:
  winners: "[me]"
""")
    rep = ambiguity_lab(path, 4, 60, 1)
    names = [iv.measure for r in rep.ambiguities for rd in r.readings for iv in rd.intervals]
    assert "win odd seats" in names and "win even seats" in names and not any(n.startswith("win P") for n in names)
    assert [s["name"] for s in rep.baseline["side_wins"]] == ["odd seats", "even seats"]
