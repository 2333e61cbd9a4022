"""A seat's narration at the table: what happened, in words, with the rule behind it.

Owns three things the table needs from a game's event log:
- which rule each event came from (`RuleTagger`: while a game runs, each
  logged event is tagged with the `rule:` of the action or procedure that
  was running, or, for a chosen action, of that action), so the log can
  show the rulebook sentence beside the line;
- which card names a seat may see (`visible_labels`, from the engine's own
  `State.view(seat)`);
- `seat_narration`, the one function that turns one step's events into the
  lines a seat is shown (and `seat_texts`, the same for its options, their
  prompt and why-not explanations). It words them as `rulewright run` does
  (cli/narrate.py) and redacts every card name the seat could not see at the
  start or at the end of the step: a spec's `say` line may print a hand
  ("hand: {me.hand}"), and another player's choice may name a hidden card.
  Redaction works on card labels, longest first, so "STUN" in "STUN PLUS" is
  not mistaken for a card of its own. It errs on the side of hiding: a card
  that was public for a moment inside a step and hidden at both ends is
  hidden too.

The events themselves are first redacted by the engine's seat-aware
renderer (runtime/redact.py: the one every face uses, correct by
construction because the engine marks each card it shows); the label net
here is a second layer for free texts the engine does not mark (a prompt,
a why-not explanation).
Move and shuffle events are not narrated (the table shows the zones).
"""
from __future__ import annotations

import functools
import re
from typing import Any

from ..cli.narrate import narrate
from ..compile.compiler import ACTION
from ..runtime.redact import HIDDEN, seat_events, zone_seers

SPECTATOR = -1  # a viewer who holds no seat: sees the public zones only
EVERYONE = -2   # the designer reading a full log: sees every zone
NARRATED = ("turn", "phase", "say", "choice", "roll", "reveal", "end")  # rolls: a secret one as hidden dice


class RuleTagger(list):
    """A game's event log that also records, per event, the rulebook sentence behind it.

    Put in place of `State.log` after `Game.new_game` (the engine only appends to it).
    `rules[i]` is the rule of event i, or None.
    """

    def __init__(self, state, events: list[dict]):
        super().__init__(events)
        self.state = state
        self.rules: list[str | None] = [None] * len(events)

    def append(self, e: dict) -> None:  # noqa: D401 (the engine's State.event calls this)
        self.rules.append(_rule_now(self.state, e))
        super().append(e)


def _rule_now(st, e: dict) -> str | None:
    spec = st.g.spec
    if e.get("e") == "choice" and st.pkind == ACTION and st.popts is not None:
        o = st.popts[e["index"]]
        name = st.pmeta[o if isinstance(o, int) else o[0]][0]
        return spec.actions[name].rule
    for frame in reversed(st.stack):  # the innermost running rule that quotes the rulebook
        kind, _, name = frame[0].name.partition(" ")
        if kind == "action" and name in spec.actions and spec.actions[name].rule:
            return spec.actions[name].rule
        if kind == "procedure" and name in spec.procedures and spec.procedures[name].rule:
            return spec.procedures[name].rule
    return None


def visible_labels(state, viewer: int) -> set[str]:
    """The card names in the zones `viewer` may see now (the engine's view decides)."""
    g = state.g
    if viewer == EVERYONE:
        return {g.card_label[c] for z in state.zones for c in z}
    out: set[str] = set()
    for content in state.view(viewer)["zones"].values():
        if isinstance(content, list):
            out.update(content)
    return out


def visible_to_each(state, viewers: list[int]) -> dict[int, set[str]]:
    """`visible_labels` for several viewers in one pass over the zones (the table asks at every step).

    It reads the zones' visibility as the redaction does (`redact.zone_seers`); tests/test_web_tables.py
    checks that it agrees with `State.view` on every position of whole games."""
    labels = state.g.card_label
    public: set[str] = set()
    owned: list[set[str]] = [set() for _ in range(state.n)]
    everything: set[str] = set()
    for zid, z in enumerate(state.zones):
        if not z:
            continue
        names = [labels[c] for c in z]
        everything.update(names)
        seers = zone_seers(state.g, zid, state.n)
        if len(seers) == state.n:
            public.update(names)
        else:
            for seat in seers:
                owned[seat].update(names)
    return {v: everything if v == EVERYONE else public | owned[v] if 0 <= v < state.n else set(public)
            for v in viewers}


def all_labels(game) -> frozenset[str]:
    return frozenset(game.card_label)


@functools.lru_cache(maxsize=256)
def _redactor(labels: frozenset[str], hidden: frozenset[str]):
    """A function that hides the `hidden` names in a text (every name tried longest first)."""
    if not hidden:
        return lambda text: text
    pattern = re.compile("|".join(re.escape(x) for x in sorted(labels, key=len, reverse=True)))
    return lambda text: pattern.sub(lambda m: HIDDEN if m.group(0) in hidden else m.group(0), text)


def seat_narration(events: list[dict], rules: list[str | None], game, players: int, viewer: int,
                   seen: set[str]) -> list[dict[str, Any]]:
    """The lines `viewer` is shown for one step's events.

    The events are redacted for the viewer by runtime/redact.py; then, as a
    second net, every card name the viewer could see neither at the start nor
    at the end of the step (`seen`) is replaced by "a hidden card". Each line
    is {"kind", "text", "rule", "player"}.
    """
    if not any(e.get("e") in NARRATED for e in events):
        return []
    if viewer != EVERYONE:
        events = seat_events(events, game, players, None if viewer == SPECTATOR else viewer)
    labels = all_labels(game)
    clean = _redactor(labels, frozenset() if viewer == EVERYONE else labels - frozenset(seen))
    out = []
    for e, rule in zip(events, rules):
        if e.get("e") not in NARRATED:
            continue
        for line in narrate([e]):
            out.append({"kind": e["e"], "text": clean(line.strip()), "rule": rule,
                        "player": e.get("player")})
    return out


def seat_texts(texts: list[str], game, viewer: int, seen: set[str]) -> list[str]:
    """Other texts a seat is sent (its options, their prompt, why an action is refused), with every
    card name it cannot see now hidden: a blind pick from a hidden pile reads "(hidden card)"."""
    labels = all_labels(game)
    clean = _redactor(labels, frozenset() if viewer == EVERYONE else labels - frozenset(seen))
    return [clean(t) for t in texts]
