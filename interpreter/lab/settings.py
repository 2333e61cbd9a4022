"""The lab's settings: margins of practical equivalence and who plays, from the spec and the command line.

Owns the default margins (what a designer would accept without thinking
twice), merging them with the spec's `lab:` section and `--margin`
(command line over spec over defaults), resolving a relative margin against
the default configuration's mean, and the lab's players: `--agent`
(`1=greedy`, `all=mcts:50`) over the spec's `lab.agents`, checked against
the agent registry (a bad name in the spec is a positioned diagnostic).
Reading one margin's text is the language stage's (lang/margins.py), so the
checker can point at a bad one.
"""
from __future__ import annotations

from typing import Mapping

from ..agents.registry import AgentError, make_agent
from ..lang.margins import BUILTIN, Margin, known_names, parse_margin
from ..spec.diagnostics import Diagnostic, SpecError

DEFAULTS: dict[str, Margin] = {
    "wins": Margin(0.02),               # a seat's win share: two percentage points
    "turns": Margin(0.05, True),        # game length: 5% of the default readings' mean
    "stalled": Margin(0.005),           # stall rate: half a percentage point
    "errors": Margin(0.005),            # error rate (a game the rules cannot finish): half a point
    "margin": Margin(0.10, True),       # winning margin (first score minus second): 10% of its mean
}
MEASURE_DEFAULT = Margin(0.05, True)    # a spec's own measure: 5% of its mean under the default readings


class SettingsError(ValueError):
    """A --margin or --agent that cannot be used (a usage problem)."""


def margin_key(measure: str) -> str:
    """The margin name a measured difference falls under (`win P3`, `win North-South` -> `wins`)."""
    return "wins" if measure.startswith("win ") else measure


def margins_for(spec, given: Mapping[str, str] | None = None) -> dict[str, Margin]:
    """Every margin name of `spec` -> its Margin: `given` (the command line) over `lab.margins` over defaults."""
    names = known_names(spec.measures)
    out = {n: DEFAULTS.get(n, MEASURE_DEFAULT) for n in names}
    lab = getattr(spec, "lab", None)
    if lab is not None:
        for n, (value, _span, _key) in lab.margins.items():
            out[n] = parse_margin(value)  # the checker has vetted it
    for n, value in (given or {}).items():
        if n not in names:
            raise SettingsError(f"--margin: no measure '{n}' (margins are for: {', '.join(names)})")
        try:
            out[n] = parse_margin(value)
        except ValueError as exc:
            raise SettingsError(f"--margin {n}: {exc}") from None
    return out


def resolve(margins: Mapping[str, Margin], base_means: Mapping[str, float]) -> dict[str, float]:
    """Each margin name -> the margin in its measure's unit (a relative one times the default's mean)."""
    return {n: m.resolve(base_means.get(n, 0.0)) for n, m in margins.items()}


def describe(margins: Mapping[str, Margin], resolved: Mapping[str, float]) -> dict[str, dict]:
    """For JSON and reports: what each margin was set as, and what it came to."""
    return {n: {"set": m.text(), "relative": m.relative, "value": resolved.get(n)} for n, m in margins.items()}


def seat_agents(pairs: Mapping[str, str], players: int, where: str = "--agent") -> dict[int, str]:
    """`{"all": "greedy", "2": "random"}` -> {seat (0-based): agent}; `all` first, then single seats."""
    out: dict[int, str] = {}
    for seat, name in sorted(pairs.items(), key=lambda kv: kv[0] != "all"):
        if seat == "all":
            seats = range(players)
        elif seat.isdigit() and 1 <= int(seat) <= players:
            seats = [int(seat) - 1]
        else:
            raise SettingsError(f"{where}: seat must be 1..{players} or all, got '{seat}'")
        try:
            make_agent(name, 0, 0)
        except AgentError as exc:
            raise SettingsError(f"{where}: {exc}") from None
        for s in seats:
            out[s] = name
    return {s: a for s, a in sorted(out.items()) if a != "random"}


def spec_agents(spec, players: int) -> dict[int, str]:
    """The spec's `lab.agents` for a game of `players`; a bad agent name is a SpecError at its position."""
    lab = getattr(spec, "lab", None)
    if lab is None or not lab.agents:
        return {}
    diags = []
    for seat, (name, span) in lab.agents.items():
        try:
            make_agent(name, 0, 0)
        except AgentError as exc:
            diags.append(Diagnostic("E483", f"lab.agents: {exc}", span, hint="agents: random, first, greedy[:N], mcts[:N]"))
    if diags:
        raise SpecError(diags)
    pairs = {seat: name for seat, (name, _span) in lab.agents.items() if seat == "all" or int(seat) <= players}
    return seat_agents(pairs, players, "lab.agents")


def parse_policies(text: str) -> list[str]:
    """`random,greedy,mcts:50` -> the agents, each checked; commas inside settings stay with their agent
    (`mcts:iterations=50,c=1.0,greedy`)."""
    from ..agents.registry import AGENTS
    out: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if out and ":" in out[-1] and "=" in piece and piece.partition(":")[0] not in AGENTS:
            out[-1] += "," + piece
        else:
            out.append(piece)
    for name in out:
        try:
            make_agent(name, 0, 0)
        except AgentError as exc:
            raise SettingsError(f"--agents: {exc}") from None
    if len(set(out)) != len(out):
        raise SettingsError("--agents: a policy is named twice")
    return out


def policy_label(agents: Mapping[int, str], players: int) -> str:
    """`random`, `greedy` (every seat), or `P1 greedy, P2 random` (mixed)."""
    names = [agents.get(s, "random") for s in range(players)]
    if len(set(names)) == 1:
        return names[0]
    return ", ".join(f"P{s + 1} {n}" for s, n in enumerate(names))


__all__ = ["BUILTIN", "DEFAULTS", "MEASURE_DEFAULT", "SettingsError", "margin_key", "margins_for", "resolve",
           "describe", "seat_agents", "spec_agents", "parse_policies", "policy_label"]
