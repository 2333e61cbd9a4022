"""Versions of the rules language: what changed in meaning from one to the next.

Owns the list of semantic changes, each with the version that brought it, and the rule for which
meaning a spec gets. A spec says which version it was written for (`language: 1` at its top); one
that does not is read with today's meanings except where it relies on an older one, which it then
keeps, with a deprecation warning (W421) that says what `rulewright upgrade SPEC` would write instead
(runtime/upgrade.py). New builtins are not changes of meaning: a name the spec defines hides a
builtin of that name (W420, checker.py), so adding builtins never breaks a spec.

What it deliberately does not do: keep old meanings forever. A version is dropped from the list
(and `language:` below it refused by the schema) only in a release that says so.
"""
from __future__ import annotations

from dataclasses import dataclass

LANGUAGE = 2  # the current version


@dataclass(frozen=True, slots=True)
class Change:
    name: str
    since: int  # the version that brought the new meaning
    old: str  # the meaning a spec written before `since` keeps
    new: str  # the meaning from `since` on
    upgrade: str  # what `rulewright upgrade` writes


CHANGES: dict[str, Change] = {c.name: c for c in [
    Change("given_zones_from", 2,
           old="`given.zones` takes the free copy of a card type nearest the bottom of its zone, whichever zone "
               "that is, when free copies lie in several zones",
           new="`given.zones` asks which zone when free copies lie in several: an entry writes `TYPE from ZONE`",
           upgrade="`TYPE from ZONE`, naming the zone the old rule took the card from"),
]}


def declared(spec) -> int | None:
    """The version a spec says it is written for, or None."""
    return getattr(spec, "language", None)


def keeps_old(spec, change: str) -> bool:
    """Whether a spec gets the meaning from before `change`: it declares an older version, or declares none
    (then it relies on the old meaning only where the new one would refuse it: the caller asks there)."""
    v = declared(spec)
    return v is None or v < CHANGES[change].since
