"""The table's page driven in a real headless Chromium (Debian's), through Playwright for Python.

A real server on loopback; the tests click what a designer clicks: start a game, take an option, ask
why an action is refused, undo and redo, save and load, hot-seat hand-over, step through an uploaded
log, run the ambiguity lab and read its report, run a variant search from the lab tab's Tune page (a bad
target shown as its diagnostics), read its table and download the best variant. The page must raise no script error. Screenshots of
the table and of the lab go to the test's folder (and to /work/wt/screens/ when it exists, or to
$RULEWRIGHT_SCREENS). Skipped, with the reason, where /usr/bin/chromium or playwright is missing.
"""
from __future__ import annotations

import json
import re

import pytest

from web_helpers import chromium, need_chromium, running, screenshot

need_chromium()
pytest.importorskip("uvicorn")

from interpreter import api  # noqa: E402
from interpreter.runtime.gamelog import header, lines  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402

SPECS = ["games/stun.yaml", "games/stunt-academy.yaml", "tests/specs/secrets.yaml", "tests/specs/tune_planted.yaml"]


@pytest.fixture(scope="module")
def url():
    with running(create_app(SPECS)) as u:
        yield u


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture()
def page(browser, url):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url + "/")
    pg.wait_for_selector("body[data-ready='1']")
    yield pg
    ctx.close()
    assert not errors, f"script errors on the page: {errors}"


def new_game(pg, spec: str, players: int, seed: int | None, seats: list[str], hotseat: bool = False) -> None:
    pg.select_option("#spec", spec)
    pg.fill("#players", str(players))
    pg.dispatch_event("#players", "change")
    pg.fill("#seed", "" if seed is None else str(seed))
    for k, s in enumerate(seats):
        pg.select_option(f"#seat{k}", s)
    if hotseat:
        pg.check("#hotseat")
    pg.click("#start")
    pg.wait_for_selector("#game:not([hidden]), #handover:not([hidden])")


def test_play_why_not_undo_redo_and_the_table_screenshot(page, tmp_path):
    new_game(page, "stunt-academy", 3, 7, ["person", "random", "greedy"])
    assert "viewing as P1" in page.inner_text("#status")
    assert page.locator("[data-zone='P1.hand']").count() == 1
    assert page.locator("[data-zone='P2.hand'].hidden-zone").count() == 1  # another seat's hand: backs only
    before = page.locator("#log li").count()
    first = page.locator(".option").first.inner_text()
    choose(page)
    assert page.locator("#log li").count() > before
    assert first.split(": ")[-1] in page.inner_text("[data-zone='P1.hand']")  # the course taken is in the hand
    assert "register for an offered course" in page.inner_text("#log blockquote.rule >> nth=-1")  # the rulebook
    page.locator(".refused-action[data-action='meld']").click()
    why = page.inner_text("#whynot")
    assert "Why not" in why and "meld a collection" in why and "stunt-academy.yaml:" in why
    assert "null" not in why
    screenshot(page, "table.png", tmp_path, full_page=True)
    page.click("#undo")
    page.wait_for_function(f"document.querySelectorAll('#log li').length === {before}")
    assert page.is_enabled("#redo")
    page.click("#redo")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    assert first.split(": ")[-1] in page.inner_text("[data-zone='P1.hand']")


def choose(page, which: int = 0) -> None:
    """Click an option and wait until the table shows the game after it."""
    before = page.get_attribute("body", "data-choices")
    page.locator(".option").nth(which).click()
    page.wait_for_function(f"document.body.dataset.choices !== '{before}'")


def test_a_game_played_to_its_end(page):
    new_game(page, "secrets", 2, 3, ["person", "random"])
    for _ in range(40):
        if page.locator(".option").count() == 0:
            break
        choose(page, page.locator(".option").count() - 1)
    assert "Game over" in page.inner_text("#status")
    assert "wins" in page.inner_text("#log") or "win" in page.inner_text("#log")


