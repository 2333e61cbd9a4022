"""interpreter/codegen.py: the generated Python means what the rules say.

Each expression's generated code is checked against the value Python
computes from the state by hand, on positions reached by random play; every
shortcut the code generator takes (a sum kept per zone, "some player has
..." read off a variable's row, a top card without a call, plain `*`, `//`
and `%` where no limit can be met, emptiness without `len`, a function
inlined) is also checked against the generator's general form, which spells
each builtin out as a call of its `run` function. Agents deciding inside the
run must give the very same games as the decision()/apply() loop.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as hs

from interpreter.api import load_game
from interpreter.lang.builtins import RuleError
from interpreter.compile.compiler import Compiler
from interpreter.agents.determinize import determinize
from interpreter.runtime.engine import Status
from interpreter.lab.runner import make_agents, play

from helpers import compiled_forms, edit, generated_source, minimal_text, random_walk, write

EXPRESSIONS = [
    "count([p in players where p.score >= 1]) > 0",
    "count([p in players where p.score > 2]) >= 1",
    "count([p in players where p.score <= 0]) != 0",
    "count([p in players where p.score < 1]) == 0",
    "count([p in players where p.score == 1]) > 0",
    "count([p in players where p.score >= count(p.hand)]) > 0",  # the bound reads the player: no shortcut
    "count([p in players where p.score >= me.score]) > 0",
    "highest(players, score)",
    "lowest(players, score)",
    "count(deck) == 0",
    "count(me.hand) > 0",
    "count(discard) != 0",
    "first(deck, 2)",
    "last(deck)",
    "last(deck, 3)",
    "position(discard, top(deck))",
    "after(deck, top(discard))",
    "count(deck) // count(discard)",
    "count(deck) % count(players)",
    "count(deck) % 4",
    "count(players) * 7",
    "count(deck) * 3",
    "top(me.hand)",
    "top(deck)",
    "sum(deck, points) + sum(me.hand, points) + sum(discard, points)",
    "reading.bomb_rule == \"all_cards\" and count(deck) > 0",
    "count(deck) > 0 or reading.bomb_rule == \"last_card\"",
    "1 if reading.bomb_rule == \"all_cards\" else count(deck)",
    "[c.points * 2 for c in deck where c.kind == \"coin\"]",
    "sum([p.score + count(p.hand) for p in players])",
    "let n = count(deck) in if n > 6 then n * 2 elif n > 3 then n else 0",
    "[let k = c.points in k + 1 for c in me.hand]",
    "if count(me.hand) > 1 then \"many\" elif count(me.hand) == 1 then \"one\" else \"none\"",
]


def _spec_with_functions(tmp_path) -> str:
    funcs = "".join(f"  f{i}:\n    value: '{e}'\n" for i, e in enumerate(EXPRESSIONS))
    return write(tmp_path, edit(minimal_text(), "functions:\n", "functions:\n" + funcs))


def _value(f, st):
    try:
        return ("value", f(st, [None] * 8))
    except RuleError:
        return ("rule error", None)


RULE_ERROR = ("rule error", None)


def _by_hand(st) -> list:
    """EXPRESSIONS' values worked out in Python from the state (the minimal spec: zones deck, discard, then
    one hand per seat; `score` the first player variable; the default readings)."""
    points, kind = st.g.props["points"], st.g.props["kind"]
    deck, discard, me, score, seats = st.zones[0], st.zones[1], st.cur, st.pvars[0], list(st.seats)

    def hand(p):
        return st.zones[2 + p]

    def top(z):
        return ("value", z[-1]) if z else RULE_ERROR

    n = len(deck)
    return [("value", v) if not isinstance(v, tuple) else v for v in [
        any(score[p] >= 1 for p in seats), any(score[p] > 2 for p in seats), any(score[p] <= 0 for p in seats),
        not any(score[p] < 1 for p in seats), any(score[p] == 1 for p in seats),
        any(score[p] >= len(hand(p)) for p in seats), any(score[p] >= score[me] for p in seats),
        max(score), min(score), n == 0, len(hand(me)) > 0, len(discard) != 0,
        deck[:2], top(deck), deck[-3:],
        (discard.index(deck[-1]) + 1 if deck[-1] in discard else 0) if deck else RULE_ERROR,
        (deck[deck.index(discard[-1]) + 1:] if discard[-1] in deck else []) if discard else RULE_ERROR,
        n // len(discard) if discard else RULE_ERROR, n % st.n, n % 4, st.n * 7, n * 3,
        top(hand(me)), top(deck),
        sum(points[c] for c in deck + hand(me) + discard),
        n > 0, n > 0, 1,  # the default reading is all_cards
        [points[c] * 2 for c in deck if kind[c] == "coin"],
        sum(score[p] + len(hand(p)) for p in seats),
        n * 2 if n > 6 else n if n > 3 else 0,
        [points[c] + 1 for c in hand(me)],
        "many" if len(hand(me)) > 1 else "one" if len(hand(me)) == 1 else "none",
    ]]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    path = _spec_with_functions(tmp_path_factory.mktemp("codegen"))
    game = load_game(path)
    return game, compiled_forms(game, EXPRESSIONS)


@settings(max_examples=60, deadline=None)
@given(seed=hs.integers(0, 2 ** 32), steps=hs.integers(0, 40), players=hs.integers(2, 4))
def test_generated_expressions_mean_what_python_works_out_by_hand(compiled, seed, steps, players):
    game, forms = compiled
    st = game.new_game(players, seed)
    rng = random.Random(seed)
    random_walk(st, rng, steps)
    for (text, generated, general), want in zip(forms, _by_hand(st), strict=True):
        assert _value(generated, st) == want, text
        assert _value(general, st) == want, f"{text} (without shortcuts)"


def test_the_general_form_takes_no_shortcut(compiled):
    game, _ = compiled
    general = generated_source(game, EXPRESSIONS, shortcuts=False)
    assert general[EXPRESSIONS[0]].startswith("(B_count(") and "max(" not in general[EXPRESSIONS[0]]
    assert general["count(deck) == 0"] == "(B_count(st.zones[0]) == 0)"
    assert general["count(players) * 7"] == "_mul(B_count(st.seats), 7)"
    assert "zsum" not in general["sum(deck, points) + sum(me.hand, points) + sum(discard, points)"]
    assert general["top(deck)"] == "B_top(st, 0)"
    shortcut = generated_source(game, EXPRESSIONS)
    assert sum(general[t] != shortcut[t] for t in EXPRESSIONS) >= 20  # most of them compare two forms


def test_the_shortcuts_are_taken(compiled):
    game, _ = compiled
    src = generated_source(game, EXPRESSIONS)
    assert src[EXPRESSIONS[0]] == "(max(st.pvars[0]) >= 1)"
    assert src[EXPRESSIONS[3]] == "(not (min(st.pvars[0]) < 1))"
    assert "max(" not in src[EXPRESSIONS[5]]
    assert src["count(deck) == 0"] == "(not st.zones[0])"
    assert src["count(players) * 7"] == "(st.n * 7)"
    assert "st.zsum[0]" in src["sum(deck, points) + sum(me.hand, points) + sum(discard, points)"]
    assert src["count(deck) > 0 or reading.bomb_rule == \"last_card\""] == "(not not st.zones[0])"


@pytest.mark.parametrize("spec", ["games/stun.yaml", "games/stunt-academy.yaml", "games/first-in-flight.yaml",
                                  "games/first-in-flight-stunt-pack.yaml"])
def test_agents_deciding_inside_the_run_play_the_same_games(spec):
    game = load_game(spec)
    players = max(game.spec.min_players, 3)
    for seed in range(4):
        fast = play(game, players, seed, log=True)
        assert fast.auto is not None  # the agents decided inside the run
        seated = make_agents({}, players, seed)
        slow = game.new_game(players, seed, log=True)
        while slow.status is Status.RUNNING:
            slow.apply(seated[slow.pplayer].pick(slow))
        assert fast.choices == slow.choices and fast.log == slow.log and fast.status == slow.status


@pytest.mark.parametrize("spec", ["games/stun.yaml", "games/first-in-flight.yaml"])
def test_the_kept_zone_sums_stay_right(spec):
    game = load_game(spec)
    assert game.sum_tables, "the spec sums a property over whole zones"
    for seed in range(5):
        st = play(game, 3, seed, check=True)  # every invariant check recounts the sums
        assert st.status is not Status.ERROR, st.reason
    st = game.new_game(3, 7)
    other = determinize(st, 0, random.Random(1))  # re-dealt hidden cards: sums recounted
    kept = [row[:] for row in other.zsum]
    other.resum()
    assert other.zsum == kept


def test_stale_zone_sums_are_caught_by_the_invariant_check():
    game = load_game("games/stun.yaml")
    st = game.new_game(3, 1, check_invariants=True)
    st.zsum[0][0] += 1
    st.check_invariants()
    assert st.status is Status.ERROR and "zone sums" in st.reason


def test_only_procedures_that_can_call_themselves_go_through_the_engine_loop(tmp_path):
    procs = ("  again:\n    do: |\n      if count(deck) > 5:\n        move top(deck) to discard\n        again()\n"
             "  once:\n    do: again()\n")
    path = write(tmp_path, edit(minimal_text(), "procedures:\n", "procedures:\n" + procs))
    game = load_game(path)
    comp = Compiler(game.spec, game.options, game.readings)
    assert comp.recursive == {"again"}


def test_an_action_that_cannot_pause_runs_without_a_frame_and_its_errors_still_name_it(tmp_path):
    text = edit(minimal_text(), "      me.score += total_of(me)\n", "      me.score += total_of(me)\n"
                "      move top(discard) to deck\n")
    game = load_game(write(tmp_path, text))
    stop = next(prog for name, *_, prog in game._turns[game.ir.phases[0].turn.index].actions if name == "stop")
    assert stop.plain is not None
    for seed in range(20):  # some game stops while the discard pile is still empty
        st = play(game, 2, seed)
        if st.status is Status.ERROR:
            assert "top of discard: the zone is empty" in st.reason and "(in action stop)" in st.reason
            break
    else:
        pytest.fail("no game stopped with an empty discard pile")


def test_a_script_of_choices_is_checked_choice_by_choice():
    # Recorded choices are input: they go through apply(), never through the agents' inline path.
    from interpreter.runtime.engine import IllegalChoice
    game = load_game("games/stun.yaml")
    good = play(game, 3, 5)
    assert play(game, 3, 5, script=good.choices).choices == good.choices
    with pytest.raises(IllegalChoice):
        play(game, 3, 5, script=good.choices[:3] + [-1] + good.choices[4:])


GENERATED = r'''
import sys
from interpreter.api import load_game
from interpreter.compile.compiler import Compiler
game = load_game(sys.argv[1])
c = Compiler(game.spec, game.options, game.readings)
c.compile_all()
junk = [dict(enumerate(range(i))) for i in range(200)]  # other tables come and go between compiles
c2 = Compiler(game.spec, game.options, game.readings)
c2.compile_all()
assert c.gen.source() == c2.gen.source(), "two compiles in one process differ"
print(c.gen.source())
'''


@pytest.mark.parametrize("spec", ["games/mancala.yaml", "games/cant_stop.yaml"])
def test_the_generated_source_is_the_same_in_every_run(spec, tmp_path):
    """Keyed variables' slot tables are one constant per variable: the generated text (and so the
    constants' numbering) does not depend on which memory a table happened to get."""
    script = tmp_path / "gen.py"
    script.write_text(GENERATED)
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    runs = [subprocess.run([sys.executable, str(script), spec], capture_output=True, text=True, env=env,
                           check=True).stdout for _ in range(2)]
    assert "_Keys" not in runs[0] and "K0" in runs[0]
    assert runs[0] == runs[1]


