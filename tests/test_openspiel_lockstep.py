"""Differential test against an independent engine: OpenSpiel (`pip install open_spiel`, in the test extra).

For each corpus game OpenSpiel also implements, random games are replayed in lockstep: at every step
both engines must have the same player to move and the same legal actions in the same order, the
same move is applied to both, and both must end at the same step with the same result. The mapping
between OpenSpiel action ids and Rulewright option labels lives here (per game), not in interpreter/.
OpenSpiel's chance (Mensch ärgere Dich nicht's dice, Oh Hell's deal, Goofspiel's prizes) is played on
OpenSpiel's side and given to Rulewright as a strict chance script (`api.Chance`), so every roll and
shuffle Rulewright makes is OpenSpiel's. Then each engine plays its own independent random games and
the outcome shares are compared. Only the public API (`interpreter.api`) is used.
"""
from __future__ import annotations

import math
import re
import random
from dataclasses import dataclass
from typing import Callable

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel, part of the `test` extra): "
                      "the lockstep test against an independent engine cannot run")

from interpreter import api  # noqa: E402
from interpreter.api import Chance, Game, State, Status  # noqa: E402

from helpers import random_walk  # noqa: E402


@dataclass(frozen=True)
class Pairing:
    spec: str
    openspiel: str  # pyspiel.load_game string
    options: dict
    action_of: Callable[[str], int]  # Rulewright option label -> OpenSpiel action id
    players: int = 2
    die_of: Callable[[int], int] | None = None  # OpenSpiel chance outcome -> the die Rulewright rolls
    samples: int = 400  # independent games per engine for the outcome comparison (kept fast)
    start: Callable | None = None  # (pair, game, os_state, rng, seed) -> State: a game whose setup draws as OpenSpiel did
    returns: Callable | None = None  # State -> OpenSpiel's returns, when not the winner-takes-all default
    shares: tuple = ("first seat wins", "second seat wins", "draws")  # what the outcome comparison counts
    shortest: int = 5  # the fewest moves a game of it can have (the shortest tic-tac-toe game has five)
    theirs: Callable[[int], int] = lambda a: a  # an OpenSpiel action as compared (Breakthrough: without its capture bit)


def _number_after_colon(label: str) -> int:
    return int(label.rsplit(": ", 1)[1])


def _maedn_action(label: str) -> int:
    if label == "pass":
        return 0
    if label == "bring in a piece":
        return 1
    return _number_after_colon(label) + 2  # `move: r`, the piece on the player's own field r


SUITS = ["clubs", "diamonds", "spades", "hearts"]  # OpenSpiel's suit order (C, D, S, H); card = 4 * (rank - 2) + suit


def _oh_hell_action(label: str) -> int:
    what = label.split(": ", 1)[1]
    if label.startswith("bid: "):
        return 52 + int(what)
    rank, suit = what.split(" of ")
    return 4 * (int(rank) - 2) + SUITS.index(suit)


def _oh_hell_start(pair: Pairing, game: Game, os_state, rng: random.Random, seed: int) -> State:
    """Play OpenSpiel's chance nodes (tricks, dealer, the deal, the trump card), then start a Rulewright game
    whose setup draws the same: its two random numbers scripted, its shuffle ordered as OpenSpiel dealt."""
    outcomes = []
    while os_state.is_chance_node():
        outcomes.append(rng.choice([a for a, _p in os_state.chance_outcomes()]))
        os_state.apply_action(outcomes[-1])
    tricks, dealer, deal = outcomes[0], outcomes[1], outcomes[2:]
    assert game.card_type == [f"card_{r}_{s}" for r in range(2, 15) for s in SUITS]  # card ids are OpenSpiel's
    # the dealt cards on top of the deck, in the order dealt (the trump card last)
    return game.new_game(pair.players, seed, chance=Chance(dice=[tricks, dealer + 1],
                                                           decks={"deck": [game.card_type[c] for c in deal]}))


def _cell_action(label: str) -> int:
    """`mark: b3` (column letter, row from 1 at the top) as OpenSpiel's row-major cell number (from 0)."""
    name = label.rsplit(": ", 1)[1]
    return (int(name[1:]) - 1) * 3 + "abc".index(name[0])


