"""What a request must be before the table reads it: the guards in front of the routes.

Owns: the Host check (DNS rebinding), the origin check (changes only from
the table's own page: `Origin`, `Sec-Fetch-Site`), reading a body within its
size limit, and parsing a request's JSON so that nothing crafted gets past
as a 500 (no NaN or Infinity, no number of thousands of digits, no nesting
deeper than MAX_DEPTH, no lone surrogate, only `application/json`); `Bad`,
the 4xx every route raises, and `Json`, the ASCII-only JSON response every
answer is. Pure ASGI and Starlette; knows no game.
"""
from __future__ import annotations

import json
import re
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse

JSON_TYPE = "application/json"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
MAX_DEPTH = 16       # nesting of a request's JSON (a save is 3 deep)
MAX_DIGITS = 30      # digits of a number in a request's JSON (a seed has at most 19)
_DIGITS = re.compile(r"[0-9]{1,9}")


class Bad(HTTPException):
    """A 4xx with {"error": detail} and any `extra` fields (a bad target's rendered diagnostics)."""

    def __init__(self, status_code: int, detail: str, **extra: Any):
        super().__init__(status_code, detail)
        self.extra = extra


class Json(JSONResponse):
    """JSON with every non-ASCII character escaped: a lone surrogate echoed in an error message is valid JSON
    (\\ud800), never an encoding error and a dropped connection."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode("ascii")


class HostCheck:
    """Only the Host names the server was bound for (a page on another site that resolves its own name to
    127.0.0.1, DNS rebinding, gets a 400 instead of the table)."""

    def __init__(self, app, hosts: tuple[str, ...]):
        self.app, self.hosts = app, {h.lower() for h in hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            raw = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1").lower()
            host = raw[1:raw.index("]")] if raw.startswith("[") and "]" in raw else raw.rsplit(":", 1)[0] if \
                raw.count(":") == 1 else raw
            if host not in self.hosts:
                await json_error(400, f"this table answers only to {', '.join(sorted(self.hosts))}")(scope, receive,
                                                                                                      send)
                return
        await self.app(scope, receive, send)


class OriginCheck:
    """State-changing requests only from the table's own page.

    A browser names the page a request comes from (`Origin`, and `Sec-Fetch-Site`); a POST, PUT or DELETE
    whose Origin is not this server's own (the Host it was sent to), or that the browser marks as sent by
    another site, is refused with a 403 before it is read. Scripts that send no Origin (curl, the tests)
    are let through; the JSON body each such route requires (a content type that a page on another site
    cannot send without the browser asking first, which this server never allows) is checked by the route.
    """

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope.get("method", "GET") not in SAFE_METHODS:
            headers = dict(scope.get("headers") or [])
            origin = headers.get(b"origin", b"").decode("latin-1").lower()
            host = headers.get(b"host", b"").decode("latin-1").lower()
            fetch_site = headers.get(b"sec-fetch-site", b"").decode("latin-1").lower()
            ours = {f"http://{host}", f"https://{host}"}
            if (origin and origin not in ours) or fetch_site not in ("", "same-origin", "none"):
                await json_error(403, "this table takes changes only from its own page (the request came from "
                                       f"{origin or 'another site'})")(scope, receive, send)
                return
        await self.app(scope, receive, send)


class NoFraming:
    """Every answer says it may not be shown inside another site's page (a framed table could be clicked
    through by a page on top of it: clickjacking)."""

    HEADERS = [(b"x-frame-options", b"DENY"), (b"content-security-policy", b"frame-ancestors 'none'"),
               (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin")]

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def framed(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.HEADERS]}
            await send(message)
        await self.app(scope, receive, framed)


def json_error(status: int, message: str, **extra: Any) -> JSONResponse:
    return Json({"error": message, **extra}, status_code=status)


async def _body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not _DIGITS.fullmatch(declared) or int(declared) > limit):
        raise Bad(413, f"the request is larger than {limit} bytes")
    data = bytearray()
    try:
        async for chunk in request.stream():
            data += chunk
            if len(data) > limit:
                raise Bad(413, f"the request is larger than {limit} bytes")
    except ClientDisconnect:
        raise Bad(400, "the request was cut off") from None
    return bytes(data)


def _number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _depth_ok(value: Any) -> bool:
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            if d > MAX_DEPTH:
                return False
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return True


def parse_json(raw: bytes) -> Any:
    """A request's JSON, or Bad(400): no NaN or Infinity, no number of more than MAX_DIGITS digits, no
    nesting deeper than MAX_DEPTH, and no lone surrogate (text must be text)."""
    try:
        text = raw.decode("utf-8") if raw else "{}"
        value = json.loads(text, parse_int=_number, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise Bad(400, "the request body is not UTF-8 text") from None
    except RecursionError:
        raise Bad(400, f"the request's JSON nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # JSONDecodeError, a number too long, NaN
        raise Bad(400, f"the request body is not JSON this table takes ({str(exc)[:200]})") from None
    if not _depth_ok(value):
        raise Bad(400, f"the request's JSON nests deeper than {MAX_DEPTH} levels")
    try:
        json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (UnicodeEncodeError, ValueError):
        raise Bad(400, "the request's JSON holds text that is not valid Unicode (a lone surrogate) or a number "
                       "too large for JSON") from None
    return value


async def read_json(request: Request, limit: int) -> Any:
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != JSON_TYPE:
        raise Bad(415, f"send JSON (Content-Type: {JSON_TYPE}), not {ctype or 'no content type'}")
    return parse_json(await _body(request, limit))
