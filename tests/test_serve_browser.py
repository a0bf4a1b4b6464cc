"""``score serve`` in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``, which .ci/run installs) driven by Selenium.

Set SCOREKEEPER_SCREENSHOT=docs/serve-phone.png to keep the phone screenshot (the
README's picture is made that way).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from browsers import pooled_chromium
from conftest import CLI, Result
from deadlines import deadline
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from serving import Served, start_serve

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}


@pytest.fixture(scope="module")
def chromium() -> Iterator[webdriver.Chrome]:
    """One headless Chromium for the module, from the process's pool."""
    with pooled_chromium(1000) as driver:
        yield driver


@pytest.fixture
def browser(chromium: webdriver.Chrome) -> Iterator[webdriver.Chrome]:
    """The module's Chromium, as a desktop window with scripts on, whatever a test set."""
    yield chromium
    chromium.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    chromium.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    chromium.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    chromium.get("about:blank")


@pytest.fixture
def table_night(ok: CLI) -> None:
    """Four friends, knock-out over 50, four rounds in (the README's worked example)."""
    ok("new", "least-score", "--player", "Ann", "--player", "Bob", "--player", "Cy",
       "--player", "Dan", "--limit", "50", "--dealer", "Ann", "--name", "Friday")
    ok("add-round", "--declarer", "Dan", "Ann=9", "Bob=17", "Cy=12", "Dan=4")
    ok("add-round", "--declarer", "Ann", "Ann=4", "Bob=16", "Cy=17", "Dan=13")
    ok("add-round", "--declarer", "Bob", "Ann=4", "Bob=9", "Cy=10", "Dan=6")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=12", "Cy=8", "Dan=5")


@pytest.fixture
def served(score_exe: Path, score_env: dict[str, str]) -> Iterator[Served]:
    running = start_serve(score_exe, score_env)
    yield running
    code, out, err = running.stop()
    assert code == 0 and "Traceback" not in out + err, (out, err)


def standings(driver: webdriver.Chrome) -> dict[str, str]:
    """Player -> total, as the page shows them now."""
    # One script, so a live update can't swap the table out between two reads.
    cells: list[list[str]] = driver.execute_script("""
        return [...document.querySelectorAll('table.standings tbody tr')].map(
            row => [...row.cells].map(cell => cell.textContent));""")
    return {row[1]: row[2] for row in cells}


def wait_for(driver: webdriver.Chrome, check: Callable[[Any], Any], seconds: float) -> Any:
    return WebDriverWait(driver, deadline(seconds), poll_frequency=0.05).until(check)


@pytest.mark.usefixtures("table_night")
@pytest.mark.e2e
def test_a_round_added_from_another_process_appears_without_a_reload(
        browser: webdriver.Chrome, served: Served, db_path: Path,
        score_run: Callable[..., Result]) -> None:
    browser.get(served.url)
    assert standings(browser) == {"Ann": "5", "Dan": "12", "Cy": "27", "Bob": "60"}
    wait_for(browser, lambda d: d.find_element(By.ID, "live").get_attribute("class")
             == "meta on", 10)  # the live stream is open
    browser.execute_script("window.sameDocument = 'yes';")

    result = score_run("add-round", "--declarer", "Ann", "Ann=1", "Cy=7", "Dan=9")
    assert result.exit_code == 0, result
    wait_for(browser, lambda d: standings(d).get("Dan") == "20", 2)
    assert time.time() - db_path.stat().st_mtime < deadline(2), "late after the change"
    assert standings(browser) == {"Ann": "5", "Cy": "33", "Dan": "20", "Bob": "60"}
    assert browser.execute_script("return window.sameDocument;") == "yes", "it reloaded"
    assert "In progress after 5 rounds" in browser.find_element(By.TAG_NAME, "main").text


