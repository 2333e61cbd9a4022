"""Shared helpers of the web table's tests (not a test module): a real server on loopback, Chromium.

`running(app)` serves an app with uvicorn on 127.0.0.1 on a free port, in a thread, for the length of a
`with` block. `chromium()` is Playwright pointed at the Debian browser (never a downloaded one); the
browser tests skip, saying why, where /usr/bin/chromium or the playwright package is missing.
"""
from __future__ import annotations

import contextlib
import os
import threading
import time

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run"]
SCREENS = os.environ.get("RULEWRIGHT_SCREENS") or ("/work/wt/screens" if os.path.isdir("/work/wt") else None)


@contextlib.contextmanager
def running(app):
    from interpreter.web.server import address, bind, make_server
    sock = bind("127.0.0.1", 0)
    server = make_server(app, sock)
    t = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    t.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "the server did not start"
    try:
        yield address(sock).rstrip("/")
    finally:
        server.should_exit = True
        t.join(10)
        sock.close()


def need_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"headless Chromium not found at {CHROMIUM}: install it with "
                    "`apt-get update && apt-get install -y chromium` (see docs/guides/table.md)",
                    allow_module_level=True)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("the playwright package is missing: pip install -e '.[test]'", allow_module_level=True)


@contextlib.contextmanager
def chromium():
    need_chromium()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def screenshot(page, name: str, tmp_path, full_page: bool = False) -> str:
    """Save a screenshot in the test's folder, and in SCREENS for the closing note when there is one."""
    path = str(tmp_path / name)
    page.screenshot(path=path, full_page=full_page)
    if SCREENS:
        os.makedirs(SCREENS, exist_ok=True)
        page.screenshot(path=os.path.join(SCREENS, name), full_page=full_page)
    return path
