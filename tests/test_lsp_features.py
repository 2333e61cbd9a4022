"""The language server's features as plain functions (interpreter/lsp/features.py), without the protocol.

tests/test_lsp.py drives the same features over JSON-RPC; these cover the cases that are
quicker to state directly: errors in a variant's base, a document that stops loading, names
in parameters and examples.
"""
from __future__ import annotations

import os

from interpreter.lsp import features as F
from interpreter.runtime.pipeline import analyse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _ws(rel: str, text: str | None = None) -> F.Workspace:
    path = os.path.join(ROOT, rel)
    text = open(path, encoding="utf-8").read() if text is None else text
    ws = F.Workspace(path)
    ws.update(text, analyse(path, text))
    return ws


def _at(ws: F.Workspace, line_has: str, at: str, after: int = 0) -> tuple[int, int]:
    for i, ln in enumerate(ws.text.splitlines(), start=1):
        if line_has in ln:
            return i, ln.index(at) + 1 + after
    raise AssertionError(line_has)


def test_an_error_in_the_base_is_shown_at_extends():
    ws = _ws("tests/variants/error_in_base_text.yaml")
    diags = F.diagnostics(ws)
    assert diags and all(d.span.path == ws.path for d in diags)
    assert diags[0].span.line == 1 and "base.yaml" in diags[0].message  # `extends:` is line 1
    assert diags[0].code == "E403"


def test_names_survive_a_broken_edit():
    ws = _ws("games/stun.yaml")
    good = ws.text
    ws.update(good + "\n  broken: [\n", analyse(ws.path, good + "\n  broken: [\n"))
    assert ws.analysis.doc is None and ws.index is not None  # the YAML no longer loads
    assert [d.code for d in F.diagnostics(ws)] == ["E101"]
    items = {i.label for i in F.complete(ws, *_at(ws, "move me.pile to me.held", "held"))}
    assert {"held", "pile", "chips"} <= items


def test_parameters_and_turn_variables_complete():
    ws = _ws("games/stun.yaml")
    line, col = _at(ws, "me.chips -= turn.won", "won")
    assert {"won", "flips"} <= {i.label for i in F.complete(ws, line, col)}
    items = F.complete(ws, *_at(ws, "let eligible = count([p in others", "count"))
    assert "eligible" in {i.label for i in items if i.kind == "local"}


def test_hover_of_a_name_shows_its_declaration_and_the_rule():
    ws = _ws("games/stun.yaml")
    text = F.hover(ws, *_at(ws, "move me.pile to me.held", "held", 1))
    assert "player zone" in text and "declared at" in text and "Rulebook" in text


def test_definition_of_a_builtin_is_none_and_symbols_skip_the_base():
    ws = _ws("games/stun.yaml")
    assert F.definition(ws, *_at(ws, "{sum(me.held", "sum", 1)) is None
    short = _ws("games/stun-short.yaml")
    names = [s.name for s in F.symbols(short)]
    assert names == ["extends", "set", "examples"]  # what the variant itself says, not its base


def test_fields_follow_the_kind_of_what_is_before_the_dot():
    ws = _ws("games/stun.yaml")
    # `me` is a player: its variables and zones, not card properties
    player = {i.label for i in F.complete(ws, *_at(ws, "move me.pile to me.held", "pile"))}
    assert {"pile", "held", "chips", "seat"} <= player and "points" not in player
    # `card` (a procedure parameter) is a card, even while the text is broken
    line, col = _at(ws, "move card to me.pile", "card")
    broken = ws.text.splitlines()
    broken[line - 1] = broken[line - 1][:col - 1] + "move card."
    text = "\n".join(broken) + "\n"
    ws.update(text, analyse(ws.path, text))
    assert ws.analysis.spec is None  # a syntax error now
    card = {i.label for i in F.complete(ws, line, col + len("move card."))}
    assert {"points", "kind", "type"} <= card and "chips" not in card


def test_every_feature_answers_a_document_cut_anywhere():
    """A document cut off at any point (as while typing) never makes a feature raise."""
    import random
    full = open(os.path.join(ROOT, "games", "stun.yaml"), encoding="utf-8").read()
    ws = F.Workspace(os.path.join(ROOT, "games", "stun.yaml"))
    rng = random.Random(7)
    for cut in sorted(rng.sample(range(len(full)), 25)):
        text = full[:cut]
        ws.update(text, analyse(ws.path, text))
        F.diagnostics(ws)
        F.symbols(ws)
        lines = text.splitlines() or [""]
        for _ in range(4):
            line = rng.randrange(len(lines)) + 1
            col = rng.randrange(len(lines[line - 1]) + 1) + 1
            F.complete(ws, line, col)
            F.hover(ws, line, col)
            F.definition(ws, line, col)


def test_a_name_in_a_turns_action_list_is_the_action():
    ws = _ws("games/stun.yaml")
    span = F.definition(ws, *_at(ws, "actions: [flip, stop]", "flip"))
    assert span is not None and ws.text.splitlines()[span.line - 1].strip() == "flip:"
    assert ws.text.splitlines()[span.line - 2].strip() == "actions:"  # the action, not the procedure `flip`
