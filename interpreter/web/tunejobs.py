"""The tune page: a variant search of a served spec, read from the page's JSON and run as a lab job.

Owns reading a tune request against the served spec, trusting nothing in it
(`read_tune`): every varied name an option or ambiguity the spec declares and
every value one it declares (the page offers only those; a constant is
tunable once a variant declares it an option), the targets read by the CLI's
own parser (lab/targets.py; a bad one is a 400 with the same positioned
diagnostics `rulewright tune` prints), the agents from a short list, every
number within the server's caps (app.Limits: variants per policy, games per
variant; a space past the cap is searched by Optuna with that many trials).
And the job's task (`tune_task`): the search (lab/tune.py, stopped between
batches on request), its report as JSON (every policy's ranked candidates),
the plots and the HTML report as `--report` writes them (tune_report.py),
and the best variant as a spec, the text `--out` writes for a file beside
the served spec (`variant_yaml`), checked as that file before it is offered.
The routes are app.py's; the queue labjobs.py's.
"""
from __future__ import annotations

import importlib.util
import json
import math
import os
from dataclasses import dataclass
from typing import Any

from ..lab import settings as S
from ..lab.targets import SOURCE, parse_targets, source_text
from ..lab.tune_space import Axis
from ..spec.diagnostics import SpecError, render_in
from .guards import Bad
from .labjobs import Cancelled, Job, Task
from .tables import MAX_SEED

AGENTS = ("random", "greedy")  # who may play a search started from the page (greedy is ~30x slower)
MAX_TARGETS = 8
MAX_TARGET_CHARS = 200


@dataclass(slots=True)
class TuneRequest:
    spec: str
    players: int
    seed: int
    axes: list[Axis]
    targets: list  # lab.targets.Target
    agents: list[str]
    games: int
    max_games: int
    space: int
    trials: int

    @property
    def expected(self) -> int:
        """Variants searched in all (each policy's search)."""
        return min(self.space, self.trials) * len(self.agents)

    def echo(self) -> dict:
        return {"spec": self.spec, "players": self.players, "seed": self.seed,
                "vary": [{"name": a.name, "values": a.values} for a in self.axes],
                "targets": [t.text for t in self.targets], "agents": self.agents, "games": self.games,
                "max_games": self.max_games}


def describe_caps(variants: int, games: int) -> dict:
    """What the page may ask for (it shows these; the server enforces them)."""
    return {"variants": variants, "games": games, "agents": list(AGENTS), "targets": MAX_TARGETS,
            "optuna": _has_optuna()}


def _has_optuna() -> bool:
    return importlib.util.find_spec("optuna") is not None


def _int(d: dict, key: str, default: int, lo: int, hi: int, what: str) -> int:
    v = d.get(key, default)
    if type(v) is not int or not lo <= v <= hi:
        raise Bad(400, f"{what} must be a whole number from {lo} to {hi}")
    return v


def _sent(v: Any) -> str:
    """What the page sent, as JSON (50, "50" and true told apart), cut short."""
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _same_value(sent: Any, declared: Any) -> bool:
    """A value the page sent is a declared one: the same type (a number for a number, never true for 1)."""
    if isinstance(sent, bool) or isinstance(declared, bool):
        return type(sent) is type(declared) and sent == declared
    if isinstance(sent, (int, float)) and isinstance(declared, (int, float)):
        return sent == declared
    return type(sent) is type(declared) and sent == declared


def _axes(raw: Any, spec) -> list[Axis]:
    names = list(spec.options) + [a for a in spec.ambiguities if a not in spec.options]
    if not names:
        raise Bad(400, f"{spec.name} declares no options or ambiguities: nothing to vary (a variant that declares "
                       "a number as an option makes it tunable)")
    if not isinstance(raw, list) or not raw or len(raw) > len(names):
        raise Bad(400, f"vary must list 1 to {len(names)} of: {', '.join(names)}")
    axes: list[Axis] = []
    for item in raw:
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str) or name not in names:
            raise Bad(400, f"vary: {_sent(name)} is no option or ambiguity of {spec.name} "
                           f"(it has: {', '.join(names)})")
        if name in spec.options and name in spec.ambiguities:
            raise Bad(400, f"vary: '{name}' is both an option and an ambiguity of {spec.name}")
        if any(a.name == name for a in axes):
            raise Bad(400, f"vary: '{name}' is named twice")
        kind = "option" if name in spec.options else "reading"
        declared = list(spec.options[name].values) if kind == "option" else list(spec.ambiguities[name].interpretations)
        sent = item.get("values")
        if sent is None:
            values = declared
        else:
            if not isinstance(sent, list) or not sent or len(sent) > len(declared):
                raise Bad(400, f"vary: the values of {name} must be some of: {', '.join(map(str, declared))}")
            for v in sent:
                if not any(_same_value(v, d) for d in declared):
                    raise Bad(400, f"vary: {_sent(v)} is not a{' value' if kind == 'option' else 'n interpretation'}"
                                   f" of {name} (it takes {', '.join(map(str, declared))})")
            values = [d for d in declared if any(_same_value(v, d) for v in sent)]  # declared order, once each
        axes.append(Axis(name, kind, values))
    return axes


