"""No input can stop or read the table's server (issue 23, finding 6).

Crafted requests (numbers of thousands of digits, JSON nested 100,000 deep, lone surrogates, NaN,
non-ASCII digits in the query) get a 4xx with a JSON error, never a 500; changes come only as JSON
from the table's own origin, and requests without a session cookie make no session and push none out;
a repeated or double-clicked choice is applied once; game work runs off the event loop (a bot thinking
at one table does not hold up another session), stops when the client leaves or its thinking time is
up, and stays within per-session and global caps (429s); the lab and the variant search refuse a spec
changed since the start (a FIFO in its place does not block them). Real servers on loopback where a real connection matters.
"""
from __future__ import annotations

import os
import shutil
import threading
import time
import warnings

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")
warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.web.app import Limits, create_app  # noqa: E402
from web_helpers import running  # noqa: E402

SPECS = ["games/stun.yaml", "games/stunt-academy.yaml", "tests/specs/secrets.yaml"]
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def app():
    return create_app(SPECS, hosts=("testserver",))


def client(app, **kw) -> TestClient:
    return TestClient(app, raise_server_exceptions=False, **kw)


def start(c, **settings) -> dict:
    r = c.post("/api/games", json=settings)
    assert r.status_code == 201, r.text
    return r.json()


def table_of(app, c, gid):
    return app.state.table.sessions[c.cookies["rulewright_table"]].games[gid]


BIG = "9" * 5000
DEEP = "[" * 100_000 + "]" * 100_000
CRAFTED = [
    ("post", "/api/games", '{"spec": "stun", "seed": ' + BIG + "}"),
    ("post", "/api/games", '{"spec": "stun", "players": ' + BIG + "}"),
    ("post", "/api/games", DEEP),
    ("post", "/api/games", '{"spec": ' + "[" * 5000 + "]" * 5000 + "}"),
    ("post", "/api/games", '{"spec": "\\ud800"}'),
    ("post", "/api/games", '{"spec": "stun", "options": {"\\udfff": 1}}'),
    ("post", "/api/games", '{"spec": "stun", "options": {"win_chips": NaN}}'),
    ("post", "/api/games", '{"spec": "stun", "options": {"win_chips": 1e999}}'),
    ("post", "/api/games", '{"spec": "stun", "seats": ["person", "mcts:' + BIG + '"]}'),
    ("post", "/api/games/load", '{"rulewright_table": 1, "spec": "stun", "choices": [' + BIG + "]}"),
    ("post", "/api/games/load", '{"rulewright_table": 1, "sealed": "\\ud800"}'),
    ("post", "/api/games/load", '{"rulewright_table": 1, "sealed": ' + DEEP + "}"),
    ("post", "/api/logs", '{"name": "\\ud800", "text": "\\ud800"}'),
    ("post", "/api/logs", '{"name": "x", "text": "{\\"rulewright_log\\": 1, \\"seed\\": ' + BIG + '}\\n"}'),
    ("post", "/api/lab", '{"spec": "stun", "seed": ' + BIG + "}"),
    ("post", "/api/lab", '{"spec": "stun", "options": {"win_chips": [[[[1]]]]}}'),
    ("get", "/api/logs/given-" + BIG, None),
    ("get", "/api/logs/given-\u00b2", None),
    ("get", "/api/lab/%ED%A0%80", None),
    ("post", "/api/tune", '{"spec": "stun", "seed": ' + BIG + "}"),
    ("post", "/api/tune", '{"spec": "stun", "vary": [{"name": "win_chips", "values": [' + BIG + "]}]}"),
    ("post", "/api/tune", '{"spec": "stun", "vary": [{"name": "win_chips", "values": ' + DEEP + "}]}"),
    ("post", "/api/tune", '{"spec": "stun", "vary": [{"name": "\\ud800"}], "targets": ["turns 1..2"]}'),
    ("post", "/api/tune", '{"spec": "stun", "vary": [{"name": "win_chips"}], "targets": ["\\ud800"]}'),
    ("post", "/api/tune", '{"spec": "stun", "vary": [{"name": "win_chips"}], "targets": ["turns 1..' + BIG[:29] +
     '"], "max_games": 1e999}'),
    ("post", "/api/tune/%ED%A0%80/cancel", "{}"),
    ("get", "/api/tune/%ED%A0%80/downloads/x.yaml", None),
    ("get", "/api/tune/nope/report/..%2F..%2Fetc%2Fpasswd", None),
]


