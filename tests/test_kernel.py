"""The kernel (interpreter/kernel) means what the reference engine means.

Each kernel game records its choices and its chance (first player, every shuffle's order, every random
number); replayed in the Python engine with that chance scripted, it must end the same way: the same
status, winners, turns, decisions and scores. A sample of games of every spec here, under several
options and readings (one compiled kernel serves them all), plus a statistical comparison of
independent games, the unsupported-construct message, and the command line.

Compiling a kernel costs seconds, so this file compiles few specs and shares one cache directory for
the whole session (`$RULEWRIGHT_CACHE` when set).
"""
from __future__ import annotations

import json
import math
import os

import pytest
from click.testing import CliRunner

from interpreter.cli.commands import cli
from interpreter.kernel import why_not
from interpreter.kernel import emit
from interpreter.kernel.layout import STATUS_NAMES
from interpreter.kernel.replay import replay
from interpreter.kernel.run import _measured, kernel_for
from interpreter.lab.runner import play
from interpreter.kernel.unsupported import Unsupported
from interpreter.lower.lowering import lower
from interpreter.runtime.pipeline import load_game
from interpreter.runtime.seeds import game_seed

from spec_helpers import write


@pytest.fixture(scope="module", autouse=True)
def kernel_cache(tmp_path_factory):
    saved = os.environ.get("RULEWRIGHT_CACHE")
    if saved is None:
        os.environ["RULEWRIGHT_CACHE"] = str(tmp_path_factory.getbasetemp().parent / "rulewright-kernels")
    yield
    if saved is None:
        os.environ.pop("RULEWRIGHT_CACHE", None)


STUN_ALL_OTHER = {"first_flip": "optional", "stun_plus_eligibility": "strictly_behind", "lost_chips": "to_victim",
                  "stun_minus_target": "any_pile", "win_timing": "end_of_turn", "empty_centre": "from_a_player",
                  "stun_minus_and_stun": "all_turned_up", "reshuffle": "when_needed"}

CASES = [
    ("games/stun.yaml", 4, {}, {}, 40),
    ("games/stun.yaml", 3, {"win_chips": 3, "advanced": True}, STUN_ALL_OTHER, 40),
    ("games/stun.yaml", 6, {}, {"win_timing": "end_of_turn"}, 15),  # six players: the centre can run dry
    ("games/tic_tac_toe.yaml", 2, {}, {}, 40),
    ("games/connect_four.yaml", 2, {}, {}, 25),
    ("games/mancala.yaml", 2, {}, {}, 25),
    ("games/dots_and_boxes.yaml", 2, {"size": 3}, {}, 25),
    ("games/cant_stop.yaml", 2, {}, {}, 15),  # dice: random numbers in the chance record
    ("games/breakthrough.yaml", 2, {}, {}, 15),  # forward(), texts joined with +, rows from the bottom
    ("tests/specs/kept_list.yaml", 2, {}, {}, 20),  # a list a loop's passes build one on another (the arena keeps it)
]
# Every other shipped spec the kernel runs: a kernel costs seconds to compile, so these run when asked
# (RULEWRIGHT_KERNEL_ALL=1); each replayed identically when the kernel was built (docs/guides/scale.md).
if os.environ.get("RULEWRIGHT_KERNEL_ALL"):
    CASES += [
        ("games/stun-short.yaml", 3, {}, {}, 20),
        ("games/no_thanks.yaml", 3, {}, {}, 20),
        ("games/maedn.yaml", 4, {}, {}, 10),
        ("games/oh_hell.yaml", 4, {}, {}, 10),
        ("games/uno.yaml", 3, {}, {}, 10),
        ("games/love_letter.yaml", 3, {}, {}, 20),  # flow.skip_if
        ("games/first-in-flight.yaml", 3, {}, {}, 20),  # measures
        ("games/first-in-flight-stunt-pack.yaml", 3, {}, {}, 10),  # `choose` of a card (interchange)
        ("games/goofspiel.yaml", 2, {}, {}, 20),  # `choose together`
        ("games/sushi_go.yaml", 3, {}, {}, 10),
        ("games/stunt-academy.yaml", 3, {}, {}, 10),  # `choose subset`
        ("games/othello.yaml", 2, {}, {}, 5),  # cells as values
        ("games/checkers.yaml", 2, {}, {}, 10),  # forward(), `extra turn` with a cell variable
        ("games/backgammon.yaml", 2, {}, {}, 10),  # player_roll(): dice rolled as a seat
        ("games/euchre.yaml", 4, {"stick": True}, {}, 20),  # game.teams: team(), partner(), teammates(), sides win
        ("games/euchre.yaml", 4, {"stick": False}, {}, 20),  # ... and a hand thrown in
        *[("games/liars_dice.yaml", 2, {"dice": d}, {}, 20) for d in (1, 2, 3, 4, 5)],  # secret_dice, reveal
        ("tests/specs/sides.yaml", 6, {}, {}, 20),  # sides out of seat order, `score: sum`, opponents()
        ("tests/specs/sides-winners.yaml", 6, {}, {}, 20),  # a side wins together by `end: winners:`
    ]


