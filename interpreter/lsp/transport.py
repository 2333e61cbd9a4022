"""The language server's side of the wire: LSP base-protocol frames read from stdin, with limits.

Owns reading messages (`Content-Length: N` headers, a blank line, N bytes of JSON) and what
happens to every message that is not one: the connection always stays open and keeps
listening. pygls' own reader stops for good on a too-short Content-Length, exits on a huge
one, and leaves a request with wrongly typed parameters unanswered; this one

- never holds more than `MAX_MESSAGE` bytes of one message (nor `MAX_HEADER` of headers): a
  larger message is skipped as it streams past, in bounded memory, and the editor is told;
- finds the next frame after a damaged one (a Content-Length too short or too long, bytes that
  are not a frame): it looks for the next `Content-Length:` header in what follows;
- answers a request it cannot read: a body that is not JSON gets a Parse error (-32700, id
  null, as JSON-RPC says), a request whose parameters do not have the protocol's types gets
  Invalid params (-32602) with its id, a message that is not JSON-RPC gets Invalid request
  (-32600); notifications that cannot be read are logged and ignored.

It does not handle messages (pygls' protocol does, through `protocol.handle_message`) nor
write them (pygls' writer does).
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable
from typing import Any

from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest, JsonRpcParseError
from pygls.protocol import JsonRPCProtocol

log = logging.getLogger("rulewright.lsp")

MAX_MESSAGE = 16_000_000  # bytes of one message: a spec is at most 2,000,000 bytes, JSON-escaped a few times that
MAX_HEADER = 8_192  # bytes of one frame's headers
CHUNK = 1 << 16
_HEADER = b"Content-Length:"
_LENGTH = re.compile(rb"^Content-Length:[ \t]*(\d{1,15})[ \t]*\r?$", re.I | re.M)


class Frames:
    """Frames from a byte stream read by `read1(n)` (a blocking read of at most n bytes; b"" at the end)."""

    def __init__(self, read1: Callable[[int], bytes], run: Callable[[Callable[[], bytes]], Any]):
        self._read1 = read1
        self._run = run  # runs a blocking read off the event loop and awaits it
        self.buf = bytearray()
        self.eof = False
        self.skipped = 0  # bytes dropped that were not a frame (for the log)

    async def _fill(self) -> None:
        chunk = await self._run(lambda: self._read1(CHUNK))
        if chunk:
            self.buf += chunk
        else:
            self.eof = True

    def _resync(self) -> None:
        """Drop bytes up to the next `Content-Length:` (keeping a possible start of one at the end)."""
        k = self.buf.find(_HEADER, 1)
        if k < 0:
            k = max(1, len(self.buf) - len(_HEADER) + 1)
        self.skipped += k
        del self.buf[:k]

    async def next(self, oversized: Callable[[int], None]) -> bytes | None:
        """The body of the next frame, or None at the end of the stream."""
        while True:
            head = bytes(self.buf[:8]).lower()
            if head and not (b"content-".startswith(head) if len(head) < 8 else head == b"content-"):
                self._resync()  # not the start of a frame's headers (Content-Length, Content-Type)
                continue
            end = self.buf.find(b"\r\n\r\n", 0, MAX_HEADER + 4)
            if end < 0:
                if len(self.buf) > MAX_HEADER:
                    self._resync()
                    continue
                if self.eof:
                    return None
                await self._fill()
                continue
            m = _LENGTH.search(bytes(self.buf[:end]))
            if m is None:  # headers without a length: not a frame
                self._resync()
                continue
            n = int(m.group(1))
            start = end + 4
            if n > MAX_MESSAGE:
                del self.buf[:start]
                log.warning("a message of %s bytes was skipped (the limit is %s)", f"{n:,}", f"{MAX_MESSAGE:,}")
                oversized(n)
                continue  # the body, or whatever follows, is dropped up to the next header
            while len(self.buf) < start + n and not self.eof:
                await self._fill()
            if len(self.buf) < start + n:
                return None  # the stream ended inside a body
            body = bytes(self.buf[start:start + n])
            del self.buf[:start + n]
            if self.skipped:
                log.warning("%s bytes that were not a message were skipped", f"{self.skipped:,}")
                self.skipped = 0
            return body

    def push_back(self, data: bytes) -> None:
        """Put bytes of a damaged body back in front: a frame may start inside them."""
        self.buf[:0] = data


def _plain(body: bytes) -> Any:
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None


def _reply_error(protocol: JsonRPCProtocol, msg_id: Any, error: JsonRpcException) -> None:
    # A plain object, not pygls' ResponseErrorMessage: that one leaves out `"id": null`, which JSON-RPC requires.
    protocol._send_data({"jsonrpc": JsonRPCProtocol.VERSION, "id": msg_id,
                         "error": {"code": error.code, "message": error.message}})


def handle(protocol: JsonRPCProtocol, body: bytes, frames: Frames) -> None:
    """Hand one frame's body to pygls, answering (or logging) whatever cannot be handled."""
    try:
        message = json.loads(body, object_hook=protocol.structure_message)
    except JsonRpcException as exc:  # JSON, but not the protocol's shapes (wrongly typed params ...)
        data = _plain(body)
        msg_id = data.get("id") if isinstance(data, dict) else None
        method = data.get("method") if isinstance(data, dict) else None
        if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) and method is not None:
            log.warning("request %r (%s) has parameters of the wrong kind: answered with an error", msg_id, method)
            _reply_error(protocol, msg_id, exc if isinstance(exc, JsonRpcInvalidParams) else JsonRpcInvalidParams())
        else:
            log.warning("a message that cannot be read was ignored (%s)", type(exc).__name__)
        return
    except (ValueError, RecursionError):  # not JSON: a damaged frame; a later frame may start inside it
        k = body.find(_HEADER)
        if k >= 0:
            frames.push_back(body[k:])
        log.warning("a message that is not JSON was answered with a parse error")
        _reply_error(protocol, None, JsonRpcParseError())
        return
    if getattr(message, "jsonrpc", None) != JsonRPCProtocol.VERSION:
        # JSON, but not JSON-RPC 2.0 (a list, a number, an object without "jsonrpc", another version)
        msg_id = message.get("id") if isinstance(message, dict) else getattr(message, "id", None)
        log.warning("a message that is not JSON-RPC was answered with an error")
        _reply_error(protocol, msg_id if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) else None,
                     JsonRpcInvalidRequest())
        return
    try:
        protocol.handle_message(message)
    except Exception:  # pygls answers a handler's failure itself; this is the net under it
        log.exception("a message could not be handled")


async def run(stop, read1: Callable[[int], bytes], protocol: JsonRPCProtocol, executor,
              oversized: Callable[[int], None]) -> None:
    """Read and handle frames until the stream ends or `stop` (a threading.Event) is set."""
    loop = asyncio.get_running_loop()
    frames = Frames(read1, lambda f: loop.run_in_executor(executor, f))
    while not stop.is_set():
        body = await frames.next(oversized)
        if body is None:
            break
        handle(protocol, body, frames)
