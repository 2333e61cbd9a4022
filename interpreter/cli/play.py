"""Playing in the terminal: one person at one seat, bots at the others.

Owns the session: what the person is shown (their own `State.view`, the
narration since their last decision as their seat may see it (runtime/redact.py), numbered options with the
engine's labels), what they may type (a number, `why [N]`, `view`,
`save FILE`, `quit`, `help`), saves (seed + choices + settings) and exact
resumes (the bots are re-run over the saved choices, so their own random
streams are where they were). Input and output are plain functions, so a
test drives a session with a list of lines. It never prints a traceback.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Callable

from ..agents.registry import make_agent
from ..compile.compiler import ACTION
from ..runtime.engine import Game, IllegalChoice, State, Status
from ..runtime.gamelog import spec_digest, write_atomic
from ..spec import files
from ..lab.whynot import unavailable

SAVE_FORMAT = 1
HELP = ("type the number of an option; `why` to see why an action is not offered (`why N` for one); "
        "`view` to see the table again (`view all`: every counter); `save FILE`; `quit`")


class SaveError(ValueError):
    """A save file that cannot be read or does not fit the spec."""


@dataclass(slots=True)
class Settings:
    """Everything a save needs besides the choices."""
    spec: str
    players: int
    seat: int  # 0-based
    seed: int
    options: dict = field(default_factory=dict)
    readings: dict = field(default_factory=dict)
    agents: dict[int, str] = field(default_factory=dict)  # 0-based seat -> agent text (others: random)


def save_data(s: Settings, st: State, path: str) -> dict:
    spec = os.path.relpath(os.path.abspath(s.spec), os.path.dirname(os.path.abspath(path)))
    return {"rulewright_save": SAVE_FORMAT, "spec": spec, "sha256": spec_digest(s.spec), "game": st.g.spec.name,
            "players": s.players, "seat": s.seat + 1, "seed": s.seed, "options": dict(st.g.options),
            "readings": dict(st.g.readings), "agents": {str(k + 1): v for k, v in sorted(s.agents.items())},
            "choices": st.choices[:]}


# The most a bot named in a save may think per decision: a save is a file anyone may have edited,
# so `mcts:1000000000` in one must not make `play --resume` run for days. (On the command line,
# `--agent` takes any budget: the person typed it.)
SAVE_CAPS = {"greedy": {"samples": 256}, "mcts": {"iterations": 20_000, "max_playout": 5000},
             "cautious": {"samples": 64}}


def _line_of(text: str, key: str) -> int:
    """The line of a save's top-level `"key":` (a save is written one field a line), or 1."""
    m = re.search(r'^\s*"' + re.escape(key) + r'"\s*:', text, re.M)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def check_save_agent(text: object, seat: int) -> str:
    """A bot named in a save, as text, if it is a known agent within SAVE_CAPS; else ValueError."""
    from ..agents.registry import AgentError, parse_agent
    if not isinstance(text, str):
        raise ValueError(f"the bot of seat {seat + 1} is {text!r}, not an agent name")
    try:
        name, settings = parse_agent(text)
    except AgentError as exc:
        raise ValueError(f"the bot of seat {seat + 1}: {exc}") from None
    for key, cap in SAVE_CAPS.get(name, {}).items():
        v = settings.get(key)
        if v is not None and not 1 <= v <= cap:
            raise ValueError(f"the bot of seat {seat + 1}, '{text}', sets {key} to {v:,}; a save may give "
                             f"{name} {key} from 1 to {cap:,}")
    return text