def _dots_action(n: int) -> Callable[[str], int]:
    """`draw across from: b1` / `draw down from: a2` (a dot: column letter, row from 1 at the top) as
    OpenSpiel's line number on a board of n by n boxes: the lines across row by row (n a row), then the
    lines down (n + 1 a row)."""
    def action(label: str) -> int:
        what, dot = label.rsplit(": ", 1)
        row, col = int(dot[1:]) - 1, "abcdefghijklmnopqrstuvwxyz".index(dot[0])
        if what == "draw across from":
            return row * n + col
        return n * (n + 1) + row * (n + 1) + col
    return action


def _liars_action(dice: int) -> Callable[[str], int]:
    """`bid n x f` as OpenSpiel's bid number (n - 1) * 6 + (f - 1); `call liar` is the number after the last bid."""
    def action(label: str) -> int:
        if label == "call liar":
            return 2 * dice * 6
        n, f = label[len("bid "):].split(" x ")
        return (int(n) - 1) * 6 + int(f) - 1
    return action


def _liars_start(pair: Pairing, game: Game, os_state, rng: random.Random, seed: int):
    """OpenSpiel rolls every die of the first player, then the second's; the setup's secret dice are scripted
    with the same values, in the same order."""
    dice = []
    while os_state.is_chance_node():
        dice.append(rng.choice([a for a, _p in os_state.chance_outcomes()]) + 1)
        os_state.apply_action(dice[-1] - 1)
    return game.new_game(pair.players, seed, chance=Chance(dice=dice))


EUCHRE_SUITS = ["clubs", "diamonds", "hearts", "spades"]  # OpenSpiel's suit order (C, D, H, S); card = 4 * (rank - 9) + suit


def _euchre_action(label: str) -> int:
    """Pass 24, trumps 25-28 (by suit), alone 29, with partner 30; a card (discard or play) its number."""
    fixed = {"pass": 24, "go alone": 29, "play with partner": 30}
    if label in fixed:
        return fixed[label]
    if label.startswith("trumps: "):
        return 25 + EUCHRE_SUITS.index(label[len("trumps: "):])
    rank, suit = label.split(": ", 1)[-1].split(" of ")
    return 4 * (int(rank) - 9) + EUCHRE_SUITS.index(suit)


def _euchre_start(pair: Pairing, game: Game, os_state, rng: random.Random, seed: int):
    """OpenSpiel draws the dealer, deals twenty cards from the dealer round the table and turns one up; the
    setup's random dealer is scripted and its shuffle stacked with that deal, turned card last."""
    outcomes = []
    while os_state.is_chance_node():
        outcomes.append(rng.choice([a for a, _p in os_state.chance_outcomes()]))
        os_state.apply_action(outcomes[-1])
    dealer, deal = outcomes[0], outcomes[1:]
    assert game.card_type == [f"card_{r}_{s}" for r in range(9, 15) for s in EUCHRE_SUITS]  # card ids are OpenSpiel's
    # the dealt cards on top of the deck, in the order dealt (the turned card last)
    return game.new_game(pair.players, seed, chance=Chance(dice=[dealer + 1],
                                                           decks={"deck": [game.card_type[c] for c in deal]}))


# Breakthrough: OpenSpiel numbers a move by its square (row by row from the top, a8 first), then one of six
# directions (down left, down, down right, up left, up, up right), then whether it captures. The move
# `a7b6` names its two squares only, so the capture bit is dropped from OpenSpiel's actions before they
# are compared (a square and a direction name one move either way).
_BT_DIRECTIONS = {(-1, -1): 0, (-1, 0): 1, (-1, 1): 2, (1, -1): 3, (1, 0): 4, (1, 1): 5}  # (rows up, columns right)


def _breakthrough_action(label: str) -> int:
    src, dst = label[:2], label[2:]
    col, row = "abcdefgh".index(src[0]), int(src[1])
    way = (int(dst[1]) - row, "abcdefgh".index(dst[0]) - col)
    return (((8 - row) * 8 + col) * 6 + _BT_DIRECTIONS[way]) * 2


# Checkers: OpenSpiel numbers a move by its square (row by row from the top, a8 first), one of four diagonals
# (up left, up right, down right, down left), then whether it is a step or a jump. `c3e5` is a jump (two rows).
_CK_DIRECTIONS = {(1, -1): 0, (1, 1): 1, (-1, 1): 2, (-1, -1): 3}  # (rows up, columns right)


