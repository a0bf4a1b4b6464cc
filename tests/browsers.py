"""One headless Chromium as the browser tests start it (Debian's chromium and its driver).

Never skipped: CI installs Chromium; a machine without it fails here, saying what to do.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from deadlines import deadline
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("SCOREKEEPER_CHROMEDRIVER", "/usr/bin/chromedriver")


def headless_chromium(profile: Path, width: int, height: int = 900) -> webdriver.Chrome:
    """A headless Chromium with a fresh ``profile`` folder and a window of ``width`` x
    ``height``; it makes no connection of its own (this machine's network is closed)."""
    for program in (CHROMIUM, CHROMEDRIVER):
        assert shutil.which(program), (f"{program} is missing: `apt-get install chromium "
                                       "chromium-driver` (Debian), as .ci/run does")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                 f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(deadline(20))
    return driver
