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

Secrets: while people play a game (`Table.secret`), its seed is the
server's: no view, summary or save shows it (a save is sealed, see
sealing.py), because the seed and the choices give away every hidden card
and every sealed bid. Every change of the table bumps `version`; a choice
names the decision it answers (`decision`, the version at which it was
offered) and undo/redo the version they saw, so a repeated or double-clicked
request never lands on the next decision. Bots think between checks of a
`stop` callable (the client left, or the request's thinking time is up): a
table stopped there has `bots_to_move` and goes on at the next request.
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ..agents.registry import make_agent
from ..compile.compiler import ACTION
from ..lab.whynot import unavailable
from ..runtime.engine import Game, IllegalChoice, SetupError, Status, numbered
from ..runtime.seeds import game_seed
from ..runtime.redact import full_view, seat_labels, seat_prompt
from .narration import EVERYONE, SPECTATOR, RuleTagger, seat_narration, seat_texts, visible_labels, visible_to_each

PERSON = "person"
SAVE_FORMAT = 1
MAX_SEED = 2**62
_BOT = re.compile(r"^(random|first|greedy|mcts)(?::(\d{1,6}))?$")
BOT_CAPS = {"greedy": 64, "mcts": 2000}  # samples / iterations: a bot's move stays well under a second or so
_whynot_lock = threading.Lock()  # whynot caches a compiler per game; build it once


class TableError(ValueError):
    """A request the table refuses (the page shows the message)."""


class Stale(TableError):
    """A request that answers a decision (or a version of the table) that is no longer the current one."""


Stop = Callable[[], bool]
ANSWERED_KEPT = 32  # the last decisions answered, so a repeated choice is recognised as a repeat


@dataclass(slots=True)
class Settings:
    spec: str  # the served spec's id
    players: int
    seed: int
    options: dict = field(default_factory=dict)
    readings: dict = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)  # "person" or a bot: random, greedy[:N], mcts[:N]
    hotseat: bool = False
    undo: bool = True  # off: undo and redo are refused (undo lets a player look ahead: the same deal comes back)

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def persons(self) -> list[int]:
        return [k for k, s in enumerate(self.seats) if s == PERSON]


def _scalar(v: Any) -> bool:
    return isinstance(v, (str, int, float, bool))


