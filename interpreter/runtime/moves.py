"""Cards moving and chance: moves between zones, shuffles, draws, dice, and the triggers they fire.

Owns `Moves`, the part of `State` (engine.py) that moves a card, a zone's
cards or a list of cards (`move_card`, `move_zone`, `move_cards`, each
logged and fired as a trigger), shuffles, draws chance from the seeded RNG
or a chance script, and records events.
"""
from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .chance import Chance, install as _install_chance
from .seeds import shuffle as _shuffle


class Moves:
    """Moving cards and drawing chance (a part of State)."""
    __slots__ = ()

    def move_card(self, c: int, dst: int) -> None:
        src = self.where[c]
        zl = self.zones[src]
        if zl and zl[-1] == c:
            zl.pop()
        else:
            zl.remove(c)
        self.zones[dst].append(c)
        self.where[c] = dst
        for j, t in enumerate(self.g.sum_tables):
            zs = self.zsum[j]
            zs[src] -= t[c]
            zs[dst] += t[c]
        if self.log is not None:
            self.log_move([c], src, dst)
        if self.g.triggers:
            self._fire(dst, [c])

    def log_move(self, cards: list[int], src: int, dst: int) -> None:
        g = self.g
        moved = self.moved
        for c in cards:
            moved.setdefault(c, src)  # the first place it left in this step
        if self.chosen is not None:
            from .redact import widen, zone_seers
            widen(self.chosen[0], self.chosen[1], cards, zone_seers(g, dst, self.n), self.n)
        self.event("move", cards=[g.card_label[c] for c in cards], src=g.zone_name(src), dst=g.zone_name(dst))

    def move_zone(self, src: int, dst: int) -> None:
        cards = self.zones[src]
        if src == dst or not cards:
            return
        self.zones[src] = []
        self.zones[dst].extend(cards)
        where = self.where
        for c in cards:
            where[c] = dst
        for zs in self.zsum:
            zs[dst] += zs[src]
            zs[src] = 0
        if self.log is not None:
            self.log_move(cards, src, dst)
        if self.g.triggers:
            self._fire(dst, cards)

    def move_cards(self, cards: list[int], dst: int) -> None:
        for c in cards:
            self.move_card(c, dst)

    def chance(self) -> random.Random:
        """The game's RNG, made this state's own first if a clone shares it (copy on write).

        A clone shares its parent's `random.Random` and both are marked; the first of them to draw copies
        the generator's state (the other keeps the untouched original), so a clone costs no RNG copy
        until it meets chance, and the stream each state draws is exactly the one it would draw alone.
        `rng` may also be an int: a seed planted by `reseed()`, turned into a generator on first use."""
        if self.rng_cow:
            old = self.rng
            if type(old) is int:
                self.rng = random.Random(old)
            else:
                self.rng = random.Random(0)  # (a fixed seed: unseeded, it would read the OS's entropy first)
                self.rng.setstate(old.getstate())
            self.rng_cow = False
        return self.rng

    def reseed(self, seed: int) -> None:
        """From here on chance comes from `seed` (for search: a determinized copy's own future)."""
        self.rng = seed
        self.rng_cow = True

    def draw_from(self, rng: random.Random) -> None:
        """From here on chance is drawn from `rng` itself, in turn with whoever else draws from it (for
        search: a copy that is played out and never cloned, drawing from its agent's own generator). A clone
        of this state would not keep the stream it had at the clone: the owner of `rng` draws on."""
        self.rng = rng
        self.rng_cow = False

    # -- chance from outside (runtime/chance.py) -----------------------------------------
    def script_chance(self, dice: Iterable[int] = (), decks: Mapping[str, Sequence] | None = None) -> None:
        """Add outcomes to this game's chance script, after what it still holds: the next numbers
        (`dice`) and the next shuffles' orders (`decks`, top card first), as `Chance` takes them. A game
        started without a script gets a strict one here. Raises `ChanceError` for a zone or card the spec
        does not have, or a card it holds fewer of than the order lists."""
        _install_chance(self, Chance(dice, decks), add=True)

    def chance_left(self) -> Chance | None:
        """What the chance script has not used yet (a copy: its `dice`, its `decks`' orders), or None when
        the game has no script. `len()` of it is 0 when the game used every outcome it was given."""
        return self.scripted.copy() if self.scripted is not None else None

    def shuffle(self, z: int) -> None:
        _shuffle(self.rng if not self.rng_cow else self.chance(), self.zones[z])
        if self.rig is not None:
            self.rig(self, z)
        if self.log is not None:
            self.event("shuffle", zone=self.g.zone_name(z))

    def _fire(self, dst: int, cards: list[int]) -> None:
        g = self.g
        if dst < g.S:
            key, owner = ("shared", dst), self.cur
        else:
            owner, k = divmod(dst - g.S, g.P)
            key = ("player", k)
        found = g.triggers.get(key)
        if not found:
            return
        pending = []
        for c in cards:
            for when, prog in found:
                L = [None] * max(prog.n_locals, 2)
                L[0], L[1] = c, owner
                if when is None or when(self, L):
                    pending.append([prog, 0, L])
        self.stack.extend(reversed(pending))  # the first card's trigger runs first
        if pending:  # triggers that fire each other end at the budget or the call depth
            self.tick()

    def event(self, kind: str, **data: Any) -> None:
        self.log.append({"e": kind, **data})
