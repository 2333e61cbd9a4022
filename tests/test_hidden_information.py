"""Hidden information: what a seat is shown never names a card that seat may not see (issue 18).

The ground truth here is independent of runtime/redact.py: the test plays every shipped spec step
by step with the full log, and for each seat collects the card labels that seat may know during a
step (its `State.view` before and after, and the cards of every logged move from or into a zone it
can see, from the spec's zone visibility). Every card label in what the seat is shown for that step
(the narration of `seat_events`, as `rulewright play` and `run --as-seat` print it) must be among them.
"""
import glob
import os
import random
import re

import pytest

from interpreter.api import load_game
from interpreter.agents.determinize import determinize
from interpreter.runtime.narrate import narrate
from interpreter.runtime.engine import Status
from interpreter.runtime.redact import HIDDEN, seat_events, seat_labels

from helpers import random_walk

SHIPPED = sorted(glob.glob("games/*.yaml"))


def _visible_zones(game, players, seat):
    out = set()
    for z in game.spec.zones.values():
        names = [z.name] if z.owner == "shared" else [f"P{p + 1}.{z.name}" for p in range(players)]
        for name in names:
            if z.visibility == "public" or z.visibility == "owner" and name.startswith(f"P{seat + 1}."):
                out.add(name)
    return out


def _view_labels(view):
    return {lab for content in view["zones"].values() if isinstance(content, list) for lab in content}


def _labels_in(text, labels):
    """Card labels named in `text` (longest first, each occurrence counted once)."""
    found = []
    for lab in sorted(labels, key=len, reverse=True):
        pat = re.compile(r"(?<![\w])" + re.escape(lab) + r"(?![\w])")
        if pat.search(text):
            found.append(lab)
            text = pat.sub(" ", text)
    return found


def _check_game(path, players, seed, steps=400):
    game = load_game(path)
    labels = {c.label for c in game.spec.cards.values()}
    st = game.new_game(players, seed, log=True)
    rng = random.Random(seed)
    seen_zones = [_visible_zones(game, players, s) for s in range(players)]
    before = [_view_labels(st.view(s)) for s in range(players)]
    shown = 0
    checked = 0
    for _ in range(steps):
        if st.status is not Status.RUNNING:
            break
        st.apply(rng.randrange(len(st.popts)))
        new = st.log[shown:]
        shown = len(st.log)
        for s in range(players):
            after = _view_labels(st.view(s))
            known = before[s] | after
            for e in new:
                if e["e"] == "move" and (e["src"] in seen_zones[s] or e["dst"] in seen_zones[s]):
                    known |= set(e["cards"])
            for line in narrate(seat_events(new, game, players, s), verbose=True):
                for lab in _labels_in(line, labels):
                    assert lab in known, (f"{path} seed {seed}: P{s + 1} is shown '{lab}', which it may not "
                                          f"see: {line!r}")
                    checked += 1
            before[s] = after
    return checked


@pytest.mark.parametrize("path", SHIPPED, ids=[os.path.basename(p) for p in SHIPPED])
def test_no_seat_is_shown_a_card_it_may_not_see(path):
    game = load_game(path)
    checked = 0
    for players in sorted({game.spec.min_players, game.spec.max_players}):
        for seed in (1, 2):
            checked += _check_game(path, players, seed)
    if not game.card_label:  # a game without cards (Kalah, Can't Stop) has no card to hide
        assert checked == 0
        return
    assert checked > 50  # the narration did name cards: the test looked at something


def test_stunt_academy_hand_and_kept_card_are_hidden_from_others():
    """The audit's finding: P3's hand in the turn-start line, and the card a player keeps between semesters."""
    game = load_game("games/stunt-academy.yaml")
    st = game.new_game(3, 2, log=True)
    rng = random.Random(0)
    while st.status is Status.RUNNING and st.turn < 80:
        st.apply(rng.randrange(len(st.popts)))
    keeps = [i for i, e in enumerate(st.log)
             if e["e"] == "choice" and e["choice"].startswith("keep ") and e["choice"] != "keep nothing"]
    hands = [e for e in st.log if e["e"] == "say" and "; hand: " in e["text"] and "hand: nothing" not in e["text"]]
    assert keeps and hands
    k, h = st.log[keeps[0]], hands[0]
    other = (k["player"] + 1) % 3
    mine = seat_events(st.log, game, 3, k["player"])
    theirs = seat_events(st.log, game, 3, other)
    assert mine[keeps[0]]["choice"] == k["choice"]  # the full log and the chooser keep the card
    assert theirs[keeps[0]]["choice"] == f"keep {HIDDEN}"
    owner = int(h["text"][1]) - 1
    assert seat_events([h], game, 3, owner)[0]["text"] == h["text"]
    assert HIDDEN in seat_events([h], game, 3, (owner + 1) % 3)[0]["text"]
    assert "hidden" in h  # the full log says which spans are secret, and keeps the text


