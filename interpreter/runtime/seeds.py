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
