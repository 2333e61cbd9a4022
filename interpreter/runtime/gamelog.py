"""Game logs: one game as JSON lines, and replaying it.

Owns the log format: a header line (spec, its SHA-256, players, seed,
options, readings, agents), one line per event (turn, choice, say, move,
shuffle, phase, end), each with its sequence number. Replaying rebuilds the
game from the header, feeds it the logged choices, regenerates every event
and names the first line that differs. Files are written whole or not at
all (a temporary file renamed into place).
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from typing import Callable

from ..spec import files

FORMAT = 1


def spec_digest(path: str) -> str:
    return files.digest(path)  # bounded, regular files only (spec/files.py)


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
        raw_bytes = files.read_bytes(path, files.MAX_LOG_BYTES, "log")
        text = raw_bytes.decode("utf-8")
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
        head = parse_json(raw[0])
    except ValueError:
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


def parse_json(line: str):
    """One JSON value of a log or save line; ValueError (with a reason, not a traceback) for what is not.

    Beyond malformed JSON: nesting too deep for the parser (a RecursionError) and integers too long
    to convert (Python refuses more than 4,300 digits) are refused the same way."""
    try:
        return json.loads(line)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except ValueError as exc:  # int('9' * 5000): "Exceeds the limit (4300 digits) ..."
        raise ValueError("a number too long" if "digits" in str(exc) else str(exc)) from None


def text_line(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def choices_of(path: str, body: list[str]) -> list[int]:
    out = []
    last = len(body) + 1
    for n, line in enumerate(body, start=2):
        try:
            e = parse_json(line)
        except json.JSONDecodeError:
            cut = " (the log ends in the middle of it: it was cut short)" if n == last else ""
            raise LogError(f"{path}:{n}: not a JSON line{cut}") from None
        except ValueError as exc:
            raise LogError(f"{path}:{n}: not a log line ({exc})") from None
        if not isinstance(e, dict):
            raise LogError(f"{path}:{n}: not an event (a JSON object)")
        if e.get("e") == "choice":
            if type(e.get("index")) is not int:
                raise LogError(f"{path}:{n}: a choice without an index")
            out.append(e["index"])
    return out


def named_spec(name: str, by: str, what: Callable[[str], str], prefer_cwd: bool = False) -> str:
    """The path of the spec a log or a save at `by` names, or LogError (starting with `what(name)`).

    Relative names are read from the naming file's folder (or, with `prefer_cwd`, first from the
    current folder, where `run --log` was started). Only a `.yaml` file inside one of those two
    folders (or of RULEWRIGHT_ALLOW) that is a spec is accepted: a tampered file cannot make a
    command read, or quote, anything else (spec/files.py)."""
    from ..spec.loader import is_spec_file
    folder = os.path.dirname(os.path.abspath(by))
    try:
        name.encode("utf-8")
        printable = bool(name) and name.isprintable()
    except UnicodeEncodeError:  # a lone surrogate
        printable = False
    if not printable:
        raise LogError(f"{what('(a name with control characters)' if name else '(an empty name)')} is not a file name")
    what = what(name)
    if os.path.isabs(name):
        spec = name
    elif prefer_cwd and os.path.exists(name):
        spec = name
    else:
        spec = os.path.normpath(os.path.join(folder, name))
    problem = files.named_file_problem(spec, files.allowed_folders(folder, os.getcwd()))
    if problem:
        raise LogError(f"{what} is not read: {problem}")
    if not os.path.isfile(spec):
        hint = "; give it with --spec" if prefer_cwd else ""
        raise LogError(f"{what} is not found" + (" (give it with --spec)" if prefer_cwd else "")
                       if not os.path.exists(spec) else f"{what} is not a regular file{hint}")
    if not is_spec_file(spec):
        raise LogError(f"{what} is not a Rulewright spec (it has no `game:` section)")
    return spec


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
    if spec_path:
        spec = spec_path  # the user named it: no folder rule, but still a regular file, bounded
        if not os.path.isfile(spec):
            raise LogError(f"{spec_path}: " + ("not a regular file" if os.path.exists(spec) else "no such spec"))
    else:
        spec = named_spec(head["spec"], path, lambda name: f"{path}:1: the spec it was played with, {name},",
                          prefer_cwd=True)
    note = None
    try:
        if spec_digest(spec) != head.get("sha256"):
            note = "the spec file has changed since the log was written"
    except OSError as exc:
        raise LogError(f"cannot read the spec {spec}: {exc.strerror}") from None
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