@pytest.mark.usefixtures("table_night")
@pytest.mark.e2e
def test_the_page_fits_a_phone_in_light_and_dark(
        browser: webdriver.Chrome, served: Served, tmp_path: Path) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    backgrounds = {}
    for scheme in ("light", "dark"):
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": scheme}]})
        browser.get(served.url)
        wait_for(browser, lambda d: d.find_element(By.ID, "live").get_attribute("class")
                 == "meta on", 10)
        layout = browser.execute_script("""
            const table = document.querySelector('table.standings').getBoundingClientRect();
            return {inner: window.innerWidth, height: window.innerHeight,
                    scroll: document.scrollingElement.scrollWidth,
                    right: table.right, bottom: table.bottom, left: table.left,
                    font: parseFloat(getComputedStyle(
                        document.querySelector('table.standings td')).fontSize),
                    background: getComputedStyle(document.body).backgroundColor};""")
        assert layout["inner"] == PHONE["width"]
        assert layout["scroll"] <= layout["inner"], f"{scheme}: scrolls sideways: {layout}"
        assert layout["left"] >= 0 and layout["right"] <= layout["inner"], layout
        assert layout["bottom"] <= layout["height"], f"standings below the fold: {layout}"
        assert layout["font"] >= 20, f"too small to read across a table: {layout}"
        backgrounds[scheme] = layout["background"]
        png = browser.get_screenshot_as_png()
        assert png.startswith(b"\x89PNG")
        (tmp_path / f"serve-phone-{scheme}.png").write_bytes(png)
        keep = os.environ.get("SCOREKEEPER_SCREENSHOT")
        if keep and scheme == "light":
            Path(keep).write_bytes(png)
    assert backgrounds["light"] != backgrounds["dark"]


@pytest.mark.usefixtures("table_night")
@pytest.mark.e2e
def test_at_360_pixels_nothing_scrolls_sideways(browser: webdriver.Chrome,
                                                served: Served) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {**PHONE, "width": 360, "height": 740})
    for page in ("", "sessions", "session/1"):
        browser.get(served.url + page)
        scroll, inner = browser.execute_script(
            "return [document.scrollingElement.scrollWidth, window.innerWidth];")
        assert scroll <= inner == 360, page


@pytest.mark.usefixtures("table_night")
@pytest.mark.e2e
def test_the_browser_runs_no_inline_script_and_reports_no_policy_violation(
        browser: webdriver.Chrome, served: Served) -> None:
    browser.get(served.url)
    wait_for(browser, lambda d: d.find_element(By.ID, "live").get_attribute("class")
             == "meta on", 10)
    logs = browser.get_log("browser")
    assert not [entry for entry in logs if "Content Security Policy" in entry["message"]], logs
    # The policy holds: an inline script injected into the page does not run.
    browser.execute_script("""
        const s = document.createElement('script');
        s.textContent = 'window.injected = true;';
        document.body.appendChild(s);""")
    assert browser.execute_script("return window.injected === true;") is False


@pytest.mark.usefixtures("table_night")
@pytest.mark.e2e
def test_without_scripts_the_page_refreshes_itself(
        browser: webdriver.Chrome, served: Served,
        score_run: Callable[..., Result]) -> None:
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    browser.get(served.url)
    assert standings(browser)["Dan"] == "12"
    assert browser.find_element(By.ID, "live").get_attribute("class") == "meta", \
        "the live script ran"
    browser.execute_script("window.sameDocument = 'yes';")
    result = score_run("add-round", "--declarer", "Ann", "Ann=1", "Cy=7", "Dan=9")
    assert result.exit_code == 0, result
    wait_for(browser, lambda d: standings(d).get("Dan") == "20", 6)
    assert browser.execute_script("return window.sameDocument;") is None, "not reloaded?"


# ---------------------------------------------------------------------------
# The HTML export in Arabic and Danish, as a browser draws it (issue 15)

LOCALE = Path(__file__).resolve().parent.parent / "scorekeeper" / "locale"
NIGHTS = {
    # language: (players, the night's name); one Latin name among the Arabic ones
    "ar": (("سارة", "Bo", "محمد"), "ليلة الجمعة"),
    "da": (("Anne", "Bo", "Carl"), "Fredag"),
}
SPARED = {"least", "score", "one", "card", "scorekeeper"}
"""Words no catalog translates: the games' names and the product's."""


def words(text: str) -> set[str]:
    """The Latin words of ``text`` (lower case), leaving out what a message never
    translates: its {placeholders}, `commands` and --options."""
    text = re.sub(r"\{[^{}]*\}|`[^`]*`|--?[A-Za-z][\w-]*", " ", text)
    return {word.lower() for word in re.findall(r"[A-Za-z]{2,}", text)}


def english_words(language: str) -> set[str]:
    """The words of the catalog's English source strings that its translations into
    ``language`` never use ("Status" is Danish too: it can't tell English apart)."""
    with (LOCALE / language / "LC_MESSAGES" / "scorekeeper.po").open("rb") as file:
        catalog = read_po(file)
    source: set[str] = set()
    translated: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            source |= words(text)
        for text in message.string if isinstance(message.string, tuple) else (
                message.string,):
            translated |= words(text)
    return source - translated - SPARED


