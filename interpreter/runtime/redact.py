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
_OPEN, _MID, _CLOSE = "\ue000", "\ue001", "\ue002"
_MARK = re.compile(f"{_OPEN}(\\d+){_MID}(.*?){_CLOSE}", re.S)


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


def card_seers(st: "State", card: int) -> frozenset[int]:
    """The seats that may know this card now: where it lies, or where it left since the last decision."""
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
            out.append([start, end, sorted(seers)])
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
    for start, end, seers in sorted(hidden):
        if seat is not None and seat in seers:
            continue
        out.append(text[at:start])
        out.append(HIDDEN)
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
