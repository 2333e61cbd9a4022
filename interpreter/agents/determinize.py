"""Determinization: a full game state consistent with what one player knows.

Owns: which zones a player cannot see (visibility `hidden`, and `owner`
zones of other seats), and `determinize(state, player, rng)`, a clone in
which every card of those zones is re-dealt at random among them (each
zone keeps its size) and whose RNG is re-seeded, so future chance is not
the true game's either. The result depends only on `state.view(player)`
and `rng`: the cards to re-deal are pooled in a canonical order before the
shuffle, so the true arrangement of hidden cards cannot leak through.

What it deliberately does not model: what a player remembers of cards that
went out of sight (a card seen in the row and later discarded face down is
re-dealt like any unseen card), and card ids held in the locals of a paused
rule (a rule that remembers a hidden card by id still sees that id).
"""
from __future__ import annotations

import random

from ..runtime.engine import Game, State


def unseen_zones(game: Game, players: int, player: int) -> list[int]:
    """Zone ids whose cards `player` cannot see, in zone-id order."""
    out = []
    for zid in range(game.S + game.P * players):
        if zid < game.S:
            vis, owner = game.zone_vis[("shared", zid)], None
        else:
            owner, k = divmod(zid - game.S, game.P)
            vis = game.zone_vis[("player", k)]
        if vis == "hidden" or vis == "owner" and owner != player:
            out.append(zid)
    return out


def determinize(state: State, player: int, rng: random.Random) -> State:
    """A clone of `state` that `player` cannot tell from the real one."""
    s = state.clone()
    zones = unseen_zones(s.g, s.n, player)
    if zones:
        pool = sorted(c for z in zones for c in s.zones[z])
        rng.shuffle(pool)
        at = 0
        for z in zones:
            k = len(s.zones[z])
            part = pool[at:at + k]
            at += k
            s.zones[z] = part
            for c in part:
                s.where[c] = z
        s.resum()
    s.rng = random.Random(rng.getrandbits(64))
    s.scripted = None  # an example's scripted dice are future chance too
    _redraw_hidden_choices(s, player, rng)
    return s


def _redraw_hidden_choices(s: State, player: int, rng: random.Random) -> None:
    """A `choose together` in progress: the choices other players made are not known to `player`, so
    each is drawn again among that player's options (in the re-dealt position)."""
    for fr in s.stack:
        for t in getattr(fr[0], "together", None) or ():
            L = fr[2]
            picks, seats = L[t.picks], L[t.players]
            if not picks or seats is None:
                continue
            saved = L[t.player]
            new = []
            for k, pick in enumerate(picks):
                if seats[k] != player:
                    L[t.player] = seats[k]
                    options = t.options(s, L)
                    pick = options[rng.randrange(len(options))] if options else pick
                new.append(pick)
            L[t.player] = saved
            L[t.picks] = tuple(new)
