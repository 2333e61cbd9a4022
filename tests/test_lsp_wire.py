"""The language server against a hostile or clumsy client, byte for byte over stdio (issue 23, finding 7).

`rulewright lsp` runs as a subprocess and is fed raw base-protocol frames: a Content-Length too
short, one of a terabyte, bodies that are not JSON or not JSON-RPC, requests whose parameters
have the wrong types, 200 quick edits of a 2,000-line spec, documents whose `extends:` names
/proc/self/environ, /dev/stdin or a FIFO. After each, the server answers (an error response
with the exact JSON-RPC code, or the diagnostics) and a plain request still gets its answer:
the connection is intact.
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time

import pytest
from pygls.uris import from_fs_path

from interpreter.lsp import transport

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUN = os.path.join(ROOT, "games", "stun.yaml")
SECRET = "hunter2-planted-secret"


class Wire:
    """A server process and the messages it sent, read by a thread (so a test never blocks on a pipe)."""

    def __init__(self, tmp_path) -> None:
        env = {**os.environ, "RW_TEST_SECRET": SECRET, "PYTHONPATH": ROOT}
        env.pop("RULEWRIGHT_ALLOW", None)
        self.p = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "lsp"], cwd=str(tmp_path), env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.inbox: queue.Queue = queue.Queue()
        self.err: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.err.extend(self.p.stderr), daemon=True).start()
        self.next_id = 100
        self.root = tmp_path
        self.request("initialize", {"capabilities": {}, "rootUri": from_fs_path(str(tmp_path))})
        self.notify("initialized", {})

    def _read(self) -> None:
        out = self.p.stdout
        while True:
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                c = out.read(1)
                if not c:
                    self.inbox.put(None)
                    return
                head += c
            n = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
            self.inbox.put(json.loads(out.read(n)))

    def raw(self, data: bytes) -> None:
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def frame(self, body: bytes, length: int | None = None) -> None:
        self.raw(b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body)

    def send(self, obj: dict) -> None:
        self.frame(json.dumps(obj).encode())

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params=None, timeout: float = 60) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m, timeout)

    def wait(self, want, timeout: float = 60) -> dict:
        """The first message `want` accepts (others are kept in `seen`)."""
        end = time.monotonic() + timeout
        while True:
            try:
                m = self.inbox.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no answer within {timeout} s; stderr: {b''.join(self.err)[-2000:]!r}") from None
            assert m is not None, f"the server closed the connection; stderr: {b''.join(self.err)[-2000:]!r}"
            self.seen.append(m)
            if want(m):
                return m

    seen: list = []

    def alive(self) -> None:
        """A plain request still gets its answer."""
        r = self.request("textDocument/documentSymbol", {"textDocument": {"uri": "file:///nowhere.yaml"}}, timeout=30)
        assert r == {"id": self.next_id, "jsonrpc": "2.0", "result": []}

    def close(self) -> None:
        try:
            assert self.request("shutdown", None, timeout=30) == {"id": self.next_id, "jsonrpc": "2.0", "result": None}
            self.notify("exit", None)
            self.p.stdin.close()
            self.p.wait(10)
        except Exception:
            self.p.kill()
            self.p.wait(10)

    def diagnostics(self, uri: str, timeout: float = 60) -> list[dict]:
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri, timeout)["params"]["diagnostics"]

    def open(self, path: str, text: str) -> list[dict]:
        uri = from_fs_path(path)
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 0,
                                                              "text": text}})
        return self.diagnostics(uri)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the whole module: every test leaves it as it found it, or the next one fails."""
    w = Wire(tmp_path_factory.mktemp("lsp"))
    yield w
    w.close()


@pytest.fixture
def wire(server):
    server.seen = []
    while not server.inbox.empty():  # what an earlier test left unread
        server.inbox.get_nowait()
    return server


def _error(m: dict) -> tuple:
    return m["id"], m["error"]["code"]


def test_a_too_short_content_length_is_answered_and_the_next_message_read(wire):
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "shutdown"}).encode()
    wire.frame(body, length=len(body) // 2)
    assert _error(wire.wait(lambda m: "error" in m)) == (None, -32700)  # a parse error, id null
    wire.alive()


def test_a_huge_content_length_is_skipped_and_the_editor_told(wire):
    wire.raw(b"Content-Length: 1000000000000\r\n\r\n" + b'{"jsonrpc": "2.0", "id": 8, "method": "shu')
    m = wire.wait(lambda m: m.get("method") == "window/showMessage")
    assert m["params"] == {"type": 2, "message": "rulewright: a message of 1,000,000,000,000 bytes was ignored "
                                                 f"(the limit is {transport.MAX_MESSAGE:,})"}
    wire.alive()


def test_a_message_over_the_limit_is_skipped_and_the_next_one_read(wire):
    body = b'{"jsonrpc": "2.0", "method": "x", "params": "' + b"y" * 3_000_000 + b'"}'
    wire.raw(b"Content-Length: %d\r\n\r\n" % (transport.MAX_MESSAGE + 1))
    wire.raw(body)
    wire.wait(lambda m: m.get("method") == "window/showMessage")
    wire.alive()


def test_the_reader_holds_a_bounded_buffer_while_an_oversized_body_streams_past():
    """transport.Frames on its own: 20 MB after a header over the limit, then a real frame."""
    import asyncio
    import io
    ok = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "shutdown"}).encode()
    stream = io.BytesIO(b"Content-Length: %d\r\n\r\n" % (transport.MAX_MESSAGE + 1) + b"y" * 20_000_000
                        + b"Content-Length: %d\r\n\r\n" % len(ok) + ok)
    frames = transport.Frames(stream.read1, None)
    most = 0

    async def fill():
        nonlocal most
        chunk = stream.read1(transport.CHUNK)
        if chunk:
            frames.buf += chunk
        else:
            frames.eof = True
        most = max(most, len(frames.buf))
    frames._fill = fill
    told = []
    body = asyncio.run(frames.next(told.append))
    assert body == ok and told == [transport.MAX_MESSAGE + 1]
    assert most <= 2 * transport.CHUNK  # never the 20 MB


