"""The table's web app: routes, browser sessions, limits and errors.

Owns the HTTP contract of the page (all JSON under /api, the page and its
static files under /): the specs it was started with (and no others: the
page names a spec by its id, never by a path), games per browser session
(a random session cookie; a session sees only its own games, logs and lab
runs), caps on sessions, games per session, choices per game, request
sizes and lab runs, and answers to bad requests as a 4xx with
{"error": message}, never a traceback. Game work runs in Starlette's thread
pool, one table at a time under its lock; lab runs in labjobs' own thread.
"""
from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..agents.registry import AGENTS
from ..runtime.engine import Game, SetupError, Status
from ..runtime.gamelog import spec_digest
from ..runtime.pipeline import compile_game, load_spec
from .labjobs import LabBusy, LabJobs
from .logs import LoggedGame, parse_log
from .narration import EVERYONE, SPECTATOR
from .tables import Table, TableError, parse_save, parse_settings, seat_json

COOKIE = "rulewright_table"


@dataclass(slots=True)
class Limits:
    sessions: int = 200           # browser sessions kept (the least recently used goes first)
    games_per_session: int = 8    # tables kept per session (the oldest goes first)
    logs_per_session: int = 4
    choices: int = 5000           # choices per game
    log_choices: int = 20_000     # choices of a logged game stepped through
    body: int = 4 * 1024 * 1024   # bytes per request (a log file is uploaded whole)
    lab_jobs: int = 3             # lab runs waiting or running, over all sessions
    lab_games: int = 2000         # games per interpretation in one lab run
    compiled: int = 32            # compiled games kept (one per spec, options and readings)


@dataclass(slots=True)
class Served:
    """A spec the server was started with."""
    id: str
    path: str
    spec: Any
    digest: str

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


class Bad(HTTPException):
    pass


def served_specs(paths: list[str]) -> dict[str, Served]:
    """Check every spec; ids are the file names without .yaml (made unique). Raises SpecError."""
    import os
    out: dict[str, Served] = {}
    for p in paths:
        spec, _ = load_spec(p)
        base = os.path.splitext(os.path.basename(p))[0] or "spec"
        sid, k = base, 2
        while sid in out:
            sid, k = f"{base}-{k}", k + 1
        out[sid] = Served(sid, p, spec, spec_digest(p))
    return out


class TableApp:
    """The state behind the routes (so a test can look at sessions and limits)."""

    def __init__(self, specs: dict[str, Served], limits: Limits | None = None, logs: list[tuple[str, str]] = ()):
        self.specs = specs
        self.limits = limits or Limits()
        self.sessions: "OrderedDict[str, Session]" = OrderedDict()
        self.lock = threading.Lock()
        self.compiled: "OrderedDict[tuple, Game]" = OrderedDict()
        self.lab = LabJobs(self.limits.lab_jobs, self.limits.lab_games)
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

    def session(self, request: Request) -> tuple[str, Session, bool]:
        sid = request.cookies.get(COOKIE, "")
        with self.lock:
            s = self.sessions.get(sid)
            new = s is None
            if new:
                sid, s = secrets.token_urlsafe(24), Session()
                self.sessions[sid] = s
                while len(self.sessions) > self.limits.sessions:
                    self.sessions.popitem(last=False)
            else:
                self.sessions.move_to_end(sid)
            s.seen = time.monotonic()
        return sid, s, new

    def add_game(self, s: Session, t: Table) -> str:
        gid = secrets.token_hex(8)
        with self.lock:
            s.games[gid] = t
            while len(s.games) > self.limits.games_per_session:
                s.games.popitem(last=False)
        return gid


