"""Oh Hell (issue 30 point 3) in its own folder: the rules' own examples, the schedules,
property tests of the entry checks (hypothesis), a corpus of bad entries each refused in
one line with the store unchanged, and the whole table through the real ``score`` (new,
add-round, show, undo/redo, edit-round, every export and its re-import, stats, --json,
--lang da/ar; `score play oh-hell` says in one line that it has no virtual deck)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result, players_args
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.games.oh_hell import rules
from scorekeeper.games.oh_hell.rules import Schedule, Scoring

Run = Callable[..., Result]
NAMES = ("Ann", "Bob", "Cy")


# ---------------------------------------------------------------------------
# The rules' own examples (rules/en.md)


def test_the_schedules() -> None:
    assert rules.schedule(Schedule.DOWN, 7) == (7, 6, 5, 4, 3, 2, 1)
    assert rules.schedule(Schedule.UP, 3) == (1, 2, 3)
    assert rules.schedule(Schedule.DOWN_UP, 3) == (3, 2, 1, 2, 3)
    assert [rules.max_hand_size(n) for n in range(3, 8)] == [17, 13, 10, 8, 7]


def test_the_scoring_examples() -> None:
    assert rules.score(Scoring.TEN_PLUS_BID, bid=2, tricks=2) == 12
    assert rules.score(Scoring.TEN_PLUS_BID, bid=1, tricks=0) == 0
    assert rules.score(Scoring.TEN_PLUS_BID, bid=0, tricks=0) == 10
    assert rules.score(Scoring.TRICKS_PLUS_TEN, bid=2, tricks=2) == 12
    assert rules.score(Scoring.TRICKS_PLUS_TEN, bid=1, tricks=3) == 3
    assert rules.score(Scoring.MINUS_DIFFERENCE, bid=3, tricks=1) == -2
    assert rules.score(Scoring.MINUS_DIFFERENCE, bid=3, tricks=3) == 13


def test_the_hook_example() -> None:
    assert rules.hook_bid(5, [2, 1]) == 2
    assert rules.hook_bid(5, [4, 3]) is None  # the others already bid over the hand
    assert rules.dealer_of(NAMES, "Cy", 1) == "Cy" and rules.dealer_of(NAMES, "Cy", 2) == "Ann"


# ---------------------------------------------------------------------------
# The entry checks, drawn


@st.composite
def deals(draw: st.DrawFn) -> tuple[int, list[int], list[int]]:
    size = draw(st.integers(1, 7))
    bids = draw(st.lists(st.integers(0, size + 1), min_size=3, max_size=3))
    tricks = draw(st.lists(st.integers(0, size + 1), min_size=3, max_size=3))
    return size, bids, tricks


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(deals(), st.sampled_from(["hook", "no-hook"]), st.sampled_from(list(Scoring)))
def test_a_deal_is_taken_exactly_when_it_is_possible(cli: CLI, summary: Any,
                                                     deal: tuple[int, list[int], list[int]],
                                                     hook: str, scoring: Scoring) -> None:
    """Each example starts its own session (one deal of ``size`` cards, Cy dealing)."""
    size, bids, tricks = deal
    assert cli("new", "oh-hell", *players_args(*NAMES), "--dealer", "Cy", "--most-cards", size,
               "--hook", hook, "--bid-scoring", scoring.value).exit_code == 0
    before = summary()
    result = cli("add-round", *(f"{n}={b}/{t}" for n, b, t in zip(NAMES, bids, tricks,
                                                                    strict=True)))
    possible = (all(0 <= v <= size for v in (*bids, *tricks)) and sum(tricks) == size
                and not (hook == "hook" and sum(bids) == size))
    if not possible:
        assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1, result
        assert summary() == before
        if hook == "hook" and sum(bids) == size and sum(tricks) == size \
                and all(0 <= v <= size for v in (*bids, *tricks)):
            assert f"Cy deals and may not bid {bids[2]}" in result.stderr
        return
    assert result.exit_code == 0, result
    played = summary()["rounds"][0]
    assert played["hand_size"] == size and played["dealer"] == "Cy"
    for name, bid, took in zip(NAMES, bids, tricks, strict=True):
        assert played["scores"][name] == rules.score(scoring, bid, took)
        assert (name in played["made"]) is (bid == took)


# ---------------------------------------------------------------------------
# Bad entries: each refused in one line, the store unchanged

BAD_ROUNDS: list[tuple[tuple[str, ...], str]] = [
    (("Ann=2/2", "Bob=1/2", "Cy=2/3"), "the tricks add up to 7, not 3"),
    (("Ann=1/1", "Bob=1/1", "Cy=0/0"), "the tricks add up to 2, not 3"),
    (("Ann=1/1", "Bob=1/1", "Cy=1/1"), "the hook: Cy deals and may not bid 1"),
    (("Ann=4/1", "Bob=1/1", "Cy=0/1"), "Ann's bid 4 is impossible"),
    (("Ann=1/4", "Bob=0/0", "Cy=0/0"), "Ann's tricks 4 is impossible"),
    (("Ann=2-1", "Bob=1/1", "Cy=0/1"), "Ann's entry '2-1' is not bid/tricks"),
    (("Ann=2", "Bob=1/1", "Cy=0/1"), "is not bid/tricks"),
    (("Ann=1/1", "Bob=1/1"), "Cy is missing"),
    (("Ann=1/1", "Bob=1/1", "Cy=0/1", "Dan=0/0"), "Dan"),
    (("Ann=1/1", "ann=1/1", "Bob=1/1", "Cy=0/1"), "entered twice"),
    (("--declarer", "Ann", "Ann=1/1", "Bob=1/1", "Cy=0/1"), "--declarer is for"),
]


@pytest.mark.parametrize(("args", "says"), BAD_ROUNDS, ids=[s for _a, s in BAD_ROUNDS])
def test_a_bad_round_is_refused_in_one_line(ok: CLI, refuse: Refuse, args: tuple[str, ...],
                                            says: str) -> None:
    ok("new", "oh-hell", *players_args(*NAMES), "--dealer", "Cy", "--most-cards", "3")
    refuse("add-round", *args, says=says)


def test_no_deal_after_the_last(ok: CLI, refuse: Refuse) -> None:
    ok("new", "oh-hell", *players_args(*NAMES), "--most-cards", "1")
    done = ok("add-round", "Ann=1/1", "Bob=1/0", "Cy=1/0")  # Ann deals: the hook lets 1 by
    assert "Game over: Ann wins!" in done.stdout
    refuse("add-round", "Ann=0/0", "Bob=0/1", "Cy=0/0", says="is finished (Ann won)")


BAD_NEW: list[tuple[tuple[str, ...], str]] = [
    (("--most-cards", "0"), "1 to 17"),
    (("--most-cards", "18"), "1 to 17"),
    (("--hand-sizes", "sideways"), "sideways"),
    (("--bid-scoring", "golf"), "golf"),
    (("--hook", "maybe"), "maybe"),
]


@pytest.mark.parametrize(("args", "says"), BAD_NEW, ids=[a[1] for a, _s in BAD_NEW])
def test_bad_house_rules_are_refused_in_one_line(cli: CLI, refuse: Refuse,
                                                 args: tuple[str, ...], says: str) -> None:
    result = cli("new", "oh-hell", *players_args(*NAMES), *args)
    assert result.exit_code in (1, 2) and len(result.stderr.splitlines()) == 1, result
    assert says in result.stderr
    refuse("new", "oh-hell", *players_args(*NAMES), *args, code=result.exit_code)


def test_the_player_count_is_checked_and_bounds_the_biggest_deal(ok: CLI, refuse: Refuse,
                                                                 summary: Any) -> None:
    refuse("new", "oh-hell", *players_args("Ann", "Bob"), says="3 to 7 players")
    refuse("new", "oh-hell", *players_args(*"ABCDEFGH"), says="3 to 7 players")
    ok("new", "oh-hell", *players_args(*"ABCDEFG"), "--most-cards", "10")
    refuse("add-round", *(f"{n}=1/1" for n in "ABCDEF"), "G=0/8",
           says="G's tricks 8 is impossible: this deal has 7 cards each")  # 52 // 7 = 7, not 10
    ok("add-round", *(f"{n}=1/1" for n in "ABCDEF"), "G=0/1")
    assert summary()["rounds"][0]["hand_size"] == 7


# ---------------------------------------------------------------------------
# The whole table through the real `score`


@pytest.fixture
def oh_hell(score_run: Run) -> Run:
    def run(*args: object, code: int = 0) -> Result:
        result = score_run(*args)
        assert result.exit_code == code, (args, result)
        assert "Traceback" not in result.output
        return result

    return run


def test_oh_hell_at_the_table(oh_hell: Run, tmp_path: Path) -> None:
    started = oh_hell("new", "oh-hell", *players_args(*NAMES), "--dealer", "Cy",
                      "--most-cards", "3")
    assert "most-cards 3, hand-sizes descend, bid-scoring ten-plus, hook hook" in started.stdout
    assert "Cy deals 3 cards each (deal 1 of 3)" in started.stdout
    first = oh_hell("add-round", "Ann=1/1", "Bob=0/0", "Cy=1/2")
    assert "Round 1 recorded: Ann +11, Bob +10, Cy +0" in first.stdout
    assert "missed: Cy" in first.stdout
    assert "Ann deals 2 cards each (deal 2 of 3)" in first.stdout
    refused = oh_hell("add-round", "Ann=1/1", "Bob=1/1", "Cy=0/0", code=1)
    assert "the hook: Ann deals and may not bid 1" in refused.stderr
    oh_hell("add-round", "Ann=2/1", "Bob=1/1", "Cy=0/0")
    oh_hell("undo")
    oh_hell("redo")
    oh_hell("edit-round", "2", "Ann=0/1", "Bob=1/1", "Cy=0/0")
    data = json.loads(oh_hell("show", "--json").stdout)
    assert data["game"] == "oh-hell" and data["rounds"][1]["scores"] == \
        {"Ann": 0, "Bob": 11, "Cy": 10}
    done = oh_hell("add-round", "Ann=0/0", "Bob=1/1", "Cy=1/0")
    assert "Game over: Bob wins!" in done.stdout
    shown = oh_hell("show").stdout
    assert "3 cards" in shown and "Bob" in shown
    assert "2 cards, Ann dealt" in oh_hell("log").stdout
    oh_hell("add-round", "Ann=0/0", "Bob=1/1", "Cy=0/0", code=1)

    exported = oh_hell("export", "--format", "json").stdout
    data = json.loads(exported)
    assert data["totals"] == {"Ann": 21, "Bob": 32, "Cy": 10} and data["winners"] == ["Bob"]
    path = tmp_path / "oh-hell.json"
    path.write_text(exported, encoding="utf-8")
    assert "as session 2" in oh_hell("import", path).stdout
    assert json.loads(oh_hell("export", "2", "--format", "json").stdout)["totals"] == \
        data["totals"]
    rows = list(csv.reader(io.StringIO(oh_hell("export", "--format", "csv").stdout)))
    assert rows[0][:4] == ["round", "dealer", "hand_size", "Ann bid/tricks"]
    assert rows[1][:4] == ["1", "Cy", "3", "1/1"]
    assert "| Round |" in oh_hell("export", "--format", "md").stdout
    assert "<html" in oh_hell("export", "--format", "html").stdout
    data["rounds"][0]["tricks"] = {"Ann": 1, "Bob": 1, "Cy": 1}  # re-checked on import
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "round 1" in oh_hell("import", path, code=1).stderr

    stats = json.loads(oh_hell("stats", "--json").stdout)
    bob = stats["games"]["oh-hell"]["players"]["Bob"]
    assert bob["made_rate"] == 1.0 and bob["average_bid"] == pytest.approx(2 / 3, rel=1e-3)
    assert "Made" in oh_hell("stats", "--game", "oh-hell").stdout

    assert "Spillet er slut: Bob vinder!" in oh_hell("--lang", "da", "show", "1").stdout
    for lang, heading in (("en", "# Oh Hell"), ("da", "# Oh Hell"), ("ar", "# أوه هيل")):
        text = oh_hell("--lang", lang, "rules", "oh-hell").stdout
        assert text.startswith(heading) and "pagat.com/exact/ohhell.html" in text
    arabic = oh_hell("--lang", "ar", "add-round", "Ann=0/0", code=1)
    assert len(arabic.stderr.splitlines()) == 1


def test_oh_hell_has_no_virtual_deck(oh_hell: Run) -> None:
    refused = oh_hell("play", "oh-hell", "--bot", "random", "--bot", "random", "--bot",
                      "random", code=1)
    assert len(refused.stderr.splitlines()) == 1 and "Oh Hell" in refused.stderr
