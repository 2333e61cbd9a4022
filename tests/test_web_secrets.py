"""A game's secrets stay the server's (issue 23, findings 1-3), checked against the engine's true state.

Person-against-bot games of Love Letter, Goofspiel and Sushi Go are walked through the HTTP API, reading
every response a person's page can ask for (the table, the game list, the save, the logs list) and
comparing it with the server's own Table (its State, its seed): the seed is fresh and never sent while
people play; a zone the person may not see arrives as a count only; no card name the person never saw
appears; a save in play is sealed (no seed, no choices, its seats not editable), so none of the three
routes of the review (save, switch the seats to bots, load and step through; a log made of the save's
choices; a bots-only game with the same seed) shows a hidden card. A sealed bid is in no artefact: the
person's table and save are the same byte for byte whatever the bot bid.
"""
from __future__ import annotations

import json
import os
import random
import re
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
warnings.filterwarnings("ignore", message=".*httpx.*")

from starlette.testclient import TestClient  # noqa: E402

from interpreter import api  # noqa: E402
from interpreter.runtime.redact import zone_seers  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402
from interpreter.web.sealing import Sealer  # noqa: E402
from interpreter.web.tables import Settings, Table, seat_json  # noqa: E402

SPECS = ["games/love_letter.yaml", "games/goofspiel.yaml", "games/sushi_go.yaml"]


@pytest.fixture(scope="module")
def app():
    return create_app(SPECS, hosts=("testserver",))


def client(app) -> TestClient:
    return TestClient(app, raise_server_exceptions=False)


def true_table(app, c: TestClient, gid: str) -> Table:
    return app.state.table.sessions[c.cookies["rulewright_table"]].games[gid]


def pick(c: TestClient, g: dict, option: int):
    return c.post(f"/api/games/{g['id']}/choose", json={"option": option, "decision": g["decision"]["id"]})


def _zones_match_the_engine(g: dict, t: Table, seat: int) -> None:
    """Every zone the seat may not see comes as a count only, and the count is the engine's."""
    st = t.st
    by_name = {t.g.zone_name(z): z for z in range(len(st.zones))}
    for z in g["zones"]:
        zid = by_name[z["id"]]
        if seat not in zone_seers(t.g, zid, st.n):
            assert "cards" not in z and z["count"] == len(st.zones[zid]), z
        else:
            assert z["cards"] == [t.g.card_label[c] for c in st.zones[zid]]


GAMES = [("love_letter", 4), ("goofspiel", 2), ("sushi_go", 3)]


@pytest.mark.parametrize("spec,players", GAMES, ids=[s for s, _ in GAMES])
@pytest.mark.parametrize("given", [None, 3_141_592_653_589_793_238], ids=["fresh-seed", "given-seed"])
def test_a_person_against_bots_is_sent_no_seed_and_no_hidden_card(app, spec, players, given):
    """With a fresh seed (the default) and with one given (a seed you typed is still not sent to the page)."""
    c = client(app)
    rng = random.Random(players)
    g = c.post("/api/games", json={"spec": spec, "players": players, "seed": given,
                                   "seats": ["person"] + ["random"] * (players - 1)}).json()
    gid = g["id"]
    t = true_table(app, c, gid)
    seed = str(t.s.seed)
    assert given is not None or len(seed) >= 6, "a fresh random seed (62 bits), not the old default 1"
    bodies, offered = [], set()
    while g["status"] == "running":
        _zones_match_the_engine(g, t, 0)
        offered.update(g["decision"]["options"])
        for r in (c.get(f"/api/games/{gid}"), c.get("/api/games"), c.get(f"/api/games/{gid}/save"),
                  c.get("/api/logs"), c.post(f"/api/games/{gid}/replay", json={})):
            bodies.append(r.text)
            assert seed not in r.text, f"the seed is in {r.url}"
        assert g["settings"]["seed"] is None
        g = pick(c, g, rng.randrange(len(g["decision"]["options"]))).json()
        bodies.append(json.dumps(g))
    assert g["settings"]["seed"] == t.s.seed  # the game is over: now it is the players' to replay
    assert c.post(f"/api/games/{gid}/replay", json={}).status_code == 201
    # no card name the person never saw (nor was offered as a word to choose), in any response
    seen = set()
    st = t.g.new_game(players, t.s.seed)
    for i in [None, *t.st.choices]:
        if i is not None:
            st.apply(i)
        for content in st.view(0)["zones"].values():
            if isinstance(content, list):
                seen.update(content)
    never = {x for x in set(t.g.card_label) - seen if not any(x.lower() in o.lower() for o in offered)}
    names = re.compile("|".join(re.escape(x) for x in sorted(set(t.g.card_label), key=len, reverse=True)))
    for body in bodies:  # card names as the page reads them, longest first ("Princess" is not a "Prince")
        leaked = set(names.findall(_without_rules(body))) & never
        assert not leaked, f"a hidden card was sent: {leaked} (seed {seed})"