def read_save(path: str) -> tuple[Settings, list[int], str | None]:
    """Settings and choices of a save; a note if the spec changed since.

    Every field is checked before anything runs, and SaveError names the save's line and the field:
    a save may have been edited by anyone (docs/guides/cli.md, "Files Rulewright reads")."""
    from ..runtime.gamelog import LogError, named_spec, parse_json
    try:
        text = files.read_text(path, files.MAX_SAVE_BYTES, "save")
    except OSError as exc:
        raise SaveError(f"{path}: {exc.strerror or exc}") from None
    try:
        d = parse_json(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}:{exc.lineno}: not a Rulewright save ({exc.msg})") from None
    except ValueError as exc:
        raise SaveError(f"{path}: not a Rulewright save ({exc})") from None
    if not isinstance(d, dict) or d.get("rulewright_save") != SAVE_FORMAT or isinstance(d.get("rulewright_save"), bool):
        raise SaveError(f"{path}:1: not a Rulewright save")

    def bad(key: str, why: str) -> SaveError:
        return SaveError(f"{path}:{_line_of(text, key)}: the save's '{key}' {why}")

    def integer(key: str, lo: int, hi: int) -> int:
        v = d.get(key)
        if type(v) is not int:
            raise bad(key, "is missing" if v is None else f"is {json.dumps(v)[:40]}, not a whole number")
        if not lo <= v <= hi:
            raise bad(key, f"is {v}, not {lo:,} to {hi:,}")
        return v
    players = integer("players", 1, 16)
    seat = integer("seat", 1, players) - 1
    seed = integer("seed", -(2**63), 2**63 - 1)
    for key in ("options", "readings", "agents"):
        if not isinstance(d.get(key) if d.get(key) is not None else {}, dict):
            raise bad(key, "must be a mapping")
    options = dict(d.get("options") or {})
    if not all(isinstance(v, (str, int, float, bool)) for v in options.values()):
        raise bad("options", "must give each option a number, a text or true/false")
    readings = dict(d.get("readings") or {})
    if not all(isinstance(v, str) for v in readings.values()):
        raise bad("readings", "must name an interpretation (a text) for each ambiguity")
    agents: dict[int, str] = {}
    for k, v in (d.get("agents") or {}).items():
        if not k.isdigit() or not 1 <= int(k) <= players:
            raise bad("agents", f"names seat '{k[:20]}'; the game has seats 1 to {players}")
        if int(k) - 1 == seat:
            raise bad("agents", f"gives seat {k}, the person's, a bot")
        try:
            agents[int(k) - 1] = check_save_agent(v, int(k) - 1)
        except ValueError as exc:
            raise bad("agents", str(exc).replace("the bot", "sets the bot", 1)) from None
    choices = d.get("choices")
    if not isinstance(choices, list) or not all(type(c) is int and c >= 0 for c in choices):
        raise bad("choices", "must be a list of option numbers (0 or more)")
    name = d.get("spec")
    if not isinstance(name, str):
        raise bad("spec", "is missing" if name is None else "is not a file name")
    try:  # relative to the save's own folder; only a spec inside it (or the current folder)
        spec = named_spec(name, path, lambda n: f"{path}:{_line_of(text, 'spec')}: the save's spec '{n[:200]}'")
    except LogError as exc:
        raise SaveError(str(exc)) from None
    s = Settings(spec, players, seat, seed, options, readings, agents)
    note = None
    try:
        if d.get("sha256") and spec_digest(s.spec) != d["sha256"]:
            note = f"{s.spec} changed since the game was saved; the replay may differ"
    except OSError as exc:
        raise SaveError(f"{s.spec}: {exc.strerror or exc}") from None
    return s, choices, note


