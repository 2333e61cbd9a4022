"""The table's web app: routes, browser sessions, limits and errors.

Owns the HTTP contract of the page (all JSON under /api, the page and its
static files under /): the specs it was started with (and no others: the
page names a spec by its id, never by a path), games per browser session
(a random session cookie, made only by a change, never by a look; a session
sees only its own games, logs and lab runs), caps on sessions, games (per
session and in all), the memory all games hold, choices per game, work at
once (per session and in all) and bot thinking per request, each past its
cap a 429; and answers to bad requests as a 4xx with {"error": message},
never a traceback. The guards in front of the routes (Host, Origin, strict
JSON) are guards.py's. Game work runs in worker threads, never on the event
loop, one table at a time under its lock, and is told to stop when its
client leaves; the game list, saves and replays read the table as last
shown, so they never wait for it. Saves of games in play are sealed with
the app's key (sealing.py). Lab runs and variant searches (the lab tab's
Tune page, read by tunejobs.py) go to labjobs' own thread, one queue for
both: a browser has one of them waiting or running at a time.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..agents.registry import AGENTS
from ..runtime.engine import Game, SetupError, Status
from ..runtime.gamelog import spec_digest
from ..runtime.pipeline import compile_game, load_spec
from .guards import Bad, HostCheck, Json, NoFraming, OriginCheck, json_error, read_json
from .labjobs import LabBusy, LabJobs, ambiguity_task
from .logs import LoggedGame, parse_log
from .narration import EVERYONE, SPECTATOR
from .sealing import SealError, Sealer
from .tables import MAX_SEED, Stale, Table, TableError, parse_save, parse_settings, seat_json
from .tunejobs import describe_caps, read_tune, tune_task

COOKIE = "rulewright_table"
EVENT_BYTES = 512    # memory per logged event or narrated line, about (measured: 0.5 kB)
_SEAT = re.compile(r"[0-9]{1,4}")
_STEP = re.compile(r"[0-9]{1,9}")


@dataclass(slots=True)
class Limits:
    sessions: int = 200           # browser sessions kept (the least recently used goes first)
    games_per_session: int = 8    # tables kept per session (the oldest goes first)
    games: int = 64               # tables kept over all sessions (then a new game is refused with a 429)
    memory_mb: int = 512          # what all tables may hold, about; past it new games and moves get a 429
    logs_per_session: int = 4
    choices: int = 3000           # choices per game (a game of 3,000 choices holds about 25 MB)
    log_choices: int = 20_000     # choices of a logged game stepped through
    body: int = 4 * 1024 * 1024   # bytes per request (a log file is uploaded whole)
    lab_jobs: int = 3             # lab runs waiting or running, over all sessions
    lab_jobs_per_session: int = 1
    lab_games: int = 2000         # games per interpretation in one lab run
    tune_variants: int = 64       # variants one search plays per policy (a larger space: Optuna tries this many)
    tune_games: int = 1600        # games per variant in a search at most
    compiled: int = 32            # compiled games kept (one per spec, options and readings)
    workers: int = 4              # requests doing game work at once, over all sessions
    session_workers: int = 2      # ... for one browser session (more get a 429 at once)
    wait_seconds: float = 5.0     # how long a request waits for a free worker before its 429
    think_seconds: float = 5.0    # bot thinking per request; then the table answers and the page asks for more


@dataclass(slots=True)
class Served:
    """A spec the server was started with (the lab measures this copy too: see `stamps`)."""
    id: str
    path: str
    spec: Any
    digest: str
    stamps: tuple = ()  # the files it was read from as they were then (path, mtime, size)

    def describe(self) -> dict:
        s = self.spec
        return {"id": self.id, "name": s.name, "path": self.path, "min_players": s.min_players,
                "max_players": s.max_players,
                "options": [{"name": o.name, "label": o.label, "values": o.values, "default": o.default,
                             "rule": o.rule} for o in s.options.values()],
                "ambiguities": [{"name": a.name, "quote": a.quote, "default": a.default,
                                 "interpretations": a.interpretations} for a in s.ambiguities.values()]}


@dataclass
class Session:
    games: "OrderedDict[str, Table]" = field(default_factory=OrderedDict)
    logs: "OrderedDict[str, LoggedGame]" = field(default_factory=OrderedDict)
    seen: float = 0.0
    busy: int = 0  # requests of this session doing game work now


NO_SESSION = Session()  # what a request without a (known) session cookie sees: nothing; never stored


def _stamps(paths) -> tuple:
    out = []
    for p in sorted(paths):
        try:
            st = os.stat(p)
            out.append((p, st.st_mtime_ns, st.st_size, stat.S_ISREG(st.st_mode)))
        except OSError:
            out.append((p, None, None, False))
    return tuple(out)


def served_specs(paths: list[str]) -> dict[str, Served]:
    """Check every spec; ids are the file names without .yaml (made unique). Raises SpecError."""
    out: dict[str, Served] = {}
    for p in paths:
        spec, _ = load_spec(p)
        base = os.path.splitext(os.path.basename(p))[0] or "spec"
        sid, k = base, 2
        while sid in out:
            sid, k = f"{base}-{k}", k + 1
        out[sid] = Served(sid, p, spec, spec_digest(p), _stamps(spec.doc.sources))
    return out


class TableApp:
    """The state behind the routes (so a test can look at sessions and limits)."""

    def __init__(self, specs: dict[str, Served], limits: Limits | None = None, logs: list[tuple[str, str]] = (),
                 key: bytes | None = None):
        self.specs = specs
        self.limits = limits or Limits()
        self.sessions: "OrderedDict[str, Session]" = OrderedDict()
        self.lock = threading.Lock()
        self.compiled: "OrderedDict[tuple, Game]" = OrderedDict()
        self.lab = LabJobs(self.limits.lab_jobs, self.limits.lab_jobs_per_session, stamps=_stamps)
        self.sealer = Sealer(key)
        self.workers = threading.BoundedSemaphore(self.limits.workers)
        self.preloaded = [parse_log(name, text, specs, self.game, self.limits.log_choices) for name, text in logs]

    # -- shared state --------------------------------------------------------------
    def game(self, spec_id: str, options: dict, readings: dict) -> Game:
        key = (spec_id, json.dumps(options, sort_keys=True), json.dumps(readings, sort_keys=True))
        with self.lock:
            g = self.compiled.get(key)
            if g is not None:
                self.compiled.move_to_end(key)
                return g
        g = compile_game(self.specs[spec_id].spec, options, readings)  # SetupError for a bad option or reading
        with self.lock:
            self.compiled[key] = g
            while len(self.compiled) > self.limits.compiled:
                self.compiled.popitem(last=False)
        return g

    def session(self, request: Request, create: bool) -> tuple[str, Session, bool]:
        """The request's session; a new one only for a state-changing request (`create`), which the origin
        guard has let through: a request from another site never makes (or pushes out) a session."""
        sid = request.cookies.get(COOKIE, "")
        with self.lock:
            s = self.sessions.get(sid)
            if s is None:
                if not create:
                    return "", NO_SESSION, False
                sid, s = secrets.token_urlsafe(24), Session()
                self.sessions[sid] = s
                while len(self.sessions) > self.limits.sessions:
                    self.sessions.popitem(last=False)
                new = True
            else:
                self.sessions.move_to_end(sid)
                new = False
            s.seen = time.monotonic()
        return sid, s, new

    def tables(self) -> list[Table]:
        with self.lock:
            return [t for s in self.sessions.values() for t in s.games.values()]

    def memory_mb(self) -> float:
        """What all tables hold, about (their events and narrated lines, half a kilobyte each)."""
        return sum(t.weight() for t in self.tables()) * EVENT_BYTES / 1e6

    def check_room(self, new_game: bool) -> None:
        lim = self.limits
        if new_game and len(self.tables()) >= lim.games:
            raise Bad(429, f"the table holds {lim.games} games for all browsers, its most: finish or close one "
                           "(DELETE /api/games/ID), or try again later")
        mb = self.memory_mb()
        if mb >= lim.memory_mb:
            raise Bad(429, f"the table's games hold about {mb:.0f} MB, its most ({lim.memory_mb} MB): close some "
                           "games, or try again later")

    def add_game(self, s: Session, t: Table) -> str:
        gid = secrets.token_hex(8)
        with self.lock:
            s.games[gid] = t
            while len(s.games) > self.limits.games_per_session:
                s.games.popitem(last=False)
        return gid


def create_app(paths_or_specs: list[str] | dict[str, Served], limits: Limits | None = None,
               hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "::1"), logs: list[tuple[str, str]] = (),
               key: bytes | None = None) -> Starlette:
    """The app for these specs. `hosts`: the Host headers accepted (a guard against DNS rebinding).
    `key`: the key that seals saves of games in play (Fernet; None: a new one, good while this app runs)."""
    specs = paths_or_specs if isinstance(paths_or_specs, dict) else served_specs(list(paths_or_specs))
    state = TableApp(specs, limits, list(logs), key)
    lim = state.limits

    def respond(request: Request, payload: Any, status: int = 200) -> Response:
        resp = Json(payload, status_code=status, headers={"cache-control": "no-store"})  # a seat's view, kept nowhere
        if getattr(request.state, "new_session", False):
            resp.set_cookie(COOKIE, request.state.sid, httponly=True, samesite="strict", path="/")
        return resp

    def open_session(request: Request, create: bool = False) -> Session:
        sid, s, new = state.session(request, create)
        request.state.sid, request.state.new_session = sid, new
        return s

    def table_of(s: Session, request: Request) -> Table:
        t = s.games.get(request.path_params["gid"])
        if t is None:
            raise Bad(404, "no such game in this browser session (it may have been closed to make room)")
        return t

    def view(t: Table, asked: Any = None) -> dict:
        try:
            v = t.viewer(asked)
        except TableError as exc:
            raise Bad(403, str(exc)) from None
        return seat_json(t, v)

    def seat_arg(request: Request) -> int | None:
        raw = request.query_params.get("seat")
        if raw is None or raw == "":
            return None
        if raw == "spectator":
            return SPECTATOR
        if not _SEAT.fullmatch(raw) or int(raw) < 1:
            raise Bad(400, "seat must be a seat number (1-based) or 'spectator'")
        return int(raw) - 1

    async def work(request: Request, s: Session, fn, *args):
        """Run `fn(*args, stop)` in a worker thread (never on the event loop), within the session's and the
        server's limits on work at once; `stop()` turns true when the client has gone or the request's
        thinking time is up, and the bots stop there."""
        with state.lock:
            if s.busy >= lim.session_workers:
                raise Bad(429, f"this browser already has {lim.session_workers} requests being worked on: wait "
                               "for them")
            s.busy += 1
        gone = threading.Event()
        deadline = time.monotonic() + lim.think_seconds

        def stop() -> bool:
            return gone.is_set() or time.monotonic() > deadline

        def run():
            if not state.workers.acquire(timeout=lim.wait_seconds):
                raise Bad(429, "the table's server is busy with other games: try again in a moment")
            try:
                return fn(*args, stop)
            finally:
                state.workers.release()

        async def watch() -> None:
            while not await request.is_disconnected():
                await anyio.sleep(0.1)
            gone.set()

        result, error = None, None
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(watch)
                try:
                    result = await run_in_threadpool(run)
                except Exception as exc:  # raised below, outside the task group (not wrapped in a group)
                    error = exc
                finally:
                    tg.cancel_scope.cancel()
        finally:
            with state.lock:
                s.busy -= 1
        if isinstance(error, (TableError, SetupError, SealError)):
            raise Bad(409 if isinstance(error, Stale) else 400, str(error)) from None
        if error is not None:
            raise error
        return result

    def locked(t: Table, fn):
        """`fn()` under the table's lock (in a worker thread), then the game list's summary refreshed."""
        with t.lock:
            try:
                return fn()
            finally:
                t.publish()

    # -- routes --------------------------------------------------------------------
    async def index(request: Request) -> Response:
        return FileResponse(str(resources.files(__package__) / "static" / "index.html"))

    async def list_specs(request: Request) -> Response:
        s = open_session(request)
        return respond(request, {"specs": [x.describe() for x in specs.values()], "bots": list(AGENTS),
                                 "games": list(s.games), "limits": {
                                     "lab_games": lim.lab_games, "choices": lim.choices,
                                     "tune": describe_caps(lim.tune_variants, lim.tune_games)}})

    async def open_table(request: Request, settle) -> Response:
        """A new table in the session from the request's JSON body: `settle(body)` -> (its settings, the
        choices to replay or None), read in a worker thread, where the table then plays up to a person's turn."""
        d = await read_json(request, lim.body)
        s = open_session(request, create=True)
        state.check_room(new_game=True)

        def make(stop) -> tuple[str, dict]:
            st, choices = settle(d)
            t = Table(state.game(st.spec, st.options, st.readings), st, choices, max_choices=lim.choices, stop=stop)
            with t.lock:
                return state.add_game(s, t), view(t)
        gid, v = await work(request, s, make)
        return respond(request, {"id": gid, **v}, 201)

    async def new_game(request: Request) -> Response:
        return await open_table(request, lambda d: (
            parse_settings(d, specs, fresh_seed=lambda: secrets.randbelow(MAX_SEED + 1)), None))

    async def list_games(request: Request) -> Response:
        s = open_session(request)
        return respond(request, {"games": [{"id": gid, **t.summary} for gid, t in list(s.games.items())]})

    async def get_game(request: Request) -> Response:
        s = open_session(request)
        t = table_of(s, request)
        asked = seat_arg(request)
        return respond(request, {"id": request.path_params["gid"],
                                 **await work(request, s, lambda stop: locked(t, lambda: view(t, asked)))})

    async def close_game(request: Request) -> Response:
        s = open_session(request)
        gid = request.path_params["gid"]
        with state.lock:
            if s.games.pop(gid, None) is None:
                raise Bad(404, "no such game in this browser session")
        return respond(request, {"closed": gid})

    async def act(request: Request) -> Response:
        what = request.path_params["what"]
        if what not in ("choose", "undo", "redo", "continue", "reveal"):
            raise Bad(404, "not found")
        d = await read_json(request, lim.body)
        if not isinstance(d, dict):
            raise Bad(400, "the request body must be a JSON object")
        s = open_session(request)
        t = table_of(s, request)
        if what == "choose" and ("option" not in d or d.get("decision") is None):
            raise Bad(400, "choose needs {\"option\": N (0-based), \"decision\": ID (the decision's id as shown)}")
        if what not in ("undo", "reveal"):  # undo only ever makes a game smaller
            state.check_room(new_game=False)

        def do(stop) -> dict:
            def inner() -> dict:
                if what == "choose":
                    t.choose(d["option"], d.get("seat"), d["decision"], stop)
                elif what == "undo":
                    t.check_version(d.get("version"))
                    t.undo()
                elif what == "redo":
                    t.check_version(d.get("version"))
                    t.redo_one(stop)
                elif what == "reveal":  # the seat the table shows now agrees (hot-seat: each in turn)
                    t.check_version(d.get("version"))
                    t.agree(t.viewer())
                else:
                    t.advance(stop)
                return view(t)
            return locked(t, inner)
        try:
            v = await work(request, s, do)
        except Bad as exc:
            if exc.status_code != 409:
                raise
            v = await work(request, s, lambda stop: locked(t, lambda: view(t)))
            return respond(request, {"id": request.path_params["gid"], "error": exc.detail,
                                     "table": {"id": request.path_params["gid"], **v}}, 409)
        return respond(request, {"id": request.path_params["gid"], **v})

    def keep_log(s, logged: LoggedGame) -> str:
        """Put a log on the session's slider (the oldest goes past the session's limit); its id."""
        lid = secrets.token_hex(8)
        with state.lock:
            s.logs[lid] = logged
            while len(s.logs) > lim.logs_per_session:
                s.logs.popitem(last=False)
        return lid

    async def replay_game(request: Request) -> Response:
        """A finished game, or a game of bots only, onto the log slider (a person's game in play would
        show the other seats' cards)."""
        await read_json(request, lim.body)
        s = open_session(request)
        t = table_of(s, request)
        data, secret = t.snapshot  # the table as last shown: no waiting for bots thinking at it
        if secret:
            raise Bad(403, "a game with people can be stepped through once it is over")
        logged = LoggedGame(f"game {request.path_params['gid']}", t.s.spec, t.g, t.s, data["choices"], None)
        lid = keep_log(s, logged)
        return respond(request, {"id": lid, **logged.summary()}, 201)

    async def save_game(request: Request) -> Response:
        s = open_session(request)
        t = table_of(s, request)
        data = t.save(state.sealer.seal)  # the table as last shown: no waiting for bots thinking at it
        resp = respond(request, data)
        seed = "" if "sealed" in data else f"-seed{data['seed']}"
        resp.headers["content-disposition"] = f'attachment; filename="{t.s.spec}{seed}.table.json"'
        return resp

    async def load_game(request: Request) -> Response:
        return await open_table(request, lambda d: parse_save(d, specs, lim.choices, state.sealer.unseal))

    async def upload_log(request: Request) -> Response:
        d = await read_json(request, lim.body)
        if not isinstance(d, dict) or not isinstance(d.get("text"), str):
            raise Bad(400, "send the log as {\"name\": the file's name, \"text\": its content}")
        s = open_session(request, create=True)
        name = d.get("name") if isinstance(d.get("name"), str) and d.get("name") else "uploaded log"
        logged = await work(request, s, lambda stop: parse_log(name[:120], d["text"], specs, state.game,
                                                               lim.log_choices))
        lid = keep_log(s, logged)
        return respond(request, {"id": lid, **logged.summary()}, 201)

    async def list_logs(request: Request) -> Response:
        s = open_session(request)
        own = [{"id": lid, **lg.summary()} for lid, lg in list(s.logs.items())]
        given = [{"id": f"given-{k}", **lg.summary()} for k, lg in enumerate(state.preloaded)]
        return respond(request, {"logs": given + own})

    async def log_step(request: Request) -> Response:
        s = open_session(request)
        lid = request.path_params["lid"]
        logged = None
        if lid.startswith("given-") and _STEP.fullmatch(lid[6:]) and int(lid[6:]) < len(state.preloaded):
            logged = state.preloaded[int(lid[6:])]
        else:
            logged = s.logs.get(lid)
        if logged is None:
            raise Bad(404, "no such log in this browser session")
        step = request.query_params.get("step", "")
        k = int(step) if _STEP.fullmatch(step) else len(logged.choices) if step == "" else -1
        raw = request.query_params.get("seat", "everyone")
        seat = EVERYONE if raw == "everyone" else SPECTATOR if raw == "spectator" else \
            int(raw) - 1 if _SEAT.fullmatch(raw) and int(raw) >= 1 else -99
        return respond(request, {"id": lid, **await work(request, s if s is not NO_SESSION else Session(),
                                                         lambda stop: logged.at(k, seat))})

    async def start_lab(request: Request) -> Response:
        d = await read_json(request, lim.body)
        if not isinstance(d, dict):
            raise Bad(400, "the request body must be a JSON object")
        s = open_session(request, create=True)
        sid = d.get("spec")
        if not isinstance(sid, str) or sid not in specs:
            raise Bad(400, f"unknown spec {sid!r}: this server serves {', '.join(specs)}")
        spec = specs[sid].spec
        players, games, seed = d.get("players", max(spec.min_players, 2)), d.get("games", 100), d.get("seed", 0)
        if type(players) is not int or not spec.min_players <= players <= spec.max_players:
            raise Bad(400, f"{spec.name} is for {spec.min_players} to {spec.max_players} players")
        if type(games) is not int or not 10 <= games <= lim.lab_games:
            raise Bad(400, f"games must be 10 to {lim.lab_games} per interpretation")
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise Bad(400, f"the seed must be a whole number from 0 to {MAX_SEED}")
        only = d.get("ambiguities") or []
        if not isinstance(only, list) or not all(isinstance(a, str) and a in spec.ambiguities for a in only):
            raise Bad(400, f"ambiguities must name some of: {', '.join(spec.ambiguities) or '(none declared)'}")
        if not spec.ambiguities:
            raise Bad(400, f"{spec.name} declares no ambiguities")
        options = d.get("options") or {}
        if not isinstance(options, dict) or not all(isinstance(v, (str, int, float, bool)) for v in options.values()):
            raise Bad(400, "options must map names to values")
        await work(request, s, lambda stop: state.game(sid, options, {}))  # a bad option is a 400 now
        request_echo = {"spec": sid, "players": players, "games": games, "seed": seed, "ambiguities": only,
                        "options": options}
        task = ambiguity_task(specs[sid].path, players, games, seed, only, options)
        return submit(request, sid, "lab", request_echo, games, "games per interpretation", task)

    async def start_tune(request: Request) -> Response:
        d = await read_json(request, lim.body)
        open_session(request, create=True)
        req = read_tune(d, specs, lim.tune_variants, lim.tune_games)  # every name, value, target and cap checked
        return submit(request, req.spec, "tune", req.echo(), req.expected, "variants", tune_task(specs[req.spec], req))

    def submit(request: Request, sid: str, kind: str, echo: dict, total: int, unit: str, task) -> Response:
        try:
            job = state.lab.submit(request.state.sid, specs[sid], kind, echo, total, unit, task)
        except LabBusy as exc:
            raise Bad(429, str(exc)) from None
        return respond(request, job.as_dict(), 202)

    _WHAT = {"lab": "lab run", "tune": "search"}

    def job_of(request: Request, kind: str):
        open_session(request)
        job = state.lab.get(request.state.sid, request.path_params["jid"], kind)
        if job is None:
            raise Bad(404, f"no such {_WHAT[kind]} in this browser session")
        return job

    def job_routes(kind: str) -> list[Route]:
        """A job's progress and report, its files (a lab run's: only its plots); a search's stopping (between
        batches: a lab run plays its games in one) and downloads."""
        async def status(request: Request) -> Response:
            return respond(request, job_of(request, kind).as_dict())

        async def cancel(request: Request) -> Response:
            await read_json(request, lim.body)
            job = job_of(request, kind)
            state.lab.cancel(request.state.sid, job.id, kind)
            return respond(request, job.as_dict())

        async def file(request: Request) -> Response:
            job, name = job_of(request, kind), request.path_params["name"]
            path = state.lab.file(request.state.sid, job.id, name, kind)
            if path is None or (kind == "lab" and name not in job.plots):
                raise Bad(404, "no such plot" if kind == "lab" else "no such file of this search")
            return FileResponse(path, media_type="image/png" if name.endswith(".png") else "text/html")

        async def download(request: Request) -> Response:
            job, name = job_of(request, kind), request.path_params["name"]
            text = job.downloads.get(name)
            if text is None:
                raise Bad(404, "no such download of this search")
            return Response(text, media_type="application/yaml", headers={
                "cache-control": "no-store", "content-disposition": f'attachment; filename="{name}"'})
        base = f"/api/{kind}/{{jid}}"
        if kind == "lab":
            return [Route(base, status, methods=["GET"]), Route(base + "/plots/{name}", file, methods=["GET"])]
        return [Route(base, status, methods=["GET"]), Route(base + "/cancel", cancel, methods=["POST"]),
                Route(base + "/report/{name}", file, methods=["GET"]),
                Route(base + "/downloads/{name}", download, methods=["GET"])]

    async def http_error(request: Request, exc: HTTPException) -> Response:
        if isinstance(exc, Bad):
            return json_error(exc.status_code, exc.detail, **exc.extra)
        return json_error(exc.status_code, {404: "not found", 405: "method not allowed"}.get(exc.status_code,
                                                                                             str(exc.detail)))

    async def server_error(request: Request, exc: Exception) -> Response:
        return json_error(500, f"internal error: {type(exc).__name__} (please report)")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        state.lab.close()

    routes = [
        Route("/", index),
        Route("/api/specs", list_specs),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/load", load_game, methods=["POST"]),
        Route("/api/games/{gid}", get_game, methods=["GET"]),
        Route("/api/games/{gid}", close_game, methods=["DELETE"]),
        Route("/api/games/{gid}/save", save_game, methods=["GET"]),
        Route("/api/games/{gid}/replay", replay_game, methods=["POST"]),
        Route("/api/games/{gid}/{what:str}", act, methods=["POST"]),
        Route("/api/logs", list_logs, methods=["GET"]),
        Route("/api/logs", upload_log, methods=["POST"]),
        Route("/api/logs/{lid}", log_step, methods=["GET"]),
        Route("/api/lab", start_lab, methods=["POST"]),
        *job_routes("lab"),
        Route("/api/tune", start_tune, methods=["POST"]),
        *job_routes("tune"),
        Mount("/static", StaticFiles(packages=[(__package__, "static")]), name="static"),
    ]
    middleware = [Middleware(NoFraming), *([Middleware(HostCheck, hosts=tuple(hosts))] if hosts else []),
                  Middleware(OriginCheck)]
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={HTTPException: http_error, Exception: server_error}, lifespan=lifespan)
    app.state.table = state
    return app
