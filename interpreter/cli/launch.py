"""The `rulewright` entry point: answers a repeated `check` of unchanged files at once.

A spec that checked clean is remembered (verdicts.py); checking it again with
nothing changed prints the remembered answer without importing the checker,
jsonschema, Lark, click or rich, so it takes little more than Python's own
start-up. Anything else (an unchanged spec with errors, other commands and
options, a damaged cache) goes to the full command line in commands.py. Only the
standard library and verdicts.py (itself standard library only) may be
imported at the top of this module.
"""
from __future__ import annotations

import os
import sys

from .verdicts import interpreter_key, recall


def _quick_check(args: list[str]) -> int | None:
    """`check SPEC... [--no-warnings]` answered from kept verdicts; None when any spec needs the checker."""
    paths = [a for a in args[1:] if a != "--no-warnings"]
    if not paths or any(p.startswith("-") for p in paths):
        return None
    interpreter = interpreter_key()
    verdicts = [recall(p, interpreter) if os.path.isfile(p) else None for p in paths]
    if any(v is None for v in verdicts):
        return None
    for path, v in zip(paths, verdicts):
        if "--no-warnings" not in args:
            for text in v["warnings"]:
                print(text, file=sys.stderr)
        print(f"{path}: ok ({v['name']}, {len(v['warnings'])} warning(s))")
    return 0


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["check"]:
        try:
            code = _quick_check(args)
        except Exception:  # never worse than the full command line
            code = None
        if code is not None:
            sys.exit(code)
    from .commands import main as full
    full()


if __name__ == "__main__":
    main()
