"""Game logs: one game as JSON lines, and replaying it.

Owns the log format: a header line (spec, its SHA-256, players, seed,
options, readings, agents), one line per event (turn, choice, say, move,
shuffle, phase, end), each with its sequence number. Replaying rebuilds the
game from the header, feeds it the logged choices, regenerates every event
and names the first line that differs. Files are written whole or not at
all (a temporary file renamed into place).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass

FORMAT = 1


def spec_digest(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def header(path: str, game, players: int, seed: int, agents: dict[int, str]) -> dict:
    return {"rulewright_log": FORMAT, "spec": path, "sha256": spec_digest(path), "game": game.spec.name,
            "players": players, "seed": seed, "options": game.options, "readings": game.readings,
            "agents": {str(k + 1): v for k, v in sorted(agents.items())}}


def lines(head: dict, events: list[dict]) -> list[str]:
    out = [json.dumps(head, sort_keys=True)]
    for i, e in enumerate(events):
        out.append(json.dumps({"i": i, **e}, sort_keys=True))
    return out


def write_atomic(path: str, text: str) -> None:
    """Write the whole file or nothing: a crash never leaves half a log."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".rulewright-", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class LogError(ValueError):
    pass


def read(path: str) -> tuple[dict, list[str]]:
    try:
        with open(path, encoding="utf-8") as fh:
            raw = fh.read().splitlines()
    except OSError as exc:
        raise LogError(f"cannot read {path}: {exc.strerror}") from None
    if not raw:
        raise LogError(f"{path} is empty")
    try:
        head = json.loads(raw[0])
    except json.JSONDecodeError:
        raise LogError(f"{path}:1: the first line is not a Rulewright log header") from None
    if not isinstance(head, dict) or head.get("rulewright_log") != FORMAT:
        raise LogError(f"{path}:1: not a Rulewright log (format {FORMAT})")
    return head, raw[1:]


def choices_of(path: str, body: list[str]) -> list[int]:
    out = []
    for n, line in enumerate(body, start=2):
        try:
            e = json.loads(line)
        except json.JSONDecodeError:
            raise LogError(f"{path}:{n}: not JSON") from None
        if e.get("e") == "choice":
            if not isinstance(e.get("index"), int):
                raise LogError(f"{path}:{n}: a choice without an index")
            out.append(e["index"])
    return out


@dataclass(slots=True)
class ReplayReport:
    ok: bool
    events: int
    first_difference: int | None  # 1-based line number in the log file
    expected: str | None
    got: str | None
    note: str | None


def replay(path: str, spec_path: str | None = None) -> ReplayReport:
    from .api import load_game
    from .engine import IllegalChoice, Status
    head, body = read(path)
    spec = spec_path or head["spec"]
    if not os.path.isabs(spec) and not os.path.exists(spec):
        spec = os.path.join(os.path.dirname(path), spec)
    note = None
    if os.path.exists(spec) and spec_digest(spec) != head.get("sha256"):
        note = "the spec file has changed since the log was written"
    game = load_game(spec, head.get("options"), head.get("readings"))
    choices = choices_of(path, body)
    st = game.new_game(head["players"], head["seed"], log=True)
    for i in choices:
        if st.status is not Status.RUNNING:
            break
        try:
            st.apply(i)
        except IllegalChoice as exc:
            st.event("illegal choice", reason=str(exc))
            break
    got = lines(head, st.log)[1:]
    for k, (a, b) in enumerate(zip(body, got)):
        if a != b:
            return ReplayReport(False, len(body), k + 2, a, b, note)
    if len(body) != len(got):
        k = min(len(body), len(got))
        return ReplayReport(False, len(body), k + 2, body[k] if k < len(body) else "(end of log)",
                            got[k] if k < len(got) else "(end of game)", note)
    return ReplayReport(True, len(body), None, None, None, note)
