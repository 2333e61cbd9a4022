"""Issue 14, decks: cards in each player's own zone, counts per player count, aggregates over an
expression, action labels as templates, and `given.zones` entries that say where their cards come from."""
from __future__ import annotations

import random

import pytest

from interpreter import api
from interpreter.lab.explain import explain
from interpreter.lab.runner import play
from interpreter.lang.builtins import RuleError
from interpreter.runtime.engine import Game, Status
from interpreter.spec.diagnostics import Severity

from helpers import compiled_forms, random_walk
from spec_helpers import diagnostics, errors, failed_examples, write

SPEC = """
game: {name: Own cards, players: {min: 2, max: 5}}
components:
  total: 23
  defaults: {skull: false, value: 0}
  cards:
    flower: {count: 3, in: hand}
    skull: {count: 1, in: hand, props: {skull: true}}
    token:
      each: {value: {from: 1, to: 3}}
      count: {2-3: 1, 4-5: 1}
      in: pot
zones:
  pot: {owner: shared, visibility: public}
  hand: {owner: player, visibility: owner}
  mat: {owner: player}
state:
  player:
    skulls: {type: int, start: 0}
flow:
  first: seat(1)
  turn:
    actions: [play, give]
actions:
  play:
    label: "play {c}"
    choose:
      c: me.hand
    do: |
      move c to me.mat
      if c.skull:
        me.skulls += 1
      end turn
  give:
    label: "give {t} worth {t.value}"
    when: count(pot) > 0
    choose:
      t: pot
      to: others
    do: |
      move t to to.mat
      end turn
end:
  when: count(seat(1).hand) == 0
  winners: best p in players by p.skulls * 2 + count(p.mat)
  score: skulls
examples:
  each_player_has_their_own:
    players: 4
    expect:
      - count(seat(1).hand) == 4 and count(seat(4).hand) == 4
      - count([c in seat(3).hand where c.skull]) == 1
      - count(pot) == 3
"""


def _spec(tmp_path, text=SPEC, name="spec.yaml"):
    path = write(tmp_path, text, name)
    assert errors(path) == []
    return api.load_spec(path)[0], path


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_player_starts_with_their_own_cards(tmp_path, players):
    spec, _ = _spec(tmp_path)
    st = Game(spec).new_game(players, 1)
    hand = spec.zones["hand"].index
    for seat in range(players):
        cards = st.zones[spec.n_shared + seat * spec.n_player_zones + hand]
        assert sorted(st.g.card_type[c] for c in cards) == ["flower"] * 3 + ["skull"]
    assert len(st.zones[spec.zones["pot"].index]) == 3
    assert sum(map(len, st.zones)) == 4 * players + 3


def test_random_games_keep_every_card_in_one_zone(tmp_path):
    spec, _ = _spec(tmp_path)
    game = Game(spec)
    for players in (2, 5):
        for seed in range(6):
            st = play(game, players, seed, check=True)  # the invariants count the cards in play
            assert st.status is Status.FINISHED, st.reason


def test_a_search_agent_sees_only_its_own_cards(tmp_path):
    spec, _ = _spec(tmp_path)
    st = play(Game(spec), 3, 2, {0: "greedy:samples=2"})
    assert st.status is Status.FINISHED, st.reason


def test_examples_and_explain(tmp_path):
    spec, path = _spec(tmp_path)
    assert failed_examples(path) == {}
    text = explain(spec)
    assert "| flower | 3 per player | hand" in text
    assert "23 cards with 5 players" in text and "11 cards with 2 players" in text


COUNT = SPEC.replace("count: {2-3: 1, 4-5: 1}", "count: {COUNT}")


@pytest.mark.parametrize("count, message", [
    ("{2-3: 1}", "no count for 4-5 players"),
    ("{2-5: 1, 6: 2}", "a count for 6 players, but the game is for 2 to 5"),
    ("{2-4: 1, 4-5: 1}", "the count for 4 players is given twice"),
    ("{2-5: 1, lots: 2}", "'lots' is not a player count"),
    ("{5-2: 1}", "'5-2' is not a range of player counts"),
], ids=["missing", "too_many_players", "twice", "not_a_number", "backwards"])
def test_a_count_map_must_give_each_player_count_once(tmp_path, count, message):
    path = write(tmp_path, COUNT.replace("{COUNT}", count))
    found = [d for d in diagnostics(path) if d.code == "E461"]
    assert found and message in found[0].message, [d.message for d in diagnostics(path)]
    assert found[0].span.line > 1


