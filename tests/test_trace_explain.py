"""Traceability and `explain`: every rulebook paragraph is encoded, flavour, or flagged."""
from click.testing import CliRunner

from interpreter.api import load_spec
from interpreter.cli.commands import cli
from interpreter.lab.trace import _fragments, trace


def test_fragments_split_on_ellipsis_and_drop_short_pieces():
    assert _fragments("Select a dealer by a fair method. ... The player to the left goes first.") == [
        "select a dealer by a fair method", "the player to the left goes first"]
    assert _fragments("a ... b") == []


def test_stun_rulebook_is_fully_accounted_for():
    spec, _ = load_spec("games/stun.yaml")
    paras = trace(spec)
    missing = [(p.line, p.text) for p in paras if p.status == "not encoded"]
    assert not missing, missing
    by_line = {p.line: p for p in paras}
    assert "examples.two_chip_rule" in by_line[78].encoded_by  # the 2 CHIP RULE
    assert by_line[3].status == "flavour"  # "Fun Games"


def test_a_paragraph_no_rule_quotes_is_flagged(tmp_path):
    text = open("games/stun.yaml", encoding="utf-8").read().replace(
        '"STRATEGY HlNT: Since players want to get to 15 without getting a STUN CARD, try not to take too many '
        'Chip Cards during a single turn."', '"nothing"')
    # the rulebook beside the copy: a spec reads rulebook text only in its own folder or project (spec/files.py)
    text = text.replace("source: ../rulebooks/stun-card-game.txt", "source: stun-card-game.txt")
    (tmp_path / "stun-card-game.txt").write_text(open("rulebooks/stun-card-game.txt", encoding="utf-8").read(),
                                                 encoding="utf-8")
    p = tmp_path / "stun.yaml"
    p.write_text(text)
    spec, _ = load_spec(str(p))
    flagged = [x.line for x in trace(spec) if x.status == "not encoded"]
    assert flagged == [53]


def test_explain_markdown_has_rules_quotes_and_traceability():
    res = CliRunner().invoke(cli, ["explain", "games/stun.yaml"])
    assert res.exit_code == 0
    md = res.stdout
    assert md.startswith("# STUN")
    assert "## Ambiguities" in md and "### stun_plus_eligibility" in md and "**(default)**" in md
    assert "0 not accounted for" in md
    assert "> 2 CHIP RULE" not in md  # examples are not rules in the rule listing
    assert "| 78 | 5. 2 CHIP RULE" in md


def test_explain_measure_shows_verdicts():
    res = CliRunner().invoke(cli, ["explain", "tests/specs/race.yaml", "--measure", "-p", "2", "-g", "100"])
    assert res.exit_code == 0, res.output
    assert "**Verdict: material.**" in res.stdout and "**Verdict: unreachable.**" in res.stdout


def test_explain_a_game_without_cards_says_so():
    from interpreter.lab.explain import explain
    text = explain(load_spec("games/tic_tac_toe.yaml")[0])
    assert "No cards." in text and "No zones." in text
    assert "| card | count |" not in text and "Total: 0 cards" not in text
    assert "| card | count |" in explain(load_spec("games/stun.yaml")[0])
