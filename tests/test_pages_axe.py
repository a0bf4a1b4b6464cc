"""Every phone page passes axe-core at 390 px (issue 40.5): ``score serve``'s session,
sessions and statistics pages, a player's entry page, a seat's page of ``score play
--online`` and its public table, and the HTML export, each checked in headless Chromium
with axe-core (the ``axe-core-python`` package ships it) once the page has drawn itself.
Zero violations, whatever their impact."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_core_python.selenium import Axe
from browsers import pooled_chromium
from conftest import CLI
from deadlines import deadline
from online import online_game
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from scorekeeper.store import Store
from scorekeeper.web.entry import EntrySite, entry_server
from scorekeeper.web.server import Site, ViewerServer

pytestmark = pytest.mark.e2e

NAMES = ["Ann", "Bartholomew Quincy", "Cy", "Greedy-2"]


@pytest.fixture(scope="module")
def phone() -> Iterator[webdriver.Chrome]:
    with pooled_chromium(390) as driver:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        yield driver


def violations(driver: webdriver.Chrome, url: str, drawn: str) -> list[dict[str, Any]]:
    """axe-core's violations on the page at ``url``, once ``drawn`` (a CSS selector) is
    on it."""
    driver.get(url)
    WebDriverWait(driver, deadline(30), poll_frequency=0.1).until(
        lambda found: found.find_elements(By.CSS_SELECTOR, drawn))
    result = Axe().run(driver)
    return [{"id": found["id"], "impact": found["impact"],
             "where": [node["target"] for node in found["nodes"]][:3]}
            for found in result["violations"]]


@pytest.fixture
def nights(ok: CLI, db_path: Path) -> Path:
    players = [arg for name in NAMES for arg in ("--player", name)]
    ok("new", "one-card", *players[:6], "--target", "10", "--dealer", "Ann")
    ok("add-round", "--bidder", "Cy", "--bid", "7", "Ann=2", "Bartholomew Quincy=6", "Cy=7")
    ok("new", "least-score", *players, "--limit", "40", "--dealer", "Ann", "--name",
       "Friday")
    for number in range(1, 6):
        ok("add-round", "--declarer", "Cy", "Ann=5", f"Bartholomew Quincy={3 + number}",
           "Cy=2", "Greedy-2=9")
    ok("play", "least-score", "--bot", "greedy", "--bot", "random", "--seed", "3",
       "--limit", "30")
    return db_path


def test_every_page_has_no_axe_violation_at_390_px(
        nights: Path, phone: webdriver.Chrome, ok: CLI, tmp_path: Path) -> None:
    found: dict[str, list[dict[str, Any]]] = {}
    site = Site(nights, secrets.token_urlsafe(16))
    server = ViewerServer(("127.0.0.1", 0), site)
    site.watcher.start()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_port}/{site.token}/"
        for page in ("", "session/1", "sessions", "stats", "?lang=ar", "stats?lang=da"):
            found[page or "live"] = violations(phone, base + page, "#live.on")
            if page == "stats":  # a phone can't add --virtual: the page doesn't say to
                assert "--virtual" not in phone.page_source
                assert "1 game played on the virtual deck not counted" in phone.page_source
            if page == "sessions":  # the bots' game is marked, its names kept whole
                assert "(virtual)" in phone.page_source
                assert '<span class="nw">Greedy-1,</span>' in phone.page_source
    finally:
        site.stopped.set()
        site.watcher.stop()
        server.shutdown()
        server.server_close()
    entry = EntrySite(nights, secrets.token_urlsafe(16), Store(nights).read().get(2))
    served = entry_server(("127.0.0.1", 0), entry)
    threading.Thread(target=served.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{served.server_port}/{entry.desks['Ann'].token}/"
        found["entry"] = violations(phone, url, "form.entry")
    finally:
        entry.stopped.set()
        served.shutdown()
        served.server_close()
    export = tmp_path / "night.html"
    ok("export", "2", "--format", "html", "--output", export)
    found["export"] = violations(phone, export.as_uri(), "table")
    with online_game(tmp_path / "online", "least-score", ["Ann"], ["random"], 5,
                     {"limit": 25}) as online:
        online.play()
        found["seat"] = violations(phone, online.seat_url("Ann"), "#seat .hand")
        found["table"] = violations(phone, online.viewer_url, "#seat .totals")
    with online_game(tmp_path / "one", "one-card", ["Ann"], ["random", "random"], 6,
                     {"target": 20}) as online:
        online.play()
        found["one-card seat"] = violations(phone, online.seat_url("Ann"), "#seat .hand")
    assert {page: problems for page, problems in found.items() if problems} == {}
