"""What a game tells as it is played: `say` lines, and cards and hidden values as narration shows them.

Owns `Telling`, the part of `State` (engine.py) that writes a card or a
hidden value into narration (`card_text`, `secret_text`: marked, while the
engine marks, with who may see it, so redact.py can hide it from the
others), logs `say` lines with their hidden spans, and reveals or conceals
hidden values to seats.
"""
from __future__ import annotations

from typing import Any

from ..lang.kinds import T


class Telling:
    """Narration's view of cards and hidden values (a part of State)."""
    __slots__ = ()

    def card_text(self, v: Any, ty: T) -> str:
        """A card (or cards) as narration shows it; marked with its id while `marking` (see redact.py)."""
        if not self.marking or ty not in (T.CARD, T.CARDS):
            return self.g.show(v, ty)
        from .redact import mark
        if ty is T.CARD:
            return mark(v, self.g.card_label[v])
        return ", ".join(mark(c, self.g.card_label[c]) for c in v) if v else "nothing"

    def secret_text(self, text: str, reads: tuple, owners: tuple) -> str:
        """A narration hole that reads hidden variables: marked with the seats that may read it (redact.py)."""
        if not self.marking:
            return text
        from .redact import mark_value, reads_seers
        seers = reads_seers(self, reads, owners)
        return text if len(seers) == self.n else mark_value(seers, text)

    def reveal(self, scope: str, rows: tuple, owner: int | None) -> None:
        """`reveal x`: every seat may read these rows of `owner` (of the game, for a global) until they change."""
        seat = -1 if owner is None else owner
        self.shown = self.shown.union((row, seat) for row in rows)
        if self.log is not None:
            vd = self.g.spec.vars[scope]
            names = {v.index: v for v in vd.values()}
            values = [(self.pvars[r][owner] if scope == "player" else self.gvars[r]) for r in rows]
            first = names[rows[0]]
            what = self.g.spec.keyed[scope][first.name.split("[", 1)[0]].label if first.key is not None and \
                len(rows) > 1 else first.label  # a whole keyed variable by its name, one key as `dice (2)`
            self.event("reveal", player=owner, what=what, values=values)

    def conceal(self, scope: str, row: int, owner: int | None) -> None:
        self.shown = self.shown - {(row, -1 if owner is None else owner)}

    def conceal_rows(self, scope: str, rows: tuple, owner: int | None) -> None:
        seat = -1 if owner is None else owner
        self.shown = self.shown.difference((row, seat) for row in rows)

    def say(self, text: str) -> None:
        """Log a `say` line; cards some seat may not see are listed as `hidden` spans (see redact.py)."""
        from .redact import secret_spans, unmark
        self.marking = False
        hidden = secret_spans(self, text)
        self.event("say", text=unmark(text)[0], **({"hidden": hidden} if hidden else {}))
