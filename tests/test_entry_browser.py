"""``score serve --entry`` in real browsers: one headless Chromium per player (Debian's
``chromium`` and ``chromium-driver``), each at 390 px as a phone, enters its hand of a
Least Score deal at the table through the real ``score serve --entry``; ``score
add-round --declarer`` then records the deal, and every page opens the next deal.

Set SCOREKEEPER_SCREENSHOT=docs/entry-phone.png to keep a player's page's screenshot.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import pooled_chromium
from conftest import Result
from deadlines import deadline
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from serving import start_serve
from test_cli_serve_entry import links, read_until, stop

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
HANDS = {"Ann": ("AH,2S", True, "en"), "Bob": ("KD,6C", False, "ar"),
         "Cy": ("7", False, "da")}


@pytest.fixture(scope="module")
def phones() -> Iterator[list[webdriver.Chrome]]:
    """Three headless Chromiums at a phone's width, one per player (from the pool)."""
    with contextlib.ExitStack() as taken:
        drivers = [taken.enter_context(pooled_chromium(420)) for _ in HANDS]
        for driver in drivers:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
        yield drivers


def layout(driver: webdriver.Chrome) -> dict[str, Any]:
    result: dict[str, Any] = driver.execute_script(
        "return {inner: window.innerWidth, scroll: document.scrollingElement.scrollWidth};")
    return result


@pytest.mark.e2e
def test_three_phones_enter_a_deal_and_add_round_records_it(
        phones: list[webdriver.Chrome], score_exe: Path, score_env: dict[str, str],
        score_run: Callable[..., Result]) -> None:
    made = score_run("new", "least-score", "--player", "Ann", "--player", "Bob",
                     "--player", "Cy", "--dealer", "Ann")
    assert made.exit_code == 0, made.output
    served = start_serve(score_exe, score_env, "--entry")
    try:
        urls = links(served)
        for driver, (name, (_hand, _declared, lang)) in zip(phones, HANDS.items(),
                                                            strict=True):
            driver.get(f"{urls[name]}?lang={lang}")
        for driver, (name, (hand, declared, _lang)) in zip(phones, HANDS.items(),
                                                           strict=True):
            wait = WebDriverWait(driver, deadline(15), poll_frequency=0.05)
            field = wait.until(lambda d: d.find_element(By.ID, "field-hand"))
            field.send_keys(hand)
            if declared:
                driver.find_element(By.ID, "field-declared").click()
            if name == "Ann":
                shown = layout(driver)
                assert shown["inner"] == PHONE["width"]
                assert shown["scroll"] <= shown["inner"], shown
            driver.find_element(By.ID, "send").click()
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".mine .value"))
            mine = driver.find_element(By.CSS_SELECTOR, ".mine .value").text
            assert hand in mine, (name, mine)
        read_until(served, "Everyone is in")
        ann, bob, cy = phones
        keep = os.environ.get("SCOREKEEPER_SCREENSHOT")
        if keep:
            Path(keep).write_bytes(ann.get_screenshot_as_png())
        assert bob.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl"
        assert cy.find_element(By.TAG_NAME, "html").get_attribute("lang") == "da"
        for driver, name in zip(phones, HANDS, strict=True):
            text = driver.find_element(By.TAG_NAME, "main").text
            others = [h for n, (h, _d, _l) in HANDS.items() if n != name and "," in h]
            assert not any(card in text for h in others for card in h.split(",")), name
        # A wrong entry is refused on the page, with the game's reason, and kept out.
        field = cy.find_element(By.ID, "field-hand")
        field.clear()
        field.send_keys("99")
        cy.find_element(By.ID, "send").click()
        WebDriverWait(cy, deadline(10), poll_frequency=0.05).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "main .problem"))
        recorded = score_run("add-round", "--declarer", "Ann")
        assert recorded.exit_code == 0, recorded.output
        for driver in phones:
            WebDriverWait(driver, deadline(15), poll_frequency=0.05).until(
                lambda d: d.find_element(By.ID, "entry").get_attribute("data-deal") == "2")
            assert driver.find_element(By.ID, "field-hand").get_attribute("value") == ""
            logs = driver.get_log("browser")
            assert not [e for e in logs if "Content Security Policy" in e["message"]], logs
    finally:
        stop(served)
    played = json.loads(score_run("export", "--format", "json").stdout)["rounds"][0]
    assert played["totals"] == {"Ann": 3, "Bob": 16, "Cy": 7}
    assert played["declarer"] == "Ann"