def _summary(st) -> tuple:
    i = st.g.score_idx
    return (str(st.status), tuple(st.winners), st.turn, st.decisions, None if i is None else tuple(st.pvars[i]))


def _case_id(c: tuple) -> str:
    """`stun-3p-variant`; a case of one option names it (`liars_dice-2p-variant-dice=1`)."""
    one = "".join(f"-{k}={v}" for k, v in c[2].items()) if len(c[2]) == 1 else ""
    return f"{c[0].split('/')[-1][:-5]}-{c[1]}p{'-variant' if c[2] or c[3] else ''}{one}"


@pytest.mark.parametrize("path, players, options, readings, games", CASES, ids=[_case_id(c) for c in CASES])
def test_kernel_games_replay_identically_in_the_engine(path, players, options, readings, games):
    game = load_game(path, options, readings)
    k = kernel_for(game.spec)
    summaries, _ = k.summaries(game, players, 11, 0, games)
    for i in range(games):
        seed = game_seed(11, i)
        row, choices, chance = k.record(game, players, seed)
        r = k.row(row, players)
        st = replay(game, players, seed, choices, chance)
        kernel = (STATUS_NAMES[r.status], r.winners, r.turns, r.decisions, r.scores)
        assert _summary(st) == kernel, f"{path} seed {seed}: engine {_summary(st)} != kernel {kernel}"
        assert len(st.choices) == len(choices)  # every recorded choice was a legal option of the engine
        assert summaries[i][:5] == kernel[:5] if kernel[0] == "finished" else summaries[i][0] == str(st.status)
        if game.spec.measures and kernel[0] == "finished":
            assert summaries[i][7] == _measured(game, st)


def test_one_kernel_serves_every_variant():
    plain, variant = load_game("games/stun.yaml"), load_game("games/stun.yaml", {"win_chips": 3}, STUN_ALL_OTHER)
    assert kernel_for(plain.spec).source == kernel_for(variant.spec).source  # options are run-time values
    a = kernel_for(plain.spec).batch(plain, 4, [1, 2, 3])
    b = kernel_for(variant.spec).batch(variant, 4, [1, 2, 3])
    assert (a[:, 1] != b[:, 1]).any()  # ... that change the games


def test_kernel_batches_do_not_depend_on_how_games_are_split():
    game = load_game("games/stun.yaml")
    k = kernel_for(game.spec)
    seeds = [game_seed(3, i) for i in range(60)]
    whole = k.batch(game, 4, seeds)
    parts = [k.batch(game, 4, seeds[a:a + 7]) for a in range(0, 60, 7)]
    import numpy as np
    assert (np.concatenate(parts) == whole).all()


@pytest.mark.parametrize("path, players, arena", [("games/cant_stop.yaml", 2, emit.ARENA),
                                                  ("tests/specs/kept_list.yaml", 2, emit.ARENA),  # a list kept across passes
                                                  ("tests/specs/sides.yaml", 6, 5)])