def parse_settings(d: Any, specs: dict, max_seed: int = MAX_SEED,
                   fresh_seed: Callable[[], int] | None = None) -> Settings:
    """Settings from untrusted JSON; TableError names the first thing wrong.

    Without a seed (or with "seed": null) the game gets `fresh_seed()`, a new random one (0 without it)."""
    if not isinstance(d, dict):
        raise TableError("the settings must be a JSON object")
    spec = d.get("spec")
    if not isinstance(spec, str) or spec not in specs:
        raise TableError(f"unknown spec {spec!r}: this server serves {', '.join(specs)}")
    s = specs[spec].spec
    players, seed = d.get("players", s.min_players), d.get("seed")
    if seed is None:
        seed = fresh_seed() if fresh_seed is not None else 0
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
    undo = d.get("undo", True)
    if not isinstance(undo, bool):
        raise TableError("undo must be true or false")
    if seats.count(PERSON) > 1 and not hotseat:
        raise TableError("two or more people at one screen take turns: switch on hot-seat mode")
    return Settings(spec, players, seed, dict(options), dict(readings), list(seats), hotseat, undo)


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
                 max_choices: int = 5000, viewers: list[int] | None = None, bots: bool = True,
                 stop: Stop | None = None):
        self.g, self.s = game, settings
        settings.options, settings.readings = dict(game.options), dict(game.readings)  # as played, defaults too
        self.max_choices = max_choices
        self.lock = threading.Lock()
        self.viewers = viewers if viewers is not None else [SPECTATOR, *range(settings.players)]
        self.bots = bots
        self.redo: list[list[int]] = []
        self.note: str | None = None
        self.version = 0
        self.agreed: set[int] = set()  # the people who agreed to show everything before the end
        self.answered: "OrderedDict[int, int]" = OrderedDict()  # decision (version) -> the option taken
        self._start(choices or [])
        if bots:
            self.advance(stop)
        self.publish()

    def _start(self, choices: list[int]) -> None:
        """The game from its seed, replaying `choices` (a game is its seed and choices)."""
        try:
            self.st = self.g.new_game(self.s.players, self.s.seed, log=True)
        except SetupError as exc:
            raise TableError(str(exc)) from None
        self.st.log = RuleTagger(self.st, self.st.log)
        self.version += 1
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
        self.version += 1
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

    def advance(self, stop: Stop | None = None) -> bool:
        """Let the bots choose until a person must, or the game ends (or the table's cap).

        `stop` is asked before every bot's move; when it says so the bots stop where they are (the table
        then has `bots_to_move`) and False is returned."""
        st = self.st
        while st.status is Status.RUNNING and self.s.seats[st.pplayer] != PERSON:
            if len(st.choices) >= self.max_choices:
                self.note = f"stopped: this table ends games at {self.max_choices} choices"
                return True
            if stop is not None and stop():
                return False
            seat = st.pplayer
            bot = make_agent(self.s.seats[seat], game_seed(self.s.seed, len(st.choices)), seat)
            self._apply(bot.pick(st))
        return True

    @property
    def bots_to_move(self) -> bool:
        """A bot is to choose and may (the bots were stopped before they were done)."""
        st = self.st
        return st.status is Status.RUNNING and self.s.seats[st.pplayer] != PERSON and \
            len(st.choices) < self.max_choices

    @property
    def secret(self) -> bool:
        """People play and the game goes on (and not every one of them agreed to show everything): its seed,
        and so its future and every hidden card, is the server's."""
        return bool(self.s.persons) and self.st.status is Status.RUNNING and not self.revealed

    @property
    def revealed(self) -> bool:
        return bool(self.s.persons) and self.agreed >= set(self.s.persons)

    def agree(self, seat: int) -> None:
        """`seat` (a person, the one the table shows) agrees to show everything now: the seed, an open save,
        the step-through; it happens once every person has agreed. An agreement stands until the end."""
        if seat not in self.s.persons:
            raise TableError("only a person at the table can agree to show everything")
        self.agreed.add(seat)

    def decision_id(self) -> int | None:
        """The id a choice must name to answer the person's pending decision (None: no person is to choose)."""
        return self.version if self.pending_person() is not None else None

    def check_version(self, version: Any) -> None:
        """Undo and redo name the version of the table they were clicked on; a stale one is refused."""
        if version is None:
            return
        if type(version) is not int:
            raise TableError("version must be the table's version (a whole number) as last shown")
        if version != self.version:
            raise Stale(f"the table has changed since (version {version}, now {self.version}): nothing was done; "
                        "here is the table as it is now")

    def choose(self, i: Any, seat: Any = None, decision: Any = None, stop: Stop | None = None) -> bool:
        """Take option `i` at the person's decision `decision`; False when it repeats the choice already taken
        there (a retry or a double click: nothing more is done)."""
        if decision is not None and type(decision) is not int:
            raise TableError("decision must be the id of the decision answered (a whole number)")
        if decision is not None and decision != self.version:
            if self.answered.get(decision) == i:
                return False
            raise Stale(f"decision {decision} is no longer open (it was answered, or taken back): nothing was "
                        "done; here is the table as it is now")
        p = self.pending_person()
        if p is None:
            raise TableError("no person is to choose now" if self.st.status is Status.RUNNING else "the game is over")
        if seat is not None and seat != p:
            raise TableError(f"it is P{p + 1}'s decision, not P{seat + 1}'s" if type(seat) is int
                             else "seat must be a seat number")
        asked = self.version
        self._apply(i)
        self.answered[asked] = i
        while len(self.answered) > ANSWERED_KEPT:
            self.answered.popitem(last=False)
        self.redo.clear()
        self.advance(stop)
        return True

    def undo_point(self) -> int | None:
        """How many choices stay when the last person's choice is taken back."""
        for k in range(len(self.choosers) - 1, -1, -1):
            if self.s.seats[self.choosers[k]] == PERSON:
                return k
        return None

    def undo(self) -> None:
        if not self.s.undo:
            raise TableError("this game was started without undo")
        k = self.undo_point()
        if k is None:
            raise TableError("nothing to undo: no person has chosen yet")
        taken = self.st.choices[k:]
        self._start(self.st.choices[:k])
        self.redo.append(taken)
        self.note = None

    def redo_one(self, stop: Stop | None = None) -> None:
        if not self.redo:
            raise TableError("nothing to redo")
        chunk = self.redo.pop()
        self._start(self.st.choices + chunk)
        self.advance(stop)

    def weight(self) -> int:
        """What the table holds, in logged events and narrated lines (about half a kilobyte each)."""
        return len(self.st.log) + sum(len(v) for v in self.lines.values())

    def public_settings(self) -> dict:
        """The settings as any seat may read them: without the seed while the game is `secret`."""
        d = self.s.as_dict()
        if self.secret:
            d["seed"] = None
        return d

    def publish(self) -> None:
        """Refresh `summary` and `snapshot`, the table as last shown, which the game list, save and replay read
        without waiting for the table's lock (while bots think at it)."""
        self.summary = {"game": self.g.spec.name, "status": str(self.st.status), "choices": len(self.st.choices),
                        "settings": self.public_settings()}
        self.snapshot = (self.open_save(), self.secret)

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

    def open_save(self) -> dict:
        return {"rulewright_table": SAVE_FORMAT, "game": self.g.spec.name, **self.s.as_dict(),
                "options": dict(self.g.options), "readings": dict(self.g.readings), "choices": self.st.choices[:]}

    def save(self, seal: Callable[[dict], str]) -> dict:
        """The save of the table as last published: open once the game is over (or of bots only); while
        people play, `seal`ed, with only what every seat knows in the clear."""
        data, secret = self.snapshot
        if not secret:
            return data
        return {"rulewright_table": SAVE_FORMAT, "game": data["game"], "spec": data["spec"],
                "players": data["players"], "seats": data["seats"], "hotseat": data["hotseat"], "undo": data["undo"],
                "options": data["options"], "readings": data["readings"], "choices_made": len(data["choices"]),
                "sealed": seal(data)}