@pytest.mark.parametrize("method,path,body", CRAFTED, ids=[f"{m}-{p[:24]}-{k}" for k, (m, p, _) in enumerate(CRAFTED)])
def test_a_crafted_request_is_a_4xx_with_a_json_error(app, method, path, body):
    c = client(app)
    r = c.request(method.upper(), path, content=None if body is None else body.encode("utf-8", "surrogatepass"),
                  headers=JSON)
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    assert isinstance(r.json()["error"], str)


@pytest.mark.parametrize("query", ["seat=\u00b2", "seat=" + BIG, "seat=%ED%A0%80", "seat=\u0663", "seat=1e3"])
def test_a_crafted_seat_or_step_is_a_400(app, query):
    c = client(app)
    g = start(c, spec="secrets", players=2, seed=1, seats=["random", "random"])
    r = c.get(f"/api/games/{g['id']}?{query}")
    assert r.status_code == 400 and "seat must be" in r.json()["error"]
    lid = c.post(f"/api/games/{g['id']}/replay", json={}).json()["id"]
    for q in (query, query.replace("seat=", "step=")):
        r = c.get(f"/api/logs/{lid}?{q}")
        assert r.status_code == 400 and r.json()["error"]


def test_a_choice_with_a_huge_number_or_a_surrogate_changes_nothing(app):
    c = client(app)
    g = start(c, spec="stun", players=2, seed=1, seats=["person", "random"])
    for body in ('{"option": ' + BIG + ', "decision": 1}', '{"option": "\\ud800", "decision": 1}',
                 '{"option": 0, "decision": ' + BIG + "}"):
        r = c.post(f"/api/games/{g['id']}/choose", content=body.encode(), headers=JSON)
        assert r.status_code == 400 and r.json()["error"]
    assert c.get(f"/api/games/{g['id']}").json()["choices"] == g["choices"]


