"""Seeds: how one master seed becomes a seed per game.

Owns the one derivation every runner uses (local, process pool, Ray), so a
sweep's results never depend on how its games were spread over workers.
"""
from __future__ import annotations

MASK = (1 << 63) - 1


def game_seed(master: int, index: int) -> int:
    """The seed of game `index` (0-based) of a sweep with master seed `master`."""
    x = (master * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & MASK
    x ^= x >> 31
    x = (x * 0xD6E8FEB86659FD93) & MASK
    return x ^ (x >> 29)


def agent_seed(game: int, seat: int) -> int:
    """The seed of the random agent at `seat` (0-based) in a game with seed `game`."""
    return game * 1000 + seat + 1


def shuffle(rng, x: list) -> None:
    """`rng.shuffle(x)`, draw for draw (the same permutation and the same stream after it), inlined.

    `random.Random.shuffle` picks each swap with `_randbelow(i + 1)`, which draws `getrandbits(k)` with
    k = (i + 1).bit_length() until the value is below i + 1; doing the same here, without two Python
    calls per card, makes a 52-card shuffle about twice as fast (tests/test_agents_speed.py checks
    it against `random.Random.shuffle`)."""
    bits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        x[i], x[j] = x[j], x[i]
