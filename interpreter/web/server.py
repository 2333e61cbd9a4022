"""Serving the table: bind a socket, say the address, run uvicorn until Ctrl-C.

Owns the binding (127.0.0.1 unless told otherwise; port 0 picks a free
port, and the address printed is the real one) and which Host headers the
app then accepts (the loopback names, or any when bound elsewhere on
purpose), and the key that seals saves of games in play (kept in a file,
sealing.key_file(), so such a save loads after a restart; a key for this run
only, said so, where that file cannot be had). Starlette, uvicorn and
cryptography are the `web` extra; `missing()` says how to install them when
they are absent, so the CLI can say so instead of failing.
"""
from __future__ import annotations

import socket
from typing import Callable

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def missing() -> str | None:
    """None when the web extra is installed, else how to install it."""
    try:
        import cryptography  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        return f"the table needs {exc.name}: pip install 'rulewright[web]'"
    return None


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say they are TCP, and
    # without it every keep-alive response waits ~40 ms for a delayed ACK (measured: 45 ms -> 3 ms).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def address(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def make_server(app, sock: socket.socket, quiet: bool = True):
    import uvicorn
    config = uvicorn.Config(app, log_level="warning" if quiet else "info", access_log=not quiet,
                            lifespan="on", timeout_graceful_shutdown=2)
    return uvicorn.Server(config)


def serve(specs, host: str = "127.0.0.1", port: int = 8765, logs: list[tuple[str, str]] = (),
          announce: Callable[[str], None] = print, limits=None, key_path: str | None = None) -> None:
    from .app import create_app
    from .sealing import persistent_key
    hosts = LOOPBACK if host in LOOPBACK else ()  # bound elsewhere on purpose: any Host header
    key, why = persistent_key(key_path)
    if key is None:
        announce(f"note: saves of games in play will load only while this server runs ({why})")
    app = create_app(specs, limits=limits, hosts=hosts, logs=list(logs), key=key)
    sock = bind(host, port)
    announce(f"Rulewright table: {address(sock)}  (serving {', '.join(app.state.table.specs)}; Ctrl-C to stop)")
    make_server(app, sock).run(sockets=[sock])
