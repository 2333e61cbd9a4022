"""interpreter/lab/whynot.py: why an action is not offered, without a value the player may not see (issue 23).

An action whose `when:` reads the hidden deck (`top(deck).kind == "coin"`) once had `why` print
`top(deck).kind = bomb`: the top card of the deck. Now such a name is listed as hidden, the
game itself is not changed by the explanation, and `rulewright lint` warns of the `when:` (W523).
"""
from __future__ import annotations

from click.testing import CliRunner

from interpreter.api import check_spec
from interpreter.cli.commands import cli
from interpreter.lab.audit import hidden_condition_findings
from interpreter.lab.whynot import unavailable
from interpreter.runtime.engine import Game, Status

from helpers import edit, minimal_text, show, write

PEEKING = "    when: count(deck) > 0 and top(deck).kind == \"coin\" and me.score > 0\n"


def _spec_text() -> str:
    t = edit(minimal_text(), "    when: count(deck) > 0\n", PEEKING)
    t = edit(t, "    actions: [draw, stop]\n", "    actions: [draw, stop, pass]\n")
    return edit(t, "  stop:\n", "  pass:\n    do: end turn\n  stop:\n")


def _refused_state(tmp_path):
    spec, diags = check_spec(write(tmp_path, _spec_text()))
    assert spec is not None, show(diags)
    g = Game(spec)
    for seed in range(200):
        st = g.new_game(2, seed)
        refused = [w for w in unavailable(st) if w.action == "draw"]
        if refused and len(refused[0].reasons) == 2:  # a bomb on top
            return g, spec, st, seed
    raise AssertionError("no deal with a bomb on top")


def test_why_not_lists_a_hidden_value_as_hidden(tmp_path):
    g, spec, st, _ = _refused_state(tmp_path)
    before = (st.steps, st.work, [z[:] for z in st.zones])
    (w,) = [w for w in unavailable(st) if w.action == "draw"]
    assert w.reasons == ['`top(deck).kind == "coin"` is false', "`me.score > 0` is false"]
    assert "top(deck).kind = (hidden from you)" in w.values
    assert not any("bomb" in v or "coin" in v for v in w.values if "hidden" not in v), w.values
    assert "me.score = 0" in w.values  # what the player may see is still shown
    assert (st.steps, st.work, st.zones) == before  # explaining does not change the game


def test_the_terminal_why_prints_no_hidden_card(tmp_path):
    g, spec, st, seed = _refused_state(tmp_path)
    path = str(tmp_path / "spec.yaml")
    seat = st.pplayer + 1
    r = CliRunner().invoke(cli, ["play", path, "--seat", str(seat), "-p", "2", "--seed", str(seed)],
                           input="why\nquit\n")
    assert r.exit_code == 0, r.output
    why = r.output[r.output.index("is not allowed"):]
    assert "top(deck).kind = (hidden from you)" in why and "= bomb" not in why


def test_lint_warns_of_a_when_that_reads_hidden_cards(tmp_path):
    spec, _ = check_spec(write(tmp_path, _spec_text()))
    (d,) = hidden_condition_findings(spec)
    assert d.code == "W523" and d.message == ("the `when:` of action 'draw' reads the cards of `deck`, which the "
                                              "acting player may not see")
    text = _spec_text()
    line = text[:text.index(PEEKING)].count("\n") + 1
    assert (d.span.line, d.span.col) == (line, PEEKING.index("top(deck)") + len("top(") + 1)
    r = CliRunner().invoke(cli, ["lint", str(tmp_path / "spec.yaml"), "-g", "2", "--with", "none"])
    assert "warning[W523]: the `when:` of action 'draw' reads the cards of `deck`" in r.stderr, r.output


def test_own_hand_and_counts_are_not_hidden(tmp_path):
    t = edit(minimal_text(), "    when: count(deck) > 0\n",
             "    when: count(deck) > 0 and count([c in me.hand where c.kind == \"bomb\"]) == 0\n")
    spec, diags = check_spec(write(tmp_path, t))
    assert spec is not None, show(diags)
    assert hidden_condition_findings(spec) == []
