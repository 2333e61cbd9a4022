"""A kernel game replayed in the reference engine: its choices applied, its chance scripted.

Owns the decoding of a kernel game's chance record (the first player, each shuffle's resulting order,
each random number) and the replay itself: the recorded first seat and every random number are a
strict chance script (runtime/chance.py), and each shuffle is rigged to the recorded order of card ids
(`State.rig`). Both engines then make the same game, step for step;
that is how the tests prove the kernel means what the engine means, and how a kernel game that failed is
shown with its position.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..runtime.chance import Chance, ChanceError
from ..runtime.engine import Game, State, Status


@dataclass(slots=True)
class Record:
    """A kernel game's chance, decoded: the numbers in the order drawn (the first seat, drawn at random,
    as a number from 1 to the player count, as runtime/chance.py scripts it; each die; each `random`),
    and each shuffle's resulting order."""
    numbers: list[int] = field(default_factory=list)
    shuffles: list[tuple[int, list[int]]] = field(default_factory=list)  # (zone, cards bottom first)


def decode(record: list[int]) -> Record:
    out = Record()
    i = 0
    while i < len(record):
        tag = record[i]
        if tag == 0:  # the first seat
            out.numbers.append(int(record[i + 1]) + 1)
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


def prepare_for(record: Record):
    """A `new_game(prepare=...)` hook that scripts this record into the engine's state: its numbers as a
    strict chance script (runtime/chance.py: the engine may draw no number the kernel did not), and each
    shuffle rigged to the kernel's exact order of card ids (a script's orders name card types only)."""
    shuffles = list(record.shuffles)

    def rig(st: State, z: int) -> None:
        if not shuffles:
            raise ChanceError("the replay shuffles more often than the kernel did")
        zone, cards = shuffles.pop(0)
        if zone != z or sorted(cards) != sorted(st.zones[z]):
            raise ChanceError(f"the replay shuffles {st.g.zone_name(z)}, the kernel shuffled "
                              f"{st.g.zone_name(zone)} here")
        st.zones[z][:] = cards

    def prepare(st: State) -> None:
        st.scripted = Chance(record.numbers, strict=True)
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
