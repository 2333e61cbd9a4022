"""Measures (interpreter/measures.py) and their statistics in a sweep (runner.Stats)."""
from interpreter import api
from interpreter.lab.measures import measure
from interpreter.lab.runner import GameSpec, play, sweep
from helpers import tiny_variant

MEASURED = """extends: base.yaml
state:
  global:
    takes: {type: int}
append:
  procedures.take_one.do: |
    takes += 1
measures:
  takes:
    label: cards taken
    value: takes
  best:
    label: best score
    value: highest(players, score)
  p1_won:
    label: P1 won
    value: contains(winners, seat(1))
"""


def test_a_measure_is_read_when_the_game_ends(tmp_path):
    game = api.load_game(tiny_variant(tmp_path, MEASURED))
    st = play(game, 2, 5)
    takes, best, p1 = measure(game, st)
    assert takes == st.turn  # one card per turn
    assert best == max(st.scores())
    assert p1 == (0 in st.winners)


def test_sweep_reports_the_mean_of_each_measure(tmp_path):
    path = tiny_variant(tmp_path, MEASURED)
    game = api.load_game(path)
    stats = sweep(GameSpec(path), 2, 40, 7, game=game).as_dict()
    m = stats["measures"]
    assert list(m) == ["takes", "best", "p1_won"]
    assert m["takes"]["label"] == "cards taken"
    assert m["takes"]["mean"] == stats["turns"]["mean"]
    assert 0 <= m["p1_won"]["mean"] <= 1
    assert m["best"]["min"] <= m["best"]["mean"] <= m["best"]["max"]


def test_measures_do_not_depend_on_workers(tmp_path):
    path = tiny_variant(tmp_path, MEASURED)
    one = sweep(GameSpec(path), 2, 30, 3, workers=1).as_dict()["measures"]
    two = sweep(GameSpec(path), 2, 30, 3, workers=2).as_dict()["measures"]
    assert one == two


def test_a_measure_must_be_a_number_or_a_condition(tmp_path):
    spec, diags = api.check_spec(tiny_variant(tmp_path, "extends: base.yaml\nmeasures:\n  m: {value: draw}\n"))
    assert spec is None and [d.code for d in diags] == ["E431"]
    assert diags[0].span.path.endswith("v.yaml")


def test_a_spec_without_measures_reports_none():
    stats = sweep(GameSpec("games/stun.yaml"), 2, 3, 1).as_dict()
    assert stats["measures"] == {}


def test_sweeps_share_one_pool_of_workers_and_keep_its_results(tmp_path):
    """A lab run asks for many batches: they go to one pool, started once, whose workers keep the games
    they loaded; the results stay those of one process."""
    from interpreter.lab import runner
    path = tiny_variant(tmp_path, MEASURED)
    first = sweep(GameSpec(path), 2, 30, 3, workers=2)
    pool = runner._pool(2)
    second = sweep(GameSpec(path, budget=5000), 2, 30, 4, workers=2)
    assert runner._pool(2) is pool and [k[0] for k in runner._pools].count(2) == 1
    alone = [sweep(GameSpec(path), 2, 30, 3, workers=1), sweep(GameSpec(path, budget=5000), 2, 30, 4, workers=1)]
    drop = ("seconds", "games_per_second")
    for got, want in zip([first, second], alone):
        a, b = got.as_dict(), want.as_dict()
        assert {k: v for k, v in a.items() if k not in drop} == {k: v for k, v in b.items() if k not in drop}
