"""interpreter/cli.py: the command-line contract of DESIGN.md section 5.

Exit codes (0 ok, 1 spec errors or failed checks, 2 usage), the key output
of each command, and never a Python traceback for bad input. Commands run in
process through click's CliRunner; the real entry point (`main`, which turns
an internal error into exit 70) is run as a subprocess where that matters.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from click.testing import CliRunner

from interpreter.api import load_spec
from interpreter.cli.commands import cli

from helpers import MINIMAL, STUN, edit, minimal_text, write

ROOT = os.getcwd()  # conftest chdirs to the project root


def rw(*args: str):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output and "Traceback" not in result.stderr
    return result


# ---- check ------------------------------------------------------------------------------------------------
def test_check_clean_spec():
    r = rw("check", STUN)
    assert r.exit_code == 0
    assert r.stdout == f"{STUN}: ok (STUN, 0 warning(s))\n" and r.stderr == ""


def test_check_spec_with_errors():
    r = rw("check", "tests/bad_specs/unknown_name.yaml")
    assert r.exit_code == 1
    assert "tests/bad_specs/unknown_name.yaml:" in r.stderr and "error[E401]" in r.stderr


def test_check_missing_file():
    r = rw("check", "games/nope.yaml")
    assert r.exit_code == 1 and "games/nope.yaml: no such file" in r.stderr


def test_check_without_arguments_is_a_usage_error():
    assert rw("check").exit_code == 2


def test_check_warnings_are_shown_unless_told_not_to(tmp_path):
    path = write(tmp_path, edit(minimal_text(), "procedures:\n", "procedures:\n  unused:\n    do: pass\n"))
    r = rw("check", path)
    assert r.exit_code == 0 and "warning[W403]" in r.stderr and "1 warning(s)" in r.stdout
    r = rw("check", "--no-warnings", path)
    assert r.exit_code == 0 and r.stderr == ""


def test_check_merged_prints_the_spec():
    r = rw("check", "--merged", MINIMAL)
    assert r.exit_code == 0 and "name: Minimal" in r.stdout


def test_check_non_utf8_spec_without_crashing(tmp_path):
    path = os.path.join(tmp_path, "latin1.yaml")
    with open(path, "wb") as fh:
        fh.write(b"game:\n  name: Caf\xe9\n")
    p = subprocess.run([sys.executable, "-m", "interpreter.cli", "check", path], capture_output=True, text=True,
                       cwd=ROOT)
    assert p.returncode == 1, p.stderr
    assert "error[E100]" in p.stderr


def test_entry_point_reports_bad_spec_without_traceback():
    p = subprocess.run([sys.executable, "-m", "interpreter.cli", "check", "tests/bad_specs/yaml_malformed.yaml"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 1
    assert "error[E101]" in p.stderr and "Traceback" not in p.stderr + p.stdout


# ---- run, --log, replay -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    log = str(tmp_path_factory.mktemp("logs") / "game.jsonl")
    r = rw("run", STUN, "-p", "3", "--seed", "4", "--log", log)
    return r, log


def test_run_narrates_a_game(logged):
    r, _ = logged
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[0] == "STUN: 3 players, seed 4"
    assert re.fullmatch(r"-- turn 1: P[123] --", lines[1])
    assert re.fullmatch(r"== P[123] wins after \d+ turns \(scores: P1 \d+, P2 \d+, P3 \d+\) ==", lines[-1])


def test_run_writes_a_log_that_matches_the_narration(logged):
    r, log = logged
    assert f"log written to {log}" in r.stderr
    with open(log, encoding="utf-8") as fh:
        rows = [json.loads(ln) for ln in fh]
    head, events = rows[0], rows[1:]
    assert head["rulewright_log"] == 1 and head["spec"] == STUN and head["players"] == 3 and head["seed"] == 4
    assert head["game"] == "STUN" and len(head["sha256"]) == 64
    assert head["readings"]["first_flip"] == "forced" and head["options"] == {"win_chips": 5, "advanced": False}
    assert [e["i"] for e in events] == list(range(len(events)))
    assert events[-1]["e"] == "end" and events[-1]["status"] == "finished"
    turns = [e for e in events if e["e"] == "turn"]
    assert len(turns) == r.stdout.count("-- turn ") == events[-1]["turns"]


def test_run_verbose_shows_moves():
    r = rw("run", STUN, "-p", "2", "--seed", "1", "-v")
    assert r.exit_code == 0 and " -> " in r.stdout and "is shuffled" in r.stdout


def test_run_is_reproducible():
    a = rw("run", STUN, "-p", "4", "--seed", "9")
    b = rw("run", STUN, "-p", "4", "--seed", "9")
    assert a.stdout == b.stdout


def test_replay_of_an_untouched_log(logged):
    _, log = logged
    r = rw("replay", log)
    assert r.exit_code == 0
    n = sum(1 for _ in open(log, encoding="utf-8")) - 1
    assert r.stdout.strip() == f"{log}: replay matches ({n} events)"


def _tamper(log: str, out: str, pick) -> int:
    with open(log, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    for k, line in enumerate(lines[1:], start=1):
        e = json.loads(line)
        if pick(k, e):
            e["text" if e["e"] == "say" else "e"] = "tampered"
            lines[k] = json.dumps(e, sort_keys=True)
            break
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return k + 1  # 1-based line number in the file


@pytest.mark.parametrize("pick", [
    pytest.param(lambda k, e: e["e"] == "say" and k > 20, id="say_text"),
    pytest.param(lambda k, e: e["e"] == "move" and k > 40, id="event_kind"),
])
def test_replay_of_a_tampered_log_names_the_first_differing_line(logged, tmp_path, pick):
    _, log = logged
    bad = str(tmp_path / "tampered.jsonl")
    line = _tamper(log, bad, pick)
    r = rw("replay", bad)
    assert r.exit_code == 1
    out = r.stdout.splitlines()
    assert out[0] == f"{bad}:{line}: first difference"
    assert out[1].startswith("  log:    ") and "tampered" in out[1]
    assert out[2].startswith("  replay: ") and "tampered" not in out[2]


def test_replay_of_a_truncated_log(logged, tmp_path):
    _, log = logged
    with open(log, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    short = str(tmp_path / "short.jsonl")
    with open(short, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines[:-5]) + "\n")
    r = rw("replay", short)
    assert r.exit_code == 1
    assert r.stdout.splitlines()[0] == f"{short}:{len(lines) - 4}: first difference"
    assert "(end of log)" in r.stdout


def test_replay_notes_a_changed_spec(tmp_path):
    spec = str(tmp_path / "stun.yaml")
    shutil.copy(STUN, spec)
    log = str(tmp_path / "game.jsonl")
    assert rw("run", spec, "-p", "2", "--seed", "3", "--log", log).exit_code == 0
    with open(spec, "a", encoding="utf-8") as fh:
        fh.write("# a comment changes the file, not the game\n")
    r = rw("replay", log)
    assert r.exit_code == 0 and "note: the spec file has changed" in r.stderr


@pytest.mark.parametrize("content, message", [
    pytest.param(None, "cannot read", id="missing"),
    pytest.param("", "is empty", id="empty"),
    pytest.param("not json\n", "not a Rulewright log header", id="not_json"),
    pytest.param('{"x": 1}\n', "not a Rulewright log", id="not_a_log"),
])
def test_replay_of_something_that_is_not_a_log(tmp_path, content, message):
    path = str(tmp_path / "x.jsonl")
    if content is not None:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(content)
    r = rw("replay", path)
    assert r.exit_code == 1 and message in r.stderr


def test_run_spec_with_errors():
    r = rw("run", "tests/bad_specs/unknown_name.yaml", "-p", "2")
    assert r.exit_code == 1 and "error[E401]" in r.stderr and "nothing was run" in r.stderr


# ---- simulate -----------------------------------------------------------------------------------------------
def simulate(*extra: str) -> dict:
    r = rw("simulate", STUN, "-p", "4", "--games", "40", "--seed", "5", "--json", *extra)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def sim_one_and_two():
    return simulate("--workers", "1"), simulate("--workers", "2")


def test_simulate_json_has_the_documented_keys(sim_one_and_two):
    d, _ = sim_one_and_two
    for key in ("games", "finished", "stalled", "errors", "turns", "wins", "seconds", "games_per_second"):
        assert key in d
    assert set(d["turns"]) >= {"mean", "p50", "p95", "max"}
    assert d["games"] == 40 and d["finished"] + d["stalled"] + d["errors"] == 40
    assert d["errors"] == 0
    assert d["turns"]["p50"] <= d["turns"]["p95"] <= d["turns"]["max"]
    assert len(d["wins"]) == 4 and abs(sum(d["wins"]) - 1) < 0.01
    assert d["seconds"] >= 0 and d["games_per_second"] > 0


def test_simulate_results_do_not_depend_on_workers(sim_one_and_two):
    one, two = sim_one_and_two
    timing = {"seconds", "games_per_second", "workers"}
    assert {k: v for k, v in one.items() if k not in timing} == {k: v for k, v in two.items() if k not in timing}
    assert (one["workers"], two["workers"]) == (1, 2)


def test_simulate_seed_changes_results():
    a = simulate()
    r = rw("simulate", STUN, "-p", "4", "--games", "40", "--seed", "6", "--json")
    b = json.loads(r.stdout)
    assert a["turns"] != b["turns"] or a["wins"] != b["wins"]


def test_simulate_with_option_and_reading():
    d = json.loads(rw("simulate", STUN, "-p", "3", "-g", "20", "--json", "--option", "win_chips=3",
                      "--reading", "lost_chips=to_victim").stdout)
    assert d["options"]["win_chips"] == 3 and d["readings"]["lost_chips"] == "to_victim"
    assert d["finished"] == 20


def test_simulate_table():
    r = rw("simulate", STUN, "-p", "2", "-g", "10")
    assert r.exit_code == 0
    assert "finished" in r.stdout and "wins P1" in r.stdout and "wins P2" in r.stdout


# ---- test, explain ------------------------------------------------------------------------------------------
def test_test_command_passes_every_stun_example():
    r = rw("test", STUN)
    assert r.exit_code == 0
    n = len(load_spec(STUN)[0].examples)
    assert r.stdout.splitlines()[-1] == f"{n} passed, 0 failed"
    assert r.stdout.count("pass STUN: ") == n


def test_test_command_fails_on_a_failing_example(tmp_path):
    text = minimal_text() + ("examples:\n  wrong:\n    rule: \"the pot starts full\"\n    players: 2\n"
                             "    expect:\n      - pot == 5\n  right:\n    players: 2\n    expect:\n      - pot == 0\n")
    r = rw("test", write(tmp_path, text))
    assert r.exit_code == 1
    assert "FAIL Minimal: wrong" in r.stdout and "pass Minimal: right" in r.stdout
    assert "expected `pot == 5`" in r.stdout and 'rule: "the pot starts full"' in r.stdout
    assert r.stdout.splitlines()[-1] == "1 passed, 1 failed"


def test_explain():
    r = rw("explain", STUN)
    assert r.exit_code == 0 and r.stdout.startswith("# STUN")


# ---- usage errors: exit 2, a message, no traceback ------------------------------------------------------------
USAGE = [
    ("option_value", ["--option", "win_chips=4"], "win_chips"),
    ("option_unknown", ["--option", "nope=1"], "unknown option 'nope'"),
    ("option_without_value", ["--option", "win_chips"], "NAME=VALUE"),
    ("reading_value", ["--reading", "first_flip=sometimes"], "'sometimes' is not an interpretation"),
    ("reading_unknown", ["--reading", "nope=x"], "unknown ambiguity 'nope'"),
    ("too_many_players", ["-p", "7"], "2 to 6 players, not 7"),
    ("too_few_players", ["-p", "1"], "2 to 6 players, not 1"),
    ("players_out_of_range", ["-p", "0"], "0 is not in the range"),
    ("players_not_a_number", ["-p", "three"], "not a valid integer"),
    ("agent_seat", ["--agent", "9=random"], "seat must be 1..3"),
    ("agent_unknown", ["--agent", "1=smart"], "unknown agent 'smart'"),
]


@pytest.mark.parametrize("command", ["run", "simulate"])
@pytest.mark.parametrize("args, message", [u[1:] for u in USAGE], ids=[u[0] for u in USAGE])
def test_bad_arguments_are_usage_errors(command, args, message):
    base = [command, STUN] + (["-p", "3"] if "-p" not in args else []) + (["-g", "2"] if command == "simulate" else [])
    r = rw(*base, *args)
    assert r.exit_code == 2, r.output
    assert message in r.stderr and "Error:" in r.stderr


def test_unknown_command_is_a_usage_error():
    assert rw("nope").exit_code == 2


def test_version():
    r = rw("--version")
    assert r.exit_code == 0 and "version" in r.stdout
