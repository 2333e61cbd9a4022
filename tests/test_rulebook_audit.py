"""The rulebook audit of issue 18: the interpreter's side of each finding.

The rules' side (STUN's six-player empty centre, the readings now named) are examples in the specs,
run by `rulewright test` (and below, for every shipped spec and variant); this file
checks the interpreter: `contradicts_text`, traceability that claims only what is true, the
verbatim-quote and hidden-narration audits, lint with careful players, and the STUN spec's new
named readings.
"""
from __future__ import annotations

import os

import pytest

from interpreter.api import load_game, load_spec
from interpreter.lab.audit import audit, hidden_hole_findings, misquote_findings
from interpreter.lab.lint import lint
from interpreter.lab.trace import misquotes, trace
from interpreter.lab.explain import explain
from interpreter.runtime.engine import Status
from interpreter.spec.diagnostics import Severity

from helpers import edit, errors, minimal_text, where, write

SHIPPED = ["games/stun.yaml", "games/stunt-academy.yaml", "games/first-in-flight-stunt-pack.yaml"]
AMBIG = '''    default: all_cards
'''


# ---- contradicts_text: a reading the rulebook's words rule out -------------------------------------------
def test_contradicts_text_is_loaded_and_shown():
    spec = load_spec("games/stun.yaml")[0]
    assert spec.ambiguities["stun_plus_eligibility"].contradicts_text == ("strictly_behind",)
    md = explain(spec)
    assert "`strictly_behind` **(contradicts the rulebook's text)**" in md


@pytest.mark.parametrize("names, message", [
    ("[last_crd]", "contradicts_text names 'last_crd', not one of its interpretations"),
    ("[all_cards]", "the default 'all_cards' is marked as contradicted"),
], ids=["unknown", "default"])
def test_contradicts_text_is_checked(tmp_path, names, message):
    text = edit(minimal_text(), AMBIG, AMBIG + f"    contradicts_text: {names}\n")
    path = write(tmp_path, text)
    found = [d for d in errors(path) if d.code == "E414"]
    assert len(found) == 1 and message in found[0].message
    line, col = where(text, names)
    assert (found[0].span.line, found[0].span.col) == (line, col + 1)


def test_lab_marks_a_contradicted_reading():
    from interpreter.lab.ambiguities import ambiguity_lab
    rep = ambiguity_lab("games/stun.yaml", 2, 20, 1, only=["stun_plus_eligibility"])
    d = rep.as_dict()["ambiguities"][0]["interpretations"]
    assert [r["contradicts_text"] for r in d] == [True]


# ---- traceability: "encoded" must be true ------------------------------------------------------------
def test_a_one_word_fragment_marks_no_paragraph():
    """Stunt Academy's "This consists of 4 points in the first ... semester." marked eight paragraphs
    through "semester"; a cut quote's piece now needs words enough to say which paragraph it is."""
    spec = load_spec("games/stunt-academy.yaml")[0]
    marked = [p for p in trace(spec) if any(w.startswith("examples.minimum_per_semester") or
                                              w == "examples" for w in p.encoded_by)]
    by_semester = [p for p in trace(spec) if "semester" in p.text.lower() and p.encoded_by]
    for p in by_semester:  # each paragraph marked is one a quote of it really encodes
        assert any(len(f.split()) >= 3 for f in _pieces_matching(spec, p)), p.text
    assert len(marked) <= 2


def _pieces_matching(spec, para):
    from interpreter.lab.trace import _norm, _pieces, _quotes
    n = _norm(para.text)
    return [f for where, q in _quotes(spec.doc.data) if where in para.encoded_by for f in _pieces(q) if f in n
            or n in f]


