"""A page people keep (issue 40.6): every phone page names a web app manifest and its
icons, so "Add to Home Screen" gives ``score serve``'s live page, a seat and a player's
entry page an icon and a name of their own, opening at that page's own address; and the
live page says when its connection is lost and comes back by itself."""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from browsers import pooled_chromium
from conftest import CLI
from deadlines import deadline
from online import online_game, request
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from scorekeeper.store import Store
from scorekeeper.web.entry import EntrySite, entry_server
from scorekeeper.web.server import Site, ViewerServer

pytestmark = pytest.mark.e2e

PNG = b"\x89PNG\r\n\x1a\n"


def check_kept(url: str, name: str) -> None:
    """The page at ``url`` names its manifest and icons; all are served, the manifest
    opening that page (its own folder) under ``name``."""
    status, headers, body = request(url)
    page = body.decode()
    assert status == 200
    assert '<link rel="manifest" href="manifest.webmanifest">' in page
    assert '<link rel="apple-touch-icon" href="icon-192.png">' in page
    assert "manifest-src 'self'" in headers["content-security-policy"]
    status, headers, body = request(url + "manifest.webmanifest")
    assert status == 200 and headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["name"] == name
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == \
        ("./", "./", "standalone")
    for icon in manifest["icons"]:
        status, headers, body = request(url + icon["src"])
        assert status == 200 and headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            assert body.startswith(PNG)
            width, height = int.from_bytes(body[16:20], "big"), int.from_bytes(body[20:24], "big")
            assert icon["sizes"] == f"{width}x{height}"
        else:
            assert body.startswith(b"<svg")


@pytest.fixture
def night(ok: CLI, db_path: Path) -> Path:
    ok("new", "least-score", "--player", "Ann", "--player", "Bob", "--dealer", "Ann")
    return db_path


def test_the_live_page_a_seat_and_an_entry_page_each_have_an_icon(
        night: Path, tmp_path: Path) -> None:
    site = Site(night, secrets.token_urlsafe(16))
    server = ViewerServer(("127.0.0.1", 0), site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_port}/{site.token}/"
        check_kept(base, "Scorekeeper")
    finally:
        site.stopped.set()
        server.shutdown()
        server.server_close()
    entry = EntrySite(night, secrets.token_urlsafe(16), Store(night).read().get(None))
    served = entry_server(("127.0.0.1", 0), entry)
    threading.Thread(target=served.serve_forever, daemon=True).start()
    try:
        check_kept(f"http://127.0.0.1:{served.server_port}/{entry.desks['Bob'].token}/",
                   "Bob's entry")
    finally:
        entry.stopped.set()
        served.shutdown()
        served.server_close()
    with online_game(tmp_path / "online", "one-card", ["Ann", "Bea"], ["random"], 3,
                     {"target": 20}) as online:
        check_kept(online.seat_url("Ann"), "Ann's seat")
        check_kept(online.viewer_url, "The table")
        arabic = json.loads(request(online.seat_url("Bea") + "manifest.webmanifest?lang=ar")[2])
        assert arabic["dir"] == "rtl" and arabic["lang"] == "ar" and "Bea" in arabic["name"]


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    with pooled_chromium(390) as driver:
        yield driver


def test_the_live_page_says_the_connection_is_lost_and_comes_back_by_itself(
        night: Path, browser: webdriver.Chrome, ok: CLI) -> None:
    token = secrets.token_urlsafe(16)

    def serve(port: int) -> tuple[Site, ViewerServer]:
        site = Site(night, token)
        server = ViewerServer(("127.0.0.1", port), site)
        site.watcher.start()
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                         daemon=True).start()
        return site, server

    def stop(site: Site, server: ViewerServer) -> None:
        site.stopped.set()
        site.watcher.stop()
        server.shutdown()
        server.server_close()

    site, server = serve(0)
    port = server.server_port
    wait = WebDriverWait(browser, deadline(30), poll_frequency=0.1)

    def live_says(words: str) -> bool:
        return browser.find_element(By.ID, "live").text == words

    try:
        browser.get(f"http://127.0.0.1:{port}/{token}/")
        wait.until(lambda _driver: live_says("Live: updates by itself."))
        stop(site, server)
        wait.until(lambda _driver: live_says("Connection lost: reconnecting…"))
        site, server = serve(port)  # the same address again, as `score serve` restarted
        wait.until(lambda _driver: live_says("Live: updates by itself."))
        ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=17")  # and it is live again
        wait.until(lambda _driver: "after 1 round" in browser.find_element(By.ID, "page").text)
    finally:
        stop(site, server)
