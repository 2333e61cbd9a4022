"""A game at the table: its settings, its replay, and what each seat is shown.

Owns: `Settings` (spec id, players, seed, options, readings, a person or a
bot per seat, hot-seat) and their validation from a page's JSON; `Table`,
one game played by its seed and choices (bots move until a person must
choose; undo goes back to the last person's decision, redo goes forward
again; a save is the settings plus the choices and loads by replaying
them); and `seat_json`, the JSON a viewer gets, built only from the
engine's `State.view(viewer)` and the seat's redacted narration. The
pending options (and why the turn's other actions are refused) are given
only to the seat that must choose.

Bots are made afresh for every decision, seeded from the game's seed and the
decision's number, so the same seed and choices give the same game however
often it was undone, saved or loaded. It does no I/O and knows no HTTP.
"""
from __future__ import annotations

import re
import threading
from dataclasses import asdict, dataclass, field
from typing import Any

from ..agents.registry import make_agent
from ..compile.compiler import ACTION
from ..lab.whynot import unavailable
from ..runtime.engine import Game, IllegalChoice, SetupError, Status, numbered
from ..runtime.seeds import game_seed
from ..runtime.redact import full_view, seat_labels, seat_prompt
from .narration import EVERYONE, SPECTATOR, RuleTagger, seat_narration, seat_texts, visible_labels, visible_to_each

PERSON = "person"
SAVE_FORMAT = 1
_BOT = re.compile(r"^(random|first|greedy|mcts)(?::(\d{1,6}))?$")
BOT_CAPS = {"greedy": 64, "mcts": 2000}  # samples / iterations: a bot's move stays well under a second or so
_whynot_lock = threading.Lock()  # whynot caches a compiler per game; build it once


class TableError(ValueError):
    """A request the table refuses (the page shows the message)."""


@dataclass(slots=True)
class Settings:
    spec: str  # the served spec's id
    players: int
    seed: int
    options: dict = field(default_factory=dict)
    readings: dict = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)  # "person" or a bot: random, greedy[:N], mcts[:N]
    hotseat: bool = False

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def persons(self) -> list[int]:
        return [k for k, s in enumerate(self.seats) if s == PERSON]


def _scalar(v: Any) -> bool:
    return isinstance(v, (str, int, float, bool))


def parse_settings(d: Any, specs: dict, max_seed: int = 2**62) -> Settings:
    """Settings from untrusted JSON; TableError names the first thing wrong."""
    if not isinstance(d, dict):
        raise TableError("the settings must be a JSON object")
    spec = d.get("spec")
    if not isinstance(spec, str) or spec not in specs:
        raise TableError(f"unknown spec {spec!r}: this server serves {', '.join(specs)}")
    s = specs[spec].spec
    players, seed = d.get("players", s.min_players), d.get("seed", 0)
    if type(players) is not int or not s.min_players <= players <= s.max_players:
        raise TableError(f"{s.name} is for {s.min_players} to {s.max_players} players")
    if type(seed) is not int or not 0 <= seed <= max_seed:
        raise TableError(f"the seed must be a whole number from 0 to {max_seed}")
    options, readings = d.get("options") or {}, d.get("readings") or {}
    for what, m in (("options", options), ("readings", readings)):
        if not isinstance(m, dict) or not all(isinstance(k, str) and _scalar(v) for k, v in m.items()):
            raise TableError(f"{what} must map names to values")
    seats = d.get("seats") or [PERSON] + ["random"] * (players - 1)
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(x, str) for x in seats):
        raise TableError(f"seats must list {players} entries: 'person' or a bot (random, greedy, mcts:N)")
    for k, text in enumerate(seats):
        if text != PERSON:
            check_bot(text, k)
    hotseat = d.get("hotseat", False)
    if not isinstance(hotseat, bool):
        raise TableError("hotseat must be true or false")
    if seats.count(PERSON) > 1 and not hotseat:
        raise TableError("two or more people at one screen take turns: switch on hot-seat mode")
    return Settings(spec, players, seed, dict(options), dict(readings), list(seats), hotseat)


def check_bot(text: str, seat: int) -> None:
    m = _BOT.match(text)
    if not m:
        raise TableError(f"seat {seat + 1}: '{text}' is not a player here (person, random, first, greedy[:N], mcts[:N])")
    cap = BOT_CAPS.get(m.group(1))
    if m.group(2) is not None and (cap is None or not 1 <= int(m.group(2)) <= cap):
        raise TableError(f"seat {seat + 1}: {m.group(1)} takes " +
                         (f"1 to {cap}" if cap else "no number"))