def test_the_total_is_checked_against_the_most_demanding_player_count(tmp_path):
    path = write(tmp_path, SPEC.replace("total: 23", "total: 24"))
    assert ("E411", "the card counts add up to 23 (with 5 players), but the rulebook's total is 24") in errors(path)


def test_cards_may_not_start_in_no_zone(tmp_path):
    path = write(tmp_path, SPEC.replace("flower: {count: 3, in: hand}", "flower: {count: 3, in: hnd}"))
    (d,) = [d for d in diagnostics(path) if d.code == "E420"]
    assert d.hint == "did you mean 'hand'?"


# -- aggregates ----------------------------------------------------------------------------------------------------
AGGREGATES = [
    "sum c in me.hand of c.value",
    "sum c in pot where c.value > 1 of c.value * 2",
    "highest p in players of count(p.mat) + p.skulls",
    "lowest c in pot of c.value",
    "best p in players by count(p.hand)",
    "worst c in pot by 10 - c.value",
    "best p in (best q in players by q.skulls) by count(p.mat)",
    "[highest c in p.hand of c.value for p in players]",
    "sum c in [] of 1",
    "highest c in [] of c",
]


@pytest.fixture(scope="module")
def aggregate_pairs(tmp_path_factory):
    funcs = "".join(f"  f{i}:\n    value: '{e}'\n" for i, e in enumerate(AGGREGATES))
    text = SPEC.replace("examples:", "functions:\n" + funcs + "examples:")
    path = write(tmp_path_factory.mktemp("agg"), text)
    game = api.load_game(path)
    return game, compiled_forms(game, AGGREGATES)


def _value(f, st):
    try:
        return f(st, [None] * 8)
    except RuleError as exc:
        return ("rule error", str(exc))


def _by_hand(st) -> list:
    """AGGREGATES' values worked out in Python from the state (zones pot, then hand and mat per seat)."""
    spec, value = st.g.spec, st.g.props["value"]
    skulls, seats = st.pvars[spec.vars["player"]["skulls"].index], list(st.seats)
    pot = st.zones[spec.zones["pot"].index]

    def own(zone, p):
        return st.zones[spec.n_shared + spec.zones[zone].index + p * spec.n_player_zones]

    def tied(items, key, pick):
        return [x for x in items if key(x) == pick(map(key, items))] if items else []

    skulled = tied(seats, lambda q: skulls[q], max)
    return [sum(value[c] for c in own("hand", st.cur)), sum(2 * value[c] for c in pot if value[c] > 1),
            max(len(own("mat", p)) + skulls[p] for p in seats), min((value[c] for c in pot), default=0),
            tied(seats, lambda p: len(own("hand", p)), max), tied(list(pot), lambda c: 10 - value[c], min),
            tied(skulled, lambda p: len(own("mat", p)), max),
            [max((value[c] for c in own("hand", p)), default=0) for p in seats], 0, 0]


@pytest.mark.parametrize("seed", range(12))
def test_aggregates_mean_what_python_works_out_by_hand(aggregate_pairs, seed):
    game, forms = aggregate_pairs
    st = game.new_game(2 + seed % 4, seed)
    rng = random.Random(seed)
    random_walk(st, rng, rng.randrange(8))
    for (text, generated, general), want in zip(forms, _by_hand(st), strict=True):
        assert _value(generated, st) == want, text
        assert _value(general, st) == want, text


def test_aggregate_values(aggregate_pairs):
    game, forms = aggregate_pairs
    st = game.new_game(2, 3)
    values = {text: _value(generated, st) for text, generated, _general in forms}
    assert values["sum c in me.hand of c.value"] == 0
    assert values["sum c in pot where c.value > 1 of c.value * 2"] == 10
    assert values["best p in players by count(p.hand)"] == [0, 1]
    assert values["worst c in pot by 10 - c.value"] == [st.zones[0][-1]] or len(values["worst c in pot by 10 - c.value"]) == 1
    assert values["sum c in [] of 1"] == 0 and values["highest c in [] of c"] == 0


@pytest.mark.parametrize("text, code, message", [
    ("most p in players by p.skulls", "E460", "'most p in ...' is not an aggregate"),
    ("best p in players by p.skulls > 1", "E431", "expected a number for >, found a list of players"),
    ("best p in players by count(p.hand) == 1 or true", "E431", ""),
    ("best p in 3 by p", "E431", "expected a list"),
    ('sum c in pot of c.skull', "E431", "expected a number for sum ... of"),
], ids=["unknown_word", "comparison_ends_the_value", "condition", "not_a_list", "value_not_a_number"])
def test_aggregate_misuse_is_positioned(tmp_path, text, code, message):
    path = write(tmp_path, SPEC.replace("winners: best p in players by p.skulls * 2 + count(p.mat)",
                                        f"winners: {text}"))
    found = [d for d in diagnostics(path) if d.code == code and message in d.message]
    assert found, [(d.code, d.message) for d in diagnostics(path)]
    assert found[0].span.line > 1


