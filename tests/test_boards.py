"""Boards (interpreter/lang/boards.py): grids of cells, their builtins, diagnostics, and the board games.

The geometry (names, neighbours, lines that stop at the edge), both compilers agreeing on every board
builtin, what `check` sees (E470-E474) and what it leaves to run time (a positioned E600), a board
sized by an option, and the two board games of the corpus (Tic-tac-toe, Connect Four) played to the
end with their invariants checked. OpenSpiel lockstep for them is in test_openspiel_lockstep.py.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as hs

from interpreter import api
from interpreter.lab.runner import play
from interpreter.lang.boards import Board, line_of, step_of
from interpreter.lang.builtins import RuleError
from interpreter.runtime.engine import Game, Status
from interpreter.runtime.scenarios import run_examples
from helpers import compiled_forms, generated_source, random_walk

from spec_helpers import errors, failed_examples, write

BOARD_GAMES = {"games/tic_tac_toe.yaml": 2, "games/connect_four.yaml": 2, "games/dots_and_boxes.yaml": 2}


# -- geometry -----------------------------------------------------------------------------------------
def test_cells_are_named_by_column_letter_and_row_from_the_top_left():
    b = Board("grid", "the grid", 6, 7, 0)
    assert [c.name for c in b.cells[:8]] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "a2"]
    assert str(b.cell(6, 7)) == "g6" and (b.cell(6, 7).row, b.cell(6, 7).column) == (6, 7)
    with pytest.raises(RuleError, match=r"cell\(grid, 7, 1\) is off the board: grid has 6 rows and 7 columns"):
        b.cell(7, 1)


@pytest.mark.parametrize("at, orthogonal, diagonal", [
    ((1, 1), ["b1", "a2"], ["b2"]),
    ((2, 2), ["b1", "a2", "c2", "b3"], ["a1", "c1", "a3", "c3"]),
    ((3, 2), ["b2", "a3", "c3"], ["a2", "c2"]),
], ids=["corner", "middle", "bottom edge"])
def test_neighbours_and_diagonals_never_leave_the_board(at, orthogonal, diagonal):
    b = Board("grid", "grid", 3, 3, 0)
    c = b.cell(*at)
    assert [x.name for x in b.orthogonal[c.index]] == orthogonal
    assert [x.name for x in b.diagonal[c.index]] == diagonal


def test_lines_stop_at_the_edge_and_steps_off_it_are_rule_errors():
    b = Board("grid", "grid", 6, 7, 0)
    assert [x.name for x in line_of(b.cell(1, 1), "down right", 4)] == ["a1", "b2", "c3", "d4"]
    assert [x.name for x in line_of(b.cell(5, 6), "down right", 4)] == ["f5", "g6"]
    assert [x.name for x in line_of(b.cell(3, 4), "up")] == ["d3", "d2", "d1"]
    assert line_of(b.cell(3, 4), "up", 0) == []
    assert step_of(b.cell(2, 2), "up left").name == "a1"
    with pytest.raises(RuleError, match="leaves the board"):
        step_of(b.cell(1, 1), "up")
    with pytest.raises(RuleError, match="not a direction"):
        line_of(b.cell(1, 1), "sideways")


def test_cells_of_two_boards_are_never_equal():
    a, b = Board("a", "a", 2, 2, 0), Board("b", "b", 2, 2, 1)
    assert a.cell(1, 1) != b.cell(1, 1) and a.cell(1, 1) == a.cell(1, 1)
    assert sorted([a.cell(2, 2), a.cell(1, 1)]) == [a.cell(1, 1), a.cell(2, 2)]
    assert len({a.cell(1, 1), b.cell(1, 1), a.cell(1, 1)}) == 2


# -- the generated code, with and without its shortcuts ---------------------------------------------------------------------------------
EXPRESSIONS = [
    "count(cells(grid))",
    "[c in cells(grid) where disc[c] == 1]",
    "[c.row * 10 + c.column for c in cells(grid) where disc[c] > 0]",
    "count([c in cells(grid) where count([n in neighbours(c) where disc[n] == disc[c]]) > 1])",
    "[n for n in diagonals(cell(grid, 3, 4))]",
    'line(cell(grid, 1, 1), "down right", 4)',
    'line(cell(grid, 6, 1), "up")',
    'last([x in line(cell(grid, 1, 3), "down") where disc[x] == 0])',
    'step(cell(grid, 2, 2), "down left")',
    'can_step(cell(grid, 1, 7), "right") or can_step(cell(grid, 1, 7), "down")',
    "on_board(grid, 6, 7) and not on_board(grid, 7, 7)",
    "cell(grid, 2, 3) == cell(grid, 2, 3) and cell(grid, 2, 3) != cell(grid, 3, 2)",
    "contains(neighbours(cell(grid, 1, 1)), cell(grid, 1, 2))",
    "sorted([cell(grid, 2, 2), cell(grid, 1, 1)])",
    "position(cells(grid), cell(grid, 2, 1))",
    'four_in_a_row(cell(grid, 6, 1), 1) or four_in_a_row(cell(grid, 6, 4), 2)',
    'step(cell(grid, 1, count(cells(grid)) - 41), "up")',  # a rule error in both (not one `check` can see)
]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    text = open("games/connect_four.yaml", encoding="utf-8").read()
    funcs = "".join(f"  f{i}:\n    value: '{e}'\n" for i, e in enumerate(EXPRESSIONS))
    path = write(tmp_path_factory.mktemp("boards"), text.replace("functions:\n", "functions:\n" + funcs, 1))
    game = api.load_game(path)
    return game, compiled_forms(game, EXPRESSIONS)


def _value(f, st):
    try:
        v = f(st, [None] * 8)
    except RuleError as exc:
        return ("rule error", str(exc))
    return ("value", [str(x) for x in v] if isinstance(v, list) else str(v))


@settings(max_examples=25, deadline=None)
@given(seed=hs.integers(0, 2 ** 32), steps=hs.integers(0, 30))
def test_board_shortcuts_mean_what_the_board_builtins_mean(compiled, seed, steps):
    """A keyed cell read through the board's slot row, and `step`/`can_step` with a written direction read off
    the board's step table, against the general form: the key table and the board builtins' functions."""
    game, forms = compiled
    st = game.new_game(2, seed)
    rng = random.Random(seed)
    random_walk(st, rng, steps)
    for text, generated, general in forms:
        assert _value(generated, st) == _value(general, st), text
    assert _value(forms[-1][1], st)[0] == "rule error" and _value(forms[-1][2], st)[0] == "rule error"


def test_board_expressions_at_the_start(compiled):
    game, forms = compiled
    st = game.new_game(2, 1)
    got = {text: _value(f, st) for text, f, _general in forms}
    assert got["count(cells(grid))"] == ("value", "42")
    assert got["[c in cells(grid) where disc[c] == 1]"] == ("value", [])  # an empty board
    assert got['line(cell(grid, 1, 1), "down right", 4)'] == ("value", ["a1", "b2", "c3", "d4"])
    assert got['line(cell(grid, 6, 1), "up")'] == ("value", ["a6", "a5", "a4", "a3", "a2", "a1"])
    assert got['step(cell(grid, 2, 2), "down left")'] == ("value", "a3")
    assert got["[n for n in diagonals(cell(grid, 3, 4))]"] == ("value", ["c2", "e2", "c4", "e4"])
    assert got["position(cells(grid), cell(grid, 2, 1))"] == ("value", "8")
    assert got['can_step(cell(grid, 1, 7), "right") or can_step(cell(grid, 1, 7), "down")'] == ("value", "True")
    assert got["sorted([cell(grid, 2, 2), cell(grid, 1, 1)])"] == ("value", ["a1", "b2"])


def test_generated_code_takes_the_board_from_the_constants_table(compiled):
    game, _ = compiled
    src = generated_source(game, EXPRESSIONS)
    assert "grid" not in src[EXPRESSIONS[2]] and "B_cells(K" in src[EXPRESSIONS[2]] and ".row" in src[EXPRESSIONS[2]]
    general = generated_source(game, EXPRESSIONS, shortcuts=False)  # the board's shortcuts are left out there
    assert src[EXPRESSIONS[8]].startswith("_b_step_at(") and general[EXPRESSIONS[8]].startswith("B_step(")
    assert src[EXPRESSIONS[1]] != general[EXPRESSIONS[1]]  # the keyed cell: its slot row, or the key table


# -- the board games ---------------------------------------------------------------------------------
@pytest.mark.parametrize("path", sorted(BOARD_GAMES))
def test_board_games_check_clean_and_every_example_passes(path):
    spec, diags = api.check_spec(path)
    assert spec is not None and diags == [], [d.message for d in diags]
    assert {o.name: o.message for o in run_examples(spec) if not o.ok} == {}
    assert len(spec.examples) >= 4 and spec.boards
    assert all(a.rule for a in spec.actions.values())


@pytest.mark.parametrize("path", sorted(BOARD_GAMES))
def test_random_board_games_end_with_invariants_checked(path):
    game = Game(api.load_spec(path)[0])
    for seed in range(8):
        st = play(game, BOARD_GAMES[path], seed, check=True)
        assert st.status is Status.FINISHED, (seed, st.status, st.reason)


def test_a_search_agent_plays_connect_four_to_the_end():
    st = play(Game(api.load_spec("games/connect_four.yaml")[0]), 2, 1, {0: "greedy:samples=2"})
    assert st.status is Status.FINISHED, st.reason


def test_moves_and_logs_name_cells():
    game = Game(api.load_spec("games/tic_tac_toe.yaml")[0])
    st = game.new_game(2, 0, log=True)
    assert st.decision().labels[:4] == ["mark: a1", "mark: b1", "mark: c1", "mark: a2"]
    st.apply(4)
    assert any(e.get("choice") == "mark: b2" for e in st.log)
    assert game.spec.vars["global"]["mark[b2]"].label.endswith("(b2)")


def test_explain_shows_the_board():
    from interpreter.lab.explain import explain
    text = explain(api.load_spec("games/connect_four.yaml")[0])
    assert "grid" in text and "6 rows" in text and "7 columns" in text


@pytest.mark.parametrize("size, dots", [(2, 9), (3, 16), (4, 25)])
def test_a_board_sized_by_an_option(size, dots):
    game = Game(api.load_spec("games/dots_and_boxes.yaml")[0], {"size": size})
    st = game.new_game(2, 0)
    assert len(st.decision().labels) == 2 * size * (size + 1)
    assert game.compiler.boards["dots"].rows == size + 1 if hasattr(game, "compiler") else True
    assert len(game.spec.keyed["global"]["across"].keys) == 25  # slots for the largest board
    assert sum(1 for lab in st.decision().labels if lab.startswith("draw across")) == size * (size + 1)
    assert dots == (size + 1) ** 2


# -- diagnostics ---------------------------------------------------------------------------------------
BASE = """
game: {name: B, players: {min: 2, max: 2}}
boards:
  grid: {rows: 3, columns: 4}