def _without_rules(body: str) -> str:
    try:
        d = json.loads(body)
    except ValueError:
        return body
    if isinstance(d, dict):  # the spec's own words, the same for every seat ("protected by a Handmaid")
        d.pop("rules", None)
        for w in (d.get("decision") or {}).get("refused", []):
            w["rule"] = None
        for rows in (d.get("counters") or {}).values():
            for row in rows:
                row["label"] = None
    return json.dumps(d)


def test_two_games_without_a_seed_get_different_deals(app):
    c = client(app)
    seeds = set()
    for _ in range(3):
        g = c.post("/api/games", json={"spec": "love_letter", "players": 2, "seats": ["person", "random"]}).json()
        seeds.add(true_table(app, c, g["id"]).s.seed)
    assert len(seeds) == 3


@pytest.mark.parametrize("seed", [3_821_337_790_124_455_003])  # the person is still in after one move
def test_a_save_in_play_is_sealed_and_its_seats_cannot_be_turned_into_bots(app, seed):
    c = client(app)
    g = c.post("/api/games", json={"spec": "love_letter", "players": 4, "seed": seed,
                                   "seats": ["person", "random", "random", "random"]}).json()
    g = pick(c, g, 0).json()
    assert g["status"] == "running"
    t = true_table(app, c, g["id"])
    save = c.get(f"/api/games/{g['id']}/save")
    assert str(t.s.seed) not in save.text and "seed" not in save.headers["content-disposition"]
    d = save.json()
    assert "seed" not in d and "choices" not in d and d["choices_made"] == len(t.st.choices)
    # route 1: switch every seat to a bot, load, step through as everyone
    d["seats"] = ["random"] * 4
    loaded = c.post("/api/games/load", json=d).json()
    assert loaded["settings"]["seats"][0] == "person" and loaded["settings"]["seed"] is None  # the sealed seats
    assert loaded["viewer"] == 0 and loaded["choices"] == g["choices"]
    r = c.post(f"/api/games/{loaded['id']}/replay", json={})
    assert r.status_code == 403
    # a seal changed by one character is refused, never opened
    token = d["sealed"]
    forged = {**d, "sealed": token[:-5] + ("A" if token[-5] != "A" else "B") + token[-4:]}
    r = c.post("/api/games/load", json=forged)
    assert r.status_code == 400 and "sealed by another table server" in r.json()["error"]
    # another server (another key) cannot open it either
    other = client(create_app(SPECS, hosts=("testserver",)))
    assert other.post("/api/games/load", json=d).status_code == 400
    # route 2 (a log made of the save's choices) has nothing to be made of; route 3 (a bots-only game with
    # the same seed) has no seed: neither was in any response (test above). Once over, the save is open.
    while g["status"] == "running":
        g = pick(c, g, 0).json()
    assert c.get(f"/api/games/{g['id']}/save").json()["seed"] == t.s.seed


def test_a_key_given_to_the_app_opens_its_saves_after_a_restart():
    from cryptography.fernet import Fernet
    key = Fernet.generate_key()
    a = client(create_app(SPECS, hosts=("testserver",), key=key))
    g = a.post("/api/games", json={"spec": "goofspiel", "players": 2, "seats": ["person", "random"]}).json()
    save = a.get(f"/api/games/{g['id']}/save").json()
    b = client(create_app(SPECS, hosts=("testserver",), key=key))  # the same key: a restarted server
    r = b.post("/api/games/load", json=save)
    assert r.status_code == 201 and r.json()["decision"]["options"] == g["decision"]["options"]


SEALED = [("goofspiel", 2), ("sushi_go", 2)]