def _checkers_action(label: str) -> int:
    src, dst = label[:2], label[2:]
    col, row = "abcdefgh".index(src[0]), int(src[1])
    rows, cols = int(dst[1]) - row, "abcdefgh".index(dst[0]) - col
    jump = abs(rows) == 2
    way = (rows // abs(rows), cols // abs(cols))
    return (((8 - row) * 8 + col) * 4 + _CK_DIRECTIONS[way]) * 2 + jump


def _othello_action(label: str) -> int:
    """`place: d3` (row from 1 at the top) as OpenSpiel's square number from 0, row by row; `pass` is 64."""
    if label == "pass":
        return 64
    name = label.rsplit(": ", 1)[1]
    return (int(name[1:]) - 1) * 8 + "abcdefgh".index(name[0])


MADE = ("first seat makes its bid", "second seat makes its bid", "nobody makes the bid")

PAIRS = {
    "breakthrough": Pairing("games/breakthrough.yaml", "breakthrough", {}, _breakthrough_action, samples=200,
                            theirs=lambda a: a & ~1),
    "checkers": Pairing("games/checkers.yaml", "checkers", {}, _checkers_action, samples=100),
    "othello": Pairing("games/othello.yaml", "othello", {}, _othello_action, samples=40),
    "kalah": Pairing("games/mancala.yaml", "mancala", {}, _number_after_colon),
    "dots_and_boxes_2": Pairing("games/dots_and_boxes.yaml", "dots_and_boxes", {"size": 2}, _dots_action(2)),
    "dots_and_boxes_3": Pairing("games/dots_and_boxes.yaml", "dots_and_boxes(num_rows=3,num_cols=3)", {"size": 3},
                                _dots_action(3)),
    "tic_tac_toe": Pairing("games/tic_tac_toe.yaml", "tic_tac_toe", {}, _cell_action, samples=1000),
    "connect_four": Pairing("games/connect_four.yaml", "connect_four", {}, lambda lab: _number_after_colon(lab) - 1,
                            samples=200),
    "maedn_2": Pairing("games/maedn.yaml", "maedn", {}, _maedn_action, 2, lambda o: o + 1, 200),
    "maedn_4": Pairing("games/maedn.yaml", "maedn(players=4)", {}, _maedn_action, 4, lambda o: o + 1, 100),
    "oh_hell_3": Pairing("games/oh_hell.yaml", "oh_hell", {}, _oh_hell_action, 3, None, 200, _oh_hell_start,
                         lambda st: [float(x) for x in st.result().scores], MADE),
    "oh_hell_5": Pairing("games/oh_hell.yaml", "oh_hell(players=5)", {}, _oh_hell_action, 5, None, 100,
                         _oh_hell_start, lambda st: [float(x) for x in st.result().scores], MADE),
    "liars_dice_1": Pairing("games/liars_dice.yaml", "liars_dice(numdice=1)", {"dice": 1}, _liars_action(1), 2,
                            None, 400, _liars_start, shortest=2),
    "liars_dice_5": Pairing("games/liars_dice.yaml", "liars_dice(numdice=5)", {"dice": 5}, _liars_action(5), 2,
                            None, 200, _liars_start, shortest=2),
    "euchre": Pairing("games/euchre.yaml", "euchre", {}, _euchre_action, 4, None, 200, _euchre_start,
                      lambda st: [float(x) for x in st.result().scores], ("first side wins", "second side wins", "draws"),
                      shortest=17),
    "euchre_unstuck": Pairing("games/euchre.yaml", "euchre(stick_the_dealer=false)", {"stick": False}, _euchre_action,
                              4, None, 200, _euchre_start, lambda st: [float(x) for x in st.result().scores],
                              ("first side wins", "second side wins", "hands thrown in"), shortest=8),
}
GAMES = 60  # lockstep games per pairing


def _game(pair: Pairing) -> Game:
    return api.load_game(pair.spec, pair.options)


def _returns(st: State) -> list[float]:
    """Rulewright's result as OpenSpiel's zero-sum returns: n-1 for a sole winner and -1 for the others
    (+1/-1 with two players), 0 for everybody on a draw. Both number seats from 0."""
    r = st.result()
    if len(r.winners) != 1:
        return [0.0] * r.players
    return [r.players - 1.0 if p == r.winners[0] else -1.0 for p in range(r.players)]


def _chance(pair: Pairing, os_state, rng: random.Random) -> list[int]:
    """Play OpenSpiel's chance nodes (with our RNG); the dice Rulewright must roll for them."""
    dice = []
    while os_state.is_chance_node():
        outcome = rng.choice([a for a, _p in os_state.chance_outcomes()])
        os_state.apply_action(outcome)
        dice.append(pair.die_of(outcome))
    return dice


def lockstep(pair: Pairing, game: Game, seed: int) -> tuple[int, list[float]]:
    """One random game in both engines at once; returns its length and result."""
    rng = random.Random(seed)
    os_state = pyspiel.load_game(pair.openspiel).new_initial_state()
    if pair.start is not None:
        st = pair.start(pair, game, os_state, rng, seed)
    else:
        first = _chance(pair, os_state, rng) if pair.die_of else []
        st = game.new_game(pair.players, seed, chance=Chance(dice=first))
    result = pair.returns or _returns
    steps = 0
    while True:
        assert (st.status is not Status.RUNNING) == os_state.is_terminal(), (
            f"seed {seed} step {steps}: Rulewright {st.status}, OpenSpiel terminal={os_state.is_terminal()}")
        if os_state.is_terminal():
            break
        d = st.decision()
        assert d.player == st.to_move == os_state.current_player(), f"seed {seed} step {steps}: player to move differs"
        mine = [pair.action_of(lab) for lab in d.labels]
        theirs = [pair.theirs(a) for a in os_state.legal_actions()]
        assert mine == theirs, f"seed {seed} step {steps}: legal actions differ\n  rulewright {mine}\n  openspiel  {theirs}"
        i = rng.randrange(len(mine))
        os_state.apply_action(os_state.legal_actions()[i])
        if pair.die_of:  # the dice OpenSpiel rolls next are the ones Rulewright rolls next
            st.script_chance(dice=_chance(pair, os_state, rng))
        st.apply(i)  # a roll OpenSpiel did not make raises ChanceError (the strict script ran out)
        assert not st.chance_left(), f"seed {seed} step {steps}: Rulewright did not roll when OpenSpiel did"
        steps += 1
    assert st.status is Status.FINISHED, st.reason
    assert result(st) == list(os_state.returns()), f"seed {seed}: results differ {result(st)} {os_state.returns()}"
    return steps, result(st)


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_random_games_in_lockstep_with_openspiel(name):
    pair = PAIRS[name]
    game = _game(pair)
    lengths = [lockstep(pair, game, seed)[0] for seed in range(GAMES)]
    assert min(lengths) >= pair.shortest  # lockstep ran whole games, not stopped at the first step


def _share(results: list[list[float]]) -> tuple[float, float, float]:
    n = len(results)
    return (sum(r[0] > 0 for r in results) / n, sum(r[1] > 0 for r in results) / n,
            sum(all(x == 0 for x in r) for r in results) / n)


def _made(results: list[list[float]]) -> tuple[float, float, float]:
    """Oh Hell's returns: 10 more for an exact bid."""
    n = len(results)
    return (sum(r[0] >= 10 for r in results) / n, sum(r[1] >= 10 for r in results) / n,
            sum(all(x < 10 for x in r) for r in results) / n)


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_outcome_shares_agree_with_openspiel(name):
    """Independent random games in each engine: first-seat wins, second-seat wins and draws agree
    within 4 standard errors of the difference of two shares."""
    pair = PAIRS[name]
    game = _game(pair)
    ours = []
    n = pair.samples
    for seed in range(n):
        st = game.new_game(pair.players, 10_000 + seed)
        rng = random.Random(seed)
        random_walk(st, rng)
        ours.append((pair.returns or _returns)(st))
    theirs = []
    rng = random.Random(99)
    osg = pyspiel.load_game(pair.openspiel)
    for _ in range(n):
        s = osg.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _p in s.chance_outcomes()]))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        theirs.append(list(s.returns()))
    count = _made if pair.shares is MADE else _share
    for a, b, what in zip(count(ours), count(theirs), pair.shares):
        se = math.sqrt(max(a * (1 - a) + b * (1 - b), 1e-9) / n)
        assert abs(a - b) <= 4 * se + 1e-9, f"{what}: Rulewright {a:.3f}, OpenSpiel {b:.3f} (4 SE = {4 * se:.3f})"


