"""A logged game (`rulewright run --log`) at the table, stepped through with a slider.

Owns reading a log's text (the runtime/gamelog.py format; the page uploads
the content, or `serve --log FILE` reads it at start; never a path from the
page), finding which served spec it was played with (by the SHA-256 in its
header, else by the game's name, with a note), and showing the position
after any number of its choices: the game is rebuilt from its seed and the
first k choices, and shown to a seat, a spectator, or everyone (the log is
the designer's own full record).
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from typing import Any

from ..runtime.engine import Game, SetupError
from ..runtime.gamelog import LogError, choices_of, read
from .narration import EVERYONE, SPECTATOR
from .tables import Settings, Table, TableError, seat_json


@dataclass(slots=True)
class LoggedGame:
    name: str  # what the page calls it (the file name given or uploaded)
    spec_id: str
    game: Game
    settings: Settings
    choices: list[int]
    note: str | None

    def summary(self) -> dict[str, Any]:
        return {"name": self.name, "spec": self.spec_id, "game": self.game.spec.name, "players": self.settings.players,
                "seed": self.settings.seed, "options": self.game.options, "readings": self.game.readings,
                "steps": len(self.choices), "note": self.note}

    def at(self, k: Any, viewer: Any) -> dict:
        if type(k) is not int or not 0 <= k <= len(self.choices):
            raise TableError(f"step must be 0 to {len(self.choices)}")
        if type(viewer) is not int or not (viewer in (SPECTATOR, EVERYONE) or 0 <= viewer < self.settings.players):
            raise TableError(f"view must be a seat 1 to {self.settings.players}, the spectator or everyone")
        t = Table(self.game, self.settings, self.choices[:k], viewers=[viewer], bots=False,
                  max_choices=len(self.choices) + 1)
        out = seat_json(t, viewer)
        out["decision"] = ({"player": t.st.pplayer, "person": False} if out["decision"] is not None else None)
        out["step"], out["steps"], out["log_name"], out["log_note"] = k, len(self.choices), self.name, self.note
        return out


def parse_log(name: str, text: str, specs: dict, compile_game, max_choices: int = 20_000) -> LoggedGame:
    """A log's content -> a LoggedGame; TableError says what is wrong (line numbers as in the file)."""
    fd, tmp = tempfile.mkstemp(prefix="rulewright-log-", suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        try:
            head, body = read(tmp)
            choices = choices_of(tmp, body)
        except LogError as exc:
            raise TableError(str(exc).replace(tmp, name)) from None
        except (ValueError, RecursionError) as exc:  # a number of thousands of digits, JSON nested too deep
            raise TableError(f"{name}: not a log this table can read ({type(exc).__name__}: "
                             f"{str(exc).replace(tmp, name)[:200]})") from None
    finally:
        os.unlink(tmp)
    if len(choices) > max_choices:
        raise TableError(f"{name}: the log has {len(choices)} choices; the table steps through at most {max_choices}")
    by_digest = [k for k, s in specs.items() if s.digest == head.get("sha256")]
    by_name = [k for k, s in specs.items() if s.spec.name == head.get("game")]
    note = None
    if by_digest:
        spec_id = by_digest[0]
    elif by_name:
        spec_id = by_name[0]
        note = f"the log was written with another version of {head.get('game')}'s spec; the replay may differ"
    else:
        raise TableError(f"{name}: the log is of {head.get('game')!r} ({head['spec']}), which this server does not "
                         f"serve (it serves {', '.join(specs)}): start it with that spec")
    try:
        game = compile_game(spec_id, head["options"], head["readings"])
    except SetupError as exc:
        raise TableError(f"{name}: the log's settings do not fit the spec: {exc}") from None
    players = head["players"]
    s = game.spec
    if not s.min_players <= players <= s.max_players:
        raise TableError(f"{name}: {s.name} is for {s.min_players} to {s.max_players} players, not {players}")
    settings = Settings(spec_id, players, head["seed"], dict(game.options), dict(game.readings),
                        ["random"] * players, False)
    logged = LoggedGame(name, spec_id, game, settings, choices, note)
    logged.at(len(choices), EVERYONE)  # the whole log must replay: say so now, not at the slider's end
    return logged
