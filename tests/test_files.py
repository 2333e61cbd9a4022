"""interpreter/spec/files.py and its callers: a file is read only where the user pointed (issue 23, findings 4, 5, 8).

A hostile spec, log or save names `/proc/self/environ` (with a secret planted in the environment),
`/etc/shadow`, a FIFO, `/dev/stdin`, a link out of the folder or a 700 MB file: each is refused
with its exact diagnostic, at once, and nothing of what such a file holds is printed. Tampered
saves and logs get a positioned error and nothing runs; agent budgets in a save are capped.
"""
from __future__ import annotations

import json
import os
import tracemalloc

import pytest
from click.testing import CliRunner

from interpreter.cli import launch
from interpreter.cli.commands import cli
from interpreter.spec import files
from interpreter.spec.diagnostics import SourceCache
from interpreter.spec.loader import load
from interpreter.spec.diagnostics import SpecError

from helpers import STUN, minimal_text, write
from test_fuzz import time_guard

SECRET = "hunter2-planted-secret"


def rw(*args: str, input: str | None = None):
    with time_guard(60, " ".join(args)):
        r = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output and "internal error" not in r.output, r.output
    return r


@pytest.fixture
def planted(monkeypatch):
    """A secret in the environment (what /proc/self/environ would show) and in a file outside the project."""
    monkeypatch.setenv("RW_TEST_SECRET", SECRET)
    monkeypatch.delenv(files.ALLOW_ENV, raising=False)


def variant(tmp_path, base: str, name: str = "v.yaml") -> str:
    return write(tmp_path, f"extends: {base}\n", name)


def only_error(path: str):
    with time_guard(20, f"load {path}"):
        with pytest.raises(SpecError) as info:
            load(path)
    (d,) = info.value.diagnostics
    return d


# ---- the reader ----------------------------------------------------------------------------------------------
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = str(tmp_path / "pipe.yaml")
    os.mkfifo(fifo)
    with time_guard(5, "reading a FIFO"), pytest.raises(files.Refused) as info:
        files.read_bytes(fifo)
    assert info.value.strerror == "a FIFO (named pipe), not a regular file: only regular files are read"
    assert not info.value.too_large


@pytest.mark.parametrize("path, kind", [
    ("/dev/zero", "a device"), ("/dev/stdin", None), ("/proc/self/environ", "a file of /proc (the system's)"),
    ("/proc/self/status", "a file of /proc (the system's)"),
])
def test_devices_and_kernel_files_are_refused(path, kind):
    if not os.path.exists(path):
        pytest.skip(f"no {path} here")
    with time_guard(5, f"reading {path}"), pytest.raises(files.Refused) as info:
        files.read_bytes(path)
    assert info.value.strerror.endswith("not a regular file: only regular files are read")
    if kind:
        assert info.value.strerror.startswith(kind)


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(files.Refused) as info:
        files.read_bytes(str(tmp_path))
    assert info.value.strerror == "a folder, not a regular file: only regular files are read"


def test_a_huge_file_is_refused_from_its_size_without_reading_it(tmp_path):
    big = tmp_path / "huge.yaml"
    with open(big, "wb") as fh:
        fh.truncate(700_000_000)  # sparse: no disk used
    tracemalloc.start()
    try:
        with time_guard(5, "a 700 MB file"), pytest.raises(files.Refused) as info:
            files.read_bytes(str(big))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert info.value.too_large and info.value.strerror == "the spec is 700,000,000 bytes; the limit is 2,000,000"
    assert peak < 1_000_000


def test_a_file_at_the_limit_is_read_whole(tmp_path):
    p = tmp_path / "a.yaml"
    p.write_bytes(b"x" * 1000)
    assert files.read_bytes(str(p), limit=1000) == b"x" * 1000
    with pytest.raises(files.Refused, match="the spec is 1,000 bytes; the limit is 999"):
        files.read_bytes(str(p), limit=999)


