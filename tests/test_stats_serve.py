"""`score serve` shows the statistics page: the same figures, no inline script or style."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import CLI

from scorekeeper.web.server import Site

HOSTILE = "<script>alert(1)</script>"


def test_the_served_statistics_page(ok: CLI, db_path: Path) -> None:
    ok("new", "least-score", "--player", "Ann", "--player", HOSTILE, "--limit", "10")
    ok("add-round", "--declarer", "Ann", "Ann=2", f"{HOSTILE}=20")
    site = Site(db_path, "token")
    assert ("stats", "Statistics") in site.nav()
    body = site.page("stats").body
    assert "<h1>Game nights</h1>" in body and "1 finished session" in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body and HOSTILE not in body
    assert "<svg" in body  # the rating chart
    assert not re.search(r"<script", body) and " style=" not in body and "<style" not in body
