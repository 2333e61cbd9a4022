"""What one seat is shown: the game's events with every card that seat may not see hidden.

Owns the one redaction every face uses (terminal play, logs rendered for a
seat, the web table): the full log keeps everything, and `seat_events(events,
game, seat)` gives the same events as that seat must see them. It is correct
by construction rather than by the wording of a spec:

- every card a `say` line, an option label or a prompt shows goes through
  `State.card_text`, which (while the engine marks) wraps it with its card id
  (`mark`); the engine then records, in the event, the span of each card some
  seat may not see and which seats may (`secret_spans`), and strips the marks
  (`unmark`), so the logged text is the plain text of old;
- a seat may see a card if the card lies in a zone that seat may see
  (visibility `public`, or `owner` and the seat owns it), or if it left such a
  zone since the last decision (the seat watched it go: a card taken from the
  open row into a hand is no secret, the card a player keeps in his hand is);
- a choice is judged when it is made and widened as its cards move until the
  next decision (`widen`): "play: Guard" is no secret once the Guard lies
  face up on the table;
- `seat_events` replaces each span a seat may not see with "a hidden card",
  and the cards of a `move` between zones the seat cannot see with
  "a hidden card" each.

Secrets that are not cards are decided here too (lang/hidden.py says what the
rule text touches):

- a variable with `visible: owner | side | nobody` may be read by `var_seers`
  (its owner, the owner's side, nobody; everyone once a rule said `reveal` and
  until it changes); a narration hole that reads one is marked by the compiler
  with those seats (`State.secret_text`, a value mark: a negative id that
  carries the seats), and `seat_events` shows the others "(hidden)";
- a die rolled for one seat's eyes (`secret_roll`) is logged with its `seers`,
  and the others read "a hidden die" for each die;
- `seat_view(st, seat)` is `State.view(seat)`: hidden zones as counts, hidden
  variables as "(hidden)"; `seat_values` the same for the numeric faces (the
  RL observation), with 0 for what the seat may not read.

Who may see a zone is read in one place, `zone_seers` (and `zone_sight`, its
table per seat): the views, the web table's label net, the event redaction,
the RL observation and the search agents' determinization all ask it.

Numbers computed from hidden cards (`{sum(me.hand, value)}`) cannot be
redacted here: `rulewright lint` warns where a spec's narration shows them
(W521, lab/audit.py). Nothing here changes a game.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:  # pragma: no cover
    from .engine import Game, State

HIDDEN = "a hidden card"
HIDDEN_VALUE = "(hidden)"  # a variable's value, or a narration hole that reads one, for a seat that may not read it
HIDDEN_DIE = "a hidden die"
_OPEN, _MID, _CLOSE = "\ue000", "\ue001", "\ue002"
_MARK = re.compile(f"{_OPEN}(-?\\d+){_MID}(.*?){_CLOSE}", re.S)  # a value mark has an id below 0


def mark(card: int, label: str) -> str:
    return f"{_OPEN}{card}{_MID}{label}{_CLOSE}"


def unmark(text: str) -> tuple[str, list[tuple[int, int, int]]]:
    """The plain text, and (start, end, card) of every marked card in it."""
    out, spans, at, pos = [], [], 0, 0
    for m in _MARK.finditer(text):
        out.append(text[at:m.start()])
        pos += m.start() - at
        label = m.group(2)
        spans.append((pos, pos + len(label), int(m.group(1))))
        out.append(label)
        pos += len(label)
        at = m.end()
    out.append(text[at:])
    return "".join(out), spans


def zone_seers(game: "Game", zid: int, players: int) -> frozenset[int]:
    """The seats (0-based) that may see the cards of zone `zid`."""
    if zid < game.S:
        vis, owner = game.zone_vis[("shared", zid)], None
    else:
        owner, k = divmod(zid - game.S, game.P)
        vis = game.zone_vis[("player", k)]
    if vis == "public":
        return frozenset(range(players))
    if vis == "owner" and owner is not None:
        return frozenset((owner,))
    return frozenset()


def var_seers(st: "State", scope: str, row: int, seat: int | None) -> frozenset[int]:
    """The seats (0-based) that may read variable `row` of `scope` (of `seat`, for a player variable) now."""
    g = st.g
    vis = (g.pvar_vis if scope == "player" else g.gvar_vis)[row] if scope != "turn" else "public"
    if vis == "public" or st.shown and (row, -1 if seat is None else seat) in st.shown:
        return frozenset(range(st.n))
    if seat is None or vis == "nobody":
        return frozenset()
    if vis == "owner":
        return frozenset((seat,))
    return frozenset(g.sides(st.n)[g.side_index(st.n)[seat]])  # "side": the owner's side


def reads_seers(st: "State", reads: tuple, owners: tuple) -> frozenset[int]:
    """The seats that may read a value computed from hidden variables: those who may read every one of
    them (`reads`: (scope, rows) per read; `owners`: whose, or None for a read of any seat's)."""
    seers = frozenset(range(st.n))
    for (scope, rows), owner in zip(reads, owners):
        for row in rows:
            if scope == "player" and owner is None:
                for p in range(st.n):
                    seers &= var_seers(st, scope, row, p)
            else:
                seers &= var_seers(st, scope, row, owner)
    return seers


def mark_value(seers: frozenset[int], text: str) -> str:
    """A value only `seers` may read, marked like a card (an id below zero carries the seats)."""
    return mark(-1 - sum(1 << p for p in seers), text)


def card_seers(st: "State", card: int) -> frozenset[int]:
    """The seats that may know this card now: where it lies, or where it left since the last decision
    (a value mark, an id below zero, carries its seats: see `mark_value`)."""
    if card < 0:
        mask = -1 - card
        return frozenset(p for p in range(st.n) if mask >> p & 1)
    seers = zone_seers(st.g, st.where[card], st.n)
    src = st.moved.get(card)
    return seers if src is None else seers | zone_seers(st.g, src, st.n)


def secret_spans(st: "State", marked: str, cards: list[int] | None = None) -> list[list]:
    """[start, end, seats that may see it] of each card in `marked` that some seat may not see.

    With `cards`, the id of each such card is appended to it, span for span (see `widen`)."""
    _plain, spans = unmark(marked)
    out = []
    for start, end, card in spans:
        seers = card_seers(st, card)
        if len(seers) < st.n:
            out.append([start, end, sorted(seers)] if card >= 0 else [start, end, sorted(seers), "value"])
            if cards is not None:
                cards.append(card)
    return out


def widen(event: dict, cards: list[int], moved: list[int], seers: frozenset[int], players: int) -> None:
    """Let the seats that watch `moved` cards arrive (`seers`) read them in a choice `event` too.

    A choice is judged where its cards lie when it is made; a card then played face up (moved
    into a zone everyone sees) was no secret, so its span is dropped, and a card passed to
    another hand may be read by its new owner too. `cards` holds the card of each span."""
    hidden = event.get("hidden")
    if not hidden:
        return
    keep, kept_cards = [], []
    for span, card in zip(hidden, cards):
        if card in moved:
            span = [span[0], span[1], sorted(set(span[2]) | seers)]
        if len(span[2]) < players:
            keep.append(span)
            kept_cards.append(card)
    cards[:] = kept_cards
    if keep:
        event["hidden"] = keep
    else:
        del event["hidden"]


def redact_text(text: str, hidden: list | None, seat: int | None) -> str:
    """`text` as `seat` may read it (None: an onlooker who sees only what is public)."""
    if not hidden:
        return text
    out, at = [], 0
    for span in sorted(hidden):
        start, end, seers = span[:3]
        if seat is not None and seat in seers:
            continue
        out.append(text[at:start])
        out.append(HIDDEN_VALUE if len(span) > 3 else HIDDEN)
        at = end
    out.append(text[at:])
    return "".join(out)


class SeatView:
    """Events as one seat must see them (zone visibility read from the game)."""

    def __init__(self, game: "Game", players: int, seat: int | None):
        self.seat = seat
        self.seen: dict[str, bool] = {}
        for zid in range(game.S + game.P * players):
            seers = zone_seers(game, zid, players)
            self.seen[game.zone_name(zid)] = seat is not None and seat in seers if len(seers) < players else True

    def event(self, e: dict) -> dict:
        kind = e.get("e")
        if kind == "choice" and e.get("sealed") and self.seat != e.get("player"):
            return {**e, "choice": HIDDEN}  # a simultaneous choice: only its chooser knows it yet
        if kind in ("say", "choice") and e.get("hidden"):
            field = "text" if kind == "say" else "choice"
            out = {k: v for k, v in e.items() if k != "hidden"}
            out[field] = redact_text(e[field], e["hidden"], self.seat)
            return out
        if kind == "roll" and "seers" in e:  # dice rolled for some seats' eyes (lang/hidden.py)
            out = {k: v for k, v in e.items() if k != "seers"}
            if self.seat is None or self.seat not in e["seers"]:
                out["dice"] = [HIDDEN_DIE] * len(e["dice"])
            return out
        if kind == "move" and not (self.seen.get(e["src"], True) or self.seen.get(e["dst"], True)):
            return {**e, "cards": [HIDDEN] * len(e["cards"])}
        if kind in ("say", "choice") and "hidden" in e:
            return {k: v for k, v in e.items() if k != "hidden"}
        return e


def seat_events(events: Iterable[dict], game: "Game", players: int, seat: int | None) -> list[dict]:
    """The events as `seat` (0-based; None: an onlooker) must see them; the full log is left as it is."""
    view = SeatView(game, players, seat)
    return [view.event(e) for e in events]


def seat_labels(st: "State", seat: int | None) -> list[str]:
    """The pending decision's option labels as `seat` may read them (for showing another seat's choice)."""
    labels = st.labels()
    st.marking = True
    try:
        marked = st._labels()
    finally:
        st.marking = False
    out = []
    for lab, m in zip(labels, marked):
        plain, _ = unmark(m)
        tail = lab[len(plain):]  # the ' (2)' of a repeated label
        out.append(redact_text(plain, secret_spans(st, m), seat) + tail)
    return out


def zone_sight(game: "Game", players: int, player: int) -> list[bool]:
    """Per zone id, whether `player` (a seat, or -1: an onlooker) may look into it (`zone_seers`, read once
    per game, player count and seat: every view asks)."""
    key = (players, player)
    got = game.sight.get(key)
    if got is None:
        got = game.sight[key] = [_reads(zone_seers(game, zid, players), player, players)
                                 for zid in range(game.S + game.P * players)]
    return got


def seat_view(st: "State", player: int) -> dict:
    """What `player` may see (`State.view`): hidden zones show only how many cards they hold, and a
    variable the player may not read shows "(hidden)"."""
    g = st.g
    spec = g.spec
    labels, name = g.card_label, g.zone_name
    sight = zone_sight(g, st.n, player)
    zones = {name(zid): [labels[c] for c in z] if sight[zid] else len(z) for zid, z in enumerate(st.zones)}
    gv = dict(zip(spec.vars["global"], st.gvars))
    players = [dict(zip(spec.vars["player"], (r[p] for r in st.pvars))) for p in st.seats]
    if g.secret_vars:  # secrets that are not cards (lang/hidden.py): "(hidden)" where the player may not read
        gnames, pnames = list(spec.vars["global"]), list(spec.vars["player"])
        for i, vis in enumerate(g.gvar_vis):
            if vis != "public" and not _reads(var_seers(st, "global", i, None), player, st.n):
                gv[gnames[i]] = HIDDEN_VALUE
        for i, vis in enumerate(g.pvar_vis):
            if vis != "public":
                for p in st.seats:
                    if not _reads(var_seers(st, "player", i, p), player, st.n):
                        players[p][pnames[i]] = HIDDEN_VALUE
    from .engine import Status
    return {
        "player": player, "current": st.cur, "turn": st.turn, "phase": st.phase, "zones": zones,
        "global": gv, "players": players,
        "turn_vars": dict(zip(spec.vars["turn"], st.tvars)),  # the turn's counters are public too
        # the options as the chooser may read them: a label may name a card or a value hidden from it too
        "decision": seat_labels(st, player) if st.status is Status.RUNNING and st.pplayer == player else None,
    }


def _reads(seers: frozenset[int], player: int, n: int) -> bool:
    """Whether `player` (a seat, or -1: an onlooker who sees only what is public) may read it."""
    return len(seers) == n or player in seers


def seat_values(st: "State", player: int) -> tuple[list, list[list]]:
    """The global values and each seat's player values as `player` may read them: None for a hidden one
    (for numeric faces: the RL observation). Player rows are per seat, in seat order."""
    g = st.g
    if not g.secret_vars:
        return list(st.gvars), [[r[p] for r in st.pvars] for p in st.seats]
    gv = [v if g.gvar_vis[i] == "public" or player in var_seers(st, "global", i, None) else None
          for i, v in enumerate(st.gvars)]
    rows = [[v if g.pvar_vis[i] == "public" or player in var_seers(st, "player", i, p) else None
             for i, v in enumerate(r[p] for r in st.pvars)] for p in st.seats]
    return gv, rows


def full_view(st: "State") -> dict:
    """Everything, face up (the designer reading a whole logged game): `State.view` with no secret kept."""
    g, spec = st.g, st.g.spec
    view = seat_view(st, 0)
    view["player"] = None
    view["zones"] = {g.zone_name(z): [g.card_label[c] for c in cards] for z, cards in enumerate(st.zones)}
    view["global"] = dict(zip(spec.vars["global"], st.gvars))
    view["players"] = [dict(zip(spec.vars["player"], (r[p] for r in st.pvars))) for p in st.seats]
    view["decision"] = None
    return view


def seat_prompt(st: "State", seat: int | None) -> str:
    """The pending decision's prompt as `seat` may read it (a prompt may show a hidden value)."""
    st.marking = True
    try:
        marked = st._prompt()
    finally:
        st.marking = False
    plain, _ = unmark(marked)
    return redact_text(plain, secret_spans(st, marked), seat)
