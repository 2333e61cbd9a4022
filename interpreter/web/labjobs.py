"""Ambiguity-lab jobs started from the page, run off the event loop.

Owns: a bounded queue of lab runs (`LabJobs`): one worker thread runs them
one at a time (the lab's runner keeps a per-process game cache, and the
plots use matplotlib's pyplot, neither made for threads running side by
side), at most `max_jobs` waiting or running, at most `max_games` games per
interpretation. A job reports progress (games done of the target), then the
report: `LabReport.as_dict()` as it is (the page renders verdicts and fields
generically, whatever strings and fields the lab gives) and the report's
plots, written by lab/report.py into the job's own temporary folder. Old
finished jobs are forgotten (and their folders removed) past `keep`.

A run measures the spec the table serves, the copy read when the server
started: if any of its files (the spec, its bases) has changed since, or is
no longer a regular file (a FIFO put in its place would block the worker),
the run fails at once and says to restart the server; the lab is never
handed another game than the one on the table.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
import uuid
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable


class LabBusy(RuntimeError):
    """Too many lab jobs already waiting or running."""


class LabStale(RuntimeError):
    """The served spec's files changed since the server read them."""


@dataclass(slots=True)
class Job:
    id: str
    owner: str  # the browser session that started it
    request: dict
    state: str = "queued"  # queued, running, done, failed
    done: int = 0
    total: int = 0
    report: dict | None = None
    plots: list[str] = field(default_factory=list)
    note: str | None = None
    error: str | None = None
    folder: str | None = None
    started: float = 0.0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "state": self.state, "done": self.done, "total": self.total, "request": self.request,
                "report": self.report, "plots": self.plots, "note": self.note, "error": self.error,
                "seconds": round(self.seconds or (time.monotonic() - self.started if self.started else 0), 1)}


class LabJobs:
    def __init__(self, max_jobs: int = 3, max_games: int = 2000, per_owner: int = 1, keep: int = 20):
        self.max_jobs, self.max_games, self.per_owner, self.keep = max_jobs, max_games, per_owner, keep
        self.jobs: "OrderedDict[str, Job]" = OrderedDict()
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rulewright-lab")
        self.root = tempfile.mkdtemp(prefix="rulewright-lab-")

    def active(self, owner: str | None = None) -> int:
        return sum(j.state in ("queued", "running") and owner in (None, j.owner) for j in self.jobs.values())

    def submit(self, owner: str, served: Any, request: dict, players: int, games: int, seed: int,
               only: list[str], options: dict, stamps: Callable[[Any], tuple]) -> Job:
        """Queue a run of `served` (app.Served); `stamps(paths)` tells whether its files are as they were."""
        with self.lock:
            if self.active() >= self.max_jobs:
                raise LabBusy(f"{self.max_jobs} lab runs are already waiting or running; try again when one ends")
            if self.active(owner) >= self.per_owner:
                raise LabBusy(f"this browser already has {self.per_owner} lab run waiting or running; "
                              "try again when it ends")
            job = Job(uuid.uuid4().hex[:16], owner, request, total=games)
            self.jobs[job.id] = job
            self._forget_old()
        self.pool.submit(self._run, job, served, players, games, seed, only, options, stamps)
        return job

    def get(self, owner: str, job_id: str) -> Job | None:
        job = self.jobs.get(job_id)
        return job if job is not None and job.owner == owner else None

    def _forget_old(self) -> None:
        finished = [j for j in self.jobs.values() if j.state in ("done", "failed")]
        for j in finished[:max(0, len(finished) - self.keep)]:
            del self.jobs[j.id]
            if j.folder:
                shutil.rmtree(j.folder, ignore_errors=True)

    def _run(self, job: Job, served: Any, players: int, games: int, seed: int, only: list[str], options: dict,
             stamps: Callable[[Any], tuple]) -> None:
        from ..lab.ambiguities import ambiguity_lab
        from ..lab.report import ReportError, write_lab_report
        job.state, job.started = "running", time.monotonic()

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total
        try:
            now = stamps(served.spec.doc.sources)
            if now != served.stamps or not all(regular for *_, regular in now):
                changed = [p for (p, *a), (_, *b) in zip(now, served.stamps) if a != b] or [served.path]
                raise LabStale(f"{', '.join(changed)} changed since the server started: the lab would measure "
                               "another game than the table plays; restart `rulewright serve` to serve the new one")
            # unchanged files: the pipeline hands the lab the spec it loaded at start, not a new reading
            rep = ambiguity_lab(served.path, players, games, seed, options=options, only=only or None,
                                progress=progress)
            job.report = rep.as_dict()
            folder = os.path.join(self.root, job.id)
            try:
                write_lab_report(rep, folder)
                job.folder = folder
                job.plots = sorted(n for n in os.listdir(folder) if n.endswith(".png"))
            except ReportError as exc:
                job.note = f"no plots: {exc}"
            job.state = "done"
        except LabStale as exc:
            job.error, job.state = str(exc), "failed"
        except Exception as exc:  # a failed run is shown on the page, never a traceback
            job.error, job.state = f"the lab run failed: {type(exc).__name__}: {exc}", "failed"
        finally:
            job.seconds = time.monotonic() - job.started

    def plot(self, owner: str, job_id: str, name: str) -> str | None:
        """The file of one of a finished job's plots, only by a name the job itself listed."""
        job = self.get(owner, job_id)
        if job is None or job.folder is None or name not in job.plots:
            return None
        return os.path.join(job.folder, name)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        shutil.rmtree(self.root, ignore_errors=True)