class Session:
    def __init__(self, game: Game, settings: Settings, read: Callable[[str], str | None], write: Callable[[str], None]):
        self.g = game
        self.s = settings
        self.read = read
        self.write = write
        self.bots = {seat: make_agent(settings.agents.get(seat, "random"), settings.seed, seat)
                     for seat in range(settings.players) if seat != settings.seat}
        self.shown = 0  # log events already shown
        self.seen_view = False

    # -- running -------------------------------------------------------------------
    def start(self, replay: list[int] | None = None) -> State:
        st = self.g.new_game(self.s.players, self.s.seed, log=True)
        if replay:
            self._replay(st, replay)
        return st

    def _replay(self, st: State, choices: list[int]) -> None:
        """Re-run the saved choices; bots pick again so their random streams end where they were."""
        differs = False
        for i in choices:
            if st.status is not Status.RUNNING:
                raise SaveError("the save has more choices than the game has decisions")
            if st.pplayer != self.s.seat:
                if self.bots[st.pplayer].pick(st) != i:
                    differs = True
            if not 0 <= i < len(st.popts):
                raise SaveError(f"saved choice {i} is not an option at decision {len(st.choices) + 1}")
            st.apply(i)
        if differs:
            self.write("note: a bot would now choose differently from the save; the saved choices were kept")
        self.write(f"resumed after {len(choices)} choices (turn {st.turn})")
        self.shown = len(st.log)

    def play(self, st: State) -> State | None:
        """Run to the end of the game; None if the person quit."""
        while st.status is Status.RUNNING:
            if st.pplayer != self.s.seat:
                st.apply(self.bots[st.pplayer].pick(st))
                continue
            if self.narrate(st) or not self.seen_view:
                self.show_view(st)  # only when something happened since the person last chose
                self.seen_view = True
            if not self.ask(st):
                return None
        self.narrate(st)
        return st

    def ask(self, st: State) -> bool:
        """One decision of the person's; False when they quit."""
        self.show_options(st)
        while True:
            line = self.read("> ")
            if line is None:
                self.write("input ended: the game is left unsaved")
                return False
            cmd, _, arg = line.strip().partition(" ")
            arg = arg.strip()
            n = len(st.popts)
            if cmd.isdigit():
                k = int(cmd)
                if 1 <= k <= n:
                    st.apply(k - 1)
                    return True
                self.write(f"there is no option {k}: choose 1-{n}" +
                           ("; `why` tells what is not allowed and why" if st.pkind == ACTION else ""))
            elif cmd in ("why", "w"):
                self.why(st, arg)
            elif cmd in ("view", "v", "look"):
                self.show_view(st, full=arg == "all")
                self.show_options(st)
            elif cmd == "save":
                if not arg:
                    self.write("save needs a file name: save FILE")
                    continue
                try:
                    write_atomic(arg, json.dumps(save_data(self.s, st, arg), indent=1) + "\n")
                except OSError as exc:
                    self.write(f"could not save to {arg}: {exc.strerror or exc}")
                    continue
                self.write(f"saved to {arg}; resume with: rulewright play --resume {arg}")
            elif cmd in ("quit", "q", "exit"):
                self.write("you left the game")
                return False
            elif cmd in ("help", "h", "?"):
                self.write(HELP)
            elif cmd == "":
                self.show_options(st)
            else:
                self.write(f"'{cmd}' is not a command: {HELP}")

    # -- showing ---------------------------------------------------------------------
    def narrate(self, st: State) -> int:
        """Public narration since the person last looked: turns, the spec's `say` lines, choices, the end."""
        from .narrate import narrate
        from ..runtime.redact import seat_events
        events = seat_events(st.log[self.shown:], self.g, self.s.players, self.s.seat)  # this seat's view only
        self.shown = len(st.log)
        keep = [e for e in events if e["e"] in ("turn", "phase", "say", "roll", "reveal", "end") or
                e["e"] == "choice" and e["player"] != self.s.seat]
        shown = 0
        for line in narrate(keep):
            self.write(line)
            shown += 1
        return shown

    def show_view(self, st: State, full: bool = False) -> None:
        """The person's view: zones (empty ones on one line), then the counters as a table with a
        column per player; counters still at their start value are left out unless `full`."""
        g, me = self.g, self.s.seat
        v = st.view(me)
        spec = g.spec
        self.write(f"-- your view (P{me + 1}) --")
        zlabel = {z.name: z.label for z in spec.zones.values()}
        empty = []
        for zname, content in v["zones"].items():
            seat, _, base = zname.rpartition(".")
            label = zlabel.get(base, base)
            who = "" if not seat else ("your " if seat == f"P{me + 1}" else f"{seat}'s ")
            if not content:
                empty.append(f"{who}{label}")
            elif isinstance(content, int):
                self.write(f"  {who}{label}: {content} card{'s' if content != 1 else ''}, face down")
            else:
                self.write(f"  {who}{label}: {', '.join(content)}")
        if empty:
            self.write(f"  empty: {'; '.join(empty)}")
        hidden = 0
        for scope, values in (("global", v["global"]), ("turn", v.get("turn_vars") or {})):
            for name, val in values.items():
                vd = spec.vars[scope][name]
                if full or val != vd.start:
                    self.write(f"  {'this turn, ' if scope == 'turn' else ''}{vd.label}: {_val(val)}")
                else:
                    hidden += 1
        rows = []
        for name, vd in spec.vars["player"].items():
            vals = [row[name] for row in v["players"]]
            if full or name == spec.score or any(x != vd.start for x in vals):
                rows.append((_short(vd.label), [_val(x) for x in vals]))
            else:
                hidden += 1
        heads = [f"P{p + 1}{' (you)' if p == me else ''}{' *' if p == v['current'] else ''}"
                 for p in range(len(v["players"]))]
        if rows:
            w = max(len(r[0]) for r in rows)
            cw = [max([len(h)] + [len(r[1][i]) for r in rows]) for i, h in enumerate(heads)]
            self.write("  " + " " * w + "  " + "  ".join(h.rjust(c) for h, c in zip(heads, cw)))
            for label, vals in rows:
                self.write("  " + label.ljust(w) + "  " + "  ".join(x.rjust(c) for x, c in zip(vals, cw)))
        if hidden:
            self.write(f"  ({hidden} more counter{'s' if hidden != 1 else ''} at the start value: `view all`)")

    def show_options(self, st: State) -> None:
        d = st.decision()
        from ..runtime.redact import seat_labels, seat_prompt  # a label or prompt may show another seat's secret
        self.write(f"P{d.player + 1}, {seat_prompt(st, d.player)}:")
        for i, lab in enumerate(seat_labels(st, d.player), 1):
            self.write(f"  {i}. {lab}")

    def why(self, st: State, arg: str) -> None:
        if st.pkind != ACTION:
            self.write("every option the rules allow here is listed; `why` explains the turn's actions")
            return
        missing = unavailable(st)
        if not missing:
            self.write("every action of this turn is allowed now")
            return
        if arg:
            if arg.isdigit() and 1 <= int(arg) <= len(missing):
                missing = [missing[int(arg) - 1]]
            else:
                pick = [w for w in missing if arg in (w.action, w.label)]
                if not pick:
                    names = ", ".join(f"{i}. {w.label}" for i, w in enumerate(missing, 1))
                    self.write(f"'{arg}' is not an action that is refused now (refused: {names})")
                    return
                missing = pick
        for i, w in enumerate(missing, 1):
            self.write(f"{i}. {w.label} ({w.action}) is not allowed: " + "; ".join(w.reasons))
            if w.values:
                self.write(f"   now: {', '.join(w.values)}")
            if w.rule:
                self.write(f"   rule: \"{w.rule}\"")
            if w.where:
                self.write(f"   spec: {w.where}")


def _short(label: str, width: int = 44) -> str:
    return label if len(label) <= width else label[:width - 1] + "\u2026"


def _val(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


__all__ = ["Session", "Settings", "SaveError", "read_save", "save_data", "IllegalChoice"]
