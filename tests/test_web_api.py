"""The table's HTTP contract (interpreter/web/app.py), through Starlette's TestClient.

What a page may ask and what it gets: only the specs the server was started with, a 4xx with a JSON
error for every bad request, games kept apart per browser session, undo/redo/save/load as replays of
seed and choices, logs stepped through, lab runs with their reports, variant searches (the Tune page:
the CLI's report and its `--out` variant, the names, targets and caps checked), and every cap. The hidden-card
tests read the response bodies themselves: a seat never receives the name of a card it has not seen.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import time
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
warnings.filterwarnings("ignore", message=".*httpx.*")  # Starlette's TestClient on httpx

from starlette.testclient import TestClient  # noqa: E402

from interpreter import api  # noqa: E402
from interpreter.runtime.gamelog import header, lines  # noqa: E402
from interpreter.web.app import Limits, create_app  # noqa: E402

SPECS = ["games/stun.yaml", "games/stunt-academy.yaml", "tests/specs/secrets.yaml"]


def client(limits: Limits | None = None, app=None) -> TestClient:
    app = app or create_app(SPECS, limits=limits, hosts=("testserver",))
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture(scope="module")
def app():
    return create_app(SPECS, hosts=("testserver",))


def start(c: TestClient, **settings) -> dict:
    r = c.post("/api/games", json=settings)
    assert r.status_code == 201, r.text
    return r.json()


def true_table(app, c: TestClient, gid: str):
    """The server's own Table of a game (the engine's true state, to check the responses against)."""
    return app.state.table.sessions[c.cookies["rulewright_table"]].games[gid]


def pick(c: TestClient, g: dict, option: int):
    """Answer the decision the table `g` shows with `option` (the response)."""
    return c.post(f"/api/games/{g['id']}/choose", json={"option": option, "decision": g["decision"]["id"]})


def test_specs_are_only_those_given(app):
    c = client(app=app)
    d = c.get("/api/specs").json()
    assert [s["id"] for s in d["specs"]] == ["stun", "stunt-academy", "secrets"]
    assert {"random", "greedy", "mcts"} <= set(d["bots"])
    stun = d["specs"][0]
    assert stun["name"] == "STUN" and {o["name"] for o in stun["options"]} == {"win_chips", "advanced"}
    assert any(a["name"] == "win_timing" for a in stun["ambiguities"])
    assert "rulewright_table" not in c.cookies  # looking makes no session; the first change does
    start(c, spec="stun", players=2, seats=["random", "random"])
    assert "rulewright_table" in c.cookies


@pytest.mark.parametrize("body,status,fragment", [
    ({"spec": "games/stun.yaml"}, 400, "unknown spec"),
    ({"spec": "/etc/passwd"}, 400, "unknown spec"),
    ({"spec": "stun", "players": 9}, 400, "2 to 6 players"),
    ({"spec": "stun", "players": "2"}, 400, "2 to 6 players"),
    ({"spec": "stun", "seed": -1}, 400, "seed"),
    ({"spec": "stun", "options": {"win_chips": 4}}, 400, "win_chips"),
    ({"spec": "stun", "options": {"nope": 1}}, 400, "unknown option"),
    ({"spec": "stun", "readings": {"win_timing": "maybe"}}, 400, "interpretation"),
    ({"spec": "stun", "players": 2, "seats": ["person"]}, 400, "seats must list 2"),
    ({"spec": "stun", "players": 2, "seats": ["person", "skynet"]}, 400, "not a player here"),
    ({"spec": "stun", "players": 2, "seats": ["person", "mcts:999999"]}, 400, "mcts takes 1 to 2000"),
    ({"spec": "stun", "players": 2, "seats": ["person", "random:3"]}, 400, "random takes no number"),
    ({"spec": "stun", "players": 2, "seats": ["person", "person"]}, 400, "hot-seat"),
    ([1, 2], 400, "JSON object"),
], ids=["path-as-spec", "absolute-path", "too-many-players", "players-as-text", "negative-seed", "bad-option-value",
        "unknown-option", "unknown-reading", "seat-count", "unknown-bot", "mcts-cap", "number-for-random",
        "two-people-without-hotseat", "not-an-object"])
def test_bad_new_game_is_a_400_with_a_json_error(app, body, status, fragment):
    r = client(app=app).post("/api/games", json=body)
    assert r.status_code == status
    assert fragment in r.json()["error"]
    assert "Traceback" not in r.text


@pytest.mark.parametrize("method,path,body,status", [
    ("get", "/api/nothing", None, 404),
    ("get", "/etc/passwd", None, 404),
    ("get", "/static/../app.py", None, 404),
    ("delete", "/api/games", None, 405),
    ("get", "/api/games/0000", None, 404),
    ("post", "/api/games", b"{not json", 400),
    ("post", "/api/games", b"\xff\xfe", 400),
    ("post", "/api/games/load", b'{"rulewright_table": 2}', 400),
    ("post", "/api/games/load", b'{"rulewright_table": 1, "sealed": "gAAAAAnot-a-token"}', 400),
    ("get", "/api/logs/nope", None, 404),
    ("get", "/api/lab/nope", None, 404),
    ("get", "/api/lab/nope/plots/x.png", None, 404),
], ids=["unknown-api", "a-path", "static-escape", "wrong-method", "unknown-game", "broken-json", "not-utf8",
        "wrong-save-format", "forged-seal", "unknown-log", "unknown-lab-run", "unknown-plot"])
def test_bad_requests_get_json_errors(app, method, path, body, status):
    c = client(app=app)
    r = c.request(method.upper(), path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == status
    assert isinstance(r.json()["error"], str)


def test_a_foreign_host_header_is_refused():
    c = client()
    r = c.get("/api/specs", headers={"host": "rebinding.example:8765"})
    assert r.status_code == 400 and "answers only to" in r.json()["error"]


def test_oversized_body_is_a_413():
    c = client(Limits(body=1000))
    r = c.post("/api/logs", content=b"x" * 5000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger than 1000" in r.json()["error"]


def test_the_page_and_its_files_are_served(app):
    c = client(app=app)
    assert "Rulewright" in c.get("/").text
    for f in ("app.js", "style.css"):
        assert c.get(f"/static/{f}").status_code == 200


def test_person_plays_bots_answer_and_the_table_has_zones_counters_and_options(app):
    c = client(app=app)
    g = start(c, spec="stun", players=3, seed=4, seats=["person", "random", "greedy"])
    assert g["viewer"] == 0 and g["status"] == "running"
    assert g["decision"]["player"] == 0 and g["decision"]["options"] == ["turn up a card", "stop and keep the cards"]
    assert {z["id"] for z in g["zones"]} >= {"draw", "P1.pile"}
    assert any(r["label"] for r in g["counters"]["players"])
    while g["status"] == "running":
        last = g
        g = pick(c, g, len(g["decision"]["options"]) - 1).json()
    assert g["result"]["status"] == "finished" and g["decision"] is None
    assert any(line["kind"] == "end" for line in g["log"])
    r = c.post(f"/api/games/{g['id']}/choose", json={"option": 0, "decision": g["version"]})
    assert r.status_code == 400 and "over" in r.json()["error"]
    r = pick(c, last, len(last["decision"]["options"]) - 1)  # the last choice again: a harmless repeat
    assert r.status_code == 200 and r.json()["choices"] == g["choices"]


@pytest.mark.parametrize("body,fragment", [
    ({"option": 7}, "not one of the 2 options"),
    ({"option": "0"}, "not one of"),
    ({"option": -1}, "not one of"),
    ({}, "choose needs"),
    ({"option": 0, "seat": 1}, "P1's decision"),
    ({"option": 0, "decision": None}, "choose needs"),
    ({"option": 0, "decision": "1"}, "decision must be"),
], ids=["out-of-range", "text", "negative", "missing", "wrong-seat", "no-decision", "decision-as-text"])
def test_bad_choices_are_refused_and_change_nothing(app, body, fragment):
    c = client(app=app)
    g = start(c, spec="stun", players=2, seed=1, seats=["person", "random"])
    if "option" in body and "decision" not in body:
        body = {**body, "decision": g["decision"]["id"]}
    r = c.post(f"/api/games/{g['id']}/choose", json=body)
    assert r.status_code == 400 and fragment in r.json()["error"]
    assert c.get(f"/api/games/{g['id']}").json()["choices"] == g["choices"]


def test_refused_actions_explain_themselves_with_the_rule(app):
    c = client(app=app)
    g = start(c, spec="stunt-academy", players=3, seed=7, seats=["person", "random", "random"])
    refused = {w["action"]: w for w in g["decision"]["refused"]}
    assert "meld" in refused
    w = refused["meld"]
    assert w["reasons"] and "meld a collection" in w["rule"] and w["where"].startswith("games/stunt-academy.yaml:")


def test_log_lines_carry_the_rulebook_sentence(app):
    c = client(app=app)
    g = start(c, spec="secrets", players=2, seed=1, seats=["random", "random"])
    rules = {g["rules"][line["rule"]] for line in g["log"] if line["kind"] in ("choice", "say") and line["rule"] is not None}
    assert "Play a card from your hand face up and score its value." in rules


def test_undo_goes_back_to_the_persons_last_decision_and_redo_forward(app):
    c = client(app=app)
    g0 = start(c, spec="stun", players=2, seed=11, seats=["person", "random"])
    gid = g0["id"]
    assert not g0["can_undo"]
    g1 = pick(c, g0, 0).json()
    g2 = pick(c, g1, 1).json()
    u = c.post(f"/api/games/{gid}/undo", json={"version": g2["version"]}).json()
    same = lambda d: {k: v for k, v in d.items() if k not in ("can_redo", "version")} | \
        {"decision": {k: v for k, v in d["decision"].items() if k != "id"}}  # noqa: E731
    assert same(u) == same(g1)
    assert u["can_redo"] and u["version"] > g2["version"]
    stale = c.post(f"/api/games/{gid}/undo", json={"version": g2["version"]})  # a double click: nothing more
    assert stale.status_code == 409 and stale.json()["table"]["version"] == u["version"]
    r = c.post(f"/api/games/{gid}/redo", json={"version": u["version"]}).json()
    assert same(r) == same(g2)
    assert c.post(f"/api/games/{gid}/redo", json={}).status_code == 400
    c.post(f"/api/games/{gid}/undo", json={})
    c.post(f"/api/games/{gid}/undo", json={})
    assert c.post(f"/api/games/{gid}/undo", json={}).status_code == 400  # back at the start
    pick(c, c.get(f"/api/games/{gid}").json(), 1)  # a new choice forgets what could be redone
    assert not c.get(f"/api/games/{gid}").json()["can_redo"]


def test_save_and_load_replay_the_same_game(app):
    c = client(app=app)
    g = start(c, spec="stunt-academy", players=3, seed=5, seats=["person", "mcts:10", "random"],
              readings={"meld_cost": "per_card"})
    for k in range(4):
        g = pick(c, g, k % len(g["decision"]["options"])).json()
    save = c.get(f"/api/games/{g['id']}/save").json()
    assert save["rulewright_table"] == 1 and save["spec"] == "stunt-academy" and save["readings"]["meld_cost"] == "per_card"
    assert "seed" not in save and "choices" not in save and save["choices_made"] == g["choices"]  # sealed
    other = client(app=app)  # another browser loads the file
    loaded = other.post("/api/games/load", json=save).json()
    drop = ("id", "can_redo", "version", "decision")
    assert {k: v for k, v in loaded.items() if k not in drop} == {k: v for k, v in g.items() if k not in drop}
    assert loaded["settings"]["seed"] is None


@pytest.mark.parametrize("change,fragment", [
    ({"spec": "chess"}, "unknown spec"),
    ({"choices": "0,1"}, "list of option numbers"),
    ({"choices": [0, 99]}, "is not one of"),
    ({"choices": [0] * 6000}, "at most 3000"),
    ({"players": 99}, "3 to 4 players"),
    ({"seats": ["person", "rm -rf", "random"]}, "not a player"),
    ({"readings": {"meld_cost": "free"}}, "interpretation"),
], ids=["unknown-spec", "choices-text", "choice-out-of-range", "too-many-choices", "players", "seat", "reading"])
def test_a_bad_save_is_refused_with_the_reason(app, change, fragment):
    c = client(app=app)
    g = start(c, spec="stunt-academy", players=3, seed=5, seats=["random", "random", "random"])  # an open save
    save = {**c.get(f"/api/games/{g['id']}/save").json(), **change}
    r = c.post("/api/games/load", json=save)
    assert r.status_code == 400 and fragment in r.json()["error"], r.text


def test_sessions_are_kept_apart(app):
    a, b = client(app=app), client(app=app)
    ga = start(a, spec="stun", players=2, seed=1, seats=["person", "random"])
    assert b.get(f"/api/games/{ga['id']}").status_code == 404
    assert b.post(f"/api/games/{ga['id']}/choose", json={"option": 0, "decision": 1}).status_code == 404
    assert b.get(f"/api/games/{ga['id']}/save").status_code == 404
    assert [x["id"] for x in a.get("/api/games").json()["games"]] == [ga["id"]]
    assert b.get("/api/games").json()["games"] == []


def test_caps_on_sessions_games_and_choices():
    app = create_app(SPECS, limits=Limits(sessions=3, games_per_session=2, choices=40), hosts=("testserver",))
    c = client(app=app)
    ids = [start(c, spec="stun", players=2, seed=s, seats=["person", "random"])["id"] for s in range(3)]
    assert [x["id"] for x in c.get("/api/games").json()["games"]] == ids[1:]  # the oldest went first
    bots = start(c, spec="stunt-academy", players=3, seed=1, seats=["random"] * 3)
    assert bots["choices"] == 40 and bots["status"] == "running" and "40 choices" in bots["note"]
    for _ in range(5):
        client(app=app).get("/api/specs")  # a look creates no session and pushes none out
    assert len(app.state.table.sessions) == 1
    others = [client(app=app) for _ in range(4)]
    for o in others:
        start(o, spec="stun", players=2, seed=1, seats=["random", "random"])
    assert len(app.state.table.sessions) == 3
    assert c.get(f"/api/games/{ids[2]}").status_code == 404  # the least recently seen session went


def test_a_bot_game_may_be_watched_from_any_seat_but_a_persons_game_not(app):
    c = client(app=app)
    bots = start(c, spec="secrets", players=2, seed=3, seats=["random", "random"])
    assert bots["viewer"] == -1 and bots["result"]["status"] == "finished"
    p2 = c.get(f"/api/games/{bots['id']}?seat=2").json()
    assert p2["viewer"] == 1
    g = start(c, spec="secrets", players=2, seed=3, seats=["person", "random"])
    r = c.get(f"/api/games/{g['id']}?seat=2")
    assert r.status_code == 403 and "seat that must choose" in r.json()["error"]
    for bad in ("0", "-1", "x", "9"):
        r = c.get(f"/api/games/{bots['id']}?seat={bad}")
        assert r.status_code in (400, 403) and r.json()["error"]


# -- hidden information, read off the response bodies ----------------------------------------------
def _labels(game) -> set[str]:
    return set(game.card_label)


def _seen_by(game, players: int, seed: int, choices: list[int], seat: int) -> set[str]:
    """Every card name `seat` could see at some decision of the game (the engine's own view)."""
    st = game.new_game(players, seed)
    seen: set[str] = set()

    def look():
        for content in st.view(seat)["zones"].values():
            if isinstance(content, list):
                seen.update(content)
    look()
    for i in choices:
        st.apply(i)
        look()
    return seen


def _strip_rules(body: str) -> str:
    """The body without the rulebook's sentences (the same text for every seat; it names no dealt card)."""
    d = json.loads(body)
    d["rules"] = []
    for w in (d.get("decision") or {}).get("refused", []):
        w["rule"] = None
    return json.dumps(d)


@pytest.mark.parametrize("spec,players,seed", [("secrets", 2, 1), ("secrets", 3, 8), ("stunt-academy", 3, 2)],
                         ids=["secrets-2", "secrets-3", "stunt-academy"])
def test_a_seat_never_receives_a_card_it_has_not_seen(app, spec, players, seed):
    c = client(app=app)
    rng = random.Random(seed)
    g = start(c, spec=spec, players=players, seed=seed, seats=["person"] + ["random"] * (players - 1))
    bodies = []
    while g["status"] == "running" and g["choices"] < 120:
        r = pick(c, g, rng.randrange(len(g["decision"]["options"])))
        bodies.append(r.text)
        g = r.json()
        bodies.append(c.get(f"/api/games/{g['id']}").text)
    t = true_table(app, c, g["id"])
    game = t.g
    never = _labels(game) - _seen_by(game, players, seed, t.st.choices, 0)
    assert never, "the test needs cards that P1 never sees"
    for body in bodies:
        text = _strip_rules(body)
        leaked = [x for x in never if x in text]
        assert not leaked, f"P1 was sent {leaked}"
    # and the redaction is there, not an empty log: other seats' hands were narrated
    assert any("a hidden card" in b for b in bodies)


def test_a_blind_pick_from_a_hidden_pile_names_no_card(app):
    c = client(app=app)
    g = start(c, spec="secrets", players=2, seed=2, seats=["person", "random"])
    gid = g["id"]
    g = pick(c, g, g["decision"]["options"].index("play a card face up")).json()
    g = pick(c, g, 0).json()  # the card to play; then P2 moves
    assert "draw a card" in g["decision"]["options"]
    r = pick(c, g, g["decision"]["options"].index("draw a card"))
    g = r.json()
    deck = next(z for z in g["zones"] if z["id"] == "deck")
    assert g["decision"]["prompt"] == "card to draw" and len(g["decision"]["options"]) == deck["count"] > 1
    assert g["decision"]["options"][:2] == ["a hidden card", "a hidden card (2)"]
    names = set(api.load_game("tests/specs/secrets.yaml").card_label)
    assert not [x for x in names if x in r.text and x not in str(g["zones"])]


def test_hot_seat_shows_each_person_only_their_own_hand(app):
    c = client(app=app)
    g = start(c, spec="secrets", players=3, seed=4, seats=["person", "person", "random"], hotseat=True)
    viewers = set()
    while g["status"] == "running":
        me = g["viewer"]
        viewers.add(me)
        assert g["decision"]["player"] == me
        hands = {z["owner"]: z for z in g["zones"] if z["id"].endswith(".hand")}
        assert hands[me]["visible"] and all(not z["visible"] for p, z in hands.items() if p != me)
        g = pick(c, g, 0).json()
    assert viewers == {0, 1}
    assert g["viewer"] == -1  # at the end, the screen shows what everyone may see


# -- logs ---------------------------------------------------------------------------------------------
def _log_text(path: str, players: int, seed: int) -> str:
    game = api.load_game(path)
    st = api.play(game, players, seed, log=True)
    return "\n".join(lines(header(path, game, players, seed, {}), st.log)) + "\n", st


def test_a_log_is_uploaded_and_stepped_through(app):
    c = client(app=app)
    text, st = _log_text("tests/specs/secrets.yaml", 2, 6)
    r = c.post("/api/logs", json={"name": "secrets.jsonl", "text": text})
    assert r.status_code == 201, r.text
    d = r.json()
    assert d["steps"] == len(st.choices) and d["game"] == "Secrets" and d["note"] is None
    end = c.get(f"/api/logs/{d['id']}?step={d['steps']}&seat=everyone").json()
    assert end["result"]["winners"] == st.winners
    begin = c.get(f"/api/logs/{d['id']}?step=0&seat=1").json()
    hands = {z["owner"]: z for z in begin["zones"] if z["id"].endswith(".hand")}
    assert hands[0]["visible"] and not hands[1]["visible"]
    every = c.get(f"/api/logs/{d['id']}?step=0&seat=everyone").json()
    assert all(z["visible"] for z in every["zones"])
    assert [x["id"] for x in client(app=app).get("/api/logs").json()["logs"]] == []  # another session's list
    for q, fragment in (("step=999", "step must be"), ("step=-1", "step must be"), ("step=0&seat=9", "view must be")):
        r = c.get(f"/api/logs/{d['id']}?{q}")
        assert r.status_code == 400 and fragment in r.json()["error"]


@pytest.mark.parametrize("text,fragment", [
    ("", "empty"),
    ("not json\n", "not a Rulewright log header"),
    ('{"rulewright_log": 1, "spec": "x.yaml", "players": 2, "seed": 1, "options": {}, "readings": {}, '
     '"game": "Chess"}\n', "does not serve"),
    ('{"rulewright_log": 1, "spec": "x.yaml", "players": "two", "seed": 1, "options": {}, "readings": {}}\n',
     "players"),
], ids=["empty", "garbage", "unserved-game", "bad-header"])
def test_a_bad_log_is_refused_with_the_reason(app, text, fragment):
    r = client(app=app).post("/api/logs", json={"name": "up.jsonl", "text": text})
    assert r.status_code == 400 and fragment in r.json()["error"], r.text
    assert "/tmp" not in r.json()["error"]  # the error names the upload, not the server's files


def test_a_log_longer_than_the_cap_is_refused():
    text, st = _log_text("tests/specs/secrets.yaml", 2, 6)
    app = create_app(SPECS, limits=Limits(log_choices=len(st.choices) - 1), hosts=("testserver",))
    r = client(app=app).post("/api/logs", json={"name": "long.jsonl", "text": text})
    assert r.status_code == 400 and "at most" in r.json()["error"]


def test_a_log_given_on_the_command_line_is_listed_for_every_session():
    text, _ = _log_text("games/stun.yaml", 2, 3)
    app = create_app(SPECS, hosts=("testserver",), logs=[("stun.jsonl", text)])
    logs = client(app=app).get("/api/logs").json()["logs"]
    assert [(x["id"], x["name"], x["game"]) for x in logs] == [("given-0", "stun.jsonl", "STUN")]


# -- the lab ------------------------------------------------------------------------------------------
def _wait(c: TestClient, jid: str, kind: str = "lab") -> dict:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        j = c.get(f"/api/{kind}/{jid}").json()
        if j["state"] in ("done", "failed", "cancelled"):
            return j
        time.sleep(0.1)
    raise AssertionError(f"the {kind} job did not end")


def test_a_lab_run_reports_verdicts_and_plots():
    app = create_app(SPECS, hosts=("testserver",))
    c = client(app=app)
    r = c.post("/api/lab", json={"spec": "stun", "players": 2, "games": 40, "seed": 2, "ambiguities": ["win_timing"]})
    assert r.status_code == 202, r.text
    j = _wait(c, r.json()["id"])
    assert j["state"] == "done", j["error"]
    assert j["done"] == j["total"] == 40
    (a,) = j["report"]["ambiguities"]
    assert a["ambiguity"] == "win_timing" and isinstance(a["verdict"], str)
    assert all(isinstance(i["verdict"], str) and i["differences"] for i in a["interpretations"])
    assert j["plots"] == ["win_timing.png"]
    png = c.get(f"/api/lab/{j['id']}/plots/win_timing.png")
    assert png.status_code == 200 and png.content[:4] == b"\x89PNG"
    assert c.get(f"/api/lab/{j['id']}/plots/index.html").status_code == 404  # only the plots it listed
    assert client(app=app).get(f"/api/lab/{j['id']}").status_code == 404  # another session's run


@pytest.mark.parametrize("body,fragment", [
    ({"spec": "nope"}, "unknown spec"),
    ({"spec": "stun", "games": 5}, "games must be 10 to 2000"),
    ({"spec": "stun", "games": 10 ** 9}, "games must be 10 to 2000"),
    ({"spec": "stun", "players": 1}, "2 to 6 players"),
    ({"spec": "stun", "ambiguities": ["meld_cost"]}, "ambiguities must name"),
    ({"spec": "secrets"}, "declares no ambiguities"),
    ({"spec": "stun", "options": {"win_chips": 9}}, "win_chips"),
], ids=["spec", "too-few-games", "too-many-games", "players", "unknown-ambiguity", "no-ambiguities", "option"])
def test_bad_lab_requests(app, body, fragment):
    r = client(app=app).post("/api/lab", json=body)
    assert r.status_code == 400 and fragment in r.json()["error"], r.text


def test_lab_runs_are_bounded():
    app = create_app(SPECS, limits=Limits(lab_jobs=1), hosts=("testserver",))
    c = client(app=app)
    first = c.post("/api/lab", json={"spec": "stunt-academy", "players": 3, "games": 300})
    assert first.status_code == 202
    second = client(app=app).post("/api/lab", json={"spec": "stun", "players": 2, "games": 10})
    assert second.status_code == 429 and "already waiting or running" in second.json()["error"]
    again = c.post("/api/lab", json={"spec": "stun", "players": 2, "games": 10})
    assert again.status_code == 429 and "already" in again.json()["error"]
    app.state.table.lab.close()


def test_a_game_goes_onto_the_slider_when_it_is_over_or_of_bots_only(app):
    c = client(app=app)
    bots = start(c, spec="secrets", players=2, seed=3, seats=["random", "random"])
    r = c.post(f"/api/games/{bots['id']}/replay", json={})
    assert r.status_code == 201 and r.json()["steps"] == bots["choices"]
    step = c.get(f"/api/logs/{r.json()['id']}?step={bots['choices']}&seat=spectator").json()
    assert step["result"] == bots["result"] and step["zones"] == bots["zones"]
    g = start(c, spec="secrets", players=2, seed=3, seats=["person", "random"])
    r = c.post(f"/api/games/{g['id']}/replay", json={})
    assert r.status_code == 403 and "once it is over" in r.json()["error"]


# -- the Tune page: a variant search --------------------------------------------------------------------------
PLANTED = "tests/specs/tune_planted.yaml"  # fair for exactly one value of `line` (50); `table` changes nothing
SEARCH = {"spec": "tune_planted", "players": 2, "seed": 3, "vary": [{"name": "line"}],
          "targets": ["win P1 30%..70%", "wins spread <= 40pt"], "games": 50, "max_games": 400}


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> str:
    """The planted spec in a folder of its own (a downloaded variant is checked, and saved, beside it)."""
    folder = tmp_path_factory.mktemp("tune")
    shutil.copy(PLANTED, folder / "tune_planted.yaml")
    return str(folder / "tune_planted.yaml")


def _job(c: TestClient, body: dict, kind: str = "tune") -> dict:
    r = c.post(f"/api/{kind}", json=body)
    assert r.status_code == 202, r.text
    return _wait(c, r.json()["id"], kind)


def _without_times(report: dict) -> dict:
    d = json.loads(json.dumps(report))
    for x in [d, *d["policies"]]:
        x.pop("seconds")
        x.pop("cpu_seconds")
    return d


def test_a_search_runs_as_a_job_and_shows_the_clis_report(planted, tmp_path):
    app = create_app([planted, "games/stun.yaml"], hosts=("testserver",))
    c = client(app=app)
    j = _job(c, SEARCH)
    assert j["state"] == "done", j["error"]
    assert (j["kind"], j["done"], j["total"], j["unit"]) == ("tune", 5, 5, "variants")
    r = j["report"]
    (p,) = r["policies"]
    assert p["policy"] == "random" and p["mode"] == "exhaustive" and p["tried"] == 5
    assert [c_["rank"] for c_ in p["candidates"]] == [1, 2, 3, 4, 5]
    best = p["candidates"][0]
    assert best["label"] == r["best"] == "line=50" and best["meets"] is True and best["stopped"] == "decided"
    # 35 and 65 give one seat about 65% (undecided at 400 games), 20 and 80 about 80% (outside)
    assert {c_["label"]: c_["meets"] for c_ in p["candidates"][1:]} == {
        "line=65": "undecided", "line=35": "undecided", "line=80": False, "line=20": False}
    assert all(e["verdict"] in ("inside", "outside", "undecided") and e["shown"].count("[") == 1
               for c_ in p["candidates"] for e in c_["targets"])
    assert "line=50" in r["pareto"] and r["sensitivity"] == []
    # the plots and the HTML report as `rulewright tune --report` writes them, by the names the job listed
    assert r["plots"] == [["target-1-win_P1.png", "target-2-wins_spread.png"]]
    assert sorted(j["plots"]) == sorted(r["plots"][0]) and "index.html" in j["files"]
    png = c.get(f"/api/tune/{j['id']}/report/{r['plots'][0][0]}")
    assert png.status_code == 200 and png.content[:4] == b"\x89PNG"
    page = c.get(f"/api/tune/{j['id']}/report/index.html")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Every candidate, ranked" in page.text and r["plots"][0][0] in page.text
    assert c.get(f"/api/tune/{j['id']}/report/..%2Ftune_planted.yaml").status_code == 404
    assert c.get(f"/api/lab/{j['id']}").status_code == 404  # a search is not a lab run
    assert client(app=app).get(f"/api/tune/{j['id']}").status_code == 404  # nor another browser's
    # the best variant, as `--out` writes it beside the spec: it checks clean and extends the base
    (name,) = j["downloads"]
    got = c.get(f"/api/tune/{j['id']}/downloads/{name}")
    assert got.status_code == 200 and f'filename="{name}"' in got.headers["content-disposition"]
    assert "extends: tune_planted.yaml" in got.text and "options.line.default: 50" in got.text
    saved = os.path.join(os.path.dirname(planted), name)
    with open(saved, "w", encoding="utf-8") as fh:
        fh.write(got.text)
    checked, diags = api.check_spec(saved)
    assert checked is not None, diags
    assert checked.options["line"].default == 50 and checked.name == "Tune planted (tuned)"
    out = os.path.join(os.path.dirname(planted), "cli-best.yaml")
    from click.testing import CliRunner
    from interpreter.cli.commands import cli
    res = CliRunner().invoke(cli, ["tune", planted, "-p", "2", "--vary", "line", "--target", "win P1 30%..70%",
                                   "--target", "wins spread <= 40pt", "--games", "50", "--max-games", "400",
                                   "--seed", "3", "--out", out])
    assert res.exit_code == 0, res.output
    assert open(out, encoding="utf-8").read() == got.text  # the same text, byte for byte
    # the same request again: the same result
    again = _job(c, SEARCH)
    assert _without_times(again["report"]) == _without_times(r)
    app.state.table.lab.close()


def test_a_search_under_two_policies_and_readings(planted):
    app = create_app([planted, "games/stun.yaml"], hosts=("testserver",))
    c = client(app=app)
    j = _job(c, {"spec": "stun", "players": 2, "seed": 1, "games": 10, "max_games": 20,
                 "vary": [{"name": "win_timing"}, {"name": "win_chips", "values": [3]}],
                 "targets": ["stalled <= 5pt", "minimise turns"], "agents": ["random", "first"][:1] + ["greedy"]})
    assert j["state"] == "done", j["error"]
    r = j["report"]
    assert [p["policy"] for p in r["policies"]] == ["random", "greedy"] and j["total"] == 4
    assert [a["kind"] for a in r["vary"]] == ["reading", "option"] and r["vary"][1]["values"] == [3]
    assert all("win_chips=3" in c_["label"] for p in r["policies"] for c_ in p["candidates"])
    assert len(r["plots"]) == 2 and r["plots"][1][0].startswith("greedy-")
    assert all("verdict" not in c_["targets"][1] for c_ in r["policies"][0]["candidates"])  # an objective
    app.state.table.lab.close()


@pytest.mark.parametrize("change,fragment", [
    ({"spec": "nope"}, "unknown spec"),
    ({"spec": "tune_planted.yaml"}, "unknown spec"),
    ({"players": 3}, "2 to 2 players"),
    ({"seed": -1}, "the seed must be"),
    ({"seed": 1.5}, "the seed must be"),
    ({"games": 5}, "from 10 to 1600"),
    ({"max_games": 10 ** 6}, "from 50 to 1600"),
    ({"max_games": 20}, "from 50 to 1600"),
    ({"vary": []}, "vary must list 1 to 2 of: line, table"),
    ({"vary": "line"}, "vary must list"),
    ({"vary": [{"name": "lin"}]}, '"lin" is no option or ambiguity'),
    ({"vary": [{"name": "line"}, {"name": "line"}]}, "named twice"),
    ({"vary": [{"name": "line", "values": [51]}]}, "51 is not a value of line"),
    ({"vary": [{"name": "line", "values": ["50"]}]}, '"50" is not a value of line'),
    ({"vary": [{"name": "line", "values": [True]}]}, "true is not a value of line"),
    ({"vary": [{"name": "line", "values": []}]}, "must be some of: 20, 35"),
    ({"vary": [{"name": "../../etc/passwd"}]}, "no option or ambiguity"),
    ({"targets": []}, "targets must be 1 to 8"),
    ({"targets": ["turns 1..9"] * 9}, "targets must be 1 to 8"),
    ({"targets": ["turns 1..9\nturns 2..3"]}, "one line"),
    ({"targets": [{"turns": 1}]}, "targets must be"),
    ({"agents": ["mcts"]}, "agents must name one or more of: random, greedy"),
    ({"agents": ["random", "random"]}, "each once"),
    ({"agents": []}, "agents must name"),
], ids=["spec", "spec-path", "players", "seed", "seed-float", "games", "max-games", "max-below-games", "no-vary",
        "vary-text", "vary-name", "vary-twice", "value", "value-type", "value-bool", "no-values", "vary-path",
        "no-targets", "too-many-targets", "target-newline", "target-object", "agent", "agent-twice", "no-agents"])
def test_bad_search_requests_are_400s_that_run_nothing(planted, change, fragment):
    app = create_app([planted], hosts=("testserver",))
    r = client(app=app).post("/api/tune", json={**SEARCH, **change})
    assert r.status_code == 400 and fragment in r.json()["error"], r.text
    assert not app.state.table.lab.jobs


def test_a_bad_target_is_the_clis_diagnostics(planted):
    app = create_app([planted], hosts=("testserver",))
    r = client(app=app).post("/api/tune", json={**SEARCH, "targets": ["turn 60..", "wins spread <= 10"]})
    assert r.status_code == 400 and "2 target(s) cannot be read" in r.json()["error"]
    diags = r.json()["diagnostics"]
    assert "--target:1:1: error[E701]: no measure 'turn'" in diags and "did you mean 'turns'?" in diags
    assert "--target:2:16: error[E702]" in diags and "2 | wins spread <= 10" in diags
    assert not app.state.table.lab.jobs


def test_the_caps_are_the_servers(planted):
    app = create_app([planted], limits=Limits(tune_variants=3, tune_games=100), hosts=("testserver",))
    c = client(app=app)
    assert c.get("/api/specs").json()["limits"]["tune"]["variants"] == 3
    r = c.post("/api/tune", json={**SEARCH, "max_games": 400})
    assert r.status_code == 400 and "from 50 to 100" in r.json()["error"]
    # five variants past a cap of three: Optuna chooses three of them
    j = _job(c, {**SEARCH, "max_games": 100})
    assert j["state"] == "done", j["error"]
    assert j["total"] == 3 and j["report"]["mode"] == "optuna" and j["report"]["policies"][0]["tried"] <= 3
    assert max(c_["games"] for c_ in j["report"]["candidates"]) <= 100
    app.state.table.lab.close()


def test_one_job_a_browser_whatever_its_kind_and_stop(planted):
    app = create_app([planted, "games/stun.yaml"], limits=Limits(lab_jobs=2), hosts=("testserver",))
    c, other = client(app=app), client(app=app)
    long = {"spec": "stun", "players": 4, "vary": [{"name": "win_chips"}, {"name": "advanced"}],
            "targets": ["stalled <= 0pt"], "games": 10, "max_games": 1600}  # never decided: to the cap
    first = c.post("/api/tune", json=long)
    assert first.status_code == 202, first.text
    for kind, body in (("tune", SEARCH), ("lab", {"spec": "stun", "players": 2, "games": 10})):
        again = c.post(f"/api/{kind}", json=body)
        assert again.status_code == 429 and "this browser already has 1" in again.json()["error"]
    queued = other.post("/api/tune", json=SEARCH)  # waits for the first: one worker thread
    assert queued.status_code == 202
    assert client(app=app).post(f"/api/tune/{first.json()['id']}/cancel", json={}).status_code == 404
    r = other.post(f"/api/tune/{queued.json()['id']}/cancel", json={})
    assert r.status_code == 200 and r.json()["state"] == "cancelled"  # a queued job never runs
    deadline = time.monotonic() + 60
    while c.get(f"/api/tune/{first.json()['id']}").json()["state"] != "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert c.post(f"/api/tune/{first.json()['id']}/cancel", json={}).json()["stopping"] is True
    j = _wait(c, first.json()["id"], "tune")
    assert j["state"] == "cancelled" and j["report"] is None and j["downloads"] == []
    assert _wait(other, queued.json()["id"], "tune")["state"] == "cancelled"
    assert c.post("/api/tune", json=SEARCH).status_code == 202  # the browser may start another
    app.state.table.lab.close()