class Table:
    """One game at the table. Not thread-safe by itself: callers hold `lock`."""

    def __init__(self, game: Game, settings: Settings, choices: list[int] | None = None, *,
                 max_choices: int = 5000, viewers: list[int] | None = None, bots: bool = True):
        self.g, self.s = game, settings
        settings.options, settings.readings = dict(game.options), dict(game.readings)  # as played, defaults too
        self.max_choices = max_choices
        self.lock = threading.Lock()
        self.viewers = viewers if viewers is not None else [SPECTATOR, *range(settings.players)]
        self.bots = bots
        self.redo: list[list[int]] = []
        self.note: str | None = None
        self._start(choices or [])
        if bots:
            self.advance()

    def _start(self, choices: list[int]) -> None:
        """The game from its seed, replaying `choices` (a game is its seed and choices)."""
        try:
            self.st = self.g.new_game(self.s.players, self.s.seed, log=True)
        except SetupError as exc:
            raise TableError(str(exc)) from None
        self.st.log = RuleTagger(self.st, self.st.log)
        self.choosers: list[int] = []  # the seat that made each choice
        self.lines: dict[int, list[dict]] = {v: [] for v in self.viewers}
        self._seen = visible_to_each(self.st, self.viewers)
        self._told = 0
        self._narrate()
        for i in choices:
            if self.st.status is not Status.RUNNING:
                raise TableError(f"the game is over after {len(self.choosers)} choices, but there are more")
            self._apply(i)

    # -- playing -------------------------------------------------------------------
    def _apply(self, i: Any) -> None:
        if len(self.st.choices) >= self.max_choices:
            raise TableError(f"this table stops games at {self.max_choices} choices")
        if type(i) is not int or not 0 <= i < len(self.st.popts or ()):
            raise TableError(f"choice {i!r} at decision {len(self.st.choices) + 1} is not one of the "
                             f"{len(self.st.popts or ())} options")
        who = self.st.pplayer
        try:
            self.st.apply(i)
        except IllegalChoice as exc:
            raise TableError(str(exc)) from None
        self.choosers.append(who)
        self._narrate()

    def _narrate(self) -> None:
        log = self.st.log
        new, rules = log[self._told:], log.rules[self._told:]
        self._told = len(log)
        now = visible_to_each(self.st, self.viewers)
        for v in self.viewers:
            self.lines[v].extend(seat_narration(new, rules, self.g, self.st.n, v, self._seen[v] | now[v]))
        self._seen = now

    def pending_person(self) -> int | None:
        st = self.st
        if st.status is Status.RUNNING and self.s.seats[st.pplayer] == PERSON:
            return st.pplayer
        return None

    def advance(self) -> None:
        """Let the bots choose until a person must, or the game ends (or the table's cap)."""
        st = self.st
        while st.status is Status.RUNNING and self.s.seats[st.pplayer] != PERSON:
            if len(st.choices) >= self.max_choices:
                self.note = f"stopped: this table ends games at {self.max_choices} choices"
                return
            seat = st.pplayer
            bot = make_agent(self.s.seats[seat], game_seed(self.s.seed, len(st.choices)), seat)
            self._apply(bot.pick(st))

    def choose(self, i: Any, seat: Any = None) -> None:
        p = self.pending_person()
        if p is None:
            raise TableError("no person is to choose now" if self.st.status is Status.RUNNING else "the game is over")
        if seat is not None and seat != p:
            raise TableError(f"it is P{p + 1}'s decision, not P{seat + 1}'s" if type(seat) is int
                             else "seat must be a seat number")
        self._apply(i)
        self.redo.clear()
        self.advance()

    def undo_point(self) -> int | None:
        """How many choices stay when the last person's choice is taken back."""
        for k in range(len(self.choosers) - 1, -1, -1):
            if self.s.seats[self.choosers[k]] == PERSON:
                return k
        return None

    def undo(self) -> None:
        k = self.undo_point()
        if k is None:
            raise TableError("nothing to undo: no person has chosen yet")
        taken = self.st.choices[k:]
        self._start(self.st.choices[:k])
        self.redo.append(taken)
        self.note = None

    def redo_one(self) -> None:
        if not self.redo:
            raise TableError("nothing to redo")
        chunk = self.redo.pop()
        self._start(self.st.choices + chunk)
        self.advance()

    # -- viewing ---------------------------------------------------------------------
    def viewer(self, asked: int | None = None) -> int:
        """Whose view this table shows: the person who must choose (hot-seat), the one person,
        or, in a game of bots only, any seat the page asks for (nobody's secret is at stake)."""
        persons = self.s.persons
        if not persons:
            if asked is None:
                return SPECTATOR
            if type(asked) is not int or not (asked == SPECTATOR or 0 <= asked < self.s.players):
                raise TableError(f"seat must be 1 to {self.s.players} or the spectator")
            return asked
        if asked is not None:
            raise TableError("in a game with people, the table shows the seat that must choose")
        if len(persons) == 1:
            return persons[0]
        p = self.pending_person()
        return p if p is not None else SPECTATOR

    def save(self) -> dict:
        return {"rulewright_table": SAVE_FORMAT, "game": self.g.spec.name, **self.s.as_dict(),
                "options": dict(self.g.options), "readings": dict(self.g.readings), "choices": self.st.choices[:]}