# -- origin, content type, sessions ---------------------------------------------------------------------
def test_changes_come_only_as_json_from_the_tables_own_origin(app):
    c = client(app)
    g = start(c, spec="stun", players=2, seed=1, seats=["person", "random"])
    body = {"option": 0, "decision": g["decision"]["id"]}
    # a page on another site: a "simple" text/plain POST, and one that names its origin
    r = c.post(f"/api/games/{g['id']}/choose", content=b'{"option": 0}', headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "JSON" in r.json()["error"]
    for headers in ({"origin": "http://evil.example"}, {"origin": "null"}, {"sec-fetch-site": "cross-site"},
                    {"origin": "http://testserver.evil.example"}):
        r = c.post(f"/api/games/{g['id']}/choose", json=body, headers=headers)
        assert r.status_code == 403 and "own page" in r.json()["error"], headers
        assert c.delete(f"/api/games/{g['id']}", headers=headers).status_code == 403
    assert c.get(f"/api/games/{g['id']}").json()["choices"] == g["choices"]  # nothing was done
    r = c.post(f"/api/games/{g['id']}/choose", json=body,
               headers={"origin": "http://testserver", "sec-fetch-site": "same-origin"})
    assert r.status_code == 200  # the table's own page


def test_no_answer_may_be_framed_by_another_site(app):
    c = client(app)
    for r in (c.get("/"), c.get("/api/specs"), c.get("/static/app.js"), c.post("/api/games", content=b"x")):
        assert r.headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in \
            r.headers["content-security-policy"]


def test_requests_without_a_cookie_make_no_session_and_push_none_out():
    app = create_app(SPECS, limits=Limits(sessions=3), hosts=("testserver",))
    c = client(app)
    g = start(c, spec="stun", players=2, seed=1, seats=["person", "random"])
    for _ in range(200):
        for path in ("/api/specs", "/api/games", "/api/logs", f"/api/games/{g['id']}"):
            TestClient(app, raise_server_exceptions=False).get(path)
    assert len(app.state.table.sessions) == 1
    assert c.get(f"/api/games/{g['id']}").status_code == 200  # the real session and its game are still there
    r = client(app).post("/api/games", json={"spec": "stun"}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and len(app.state.table.sessions) == 1


# -- one answer per decision ------------------------------------------------------------------------------
def test_a_repeated_choice_is_applied_once_and_a_stale_one_is_a_409(app):
    c = client(app)
    g = start(c, spec="stun", players=2, seed=3, seats=["person", "random"])
    body = {"option": 0, "decision": g["decision"]["id"]}
    first = c.post(f"/api/games/{g['id']}/choose", json=body)
    again = c.post(f"/api/games/{g['id']}/choose", json=body)  # a retry: the same answer to the same decision
    assert first.status_code == again.status_code == 200
    assert again.json()["choices"] == first.json()["choices"]
    other = c.post(f"/api/games/{g['id']}/choose", json={**body, "option": 1})  # another answer, too late
    assert other.status_code == 409 and "no longer open" in other.json()["error"]
    assert other.json()["table"]["choices"] == first.json()["choices"]


def test_a_double_click_sent_at_once_is_applied_once():
    app = create_app(SPECS, hosts=("127.0.0.1",))
    with running(app) as url:
        with httpx.Client(base_url=url) as c:
            g = c.post("/api/games", json={"spec": "stun", "players": 2, "seed": 5, "seats": ["person", "random"]})
            g = g.json()
            body = {"option": 0, "decision": g["decision"]["id"]}
            results = []
            go = threading.Barrier(2)

            def click():
                go.wait()
                results.append(c.post(f"/api/games/{g['id']}/choose", json=body))
            threads = [threading.Thread(target=click) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert sorted(r.status_code for r in results) == [200, 200]
            t = app.state.table.sessions[c.cookies["rulewright_table"]].games[g["id"]]
            persons = [k for k, who in enumerate(t.choosers) if who == 0]
            assert len(persons) == 1, "the person's choice was applied twice"


# -- work off the event loop, stopped when nobody waits, within limits --------------------------------------
def test_a_busy_table_holds_up_no_other_session():
    """The review: save and replay held a table's lock on the event loop while a bot thought (7.3 s for
    another session's request). Now a table busy for 2 s delays nobody else."""
    app = create_app(SPECS, hosts=("127.0.0.1",))
    with running(app) as url, httpx.Client(base_url=url, timeout=30) as a, \
            httpx.Client(base_url=url, timeout=30) as b:
        g = a.post("/api/games", json={"spec": "stun", "players": 2, "seed": 1, "seats": ["person", "random"]}).json()
        t = app.state.table.sessions[a.cookies["rulewright_table"]].games[g["id"]]
        gb = b.post("/api/games", json={"spec": "stun", "players": 2, "seed": 2,
                                        "seats": ["person", "random"]}).json()["id"]
        t.lock.acquire()  # a bot thinking at this table, as far as anyone can tell
        waiting = []
        for path in ("save", "replay"):
            th = threading.Thread(target=lambda p=path: waiting.append(
                a.get(f"/api/games/{g['id']}/save") if p == "save" else
                a.post(f"/api/games/{g['id']}/replay", json={})))
            th.start()
        time.sleep(0.3)
        answered_while_busy = len(waiting)  # save and replay read the table as last shown: no waiting
        slowest = 0.0
        for _ in range(5):
            t0 = time.perf_counter()
            assert b.get("/api/specs").status_code == 200 and b.get("/api/games").status_code == 200
            assert b.get(f"/api/games/{gb}").status_code == 200  # game work of its own, in a worker
            slowest = max(slowest, time.perf_counter() - t0)
        t.lock.release()
        deadline = time.monotonic() + 10
        while len(waiting) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert slowest < 0.5, f"another session waited {slowest:.2f} s"
    assert answered_while_busy == 2 and sorted(r.status_code for r in waiting) == [200, 403]


def test_bots_stop_thinking_when_the_client_leaves():
    app = create_app(SPECS, limits=Limits(think_seconds=60), hosts=("127.0.0.1",))
    with running(app) as url:
        c = httpx.Client(base_url=url, timeout=1.0)
        with pytest.raises(httpx.TimeoutException):
            c.post("/api/games", json={"spec": "stunt-academy", "players": 3, "seed": 1,
                                       "seats": ["mcts:200"] * 3})
        c.close()
        (s,) = app.state.table.sessions.values()
        deadline = time.monotonic() + 10
        while not s.games and time.monotonic() < deadline:
            time.sleep(0.05)
        assert s.games, "the request did not end within 10 s of its client leaving: the bots went on"
        (t,) = s.games.values()  # kept when its request ends: stopped where the bots were
        time.sleep(0.6)
        with t.lock:
            before = len(t.st.choices)
        time.sleep(1.0)
        with t.lock:
            after = len(t.st.choices)
        assert after == before and t.bots_to_move, "the bots went on thinking for nobody"


def test_the_thinking_time_per_request_is_bounded_and_the_game_goes_on_the_same():
    full = client(create_app(SPECS, hosts=("testserver",)))
    whole = start(full, spec="stunt-academy", players=3, seed=4, seats=["greedy:4"] * 3)
    app = create_app(SPECS, limits=Limits(think_seconds=0.05), hosts=("testserver",))
    c = client(app)
    g = start(c, spec="stunt-academy", players=3, seed=4, seats=["greedy:4"] * 3)
    assert g["status"] == "running" and g["bots_to_move"]
    rounds = 0
    while g["bots_to_move"]:
        g = c.post(f"/api/games/{g['id']}/continue", json={}).json()
        rounds += 1
    assert rounds > 1 and g["result"] == whole["result"] and g["choices"] == whole["choices"]


def test_games_memory_and_work_are_capped_with_429s():
    app = create_app(SPECS, limits=Limits(games=2), hosts=("testserver",))
    a, b = client(app), client(app)
    start(a, spec="stun", players=2, seed=1, seats=["person", "random"])
    start(b, spec="stun", players=2, seed=1, seats=["person", "random"])
    r = a.post("/api/games", json={"spec": "stun", "players": 2})
    assert r.status_code == 429 and "2 games for all browsers" in r.json()["error"]
    gid = a.get("/api/games").json()["games"][0]["id"]
    assert a.delete(f"/api/games/{gid}").status_code == 200  # closing one makes room
    assert a.post("/api/games", json={"spec": "stun", "players": 2}).status_code == 201
    small = create_app(SPECS, limits=Limits(memory_mb=0), hosts=("testserver",))
    r = client(small).post("/api/games", json={"spec": "stun", "players": 2})
    assert r.status_code == 429 and "MB" in r.json()["error"]


def test_one_session_cannot_take_every_worker():
    app = create_app(SPECS, limits=Limits(session_workers=1, workers=1, wait_seconds=0.3), hosts=("127.0.0.1",))
    with running(app) as url, httpx.Client(base_url=url, timeout=30) as a, \
            httpx.Client(base_url=url, timeout=30) as b:
        g = a.post("/api/games", json={"spec": "stun", "players": 2, "seed": 1, "seats": ["person", "random"]}).json()
        b.post("/api/games", json={"spec": "stun", "players": 2, "seed": 1, "seats": ["person", "random"]})
        t = app.state.table.sessions[a.cookies["rulewright_table"]].games[g["id"]]
        t.lock.acquire()
        held = []
        th = threading.Thread(target=lambda: held.append(a.get(f"/api/games/{g['id']}")))
        th.start()
        time.sleep(0.3)
        mine = a.get(f"/api/games/{g['id']}")  # the same session again: its one worker is busy
        theirs = b.get("/api/games/x")  # no game work: answered at once
        other = b.post("/api/games", json={"spec": "stun", "players": 2})  # game work: no worker free in time
        t.lock.release()
        th.join(10)
    assert mine.status_code == 429 and "this browser already has" in mine.json()["error"]
    assert theirs.status_code == 404
    assert other.status_code == 429 and "busy" in other.json()["error"]
    assert held[0].status_code == 200


# -- the lab measures the game the table plays ------------------------------------------------------------
def test_the_lab_and_a_search_refuse_a_spec_changed_since_the_start_and_a_fifo_does_not_block_them(tmp_path):
    spec = tmp_path / "stun.yaml"
    shutil.copy("games/stun.yaml", spec)
    text = spec.read_text().replace("source: ../rulebooks/", "source: " + os.path.abspath("rulebooks") + "/")
    spec.write_text(text)
    app = create_app([str(spec)], hosts=("testserver",))
    c = client(app)
    lab = {"spec": "stun", "players": 2, "games": 10, "ambiguities": ["win_timing"]}
    tune = {"spec": "stun", "players": 2, "games": 10, "vary": [{"name": "win_timing"}], "targets": ["turns 1..999"]}
    spec.write_text(text + "\n# changed\n")
    for kind, body in (("lab", lab), ("tune", tune)):
        j = _job(c, kind, body)
        assert j["state"] == "failed" and "changed since the server started" in j["error"]
    spec.unlink()
    os.mkfifo(spec)
    t0 = time.monotonic()
    for kind, body in (("lab", lab), ("tune", tune)):
        j = _job(c, kind, body)
        assert j["state"] == "failed" and "changed since the server started" in j["error"]
    assert time.monotonic() - t0 < 10
    app.state.table.lab.close()


def _job(c, kind: str, body: dict) -> dict:
    r = c.post(f"/api/{kind}", json=body)
    assert r.status_code == 202, r.text
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        j = c.get(f"/api/{kind}/{r.json()['id']}").json()
        if j["state"] in ("done", "failed"):
            return j
        time.sleep(0.05)
    raise AssertionError(f"the {kind} job did not end")
