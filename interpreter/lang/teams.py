"""Partnerships: seats on a side (`game.teams`), and the builtins that name them in rule text.

Owns the `TeamsDef` of a spec (how seats form sides for each player count), the
spec-level checks of it (E490), the builtins `team(p)`, `partner(p)`,
`teammates(p)` and `opponents(p)` (added to the builtins table when this module
is imported, as boards.py does), and the check that they are used only in a
game with sides (E491, E492). Winners and scores by side are the engine's
(`State.finish`), the statistics by side the lab's (`lab/runner.Stats`).

A side is a list of seats (0-based here, from 1 in the spec). `size: s` seats
partners apart: with n players there are n // s sides and seat k (0-based)
plays on side k mod (n // s), so four players in sides of two are seats 1 and 3
against 2 and 4, as at a card table. `seats:` lists the sides for a game of one
player count.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .builtins import BUILTINS, Builtin, RuleError
from .kinds import T

if TYPE_CHECKING:  # pragma: no cover
    from ..spec.diagnostics import Span


@dataclass(slots=True)
class TeamsDef:
    size: int | None  # seats per side (partners apart), or None with `seats`
    seats: list[list[int]] | None  # each side's seats, 0-based
    names: list[str]
    score: str  # "same" | "sum"
    span: "Span | None"

    def sides(self, n: int) -> list[list[int]]:
        """The sides of a game with `n` players, each a list of seats (0-based), in order."""
        if self.seats is not None:
            return [[p for p in side if p < n] for side in self.seats]
        m = max(1, n // max(1, self.size or 1))
        return [[p for p in range(n) if p % m == k] for k in range(m)]

    def name(self, k: int) -> str:
        return self.names[k] if k < len(self.names) else f"side {k + 1}"


def build(raw: dict | None, span: "Span | None") -> TeamsDef | None:
    if raw is None:
        return None
    seats = raw.get("seats")
    return TeamsDef(raw.get("size"), [[p - 1 for p in side] for side in seats] if seats is not None else None,
                    [str(x) for x in raw.get("names") or []], raw.get("score", "same"), span)


def check(checker: Any) -> None:
    """E490: sides that do not divide the seats of every player count."""
    s = checker.spec
    t = s.teams
    if t is None:
        return
    at = s.doc.span(("game", "teams"), key=True)
    if t.size is not None:
        bad = [n for n in range(s.min_players, s.max_players + 1) if n % t.size or n // t.size < 2]
        if bad:
            checker.error("E490", f"game.teams: {bad[0]} players cannot sit in two or more sides of {t.size}",
                          s.doc.span(("game", "teams", "size")) or at,
                          hint=f"players from {s.min_players} to {s.max_players}: give a size that divides each count")
    if t.seats is not None:
        listed = sorted(p for side in t.seats for p in side)
        want = list(range(s.max_players))
        if s.min_players != s.max_players:
            checker.error("E490", "game.teams.seats lists the sides of one player count, but this game is for "
                          f"{s.min_players} to {s.max_players} players", s.doc.span(("game", "teams", "seats")) or at,
                          hint="use `size:` (partners apart) for a game of several player counts")
        elif listed != want:
            checker.error("E490", f"game.teams.seats must put each seat from 1 to {s.max_players} on exactly one side",
                          s.doc.span(("game", "teams", "seats")) or at,
                          hint="for example: seats: [[1, 3], [2, 4]]")
        elif len(t.seats) < 2:
            checker.error("E490", "game.teams.seats needs two sides or more", s.doc.span(("game", "teams", "seats")) or at)
    if len(t.names) > len(t.sides(s.max_players)):
        checker.error("E490", f"game.teams.names gives {len(t.names)} names for {len(t.sides(s.max_players))} sides",
                      s.doc.span(("game", "teams", "names")) or at)


def side_size(spec: Any) -> set[int]:
    """The sizes a side has in some game of the spec (for `partner`, which needs sides of two)."""
    t = spec.teams
    return {len(side) for n in range(spec.min_players, spec.max_players + 1) for side in t.sides(n)}


def check_call(checker: Any, e: Any, code: Any) -> None:
    """E491: a side builtin in a game without `game.teams`; E492: `partner` where a side is not two seats."""
    s = checker.spec
    if s.teams is None:
        checker.error("E491", f"{e.func}() names a side, but the game declares no sides", code, e.func_pos,
                      hint="declare them: `game: teams: {size: 2}` (partners sit apart)")
    elif e.func == "partner" and side_size(s) != {2}:
        checker.error("E492", "partner() needs sides of two seats; these sides have "
                      f"{' or '.join(map(str, sorted(side_size(s))))}", code, e.func_pos,
                      hint="use teammates(p) for the players of p's side")


# -- run time: the sides of a game with st.n players, kept per player count by the engine -----------
def side_of(st: Any, p: int) -> int:
    """The side (0-based) of seat `p`."""
    return st.g.side_index(st.n)[p]


def members(st: Any, p: int) -> list[int]:
    return st.g.sides(st.n)[side_of(st, p)]


def team_of(st: Any, p: int) -> int:
    return side_of(st, p) + 1


def partner_of(st: Any, me: int) -> int:
    mates = [q for q in members(st, me) if q != me]
    if len(mates) != 1:
        raise RuleError(f"partner(P{me + 1}): P{me + 1}'s side has {len(mates) + 1} seats, not two")
    return mates[0]


def teammates_of(st: Any, p: int) -> list[int]:
    return list(members(st, p))


def opponents_of(st: Any, p: int) -> list[int]:
    mine = side_of(st, p)
    index = st.g.side_index(st.n)
    return [q for q in st.seats if index[q] != mine]


TEAM_BUILTINS = {b.name: b for b in [
    Builtin("team", (T.PLAYER,), lambda ts: T.INT,
            "The side a player plays on, counted from 1 (a game with `game.teams`): `team(me) == team(p)` when "
            "p is my partner.", "team(me) == team(next(next(me)))", team_of, state=True),
    Builtin("partner", (T.PLAYER,), lambda ts: T.PLAYER,
            "The other player of a side of two (a game with `game.teams` whose sides are two seats).",
            "partner(me)", partner_of, state=True),
    Builtin("teammates", (T.PLAYER,), lambda ts: T.PLAYERS,
            "The players of a player's side, that player included, in seat order.",
            "sum(teammates(me), tricks)", teammates_of, state=True),
    Builtin("opponents", (T.PLAYER,), lambda ts: T.PLAYERS,
            "The players on the other sides, in seat order.", "opponents(me)", opponents_of, state=True),
]}
BUILTINS.update(TEAM_BUILTINS)
