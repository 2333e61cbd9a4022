"""interpreter/cli/launch.py and verdicts.py: a repeated `rulewright check` of unchanged files answered from kept verdicts.

The quick answer must be the full answer, byte for byte, and must never be
given when the spec, one of its bases or the interpreter changed. The
entry point runs as a subprocess with its own cache folder.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from interpreter.cli import launch, verdicts as kept

from helpers import STUN, edit, minimal_text, write

ROOT = os.getcwd()  # conftest chdirs to the project root
BASE = "games/first-in-flight.yaml"
PACK = "games/first-in-flight-stunt-pack.yaml"


def run(cache, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, "-c", "from interpreter.cli.launch import main; main()", *args],
                          capture_output=True, text=True, cwd=ROOT, env=env)


def verdicts(cache) -> list[str]:
    folder = os.path.join(cache, "rulewright")
    return sorted(f for f in os.listdir(folder) if f.startswith("verdict-")) if os.path.isdir(folder) else []


def test_a_repeated_check_gives_the_same_answer_from_the_kept_verdict(tmp_path):
    first = run(tmp_path, "check", STUN, PACK)
    assert first.returncode == 0, first.stderr
    assert len(verdicts(tmp_path)) == 2
    again = run(tmp_path, "check", STUN, PACK)
    assert (again.returncode, again.stdout, again.stderr) == (first.returncode, first.stdout, first.stderr)


def test_the_kept_verdict_is_used_and_nothing_heavy_is_imported(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert run(tmp_path, "check", STUN).returncode == 0
    monkeypatch.setattr(sys, "argv", ["rulewright", "check", STUN])
    for name in [m for m in sys.modules if m in ("interpreter.cli.commands", "interpreter.lang.checker")]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(SystemExit) as exit_:
        launch.main()
    assert exit_.value.code == 0
    assert "interpreter.cli.commands" not in sys.modules and "interpreter.lang.checker" not in sys.modules


def test_warnings_are_kept_and_hidden_on_request(tmp_path):
    path = write(tmp_path, edit(minimal_text(), "procedures:\n", "procedures:\n  unused:\n    do: pass\n"))
    first = run(tmp_path, "check", path)
    assert first.returncode == 0 and "warning[W403]" in first.stderr
    again = run(tmp_path, "check", path)
    assert (again.stdout, again.stderr) == (first.stdout, first.stderr)
    quiet = run(tmp_path, "check", "--no-warnings", path)
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == first.stdout


def test_an_edited_spec_is_checked_again(tmp_path):
    path = write(tmp_path, minimal_text())
    assert run(tmp_path, "check", path).returncode == 0
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("bogus: 1\n")
    r = run(tmp_path, "check", path)
    assert r.returncode == 1 and "bogus" in r.stderr


def test_an_edited_base_is_checked_again(tmp_path):
    for f in (BASE, PACK):
        shutil.copy(f, tmp_path / os.path.basename(f))
    pack, base = str(tmp_path / os.path.basename(PACK)), str(tmp_path / os.path.basename(BASE))
    assert run(tmp_path, "check", pack).returncode == 0
    with open(base, encoding="utf-8") as fh:
        text = fh.read()
    with open(base, "w", encoding="utf-8") as fh:
        fh.write(text.replace("flow:", "flow:\n  bogus: 1", 1))
    r = run(tmp_path, "check", pack)
    assert r.returncode == 1 and "bogus" in r.stderr


def test_a_spec_with_errors_is_never_answered_from_the_cache(tmp_path):
    bad = "tests/bad_specs/unknown_name.yaml"
    assert run(tmp_path, "check", bad).returncode == 1
    assert verdicts(tmp_path) == []


def test_a_damaged_verdict_falls_back_to_the_full_check(tmp_path):
    first = run(tmp_path, "check", STUN)
    for name in verdicts(tmp_path):
        with open(os.path.join(tmp_path, "rulewright", name), "w", encoding="utf-8") as fh:
            fh.write("{not json")
    again = run(tmp_path, "check", STUN)
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout)


def test_a_changed_interpreter_forgets_every_verdict(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    kept.remember(STUN, [STUN], "STUN", [])
    assert kept.recall(STUN, kept.interpreter_key()) is not None
    assert kept.recall(STUN, "another interpreter") is None


def test_other_commands_and_options_go_to_the_full_command_line(tmp_path):
    assert run(tmp_path, "check", STUN).returncode == 0
    r = run(tmp_path, "check", "--merged", "tests/specs/race.yaml")
    assert r.returncode == 0 and "game:" in r.stdout
    assert run(tmp_path, "--help").returncode == 0