def test_not_utf8_names_the_line_not_the_bytes(tmp_path):
    p = tmp_path / "a.yaml"
    p.write_bytes(b"game:\n  name: \xff" + SECRET.encode() + b"\n")
    with pytest.raises(files.Refused) as info:
        files.read_text(str(p))
    assert info.value.strerror == "the spec is not UTF-8 text (line 2)"


def test_the_source_cache_of_diagnostics_reads_no_fifo(tmp_path):
    fifo = str(tmp_path / "pipe.yaml")
    os.mkfifo(fifo)
    with time_guard(5, "a diagnostic on a FIFO"):
        assert SourceCache().line(fifo, 1) is None


# ---- extends: ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("base, message", [
    ("/proc/self/environ", "the base '/proc/self/environ' is not read: a spec is a .yaml (or .yml) file"),
    ("/etc/shadow", "the base '/etc/shadow' is not read: a spec is a .yaml (or .yml) file"),
    ("/dev/stdin", "the base '/dev/stdin' is not read: a spec is a .yaml (or .yml) file"),
    ("../outside.yaml", "the base '../outside.yaml' is not read: it is outside {folder}; a file may name only "
                        "files in its own folder or project (see RULEWRIGHT_ALLOW)"),
], ids=["environ", "shadow", "stdin", "parent_folder"])
def test_extends_names_only_specs_in_the_folder(tmp_path, planted, base, message):
    path = variant(tmp_path, base)
    d = only_error(path)
    assert (d.code, d.message) == ("E115", message.format(folder=os.path.realpath(tmp_path)))
    assert (d.span.path, d.span.line, d.span.col) == (path, 1, 10)
    assert d.hint == ("name a spec in this spec's folder (or below it), or add its folder to RULEWRIGHT_ALLOW")
    r = rw("check", path)
    assert r.exit_code == 1 and SECRET not in r.output and "root:" not in r.output
    assert f"{path}:1:10: error[E115]: " + message.format(folder=os.path.realpath(tmp_path)) in r.stderr


