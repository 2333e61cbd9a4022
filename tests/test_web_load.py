"""A bounded load test of the table on loopback: many browser sessions at once, each playing bot games.

A real uvicorn server on 127.0.0.1 and real HTTP clients (one cookie jar each, in threads). Round after
round, every session starts a few bot games and reads them back; nothing may fail, every game must be
found in its own session (and only there), and the server's memory must stay flat once the session cap
is reached (older sessions are dropped, least recently used first): the memory blocks the interpreter
holds (`sys.getallocatedblocks`) are the same after every round from the second on. A few seconds.
"""
from __future__ import annotations

import gc
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from interpreter.web.app import Limits, create_app  # noqa: E402
from web_helpers import running  # noqa: E402

SESSIONS = 16
GAMES = 3
ROUNDS = 4


def _session(url: str, k: int) -> tuple[list[str], list[str]]:
    """One browser: start GAMES bot games, read each back; (problems, game ids)."""
    problems, ids = [], []
    with httpx.Client(base_url=url, timeout=30) as c:
        c.get("/api/specs").raise_for_status()
        for j in range(GAMES):
            spec, players = (("secrets", 3), ("secrets", 2), ("stun", 2) if k % 4 == 0 else ("secrets", 2))[j]
            r = c.post("/api/games", json={"spec": spec, "players": players, "seed": k * 10 + j,
                                           "seats": ["random"] * (players - 1) + ["greedy:1"]})
            if r.status_code != 201:
                problems.append(f"start: {r.status_code} {r.text[:200]}")
                continue
            g = r.json()
            if g["status"] != "finished":
                problems.append(f"game {g['id']} is {g['status']}")
            ids.append(g["id"])
        listed = [x["id"] for x in c.get("/api/games").json()["games"]]
        if listed != ids:
            problems.append(f"lost games: listed {listed}, started {ids}")
        for gid in ids:
            r = c.get(f"/api/games/{gid}")
            if r.status_code != 200 or r.json()["result"] is None:
                problems.append(f"read {gid}: {r.status_code}")
    return problems, ids


def test_many_sessions_playing_bot_games_at_once():
    app = create_app(["games/stun.yaml", "tests/specs/secrets.yaml"], limits=Limits(sessions=SESSIONS))
    held = []  # memory blocks the interpreter holds after each round (sys.getallocatedblocks, after a collection)
    with running(app) as url, ThreadPoolExecutor(max_workers=8) as pool:
        for r in range(ROUNDS):
            results = list(pool.map(lambda k: _session(url, k), range(SESSIONS)))
            problems = [p for ps, _ in results for p in ps]
            assert not problems, problems[:5]
            all_ids = [g for _, ids in results for g in ids]
            assert len(set(all_ids)) == SESSIONS * GAMES  # no game id handed out twice
            sessions = app.state.table.sessions
            assert len(sessions) <= SESSIONS
            assert all(len(s.games) <= GAMES for s in sessions.values())
            gc.collect()
            held.append(sys.getallocatedblocks())
        # a stranger sees none of them
        with httpx.Client(base_url=url) as c:
            assert c.get(f"/api/games/{all_ids[0]}").status_code == 404
    # From the second round on, each round replaces the sessions of the one before (the cap drops the least
    # recently used): what the server holds afterwards is one cap's worth, the same every round.
    grown = (held[-1] - held[1]) / held[1]
    assert grown < 0.03, f"memory blocks held grew by {grown:.1%} from round 2 to {ROUNDS}: {held}"
