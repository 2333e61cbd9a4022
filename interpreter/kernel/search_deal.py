"""The search kernel's determinization: a copy's position made one its seat cannot tell from the real one.

Owns what a seat may not know on the kernel and how a search's copy forgets it (agents/determinize.py is
the reference, and this mirrors it):

- the cards: the zones a seat cannot see (`unseen_zones`) and whose own card each card is (`home_seats`);
  `_deal` pools the unseen cards in card order and re-deals them among the zones they lie in (each keeps
  its size; a card that shows its owner stays among its owner's places);
- the hidden variables (`visible: owner | side | nobody`, lang/hidden.py): `Secrets` holds, per variable
  slot of the kernel's array, who may read it (as runtime/redact.py's `var_seers` decides: its owner, the
  owner's side, nobody; everyone once a `reveal` showed it and until it changes) and what it can hold;
  `_secrets` draws again every value the seat may not read now, uniformly from what the variable can hold
  (a number from its `min` to its `max`, a text among its `values`, a seat, a truth value; a number
  without both bounds is set to its start value, never left at the true one). Who has seen what is kept
  in the array (`SH`: one flag per variable slot, set by `reveal`, cleared when the value changes; the
  snapshot keeps its own, `SHS`), written by the generated code (search_emit.py);
- a `choose together` in progress (the others' sealed picks): the generated loop draws each earlier
  pick of another seat again among that seat's options in the re-dealt position, from `A_RDR`, a stream
  `_deal` seeds from the deal (so a greedy sample, dealt once for all its options, redraws the same).

The values are drawn before the cards, from the deal's own stream: a spec with no hidden variable deals
exactly as before, and a greedy sample that applies its first option's kept deal (DB) draws the same
values again. The numba source (`_DEAL_RUNTIME`) is put into each search module by search_emit.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..lang.model import Spec
from .unsupported import Unsupported

VIS_CODES = {"public": 0, "owner": 1, "side": 2, "nobody": 3}
# how a hidden value is drawn again: (kind, a, b)
DRAW_BOOL, DRAW_SEAT, DRAW_TEXT, DRAW_RANGE, DRAW_START = range(5)


def unseen_zones(spec: Spec, player: int) -> list[int]:
    """Kernel zone ids whose cards `player` cannot see (as agents/determinize.py's, for every seat there is)."""
    shared = {z.index: z.visibility for z in spec.zones.values() if z.owner == "shared"}
    own = {z.index: z.visibility for z in spec.zones.values() if z.owner == "player"}
    out = [z for z in range(spec.n_shared) if shared[z] == "hidden"]
    for seat in range(spec.max_players):
        for k in range(spec.n_player_zones):
            vis = own[k]
            if vis == "hidden" or vis == "owner" and seat != player:
                out.append(spec.n_shared + seat * spec.n_player_zones + k)
    return out


def home_seats(spec: Spec) -> list[int]:
    """Per card id, the seat whose own card it is, -1 for nobody's (as agents/determinize.py's)."""
    homes: list[int] = []
    for ct in spec.cards.values():
        if ct.per_seat:
            block = ct.ids // max(spec.max_players, 1)
            homes += [k // block for k in range(ct.ids)]
        else:
            homes += [-1] * ct.ids
    return homes or [-1]


@dataclass
class Secrets:
    """Per variable slot of the kernel's array (the globals, then player variable i of seat p at
    n_global + i * max_players + p): who may read it (VIS_CODES) and how its value is drawn again; the
    side of each seat per player count (for `visible: side`); the actions whose choice only the chooser
    sees (`secret: true`)."""
    vis: list[int]
    draws: list[tuple[int, int, int]]
    texts: list[int]
    sides: list[list[int]]  # [n][seat]: the seat's side in a game of n players (-1: no such seat)
    n_global: int
    secret_actions: set[str] = field(default_factory=set)

    @property
    def any(self) -> bool:
        return any(self.vis)

    def hidden(self, scope: str, row: int) -> bool:
        """Whether variable row `row` of `scope` (a key's row, for a keyed variable) is not public."""
        if scope == "turn":
            return False
        mp = len(self.sides[0])
        return self.vis[row if scope == "global" else self.n_global + row * mp] != 0

    def constants(self) -> str:
        """The tables as module constants (search_emit.py puts them into the module)."""
        mp = len(self.sides[0])

        def arr(name: str, xs: list[int]) -> str:
            return f"{name} = np.array([{', '.join(map(str, xs or [0]))}], dtype=np.int64)"
        return "\n".join([
            f"NSH = {len(self.vis)}",
            f"NGV = {self.n_global}",
            f"SECRETS = {int(self.any)}",
            arr("VIS", self.vis),
            arr("DK", [d[0] for d in self.draws]),
            arr("DA", [d[1] for d in self.draws]),
            arr("DB2", [d[2] for d in self.draws]),
            arr("TEXTS", self.texts),
            f"SIDE = np.array([{', '.join(', '.join(map(str, row)) for row in self.sides)}], "
            f"dtype=np.int64).reshape({len(self.sides)}, {mp})",
        ])


def secrets_of(spec: Spec, lowerer, gvars: list, pvars: list) -> Secrets:
    """The spec's Secrets; `lowerer` interns a text variable's values (the ids the kernel's state holds),
    `gvars`/`pvars` are the lowered slots (ir.VarInfo: the start value as the kernel holds it)."""
    mp = spec.max_players
    ng = len(gvars)
    vis = [0] * (ng + len(pvars) * mp)
    draws = [(DRAW_START, 0, 0)] * len(vis)
    texts: list[int] = []
    for scope, table, infos in (("global", spec.vars["global"], gvars), ("player", spec.vars["player"], pvars)):
        for vd in table.values():
            if vd.visible == "public":
                continue
            draw = _draw(vd, infos[vd.index].start, lowerer, texts)
            slots = [vd.index] if scope == "global" else [ng + vd.index * mp + p for p in range(mp)]
            for j in slots:
                vis[j] = VIS_CODES[vd.visible]
                draws[j] = draw
    sides = [[-1] * mp for _ in range(mp + 1)]
    for n in range(spec.min_players, mp + 1):
        for k, side in enumerate(spec.teams.sides(n) if spec.teams is not None else [[p] for p in range(n)]):
            for p in side:
                sides[n][p] = k
    secret = {name for name, a in spec.actions.items() if getattr(a, "secret", False)}
    return Secrets(vis, draws, texts, sides, ng, secret)


def _draw(vd, start: int | None, lowerer, texts: list[int]) -> tuple[int, int, int]:
    """How a value of `vd` is drawn again (agents/determinize.py's `_drawer`, on the kernel's numbers)."""
    if vd.type == "bool":
        return (DRAW_BOOL, 0, 0)
    if vd.type == "player":
        return (DRAW_SEAT, 0, 0)
    if vd.type == "text" and vd.values:
        at = len(texts)
        texts.extend(lowerer.intern(v) for v in vd.values)
        return (DRAW_TEXT, at, len(vd.values))
    if vd.type not in ("text", "cell") and vd.min is not None and vd.max is not None:
        return (DRAW_RANGE, int(vd.min), int(vd.max))
    if start is None:  # a cell an option places: its start is the start position's, not a constant
        raise Unsupported(f"a hidden variable (`{vd.name}`) whose start cell an option places, with search agents, "
                          "is not yet on the kernel",
                          span=vd.span)
    return (DRAW_START, int(start), 0)


_DEAL_RUNTIME = '''
@njit(cache=True)
def _secrets(st, me):
    """Every hidden value `me` may not read now drawn again (search_deal.py), from the deal's stream."""
    if not SECRETS:
        return
    n = st[N]
    slot = AG + A_DEAL
    for j in range(NSH):
        v = VIS[j]
        if v == 0 or st[SH + j] != 0:  # public, or shown by a `reveal` and unchanged since
            continue
        if j >= NGV:
            p = (j - NGV) % MP
            if p >= n or v == 1 and p == me or v == 2 and SIDE[n, p] == SIDE[n, me]:
                continue
        k = DK[j]
        if k == 0:
            x = _below(st, slot, 2)
        elif k == 1:
            x = _below(st, slot, n)
        elif k == 2:
            x = TEXTS[DA[j] + _below(st, slot, DB2[j])]
        elif k == 3:
            x = DA[j] + _below(st, slot, DB2[j] - DA[j] + 1)
        else:
            x = DA[j]
        st[GV + j] = x


@njit(cache=True)
def _deal(st, me):
    """Re-deal the cards `me` cannot see among the zones they lie in (each keeps its size; a card that
    shows its owner stays among its owner's places); the pool is in card order first, so the true
    arrangement cannot leak. The hidden values `me` may not read are drawn again first. A greedy sample
    deals the same for every option: the first option's deal is kept (DB: its count, then slots, cards
    and zones) and the others apply it. Cards re-dealt within one zone (a draw pile) only change their
    order there: their zones and the zone sums stay as they are. A `choose together` in progress redraws the others' picks from
    A_RDR, seeded here from the deal."""
    st[AG + A_RDR] = np.int64(np.uint64(st[AG + A_DEAL]) ^ np.uint64(0x70CE7E4))
    _secrets(st, me)
    if st[AG + A_DCACHE] != 0:
        total = st[DB]
        for j in range(total):
            st[st[DB + 1 + j]] = st[DB + 1 + NC + j]
        if total and st[DB + 1 + 2 * NC] != st[DB + 2 * NC + total]:
            for j in range(total):
                st[WH + st[DB + 1 + NC + j]] = st[DB + 1 + 2 * NC + j]
            _resum(st, me)
        return
    total = 0
    for z in range(NZ):
        if UNSEEN[me, z] != 0:
            b = ZC + z * NC
            for j in range(st[ZL + z]):
                st[DB + 1 + total] = b + j
                st[DB + 1 + 2 * NC + total] = z
                st[DB + 1 + NC + total] = st[b + j]
                total += 1
    st[DB] = total
    st[AG + A_DCACHE] = st[AG + A_KEEPDEAL]
    if total == 0:
        return
    cards = st[DB + 1 + NC:DB + 1 + NC + total]
    slot = AG + A_DEAL
    if not HOMES:  # one pool: sorted (nothing of the true order left), then shuffled
        cards.sort()
        for j in range(total - 1, 0, -1):
            r = _below(st, slot, j + 1)
            t = cards[j]
            cards[j] = cards[r]
            cards[r] = t
    else:  # each owner class (-1: nobody's) re-dealt among its own places
        m0 = st[TOP]  # the lists below are dead when the deal is done
        pool = _copy(st, cards)
        pool.sort()
        cls = _new(st, total)
        for j in range(total):
            cls[j] = HOME[cards[j]]
        for c in np.unique(cls):
            mine = _new(st, total)
            m = 0
            for j in range(total):
                if HOME[pool[j]] == c:
                    mine[m] = pool[j]
                    m += 1
            for j in range(m - 1, 0, -1):
                r = _below(st, slot, j + 1)
                t = mine[j]
                mine[j] = mine[r]
                mine[r] = t
            m = 0
            for j in range(total):
                if cls[j] == c:
                    cards[j] = mine[m]
                    m += 1
        st[TOP] = m0
    for j in range(total):
        st[st[DB + 1 + j]] = cards[j]
    if st[DB + 1 + 2 * NC] != st[DB + 2 * NC + total]:  # the cards changed zones (the pool is in zone order)
        for j in range(total):
            st[WH + cards[j]] = st[DB + 1 + 2 * NC + j]
        _resum(st, me)


@njit(cache=True)
def _resum(st, me):
    """The kept zone sums of the re-dealt zones, counted again."""
    for t in range(NT):
        for z in range(NZ):
            if UNSEEN[me, z] != 0:
                v = 0
                b = ZC + z * NC
                for j in range(st[ZL + z]):
                    v += KS[t, st[b + j]]
                st[ZS + t * NZ + z] = v
'''