# ---- Goofspiel: a simultaneous-move game, mapped by applying joint actions ---------------------------------
# OpenSpiel's `goofspiel` is simultaneous: at each round both players' legal actions (card value - 1) are
# listed, and the round moves on with `apply_actions([a0, a1])`. Rulewright's `choose together` asks the
# players one after the other, sealed: the first seat's options, then the second's, both compared with
# OpenSpiel's lists for that round before the joint action is applied to OpenSpiel. The prize order is a
# chance node per round in OpenSpiel and one shuffle in Rulewright: the test draws the whole order first,
# feeds it to OpenSpiel's chance nodes and stacks Rulewright's shuffle with it. OpenSpiel plays the last
# round itself (one card each, nothing to choose); Rulewright asks it as two one-option decisions, which
# the test takes. Returns are win/loss (+1/-1, 0 on a tie) in both.

def _goofspiel_lockstep(game: Game, seed: int) -> tuple[int, list[float]]:
    rng = random.Random(seed)
    order = rng.sample(range(1, 14), 13)  # the prize values, first turned up first
    st = game.new_game(2, seed, chance=Chance(decks={"prizes": [f"prize_{v}" for v in order]}))
    os_state = pyspiel.load_game("goofspiel").new_initial_state()
    rounds = 0
    while not os_state.is_terminal():
        if os_state.is_chance_node():
            os_state.apply_action(order[rounds] - 1)
            continue
        assert os_state.is_simultaneous_node()
        joint = []
        for p in range(2):
            d = st.decision()
            assert d.player == p, f"seed {seed} round {rounds}: seat {d.player + 1} chooses, not seat {p + 1}"
            mine = [int(lab) - 1 for lab in d.labels]
            theirs = list(os_state.legal_actions(p))
            assert mine == theirs, f"seed {seed} round {rounds} seat {p + 1}: {mine} != {theirs}"
            i = rng.randrange(len(mine))
            joint.append(theirs[i])
            st.apply(i)
        os_state.apply_actions(joint)
        rounds += 1
    for _ in range(2):  # the last round: one card each, which OpenSpiel plays by itself
        assert st.status is Status.RUNNING and len(st.decision().labels) == 1, f"seed {seed}: not a forced last round"
        st.apply(0)
    assert st.status is Status.FINISHED, st.reason
    assert _returns(st) == list(os_state.returns()), f"seed {seed}: results differ {_returns(st)} {os_state.returns()}"
    assert [st.view(0)["players"][p]["points"] for p in range(2)] == \
        [int(x) for x in str(os_state).split("Points: ")[1].split()], f"seed {seed}: points differ"
    return rounds, _returns(st)