def test_hot_seat_hands_the_screen_over(page):
    new_game(page, "secrets", 2, 5, ["person", "person"], hotseat=True)
    assert page.is_hidden("#game") and "Pass the screen to P1" in page.inner_text("#handover")
    page.click("#handover-ok")
    assert "viewing as P1" in page.inner_text("#status")
    p1_hand = page.inner_text("[data-zone='P1.hand']")
    choose(page)  # P1 plays a card ...
    page.locator(".option").first.click()  # ... this one; now it is P2's turn
    page.wait_for_selector("#handover:not([hidden])")
    assert page.is_hidden("#game")  # P2's cards are not on the screen before P2 is at it
    assert "Pass the screen to P2" in page.inner_text("#handover")
    page.click("#handover-ok")
    assert "viewing as P2" in page.inner_text("#status")
    assert page.locator("[data-zone='P1.hand'].hidden-zone").count() == 1
    assert page.locator("[data-zone='P2.hand'].hidden-zone").count() == 0
    assert page.inner_text("[data-zone='P2.hand']") != p1_hand


def _pass_screen(page, to: str) -> None:
    page.wait_for_selector("#handover:not([hidden])")
    assert page.is_hidden("#game") and f"Pass the screen to {to}" in page.inner_text("#handover")
    assert page.locator("#zones .card:not(.back)").count() == 0  # no seat's cards drawn under the cover
    page.click("#handover-ok")
    page.wait_for_selector("#game:not([hidden])")
    assert f"viewing as {to}" in page.inner_text("#status")


def test_hot_seat_covers_the_screen_on_undo_and_redo(page):
    """The review: Undo showed the previous person's hand without the cover (issue 23, finding 3)."""
    new_game(page, "secrets", 2, 5, ["person", "person"], hotseat=True)
    _pass_screen(page, "P1")
    p1_hand = page.inner_text("[data-zone='P1.hand']")
    choose(page)
    page.locator(".option").first.click()  # P1's card: now P2's turn
    _pass_screen(page, "P2")
    p2_hand = page.inner_text("[data-zone='P2.hand']")
    assert p2_hand != p1_hand
    page.click("#undo")  # P2 takes P1's move back: P1's hand must not show to P2
    _pass_screen(page, "P1")
    assert page.locator("[data-zone='P2.hand'].hidden-zone").count() == 1
    page.click("#redo")
    _pass_screen(page, "P2")
    assert page.locator("[data-zone='P1.hand'].hidden-zone").count() == 1


def test_a_double_click_on_an_option_chooses_once(page):
    counts = []
    for click in ("click", "dblclick"):
        new_game(page, "stun", 2, 9, ["person", "random"])
        assert "seed kept by the table" in page.inner_text("#status")  # a person's game in play
        before = page.get_attribute("body", "data-choices")
        getattr(page.locator(".option").first, click)()
        page.wait_for_function(f"document.body.dataset.choices !== '{before}'")
        page.wait_for_timeout(300)
        counts.append((page.get_attribute("body", "data-choices"), page.locator("#log li").count()))
        page.click("#new-game")
    assert counts[0] == counts[1], "a double click chose twice"


EVIL = """<!doctype html><title>evil</title><body><iframe name="sink"></iframe><script>
(async () => {
  const q = new URLSearchParams(location.search), T = q.get("t"), G = q.get("g"), D = +q.get("d");
  const body = JSON.stringify({ option: 0, decision: D });
  const tries = [
    // a "simple" request: no preflight, the cookie goes along (same site: 127.0.0.1, another port)
    () => fetch(`${T}/api/games/${G}/choose`, { method: "POST", mode: "no-cors", credentials: "include",
                                               headers: { "content-type": "text/plain" }, body }),
    () => fetch(`${T}/api/games/${G}/undo`, { method: "POST", mode: "no-cors", credentials: "include", body: "{}" }),
    // JSON, or a DELETE: the browser asks first (CORS preflight), and the table never says yes
    () => fetch(`${T}/api/games/${G}/choose`, { method: "POST", credentials: "include",
                                               headers: { "content-type": "application/json" }, body }),
    () => fetch(`${T}/api/games/${G}`, { method: "DELETE", credentials: "include" }),
  ];
  for (const t of tries) { try { await t(); } catch (e) {} }
  // a form posted as text/plain, into a frame
  const f = document.createElement("form");
  f.method = "POST"; f.enctype = "text/plain"; f.target = "sink"; f.action = `${T}/api/games/${G}/choose`;
  const i = document.createElement("input"); i.name = body.slice(0, -1) + ', "x": "'; i.value = '"}';
  f.append(i); document.body.append(f); f.submit();
  await new Promise((r) => setTimeout(r, 500));
  // and a flood of looks without the table's cookie (the review: 200 of them evicted every session)
  await Promise.all(Array.from({ length: 200 }, () => fetch(`${T}/api/specs`, { mode: "no-cors",
                                                                           credentials: "omit" }).catch(() => 0)));
  document.title = "done";
})();
</script></body>"""


