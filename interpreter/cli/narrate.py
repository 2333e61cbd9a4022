"""Narration: a game's events as text a person can follow.

Owns the wording of the engine's own events (turns, phases, choices, the
end); the spec's `say` lines are shown as written. Moves and shuffles are
shown only in verbose mode: the spec's narration already tells the story.
"""
from __future__ import annotations

from typing import Iterable, Iterator


def narrate(events: Iterable[dict], verbose: bool = False) -> Iterator[str]:
    for e in events:
        kind = e["e"]
        if kind == "turn":
            yield f"-- turn {e['turn']}: P{e['player'] + 1} --"
        elif kind == "phase":
            yield f"== {e['phase']} {e['round']} =="
        elif kind == "say":
            yield f"   {e['text']}"
        elif kind == "choice":
            only = "" if e["of"] > 1 else " (the only option)"  # shown, so a forced move does not look missing
            if e.get("sealed") and not verbose:  # a simultaneous choice: shown when the rules reveal it
                yield f"   P{e['player'] + 1} chooses, face down"
            else:
                yield f"   P{e['player'] + 1} chooses: {e['choice']}{only}"
        elif kind == "roll":
            dice = ', '.join(map(str, e['dice'])) or 'no dice'
            if e['dice'] and all(d == "a hidden die" for d in e['dice']):  # rolled for another seat's eyes
                dice = "a hidden die" if len(e['dice']) == 1 else f"{len(e['dice'])} hidden dice"
            yield f"   P{e['player'] + 1} rolls {dice}" if e.get("player") is not None else f"   the dice show {dice}"
        elif kind == "reveal":
            whose = f"P{e['player'] + 1}'s " if e.get("player") is not None else ""
            yield f"   {whose}{e['what']} revealed: {', '.join(map(str, e['values']))}"
        elif kind == "move" and verbose:
            yield f"   . {', '.join(e['cards'])}: {e['src']} -> {e['dst']}"
        elif kind == "shuffle" and verbose:
            yield f"   . {e['zone']} is shuffled"
        elif kind == "end":
            yield _ending(e)


def _ending(e: dict) -> str:
    if e["status"] != "finished":
        return f"== the game {e['status']} after {e['turns']} turns: {e.get('reason')} =="
    winners = e.get("winners") or []
    who = " and ".join(f"P{w + 1}" for w in winners) or "nobody"
    verb = "win" if len(winners) > 1 else "wins"  # "nobody wins": a draw
    scores = e.get("scores")
    tail = f" (scores: {', '.join(f'P{i + 1} {s}' for i, s in enumerate(scores))})" if scores else ""
    if e.get("side_scores"):  # a game of sides (game.teams): the sides' scores
        tail = f" (sides' scores: {', '.join(f'side {k + 1} {s}' for k, s in enumerate(e['side_scores']))})"
    return f"== {who} {verb} after {e['turns']} turns{tail} =="
