"""The ambiguity lab under several kinds of players, and the verdicts that depend on who plays.

Owns running the lab once per policy (every seat played by one agent:
`random`, `greedy`, `mcts:50`, or `last`, the policy this module adds:
always the last legal option), on the same seeds, and comparing the
verdicts: an ambiguity is *policy-dependent* when it is material for some
players and immaterial (or unreachable) for others, and a *random-play
artefact* when only random players find it material. A reading that adds a
silly option (stop before turning up any card) can change random play a lot
and strategic play not at all: that is a finding about random players, not
about the rules. Running one policy is ambiguities.py's; rendering is the
CLI's and report.py's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..agents.registry import AGENTS, SETTINGS
from . import verdicts as V
from .ambiguities import LabReport, ambiguity_lab

NO_EFFECT = {V.IMMATERIAL, V.UNREACHABLE}


class LastAgent:
    """Always the last legal option: a deterministic policy that stops as early as a game lets it.

    Actions are offered in the spec's order and "stop" comes after "go on" (STUN's `stop` after `flip`), so
    in STUN this is the stop-after-the-first-card player: the forced first card, then stop, every turn; the
    rulebook audit of issue 30 found six-player games stalling under it 18 times in 100."""
    name = "last"

    def __init__(self, game_seed: int = 0, seat: int = 0):
        pass

    def pick(self, state) -> int:
        return len(state.popts) - 1


# A lab policy (`--agents random,last`, `--agent all=last`): registered where agents are looked up by name.
AGENTS.setdefault("last", LastAgent)
SETTINGS.setdefault("last", (None, {}))


@dataclass(slots=True)
class Sensitivity:
    """One ambiguity's verdicts under each policy, and what they say together."""
    ambiguity: str
    verdicts: dict[str, str]  # policy -> verdict
    readings: dict[str, dict[str, str]]  # interpretation -> policy -> verdict
    policy_dependent: bool = False
    random_artefact: bool = False
    note: str = ""
    differs: list[str] = field(default_factory=list)  # effects whose intervals under two policies do not overlap

    def as_dict(self) -> dict:
        return {"ambiguity": self.ambiguity, "verdicts": self.verdicts, "interpretations": self.readings,
                "policy_dependent": self.policy_dependent, "random_artefact": self.random_artefact,
                "note": self.note, "differs": self.differs}


def _show(iv) -> str:
    if iv.rate:
        return f"{iv.mean:+.1%} [{iv.lo:+.1%}, {iv.hi:+.1%}]"
    return f"{iv.mean:+.3g} [{iv.lo:+.3g}, {iv.hi:+.3g}]"


def disjoint(intervals: dict[str, dict[str, list]], base: str = "random") -> dict[str, list[str]]:
    """policy -> the effects (`interpretation measure`) whose interval there and under `base` do not overlap.

    Two 95% intervals that do not overlap show that the effect differs between the two kinds of players
    (a conservative test), even while each verdict is still undecided.
    """
    out: dict[str, list[str]] = {}
    if base not in intervals:
        return out
    for policy, by_interp in intervals.items():
        if policy == base:
            continue
        for interp, ivs in by_interp.items():
            mine = {iv.measure: iv for iv in intervals[base].get(interp, [])}
            for iv in ivs:
                b = mine.get(iv.measure)
                if b is not None and (iv.hi < b.lo or b.hi < iv.lo):
                    out.setdefault(policy, []).append(
                        f"{interp} {iv.measure}: {base} {_show(b)}, {policy} {_show(iv)}")
    return out


def assess(name: str, verdicts: dict[str, str], readings: dict[str, dict[str, str]],
           intervals: dict[str, dict[str, list]] | None = None) -> Sensitivity:
    """Flag an ambiguity whose verdict depends on the players (see the module docstring).

    `intervals`: policy -> interpretation -> its judged intervals; with them, an effect whose intervals under
    random and another policy do not overlap also counts (the effect depends on who plays).
    """
    vs = set(verdicts.values())
    s = Sensitivity(name, verdicts, readings)
    material = [p for p, v in verdicts.items() if v == V.MATERIAL]
    quiet = [p for p, v in verdicts.items() if v in NO_EFFECT]
    apart = disjoint(intervals or {})
    s.differs = [d for ds in apart.values() for d in ds]
    s.policy_dependent = bool(material and quiet) or bool(s.differs)
    others = [p for p in verdicts if p != "random"]
    s.random_artefact = (verdicts.get("random") == V.MATERIAL and bool(others)
                         and all(verdicts[p] in NO_EFFECT or (verdicts[p] != V.MATERIAL and p in apart)
                                 for p in others))
    if s.random_artefact:
        s.note = "random-play artefact: material only for random players"
        if s.differs:
            s.note += "; the effect is not what other players see (" + "; ".join(s.differs[:2]) + ")"
    elif s.policy_dependent:
        s.note = (f"depends on the players: material for {', '.join(material)}, not for {', '.join(quiet)}"
                  if material and quiet else "the effect depends on the players: " + "; ".join(s.differs[:2]))
    elif V.UNDECIDED in vs and len(vs) > 1:
        s.note = "not yet known for every policy: play more games"
    elif len(vs) == 1:
        s.note = f"{next(iter(vs))} for every policy"
    else:
        s.note = "no effect for any policy"
    return s


@dataclass(slots=True)
class PolicyLab:
    spec: str
    players: int
    seed: int
    policies: list[str]
    reports: list[LabReport]
    sensitivity: list[Sensitivity] = field(default_factory=list)

    def report(self, policy: str) -> LabReport:
        return self.reports[self.policies.index(policy)]

    def as_dict(self) -> dict:
        return {"spec": self.spec, "players": self.players, "seed": self.seed, "policies": self.policies,
                "sensitivity": [s.as_dict() for s in self.sensitivity],
                "random_artefacts": [s.ambiguity for s in self.sensitivity if s.random_artefact],
                "policy_dependent": [s.ambiguity for s in self.sensitivity if s.policy_dependent],
                "reports": [r.as_dict() for r in self.reports]}


def sensitivity_of(name: str, reports: dict[str, LabReport]) -> Sensitivity:
    """One ambiguity across the reports of several policies (policy -> its LabReport)."""
    verdicts, readings, intervals = {}, {}, {}
    for policy, rep in reports.items():
        a = next(x for x in rep.ambiguities if x.name == name)
        verdicts[policy] = a.verdict
        for r in a.readings:
            readings.setdefault(r.interpretation, {})[policy] = r.verdict
            if r.verdict != V.UNREACHABLE:
                intervals.setdefault(policy, {})[r.interpretation] = [iv for iv in r.intervals if iv.measure != "errors"]
    return assess(name, verdicts, readings, intervals)


def policy_lab(path: str, players: int, games: int, seed: int, policies: list[str], *,
               progress: Callable[[str], Callable[[int, int], None] | None] | None = None, **lab) -> PolicyLab:
    """The lab once per policy (every seat that agent), on the same seeds; `lab` goes to ambiguity_lab."""
    reports = []
    for policy in policies:
        update = progress(policy) if progress else None
        reports.append(ambiguity_lab(path, players, games, seed, agents={s: policy for s in range(players)}
                                     if policy != "random" else {}, progress=update, **lab))
    out = PolicyLab(path, players, seed, list(policies), reports)
    names = [a.name for a in reports[0].ambiguities]
    for name in sorted(names, key=names.index):
        out.sensitivity.append(sensitivity_of(name, dict(zip(policies, reports))))
    return out
