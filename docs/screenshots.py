"""The README's pictures of the HTML export in Arabic and in Danish.

    python docs/screenshots.py            # writes docs/export-ar.png and docs/export-da.png

Plays a short Least Score night in a throw-away store with the real ``score`` command,
exports it with ``score --lang ar|da export --format html`` and photographs each page in
headless Chromium (Debian's ``chromium`` and ``chromium-driver``, as the browser tests).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
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


def main() -> None:
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
            for language in NIGHTS:
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
