"""Lab jobs started from the page (the ambiguity lab, the variant search), run off the event loop.

Owns: a bounded queue of jobs (`LabJobs`): one worker thread runs them one
at a time (the lab's runner keeps a per-process game cache, and the plots
use matplotlib's pyplot, neither made for threads running side by side), at
most `max_jobs` waiting or running over all browsers and `per_owner` for one
browser, whatever their kind. A job reports progress (done of total, in its
own unit), then its report: the lab's `as_dict()` as it is (the page renders
verdicts and fields generically, whatever strings and fields the lab gives),
the files it wrote into its own temporary folder (plots, a report page) and
the texts it offers for download, each served only by a name the job itself
listed. A job may be stopped: a queued one at once, a running one when it
next reports progress or starts a batch (a search between its batches; the
page offers no Stop for a lab run, whose fixed games are one batch). Old finished jobs are forgotten
(and their folders removed) past `keep`.

What a job does is its task's (`Task`): `ambiguity_task` here (the lab's
`ambiguities`), the tune page's in tunejobs.py.

A job measures the spec the table serves, the copy read when the server
started: if any of its files (the spec, its bases) has changed since, or is
no longer a regular file (a FIFO put in its place would block the worker),
the job fails at once and says to restart the server; the lab is never
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

ACTIVE = ("queued", "running")


class LabBusy(RuntimeError):
    """Too many lab jobs already waiting or running."""


class LabStale(RuntimeError):
    """The served spec's files changed since the server read them."""


class Cancelled(Exception):
    """The job was asked to stop."""


@dataclass(slots=True)
class Job:
    id: str
    owner: str  # the browser session that started it
    kind: str   # "lab" or "tune": the route family that shows it
    request: dict
    unit: str = ""  # what `done` and `total` count
    state: str = "queued"  # queued, running, done, failed, cancelled
    done: int = 0
    total: int = 0
    report: dict | None = None
    plots: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # every file in its folder (the plots among them)
    downloads: dict[str, str] = field(default_factory=dict)  # name -> text (a variant spec)
    note: str | None = None
    error: str | None = None
    folder: str | None = None
    started: float = 0.0
    seconds: float = 0.0
    stop: threading.Event = field(default_factory=threading.Event)

    def progress(self, done: int, total: int) -> None:
        """Progress, from the task; where the job has been asked to stop, raises Cancelled."""
        self.done, self.total = done, total
        if self.stop.is_set():
            raise Cancelled()

    def stopping(self) -> bool:
        return self.stop.is_set()

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "state": self.state, "done": self.done, "total": self.total,
                "unit": self.unit, "request": self.request, "report": self.report, "plots": self.plots,
                "files": self.files, "downloads": sorted(self.downloads), "note": self.note, "error": self.error,
                "stopping": self.stop.is_set() and self.state in ACTIVE,
                "seconds": round(self.seconds or (time.monotonic() - self.started if self.started else 0), 1)}


# Runs one job: sets job.report (and job.note), writes its files in `folder` (a path that does not exist yet),
# fills job.downloads, reports progress through job.progress; any exception fails the job with its message.
Task = Callable[[Job, str], None]


