"""Decks as a product of attributes (`each:`), map over a list, keys as a range."""
from __future__ import annotations

from interpreter import api
from interpreter.lang import decks, limits
from interpreter.runtime.engine import Game, Status

from spec_helpers import errors, failed_examples, write

DECK = """
game: {name: Deck test, players: {min: 2, max: 4}}
components:
  total: 8
  cards:
    card:
      each: {suit: [red, blue], rank: {from: 1, to: 4}}
      label: "{suit} {rank}"
      count: 1
      in: deck
zones:
  deck: {owner: shared, visibility: hidden}
  hand: {owner: player, visibility: owner}
state:
  global:
    row: {type: int, start: 0, keys: {from: 1, to: 3}}
  player:
    score: {type: int, start: 0}
flow:
  first: seat(1)
  turn:
    actions: [take]
actions:
  take:
    label: take
    when: count(deck) > 0
    do: |
      let c = top(deck)
      move c to me.hand
      me.score += c.rank if c.suit == "red" else 0
      row[c.rank % 3 + 1] += 1
      end turn
end:
  when: count(deck) == 0
  score: score
examples:
  red_scores:
    given:
      zones: {deck: [card_red_3, card_blue_4]}
    do: [take, take]
    expect:
      - seat(1).score == 3
      - seat(2).score == 0
      - sum([c.rank for c in seat(2).hand]) == 4
      - "[c.rank * 10 for c in seat(1).hand where c.suit == \\"red\\"] == [30]"
      - row[1] == 1 and row[2] == 1 and row[3] == 0
"""


def test_a_product_deck_expands_in_order_with_labels_and_properties(tmp_path):
    path = write(tmp_path, DECK)
    assert errors(path) == []
    spec, _ = api.load_spec(path)
    assert list(spec.cards)[:5] == ["card_red_1", "card_red_2", "card_red_3", "card_red_4", "card_blue_1"]
    assert spec.cards["card_blue_3"].label == "blue 3"
    assert spec.cards["card_blue_3"].props == {"suit": "blue", "rank": 3}
    assert failed_examples(path) == {}
    st = Game(spec).new_game(2, 1)
    while st.status is Status.RUNNING:
        st.apply(0)
    assert sum(st.scores()) == sum(range(1, 5))  # every red card scored, by somebody


def test_deck_misuse_is_positioned(tmp_path):
    bad = DECK.replace('label: "{suit} {rank}"', 'label: "{suit} {colour}"')
    errs = errors(write(tmp_path, bad))
    assert [c for c, _ in errs] == ["E447"] and "{colour}" in errs[0][1], errs
    bad = DECK.replace("rank: {from: 1, to: 4}", "rank: {from: 4, to: 1}")
    errs = errors(write(tmp_path, bad, "b.yaml"))
    assert "E447" in [c for c, _ in errs] and "has no values" in " ".join(m for _, m in errs)
    huge = DECK.replace("rank: {from: 1, to: 4}", "rank: {from: 1, to: 9000}, x: {from: 1, to: 9000}")
    errs = errors(write(tmp_path, huge, "h.yaml"))
    assert "E447" in [c for c, _ in errs]
    keys = DECK.replace("keys: {from: 1, to: 3}", "keys: {from: 3, to: 1}")
    assert "E415" in [c for c, _ in errors(write(tmp_path, keys, "k.yaml"))]


def test_the_card_limit_is_the_same_in_both_places():
    assert decks.MAX_CARDS == limits.MAX_CARDS


def test_a_failing_example_says_where_given_zones_took_its_cards(tmp_path):
    spec = DECK + """  wrong_on_purpose:
    given:
      zones: {hand@2: [card_red_1], deck: [card_blue_2]}
    expect:
      - seat(2).score == 99
"""
    failed = failed_examples(write(tmp_path, spec))
    assert set(failed) == {"wrong_on_purpose"}
    assert failed["wrong_on_purpose"].endswith("given.zones took 1 card_red_1 from deck to P2.hand")