def test_goofspiel_in_lockstep_with_openspiel():
    game = api.load_game("games/goofspiel.yaml")
    results = [_goofspiel_lockstep(game, seed) for seed in range(GAMES)]
    assert all(rounds == 12 for rounds, _r in results)
    assert {tuple(r) for _n, r in results} >= {(1.0, -1.0), (-1.0, 1.0)}  # both seats win some games


def test_goofspiel_outcome_shares_agree_with_openspiel():
    """Independent random games: first-seat wins, second-seat wins and ties agree within 4 standard errors."""
    game = api.load_game("games/goofspiel.yaml")
    n = 300
    ours = []
    for seed in range(n):
        st = game.new_game(2, 20_000 + seed)
        rng = random.Random(seed)
        random_walk(st, rng)
        ours.append(_returns(st))
    theirs = []
    rng = random.Random(7)
    osg = pyspiel.load_game("goofspiel")
    for _ in range(n):
        s = osg.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice([a for a, _p in s.chance_outcomes()]))
            else:
                s.apply_actions([rng.choice(s.legal_actions(p)) for p in range(2)])
        theirs.append(list(s.returns()))
    for a, b, what in zip(_share(ours), _share(theirs), ("first seat wins", "second seat wins", "ties")):
        se = math.sqrt(max(a * (1 - a) + b * (1 - b), 1e-9) / n)
        assert abs(a - b) <= 4 * se + 1e-9, f"{what}: Rulewright {a:.3f}, OpenSpiel {b:.3f} (4 SE = {4 * se:.3f})"


# ---- Backgammon: a move of OpenSpiel is two checker moves of Rulewright, compared by position ---------------
# OpenSpiel's `backgammon` plays a roll as one action of two checker moves (a double as two such actions),
# numbers its actions by the moves' points and dice, and lists a move twice when two dice give the same
# position. Rulewright asks one decision per checker moved (its point and its die). So the engines are
# compared by what they allow, not by action ids: at every OpenSpiel decision the positions its legal
# actions lead to must be exactly the positions one or two Rulewright moves of that player lead to; then
# one OpenSpiel action is played at random, and Rulewright plays the moves that reach the same position.
# Dice: OpenSpiel's chance outcomes (the opening roll, then a roll per turn) are scripted into Rulewright's
# `roll`/`dice`; a turn with no move is OpenSpiel's `Pass` and passes by itself in Rulewright.

BG_GAMES = 3  # lockstep games (each step compares every reachable position, so they are slow-ish)