def test_the_arena_gives_the_games_of_lists_made_on_the_heap(monkeypatch, path, players, arena):
    """The lists rules make live in an arena in the game's array (prelude.py `_new`), given back where they
    are dead (emit.py `for_line`, calls of blocks); with no arena every list is made on the heap, as numba
    does, so nothing is shared. The games must be the same; with a tiny arena (some lists there, the
    rest on the heap) too."""
    from interpreter.kernel.run import Kernel
    game = load_game(path)
    seeds = [game_seed(5, i) for i in range(300)]
    monkeypatch.setattr(emit, "ARENA", 0)
    heap = Kernel(game.spec)
    assert "ARN = 0" in heap.source
    monkeypatch.setattr(emit, "ARENA", arena)
    arena_kernel = Kernel(game.spec)  # the default arena's: the one the other tests compiled (the disk cache)
    assert f"ARN = {arena}" in arena_kernel.source
    assert (arena_kernel.batch(game, players, seeds) == heap.batch(game, players, seeds)).all()


def test_independent_games_agree_statistically():
    """Kernel games and engine games, each with their own chance and agents: the same distribution."""
    game = load_game("games/stun.yaml")
    k = kernel_for(game.spec)
    kern, _ = k.summaries(game, 4, 1, 0, 4000)
    eng = [play(game, 4, game_seed(2, i)) for i in range(800)]

    def mean_se(xs):
        m = sum(xs) / len(xs)
        var = sum((x - m) ** 2 for x in xs) / (len(xs) - 1)
        return m, math.sqrt(var / len(xs))
    (mk, sk), (me, se) = mean_se([r[2] for r in kern]), mean_se([st.turn for st in eng])
    assert abs(mk - me) < 4.5 * math.hypot(sk, se), (mk, me)
    for seat in range(4):
        (wk, swk), (we, swe) = (mean_se([1.0 if seat in r[1] else 0.0 for r in kern]),
                                mean_se([1.0 if seat in st.winners else 0.0 for st in eng]))
        assert abs(wk - we) < 4.5 * math.hypot(swk, swe), (seat, wk, we)


TRIGGERS = "tests/fuzz_corpus/trigger_ping_pong.yaml"  # triggers are not on the kernel yet


def test_a_construct_not_on_the_kernel_is_named_with_its_position():
    game = load_game(TRIGGERS)
    g = lower(game.spec)  # lowering expresses everything the checker accepts: the kernel names what it lacks
    assert [t.name for t in g.triggers] == list(game.spec.triggers)
    with pytest.raises(Unsupported) as exc:
        emit.Emitter(g).module()
    assert str(exc.value).startswith(f"{TRIGGERS}:81:3: ") and "triggers" in str(exc.value)
    assert why_not(game.spec) == str(exc.value)
    assert why_not(load_game("games/stun.yaml").spec, {0: "greedy", 1: "cautious"}) is None  # search agents run on the kernel


SMALL = """
game: {name: Small, players: {min: 2, max: 2}}
boards: {grid: {rows: %(rows)s, columns: 3, origin: bottom}}
options: {tall: {values: [3, 4], default: 3}}
state: {global: {word: {type: text, start: a}, piece: {type: int, cells: grid}%(more)s}}
flow: {first: seat(1), turn: {actions: [go]}}
actions: {go: {label: go, do: '%(do)s'}}
end: {when: "true", winners: players}
"""
LIMITS = [  # (what, rows, do, the text at the position named, the construct named)
    ("a text joined from a variable without `values:`", 3, 'word = word + "b"', 'word + "b"', "texts joined"),
    ("a cell named on a board whose rows an option sets", "option.tall", "piece[a1] = 1", "a1",
     "numbered from the bottom"),
    ("... or a cell variable's start there", "option.tall", "pass", "at: {type: cell", "numbered from the bottom"),
]


