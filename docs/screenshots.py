"""The README's pictures: the HTML export in Arabic and in Danish, and every page on a
phone, 390 px wide, and on a computer, 1280 px wide (the live page, the session list, the
statistics and the HTML export).

    python docs/screenshots.py            # writes docs/export-ar.png, docs/export-da.png,
                                          # docs/phone-*.png and docs/wide-*.png (the
                                          # entry and seat pages too)
    python docs/screenshots.py --phone    # only docs/phone-*.png and docs/wide-*.png

Plays a short Least Score night in a throw-away store with the real ``score`` command,
exports it with ``score --lang ar|da export --format html`` and photographs each page in
headless Chromium (Debian's ``chromium`` and ``chromium-driver``, as the browser tests).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

DOCS = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("SCOREKEEPER_CHROMEDRIVER", "/usr/bin/chromedriver")
WIDTH, HEIGHT = 560, 1400
NIGHTS = {
    "ar": (("سارة", "Bo", "محمد", "ليلى"), "ليلة الجمعة"),
    "da": (("Anne", "Bo", "Carl", "Dorte"), "Fredag"),
}


def score(store: Path, *args: str) -> str:
    env = {**os.environ, "SCOREKEEPER_DB": str(store / "scores.json"),
           "SCOREKEEPER_CONFIG": str(store / "config.toml")}
    env.pop("SCOREKEEPER_LANG", None)
    done = subprocess.run([sys.executable, "-m", "scorekeeper", *args], env=env,
                          capture_output=True, text=True, check=True)
    return done.stdout


def exported(language: str, folder: Path) -> Path:
    """A night of four rounds and a knock-out, exported as HTML in ``language``."""
    (a, b, c, d), name = NIGHTS[language]
    store = folder / language
    store.mkdir()
    score(store, "new", "least-score", "--player", a, "--player", b, "--player", c,
          "--player", d, "--limit", "50", "--dealer", a, "--name", name)
    for declarer, totals in ((d, (9, 17, 12, 4)), (a, (4, 16, 17, 13)), (b, (4, 9, 10, 6)),
                             (a, (2, 12, 8, 5))):
        score(store, "add-round", "--declarer", declarer,
              *(f"{player}={total}" for player, total in zip((a, b, c, d), totals,
                                                             strict=True)))
    page = folder / f"export-{language}.html"
    score(store, "--lang", language, "export", "--format", "html", "--output", str(page))
    return page


PHONE_WIDTH, PHONE_HEIGHT = 390, 1100
WIDE_WIDTH = 1280
PHONE_NAMES = ("Ann", "Bartholomew Quincy", "Cy", "Dorothea", "Maximiliana Oberholzer")


def phone_night(store: Path) -> None:
    """A One Card game, then a Least Score night of 16 rounds: five players, long names,
    two knock-outs, now and then a false declaration."""
    store.mkdir()
    seats = [arg for name in PHONE_NAMES for arg in ("--player", name)]
    score(store, "new", "one-card", *seats[:8], "--target", "10", "--dealer", "Ann")
    score(store, "add-round", "--bidder", "Bartholomew Quincy", "--bid", "7", "Ann=2",
          "Bartholomew Quincy=11", "Cy=1", "Dorothea=1")
    score(store, "new", "least-score", *seats, "--limit", "100", "--dealer", "Ann",
          "--name", "Friday at Dorothea's")
    for number in range(1, 17):
        knocked_out = json.loads(score(store, "export", "--format", "json"))["knocked_out"]
        hands = {"Ann": 3 + number % 4, "Bartholomew Quincy": 9, "Cy": 2,
                 "Dorothea": 4 + number % 3, "Maximiliana Oberholzer": 8}
        declarer = "Dorothea" if number % 5 == 0 else "Cy"
        score(store, "add-round", "--declarer", declarer,
              *(f"{name}={hand}" for name, hand in hands.items() if name not in knocked_out))
    # A game of bots on the virtual deck, as `score play` saves it (the current session
    # stays the table's night).
    score(store, "play", "least-score", "--bot", "greedy", "--bot", "random", "--seed", "3",
          "--limit", "30")


def phone_pictures(driver: webdriver.Chrome, folder: Path) -> None:
    """docs/phone-live.png, -sessions, -stats and -export: each page at 390 px; and
    docs/wide-*.png, the same pages at 1280 px."""
    store = folder / "phone"
    phone_night(store)
    page = folder / "phone-export.html"
    score(store, "export", "--format", "html", "--output", str(page))
    env = {**os.environ, "SCOREKEEPER_DB": str(store / "scores.json"),
           "SCOREKEEPER_CONFIG": str(store / "config.toml"), "SCOREKEEPER_LANG": "en",
           "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--port", "0"],
                              env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        url = ""
        for line in server.stdout:
            found = re.search(r"http://\S+/", line)
            if found:
                url = found.group(0)
                break
        for (name, address, height), (kind, width) in itertools.product(
                (("live", url, 1750), ("sessions", url + "sessions", PHONE_HEIGHT),
                 ("stats", url + "stats", PHONE_HEIGHT), ("export", page.as_uri(), 1500)),
                (("phone", PHONE_WIDTH), ("wide", WIDE_WIDTH))):
            mobile = width < 800
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1,
                "mobile": mobile})
            driver.get(address)
            time.sleep(0.5)  # the live page's stream opens
            shown = int(driver.execute_script(
                "return Math.ceil(document.body.getBoundingClientRect().bottom) + 8;"))
            if shown < height:  # no empty screen below a short page
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": shown, "deviceScaleFactor": 1,
                    "mobile": mobile})
            target = DOCS / f"{kind}-{name}.png"
            target.write_bytes(driver.get_screenshot_as_png())
            print(f"wrote {target}")
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    finally:
        server.terminate()
        server.wait()


def shoot(driver: webdriver.Chrome, address: str, name: str, drawn: str) -> None:
    """docs/phone-NAME.png and docs/wide-NAME.png of a page a script draws (once
    ``drawn``, a CSS selector, is on it)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    for kind, width in (("phone", PHONE_WIDTH), ("wide", WIDE_WIDTH)):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": PHONE_HEIGHT, "deviceScaleFactor": 1,
            "mobile": width < 800})
        driver.get(address)
        WebDriverWait(driver, 60, poll_frequency=0.1).until(
            lambda found: found.find_elements(By.CSS_SELECTOR, drawn))
        shown = int(driver.execute_script(
            "return Math.ceil(document.body.getBoundingClientRect().bottom) + 8;"))
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": min(shown, 1750), "deviceScaleFactor": 1,
            "mobile": width < 800})
        target = DOCS / f"{kind}-{name}.png"
        target.write_bytes(driver.get_screenshot_as_png())
        print(f"wrote {target}")


