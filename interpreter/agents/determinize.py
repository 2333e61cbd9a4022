"""Determinization: a full game state consistent with what one player knows.

Owns: which zones a player cannot see (visibility `hidden`, and `owner`
zones of other seats), and re-dealing them: `Determinizer(state, player)`
does the work one decision needs once (one clone of the state, the pooled
unseen cards in a canonical order, the zones they fill), and each
`sample(rng)` is then a clone of that base in which the unseen cards are
re-dealt at random among those zones (each keeps its size) and whose future
chance is re-seeded from `rng`, so it is not the true game's either.
`determinize(state, player, rng)` is one sample. A sample depends only on
`state.view(player)` and `rng`: the pool is sorted before the deal, so the
true arrangement of hidden cards cannot leak through.

The deal sorts the pool by one `rng.random()` key per card (a uniform
permutation, about twice as fast as `random.shuffle`); a sample's own RNG
is planted as a seed (`State.reseed`) and only built if the sample meets
chance; `sample(rng, share=True)` instead lets the sample draw from `rng` itself (MCTS, whose
samples are played out and never cloned). When all unseen cards lie in one zone (a draw pile) only their order
changes, so card positions and zone sums need no update. A sample's `choices` starts empty: the
game's history is not copied into every sample (late in a game that copy cost more than the rest of
the clone), and nothing a search reads needs it.

Cards that start in each player's own zone (a card type `in:` a player zone) show whose they are
on their backs, as a player's coloured discs do: a sample re-deals such a card only among the places
where an unseen card of the same owner lies, so each hidden zone keeps how many cards of each owner
it holds (`home_seats`). Other cards are pooled as before.

Hidden variables (`visible: owner`, `side`, `nobody`: lang/hidden.py) are secrets too: every value
`player` may not read now (runtime/redact.py decides) is drawn again in each sample, uniformly from
what the variable can hold: a number from its `min` to its `max` (a die declared `min: 1, max: 6`),
a text among its `values`, a seat, a truth value. A number without both bounds cannot be guessed and
is set to its start value, never left at the true one.

The search kernel mirrors all of this natively (kernel/search_deal.py): a change here is a change there.

What it deliberately does not model: what a player remembers of cards that
went out of sight (a card seen in the row and later discarded face down is
re-dealt like any unseen card), and card ids held in the locals of a paused
rule (a rule that remembers a hidden card by id still sees that id).
"""
from __future__ import annotations

import random
from weakref import WeakKeyDictionary

from ..runtime.engine import Game, State

_unseen: "WeakKeyDictionary[Game, dict]" = WeakKeyDictionary()


def unseen_zones(game: Game, players: int, player: int) -> list[int]:
    """Zone ids whose cards `player` cannot see, in zone-id order (computed once per game and seat)."""
    per_game = _unseen.get(game)
    if per_game is None:
        per_game = _unseen[game] = {}
    key = (players, player)
    if key not in per_game:
        from ..runtime.redact import zone_sight  # the one reading of zone visibility
        per_game[key] = [zid for zid, seen in enumerate(zone_sight(game, players, player)) if not seen]
    return per_game[key]


_homes: "WeakKeyDictionary[Game, list | None]" = WeakKeyDictionary()


def home_seats(game: Game) -> list[int] | None:
    """Per card id, the seat whose own card it is (-1: nobody's), or None when no card type starts in a
    player zone (then every unseen card is pooled with every other)."""
    if game not in _homes:
        homes = [-1] * len(game.card_type)
        for ct in game.spec.cards.values():
            if ct.per_seat:
                block = ct.ids // max(game.spec.max_players, 1)
                for k in range(ct.ids):
                    homes[ct.first_id + k] = k // block
        _homes[game] = homes if any(h >= 0 for h in homes) else None
    return _homes[game]