def exported_night(ok: CLI, language: str, folder: Path) -> tuple[Path, str]:
    """A finished Least Score night exported as HTML in ``language``: (the page, the
    house rules as typed, which stay as users type them)."""
    (first, second, third), name = NIGHTS[language]
    ok("new", "least-score", "--player", first, "--player", second, "--player", third,
       "--limit", "50", "--dealer", second, "--name", name)
    ok("add-round", "--declarer", first, f"{first}=5", f"{second}=12", f"{third}=30")
    ok("add-round", "--declarer", second, f"{first}=20", f"{second}=3", f"{third}=25")
    ok("add-round", "--declarer", second, f"{first}=9", f"{second}=2", f"{third}=14",
       "--note", "Bo!")
    page = folder / f"export-{language}.html"
    ok("--lang", language, "export", "--format", "html", "--output", page)
    options = ok("--lang", "en", "export", "--format", "md").stdout
    typed = re.search(r"^House rules: (.*)$", options, re.MULTILINE)
    assert typed
    return page, typed.group(1)


@pytest.mark.parametrize("language", ["ar", "da"])
@pytest.mark.e2e
def test_the_exported_page_in_arabic_and_danish_reads_in_its_own_language_and_direction(
        browser: webdriver.Chrome, ok: CLI, tmp_path: Path, language: str) -> None:
    page, house_rules = exported_night(ok, language, tmp_path)
    browser.get(page.as_uri())
    seen = browser.execute_script("""
        const heads = [...document.querySelectorAll('table')[0].tHead.rows[0].cells];
        const axis = [...document.querySelectorAll('svg text[text-anchor="middle"]')];
        return {lang: document.documentElement.lang,
                direction: getComputedStyle(document.documentElement).direction,
                body: getComputedStyle(document.body).direction,
                text: document.body.innerText,
                first: heads[0].getBoundingClientRect().left,
                last: heads[heads.length - 1].getBoundingClientRect().left,
                zero: axis[0].getBoundingClientRect().left,
                end: axis[axis.length - 1].getBoundingClientRect().left};""")
    assert seen["lang"] == language
    right_to_left = language == "ar"
    assert seen["direction"] == seen["body"] == ("rtl" if right_to_left else "ltr")
    # the tables and the chart run from the right in Arabic, from the left in Danish
    assert (seen["first"] > seen["last"]) is right_to_left, seen
    assert (seen["zero"] > seen["end"]) is right_to_left, seen
    # no English left: what the catalog says in English and never in this language
    names = set().union(*(words(name) for name in (*NIGHTS[language][0], NIGHTS[language][1])))
    visible = words(seen["text"].replace(house_rules, " "))
    leftover = visible & english_words(language) - names
    assert not leftover, f"English words on the {language} page: {sorted(leftover)}"
    png = browser.get_screenshot_as_png()
    assert png.startswith(b"\x89PNG")


@pytest.mark.usefixtures("table_night")
@pytest.mark.e2e
def test_score_serve_in_arabic_is_a_live_right_to_left_page(
        browser: webdriver.Chrome, score_exe: Path, score_env: dict[str, str]) -> None:
    running = start_serve(score_exe, {**score_env, "SCOREKEEPER_LANG": "ar"})
    try:
        browser.get(running.url)
        # the live script's status line, in the page's words (it reads them from the page)
        wait_for(browser, lambda d: d.find_element(By.ID, "live").get_attribute("class")
                 == "meta on", 10)
        seen = browser.execute_script("""
            const heads = [...document.querySelector('table.standings').tHead.rows[0].cells];
            return {lang: document.documentElement.lang,
                    direction: getComputedStyle(document.body).direction,
                    live: document.getElementById('live').textContent,
                    nav: document.querySelector('nav').innerText,
                    first: heads[0].getBoundingClientRect().left,
                    last: heads[heads.length - 1].getBoundingClientRect().left};""")
    finally:
        code, out, err = running.stop()
    assert code == 0 and "Traceback" not in out + err, (out, err)
    assert seen["lang"] == "ar" and seen["direction"] == "rtl", seen
    assert seen["first"] > seen["last"], seen  # the place column on the right
    assert seen["live"] == "مباشر: يتحدّث تلقائيًا.", seen
    assert "الإحصاءات" in seen["nav"], seen
