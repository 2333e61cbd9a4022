"""interpreter/gamelog.py and the files commands write: nothing lost, nothing half-written.

`write_atomic` leaves the old file or the whole new one, never a part, and
no temporary file behind; `run --log` and `ambiguities --report` made to
fail mid-way leave no file. `replay` of a damaged log (cut short, edited,
not UTF-8, another line ending) answers with an error naming the line, exit
1, never a traceback. (The untouched, tampered and truncated-at-a-line cases
are in test_cli.py.)
"""
from __future__ import annotations

import errno
import json
import os
import stat

import pytest
from click.testing import CliRunner

from interpreter.runtime import gamelog
from interpreter.lab import report
from interpreter.cli.commands import cli

from helpers import STUN, edit, minimal_text, write


def rw(*args: str):
    r = CliRunner().invoke(cli, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output and "internal error" not in r.output, r.output
    return r


def leftovers(folder) -> list[str]:
    return [f for f in os.listdir(folder) if f.startswith(".rulewright")]


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("logs") / "game.jsonl")
    assert rw("run", STUN, "-p", "3", "--seed", "11", "--log", path).exit_code == 0
    return path


def log_lines(path: str) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return fh.read().split("\n")[:-1]


# ---- atomic writes -----------------------------------------------------------------------------------------------
class _HalfWriter:
    """A file that takes half of what it is given, then reports a full disk."""

    def __init__(self, fh):
        self.fh = fh

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.fh.close()

    def write(self, text: str) -> int:
        self.fh.write(text[:len(text) // 2])
        self.fh.flush()
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("existing", [None, "the old log\n"], ids=["new", "replacing"])
def test_a_write_that_fails_half_way_leaves_the_old_file_or_none(tmp_path, monkeypatch, existing):
    path = tmp_path / "out.jsonl"
    if existing is not None:
        path.write_text(existing, encoding="utf-8")
    real = os.fdopen
    monkeypatch.setattr(gamelog.os, "fdopen", lambda fd, *a, **k: _HalfWriter(real(fd, *a, **k)))
    with pytest.raises(OSError):
        gamelog.write_atomic(str(path), "x" * 10_000)
    assert (path.read_text(encoding="utf-8") if path.exists() else None) == existing
    assert leftovers(tmp_path) == []


def test_a_written_file_is_whole_and_an_ordinary_file(tmp_path):
    path = tmp_path / "out.jsonl"
    gamelog.write_atomic(str(path), "a\nb\n")
    assert path.read_text(encoding="utf-8") == "a\nb\n" and leftovers(tmp_path) == []
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask  # not the private mode of a temporary file


def test_run_log_when_writing_fails(tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"

    def no_rename(src, dst):
        raise OSError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(gamelog.os, "replace", no_rename)
    r = rw("run", STUN, "-p", "2", "--seed", "1", "--log", str(path))
    assert r.exit_code == 1 and f"cannot write the log {path}: Permission denied" in r.stderr
    assert not path.exists() and leftovers(tmp_path) == []


def test_run_log_when_the_game_fails_to_finish(tmp_path, monkeypatch):
    """A run interrupted while it plays writes nothing (the log is written once the game is over)."""
    from interpreter.lab import runner

    def interrupted(*a, **k):
        raise KeyboardInterrupt
    monkeypatch.setattr(runner, "play", interrupted)
    path = tmp_path / "game.jsonl"
    r = CliRunner().invoke(cli, ["run", STUN, "-p", "2", "--log", str(path)])
    assert r.exit_code != 0 and not path.exists() and leftovers(tmp_path) == []


def test_run_log_of_a_game_that_ends_in_an_error_is_whole(tmp_path):
    spec = write(tmp_path, edit(minimal_text(), "  do: shuffle deck\n", "  do: |\n    shuffle deck\n"
                                "    move top(discard) to deck\n"))
    path = tmp_path / "game.jsonl"
    r = rw("run", spec, "-p", "2", "--log", str(path))
    assert r.exit_code == 1 and "the game stopped with an error" in r.stderr
    events = [json.loads(x) for x in log_lines(str(path))]
    assert events[-1]["e"] == "end" and events[-1]["status"] == "error"
    assert rw("replay", str(path)).exit_code == 0


def test_run_log_into_a_missing_folder_is_a_usage_error(tmp_path):
    r = rw("run", STUN, "-p", "2", "--log", str(tmp_path / "nope" / "game.jsonl"))
    assert r.exit_code == 2 and "does not exist" in r.stderr


# ---- the lab's report folder ---------------------------------------------------------------------------------------
LAB = ["ambiguities", STUN, "-p", "2", "--games", "10", "--only", "first_flip", "--only", "stun_minus_target"]


def _fail_on_second_plot(monkeypatch):
    real, calls = report._forest, []

    def forest(plt, amb, path, *rest):
        calls.append(amb.name)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(plt, amb, path, *rest)
    monkeypatch.setattr(report, "_forest", forest)


def test_a_report_that_fails_half_way_leaves_no_folder(tmp_path, monkeypatch):
    _fail_on_second_plot(monkeypatch)
    out = tmp_path / "report"
    r = rw(*LAB, "--report", str(out))
    assert r.exit_code == 1 and "cannot write the report" in r.stderr
    assert not out.exists() and leftovers(tmp_path) == []


def test_a_report_that_fails_half_way_leaves_the_old_report(tmp_path, monkeypatch):
    out = tmp_path / "report"
    assert rw(*LAB, "--report", str(out)).exit_code == 0
    before = {f: (out / f).read_bytes() for f in os.listdir(out)}
    assert "index.html" in before and len(before) == 3
    _fail_on_second_plot(monkeypatch)
    assert rw(*LAB, "--seed", "9", "--report", str(out)).exit_code == 1
    assert {f: (out / f).read_bytes() for f in os.listdir(out)} == before
    assert leftovers(tmp_path) == [] and leftovers(out) == []


def test_a_report_replaces_the_old_one_whole(tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    assert rw(*LAB, "--report", str(out)).exit_code == 0
    assert sorted(os.listdir(out)) == ["first_flip.png", "index.html", "notes.txt", "stun_minus_target.png"]


# ---- replay of damaged logs ----------------------------------------------------------------------------------------
def _choice_line(lines: list[str], nth: int = 3) -> int:
    return [k for k, ln in enumerate(lines) if '"e": "choice"' in ln][nth]


def _cut(lines):  # the last line cut in the middle
    return lines[:-1] + [lines[-1][:len(lines[-1]) // 2]], len(lines)


def _cut_mid(lines):  # a crash while writing (without the atomic write): the file ends mid-line
    k = _choice_line(lines)
    return lines[:k] + [lines[k][:20]], k + 1


def _not_an_object(lines):
    k = _choice_line(lines)
    return lines[:k] + ["[1, 2]"] + lines[k + 1:], k + 1


def _index_text(lines):
    k = _choice_line(lines)
    e = json.loads(lines[k])
    e["index"] = "1"
    return lines[:k] + [json.dumps(e, sort_keys=True)] + lines[k + 1:], k + 1


def _blank_line(lines):
    k = _choice_line(lines)
    return lines[:k] + [""] + lines[k:], k + 1


def _header(field, value):
    def damage(lines):
        h = json.loads(lines[0])
        if value is None:
            del h[field]
        else:
            h[field] = value
        return [json.dumps(h)] + lines[1:], 1
    return damage


@pytest.mark.parametrize("damage, message", [
    pytest.param(_cut, "not a JSON line (the log ends in the middle of it: it was cut short)", id="cut_short"),
    pytest.param(_cut_mid, "not a JSON line (the log ends in the middle of it", id="cut_in_a_choice"),
    pytest.param(_not_an_object, "not an event (a JSON object)", id="not_an_object"),
    pytest.param(_index_text, "a choice without an index", id="index_as_text"),
    pytest.param(_blank_line, "not a JSON line", id="blank_line"),
    pytest.param(_header("players", "three"), "the header's 'players' is 'three', not a number", id="players_text"),
    pytest.param(_header("seed", None), "the header's 'seed' is missing", id="seed_missing"),
    pytest.param(_header("options", [1]), "the header's 'options' is [1], not a dict", id="options_list"),
    pytest.param(_header("readings", {"first_flip": [1]}), "readings must name interpretations", id="reading_list"),
    pytest.param(_header("spec", "games/gone.yaml"), "games/gone.yaml, is not found (give it with --spec)",
                 id="spec_gone"),
    pytest.param(_header("players", 99), "the log's settings do not fit the spec", id="players_out_of_range"),
])
def test_replay_of_a_damaged_log_names_the_line(log, tmp_path, damage, message):
    lines, line = damage(log_lines(log))
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = rw("replay", str(bad))
    assert r.exit_code == 1 and message in r.stderr, r.output
    if "settings" not in message:
        assert f"{bad}:{line}: " in r.stderr


def test_replay_of_an_edited_choice_names_its_line(log, tmp_path):
    lines = log_lines(log)
    k = _choice_line(lines)
    e = json.loads(lines[k])
    e["index"] = 57
    lines[k] = json.dumps(e, sort_keys=True)
    bad = tmp_path / "edited.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = rw("replay", str(bad))
    assert r.exit_code == 1 and r.stdout.startswith(f"{bad}:{k + 1}: first difference")
    assert "illegal choice" in r.stdout


def test_replay_of_a_log_that_is_not_utf8(log, tmp_path):
    raw = open(log, "rb").read().split(b"\n")
    raw[6] = raw[6][:10] + b"\xff\xfe" + raw[6][10:]
    bad = tmp_path / "binary.jsonl"
    bad.write_bytes(b"\n".join(raw))
    r = rw("replay", str(bad))
    assert r.exit_code == 1 and f"{bad}:7: not UTF-8 text" in r.stderr


def test_replay_of_a_log_with_windows_line_endings(log, tmp_path):
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(open(log, "rb").read().replace(b"\n", b"\r\n"))
    r = rw("replay", str(crlf))
    assert r.exit_code == 0 and "replay matches" in r.stdout