def test_the_generator_runs_every_node_of_the_intermediate_form():
    """The Python generator reads lower/ir.py, as the kernel does: a method for every kind of node (a
    `choose` always pauses, so it is a program's part, `p_`), and statements and flow never read the tree."""
    import ast
    import pathlib

    from interpreter.compile.codegen import PyGen
    from interpreter.lower import ir
    exprs = [c for c in vars(ir).values() if isinstance(c, type) and issubclass(c, ir.X) and c is not ir.X]
    stmts = [c for c in vars(ir).values() if isinstance(c, type) and issubclass(c, ir.S) and c is not ir.S]
    assert len(exprs) > 20 and len(stmts) > 15
    assert [c.__name__ for c in exprs if not hasattr(PyGen, "x_" + c.__name__)] == []
    assert [c.__name__ for c in stmts if not (hasattr(PyGen, "s_" + c.__name__) or hasattr(PyGen, "p_" + c.__name__))] == []
    for part in ("statements", "flow"):
        source = pathlib.Path(__file__).parent.parent / "interpreter" / "compile" / f"{part}.py"
        tree = ast.parse(source.read_text(encoding="utf-8"))
        assert "nodes" not in {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}


def test_the_engine_builds_its_flow_from_the_lowered_game():
    """Phases, their turns and their conditions come from the compiler's `ir.Game` (the one the kernel reads):
    two phases that play the game's turn share its programs, each action runs its lowered block, the phase
    names shown are the spec's, and engine.py reads no flow of the spec model."""
    import ast
    import pathlib

    from interpreter.runtime.engine import Game
    from interpreter.runtime.pipeline import check_spec
    heaps = "tests/specs/heaps.yaml"
    text = pathlib.Path(heaps).read_text().replace(
        "    actions: [pick, meld, row]\n",
        "    actions: [pick, meld, row]\n  phases:\n    - name: early\n      until: count(heap) < 4\n    - name: late\n")
    spec, diags = check_spec(heaps, text)
    assert spec is not None, [d.message for d in diags]
    game = Game(spec)
    early, late = game.ir.phases
    assert (early.name, late.name) == ("early", "late") and early.turn is not late.turn
    assert early.turn.index == late.turn.index and list(game._turns) == [early.turn.index]
    assert [prog.code for *_, prog in game._turns[early.turn.index].actions] == \
        [a.block.code for a in early.turn.actions]
    st = game.new_game(2, 1, log=True)
    rng = random.Random(3)
    while st.status is Status.RUNNING:
        st.apply(rng.randrange(st.option_count))
    assert [e["phase"] for e in st.log if e["e"] == "phase"] == ["early", "late"]
    source = pathlib.Path(__file__).parent.parent / "interpreter" / "runtime" / "engine.py"
    flow = {"phases", "turn", "first", "end_when", "end_check", "winners", "skip_if", "score", "while_", "until",
            "teams", "invariants"}
    read = {n.attr for n in ast.walk(ast.parse(source.read_text(encoding="utf-8")))
            if isinstance(n, ast.Attribute) and isinstance(n.value, (ast.Name, ast.Attribute))
            and (n.value.id if isinstance(n.value, ast.Name) else n.value.attr) == "spec"}
    assert read & flow == set()