def parse_save(d: Any, specs: dict, max_choices: int,
               unseal: Callable[[Any], dict] | None = None) -> tuple[Settings, list[int]]:
    """A save from untrusted JSON (`unseal` opens a sealed one, or raises); TableError says what is wrong."""
    if not isinstance(d, dict) or d.get("rulewright_table") != SAVE_FORMAT:
        raise TableError("not a saved table game (a JSON object with \"rulewright_table\": 1)")
    if "sealed" in d:
        if unseal is None:
            raise TableError("this table cannot open sealed saves")
        d = unseal(d["sealed"])  # the clear fields beside it are for people to read; the sealed ones count
        if not isinstance(d, dict) or d.get("rulewright_table") != SAVE_FORMAT or "sealed" in d:
            raise TableError("the sealed game is not a saved table game")
    s = parse_settings({k: d.get(k) for k in ("spec", "players", "seed", "options", "readings", "seats", "hotseat",
                                                "undo")
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
        "game": g.spec.name, "settings": table.public_settings(), "viewer": viewer, "status": str(st.status),
        "turn": st.turn, "phase": st.phase, "current": st.cur, "zones": _zones(table, view, full),
        "counters": _counters(table, view), **_log(table.lines.get(viewer, [])), "choices": len(st.choices),
        "note": table.note, "decision": None, "result": None,
        "can_undo": table.s.undo and table.undo_point() is not None, "can_redo": bool(table.redo),
        "version": table.version, "bots_to_move": table.bots_to_move,
        "agreed": sorted(table.agreed), "revealed": table.revealed,
    }
    if st.status is Status.RUNNING:
        d = {"player": st.pplayer, "person": table.s.seats[st.pplayer] == PERSON}
        if viewer == st.pplayer and d["person"]:
            dec = st.decision()
            seen = visible_labels(st, viewer)
            prompt, *options = seat_texts([seat_prompt(st, viewer), *seat_labels(st, viewer)], g, viewer, seen)
            options = numbered(options)
            d.update(id=table.version, prompt=prompt, kind=dec.kind, options=options, refused=[])
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
