"""Stage 4b, the kernel: whole unlogged games with built-in agents, natively (numba), on a flat state.

From the lowered game (`interpreter/lower/`) it generates one module of `@njit` functions per spec
(emit.py), caches it on disk (build.py), and plays batches of games with options and readings as
run-time values (run.py); each game can record its choices and chance, and is then replayed in the
reference engine (replay.py), which keeps both engines to one meaning. The reference engine
(`runtime/`) stays the one for everything interactive: play, serve, logs, replay, narration.

May import `spec`, `lang`, `lower`, `compile`, `runtime` and `agents` (agents.py plays their search
agents on the kernel).
"""
from __future__ import annotations

import os
from typing import Any

ENGINES = ("kernel", "python")


def why_not(spec: Any, agents: dict[int, str] | None = None) -> str | None:
    """Why games of `spec` with these seated agents cannot run on the kernel, or None when they can."""
    from .agents import searching, why_not_agents
    if searching(agents):
        reason = why_not_agents(agents)
        if reason is not None:
            return reason
    from .run import unsupported
    exc = unsupported(spec)
    if exc is None and searching(agents):
        from .agents import search_kernel_for
        exc = unsupported(spec, search_kernel_for)
    return None if exc is None else str(exc)


def choose(spec: Any, agents: dict[int, str] | None, requested: str | None) -> tuple[str, str | None]:
    """The engine games of `spec` run on, and a note for the user when it is not the kernel.

    `requested`: "kernel", "python", or None: the default, `$RULEWRIGHT_ENGINE` if set, else the kernel
    where it applies. When the kernel was wanted but cannot run these games, the note names why, with
    the construct's file:line:col, and the games run on the Python engine."""
    if requested is None:
        requested = os.environ.get("RULEWRIGHT_ENGINE") or None
        if requested not in (None, *ENGINES):
            requested = None
    if requested == "python":
        return "python", None
    reason = why_not(spec, agents)
    if reason is None:
        return "kernel", None
    return "python", f"running on the Python engine: {reason}"