# -- label templates -------------------------------------------------------------------------------------------------
def test_label_holes_are_filled_and_unnamed_parameters_follow(tmp_path):
    spec, _ = _spec(tmp_path)
    st = Game(spec).new_game(3, 1)
    labels = st.decision().labels
    assert "play flower" in labels and "play skull" in labels
    gives = [lab for lab in labels if lab.startswith("give")]
    assert gives == [f"give {v} worth {v}: P{p}" for v in (1, 2, 3) for p in (2, 3)]


@pytest.mark.parametrize("label, hint", [
    ("play {card}", "a hole names a parameter: {c}"),
    ("play {c.colour}", "card properties: skull, value"),
    ("give {to.value} {t}", "only a card parameter has properties: write {to}"),
], ids=["unknown_parameter", "unknown_property", "property_of_a_player"])
def test_a_hole_that_cannot_be_filled_is_warned_about_at_the_hole(tmp_path, label, hint):
    old = 'label: "play {c}"' if label.startswith("play") else 'label: "give {t} worth {t.value}"'
    text = SPEC.replace(old, f'label: "{label}"')
    path = write(tmp_path, text)
    (w,) = [d for d in diagnostics(path) if d.code == "W404"]
    assert w.severity is Severity.WARNING and w.hint == hint
    line = text.lstrip().splitlines()[w.span.line - 1]
    hole = label[label.index("{", 1 if label.startswith("give {to") is False else 0):]
    assert line[w.span.col - 1:w.span.end_col - 1] == hole[:hole.index("}") + 1]


# -- given.zones -----------------------------------------------------------------------------------------------------
def _example(tmp_path, given: str, name="ex.yaml", language: int | None = None):
    text = SPEC.replace("""    players: 4
    expect:""", f"""    players: 4
    given:
      zones: {given}
    expect:""")
    return write(tmp_path, (f"language: {language}\n" if language else "") + text.lstrip(), name)


def test_an_ambiguous_take_names_the_zones_and_the_entry(tmp_path):
    # language 2 asks which zone; a spec that says no version keeps language 1's take (lang/versions.py)
    path = _example(tmp_path, "{mat@1: [skull]}", language=2)
    (msg,) = failed_examples(path).values()
    text = open(path).read().splitlines()
    line = next(i for i, ln in enumerate(text, 1) if "mat@1: [skull]" in ln)
    assert msg.startswith(f"{path}:{line}:{text[line - 1].index('skull') + 1}: given.zones.mat@1: ")
    assert "which 'skull'? free ones are in P1.hand (1), P2.hand (1)" in msg
    assert "write 'skull from hand@1'" in msg
    from interpreter.runtime.scenarios import run_example
    old = _example(tmp_path, "{mat@1: [skull]}", "old.yaml")
    spec = api.load_spec(old)[0]
    (legacy,) = run_example(spec, spec.examples["each_player_has_their_own"]).legacy
    assert legacy.fixed == "skull from hand@1"


def test_a_take_from_a_named_zone(tmp_path):
    path = _example(tmp_path, "{mat@1: [skull from hand@2]}")
    assert failed_examples(path) == {}
    spec = api.load_spec(path)[0]
    from interpreter.runtime.scenarios import run_example
    assert run_example(spec, spec.examples["each_player_has_their_own"]).ok


def test_an_impossible_take_says_where_the_cards_are(tmp_path):
    path = _example(tmp_path, "{mat@1: [token_2 from hand@2]}")
    (msg,) = failed_examples(path).values()
    assert "no 'token_2' left in P2.hand to take (free 'token_2' cards: pot (1))" in msg


def test_too_many_cards_of_a_type(tmp_path):
    path = _example(tmp_path, "{mat@1: [token_2, token_2]}")
    (msg,) = failed_examples(path).values()
    assert "there are only 1 'token_2' cards in a game with 4 players" in msg


def test_unknown_names_in_given_zones_are_check_errors(tmp_path):
    path = _example(tmp_path, "{mat@9: [skul from hand@1, flower from hnd@1]}")
    found = [(d.code, d.message, d.hint) for d in diagnostics(path) if d.code == "E462"]
    assert ("E462", "example 'each_player_has_their_own': given.zones: seat 9 does not exist (the game is for at most "
            "5 players)", "seats are 1 to 5") in found
    assert any("unknown card type 'skul'" in m and h == "did you mean 'skull'?" for _c, m, h in found)
    assert any("takes from unknown zone 'hnd@1'" in m for _c, m, _h in found)


