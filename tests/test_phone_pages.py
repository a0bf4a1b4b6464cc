"""Every page fits a phone (issue 28.4): the live page, the session list, the statistics
and the HTML export, in headless Chromium at 390 px (a phone in portrait) and 1280 px.

On each: the page never scrolls sideways; a box that cuts its content (the rounds
table, wider than a phone, scrolls in its own box) shows that it does (a shadow at
its edges); no word is broken over two lines (names wrap at spaces, not by syllable)
and no number is parted from its ``%``. Each word is measured with a DOM Range: a word
on two lines has client rectangles at two heights.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browsers import pooled_chromium
from conftest import CLI
from deadlines import deadline
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from serving import Served, start_serve

WIDTHS = (390, 1280)
NAMES = ["Ann", "Bartholomew Quincy", "Cy", "Dorothea", "Maximiliana Oberholzer"]

PROBLEMS = """
const problems = [];
const page = document.documentElement;
if (page.scrollWidth > window.innerWidth) {
  problems.push(`the page scrolls sideways: ${page.scrollWidth} > ${window.innerWidth}`);
}
for (const box of document.querySelectorAll('body *')) {
  const style = getComputedStyle(box);
  if (style.overflowX === 'visible' || box.scrollWidth <= box.clientWidth + 1) continue;
  const cue = style.backgroundImage.includes('gradient') || style.textOverflow === 'ellipsis';
  if (!cue) problems.push(`cut without a cue: ${box.tagName}.${box.className}`);
}
// a number with its %, or a word (a hyphen or a dash is where a line may break)
const piece = /\\d+(?:[.,]\\d+)?[ \\u00a0]%|[^\\s\\u00a0\\-–]+/g;
const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (texts.nextNode()) {
  const node = texts.currentNode;
  if (node.parentElement.closest('svg, script, style, noscript')) continue;
  for (const found of node.data.matchAll(piece)) {
    const range = document.createRange();
    range.setStart(node, found.index);
    range.setEnd(node, found.index + found[0].length);
    const heights = new Set([...range.getClientRects()].filter(r => r.width > 0)
                                .map(r => Math.round(r.bottom)));
    if (heights.size > 1) problems.push(`on two lines: ${JSON.stringify(found[0])}`);
  }
}
return problems;
"""


@pytest.fixture(scope="module")
def chromium() -> Iterator[webdriver.Chrome]:
    with pooled_chromium(1280) as driver:
        yield driver


def players(*names: str) -> list[str]:
    return [arg for name in names for arg in ("--player", name)]


@pytest.fixture
def card_nights(ok: CLI) -> None:
    """A finished One Card game, then a Least Score night of 16 rounds, five players with
    long two-word names, two knocked out (the current session)."""
    ok("new", "one-card", *players(*NAMES[:4]), "--target", "10", "--dealer", "Ann")
    ok("add-round", "--bidder", "Bartholomew Quincy", "--bid", "7", "Ann=2",
       "Bartholomew Quincy=11", "Cy=1", "Dorothea=1")
    ok("new", "least-score", *players(*NAMES), "--limit", "100", "--dealer", "Ann",
       "--name", "Friday at Dorothea's")
    for number in range(1, 17):
        still_in = ok("export", "--format", "json").json()
        hands = {"Ann": 3 + number % 4, "Bartholomew Quincy": 9, "Cy": 2,
                 "Dorothea": 4 + number % 3, "Maximiliana Oberholzer": 8}
        declarer = "Dorothea" if number % 5 == 0 else "Cy"  # now and then falsely
        ok("add-round", "--declarer", declarer,
           *(f"{name}={hand}" for name, hand in hands.items()
             if name not in still_in["knocked_out"]))


@pytest.fixture
def served(card_nights: None, score_exe: Path, score_env: dict[str, str]) -> Iterator[Served]:
    running = start_serve(score_exe, score_env)
    yield running
    running.stop()


def problems_at(driver: webdriver.Chrome, url: str, width: int) -> list[str]:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 844, "deviceScaleFactor": 1, "mobile": width < 800})
    try:
        driver.get(url)
        WebDriverWait(driver, deadline(10)).until(lambda d: d.find_element(By.TAG_NAME, "h1"))
        assert driver.execute_script("return window.innerWidth;") == width
        found: list[str] = driver.execute_script(PROBLEMS)
        return found
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page", ["", "sessions", "stats"])
@pytest.mark.e2e
def test_the_served_pages_fit(chromium: webdriver.Chrome, served: Served, width: int,
                              page: str) -> None:
    problems = problems_at(chromium, served.url + page, width)
    assert problems == [], problems


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("what", [("export", "--format", "html"),
                                  ("stats", "--vs", "--format", "html")])
@pytest.mark.e2e
def test_the_html_exports_fit(chromium: webdriver.Chrome, card_nights: None, ok: CLI,
                              tmp_path: Path, width: int, what: tuple[str, ...]) -> None:
    page = tmp_path / "page.html"
    page.write_text(ok(*what).stdout, encoding="utf-8")
    problems = problems_at(chromium, page.as_uri(), width)
    assert problems == [], problems


@pytest.mark.e2e
def test_the_check_sees_a_broken_word_and_a_cut_box(chromium: webdriver.Chrome,
                                                    tmp_path: Path) -> None:
    page = tmp_path / "bad.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width">'
        "</head><body><h1>x</h1>"
        '<p style="width:5rem;overflow-wrap:anywhere">Maximiliana Oberholzer</p>'
        '<div style="width:5rem;overflow-x:auto"><table><tr><td>1</td><td>2</td><td>3</td>'
        "<td>4</td><td>5</td><td>6</td><td>7</td><td>8</td></tr></table></div>"
        '<p style="width:1.2rem">50 %</p></body></html>', encoding="utf-8")
    problems = problems_at(chromium, page.as_uri(), 390)
    assert any("Maximiliana" in problem or "Oberholzer" in problem for problem in problems)
    assert any("cut without a cue: DIV" in problem for problem in problems)
    assert any('"50 %"' in problem for problem in problems), problems


@pytest.fixture
def every_game(ok: CLI, db_path: Path, group_games_read_afresh: None) -> None:
    """A night of each built-in game with long names, the group's own game among them, an
    unfinished Hearts night, and a Points game played for its deals (no target)."""
    games = db_path.parent.parent / "config" / "games"
    games.mkdir(parents=True)
    (games / "rummy.toml").write_text('title = "Rummy at Maximiliana\'s"\n[defaults]\n'
                                      'wins = "low"\ntarget = 0\nrounds = 1\n',
                                      encoding="utf-8")
    four = players(*NAMES[:4])
    ok("new", "least-score", *players(*NAMES), "--limit", "10", "--dealer", "Ann")
    ok("add-round", "--declarer", "Cy", *(f"{name}={2 if name == 'Cy' else 20}"
                                          for name in NAMES))
    ok("new", "one-card", *four, "--target", "10")
    ok("add-round", "--bidder", "Cy", "--bid", "7", "Ann=2", "Bartholomew Quincy=1",
       "Cy=11", "Dorothea=1")
    ok("new", "hearts", *four, "--target", "20")
    ok("add-round", "--moon", "Dorothea")
    ok("new", "rummy", *players("Maximiliana Oberholzer", "Bartholomew Quincy"))
    ok("add-round", "Maximiliana Oberholzer=3", "Bartholomew Quincy=8")
    ok("new", "hearts", *four)
    ok("add-round", "Ann=3", "Bartholomew Quincy=17", "Cy=6", "Dorothea=0")  # a real deal
    ok("new", "points", *players(*NAMES), "--target", "0", "--rounds", "9")
    ok("add-round", *(f"{name}={number * 7}" for number, name in enumerate(NAMES)))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page", ["stats", ""])
@pytest.mark.e2e
def test_every_games_statistics_and_a_game_without_target_fit(
        chromium: webdriver.Chrome, every_game: None, score_exe: Path,
        score_env: dict[str, str], width: int, page: str) -> None:
    running = start_serve(score_exe, score_env)
    try:
        problems = problems_at(chromium, running.url + page, width)
        shown = chromium.page_source
    finally:
        running.stop()
    assert problems == [], problems
    if page == "stats":
        assert "Across games" in shown and "Rummy at Maximiliana" in shown
    else:  # the Points game played for its deals: no "To 0" column
        assert "Points" in shown and "To 0" not in shown