state:
  global:
    mark: {type: int, start: 0, cells: grid}
flow:
  first: seat(1)
  turn:
    actions: [put]
actions:
  put:
    choose:
      at: "[c in cells(grid) where mark[c] == 0]"
    do: |
      mark[at] = me.seat
      end turn
end:
  when: count([c in cells(grid) where mark[c] == 0]) == 0
  winners: "[]"
"""


def _with(do: str = "", extra: str = "") -> str:
    return BASE.replace("      mark[at] = me.seat\n", "      mark[at] = me.seat\n" + "".join(
        f"      {ln}\n" for ln in do.splitlines())) + extra


@pytest.mark.parametrize("text, code, needle", [
    (BASE.replace("cells: grid", "cells: gird"), "E470", "unknown board 'gird'"),
    (BASE.replace("cells: grid", "cells: grid, keys: [a, b]"), "E470", "both `keys:` and `cells:`"),
    (_with("mark[cell(grid, 4, 1)] = 1"), "E471", "row 4, column 1, off the board 'grid'"),
    (_with("mark[cell(grid, 1, 0)] = 1"), "E471", "off the board"),
    (_with('mark[step(cell(grid, 3, 4), "down")] = 1'), "E471", "this step goes to row 4"),
    (_with('let n = count(line(at, "diagonal", 2))'), "E472", "'diagonal' is not a direction"),
    (_with("mark[cell(small, 1, 1)] = 1").replace("boards:\n", "boards:\n  small: {rows: 2, columns: 2}\n"),
     "E473", "a cell of board 'small' is not a key of 'mark'"),
    (BASE.replace("rows: 3", "rows: me.seat"), "E474", "rows must be a number or an expression of game options"),
    (BASE.replace("rows: 3", "rows: option.n * 10") + "options:\n  n: {values: [1, 3], default: 1}\n", "E474",
     "from 1 to 26 for every option value"),
    (BASE.replace("rows: 3", "rows: 27"), "E206", "boards.grid.rows must be at most 26, not 27"),
    (BASE.replace("  grid: {", "  players: {"), "E416", "a board needs its own"),
    (_with("mark[3] = 1"), "E431", "expected a cell of a board"),
    (_with("let n = cells(mark)"), "E436", ""),
    (_with("let n = count(cells(gird))"), "E401", "unknown name 'gird'"),
    (_with("let n = neighbours(at, 2)"), "E426", "'neighbours' takes 1 argument(s)"),
    (_with("let n = at.height"), "E402", "unknown field of a cell 'height'"),
], ids=["unknown board", "keys and cells", "row off", "column off", "step off", "direction",
        "another board", "size not of options", "size out of range", "schema size", "name taken", "number key",
        "board of a variable", "unknown board name", "arity", "cell field"])
def test_board_misuse_is_a_positioned_check_error(tmp_path, text, code, needle):
    found = errors(write(tmp_path, text))
    assert any(c == code and needle in m for c, m in found), found


def test_the_base_spec_of_these_checks_is_clean_and_a_board_grows_with_its_option(tmp_path):
    assert errors(write(tmp_path, BASE)) == []
    grown = BASE.replace("rows: 3", "rows: option.n + 1") + "options:\n  n: {values: [1, 3], default: 3}\n"
    assert errors(write(tmp_path, grown)) == []
    game = api.load_game(write(tmp_path, grown))
    assert len(game.new_game(2, 0).decision().labels) == 16


def test_an_off_board_cell_at_run_time_is_a_positioned_rule_error(tmp_path):
    from interpreter.runtime.faults import locate
    path = write(tmp_path, _with("mark[cell(grid, at.row + 3, 1)] = 1"))
    assert errors(path) == []
    game = api.load_game(path)
    st = play(game, 2, 0)
    assert st.status is Status.ERROR and "is off the board" in st.reason
    fault = locate(game, st)
    d = fault.diagnostic()
    assert d.code == "E600" and d.span is not None and d.span.line == 17
    assert d.span.col == 12  # the caret stands under `cell(`


def test_examples_set_cells_by_name(tmp_path):
    text = BASE + """examples:
  a_cell_by_name:
    given:
      vars: {"mark[b2]": 2}
    not_offered: ["put: b2"]
    offered: ["put: a1", "put: d3"]
    expect:
      - mark[cell(grid, 2, 2)] == 2
