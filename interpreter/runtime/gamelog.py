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
    """Write the whole file or nothing: a crash never leaves half a log.

    The text goes to a temporary file in the same folder, is flushed to disk,
    and is renamed over `path` (a rename within a folder is atomic). Raises
    OSError when the folder cannot be written.
    """
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".rulewright-", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; a log is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class LogError(ValueError):
    pass


# Header fields replay needs, and the JSON type each must have.
_HEADER = {"spec": str, "players": int, "seed": int, "options": dict, "readings": dict}


def read(path: str) -> tuple[dict, list[str]]:
    """The header and the event lines of a log; LogError (naming the line) if it is not a log."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise LogError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        line = text_line(exc.object, exc.start)
        raise LogError(f"{path}:{line}: not UTF-8 text: the log is damaged") from None
    raw = [ln.rstrip("\r") for ln in text.split("\n")]  # exactly the file's lines, however they end
    if raw and raw[-1] == "":
        raw.pop()
    if not raw:
        raise LogError(f"{path} is empty")
    try:
        head = json.loads(raw[0])
    except json.JSONDecodeError:
        raise LogError(f"{path}:1: the first line is not a Rulewright log header") from None
    if not isinstance(head, dict) or head.get("rulewright_log") != FORMAT:
        raise LogError(f"{path}:1: not a Rulewright log (format {FORMAT})")
    for name, ty in _HEADER.items():
        v = head.get(name)
        if not isinstance(v, ty) or isinstance(v, bool):
            raise LogError(f"{path}:1: the header's '{name}' is {'missing' if v is None else repr(v)}, "
                           f"not a {'number' if ty is int else ty.__name__.replace('str', 'text')}")
    if not all(isinstance(v, str) for v in head["readings"].values()):
        raise LogError(f"{path}:1: the header's readings must name interpretations (texts)")
    return head, raw[1:]


def text_line(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def choices_of(path: str, body: list[str]) -> list[int]:
    out = []
    last = len(body) + 1
    for n, line in enumerate(body, start=2):
        try:
            e = json.loads(line)
        except json.JSONDecodeError:
            cut = " (the log ends in the middle of it: it was cut short)" if n == last else ""
            raise LogError(f"{path}:{n}: not a JSON line{cut}") from None
        if not isinstance(e, dict):
            raise LogError(f"{path}:{n}: not an event (a JSON object)")
        if e.get("e") == "choice":
            if type(e.get("index")) is not int:
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
    from .pipeline import load_game
    from .engine import IllegalChoice, Status
    head, body = read(path)
    spec = spec_path or head["spec"]
    if not os.path.isabs(spec) and not os.path.exists(spec):
        spec = os.path.join(os.path.dirname(path), spec)
    if not os.path.isfile(spec):
        if spec_path:
            raise LogError(f"{spec_path}: no such spec")
        raise LogError(f"{path}:1: the spec it was played with, {head['spec']}, is not found "
                       "(give it with --spec)")
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