def test_a_page_on_another_origin_changes_nothing(page, browser):
    """The review: a page on another site POSTed text/plain to the table and evicted sessions with cookie-less
    requests, and so deleted a game in Chromium (issue 23, finding 6). Here the other page is on the same
    host, another port: the same site, so the browser even sends the table's cookie along."""
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route
    evil = Starlette(routes=[Route("/", lambda request: HTMLResponse(EVIL))])
    new_game(page, "stun", 2, 9, ["person", "random"])
    gid, decision = page.evaluate("[GAME.id, GAME.decision.id]")
    before = page.get_attribute("body", "data-choices")
    table = page.url.rstrip("/")
    with running(evil) as evil_url:
        other = page.context.new_page()
        other.goto(f"{evil_url}/?t={table}&g={gid}&d={decision}")
        other.wait_for_function("document.title === 'done'", timeout=30_000)
        other.close()
    now = page.evaluate(f"fetch('/api/games/{gid}').then((r) => r.json())")
    assert "error" not in now, now  # the game is still there
    assert str(now["choices"]) == before and now["decision"]["id"] == decision  # and unchanged


def test_save_then_load_gives_the_same_table(page, tmp_path):
    new_game(page, "stun", 2, 9, ["person", "random"])
    choose(page)
    status = page.inner_text("#status")
    zones = page.inner_text("#zones")
    with page.expect_download() as dl:
        page.click("#save")
    saved = tmp_path / "game.table.json"
    dl.value.save_as(saved)
    d = json.loads(saved.read_text())
    assert d["spec"] == "stun" and "sealed" in d and "seed" not in d and "choices" not in d
    page.click("#new-game")
    page.evaluate("delete document.body.dataset.choices")
    page.set_input_files("#load-file", str(saved))
    page.wait_for_selector("body[data-choices]")
    assert page.inner_text("#status") == status and page.inner_text("#zones") == zones


def test_a_bad_save_shows_the_reason(page, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"rulewright_table": 1, "spec": "chess"}))
    page.set_input_files("#load-file", str(bad))
    page.wait_for_selector("#error:not([hidden])")
    assert "unknown spec" in page.inner_text("#error")


def test_an_uploaded_log_is_stepped_through_with_the_slider(page, tmp_path):
    path = "tests/specs/secrets.yaml"
    game = api.load_game(path)
    st = api.play(game, 2, 4, log=True)
    log = tmp_path / "secrets.jsonl"
    log.write_text("\n".join(lines(header(path, game, 2, 4, {}), st.log)) + "\n")
    page.click("#tab-logs")
    page.set_input_files("#log-file", str(log))
    page.wait_for_selector("#log-game:not([hidden])")
    n = len(st.choices)
    page.wait_for_function(f"document.getElementById('log-pos').textContent === 'step 0 of {n}'")
    page.fill("#log-step", str(n))
    page.dispatch_event("#log-step", "input")
    page.wait_for_function(f"document.getElementById('log-pos').textContent === 'step {n} of {n}'")
    assert "Game over" in page.inner_text("#log-status")
    page.click("#log-prev")
    page.wait_for_function(f"document.getElementById('log-pos').textContent === 'step {n - 1} of {n}'")
    page.select_option("#log-seat", "2")
    page.wait_for_function("document.getElementById('log-status').textContent.includes('viewing as P2')")
    assert page.locator("#log-zones [data-zone='P1.hand'].hidden-zone").count() == 1
    assert page.locator("#log-zones [data-zone='P2.hand'].hidden-zone").count() == 0


def test_the_lab_runs_from_the_page_and_shows_its_report(page, tmp_path):
    page.click("#tab-lab")
    page.select_option("#lab-spec", "stun")
    page.fill("#lab-players", "2")
    page.fill("#lab-games", "60")
    for box in page.locator("#lab-ambiguities input").all():
        if box.get_attribute("value") not in ("win_timing", "lost_chips"):
            box.uncheck()
    page.click("#lab-start")
    page.wait_for_selector("#lab-report:not([hidden])", timeout=120_000)
    assert "done: 60 of 60" in page.inner_text("#lab-count")
    settings = page.inner_text("#lab-settings")
    assert "null" not in settings and "max_games" not in settings  # an unset setting is left out
    assert re.search(r"seconds: \d+(\.\d{1,4})? s", settings), settings  # rounded, with its unit
    assert "wins \u00b10.02" in page.inner_text("#lab-margins")
    sections = page.locator("section.ambiguity")
    assert sorted(s.get_attribute("data-ambiguity") for s in sections.all()) == ["lost_chips", "win_timing"]
    assert page.locator("section.ambiguity .verdict").count() >= 4  # each ambiguity and each reading
    page.wait_for_function("[...document.querySelectorAll('img.plot')].every(i => i.complete && i.naturalWidth > 0)")
    assert page.locator("img.plot").count() == 2
    screenshot(page, "lab.png", tmp_path)