def test_a_link_out_of_the_folder_is_refused(tmp_path, planted):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "secret.yaml").write_text(f"{SECRET}: 1\n", encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    os.symlink(outside / "secret.yaml", project / "base.yaml")
    path = variant(project, "base.yaml")
    d = only_error(path)
    assert d.code == "E115" and d.message.startswith("the base 'base.yaml' is not read: it is outside ")
    r = rw("check", path)
    assert r.exit_code == 1 and SECRET not in r.output


def test_the_allow_list_lets_a_base_elsewhere_in(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "base.yaml").write_text(minimal_text(), encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    path = variant(project, "../shared/base.yaml")
    assert only_error(path).code == "E115"
    monkeypatch.setenv(files.ALLOW_ENV, str(shared))
    assert load(path).data["game"]["name"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_base_in_the_folder_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    path = variant(tmp_path, "pipe.yaml")
    d = only_error(path)
    assert (d.code, d.message) == ("E114", "the base 'pipe.yaml' is a FIFO (named pipe), not a regular file: only "
                                           "regular files are read")
    assert (d.span.line, d.span.col) == (1, 10)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_check_of_a_fifo_answers_at_once(tmp_path):
    fifo = str(tmp_path / "spec.yaml")
    os.mkfifo(fifo)
    r = rw("check", fifo)
    assert r.exit_code == 1
    assert f"{fifo}:1:1: error[E114]: the spec is a FIFO (named pipe), not a regular file" in r.stderr


def test_a_base_that_is_not_a_spec_is_never_quoted(tmp_path):
    write(tmp_path, f"root: {SECRET}\n{SECRET}:\n  x: 1\n", "notes.yaml")
    path = variant(tmp_path, "notes.yaml")
    d = only_error(path)
    assert (d.code, d.message) == ("E116", "the base 'notes.yaml' is not a Rulewright spec (it has no `game:` section)")
    r = rw("check", path)
    assert r.exit_code == 1 and SECRET not in r.output


def test_a_huge_base_is_refused_where_it_is_named(tmp_path):
    with open(tmp_path / "big.yaml", "wb") as fh:
        fh.truncate(700_000_000)
    path = variant(tmp_path, "big.yaml")
    d = only_error(path)
    assert (d.code, d.message) == ("E108", "the base 'big.yaml' is 700,000,000 bytes; the limit is 2,000,000")


def test_the_quick_check_does_not_read_a_huge_file_whole(tmp_path):
    big = str(tmp_path / "big.yaml")
    with open(big, "wb") as fh:
        fh.truncate(700_000_000)
    tracemalloc.start()
    try:
        with time_guard(10, "the quick check of a 700 MB file"):
            assert launch._quick_check(["check", big]) is None  # not remembered: the full check answers
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000
    r = rw("check", big)
    assert r.exit_code == 1 and f"{big}:1:1: error[E108]: the spec is 700,000,000 bytes; the limit is 2,000,000" \
        in r.stderr


def test_a_base_anywhere_in_the_project_may_be_named(tmp_path):
    """A project is the nearest folder above the spec with .git, .hg or pyproject.toml."""
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "variants").mkdir()
    (tmp_path / "games" / "base.yaml").write_text(minimal_text(), encoding="utf-8")
    path = variant(tmp_path / "games" / "variants", "../base.yaml")
    assert load(path).data["game"]["name"] == "Minimal"
    outside = variant(tmp_path / "games" / "variants", "../../../elsewhere.yaml", "w.yaml")
    assert only_error(outside).code == "E115"


@pytest.mark.parametrize("source, message", [
    ("/etc/passwd", "The rulebook text `/etc/passwd` is not read: it is not a .txt or .md file."),
    ("/proc/self/environ", "The rulebook text `/proc/self/environ` is not read: it is not a .txt or .md file."),
    ("../secret.txt", "The rulebook text `../secret.txt` is not read: it is outside {folder}; a file may name only "
                      "files in its own folder or project (see RULEWRIGHT_ALLOW)."),
], ids=["passwd", "environ", "outside"])
def test_explain_reads_no_rulebook_outside_the_project(tmp_path, planted, source, message):
    (tmp_path / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    text = minimal_text().replace("  players: {min: 2, max: 4}\n",
                                  f"  players: {{min: 2, max: 4}}\n  rulebook:\n    source: {source}\n", 1)
    path = write(project, text)
    r = rw("explain", path)
    assert r.exit_code == 0 and message.format(folder=os.path.realpath(project)) in r.stdout, r.stdout[-500:]
    assert SECRET not in r.output and "root:" not in r.output
    r = rw("lint", path, "-g", "1", "--with", "none")
    assert SECRET not in r.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_rulebook_is_not_read(tmp_path):
    os.mkfifo(tmp_path / "rules.txt")
    text = minimal_text().replace("  players: {min: 2, max: 4}\n",
                                  "  players: {min: 2, max: 4}\n  rulebook:\n    source: rules.txt\n", 1)
    r = rw("explain", write(tmp_path, text))
    assert "The rulebook text `rules.txt` is not read: a FIFO (named pipe), not a regular file" in r.stdout


# ---- logs ----------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def log_lines(tmp_path_factory) -> list[str]:
    path = str(tmp_path_factory.mktemp("logs") / "game.jsonl")
    assert rw("run", STUN, "-p", "3", "--seed", "11", "--log", path).exit_code == 0
    with open(path, encoding="utf-8") as fh:
        return fh.read().split("\n")[:-1]


def _with_header(lines: list[str], **fields) -> list[str]:
    h = json.loads(lines[0])
    h.update(fields)
    return [json.dumps(h)] + lines[1:]


@pytest.mark.parametrize("make, message", [
    (lambda ls: _with_header(ls, spec="/proc/self/environ"),
     ":1: the spec it was played with, /proc/self/environ, is not read: a spec is a .yaml (or .yml) file"),
    (lambda ls: _with_header(ls, spec="/etc/shadow"),
     ":1: the spec it was played with, /etc/shadow, is not read: a spec is a .yaml (or .yml) file"),
    (lambda ls: _with_header(ls, spec="../../outside.yaml"),
     ":1: the spec it was played with, ../../outside.yaml, is not read: it is outside "),
    (lambda ls: _with_header(ls, spec="notes.yaml"),
     ":1: the spec it was played with, notes.yaml, is not a Rulewright spec (it has no `game:` section)"),
    (lambda ls: _with_header(ls, spec="a\u0000b.yaml"),
     ":1: the spec it was played with, (a name with control characters), is not a file name"),
    (lambda ls: ["[" * 100_000 + "]" * 100_000] + ls[1:], ":1: the first line is not a Rulewright log header"),
    (lambda ls: ls[:5] + ["[" * 100_000 + "]" * 100_000] + ls[5:], ":6: not a log line (JSON nested too deeply)"),
    (lambda ls: ls[:5] + ['{"e": "choice", "index": ' + "9" * 5000 + "}"] + ls[5:],
     ":6: not a log line (a number too long)"),
], ids=["environ", "shadow", "outside", "not_a_spec", "nul", "deep_header", "deep_line", "long_number"])
def test_replay_of_a_tampered_log(tmp_path, planted, log_lines, make, message):
    write(tmp_path, f"{SECRET}: 1\n", "notes.yaml")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(make(log_lines)) + "\n", encoding="utf-8")
    r = rw("replay", str(bad))
    assert r.exit_code == 1 and f"error: {bad}{message}" in r.stderr, r.stderr
    assert SECRET not in r.output and r.stdout == ""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_replay_of_a_fifo_log_answers_at_once(tmp_path):
    fifo = str(tmp_path / "game.jsonl")
    os.mkfifo(fifo)
    r = rw("replay", fifo)
    assert r.exit_code == 1 and r.stderr.strip() == (
        f"error: cannot read {fifo}: a FIFO (named pipe), not a regular file: only regular files are read")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_resume_and_serve_log_of_a_fifo_answer_at_once(tmp_path):
    fifo = str(tmp_path / "save.json")
    os.mkfifo(fifo)
    r = rw("play", "--resume", fifo, input="quit\n")
    assert r.exit_code == 1 and r.stderr.strip() == (
        f"error: {fifo}: a FIFO (named pipe), not a regular file: only regular files are read")
    r = rw("serve", STUN, "--log", fifo, "--port", "0")
    assert r.exit_code == 1 and "a FIFO (named pipe), not a regular file" in r.stderr


# ---- saves ----------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def save(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("saves")
    path = folder / "a.json"
    r = rw("play", STUN, "--seat", "1", "-p", "3", "--agent", "2=mcts:4", input=f"1\n1\nsave {path}\nquit\n")
    assert r.exit_code == 0, r.output
    return json.loads(path.read_text(encoding="utf-8"))


def _line(text: str, key: str) -> int:
    return next(n for n, ln in enumerate(text.split("\n"), 1) if ln.startswith(f' "{key}":'))


@pytest.mark.parametrize("change, key, message", [
    ({"seat": 4}, "seat", "the save's 'seat' is 4, not 1 to 3"),
    ({"seat": 0}, "seat", "the save's 'seat' is 0, not 1 to 3"),
    ({"seat": 1.5}, "seat", "the save's 'seat' is 1.5, not a whole number"),
    ({"players": 10**30}, "players", "the save's 'players' is 1000000000000000000000000000000, not 1 to 16"),
    ({"agents": {"2": "mcts:1000000000"}}, "agents",
     "the save's 'agents' sets the bot of seat 2, 'mcts:1000000000', sets iterations to 1,000,000,000; a save may "
     "give mcts iterations from 1 to 20,000"),
    ({"agents": {"2": "mcts:iterations=10,max_playout=100000000"}}, "agents",
     "sets max_playout to 100,000,000; a save may give mcts max_playout from 1 to 5,000"),
    ({"agents": {"1": "random"}}, "agents", "the save's 'agents' gives seat 1, the person's, a bot"),
    ({"agents": {"7": "random"}}, "agents", "the save's 'agents' names seat '7'; the game has seats 1 to 3"),
    ({"agents": {"2": "zzz"}}, "agents", "the save's 'agents' sets the bot of seat 2: unknown agent 'zzz'"),
    ({"choices": [0, "a"]}, "choices", "the save's 'choices' must be a list of option numbers (0 or more)"),
    ({"options": [1]}, "options", "the save's 'options' must be a mapping"),
    ({"readings": {"first_flip": 3}}, "readings",
     "the save's 'readings' must name an interpretation (a text) for each ambiguity"),
    ({"spec": "/proc/self/environ"}, "spec",
     "the save's spec '/proc/self/environ' is not read: a spec is a .yaml (or .yml) file"),
    ({"spec": "/etc/shadow"}, "spec", "the save's spec '/etc/shadow' is not read: a spec is a .yaml (or .yml) file"),
    ({"spec": "notes.yaml"}, "spec", "the save's spec 'notes.yaml' is not a Rulewright spec (it has no `game:` section)"),
    ({"spec": "\ud800.yaml"}, "spec", "the save's spec '(a name with control characters)' is not a file name"),
], ids=["seat_too_big", "seat_zero", "seat_fraction", "players_huge", "mcts_huge", "playout_huge", "bot_for_person",
        "bot_for_no_seat", "unknown_bot", "choice_text", "options_list", "reading_number", "spec_environ",
        "spec_shadow", "spec_not_a_spec", "spec_surrogate"])
def test_resume_of_a_tampered_save(tmp_path, planted, save, change, key, message):
    write(tmp_path, f"{SECRET}: 1\n", "notes.yaml")
    d = {**save, **change}
    if "spec" not in change:
        d["spec"] = os.path.abspath(STUN)  # the save moved: its spec named absolutely, inside the current folder
    text = json.dumps(d, indent=1)
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    r = rw("play", "--resume", str(path), input="quit\n")
    assert r.exit_code == 1 and f"error: {path}:{_line(text, key)}: " in r.stderr and message in r.stderr, r.stderr
    assert "resumed" not in r.output and "P1," not in r.output  # nothing ran
    assert SECRET not in r.output


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "not a Rulewright save (JSON nested too deeply)"),
    ('{"rulewright_save": 1, "players": ' + "9" * 5000 + "}", "not a Rulewright save (a number too long)"),
    ('{"rulewright_save": 1, "players": Infinity}', ":1: the save's 'players' is Infinity, not a whole number"),
    ("", ":1: not a Rulewright save (Expecting value)"),
], ids=["deep", "long_number", "infinity", "empty"])
def test_resume_of_a_damaged_save(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    r = rw("play", "--resume", str(path), input="quit\n")
    assert r.exit_code == 1 and f"error: {path}{message if message.startswith(':') else ': ' + message}" in r.stderr


def test_resume_with_options_the_spec_does_not_have(tmp_path, save):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**save, "spec": os.path.abspath(STUN), "options": {"win_chips": 99}}, indent=1),
                    encoding="utf-8")
    r = rw("play", "--resume", str(path), input="quit\n")
    assert r.exit_code == 1 and r.stderr.strip() == (
        f"error: {path}: the save's settings do not fit the spec: option win_chips=99 is not one of 5, 3")


def test_an_untampered_save_still_resumes(tmp_path, save):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps({**save, "spec": os.path.abspath(STUN)}, indent=1), encoding="utf-8")
    r = rw("play", "--resume", str(path), input="quit\n")
    assert r.exit_code == 0 and f"resumed after {len(save['choices'])} choices" in r.output


def test_a_remembered_verdict_holds_only_for_its_allow_list(tmp_path, monkeypatch):
    """`check` remembers clean verdicts; one given under RULEWRIGHT_ALLOW must not answer without it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "base.yaml").write_text(minimal_text(), encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    path = variant(project, "../shared/base.yaml")
    monkeypatch.setenv(files.ALLOW_ENV, str(shared))
    assert rw("check", path).exit_code == 0
    assert launch._quick_check(["check", path]) == 0  # remembered
    monkeypatch.delenv(files.ALLOW_ENV)
    assert launch._quick_check(["check", path]) is None  # not for another allow-list
    r = rw("check", path)
    assert r.exit_code == 1 and "error[E115]" in r.stderr
