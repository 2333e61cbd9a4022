"""The `rulewright` command line (the contract of DESIGN.md section 5).

Owns: parsing arguments (click), rendering diagnostics, tables and progress
(rich), exit codes (0 ok, 1 spec errors or failed checks, 2 usage), and the
promise that bad input never shows a Python traceback. Every command that
runs games takes --option NAME=VALUE and --reading AMBIGUITY=INTERPRETATION.

This module holds the group (`cli`) and `main`, which turns a Rulewright
bug into one line (exit 70) instead of a traceback. The commands live by
family, one module each: specs.py (check, test, upgrade, explain), games.py
(run, simulate, replay, play), measure.py (compare, ambiguities, lint),
servers.py (lsp, serve), tune.py (tune, imported only when it is run);
common.py holds what they share.
"""
from __future__ import annotations

import os
import sys

import click

from .common import err
from .games import play, replay, run, simulate
from .measure import ambiguities, compare, lint
from .servers import lsp, serve
from .specs import check, explain, test_cmd, upgrade


class _Group(click.Group):
    """The command group, with commands whose modules are imported only when they are named (`tune`:
    its search imports what a plain `check` need not load)."""
    elsewhere = {"tune": "tune"}  # command -> module of interpreter.cli holding a click command of that name

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.elsewhere])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.elsewhere:
            import importlib
            return getattr(importlib.import_module(f"{__package__}.{self.elsewhere[name]}"), name)
        return super().get_command(ctx, name)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulewright")
def cli() -> None:
    """Rulewright: tabletop game rules as checked, runnable specs."""


for _command in (compare, ambiguities, lint, run, simulate, replay, play,
                 check, test_cmd, upgrade, explain, lsp, serve):
    cli.add_command(_command)


def main() -> None:
    try:
        cli(standalone_mode=True)
    except KeyboardInterrupt:
        err.print("interrupted", markup=False)
        sys.exit(130)
    except Exception as exc:  # a bug in Rulewright, not bad input
        if os.environ.get("RULEWRIGHT_DEBUG"):
            raise
        err.print(f"internal error: {type(exc).__name__}: {exc} (set RULEWRIGHT_DEBUG=1 for details; please report)",
                  markup=False)
        sys.exit(70)


if __name__ == "__main__":
    main()