@pytest.mark.parametrize("spec,players", SEALED, ids=[s for s, _ in SEALED])
def test_a_sealed_bid_is_in_no_artefact_before_the_person_bids(app, spec, players):
    """The bot (P1) bids first, the person (P2) second: whatever the bot bid, P2's table and P2's save are
    the same, byte for byte, but for the seal itself."""
    g = app.state.table.game(spec, {}, {})
    settings = lambda: Settings(spec, players, 77, seats=["random", "person"])  # noqa: E731
    first = Table(g, settings(), bots=False)
    assert first.st.pplayer == 0
    sealer = Sealer()
    views, saves = set(), set()
    for bid in range(len(first.st.popts)):
        t = Table(g, settings(), [bid], bots=False)
        assert t.st.pplayer == 1 and t.pending_person() == 1
        v = seat_json(t, 1)
        views.add(json.dumps(v, sort_keys=True))
        s = t.save(sealer.seal)
        assert "choices" not in s and "seed" not in s
        saves.add(json.dumps({k: x for k, x in s.items() if k != "sealed"}, sort_keys=True))
        assert sealer.unseal(s["sealed"])["choices"] == [bid]  # the seal holds it, for the server only
    assert len(views) == 1 and len(saves) == 1, "the bot's sealed bid shows in the person's table or save"


def test_hot_seat_sealed_bids_are_sealed_from_the_next_person_too(app):
    """Two people at one screen: P1's bid is not in P2's table nor in a save made before P2 bids."""
    c = client(app)
    g = c.post("/api/games", json={"spec": "goofspiel", "players": 2, "seats": ["person", "person"],
                                   "hotseat": True}).json()
    bid = g["decision"]["options"][-1]  # P1 bids the 13
    g = pick(c, g, len(g["decision"]["options"]) - 1).json()
    assert g["viewer"] == 1 and bid in g["decision"]["options"]  # P2 still holds their own 13
    p1 = [line["text"] for line in g["log"] if line["player"] == 0 and line["kind"] == "choice"]
    assert p1 and all(bid not in text for text in p1)
    save = c.get(f"/api/games/{g['id']}/save").json()
    assert "choices" not in save and save["choices_made"] == 1


def test_serves_key_file_is_made_once_kept_and_never_read_from_a_fifo(tmp_path):
    from interpreter.web.sealing import persistent_key
    path = str(tmp_path / "state" / "rulewright" / "table-save.key")
    key, why = persistent_key(path)
    assert key and why is None and os.stat(path).st_mode & 0o777 == 0o600
    assert persistent_key(path) == (key, None)  # the same key after a restart
    fifo = str(tmp_path / "fifo.key")
    os.mkfifo(fifo)
    key, why = persistent_key(fifo)  # returns at once, with the reason
    assert key is None and "not a regular file" in why


def test_a_game_without_undo_stays_without_it_through_a_sealed_save(app):
    """Undo lets a player look ahead (the same deal comes back); a game that counts switches it off."""
    c = client(app)
    g = c.post("/api/games", json={"spec": "goofspiel", "players": 2, "seats": ["person", "random"],
                                   "undo": False}).json()
    g = pick(c, g, 0).json()
    assert not g["can_undo"] and g["settings"]["undo"] is False
    r = c.post(f"/api/games/{g['id']}/undo", json={})
    assert r.status_code == 400 and "without undo" in r.json()["error"]
    save = c.get(f"/api/games/{g['id']}/save").json()
    loaded = c.post("/api/games/load", json={**save, "undo": True}).json()  # the clear field does not count
    assert loaded["settings"]["undo"] is False
    assert c.post(f"/api/games/{loaded['id']}/undo", json={}).status_code == 400
    assert c.post("/api/games", json={"spec": "goofspiel", "undo": "no"}).status_code == 400


def test_everything_shows_early_only_when_every_person_agrees(app):
    c = client(app)
    g = c.post("/api/games", json={"spec": "goofspiel", "players": 3, "seats": ["person", "person", "random"],
                                   "hotseat": True}).json()
    gid = g["id"]
    t = true_table(app, c, gid)
    g = c.post(f"/api/games/{gid}/reveal", json={"version": g["version"]}).json()  # P1 agrees
    assert g["agreed"] == [0] and not g["revealed"] and g["settings"]["seed"] is None
    assert "sealed" in c.get(f"/api/games/{gid}/save").json()
    assert c.post(f"/api/games/{gid}/replay", json={}).status_code == 403
    g = pick(c, g, 0).json()  # now P2 is shown, and agrees too
    assert g["viewer"] == 1
    g = c.post(f"/api/games/{gid}/reveal", json={"version": g["version"]}).json()
    assert g["revealed"] and g["settings"]["seed"] == t.s.seed and g["status"] == "running"
    assert c.get(f"/api/games/{gid}/save").json()["seed"] == t.s.seed
    assert c.post(f"/api/games/{gid}/replay", json={}).status_code == 201
    bots = c.post("/api/games", json={"spec": "goofspiel", "players": 2, "seats": ["random", "random"]}).json()
    r = c.post(f"/api/games/{bots['id']}/reveal", json={})
    assert r.status_code == 400 and "only a person" in r.json()["error"]