def test_short_ambiguous_piece_of_a_cut_quote_is_not_a_match(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text("The first semester begins.\nAnother semester ends here.\nA rule about cards and chips.\n")
    text = edit(minimal_text(), "  players: {min: 2, max: 4}\n",
                "  players: {min: 2, max: 4}\n  rulebook: {source: book.txt}\n  rule: \"A rule about cards ... semester\"\n")
    spec = load_spec(write(tmp_path, text))[0]
    status = {p.line: p.status for p in trace(spec)}
    assert status == {1: "not encoded", 2: "not encoded", 3: "encoded"}


# ---- every quote is the rulebook's words ---------------------------------------------------------------
@pytest.mark.parametrize("path", SHIPPED, ids=os.path.basename)
def test_shipped_quotes_are_verbatim(path):
    assert misquotes(load_spec(path)[0]) == []


def test_the_stun_typo_is_quoted_as_printed():
    spec = load_spec("games/stun.yaml")[0]
    assert spec.procedures["stunned"].rule.startswith("It a player turns up a STUN CARD")


def test_a_misquote_is_a_positioned_warning(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text("It a player turns up a STUN CARD during the turn,\nthen the turn ENDS.\n- A list item.\n"
                    "A bomb takes your cards.\n")
    text = edit(minimal_text(), "  players: {min: 2, max: 4}\n",
                "  players: {min: 2, max: 4}\n  rulebook: {source: book.txt}\n")
    text = edit(text, "  stop:\n    when:", "  stop:\n    rule: \"If a player turns up a STUN CARD\"\n    when:")
    text = edit(text, "  draw:\n    when:", "  draw:\n    rule: \"It a player turns up a STUN CARD during the turn, then the turn ENDS. A list item.\"\n    when:")
    path = write(tmp_path, text)
    found = misquote_findings(load_spec(path)[0])
    assert [d.code for d in found] == ["W520"]
    assert found[0].severity is Severity.WARNING
    assert (found[0].span.line, found[0].span.col) == where(text, '"If a player')
    assert "if a player turns up a stun card" in found[0].message


# ---- narration that would show hidden content ------------------------------------------------------------
def test_narrating_a_sum_of_a_hidden_hand_is_flagged(tmp_path):
    text = edit(minimal_text(), "      move card to me.hand\n",
                "      move card to me.hand\n      say \"{me} holds {total_of(me)} points and {count(me.hand)} cards: {me.hand}\"\n")
    path = write(tmp_path, text)
    found = hidden_hole_findings(load_spec(path)[0])
    assert [d.code for d in found] == ["W521"]  # the sum (through a function); not the count, not the cards
    assert (found[0].span.line, found[0].span.col) == where(text, "total_of(me)}")


@pytest.mark.parametrize("path", SHIPPED, ids=os.path.basename)
def test_shipped_specs_narrate_no_hidden_numbers(path):
    assert audit(load_spec(path)[0]) == []


# ---- finders look with more than random players -----------------------------------------------------------
def test_lint_finds_what_only_careful_players_reach():
    spec = "tests/specs/timid.yaml"
    random_only = lint(spec, 2, 60, 1, {}, {}, also=())
    careful = lint(spec, 2, 60, 1, {}, {})
    assert not [d for d in random_only if d.code == "W511"]
    found = [d for d in careful if d.code == "W511"]
    assert found and "above its maximum 19" in found[0].message and "--agent 1=" in found[0].hint


def test_invariants_benchmark_seats_careful_agents():
    from benchmarks.invariants import agent_for
    picks = [agent_for(s, 0.5, ("cautious", "greedy:2")) for s in range(200)]
    assert {"random", "cautious", "greedy:2"} == set(picks)
    assert {agent_for(s, 0.0, ("cautious",)) for s in range(50)} == {"random"}


def test_cautious_agent_is_registered_and_replays():
    from interpreter.lab.runner import play
    game = load_game("games/stun.yaml")
    a = play(game, 3, 4, dict.fromkeys(range(3), "cautious"))
    b = play(game, 3, 4, dict.fromkeys(range(3), "cautious"))
    assert a.status is Status.FINISHED and a.choices == b.choices


# ---- STUN: six players, an empty centre -------------------------------------------------------------------
def test_six_player_two_chip_rule_with_one_chip_left_does_not_crash():
    """The audit's position, played through the engine: no rule error, the reading named."""
    from interpreter.runtime.scenarios import run_examples
    spec = load_spec("games/stun.yaml")[0]
    assert "empty_centre" in spec.ambiguities and spec.ambiguities["empty_centre"].why
    results = {r.name: r for r in run_examples(spec)}
    for name in ("empty_centre_two_chip_rule", "empty_centre_chip_from_a_player", "empty_centre_twice_in_a_turn"):
        assert results[name].ok, results[name].message


def test_stun_readings_are_named_with_why():
    spec = load_spec("games/stun.yaml")[0]
    for name in ("lost_chips", "win_timing", "empty_centre", "stun_minus_and_stun", "reshuffle", "stun_minus_own_pile",
                 "stun_plus_chip_and_stun", "dead_end_winner"):
        assert spec.ambiguities[name].why, name
    assert {"dead_end", "promotion_cards"} <= set(spec.assumptions) and "no_card_left" not in spec.assumptions


# ---- Stunt Academy: no "last card of the second deck" when there was no second deck ---------------------
def _example_log(path: str, name: str) -> list[dict]:
    from interpreter.runtime.engine import Game
    from interpreter.runtime.scenarios import _given, _pick
    spec = load_spec(path)[0]
    ex = spec.examples[name]
    game = Game(spec, ex.options, ex.readings)
    st = game.new_game(ex.players, ex.seed, log=True, hook=_given(game, ex))
    for want in ex.do:
        st.apply(_pick(st, want))
    return st.log


def test_no_second_deck_is_not_narrated_as_revealed():
    says = [e["text"] for e in _example_log("games/stunt-academy.yaml",
                                            "first_deck_used_up_with_an_empty_discard_pile") if e["e"] == "say"]
    assert "The first deck is used up: the discard pile becomes the draw pile without shuffling (0 cards)." in says
    assert "The semester ends after this turn." in says
    assert not any("second deck is revealed" in t for t in says)


# ---- Stunt Pack: readings and assumptions said aloud -------------------------------------------------------
PACK = "games/first-in-flight-stunt-pack.yaml"


def _stunt_step_labels(readings: dict) -> list[str]:
    """The labels of the first decision inside a Stunt attempt (after one card), under `readings`."""
    from interpreter.runtime.engine import Game
    from interpreter.runtime.scenarios import _given, _pick
    spec = load_spec(PACK)[0]
    ex = spec.examples["descending_during_a_stunt_loses"]
    game = Game(spec, ex.options, {**ex.readings, **readings})
    st = game.new_game(ex.players, ex.seed, hook=_given(game, ex))
    for want in ["fly", "attempt the Horse Race", "flip the next card"]:
        st.apply(_pick(st, want))
    return st.decision().labels


def test_voluntary_descend_during_a_stunt_is_a_named_reading():
    a = load_spec(PACK)[0].ambiguities["descend_by_choice_in_stunt"]
    assert a.default == "offered" and a.why
    assert "descend (the Stunt fails)" in _stunt_step_labels({})
    assert "descend (the Stunt fails)" not in _stunt_step_labels({"descend_by_choice_in_stunt": "only_when_forced"})


def test_stunt_pack_assumptions_and_contradicted_reading():
    spec = load_spec(PACK)[0]
    assert {"unpayable_penalty", "reward_without_flaw"} <= set(spec.assumptions)
    assert spec.ambiguities["stunt_window"].contradicts_text == ("after_first_card",)
    from interpreter.runtime.scenarios import run_examples
    results = {r.name: r for r in run_examples(spec)}
    for name in ("a_lost_race_with_nothing_to_pay_costs_nothing", "a_reward_upgrade_comes_without_a_flaw",
                 "descend_only_when_the_deck_runs_out"):
        assert results[name].ok, results[name].message


def test_stunt_academy_zero_best_collection_follows_the_text():
    a = load_spec("games/stunt-academy.yaml")[0].ambiguities["zero_best_collection"]
    assert a.default == "bonus" and a.why


def test_an_ambiguity_without_why_is_flagged(tmp_path):
    from interpreter.lab.audit import unexplained_default_findings
    path = write(tmp_path, minimal_text())  # bomb_rule has no why
    found = unexplained_default_findings(load_spec(path)[0])
    assert [d.code for d in found] == ["W522"] and "bomb_rule" in found[0].message
    text = edit(minimal_text(), AMBIG, AMBIG + "    why: \"A bomb takes every card, as the sentence says.\"\n")
    assert unexplained_default_findings(load_spec(write(tmp_path, text, "b.yaml"))[0]) == []


@pytest.mark.parametrize("path", sorted(__import__("glob").glob("games/*.yaml")), ids=os.path.basename)
def test_every_shipped_spec_passes_its_examples(path):
    """A variant inherits its base's examples: stun-short.yaml plays for 3 chips, so the base's six-player
    examples (four chips each) say that they are 5-chip games."""
    from interpreter.runtime.scenarios import run_examples
    failed = [(r.name, r.message) for r in run_examples(load_spec(path)[0]) if not r.ok]
    assert failed == []


# ---- the second audit (issue 30): lint finds a dead branch and an empty guard, generally -------------------
def _old_stun(tmp_path) -> tuple[str, str]:
    """games/stun.yaml with the guard and the branch of its old assumption no_card_left put back."""
    text = open("games/stun.yaml", encoding="utf-8").read()
    text = text.replace("source: ../rulebooks/", f"source: {os.path.abspath('rulebooks')}/")
    text = edit(text, "TOUCH the draw pile, you MUST turn over the next card.\"\n    do: flip()\n",
                "TOUCH the draw pile, you MUST turn over the next card.\"\n"
                "    when: count(draw) + count(discard) > 0\n    do: flip()\n")
    text = edit(text, "a new draw pile.\"\n      let card = top(draw)\n",
                "a new draw pile.\"\n      if count(draw) == 0:\n        say \"There is no card left to turn up.\"\n"
                "        end turn\n      let card = top(draw)\n")
    return write(tmp_path, text, "stun.yaml"), text


def test_lint_finds_the_dead_branch_and_the_empty_guard(tmp_path):
    path, text = _old_stun(tmp_path)
    found = lint(path, 2, 20, 1, {}, {}, also=(), other_games=2)
    dead = [d for d in found if d.code == "W502"]
    empty = [d for d in found if d.code == "W503"]
    assert [(d.span.line, d.span.col) for d in dead] == [where(text, "count(draw) == 0:\n        say \"There is no card")]
    assert "under every reading, option value and player count" in dead[0].message
    assert [(d.span.line, d.span.col) for d in empty] == [where(text, "count(draw) + count(discard) > 0")]
    assert "'flip'" in empty[0].message
    # the shipped spec has neither; its rare branches are named by what runs them
    shipped = lint("games/stun.yaml", 2, 20, 1, {}, {}, also=(), other_games=2)
    assert not [d for d in shipped if d.code in ("W502", "W503")]
    notes = {d.span.line: d.note for d in shipped if d.code == "W501"}
    assert "it runs with example dead_end_has_no_winner" in notes.values()
    assert "it runs with --reading reshuffle=when_needed" in notes.values()


def test_an_example_of_the_position_clears_a_guard(tmp_path):
    """No Thanks!'s `when: count(me.chips) > 0` holds in most random games; its example of a player
    without chips is the position it is for."""
    found = lint("games/no_thanks.yaml", 3, 10, 1, {}, {}, also=(), other_games=1)
    assert not [d for d in found if d.code == "W503"]
    no_examples = lint("games/no_thanks.yaml", 3, 10, 1, {}, {}, also=(), other_games=0)
    assert not [d for d in no_examples if d.code == "W502"]  # without the sweep lint claims no dead branch


# ---- the six-player dead end: no legal game stalls -------------------------------------------------------
@pytest.mark.parametrize("policy", ["random", "last"])
def test_no_six_player_stun_game_stalls(policy):
    """The audit: 5 in 100 six-player games stalled under random play, 18 in 100 under stop-after-the-first-
    card (the lab policy `last`). benchmarks/stalls.py plays 2,000 of each."""
    from benchmarks.stalls import measure
    r = measure("games/stun.yaml", 6, 300, 7, policy)
    assert (r["stalled"], r["errors"]) == (0, 0)
    assert r["no_winner"] > 0  # the dead end is reached, and ends the game


def test_the_audits_stalled_game_ends_in_the_dead_end():
    """`rulewright run games/stun.yaml -p 6 --seed 4907756453613738681` under the readings the spec played
    then: it stalled after 560 turns; now it ends when the 260th turn would start."""
    from interpreter.lab.runner import play
    game = load_game("games/stun.yaml", readings={"stun_minus_and_stun": "where_it_lies",
                                                  "stun_minus_own_pile": "this_turns_cards",
                                                  "stun_plus_chip_and_stun": "always_lost"})
    st = play(game, 6, 4907756453613738681)
    assert (st.status, st.winners, st.turn) == (Status.FINISHED, [], 260)
    most = load_game("games/stun.yaml", readings={"stun_minus_and_stun": "where_it_lies",
                                                  "stun_minus_own_pile": "this_turns_cards",
                                                  "stun_plus_chip_and_stun": "always_lost",
                                                  "dead_end_winner": "most_chips"})
    assert play(most, 6, 4907756453613738681).winners == [0, 1]  # P1 and P2, 4 chips each


def test_last_is_a_lab_policy():
    from interpreter.agents.registry import make_agent
    agent = make_agent("last", 1, 0)
    st = load_game("games/stun.yaml").new_game(2, 3)
    labels = []
    while st.status is Status.RUNNING:
        i = agent.pick(st)
        assert i == len(st.popts) - 1
        labels.append(st.labels()[i])
        st.apply(i)
    assert st.status is Status.FINISHED and "stop and keep the cards" in labels
    assert "turn up a card" not in labels  # after the forced first card it always stops


# ---- explain: every paragraph accounted for ---------------------------------------------------------------
@pytest.mark.parametrize("path", SHIPPED, ids=os.path.basename)
def test_every_paragraph_of_a_shipped_rulebook_is_accounted_for(path):
    spec = load_spec(path)[0]
    missing = [(p.line, p.text) for p in trace(spec) if p.status == "not encoded"]
    assert missing == []
    assert "**0 not accounted for**" in explain(spec)


def test_the_audits_four_real_sentences_of_stunt_academy():
    """Lines 14, 18 and 47 are rules the spec encodes (now quoted by them); line 33 is an editor's note."""
    status = {p.line: p for p in trace(load_spec("games/stunt-academy.yaml")[0])}
    assert [status[n].status for n in (14, 18, 33, 47)] == ["encoded", "encoded", "noted", "encoded"]
    assert "neutral_names" in status[33].note
    assert 27 not in status  # a lone list dash is layout


def test_notes_layout_and_short_flavour(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text("Exams\n-\n|---|---|\nExams are held at the end.\nA note from the editor about the exams.\n"
                    "| Round | Points |\n")
    text = edit(minimal_text(), "  players: {min: 2, max: 4}\n",
                "  players: {min: 2, max: 4}\n  rulebook:\n    source: book.txt\n    flavour: [\"Exams\"]\n"
                "    notes:\n      - {text: \"A note from the editor about the exams. ... | Round | Points |\", "
                "why: \"Commentary.\"}\n")
    spec = load_spec(write(tmp_path, text))[0]
    status = {p.line: p.status for p in trace(spec)}
    # "Exams" is the heading, not a word of line 4; lines 2 and 3 are layout; both pieces of the note count
    assert status == {1: "flavour", 4: "not encoded", 5: "noted", 6: "noted"}
    md = explain(spec)
    assert "1 not accounted for" in md and "| 5 | A note from the editor about the exams. | noted | Commentary. |" in md
    assert "(the note at line 5)" in md
    notes = lambda s: [w for _at, w, _piece in misquotes(s) if w == "game.rulebook.notes"]  # noqa: E731
    assert notes(spec) == []  # the note is the rulebook's words, as every quote must be
    bad = edit(text, "A note from the editor", "A note by the editor")
    assert notes(load_spec(write(tmp_path, bad, "b.yaml"))[0]) == ["game.rulebook.notes"]


def test_stun_minus_on_any_pile_is_narrated():
    """stun_minus_target any_pile: the narration says where the STUN MINUS went, either way."""
    from interpreter.runtime.engine import Game
    from interpreter.runtime.scenarios import _given
    spec = load_spec("games/stun.yaml")[0]
    ex = spec.examples["stun_minus_on_another_pile"]
    for choice, said in (("my own count", "P1 keeps the STUN MINUS among this turn's cards."),
                         ("P2's held pile", "P1 puts the STUN MINUS on P2's held pile (now 4).")):
        game = Game(spec, {}, {"stun_minus_target": "any_pile"})
        st = game.new_game(3, ex.seed, log=True, hook=_given(game, ex))
        st.apply(st.labels().index("turn up a card"))
        st.apply(st.labels().index(choice))
        assert said in [e["text"] for e in st.log if e["e"] == "say"]