def test_seat_labels_hide_another_seats_cards():
    game = load_game("games/stunt-academy.yaml")
    st = game.new_game(3, 2)
    rng = random.Random(3)
    while st.status is Status.RUNNING:
        d = st.decision()
        if any(lab.startswith("keep ") and lab != "keep nothing" for lab in d.labels):
            break
        st.apply(rng.randrange(len(st.popts)))
    d = st.decision()
    assert seat_labels(st, d.player) == d.labels
    other = seat_labels(st, (d.player + 1) % 3)
    assert any(HIDDEN in lab for lab in other) and "keep nothing" in other


@pytest.mark.parametrize("path", SHIPPED, ids=[os.path.basename(p) for p in SHIPPED])
def test_pettingzoo_observation_depends_only_on_the_seats_view(path):
    """Re-dealing every card a seat cannot see leaves its observation unchanged."""
    pytest.importorskip("pettingzoo")
    from interpreter.pettingzoo_env import Encoder
    game = load_game(path)
    n = game.spec.min_players
    enc = Encoder(game, n)
    st = game.new_game(n, 5)
    rng = random.Random(5)
    for _ in range(150):
        if st.status is not Status.RUNNING:
            break
        for seat in range(n):
            det = determinize(st, seat, random.Random(rng.random()))
            assert (enc.encode(st, seat) == enc.encode(det, seat)).all(), f"P{seat + 1} observes hidden cards"
        st.apply(rng.randrange(len(st.popts)))


def _hands_named(output: str, game, seat: int) -> list[str]:
    """Lines of `output` that name a card in another seat's turn-start hand line."""
    labels = {c.label for c in game.spec.cards.values()}
    bad = []
    for line in output.splitlines():
        m = re.match(r"\s*P(\d) has \d+ AP; hand: (.*?); row", line)
        if m and int(m.group(1)) != seat and any(lab in m.group(2) for lab in labels):
            bad.append(line)
    return bad


def test_play_shows_another_seats_hand_as_hidden():
    """`rulewright play` at seat 1 of Stunt Academy: the other seats' hands and kept cards are hidden."""
    from click.testing import CliRunner
    from interpreter.cli.commands import cli
    r = CliRunner().invoke(cli, ["play", "games/stunt-academy.yaml", "--seat", "1", "-p", "3", "--seed", "2"],
                           input="".join(f"{x}\n" for x in ["1"] * 120 + ["quit"]))
    assert r.exit_code == 0, r.output
    game = load_game("games/stunt-academy.yaml")
    assert "P2 has " in r.output and HIDDEN in r.output
    assert _hands_named(r.output, game, 1) == []


def test_run_as_seat_narrates_one_seats_view_and_the_log_keeps_everything(tmp_path):
    from click.testing import CliRunner
    from interpreter.cli.commands import cli
    log = tmp_path / "g.jsonl"
    full = CliRunner().invoke(cli, ["run", "games/stunt-academy.yaml", "-p", "3", "--seed", "2", "--log", str(log)])
    seat = CliRunner().invoke(cli, ["run", "games/stunt-academy.yaml", "-p", "3", "--seed", "2", "--as-seat", "2"])
    assert full.exit_code == 0 and seat.exit_code == 0, seat.output
    game = load_game("games/stunt-academy.yaml")
    assert _hands_named(full.output, game, 2)  # the onlooker-free narration names every hand
    assert _hands_named(seat.output, game, 2) == []
    assert '"hidden"' in log.read_text()
    bad = CliRunner().invoke(cli, ["run", "games/stunt-academy.yaml", "-p", "3", "--as-seat", "4"])
    assert bad.exit_code == 2 and "the game has 3 players" in bad.output


def test_a_card_played_face_up_is_no_secret_in_its_choice():
    """Love Letter: "play: Baron" is judged where the Baron ends up (face up), not where it lay (a hand)."""
    game = load_game("games/love_letter.yaml")
    played = 0
    for seed in range(1, 6):
        st = game.new_game(2, seed, log=True)
        rng = random.Random(seed)
        random_walk(st, rng)
        for seat in (0, 1):
            for full, shown in zip(st.log, seat_events(st.log, game, 2, seat)):
                if full["e"] == "choice" and full["choice"].startswith("play: "):
                    assert shown["choice"] == full["choice"], (seed, seat, full)
                    played += 1
    assert played > 5
    # what stays in a hand stays secret: the kept card of Stunt Academy is still hidden (test above)