def table_pictures(driver: webdriver.Chrome, folder: Path) -> None:
    """docs/*-entry.png (a player's entry page of `score serve --entry`) and
    docs/*-seat.png (a seat's page of `score play --online`), served in this process."""
    import secrets
    import threading

    from scorekeeper import match
    from scorekeeper.playing import GameLife
    from scorekeeper.registry import declaration_of
    from scorekeeper.store import Store
    from scorekeeper.web.entry import EntrySite, entry_server
    from scorekeeper.web.online import GameStopped, OnlineTable, online_server

    store = folder / "table"
    store.mkdir()
    score(store, "new", "least-score", "--player", "Ann", "--player", "Bartholomew Quincy",
          "--player", "Cy", "--dealer", "Ann", "--limit", "60")
    score(store, "add-round", "--declarer", "Cy", "Ann=9", "Bartholomew Quincy=14", "Cy=3")
    path = store / "scores.json"
    site = EntrySite(path, secrets.token_urlsafe(16), Store(path).read().get(None))
    server = entry_server(("127.0.0.1", 0), site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        shoot(driver, f"http://127.0.0.1:{server.server_port}/{site.desks['Ann'].token}/",
              "entry", "form.entry")
    finally:
        site.stopped.set()
        server.shutdown()
        server.server_close()
    life = GameLife.start(Store(folder / "online.json"), "least-score",
                          match.make_seats(["Ann"], ["strong"]), 12, options={"limit": 60})
    module = __import__(declaration_of("least-score").online_ui or "", fromlist=["_"])
    table = OnlineTable(life.session, life.humans, module)
    online = online_server(("127.0.0.1", 0), table)
    threading.Thread(target=online.serve_forever, daemon=True).start()
    def play() -> None:
        with contextlib.suppress(GameStopped):  # closed once photographed
            life.play(table.hooks())

    player = threading.Thread(target=play, daemon=True)
    player.start()
    try:
        shoot(driver, f"http://127.0.0.1:{online.server_port}/{table.seats['Ann'].token}/",
              "seat", "section.moves .pick button")
    finally:
        table.close()
        online.shutdown()
        online.server_close()
        player.join(10)
        life.close()


def main() -> None:
    only_phone = "--phone" in sys.argv[1:]
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                     "--disable-dev-shm-usage", "--hide-scrollbars",
                     f"--window-size={WIDTH},{HEIGHT}", f"--user-data-dir={folder / 'profile'}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options,
                                  service=Service(executable_path=CHROMEDRIVER))
        try:
            phone_pictures(driver, folder)
            table_pictures(driver, folder)
            for language in () if only_phone else NIGHTS:
                driver.get(exported(language, folder).as_uri())
                height = driver.execute_script("return document.body.scrollHeight;")
                driver.set_window_size(WIDTH, min(int(height) + 140, HEIGHT))
                target = DOCS / f"export-{language}.png"
                target.write_bytes(driver.get_screenshot_as_png())
                print(f"wrote {target}")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