def test_a_search_runs_from_the_tune_page_and_its_best_variant_downloads(page, tmp_path):
    page.click("#tab-lab")
    page.click("#sub-tune")
    assert page.is_visible("#tune-form") and not page.is_visible("#lab-form")
    page.select_option("#tune-spec", "tune_planted")
    assert page.locator("#tune-vary div.vary").count() == 2  # the spec's own options, nothing typed
    row = page.locator("#tune-vary div.vary[data-name='line']")
    assert row.locator("input.vary-value").first.is_disabled()  # until the name is ticked
    row.locator("input.vary-name").check()
    row.locator("input.vary-value[value='20']").uncheck()  # line = 35, 50, 65, 80
    assert page.inner_text("#tune-space").startswith("4 variants; every one is played")
    page.fill("#tune-players", "2")
    page.fill("#tune-seed", "3")
    page.fill("#tune-games", "50")
    page.fill("#tune-max-games", "400")
    page.fill("#tune-targets", "win P1 30%..70%\nwins spread <= 40")
    page.click("#tune-start")
    page.wait_for_selector("#tune-diagnostics:not([hidden])")
    diags = page.inner_text("#tune-diagnostics")
    assert "--target:2:16: error[E702]" in diags and "write points: 40pt is 0.4" in diags
    assert "cannot be read" in page.inner_text("#error")
    page.fill("#tune-targets", "win P1 30%..70%\nwins spread <= 40pt")
    page.click("#tune-start")
    page.wait_for_selector("#tune-report:not([hidden])", timeout=120_000)
    assert page.is_hidden("#tune-diagnostics")
    assert "done: 4 of 4 variants" in page.inner_text("#tune-count")
    rows = page.locator("table.tune-table tbody tr")
    assert rows.count() == 4
    first = rows.first
    assert first.get_attribute("data-variant") == "line=50"
    assert first.locator(".verdict-true").count() == 1 and first.locator(".verdict-inside").count() == 2
    assert page.locator("table.tune-table .verdict-outside").count() >= 2  # line=80: both targets surely missed
    assert page.locator("table.tune-table .verdict-undecided").count() >= 1
    assert "meet every target: 1; undecided: 2; fail: 1" in page.inner_text("section.tune-search")
    assert "line=50" in page.inner_text(".tune-pareto") and "best: line=50 (meets: true)" in page.inner_text(".tune-best")
    page.wait_for_function("[...document.querySelectorAll('#tune-report img.plot')].every(i => i.complete && i.naturalWidth > 0)")
    assert page.locator("#tune-report img.plot").count() == 2
    with page.expect_download() as info:
        page.click("#tune-download")
    d = info.value
    assert d.suggested_filename == "tune_planted-tuned.yaml"
    text = open(d.path(), encoding="utf-8").read()
    assert "extends: tune_planted.yaml" in text and "options.line.default: 50" in text
    checked, diags = api.check_spec("tests/specs/tune_planted-tuned.yaml", text)  # as saved beside the spec
    assert checked is not None, diags
    screenshot(page, "tune.png", tmp_path, full_page=True)


def test_a_bot_game_is_watched_from_any_seat_and_stepped_through(page):
    new_game(page, "secrets", 2, 6, ["random", "greedy"])
    assert "Game over" in page.inner_text("#status")
    assert page.is_visible("#watch")
    assert page.locator("[data-zone='P1.hand'].hidden-zone").count() == 1  # a spectator first
    page.select_option("#watch-seat", "1")
    page.wait_for_function("document.getElementById('status').textContent.includes('viewing as P1')")
    assert page.locator("[data-zone='P1.hand'].hidden-zone").count() == 0
    page.click("#to-slider")
    page.wait_for_selector("#logs:not([hidden]) #log-game:not([hidden])")
    page.wait_for_function("/^step \\d+ of \\d+$/.test(document.getElementById('log-pos').textContent)")
    assert page.inner_text("#log-pick").startswith("game ")