@pytest.mark.parametrize("what, rows, do, text, construct", LIMITS, ids=[x[0] for x in LIMITS])
def test_what_the_kernel_does_not_run_is_named_at_its_position(tmp_path, what, rows, do, text, construct):
    more = ", at: {type: cell, start: b2}" if "at: " in text else ""
    path = write(tmp_path, SMALL % {"rows": rows, "do": do, "more": more})
    lines = open(path, encoding="utf-8").read().splitlines()
    line = next(i for i, ln in enumerate(lines, 1) if text in ln)
    col = lines[line - 1].index(text) + 1
    reason = why_not(load_game(path).spec)
    assert reason is not None and reason.startswith(f"{path}:{line}:{col}: ") and construct in reason, reason


def _sim(*args: str) -> tuple[dict, str]:
    r = CliRunner().invoke(cli, ["simulate", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout), r.stderr


def test_simulate_on_the_kernel_says_so_and_ignores_the_worker_count():
    one, _ = _sim("games/stun.yaml", "-p", "4", "-g", "300", "--seed", "4", "--engine", "kernel")
    two, _ = _sim("games/stun.yaml", "-p", "4", "-g", "300", "--seed", "4", "--engine", "kernel", "--workers", "2")
    assert one["engine"] == two["engine"] == "kernel"
    drop = ("seconds", "games_per_second", "workers")
    assert {k: v for k, v in one.items() if k not in drop} == {k: v for k, v in two.items() if k not in drop}
    py, _ = _sim("games/stun.yaml", "-p", "4", "-g", "50", "--engine", "python")
    assert py["engine"] == "python" and "engine_note" not in py


def test_simulate_says_when_a_spec_runs_on_the_python_engine():
    d, stderr = _sim(TRIGGERS, "-p", "2", "-g", "5", "--engine", "kernel")
    assert d["engine"] == "python" and "triggers" in d["engine_note"]
    assert f"note: running on the Python engine: {TRIGGERS}:81:3: " in stderr


def test_a_failed_kernel_game_is_positioned_from_its_record():
    spec = "tests/specs/runtime_error.yaml"
    if why_not(load_game(spec, {"fault": "key"}).spec) is not None:
        pytest.skip("the fault spec is not on the kernel")
    r = CliRunner().invoke(cli, ["simulate", spec, "-p", "2", "--games", "5", "-o", "fault=key", "--engine", "kernel"])
    assert r.exit_code == 0, r.output
    assert f"{spec}:48:9: error[E600]: 'joker' is not a key of 'tally'" in r.stderr
    assert "--engine kernel" in r.stderr  # the command that narrates the same game again


@pytest.mark.parametrize("master", [0, 7, -3, 2 ** 70 + 5])
def test_kernel_seeds_are_the_runners(master):
    from interpreter.kernel.run import game_seeds
    assert game_seeds(master, 0, 500) == [game_seed(master, i) for i in range(500)]
    assert game_seeds(master, 10 ** 9, 10 ** 9 + 20) == [game_seed(master, i) for i in range(10 ** 9, 10 ** 9 + 20)]


TWO_BOARDS = """
game: {name: Two, players: {min: 2, max: 2}}
boards:
  grid: {rows: 3, columns: 3}
  side: {rows: 2, columns: 2}
state: {global: {piece: {type: int, cells: side}, at: {type: cell, board: side, start: b2}}}
flow: {first: seat(1), turn: {actions: [go]}}
actions: {go: {label: go, do: "piece[at] = 1\\nend turn"}}
end: {when: "piece[at] == 1", winners: players}
"""


def test_lowering_is_total_and_the_kernel_names_what_it_does_not_run(tmp_path):
    path = write(tmp_path, TWO_BOARDS)
    game = load_game(path)
    g = lower(game.spec)  # every board, its cells numbered after the previous board's
    assert [(b.name, b.base) for b in g.boards] == [("grid", 0), ("side", 9)]
    assert g.gvars[-1].start == 9 + 1 * 2 + 1  # b2 of side: its second row, second column
    line = next(i for i, ln in enumerate(open(path, encoding="utf-8").read().splitlines(), 1) if "side:" in ln)
    reason = why_not(game.spec)
    assert reason is not None and reason.startswith(f"{path}:{line}:3: ") and "more than one board" in reason, reason
    st = play(game, 2, 0)  # the Python engine runs it
    assert st.status.name == "FINISHED", st.reason