class LabJobs:
    def __init__(self, max_jobs: int = 3, per_owner: int = 1, keep: int = 20, *, stamps: Callable[[Any], tuple]):
        self.max_jobs, self.per_owner, self.keep = max_jobs, per_owner, keep
        self.stamps = stamps  # stamps(paths): the files as they are now (app._stamps), to compare with Served.stamps
        self.jobs: "OrderedDict[str, Job]" = OrderedDict()
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rulewright-lab")
        self.root = tempfile.mkdtemp(prefix="rulewright-lab-")

    def active(self, owner: str | None = None) -> int:
        return sum(j.state in ACTIVE and owner in (None, j.owner) for j in self.jobs.values())

    def submit(self, owner: str, served: Any, kind: str, request: dict, total: int, unit: str, task: Task) -> Job:
        """Queue `task` on `served` (app.Served), checked first against the files it was read from."""
        with self.lock:
            if self.active() >= self.max_jobs:
                raise LabBusy(f"{self.max_jobs} lab runs or searches are already waiting or running; try again "
                              "when one ends")
            if self.active(owner) >= self.per_owner:
                raise LabBusy(f"this browser already has {self.per_owner} lab run or search waiting or running; "
                              "try again when it ends (or stop it)")
            job = Job(uuid.uuid4().hex[:16], owner, kind, request, unit, total=total)
            self.jobs[job.id] = job
            self._forget_old()
        self.pool.submit(self._run, job, served, task)
        return job

    def get(self, owner: str, job_id: str, kind: str | None = None) -> Job | None:
        job = self.jobs.get(job_id)
        return job if job is not None and job.owner == owner and kind in (None, job.kind) else None

    def cancel(self, owner: str, job_id: str, kind: str | None = None) -> Job | None:
        """Stop a job of this owner: a queued one never runs, a running one stops at its next batch."""
        job = self.get(owner, job_id, kind)
        if job is None:
            return None
        with self.lock:
            job.stop.set()
            if job.state == "queued":
                job.state = "cancelled"
        return job

    def _forget_old(self) -> None:
        finished = [j for j in self.jobs.values() if j.state not in ACTIVE]
        for j in finished[:max(0, len(finished) - self.keep)]:
            del self.jobs[j.id]
            if j.folder:
                shutil.rmtree(j.folder, ignore_errors=True)

    def _stale(self, served: Any) -> None:
        now = self.stamps(served.spec.doc.sources)
        if now != served.stamps or not all(regular for *_, regular in now):
            changed = [p for (p, *a), (_, *b) in zip(now, served.stamps) if a != b] or [served.path]
            raise LabStale(f"{', '.join(changed)} changed since the server started: the lab would measure "
                           "another game than the table plays; restart `rulewright serve` to serve the new one")

    def _run(self, job: Job, served: Any, task: Task) -> None:
        with self.lock:
            if job.state != "queued":  # cancelled while it waited
                return
            job.state, job.started = "running", time.monotonic()
        folder = os.path.join(self.root, job.id)
        try:
            self._stale(served)
            # unchanged files: the pipeline hands the lab the spec it loaded at start, not a new reading
            task(job, folder)
            job.state = "done"
        except Cancelled:
            job.state, job.report = "cancelled", None
        except LabStale as exc:
            job.error, job.state = str(exc), "failed"
        except Exception as exc:  # a failed run is shown on the page, never a traceback
            job.error, job.state = f"the lab run failed: {type(exc).__name__}: {exc}", "failed"
        finally:
            if os.path.isdir(folder):
                job.folder = folder
                job.files = sorted(os.listdir(folder))
                job.plots = [n for n in job.files if n.endswith(".png")]
            job.seconds = time.monotonic() - job.started

    def file(self, owner: str, job_id: str, name: str, kind: str | None = None) -> str | None:
        """The path of one of a finished job's files, only by a name the job itself listed."""
        job = self.get(owner, job_id, kind)
        if job is None or job.folder is None or name not in job.files:
            return None
        return os.path.join(job.folder, name)

    def close(self) -> None:
        for job in list(self.jobs.values()):  # the one running stops at its next batch
            job.stop.set()
        self.pool.shutdown(wait=False, cancel_futures=True)
        shutil.rmtree(self.root, ignore_errors=True)


def ambiguity_task(path: str, players: int, games: int, seed: int, only: list[str], options: dict) -> Task:
    """The lab's `ambiguities` on the served spec: its report, and its plots (lab/report.py) when matplotlib
    is there."""
    def run(job: Job, folder: str) -> None:
        from ..lab.ambiguities import ambiguity_lab
        from ..lab.report import ReportError, write_lab_report
        rep = ambiguity_lab(path, players, games, seed, options=options, only=only or None, progress=job.progress)
        job.report = rep.as_dict()
        try:
            write_lab_report(rep, folder)
        except ReportError as exc:
            job.note = f"no plots: {exc}"
    return run