@pytest.mark.parametrize("body, code", [
    (b"this is not json", -32700),
    (b"[" * 100_000 + b"]" * 100_000, -32700),
    (b'{"jsonrpc": "2.0", "id": 3, "method": "x", "params": ' + b"9" * 5000 + b"}", -32700),
    (b"[1, 2, 3]", -32600),
    (b'{"id": 3, "method": "shutdown"}', -32600),
    (b'{"jsonrpc": "1.0", "id": 3, "method": "shutdown"}', -32600),
], ids=["not_json", "deep", "long_number", "a_list", "no_jsonrpc", "old_version"])
def test_bodies_that_are_not_messages_are_answered(wire, body, code):
    wire.frame(body)
    m = wire.wait(lambda m: "error" in m)
    assert m["error"]["code"] == code and m["id"] in (None, 3)
    wire.alive()


@pytest.mark.parametrize("method, params", [
    ("textDocument/hover", {"textDocument": 5, "position": "x"}),
    ("textDocument/completion", {"textDocument": {"uri": 3}, "position": {"line": "a", "character": None}}),
    ("textDocument/definition", [1, 2]),
    ("textDocument/documentSymbol", "nothing"),
], ids=["hover", "completion", "definition", "symbols"])
def test_requests_with_wrongly_typed_params_are_answered(wire, method, params):
    wire.send({"jsonrpc": "2.0", "id": 42, "method": method, "params": params})
    m = wire.wait(lambda m: m.get("id") == 42)
    assert _error(m) == (42, -32602)  # invalid params, with the request's id
    wire.alive()


def test_notifications_with_wrongly_typed_params_are_ignored(wire, tmp_path):
    wire.notify("textDocument/didOpen", {"textDocument": {"uri": 5}})
    wire.notify("textDocument/didChange", "x")
    wire.raw(b"garbage between frames\r\n\r\n")
    path = str(tmp_path / "ok.yaml")
    assert wire.open(path, open(STUN, encoding="utf-8").read()) == []
    wire.alive()


def _big_spec() -> str:
    """About 2,000 lines: STUN with its rulebook quotes repeated as assumptions."""
    text = open(STUN, encoding="utf-8").read()
    extra = "".join(f"  note_{i}: \"an assumption the rulebook never states, number {i}\"\n" for i in range(1250))
    return text + "\nassumptions:\n" + extra if "\nassumptions:" not in text else \
        text.replace("\nassumptions:\n", "\nassumptions:\n" + extra, 1)


def test_quick_edits_are_checked_once_they_stop(wire, tmp_path):
    path = str(tmp_path / "big.yaml")
    text = _big_spec()
    assert text.count("\n") >= 2000
    uri = from_fs_path(path)
    wire.open(path, text)
    for k in range(200):  # typing: a change a key
        edited = text.replace("me.held", "me.helt", 1) if k == 199 else text + f"# {k}\n"
        wire.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": k + 1},
                                               "contentChanges": [{"text": edited}]})
    hover = wire.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}},
                         timeout=30)
    assert "error" not in hover
    diags = wire.diagnostics(uri, timeout=60)
    while not any(d["code"] == "E402" for d in diags):  # a check of an earlier, clean text may come first
        diags = wire.diagnostics(uri, timeout=60)
    checks = sum(m.get("method") == "textDocument/publishDiagnostics" for m in wire.seen)
    assert checks <= 20, f"{checks} checks for 200 edits: the changes were not debounced"
    assert [d["code"] for d in diags] == ["E402"]


@pytest.mark.parametrize("base, message", [
    ("/proc/self/environ", "the base '/proc/self/environ' is not read: a spec is a .yaml (or .yml) file"),
    ("/dev/stdin", "the base '/dev/stdin' is not read: a spec is a .yaml (or .yml) file"),
    ("/etc/shadow", "the base '/etc/shadow' is not read: a spec is a .yaml (or .yml) file"),
], ids=["environ", "stdin", "shadow"])
def test_extends_in_the_editor_reads_no_secret_and_keeps_the_server_listening(wire, tmp_path, base, message):
    diags = wire.open(str(tmp_path / "v.yaml"), f"extends: {base}\n")
    assert [(d["code"], d["message"].split("\n")[0]) for d in diags] == [("E115", message)]
    assert SECRET not in json.dumps(wire.seen)
    wire.alive()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_base_does_not_make_the_server_deaf(wire, tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    diags = wire.open(str(tmp_path / "v.yaml"), "extends: pipe.yaml\n")
    assert [(d["code"], d["message"].split("\n")[0]) for d in diags] == [
        ("E114", "the base 'pipe.yaml' is a FIFO (named pipe), not a regular file: only regular files are read")]
    wire.alive()


def test_the_workspace_folder_is_a_project_a_base_may_come_from(wire):
    tmp_path = wire.root
    (tmp_path / "base").mkdir()
    (tmp_path / "variants").mkdir()
    (tmp_path / "base" / "stun.yaml").write_text(open(STUN, encoding="utf-8").read(), encoding="utf-8")
    diags = wire.open(str(tmp_path / "variants" / "v.yaml"), "extends: ../base/stun.yaml\n")
    assert diags == []
    wire.alive()
