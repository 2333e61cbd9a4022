"""Checker fixes and checks added with First in Flight (see also tests/variants for golden errors)."""
from interpreter import api
from interpreter.runner import play
from tests.helpers import tiny_variant


def test_action_parameter_from_a_filter_gets_the_chosen_value(tmp_path):
    # The filter's own variable used to take slot 0, where the engine passes the choice.
    path = tiny_variant(tmp_path, """extends: base.yaml
state:
  player:
    got: {type: int}
actions:
  pick:
    label: pick
    choose:
      c: "[x in draw where x.points > 0]"
    do: |
      move c to me.pile
      me.got += c.points
      end turn
set:
  flow.turn.actions: [take, pick]
""")
    game = api.load_game(path)
    for seed in range(20):
        st = play(game, 2, seed)
        assert st.status == "finished", st.reason


def test_two_parameters_the_second_from_the_first(tmp_path):
    path = tiny_variant(tmp_path, """extends: base.yaml
actions:
  pair:
    label: pair
    choose:
      a: "[x in draw where x.points == 1]"
      b: "[y in draw where y != a and y.points == a.points]"
    do: |
      move a to me.pile
      move b to me.pile
      me.score += a.points + b.points
      end turn
set:
  flow.turn.actions: [take, pair]
""")
    game = api.load_game(path)
    for seed in range(10):
        st = play(game, 2, seed)
        assert st.status == "finished", st.reason


def test_card_property_defaults(tmp_path):
    path = tiny_variant(tmp_path, """extends: base.yaml
components:
  defaults: {bonus: 0}
  cards:
    star: {count: 1, in: draw, props: {points: 3, bonus: 2}}
""")
    spec, diags = api.check_spec(path)
    assert spec is not None, diags
    assert spec.cards["one"].props == {"bonus": 0, "points": 1}
    assert spec.cards["star"].props == {"bonus": 2, "points": 3}


def test_a_property_without_a_value_or_default_is_an_error(tmp_path):
    path = tiny_variant(tmp_path, """extends: base.yaml
components:
  cards:
    star: {count: 1, in: draw, props: {points: 3, bonus: 2}}
""")
    spec, diags = api.check_spec(path)
    assert spec is None
    (d, *_) = [d for d in diags if d.code == "E412"]
    assert d.span.path.endswith("base.yaml")  # the card type that lacks it is the base's
    assert "components.defaults" in d.hint
