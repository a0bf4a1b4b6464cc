"""``score play --online`` in real browsers: one headless Chromium per human seat (Debian's
``chromium`` and ``chromium-driver``), each at 390 px as a phone, plays a whole game by
clicking its page's buttons.

Set SCOREKEEPER_SCREENSHOT=docs/online-seat.png to keep a seat page's screenshot (the
README's picture is made that way).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import pooled_chromium
from deadlines import SCALE
from online import Online, online_game
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}




@pytest.fixture(scope="module")
def phones() -> Iterator[list[webdriver.Chrome]]:
    """Two headless Chromiums at a phone's size, one per human seat (from the pool)."""
    with pooled_chromium(420) as ann, pooled_chromium(420) as bea:
        for driver in (ann, bea):
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
        yield [ann, bea]


def click_a_move(driver: webdriver.Chrome, declare_when_allowed: bool) -> bool:
    """Make a move on the page if it offers one: with cards to pick, the first card of
    the hand (one card is always a legal discard) then the last enabled button, or the
    button that needs no pick (declare) when allowed. Whether a move was clicked."""
    try:
        buttons = driver.find_elements(By.CSS_SELECTOR, "section.moves button.move")
        if not buttons:
            return False
        picks = driver.find_elements(By.CSS_SELECTOR, "section.moves .pick button")
        if picks:
            free = [b for b in buttons if b.is_enabled()]
            if declare_when_allowed and free:
                free[-1].click()
                return True
            if not driver.find_elements(By.CSS_SELECTOR, ".pick button.chosen"):
                picks[0].click()
            enabled = [b for b in driver.find_elements(By.CSS_SELECTOR,
                                                       "section.moves button.move")
                       if b.is_enabled()]
            if not enabled:
                return False
            enabled[-1].click()
            return True
        enabled = [b for b in buttons if b.is_enabled()]
        if not enabled:
            return False
        enabled[0].click()
        return True
    except (StaleElementReferenceException, WebDriverException):
        return False  # the page was redrawn under the click: look again


def layout(driver: webdriver.Chrome) -> dict[str, Any]:
    result: dict[str, Any] = driver.execute_script(
        "return {inner: window.innerWidth, scroll: document.scrollingElement.scrollWidth};")
    return result


def play_in_browsers(online: Online, drivers: list[webdriver.Chrome],
                     declare: bool, timeout: float = 240) -> None:
    names = list(online.table.seats)
    for driver, name, lang in zip(drivers, names, ("en", "ar"), strict=False):
        driver.get(f"{online.seat_url(name)}?lang={lang}")
    online.play()
    deadline = time.monotonic() + timeout * SCALE
    widths_checked = False
    assert online.thread is not None
    while online.thread.is_alive():
        assert time.monotonic() < deadline, "the game did not end"
        moved = False
        for driver in drivers:
            if not widths_checked and driver is drivers[0] and driver.find_elements(By.CSS_SELECTOR,
                                                           "section.moves .pick button"):
                driver.find_element(By.CSS_SELECTOR, "section.moves .pick button").click()
                shown = layout(driver)
                assert shown["inner"] == PHONE["width"]
                assert shown["scroll"] <= shown["inner"], shown
                widths_checked = True
                keep = os.environ.get("SCOREKEEPER_SCREENSHOT")
                if keep:
                    Path(keep).write_bytes(driver.get_screenshot_as_png())
            moved = click_a_move(driver, declare) or moved
        if not moved:
            time.sleep(0.05)
    assert widths_checked or not declare


@pytest.mark.e2e
def test_two_phones_play_a_whole_game_of_least_score(tmp_path: Path,
                                                     phones: list[webdriver.Chrome]) -> None:
    with online_game(tmp_path, "least-score", ["Ann", "Bea"], ["random"], 41,
                     {"limit": 10}) as online:
        play_in_browsers(online, phones, declare=True)
        session = online.finish()
        assert session.finished
        for driver in phones:
            text = driver.find_element(By.TAG_NAME, "main").text
            logs = driver.get_log("browser")
            assert not [e for e in logs if "Content Security Policy" in e["message"]], logs
            assert text
        arabic = phones[1]
        assert arabic.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl"
        awake = phones[0].find_element(By.ID, "awake").text
        assert awake  # kept awake, or how to keep it awake


@pytest.mark.slow
@pytest.mark.e2e
def test_two_phones_play_a_whole_game_of_one_card(tmp_path: Path,
                                                  phones: list[webdriver.Chrome]) -> None:
    with online_game(tmp_path, "one-card", ["Ann", "Bea"], ["random"], 42,
                     {"target": 20}) as online:
        play_in_browsers(online, phones, declare=False, timeout=900)
        assert online.finish().finished


@pytest.mark.e2e
def test_one_card_moves_are_buttons_that_play(tmp_path: Path,
                                              phones: list[webdriver.Chrome]) -> None:
    """A deal of One Card by clicks: the bids, the cards, the joker's suit are buttons."""
    with online_game(tmp_path, "one-card", ["Ann", "Bea"], ["random"], 43,
                     {"target": 20}) as online:
        names = list(online.table.seats)
        for driver, name in zip(phones, names, strict=True):
            driver.get(online.seat_url(name))
        online.play()
        deadline = time.monotonic() + 120
        while not online.table.session.rounds:
            assert time.monotonic() < deadline, "the first deal did not end"
            if not any([click_a_move(driver, False) for driver in phones]):
                time.sleep(0.05)
        assert online.table.session.rounds[0].to_json()["actions"]


@pytest.mark.e2e
def test_without_the_wake_lock_api_the_page_says_how_to_keep_the_screen_on(
        tmp_path: Path, phones: list[webdriver.Chrome]) -> None:
    """A browser that can't keep the screen on (no Screen Wake Lock API, as over plain
    http on a network address) is told to set a longer screen timeout; with the API the
    page says the screen stays on."""
    driver = phones[0]
    with online_game(tmp_path, "one-card", ["Ann"], ["random"], 44, {"target": 20}) as online:
        driver.get(online.seat_url("Ann"))
        wait = WebDriverWait(driver, 10 * SCALE, poll_frequency=0.05)
        wait.until(lambda d: d.find_element(By.ID, "awake").text)
        assert "stays on" in driver.find_element(By.ID, "awake").text
        script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": "delete Navigator.prototype.wakeLock;"})
        try:
            driver.get(online.seat_url("Ann"))
            wait.until(lambda d: d.find_element(By.ID, "awake").text)
            assert "screen timeout" in driver.find_element(By.ID, "awake").text
        finally:
            driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                                   {"identifier": script["identifier"]})