class HostCheck:
    """Only the Host names the server was bound for (a page on another site that resolves its own name to
    127.0.0.1, DNS rebinding, gets a 400 instead of the table)."""

    def __init__(self, app, hosts: tuple[str, ...]):
        self.app, self.hosts = app, {h.lower() for h in hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            raw = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1").lower()
            host = raw[1:raw.index("]")] if raw.startswith("[") and "]" in raw else raw.rsplit(":", 1)[0] if \
                raw.count(":") == 1 else raw
            if host not in self.hosts:
                await _json_error(400, f"this table answers only to {', '.join(sorted(self.hosts))}")(scope, receive,
                                                                                                      send)
                return
        await self.app(scope, receive, send)


def _json_error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise Bad(413, f"the request is larger than {limit} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise Bad(413, f"the request is larger than {limit} bytes")
    return bytes(data)


async def _json(request: Request, limit: int) -> Any:
    raw = await _body(request, limit)
    try:
        return json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise Bad(400, f"the request body is not JSON ({exc})") from None


def create_app(paths_or_specs: list[str] | dict[str, Served], limits: Limits | None = None,
               hosts: tuple[str, ...] = ("127.0.0.1", "localhost", "::1"), logs: list[tuple[str, str]] = ()
               ) -> Starlette:
    """The app for these specs. `hosts`: the Host headers accepted (a guard against DNS rebinding)."""
    specs = paths_or_specs if isinstance(paths_or_specs, dict) else served_specs(list(paths_or_specs))
    state = TableApp(specs, limits, list(logs))
    lim = state.limits

    def respond(request: Request, payload: Any, status: int = 200) -> Response:
        resp = JSONResponse(payload, status_code=status)
        if request.state.new_session:
            resp.set_cookie(COOKIE, request.state.sid, httponly=True, samesite="strict", path="/")
        return resp

    def open_session(request: Request) -> Session:
        sid, s, new = state.session(request)
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
        if not raw.isdigit() or int(raw) < 1:
            raise Bad(400, "seat must be a seat number (1-based) or 'spectator'")
        return int(raw) - 1

    async def work(fn, *args):
        try:
            return await run_in_threadpool(fn, *args)
        except TableError as exc:
            raise Bad(400, str(exc)) from None
        except SetupError as exc:
            raise Bad(400, str(exc)) from None

    # -- routes --------------------------------------------------------------------
    async def index(request: Request) -> Response:
        return FileResponse(str(resources.files(__package__) / "static" / "index.html"))

    async def list_specs(request: Request) -> Response:
        s = open_session(request)
        return respond(request, {"specs": [x.describe() for x in specs.values()], "bots": list(AGENTS),
                                 "games": list(s.games), "limits": {"lab_games": lim.lab_games,
                                                                    "choices": lim.choices}})

    async def new_game(request: Request) -> Response:
        s = open_session(request)
        d = await _json(request, lim.body)

        def make() -> tuple[str, dict]:
            st = parse_settings(d, specs)
            t = Table(state.game(st.spec, st.options, st.readings), st, max_choices=lim.choices)
            with t.lock:
                return state.add_game(s, t), view(t)
        gid, v = await work(make)
        return respond(request, {"id": gid, **v}, 201)

    async def list_games(request: Request) -> Response:
        s = open_session(request)
        return respond(request, {"games": [{"id": gid, "game": t.g.spec.name, "status": str(t.st.status),
                                            "choices": len(t.st.choices), "settings": t.s.as_dict()}
                                           for gid, t in list(s.games.items())]})

    async def get_game(request: Request) -> Response:
        s = open_session(request)
        t = table_of(s, request)
        asked = seat_arg(request)

        def look() -> dict:
            with t.lock:
                return view(t, asked)
        return respond(request, {"id": request.path_params["gid"], **await work(look)})

    async def act(request: Request) -> Response:
        s = open_session(request)
        t = table_of(s, request)
        what = request.path_params["what"]
        if what not in ("choose", "undo", "redo"):
            raise Bad(404, "not found")
        d = await _json(request, lim.body) if what == "choose" else {}
        if not isinstance(d, dict):
            raise Bad(400, "the request body must be a JSON object")

        def do() -> dict:
            with t.lock:
                if what == "choose":
                    if "option" not in d:
                        raise TableError("choose needs {\"option\": N} (0-based)")
                    t.choose(d["option"], d.get("seat"))
                elif what == "undo":
                    t.undo()
                elif what == "redo":
                    t.redo_one()
                return view(t)
        return respond(request, {"id": request.path_params["gid"], **await work(do)})

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
        s = open_session(request)
        t = table_of(s, request)
        with t.lock:
            if t.s.persons and t.st.status is Status.RUNNING:
                raise Bad(403, "a game with people can be stepped through once it is over")
            logged = LoggedGame(f"game {request.path_params['gid']}", t.s.spec, t.g, t.s, t.st.choices[:], None)
        lid = keep_log(s, logged)
        return respond(request, {"id": lid, **logged.summary()}, 201)

    async def save_game(request: Request) -> Response:
        s = open_session(request)
        t = table_of(s, request)
        with t.lock:
            data = t.save()
        resp = respond(request, data)
        resp.headers["content-disposition"] = f'attachment; filename="{t.s.spec}-seed{t.s.seed}.table.json"'
        return resp

    async def load_game(request: Request) -> Response:
        s = open_session(request)
        d = await _json(request, lim.body)

        def make() -> tuple[str, dict]:
            st, choices = parse_save(d, specs, lim.choices)
            t = Table(state.game(st.spec, st.options, st.readings), st, choices, max_choices=lim.choices)
            with t.lock:
                return state.add_game(s, t), view(t)
        gid, v = await work(make)
        return respond(request, {"id": gid, **v}, 201)

    async def upload_log(request: Request) -> Response:
        s = open_session(request)
        raw = await _body(request, lim.body)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Bad(400, "the log is not UTF-8 text") from None
        name = (request.query_params.get("name") or "uploaded log")[:120]
        logged = await work(parse_log, name, text, specs, state.game, lim.log_choices)
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
        if lid.startswith("given-") and lid[6:].isdigit() and int(lid[6:]) < len(state.preloaded):
            logged = state.preloaded[int(lid[6:])]
        else:
            logged = s.logs.get(lid)
        if logged is None:
            raise Bad(404, "no such log in this browser session")
        step = request.query_params.get("step", "")
        k = int(step) if step.isdigit() else len(logged.choices) if step == "" else -1
        raw = request.query_params.get("seat", "everyone")
        seat = EVERYONE if raw == "everyone" else SPECTATOR if raw == "spectator" else \
            int(raw) - 1 if raw.isdigit() and int(raw) >= 1 else -99
        return respond(request, {"id": lid, **await work(logged.at, k, seat)})

    async def start_lab(request: Request) -> Response:
        s = open_session(request)
        d = await _json(request, lim.body)
        if not isinstance(d, dict):
            raise Bad(400, "the request body must be a JSON object")
        sid = d.get("spec")
        if not isinstance(sid, str) or sid not in specs:
            raise Bad(400, f"unknown spec {sid!r}: this server serves {', '.join(specs)}")
        spec = specs[sid].spec
        players, games, seed = d.get("players", max(spec.min_players, 2)), d.get("games", 100), d.get("seed", 0)
        if type(players) is not int or not spec.min_players <= players <= spec.max_players:
            raise Bad(400, f"{spec.name} is for {spec.min_players} to {spec.max_players} players")
        if type(games) is not int or not 10 <= games <= lim.lab_games:
            raise Bad(400, f"games must be 10 to {lim.lab_games} per interpretation")
        if type(seed) is not int or seed < 0:
            raise Bad(400, "the seed must be a whole number, 0 or more")
        only = d.get("ambiguities") or []
        if not isinstance(only, list) or not all(isinstance(a, str) and a in spec.ambiguities for a in only):
            raise Bad(400, f"ambiguities must name some of: {', '.join(spec.ambiguities) or '(none declared)'}")
        if not spec.ambiguities:
            raise Bad(400, f"{spec.name} declares no ambiguities")
        options = d.get("options") or {}
        if not isinstance(options, dict):
            raise Bad(400, "options must map names to values")
        await work(state.game, sid, options, {})  # a bad option is a 400 now, not a failed run later
        request_echo = {"spec": sid, "players": players, "games": games, "seed": seed, "ambiguities": only,
                        "options": options}
        try:
            job = state.lab.submit(request.state.sid, specs[sid].path, request_echo, players, games, seed, only,
                                   options)
        except LabBusy as exc:
            raise Bad(429, str(exc)) from None
        return respond(request, job.as_dict(), 202)

    async def lab_status(request: Request) -> Response:
        open_session(request)
        job = state.lab.get(request.state.sid, request.path_params["jid"])
        if job is None:
            raise Bad(404, "no such lab run in this browser session")
        return respond(request, job.as_dict())

    async def lab_plot(request: Request) -> Response:
        open_session(request)
        path = state.lab.plot(request.state.sid, request.path_params["jid"], request.path_params["name"])
        if path is None:
            raise Bad(404, "no such plot")
        return FileResponse(path, media_type="image/png")

    async def http_error(request: Request, exc: HTTPException) -> Response:
        return _json_error(exc.status_code, exc.detail if isinstance(exc, Bad) else
                           {404: "not found", 405: "method not allowed"}.get(exc.status_code, str(exc.detail)))

    async def server_error(request: Request, exc: Exception) -> Response:
        return _json_error(500, f"internal error: {type(exc).__name__} (please report)")

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
        Route("/api/games/{gid}/save", save_game, methods=["GET"]),
        Route("/api/games/{gid}/replay", replay_game, methods=["POST"]),
        Route("/api/games/{gid}/{what:str}", act, methods=["POST"]),
        Route("/api/logs", list_logs, methods=["GET"]),
        Route("/api/logs", upload_log, methods=["POST"]),
        Route("/api/logs/{lid}", log_step, methods=["GET"]),
        Route("/api/lab", start_lab, methods=["POST"]),
        Route("/api/lab/{jid}", lab_status, methods=["GET"]),
        Route("/api/lab/{jid}/plots/{name}", lab_plot, methods=["GET"]),
        Mount("/static", StaticFiles(packages=[(__package__, "static")]), name="static"),
    ]
    middleware = [Middleware(HostCheck, hosts=tuple(hosts))] if hosts else []
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={HTTPException: http_error, Exception: server_error}, lifespan=lifespan)
    app.state.table = state
    return app
