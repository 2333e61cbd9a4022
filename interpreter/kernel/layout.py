"""The kernel's flat state: one int64 array per game, so a copy of a position is one array copy.

Owns where everything lives in that array (`Layout`), the run-time parameters array (players,
budget, options, readings, board sizes), and the status and stop codes a kernel game ends with.

    header  cur, turn, steps, decisions, status, turn_over, in_turn, idle, quiet, next seat, order,
            skips, players, error code, the chance and agents' random streams, record counters, work
            (elements expressions went through since the last step they were charged: lang/limits.py)
    winners one flag per seat
    gvars   global variables (keyed ones: one slot per key)
    pvars   per player variable slot i, seat p at pv + i * max_players + p
    tvars   turn variables
    zlen    cards in each zone (shared zones first, then each seat's zones)
    zones   each zone's cards, bottom first, `n_cards` slots per zone
    where   each card's zone (-1: not in this game)
    seen    per ambiguity, how often a rule read its reading this game (the lab's "reached")
    sums    kept zone sums: per table of card values some rule sums or counts over a whole zone, per zone
"""
from __future__ import annotations

from dataclasses import dataclass

from ..lower import ir

# header slots
CUR, TURN, STEPS, DECISIONS, STATUS, TURN_OVER, IN_TURN, IDLE, QUIET, NXT, ORDER, SKIPS, N, ERR, RNG, ARNG, \
    NCH, NCC, WORK = range(19)
HEADER = 20

# status (the engine's Status, as numbers)
RUNNING, FINISHED, STALLED, ERROR = 0, 1, 2, 3
STATUS_NAMES = {RUNNING: "running", FINISHED: "finished", STALLED: "stalled", ERROR: "error"}

# why a kernel game stopped (ERR); the reference engine's replay gives the message
STOPS = {
    1: "stalled: nobody had a decision to make for many rounds",
    2: "stalled: no player has a legal action",
    3: "stalled: a player must choose but has no legal option",
    4: "stalled: no end within the step budget",
    10: "error: a rule did something impossible",
    11: "error: a variable left its bounds",
    12: "error: `end turn` outside a turn",
    13: "error: a decision with too many options",
    14: "error: the game's record is full",
}

# parameters
P_N, P_BUDGET, P_CAPCH, P_CAPCC, P_FIRST = 0, 1, 2, 3, 4  # then options, readings, boards


@dataclass(slots=True)
class Layout:
    max_players: int
    n_cards: int  # card slots per zone (at least 1)
    n_zones: int
    n_shared: int
    n_player_zones: int
    win: int
    gv: int
    pv: int
    tv: int
    zl: int
    zc: int
    wh: int
    cov: int
    zs: int
    n_kept: int
    size: int
    opt: int  # parameter index of the first option
    read: int  # ... of the first reading
    board: int  # ... of the first board's rows (then its columns, then the next board's)
    n_params: int

    def out_columns(self, n_readings: int, n_measures: int = 0) -> int:
        """Columns of a batch's output row: 7 counts, winner flags, scores, reading counts, measures."""
        return 7 + 2 * self.max_players + n_readings + n_measures

    @staticmethod
    def of(g: ir.Game, n_kept: int = 0) -> "Layout":
        mp = g.max_players
        c = max(1, g.n_cards)
        nz = g.n_shared + g.n_player_zones * mp
        win = HEADER
        gv = win + mp
        pv = gv + len(g.gvars)
        tv = pv + len(g.pvars) * mp
        zl = tv + len(g.tvars)
        zc = zl + nz
        wh = zc + nz * c
        cov = wh + c
        zs = cov + len(g.readings)
        size = zs + n_kept * nz
        opt = P_FIRST
        read = opt + len(g.options)
        board = read + len(g.readings)
        return Layout(mp, c, nz, g.n_shared, g.n_player_zones, win, gv, pv, tv, zl, zc, wh, cov, zs, n_kept, size, opt, read, board,
                      board + 2 * len(g.boards))
