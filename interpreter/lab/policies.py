"""The ambiguity lab under several kinds of players, and the verdicts that depend on who plays.

Owns running the lab once per policy (every seat played by one agent:
`random`, `greedy`, `mcts:50`), on the same seeds, and comparing the
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

from . import verdicts as V
from .ambiguities import LabReport, ambiguity_lab

NO_EFFECT = {V.IMMATERIAL, V.UNREACHABLE}


@dataclass(slots=True)
class Sensitivity:
    """One ambiguity's verdicts under each policy, and what they say together."""
    ambiguity: str
    verdicts: dict[str, str]  # policy -> verdict
    readings: dict[str, dict[str, str]]  # interpretation -> policy -> verdict
    policy_dependent: bool = False
    random_artefact: bool = False
    note: str = ""

    def as_dict(self) -> dict:
        return {"ambiguity": self.ambiguity, "verdicts": self.verdicts, "interpretations": self.readings,
                "policy_dependent": self.policy_dependent, "random_artefact": self.random_artefact,
                "note": self.note}


def assess(name: str, verdicts: dict[str, str], readings: dict[str, dict[str, str]]) -> Sensitivity:
    """Flag an ambiguity whose verdict depends on the players (see the module docstring)."""
    vs = set(verdicts.values())
    s = Sensitivity(name, verdicts, readings)
    material = [p for p, v in verdicts.items() if v == V.MATERIAL]
    quiet = [p for p, v in verdicts.items() if v in NO_EFFECT]
    s.policy_dependent = bool(material and quiet)
    others = [v for p, v in verdicts.items() if p != "random"]
    s.random_artefact = verdicts.get("random") == V.MATERIAL and bool(others) and all(v in NO_EFFECT for v in others)
    if s.random_artefact:
        s.note = "random-play artefact: material only for random players"
    elif s.policy_dependent:
        s.note = f"depends on the players: material for {', '.join(material)}, not for {', '.join(quiet)}"
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
        verdicts, readings = {}, {}
        for policy, rep in zip(policies, reports):
            a = next(x for x in rep.ambiguities if x.name == name)
            verdicts[policy] = a.verdict
            for r in a.readings:
                readings.setdefault(r.interpretation, {})[policy] = r.verdict
        out.sensitivity.append(assess(name, verdicts, readings))
    return out