def _targets(raw: Any, spec, players: int) -> list:
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_TARGETS or not all(isinstance(t, str) for t in raw):
        raise Bad(400, f"targets must be 1 to {MAX_TARGETS} lines of text, e.g. `turns 60..90`")
    for t in raw:
        if len(t) > MAX_TARGET_CHARS or "\n" in t or "\r" in t:
            raise Bad(400, f"a target is one line of at most {MAX_TARGET_CHARS} characters")
    try:
        return parse_targets(raw, list(spec.measures), players)
    except SpecError as exc:
        blocks = render_in(exc.diagnostics, {SOURCE: source_text(raw)})
        raise Bad(400, f"{len(blocks)} target(s) cannot be read; nothing was run", diagnostics="\n".join(blocks)) \
            from None


def read_tune(d: Any, specs: dict, max_variants: int, max_games_cap: int) -> TuneRequest:
    """A tune request from the page's JSON, every part checked against the spec and the caps (variants per
    policy, games per variant); Bad(400) else."""
    if not isinstance(d, dict):
        raise Bad(400, "the request body must be a JSON object")
    sid = d.get("spec")
    if not isinstance(sid, str) or sid not in specs:
        raise Bad(400, f"unknown spec {_sent(sid)}: this server serves {', '.join(specs)}")
    spec = specs[sid].spec
    players = d.get("players", max(spec.min_players, 2))
    if type(players) is not int or not spec.min_players <= players <= spec.max_players:
        raise Bad(400, f"{spec.name} is for {spec.min_players} to {spec.max_players} players")
    seed = _int(d, "seed", 0, 0, MAX_SEED, "the seed")
    games = _int(d, "games", min(100, max_games_cap), 10, max_games_cap, "the first batch (games)")
    max_games = _int(d, "max_games", min(8 * games, max_games_cap), games, max_games_cap,
                     "games per variant at most (max_games)")
    agents = d.get("agents", ["random"])
    if not isinstance(agents, list) or not agents or not all(isinstance(a, str) and a in AGENTS for a in agents) \
            or len(set(agents)) != len(agents):
        raise Bad(400, f"agents must name one or more of: {', '.join(AGENTS)} (each once)")
    axes = _axes(d.get("vary"), spec)
    targets = _targets(d.get("targets"), spec, players)
    space = math.prod(len(a.values) for a in axes)
    if space > max_variants and not _has_optuna():
        raise Bad(400, f"{space:,} variants: this server plays at most {max_variants} per search, and a larger "
                       "space needs Optuna (pip install 'rulewright[tune]'); vary fewer names or values")
    return TuneRequest(sid, players, seed, axes, targets, list(agents), games, max_games, space, max_variants)


def tune_task(served, req: TuneRequest) -> Task:
    def run(job: Job, folder: str) -> None:
        from ..lab.report import ReportError
        from ..lab.tune import Stopped, check_variant, tune, variant_yaml
        from ..lab.tune_report import plot_name, write_tune_report
        counts: dict[str, int] = {}

        def started(policy: str, expected: int):
            def one(k: int) -> None:  # a policy's best checked under another counts no further
                counts[policy] = min(expected, counts.get(policy, 0) + k)
                job.progress(sum(counts.values()), job.total)
            return one
        try:
            rep = tune(served.path, req.players, req.seed, req.targets, req.axes,
                       policies=[S.seat_agents({"all": a}, req.players) for a in req.agents], games=req.games,
                       max_games=req.max_games, trials=req.trials, progress=started, stop=job.stopping)
        except Stopped:
            raise Cancelled() from None
        report = rep.as_dict()
        report["policies"] = [s.as_dict() for s in rep.searches]  # one or more: the page shows each the same way
        try:
            write_tune_report(rep, folder)
            report["plots"] = [[plot_name(rep, s, k) for k in range(len(rep.targets))] for s in rep.searches]
        except ReportError as exc:
            job.note = f"no plots: {exc}"
        best = rep.best
        if best is not None and best.meets != "false":
            name = f"{served.id}-tuned.yaml"  # to be saved beside the served spec: its `extends:` names it so
            out_path = os.path.join(os.path.dirname(os.path.abspath(served.path)), name)
            text = variant_yaml(rep, best, out_path)
            problems = check_variant(text, out_path)
            if problems:
                job.note = ("the best variant does not check (a bug in tune; please report it): "
                            + "; ".join(p.message for p in problems))
            else:
                job.downloads[name] = text
        job.report = report
    return run