def _bg_theirs(s) -> tuple:
    """OpenSpiel's position as each player's checkers on their own points 0 (off) to 25 (the bar)."""
    text = str(s)
    bar = text.split("Bar:")[1].split("\n")[0]
    off = [int(x) for x in re.search(r"Scores, X: (\d+), O: (\d+)", text).groups()]
    out = []
    for p in range(2):
        men = [0] * 26
        for i in range(24):
            men[24 - i if p == 0 else i + 1] = s.board(p, i)
        men[25], men[0] = bar.count("xo"[p]), off[p]
        out.append(tuple(men))
    return tuple(out)


def _bg_ours(st, slots: list[int]) -> tuple:
    return tuple(tuple(st.pvars[k][p] for k in slots) for p in range(2))


def _bg_reachable(st, slots: list[int], player: int) -> dict[tuple, list[int]]:
    """Every position one or two moves of `player` reach from here (a move that ends the turn stops there),
    with the choices that reach it."""
    out: dict[tuple, list[int]] = {}
    turn = st.turn

    def walk(s, path):
        if len(path) == 2 or s.status is not Status.RUNNING or s.turn != turn:
            out.setdefault(_bg_ours(s, slots), path)
            return
        for i in range(len(s.decision().labels)):
            child = s.clone()
            child.scripted = None  # a look ahead: the next turn's roll comes from the copy's own generator
            child.apply(i)
            walk(child, path + [i])
    walk(st, [])
    return out


def _bg_chance(os_state, rng: random.Random) -> list[int]:
    """OpenSpiel's chance nodes and forced passes up to the next real decision; the dice they rolled."""
    dice = []
    while not os_state.is_terminal():
        if os_state.is_chance_node():
            outcome = rng.choice([a for a, _p in os_state.chance_outcomes()])
            dice += [int(x) for x in os_state.action_to_string(outcome).split("roll: ")[1].rstrip(")")]
            os_state.apply_action(outcome)
        elif [os_state.action_to_string(a) for a in os_state.legal_actions()] == ["Pass"]:
            os_state.apply_action(os_state.legal_actions()[0])
        else:
            break
    return dice


def _backgammon_lockstep(game: Game, seed: int) -> int:
    rng = random.Random(seed)
    os_state = pyspiel.load_game("backgammon").new_initial_state()
    opening = rng.choice([a for a, _p in os_state.chance_outcomes()])
    said = os_state.action_to_string(opening)  # "chance outcome 0 X starts, (roll: 12)"
    lo, hi = sorted(int(x) for x in said.split("roll: ")[1].rstrip(")"))
    first = [hi, lo] if "X starts" in said else [lo, hi]  # seat 1 (X) rolls first; the higher die starts
    os_state.apply_action(opening)
    later = _bg_chance(os_state, rng)
    st = game.new_game(2, seed, chance=Chance(dice=first + later))
    slots = [game.spec.vars["player"][f"men[{k}]"].index for k in range(26)]
    steps = 0
    while not os_state.is_terminal():
        player = os_state.current_player()
        assert st.status is Status.RUNNING and st.decision().player == player, f"seed {seed} step {steps}"
        theirs = {}
        for a in os_state.legal_actions():
            child = os_state.clone()
            child.apply_action(a)
            theirs.setdefault(_bg_theirs(child), a)
        mine = _bg_reachable(st, slots, player)
        assert set(mine) == set(theirs), (
            f"seed {seed} step {steps}: positions differ\n  only Rulewright: {sorted(set(mine) - set(theirs))[:3]}"
            f"\n  only OpenSpiel: {sorted(set(theirs) - set(mine))[:3]}")
        os_state.apply_action(rng.choice(os_state.legal_actions()))
        target = _bg_theirs(os_state)
        st.script_chance(dice=_bg_chance(os_state, rng))
        for i in mine[target]:
            st.apply(i)
        assert not st.chance_left(), f"seed {seed} step {steps}: Rulewright did not roll when OpenSpiel did"
        assert _bg_ours(st, slots) == _bg_theirs(os_state), f"seed {seed} step {steps}: positions differ after the move"
        steps += 1
    assert st.status is Status.FINISHED, st.reason
    assert _returns(st) == list(os_state.returns()), f"seed {seed}: results differ"
    return steps


def test_backgammon_positions_in_lockstep_with_openspiel():
    spec, _ = api.load_spec("games/backgammon.yaml")
    game = Game(spec)
    steps = [_backgammon_lockstep(game, seed) for seed in range(BG_GAMES)]
    assert min(steps) >= 20