def test_determinization_keeps_each_players_own_cards_in_their_places(tmp_path):
    """P1 cannot see the others' hands, but knows whose cards they are (their backs show it): a sample
    never gives one player two skulls; cards of nobody's are still pooled freely."""
    from interpreter.agents.determinize import determinize
    spec, _ = _spec(tmp_path)
    game = Game(spec)
    st = game.new_game(3, 1)
    hand = spec.zones["hand"].index
    seen = set()
    for t in range(40):
        s = determinize(st, 0, random.Random(t))
        s.check_invariants()
        assert s.status is Status.RUNNING
        for seat in range(3):
            cards = s.zones[spec.n_shared + seat * spec.n_player_zones + hand]
            assert sorted(game.card_type[c] for c in cards) == ["flower"] * 3 + ["skull"]
            seen.add(tuple(cards))
    assert len(seen) > 3  # the others' flowers did move between samples


HIDE = """
game: {name: Hidden, players: {min: 2, max: 2}}
components:
  cards:
    card:
      each: {value: {from: 1, to: 6}}
      label: "card {value}"
      count: 1
      in: hand
zones:
  hand: {owner: player, visibility: owner}
  secret: {owner: player, visibility: owner}
flow:
  first: seat(1)
  turn:
    actions: [hide]
actions:
  hide:
    label: "hide {c} worth {c.value}"
    choose:
      c: me.hand
    do: |
      move c to me.secret
      end turn
end:
  when: count(seat(2).hand) == 0
"""


def test_a_label_hole_of_a_hidden_card_is_hidden_from_other_seats(tmp_path):
    from interpreter.runtime.redact import seat_events
    game = api.load_game(write(tmp_path, HIDE))
    st = game.new_game(2, 1, log=True)
    st.apply(2)
    mine = [e["choice"] for e in seat_events(st.log, game, 2, 0) if e["e"] == "choice"]
    theirs = [e["choice"] for e in seat_events(st.log, game, 2, 1) if e["e"] == "choice"]
    assert mine == ["hide card 3 worth 3"]
    assert "3" not in theirs[0] and theirs[0].startswith("hide ")


EXPR = """
game: {name: Count expr, players: {min: 2, max: 6}}
components:
  cards:
    chip: {count: "(11 if count(players) <= 4 else 9) - (2 if option.short else 0)", in: chips}
    spare: {count: "SPARE", in: pot}
zones:
  pot: {owner: shared}
  chips: {owner: player}
options:
  short: {values: [false, true], default: false}
flow:
  first: seat(1)
  turn:
    actions: [give]
actions:
  give:
    label: give
    when: count(me.chips) > 0
    do: |
      move top(me.chips) to pot
      end turn
end:
  when: count(seat(1).chips) == 0
  winners: players
examples:
  five_players:
    players: 5
    expect:
      - count(seat(5).chips) == 9 and count(pot) == 1
  short_two:
    players: 2
    options: {short: true}
    expect:
      - count(seat(1).chips) == 9 and count(pot) == 4
"""


def test_a_count_may_be_an_expression_over_the_players_and_the_options(tmp_path):
    path = write(tmp_path, EXPR.replace("SPARE", "max(0, 6 - count(players))"))
    assert errors(path) == [] and failed_examples(path) == {}
    game = Game(api.load_spec(path)[0], {"short": True})
    for players in (2, 6):
        st = play(game, players, 3, check=True)
        assert st.status is Status.FINISHED, st.reason
    assert "54 cards with 6 players" in explain(api.load_spec(path)[0])


@pytest.mark.parametrize("count, message", [
    ("11 - 3 * count(players)", "the count is -1 with 4 players"),
    ("count(deck)", "a count can use numbers, count(players), option.NAME"),
    ("option.long", "unknown option 'long'"),
    ("5 // (count(players) - 2)", "division by zero with 2 players"),
    ("true", "the count is True with 2 players, not a number"),
    ("1000 * count(players) * (2 if option.short else 1)", "the count is 12,000 with 6 players, option short=True"),
], ids=["negative", "unknown_word", "unknown_option", "division_by_zero", "not_a_number", "too_many"])
def test_a_count_expression_that_cannot_give_a_count_is_positioned(tmp_path, count, message):
    path = write(tmp_path, EXPR.replace("SPARE", count))
    found = [d for d in diagnostics(path) if d.code == "E461"]
    assert found and message in found[0].message, [(d.code, d.message) for d in diagnostics(path)]
    assert found[0].span.line == 5
