"""A kernel game replayed in the reference engine: its choices applied, its chance scripted.

Owns the decoding of a kernel game's chance record (the first player, each shuffle's resulting order,
each random number) and the replay itself: the engine's first-player draw answers with the recorded
seat, each shuffle is rigged to the recorded order (`State.rig`), and the random numbers are scripted
(`State.scripted`, as an example's `given: rolls:`). Both engines then make the same game, step for step;
that is how the tests prove the kernel means what the engine means, and how a kernel game that failed is
shown with its position.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..lang.builtins import RuleError
from ..runtime.engine import Game, State, Status


@dataclass(slots=True)
class Chance:
    first: int | None = None
    shuffles: list[tuple[int, list[int]]] = field(default_factory=list)  # (zone, cards bottom first)
    numbers: list[int] = field(default_factory=list)


def decode(record: list[int]) -> Chance:
    out = Chance()
    i = 0
    while i < len(record):
        tag = record[i]
        if tag == 0:
            out.first = int(record[i + 1])
            i += 2
        elif tag == 1:
            z, n = int(record[i + 1]), int(record[i + 2])
            out.shuffles.append((z, [int(c) for c in record[i + 3:i + 3 + n]]))
            i += 3 + n
        elif tag == 2:
            out.numbers.append(int(record[i + 1]))
            i += 2
        else:
            raise ValueError(f"a kernel chance record with an unknown entry {tag} at {i}")
    return out


class _Drawn:
    """The engine's generator during a replay: the first player is the kernel's; shuffles are rigged after."""

    def __init__(self, first: int | None):
        self.first = first

    def randrange(self, n: int) -> int:
        if self.first is None or not 0 <= self.first < n:
            raise RuleError("the kernel's record has no first player for this draw")
        return self.first

    def getrandbits(self, k: int) -> int:
        return 0  # a shuffle's draws: its result is replaced by the recorded order (rig)

    def randint(self, a: int, b: int) -> int:
        raise RuleError("the replay draws a random number the kernel did not record")

    def getstate(self) -> tuple:
        return ("kernel", self.first)


def prepare_for(chance: Chance):
    """A `new_game(prepare=...)` hook that scripts this chance record into the engine's state."""
    shuffles = list(chance.shuffles)

    def rig(st: State, z: int) -> None:
        if not shuffles:
            raise RuleError("the replay shuffles more often than the kernel did")
        zone, cards = shuffles.pop(0)
        if zone != z or sorted(cards) != sorted(st.zones[z]):
            raise RuleError(f"the replay shuffles zone {z}, the kernel shuffled zone {zone} here")
        st.zones[z][:] = cards

    def prepare(st: State) -> None:
        st.rng = _Drawn(chance.first)
        st.rng_cow = False
        st.scripted = list(chance.numbers)
        st.rig = rig
    return prepare


def replay(game: Game, players: int, seed: int, choices: list[int], record: list[int], **kw) -> State:
    """The kernel game (seed, choices, chance record) played again in the reference engine (`kw`: new_game's
    log and check_invariants)."""
    st = game.new_game(players, seed, prepare=prepare_for(decode(record)), **kw)
    for i in choices:
        if st.status is not Status.RUNNING:
            break
        st.apply(int(i))
    return st