"""
    assert failed_examples(write(tmp_path, text)) == {}


def test_the_language_server_knows_boards_and_cells():
    import os
    from interpreter.lsp import features as F
    from interpreter.runtime.pipeline import analyse
    path = os.path.abspath("games/connect_four.yaml")
    text = open(path, encoding="utf-8").read()
    ws = F.Workspace(path)
    ws.update(text, analyse(path, text))
    lines = text.splitlines()
    n = next(i for i, ln in enumerate(lines, start=1) if "let c = last(" in ln)
    names = {i.label: i.kind for i in F.complete(ws, n, lines[n - 1].index("last") + 1)}
    assert names.get("grid") == "board" and names.get("line") == "builtin"
    n = next(i for i, ln in enumerate(lines, start=1) if "disc[c] == 0 and disc[step(c" in ln or
             "where c.row < 6" in ln)
    col = lines[n - 1].index("c.row") + 3
    assert {i.label for i in F.complete(ws, n, col)} == {"row", "column"}
    assert "board" in [s.kind for s in F.symbols(ws) for s in [s, *getattr(s, "children", [])]]


# -- fuzzing (as tests/test_fuzz.py does for the minimal spec) ---------------------------------------------
from test_fuzz import check_text, fuzz  # noqa: E402

from hypothesis import strategies as fst  # noqa: E402

_DIRECTIONS = ['"up"', '"down right"', '"left"', '"sideways"', '""', "x"]
_cell_atoms = fst.one_of(fst.sampled_from(["at", "cell(grid, 1, 1)", "cell(grid, 3, 4)", "first(cells(grid))",
                                           "x", "grid", "mark", "3", '"a1"']),
                         fst.tuples(fst.integers(-2, 30), fst.integers(-2, 30)).map(
                             lambda t: f"cell(grid, {t[0]}, {t[1]})"))


def _board_expr(e):
    return fst.one_of(
        e.map(lambda a: f"cells({a})"),
        e.map(lambda a: f"neighbours({a})"), e.map(lambda a: f"diagonals({a})"),
        fst.tuples(e, fst.sampled_from(_DIRECTIONS)).map(lambda t: f"step({t[0]}, {t[1]})"),
        fst.tuples(e, fst.sampled_from(_DIRECTIONS)).map(lambda t: f"can_step({t[0]}, {t[1]})"),
        fst.tuples(e, fst.sampled_from(_DIRECTIONS), fst.integers(-3, 10 ** 6)).map(
            lambda t: f"line({t[0]}, {t[1]}, {t[2]})"),
        fst.tuples(e, fst.integers(-1, 9), fst.integers(-1, 9)).map(lambda t: f"on_board({t[0]}, {t[1]}, {t[2]})"),
        e.map(lambda a: f"mark[{a}]"), e.map(lambda a: f"{a}.row"), e.map(lambda a: f"{a}.column"),
        e.map(lambda a: f"count({a})"), e.map(lambda a: f"first({a})"), e.map(lambda a: f"last({a})"),
        e.map(lambda a: f"[x in {a} where mark[x] == 0]"),
    )


board_exprs = fst.recursive(_cell_atoms, _board_expr, max_leaves=6)


@fuzz(40)
@given(e=board_exprs, how=fst.sampled_from(["let", "assign", "loop", "say"]))
def test_random_board_expressions(tmp_path_factory, e, how):
    line = {"let": f"let x = {e}", "assign": f"mark[{e}] = 1",
            "loop": f"for each x in {e}:\n        mark[x] = me.seat", "say": f'say "{{{e}}}"'}[how]
    check_text(tmp_path_factory.mktemp("b"), _with(line))


_sizes = fst.one_of(fst.integers(-3, 40), fst.sampled_from(['"option.n + 1"', '"option.n * 9"', '"me.seat"',
                                                            '"n"', '"1 +"', '""', "[]", "{}", "null", "true"]))


@fuzz(30)
@given(rows=_sizes, columns=_sizes, n=fst.lists(fst.integers(-5, 30), min_size=1, max_size=3, unique=True))
def test_random_board_declarations(tmp_path_factory, rows, columns, n):
    text = BASE.replace("{rows: 3, columns: 4}", f"{{rows: {rows}, columns: {columns}}}") + \
        f"options:\n  n: {{values: {n}, default: {n[0]}}}\nconstants:\n  n: 2\n"
    check_text(tmp_path_factory.mktemp("d"), text)


def test_the_pettingzoo_observation_names_each_cell():
    pytest.importorskip("pettingzoo")
    from interpreter.pettingzoo_env import RulewrightEnv
    e = RulewrightEnv("games/connect_four.yaml", 2)
    names = e.encoder.describe() if hasattr(e, "encoder") else e.describe()
    assert "global.disc[a1]" in names and "global.disc[g6]" in names


def test_cells_hold_texts_and_per_player_values_and_read_naturally(tmp_path):
    text = BASE.replace("    mark: {type: int, start: 0, cells: grid}\n",
                        "    mark: {type: int, start: 0, cells: grid}\n"
                        "    piece: {type: text, values: [none, x, o], cells: grid}\n"
                        "  player:\n    seen: {type: bool, cells: grid}\n") \
        .replace("      mark[at] = me.seat\n", '      mark[at] = me.seat\n      piece[at] = "x"\n      me.seen[at] = true\n'
                 '      say "{me} puts at {at}, next to {neighbours(at)}"\n')
    path = write(tmp_path, text)
    assert errors(path) == []
    game = api.load_game(path)
    st = game.new_game(2, 0, log=True)
    st.apply(5)
    says = [e["text"] for e in st.log if e.get("e") == "say"]
    assert says == ["P1 puts at b2, next to b1, a2, c2, b3"]
    assert game.spec.vars["player"]["seen[b2]"].type == "bool"
    assert errors(write(tmp_path, _with("let n = mark"))) == [
        ("E436", "'mark' holds one value per cell of 'grid'; say which")]


@pytest.mark.parametrize("do", [
    "for each x in cells(corner):\n        mark[x] = 1",
    "let x = first(cells(corner))\nmark[x] = 1",
    'let x = cell(corner, 1, 1)\nlet x = step(x, "right")\nmark[x] = 1',
    "let n = count([x in cells(corner) where mark[x] == 0])",
], ids=["loop", "let", "let from itself", "filter"])
def test_a_cell_of_another_board_through_a_local_is_seen_by_check(tmp_path, do):
    text = _with(do).replace("boards:\n", "boards:\n  corner: {rows: 2, columns: 2}\n")
    found = errors(write(tmp_path, text))
    assert [c for c, _m in found] == ["E473"], found


def test_an_action_parameter_of_another_board_is_seen_by_check(tmp_path):
    text = BASE.replace("boards:\n", "boards:\n  corner: {rows: 2, columns: 2}\n").replace(
        '"[c in cells(grid) where mark[c] == 0]"', '"cells(corner)"')
    assert [c for c, _m in errors(write(tmp_path, text))] == ["E473"]


def test_a_cell_of_another_board_at_run_time_is_a_rule_error(tmp_path):
    text = _with("for each x in [y for y in cells(corner)]:\n        mark[x] = 1").replace(
        "boards:\n", "boards:\n  corner: {rows: 2, columns: 2}\n")
    path = write(tmp_path, text)
    assert errors(path) == []  # `check` does not follow a list of values (`[y for y in ...]`) to its board
    st = play(api.load_game(path), 2, 0)
    assert st.status is Status.ERROR and "'a1' is not a key of 'mark'" in st.reason
