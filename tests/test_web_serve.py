"""`rulewright serve`: the command that starts the table (interpreter/cli/commands.py, web/server.py).

It checks every spec before it listens, prints the real address (loopback by default, a free port
with --port 0), serves the page and the API there, stops cleanly on Ctrl-C, and turns bad input
(a broken spec, a missing file, an unreadable log, a port in use) into a message and exit 1, never
a traceback.
"""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest
from click.testing import CliRunner

pytest.importorskip("uvicorn")

from interpreter.cli.commands import cli  # noqa: E402

BAD = os.path.join("tests", "bad_specs", "schema_missing_field.yaml")


def test_serve_prints_its_loopback_address_serves_and_stops_on_ctrl_c(tmp_path):
    log = tmp_path / "game.jsonl"
    subprocess.run([sys.executable, "-m", "interpreter.cli", "run", "games/stun.yaml", "-p", "2", "--seed", "3",
                    "--log", str(log)], check=True, capture_output=True)
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}  # where serve keeps its save-sealing key
    proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", "games/stun.yaml",
                             "tests/specs/secrets.yaml", "--port", "0", "--log", str(log)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        m = re.match(r"Rulewright table: (http://127\.0\.0\.1:(\d+)/) ", line)
        assert m, line
        url = m.group(1)
        with urllib.request.urlopen(url + "api/specs", timeout=10) as r:
            d = json.load(r)
        assert [s["id"] for s in d["specs"]] == ["stun", "secrets"]
        with urllib.request.urlopen(url + "api/logs", timeout=10) as r:
            assert [x["name"] for x in json.load(r)["logs"]] == ["game.jsonl"]
        with urllib.request.urlopen(url, timeout=10) as r:
            assert b"Rulewright" in r.read()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    key = tmp_path / "state" / "rulewright" / "table-save.key"
    assert key.is_file() and key.stat().st_mode & 0o077 == 0  # the owner's only


@pytest.mark.parametrize("args,fragment", [
    ([BAD], "error["),
    (["no/such.yaml"], "no such file"),
    (["games/stun.yaml", "--log", "no/such.jsonl"], "cannot read the log"),
], ids=["spec-with-errors", "missing-spec", "missing-log"])
def test_serve_refuses_bad_input_before_listening(args, fragment):
    r = CliRunner().invoke(cli, ["serve", *args])
    assert r.exit_code == 1
    assert fragment in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_serve_refuses_a_log_of_another_game(tmp_path):
    log = tmp_path / "x.jsonl"
    log.write_text(json.dumps({"rulewright_log": 1, "spec": "chess.yaml", "game": "Chess", "players": 2, "seed": 1,
                               "options": {}, "readings": {}}) + "\n")
    r = CliRunner().invoke(cli, ["serve", "games/stun.yaml", "--log", str(log)])
    assert r.exit_code == 1 and "does not serve" in r.output


def test_serve_says_when_the_port_is_taken():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        r = CliRunner().invoke(cli, ["serve", "games/stun.yaml", "--port", str(port)])
    assert r.exit_code == 1 and "cannot listen on 127.0.0.1" in r.output
