"""The run loop of a game: running to the next decision, turns and their end, the budget, the end of the game.

Owns `Turns`, the part of `State` (engine.py) that runs the flow program
until a decision or the end (`run`), counts every step against the budget
(`tick`, `spend`), passes and ends turns, checks the invariants after each
step, and finishes the game (`finish`, the scores). A phase's turn cycle and
its stall detection (`Cycle`) are built with the game, in engine.py.
"""
from __future__ import annotations


from ..lang.builtins import RuleError
from ..compile.codegen import EndGame, EndTurn
from ..lang.limits import MAX_CALL_DEPTH
from .chance import ChanceError
from .status import Stalled, Status


class Turns:
    """Running the flow between decisions (a part of State)."""
    __slots__ = ()

    def run(self) -> None:
        stack = self.stack
        try:
            while True:
                try:
                    while True:
                        fr = stack[-1]
                        if fr[0].fn(self, fr):
                            if self.check:
                                self._after()
                            return
                except EndTurn:
                    self.end_turn()
                except EndGame:
                    self.finish()
                    return self._after()
        except ChanceError as exc:  # the caller's script, not the spec, is at fault: say so to the caller
            self._stop(Status.ERROR, str(exc))
            raise
        except RuleError as exc:
            self._stop(Status.ERROR, f"{exc} (in {stack[-1][0].name})")
        except Stalled as exc:
            self._stop(Status.STALLED, str(exc))
        except RecursionError:
            self._stop(Status.ERROR, f"procedures call each other too deeply (in {stack[-1][0].name})")
        except Exception as exc:  # a case the checker let through: the game ends as an error, with its seed
            self._stop(Status.ERROR, f"rule code failed ({type(exc).__name__}: {exc}) in {stack[-1][0].name}")
        self._after()

    def _after(self) -> None:
        if self.check and self.status is Status.RUNNING or self.check and self.status is Status.FINISHED:
            self.check_invariants()

    def _stop(self, status: Status, reason: str) -> None:
        self.status = status
        self.reason = reason
        self.popts = None
        if self.log is not None:
            self.event("end", status=str(status), reason=reason, winners=[], turns=self.turn)

    def check_invariants(self) -> None:
        g = self.g
        for name, f in g.invariants.items():
            if f is not None and not f(self, [None] * g.scratch):
                self._stop(Status.ERROR, f"invariant '{name}' broken")
                return
        seen = 0
        for zid, z in enumerate(self.zones):
            for c in z:
                if self.where[c] != zid:
                    self._stop(Status.ERROR, f"card {c} is misplaced")
                    return
            seen += len(z)
        if seen != g.start(self.n).in_play:
            self._stop(Status.ERROR, "cards were lost or duplicated")
            return
        kept = self.zsum
        self.resum()
        if kept != self.zsum:
            self._stop(Status.ERROR, "the kept zone sums are out of date")

    def tick(self) -> None:
        self.steps += 1
        if self.steps > self.g.budget:
            raise Stalled(f"no end within the step budget ({self.g.budget} steps)")
        if len(self.stack) > MAX_CALL_DEPTH:
            raise RuleError(f"procedures and triggers call each other more than {MAX_CALL_DEPTH:,} deep")

    def spend(self, n: int) -> int:
        """Charge a loop's `n` iterations to the step budget at once; returns `n`."""
        if n > 0:
            if self.steps + n > self.g.budget:
                self.steps = self.g.budget
                self.tick()  # raises: the budget is spent
            self.steps += n
        return n

    def pass_turn(self) -> int:
        """The seat of the next turn: a chosen one (`next turn to`, `extra turn`), else the next seat in
        the turn order's direction, past skipped ones."""
        if self.nxt >= 0:
            p, self.nxt = self.nxt, -1
        else:
            p = (self.cur + self.order * (1 + self.skips)) % self.n
        self.skips = 0
        skip_if = self.g.skip_if
        if skip_if is not None:  # pass over the players `flow.skip_if` holds for (`me` is each candidate)
            cur, L = self.cur, [None] * self.g.scratch
            for _ in range(self.n):
                self.cur = p
                out = skip_if(self, L)
                self.cur = cur
                if not out:
                    return p
                p = (p + self.order) % self.n
            return cur
        return p

    def end_turn(self) -> None:
        if not self.in_turn:
            raise RuleError("`end turn` outside a turn")
        self.turn_over = True
        del self.stack[1:]

    def finish(self) -> bool:
        g = self.g
        teams = g.spec.teams
        if g.winners_fn is not None:
            self.winners = sorted(set(g.winners_fn(self, [None] * g.scratch)))
            if teams is not None:  # a side wins together: every seat of a side one of its seats won for
                sides, index = g._side_table(self.n)
                self.winners = sorted({q for p in self.winners for q in sides[index[p]]})
        elif g.score_idx is not None and teams is not None:
            scores = self.side_scores()
            top = max(scores)
            sides = g.sides(self.n)
            self.winners = sorted(p for k, side in enumerate(sides) if scores[k] == top for p in side)
        elif g.score_idx is not None:
            row = self.pvars[g.score_idx]
            top = max(row)
            self.winners = [p for p in self.seats if row[p] == top]
        self.status = Status.FINISHED
        self.popts = None
        del self.stack[1:]
        if self.log is not None:
            sides = {"side_scores": self.side_scores()} if g.spec.teams is not None and g.score_idx is not None else {}
            self.event("end", status="finished", winners=self.winners, turns=self.turn,
                       scores=self.scores(), **sides)
        return True

    def scores(self) -> list[int] | None:
        i = self.g.score_idx
        return None if i is None else self.pvars[i][:]

    def side_scores(self) -> list[int] | None:
        """Each side's score (`game.teams.score`: the highest of its seats', or their sum), or None."""
        i, teams = self.g.score_idx, self.g.spec.teams
        if i is None or teams is None:
            return None
        row = self.pvars[i]
        pick = sum if teams.score == "sum" else max
        return [pick(row[p] for p in side) for side in self.g.sides(self.n)]