def parse_save(d: Any, specs: dict, max_choices: int) -> tuple[Settings, list[int]]:
    if not isinstance(d, dict) or d.get("rulewright_table") != SAVE_FORMAT:
        raise TableError("not a saved table game (a JSON object with \"rulewright_table\": 1)")
    s = parse_settings({k: d.get(k) for k in ("spec", "players", "seed", "options", "readings", "seats", "hotseat")
                        if d.get(k) is not None}, specs)
    choices = d.get("choices")
    if not isinstance(choices, list) or not all(type(c) is int for c in choices):
        raise TableError("the save's choices must be a list of option numbers")
    if len(choices) > max_choices:
        raise TableError(f"the save has {len(choices)} choices; this table keeps at most {max_choices}")
    return s, choices


def _zones(table: Table, view: dict, full: bool = False) -> list[dict]:
    spec = table.g.spec
    out = []
    for zname, content in view["zones"].items():
        seat, _, base = zname.rpartition(".")
        z = spec.zones[base]
        owner = int(seat[1:]) - 1 if seat else None
        row = {"id": zname, "label": z.label, "owner": owner, "visible": isinstance(content, list),
               "secret": full and z.visibility != "public"}
        if isinstance(content, list):
            row["cards"] = content
        else:
            row["count"] = content
        out.append(row)
    return out


def _counters(table: Table, view: dict) -> dict:
    spec = table.g.spec

    def rows(scope: str, values: dict) -> list[dict]:
        return [{"name": n, "label": spec.vars[scope][n].label, "value": v, "start": spec.vars[scope][n].start}
                for n, v in values.items()]
    players = [{"name": n, "label": vd.label, "values": [row[n] for row in view["players"]], "start": vd.start,
                "score": n == spec.score} for n, vd in spec.vars["player"].items()]
    return {"global": rows("global", view["global"]), "turn": rows("turn", view.get("turn_vars") or {}),
            "players": players}


def _log(lines: list[dict]) -> dict:
    """The log with each rulebook sentence sent once: `rules` lists them, a line's `rule` is an index."""
    rules: dict[str, int] = {}
    out = []
    for line in lines:
        r = line["rule"]
        out.append({**line, "rule": None if r is None else rules.setdefault(r, len(rules))})
    return {"log": out, "rules": list(rules)}


def seat_json(table: Table, viewer: int) -> dict:
    """Everything the page shows for `viewer`, and nothing that seat may not see."""
    st, g = table.st, table.g
    full = viewer == EVERYONE
    view = full_view(st) if full else st.view(viewer)  # the designer's full record: every zone and value face up
    out: dict[str, Any] = {
        "game": g.spec.name, "settings": table.s.as_dict(), "viewer": viewer, "status": str(st.status),
        "turn": st.turn, "phase": st.phase, "current": st.cur, "zones": _zones(table, view, full),
        "counters": _counters(table, view), **_log(table.lines.get(viewer, [])), "choices": len(st.choices),
        "note": table.note, "decision": None, "result": None,
        "can_undo": table.undo_point() is not None, "can_redo": bool(table.redo),
    }
    if st.status is Status.RUNNING:
        d = {"player": st.pplayer, "person": table.s.seats[st.pplayer] == PERSON}
        if viewer == st.pplayer and d["person"]:
            dec = st.decision()
            seen = visible_labels(st, viewer)
            prompt, *options = seat_texts([seat_prompt(st, viewer), *seat_labels(st, viewer)], g, viewer, seen)
            options = numbered(options)
            d.update(prompt=prompt, kind=dec.kind, options=options, refused=[])
            if st.pkind == ACTION:
                with _whynot_lock:
                    d["refused"] = [{"action": w.action, "label": w.label,
                                     "reasons": seat_texts(w.reasons, g, viewer, seen),
                                     "values": seat_texts(w.values, g, viewer, seen),
                                     "rule": w.rule, "where": w.where} for w in unavailable(st)]
        out["decision"] = d
    else:
        r = st.result()
        out["result"] = {"status": r.status, "winners": r.winners, "scores": r.scores, "reason": r.reason,
                         "turns": r.turns}
    return out
