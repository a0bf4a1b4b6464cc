"""One headless Chromium as the browser tests start it (Debian's chromium and its driver).

Never skipped: CI installs Chromium; a machine without it fails here, saying what to do.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from deadlines import deadline
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
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


# ---------------------------------------------------------------------------
# One pool of Chromiums per test process (each xdist worker has its own): a start costs
# about a second of processor time and several seconds of waiting on a busy machine, and
# every browser test used to pay it (a fixture per module, or per test).

_idle: list[webdriver.Chrome] = []
"""Chromiums started by this process, free for the next test."""

_started: list[tuple[webdriver.Chrome, Path]] = []
"""Every Chromium the pool started, with its profile folder, to end them at the end."""


def _as_new(driver: webdriver.Chrome, width: int, height: int) -> None:
    """The state a fresh Chromium of ``width`` x ``height`` has: one blank tab, no
    emulation, scripts on, no cookies, cache or site data, no browser log left over."""
    for handle in driver.window_handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(driver.window_handles[0])
    driver.get("about:blank")
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})
    driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.set_window_size(width, height)
    driver.get_log("browser")  # read, so a test sees only its own page's messages


def _forget_sites(driver: webdriver.Chrome) -> None:
    """Everything the page's site kept (storage, service workers, cache), cleared."""
    origin = driver.execute_script("return location.origin;")
    if isinstance(origin, str) and origin.startswith("http"):
        driver.execute_cdp_cmd("Storage.clearDataForOrigin",
                               {"origin": origin, "storageTypes": "all"})


@contextlib.contextmanager
def pooled_chromium(width: int, height: int = 900) -> Iterator[webdriver.Chrome]:
    """A headless Chromium as :func:`headless_chromium` gives one, taken from this
    process's pool (started the first time) and given back afterwards, as new: every
    test that uses one sees a blank tab of ``width`` x ``height``, without what an
    earlier test set or stored. A browser that fails while it is put back is ended."""
    if _idle:
        driver = _idle.pop()
    else:
        profile = Path(tempfile.mkdtemp(prefix="scorekeeper-chromium-"))
        driver = headless_chromium(profile, width, height)
        _started.append((driver, profile))
    _as_new(driver, width, height)
    try:
        yield driver
    finally:
        try:
            _forget_sites(driver)
            _as_new(driver, width, height)
        except WebDriverException:
            _end(driver)
        else:
            _idle.append(driver)


def _end(driver: webdriver.Chrome) -> None:
    for started, profile in list(_started):
        if started is driver:
            _started.remove((started, profile))
            with contextlib.suppress(WebDriverException):
                driver.quit()
            shutil.rmtree(profile, ignore_errors=True)
    if driver in _idle:
        _idle.remove(driver)


def end_pool() -> None:
    """End every Chromium the pool started (tests/conftest.py, when the session ends)."""
    for driver, _profile in list(_started):
        _end(driver)