class Determinizer:
    """Samples of one state as one player sees it (see the module docstring)."""
    __slots__ = ("base", "player", "zones", "sizes", "pool", "moved", "together", "classes", "spans", "zone_at",
                 "secrets")

    def __init__(self, state: State, player: int):
        self.base = state.clone()
        self.base.choices = []  # a sample does not carry the game's history: copying it would cost the most
        self.player = player
        zones = [z for z in unseen_zones(state.g, state.n, player) if state.zones[z]]
        self.zones = zones
        self.sizes = [len(state.zones[z]) for z in zones]
        self.pool = sorted(c for z in zones for c in state.zones[z])
        self.moved = len(zones) > 1  # cards can change zones: positions and zone sums must follow
        self.spans, self.zone_at, at = [], [], 0  # per zone (zone, start, end) in the deal; per position its zone
        for z, k in zip(zones, self.sizes):
            self.spans.append((z, at, at + k))
            self.zone_at += [z] * k
            at += k
        self.together = any(getattr(fr[0], "together", None) for fr in state.stack)  # a `choose together` paused
        homes = home_seats(state.g)
        self.classes = None  # per position of the deal, the owner class its card must have
        if homes is not None and self.moved and len({homes[c] for c in self.pool}) > 1:
            self.classes = [homes[c] for z in zones for c in state.zones[z]]
        self.secrets = hidden_values(state, player)

    def sample(self, rng: random.Random, share: bool = False) -> State:
        """A re-dealt copy whose future chance is seeded from `rng` (its own generator, built when it first
        meets chance). With `share` the copy draws its chance from `rng` itself, in turn with the caller:
        no generator to build (about as much as the rest of a sample when a playout reshuffles), for a
        caller that plays the copy out without cloning it (MCTS); a clone of such a copy would not keep
        the stream its parent had at the clone (the caller goes on drawing from `rng`)."""
        s = self.base.clone()
        if self.zones:
            rnd = rng.random
            pool = sorted(self.pool, key=lambda _c: rnd())
            if self.classes is not None:  # each owner's cards re-dealt among the places of that owner's cards
                homes = home_seats(s.g)
                by_class: dict[int, list[int]] = {}
                for c in pool:
                    by_class.setdefault(homes[c], []).append(c)
                pool = [by_class[k].pop() for k in self.classes]
            if not self.moved:
                s.zones[self.zones[0]] = pool
            else:
                zones, where = s.zones, s.where
                for c, z in zip(pool, self.zone_at):
                    where[c] = z
                for z, a, b in self.spans:
                    zones[z] = pool[a:b]
                for j, t in enumerate(s.g.sum_tables):
                    get, row = t.__getitem__, s.zsum[j]
                    for z, a, b in self.spans:
                        row[z] = sum(map(get, zones[z]))
        for row, seat, draw in self.secrets:  # what `player` may not read, drawn again
            if seat < 0:
                s.gvars[row] = draw(rng, s.n)
            else:
                s.pvars[row][seat] = draw(rng, s.n)
        if share:
            s.draw_from(rng)
        else:
            s.reseed(rng.getrandbits(64))
        s.scripted = None  # an example's scripted dice are future chance too
        if self.together:
            _redraw_hidden_choices(s, self.player, rng)
        return s


def hidden_values(state: State, player: int) -> list[tuple]:
    """(row, seat or -1 for a global, draw(rng, n)) of every variable value `player` may not read now."""
    g = state.g
    if all(v == "public" for v in g.pvar_vis) and all(v == "public" for v in g.gvar_vis):
        return []
    from ..runtime.redact import var_seers
    spec = g.spec
    out = []
    for scope, table, seats in (("global", spec.vars["global"], [None]), ("player", spec.vars["player"], state.seats)):
        for vd in table.values():
            if vd.visible == "public":
                continue
            for p in seats:
                if player not in var_seers(state, scope, vd.index, p):
                    out.append((vd.index, -1 if p is None else p, _drawer(vd)))
    return out


def _drawer(vd):
    """How to draw a value the variable can hold (see the module docstring)."""
    if vd.type == "bool":
        return lambda rng, n: rng.random() < 0.5
    if vd.type == "player":
        return lambda rng, n: rng.randrange(n)
    if vd.type == "text":
        values = list(vd.values or [vd.start])
        return lambda rng, n: values[rng.randrange(len(values))]
    if vd.min is not None and vd.max is not None:
        lo, hi = vd.min, vd.max
        return lambda rng, n: rng.randint(lo, hi)
    start = vd.start
    return lambda rng, n: start


def determinize(state: State, player: int, rng: random.Random) -> State:
    """A clone of `state` that `player` cannot tell from the real one."""
    return Determinizer(state, player).sample(rng)


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
