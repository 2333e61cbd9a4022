"""The commands that start a server: `lsp` (the language server) and `serve` (the table in the browser).

Owns checking what each needs before it starts (the optional dependencies,
every spec's errors, the logs given), and reporting why it could not start.
The only modules of the other faces the command line imports are these
servers' entry points (lsp/server.py, web/server.py), and only when asked.
"""
from __future__ import annotations

import os

import click

from ..spec import files
from .common import Failed, _checked_spec, err


@click.command()
def lsp() -> None:
    """The language server, on stdio, for any editor: diagnostics as you type, completion, hover,
    go to definition, document symbols (docs/guides/editors.md says how to set up VS Code and Neovim)."""
    try:
        from ..lsp.server import serve
    except ImportError as exc:
        raise Failed(f"the language server needs pygls and lsprotocol ({exc}): pip install -e '.[lsp]'") from None
    serve()


@click.command()
@click.argument("specs", nargs=-1, required=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (loopback by default; anything else lets other machines in).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port (0: any free one).")
@click.option("--log", "log_paths", multiple=True, type=click.Path(dir_okay=False),
              help="A game log (from `run --log`) to step through on the page (repeatable).")
def serve(specs: tuple[str, ...], host: str, port: int, log_paths: tuple[str, ...]) -> None:
    """A playtesting table in the browser for these specs (and only these)."""
    from ..web.server import missing
    need = missing()
    if need:
        raise Failed(need)
    from ..web.server import serve as do_serve
    from ..web.server import TableError
    for p in specs:
        _checked_spec(p)  # every spec's errors before the server starts
    logs = []
    for p in log_paths:
        try:
            logs.append((os.path.basename(p), files.read_text(p, files.MAX_LOG_BYTES, "log")))
        except OSError as exc:
            raise Failed(f"cannot read the log {p}: {getattr(exc, 'strerror', None) or exc}") from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        err.print(f"warning: listening on {host}: other machines can reach the table", markup=False)
    try:
        do_serve(list(specs), host, port, logs, announce=lambda line: click.echo(line))
    except KeyboardInterrupt:  # uvicorn has shut down cleanly, then passes Ctrl-C on
        err.print("the table is closed", markup=False)
    except TableError as exc:
        raise Failed(str(exc)) from None
    except OSError as exc:
        raise Failed(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
