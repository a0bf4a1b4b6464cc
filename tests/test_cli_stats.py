"""`score stats` end to end: the figures of a small store entered at the command line."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import CLI, Refuse


@pytest.fixture
def nights(least: Any, one_card: Any, ok: CLI) -> None:
    # 1: Bob and Cy out in round 1, Dan out after a false declaration: Ann wins.
    least("Ann", "Bob", "Cy", "Dan", extra=("--limit", "10"))
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=20", "Cy=15", "Dan=4")
    ok("add-round", "--declarer", "Dan", "Ann=5", "Dan=9")
    # 2: first out: Ann and Bob share the win.
    least("Ann", "Bob", "Cy", extra=("--limit", "10", "--end", "first-out"))
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=2", "Cy=15")
    # 3: One Card to 10: Bob bids 7 and makes it, then wins.
    one_card("Ann", "Bob", "Cy", extra=("--target", "10"))
    ok("add-round", "--bidder", "Bob", "--bid", "7", "Ann=3", "Bob=8", "Cy=4")
    ok("add-round", "--no-bid", "Ann=3", "Bob=6", "Cy=6")
    least("Ann", "Bob")  # unfinished


def test_json_figures(nights: None, ok: CLI) -> None:
    data = ok("stats", "--json").json()
    assert data["sessions"] == {"finished": 3, "abandoned": 0, "unfinished": 1}
    players = {p["name"]: p for p in data["players"]}
    assert [p["name"] for p in data["players"]] == ["Ann", "Bob", "Dan", "Cy"]
    assert (players["Ann"]["games"], players["Ann"]["wins"]) == (3, 1.5)
    assert [r["place"] for r in players["Ann"]["last_results"]] == [1, 1, 3]
    assert [r["place"] for r in players["Cy"]["last_results"]] == [3, 3, 2]
    assert (players["Bob"]["wins"], players["Bob"]["current_streak"],
            players["Bob"]["longest_streak"]) == (1.5, 2, 2)
    least = data["games"]["least-score"]["players"]
    assert least["Dan"] == {"declarations": 1, "false_declaration_rate": 1.0,
                            "average_declaring_hand": 9.0, "knock_outs": 1,
                            "deals_survived": 1}
    assert data["games"]["one-card"]["players"]["Bob"] == {
        "bids": 1, "bids_made": 1, "average_bid": 7.0, "points_per_deal": 7.0}
    assert data["head_to_head"]["Ann"]["Bob"] == {"ahead": 1, "met": 3}
    ratings = data["games"]["least-score"]["ratings"]
    assert ratings["Ann"]["rating"] > ratings["Cy"]["rating"]
    assert [h["session"] for h in ratings["Ann"]["history"]] == [1, 2]


def test_tables_markdown_and_the_html_page(nights: None, ok: CLI) -> None:
    shown = ok("stats", "--vs").stdout
    for text in ("3 finished sessions", "1 unfinished", "Head to head", "Least Score",
                 "One Card", "Rating", "█"):
        assert text in shown
    assert "Head to head" not in ok("stats").stdout
    markdown = ok("stats", "--format", "md", "--vs").stdout
    assert "| Ann | 3 | 1.50 | 50 % |" in markdown and "## Head to head" in markdown
    page = ok("stats", "--format", "html").stdout
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg viewBox") == 2
    assert "rating after each session" in page


def test_filters(nights: None, ok: CLI) -> None:
    assert ok("stats", "--game", "ONE-CARD", "--json").json()["sessions"]["finished"] == 1
    chosen = ok("stats", "--player", "cy", "--json").json()
    assert [p["name"] for p in chosen["players"]] == ["Cy"]
    none = ok("stats", "--since", "2999-01-01", "--json").json()
    assert none["sessions"]["finished"] == 0 and none["players"] == []
    assert "No finished sessions match" in ok("stats", "--until", "2000-01-01").stdout


def test_refusals(nights: None, refuse: Refuse) -> None:
    refuse("stats", "--since", "yesterday", code=2, says="YYYY-MM-DD")
    refuse("stats", "--game", "poker", code=2, says="no game called 'poker'")
    refuse("stats", "--json", "--format", "md", code=2, says="can't go together")
    refuse("stats", "--player", "Zed", says="nobody called 'Zed'")


def test_names_are_plain_text_everywhere(least: Any, ok: CLI) -> None:
    least("[red]Ann", "<b>Bob|", extra=("--limit", "10"))
    ok("add-round", "--declarer", "[red]Ann", "[red]Ann=2", "<b>Bob|=20")
    assert "[red]Ann" in ok("stats", "--vs").stdout
    assert "&lt;b&gt;Bob\\|" in ok("stats", "--format", "md").stdout
    page = ok("stats", "--format", "html").stdout
    assert "&lt;b&gt;Bob|" in page and "<b>Bob" not in page


def test_stats_pauses_the_collector_and_puts_it_back_as_it_was() -> None:
    """The collector is paused while the statistics are read, counted and drawn, and is
    on again afterwards only if it was on before, even when the command fails."""
    import gc

    from scorekeeper.cli.nights import _collection_paused

    was = gc.isenabled()
    try:
        for before in (True, False):
            (gc.enable if before else gc.disable)()
            with pytest.raises(KeyError), _collection_paused():
                assert not gc.isenabled()
                raise KeyError("refused")
            assert gc.isenabled() is before
    finally:
        (gc.enable if was else gc.disable)()


@pytest.mark.e2e
def test_stats_loads_no_rating_library_no_simulation_no_export_and_no_prompts(
        nights: None, score_env: dict[str, str]) -> None:
    """`score stats` at a terminal rates without openskill (scorekeeper/ratings.py) and
    loads neither the simulation's module, the exports (md/html only) nor the
    questions' (docs/performance.md, Statistics)."""
    import json
    import subprocess
    import sys

    code = ("import json, sys\nfrom scorekeeper.cli.app import run\ncode = run(['stats'])\n"
            "print(json.dumps({'code': code, 'modules': sorted(sys.modules)}), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], env=score_env, capture_output=True,
                          text=True, check=True)
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["code"] == 0 and "Statistics over 3 finished sessions" in done.stdout
    loaded = set(report["modules"])
    assert "scorekeeper.stats" in loaded and "scorekeeper.ratings" in loaded
    assert not {"openskill", "scorekeeper.match", "scorekeeper.views.export",
                "scorekeeper.cli.prompts"} & loaded
