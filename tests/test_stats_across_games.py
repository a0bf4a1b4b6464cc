"""`score stats` on a store mixing every installed game, against a hand count (issue 30.5).

The store is built with the real `score` commands: a few sessions of each game (wins,
a shared win, unfinished and abandoned sessions) listed in ``NIGHTS``, in the order they
are played (the session ids follow that order). Every expected figure below is written
out by hand from the rules, with the arithmetic in the comments: nothing here is
recomputed by the code under test.

To add a game (Yaniv, Oh Hell): append its nights to ``NIGHTS``, its figures to
``FIGURES``, and each player's sessions of it to ``BY_GAME``; then look again at the
cross-game lines of ``RECORDS`` (favourite, best game, last played) and at ``SESSIONS``.
``test_every_installed_game_is_in_the_hand_count`` fails until every game has nights.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI
from rich.cells import cell_len

# The group's own game (docs/own-games.md): a Points game in a TOML file.
RUMMY = """\
title = "Rummy"
description = "Rummy as we play it: the lowest total after two deals wins."
players = [2, 6]

[defaults]
wins = "low"
target = 0
rounds = 2
"""


@dataclass(frozen=True)
class Night:
    """One session: ``score new GAME *start``, then ``score add-round *deal`` for each
    deal, then ``score abandon ID`` when ``abandoned``."""

    game: str
    start: tuple[str, ...]
    deals: tuple[tuple[str, ...], ...]
    abandoned: bool = False


def seats(*names: str) -> tuple[str, ...]:
    return tuple(arg for name in names for arg in ("--player", name))


NIGHTS = [
    # 1 Least Score, last standing, limit 10 (a good call: the declarer 0, the others
    # their hand - D; a false one: the others 0, the declarer 20 + (D - L)).
    #   deal 1: Ann calls 2 <= 9: Ann 0, Bob 9-2 = 7, Cy 14-2 = 12 > 10: Cy out.
    #   deal 2: Bob calls 3 <= 6: Bob 0 (7), Ann 6-3 = 3 (3).
    #   deal 3: Bob calls 4 > 1: false, Bob 20 + 3 = 23 (30 > 10): out. Ann wins.
    #   Places: Ann 1, Bob 2 (out in deal 3), Cy 3 (out in deal 1).
    Night("least-score", (*seats("Ann", "Bob", "Cy"), "--limit", "10", "--dealer", "Ann"), (
        ("--declarer", "Ann", "Ann=2", "Bob=9", "Cy=14"),
        ("--declarer", "Bob", "Ann=6", "Bob=3"),
        ("--declarer", "Bob", "Ann=1", "Bob=4"))),
    # 2 Least Score, first out, limit 10: a shared win.
    #   deal 1: Dan calls 3: Dan 0, Ann 12-3 = 9, Bob 12-3 = 9.
    #   deal 2: Ann calls 2 <= 2: Ann 0 (9), Bob 2-2 = 0 (9), Dan 13-2 = 11 > 10: out, the
    #   game ends; Ann and Bob share the lowest total (9): half a win each. Dan 3rd.
    Night("least-score", (*seats("Ann", "Bob", "Dan"), "--limit", "10", "--end", "first-out",
                          "--dealer", "Ann"), (
        ("--declarer", "Dan", "Ann=12", "Bob=12", "Dan=3"),
        ("--declarer", "Ann", "Ann=2", "Bob=2", "Dan=13"))),
    # 3 Least Score, abandoned after a deal: counted nowhere (Eve's only Least Score).
    Night("least-score", (*seats("Ann", "Eve"), "--limit", "10"), (
        ("--declarer", "Eve", "Ann=5", "Eve=3"),), abandoned=True),
    # 4 One Card to 10, three players (bids 7 to 15, each deal's points add up to 15).
    #   deal 1: Cy bids 8, takes 9: made: Cy 9, Ann 3, Dan 3.
    #   deal 2: Ann bids 7, takes 5: failed, Ann 0; Cy 6 (15), Dan 4 (7).
    #   Cy reaches 10 alone: Cy wins; Dan 7 second, Ann 3 third.
    Night("one-card", (*seats("Ann", "Cy", "Dan"), "--target", "10", "--dealer", "Ann"), (
        ("--bidder", "Cy", "--bid", "8", "Ann=3", "Cy=9", "Dan=3"),
        ("--bidder", "Ann", "--bid", "7", "Ann=5", "Cy=6", "Dan=4"))),
    # 5 One Card, unfinished: Ann 7, Bob 8, nobody at 30.
    Night("one-card", seats("Ann", "Bob"), (("--no-bid", "Ann=7", "Bob=8"),)),
    # 6 Points, no target, two deals (highest wins).
    #   deal 1: Ann 5, Bob 5, Eve 1: best Ann and Bob. deal 2: Ann 2, Bob 7, Eve 9: best Eve.
    #   Totals Ann 7, Bob 12, Eve 10: Bob wins, Eve 2nd, Ann 3rd.
    Night("points", (*seats("Ann", "Bob", "Eve"), "--target", "0", "--rounds", "2"), (
        ("Ann=5", "Bob=5", "Eve=1"), ("Ann=2", "Bob=7", "Eve=9"))),
    # 7 Points to 10: both reach 10 in one deal, a tie: half a win each (both the best).
    Night("points", (*seats("Bob", "Eve"), "--target", "10"), (("Bob=10", "Eve=10"),)),
    # 8 Points, abandoned: Ann's and Bob's Points figures leave it out.
    Night("points", (*seats("Ann", "Bob"), "--target", "50"), (("Ann=3", "Bob=4"),),
          abandoned=True),
    # 9 Hearts to 30 (lowest wins).
    #   deal 1: Ann 10, Bob 10, Cy 6, Dan 0: best Dan.
    #   deal 2: Ann shoots the moon: Ann 0, the others 26 each: best Ann.
    #   Totals Ann 10, Bob 39, Cy 29, Dan 26: Bob is past 30, Ann wins; Dan 2nd, Cy 3rd,
    #   Bob 4th.
    Night("hearts", (*seats("Ann", "Bob", "Cy", "Dan"), "--target", "30"), (
        ("Ann=10", "Bob=13", "Cy=3", "Dan=0"), ("--moon", "Ann"))),
    # 10 Hearts, unfinished after a deal.
    Night("hearts", (*seats("Bob", "Cy", "Eve"), "--target", "30"), (
        ("Bob=13", "Cy=13", "Eve=0"),)),
    # 11 Rummy (the group's own game: lowest wins after two deals).
    #   deal 1: Cy 5, Dan 3: best Dan. deal 2: Cy 1, Dan 9: best Cy.
    #   Totals Cy 6, Dan 12: Cy wins.
    Night("rummy", seats("Cy", "Dan"), (("Cy=5", "Dan=3"), ("Cy=1", "Dan=9"))),
    # 12 Yaniv to 60 (a good call: the caller 0, the others their hand as it is; Assaf: the
    # caller 30 + their hand, the lowest hand 0; a total landing on 50 is halved).
    #   deal 1: Dan calls 5: Dan 0, Eve 20.
    #   deal 2: Dan calls 2: Eve 20 + 30 = 50, halved: 25.
    #   deal 3: Eve calls 4, Dan has 3: Assaf, Eve 25 + 30 + 4 = 59; Dan 0.
    #   deal 4: Dan calls 1: Eve 59 + 5 = 64 > 60: out. Dan wins.
    Night("yaniv", (*seats("Dan", "Eve"), "--limit", "60", "--dealer", "Dan"), (
        ("--declarer", "Dan", "Dan=5", "Eve=20"),
        ("--declarer", "Dan", "Dan=2", "Eve=30"),
        ("--declarer", "Eve", "Dan=3", "Eve=4"),
        ("--declarer", "Dan", "Dan=1", "Eve=5"))),
    # 13 Oh Hell, hand sizes 2 then 1, Bob deals first, the hook on; an exact bid scores
    # 10 + the bid, a missed one 0.
    #   deal 1 (2 cards, Bob deals): Bob 0/0 made 10, Cy 1/1 made 11, Dan 0/1 missed 0.
    #   deal 2 (1 card, Cy deals): Bob 0/0 made 10 (20), Cy 1/0 missed 0 (11), Dan 1/1
    #   made 11 (11). Bob wins; Cy and Dan share second.
    Night("oh-hell", (*seats("Bob", "Cy", "Dan"), "--most-cards", "2", "--dealer", "Bob"), (
        ("Bob=0/0", "Cy=1/1", "Dan=0/1"),
        ("Bob=0/0", "Cy=1/0", "Dan=1/1"))),
]

SESSIONS = {"finished": 9,  # 1, 2, 4, 6, 7, 9, 11, 12, 13
            "abandoned": 2,  # 3, 8
            "unfinished": 2}  # 5, 10

# Each game's own figures (its folder's StatFigure), over its finished sessions only.
FIGURES: dict[str, dict[str, dict[str, float | None]]] = {
    "least-score": {
        # Ann: called once (deal 1 of night 1, hand 2) and once in night 2 (hand 2), both
        # good; in every deal: 3 + 2 = 5 survived.
        "Ann": {"declarations": 2, "false_declaration_rate": 0.0,
                "average_declaring_hand": 2.0,  # (2 + 2) / 2
                "knock_outs": 0, "deals_survived": 5},
        # Bob: called 3 (good) and 4 (false) in night 1: 1 false of 2, (3 + 4) / 2 = 3.5;
        # out in deal 3 of night 1; survived deals 1 and 2 of night 1 and both of night 2.
        "Bob": {"declarations": 2, "false_declaration_rate": 0.5,
                "average_declaring_hand": 3.5, "knock_outs": 1, "deals_survived": 4},
        # Cy: out in the first deal of night 1.
        "Cy": {"declarations": 0, "false_declaration_rate": None,
               "average_declaring_hand": None, "knock_outs": 1, "deals_survived": 0},
        # Dan: called 3 in night 2 (good); out in its deal 2.
        "Dan": {"declarations": 1, "false_declaration_rate": 0.0,
                "average_declaring_hand": 3.0, "knock_outs": 1, "deals_survived": 1},
    },
    "one-card": {  # night 4 only (5 is unfinished)
        "Ann": {"bids": 1, "bids_made": 0, "average_bid": 7.0,
                "points_per_deal": 1.5},  # (3 + 0) / 2: the failed bid scores 0
        "Cy": {"bids": 1, "bids_made": 1, "average_bid": 8.0,
               "points_per_deal": 7.5},  # (9 + 6) / 2
        "Dan": {"bids": 0, "bids_made": 0, "average_bid": None,
                "points_per_deal": 3.5},  # (3 + 4) / 2
    },
    "points": {  # nights 6 and 7 (8 abandoned)
        "Ann": {"average_deal": 3.5,  # (5 + 2) / 2
                "best_deals": 1, "best_deal_rate": 0.5},  # best in deal 1 of 2
        "Bob": {"average_deal": 7.3333,  # (5 + 7 + 10) / 3 = 22 / 3
                "best_deals": 2, "best_deal_rate": 0.6667},  # night 6 deal 1, night 7: 2/3
        "Eve": {"average_deal": 6.6667,  # (1 + 9 + 10) / 3 = 20 / 3
                "best_deals": 2, "best_deal_rate": 0.6667},  # night 6 deal 2, night 7
    },
    "hearts": {  # night 9 (10 unfinished)
        "Ann": {"average_deal": 5.0, "best_deals": 1, "best_deal_rate": 0.5,  # (10 + 0) / 2
                "moons": 1},
        "Bob": {"average_deal": 19.5, "best_deals": 0, "best_deal_rate": 0.0,  # 39 / 2
                "moons": 0},
        "Cy": {"average_deal": 14.5, "best_deals": 0, "best_deal_rate": 0.0,  # 29 / 2
               "moons": 0},
        "Dan": {"average_deal": 13.0, "best_deals": 1, "best_deal_rate": 0.5,  # 26 / 2
                "moons": 0},
    },
    "yaniv": {  # night 12
        # Dan: called 5, 2 and 1, all good: (5 + 2 + 1) / 3 = 8 / 3.
        "Dan": {"declarations": 3, "false_declaration_rate": 0.0,
                "average_declaring_hand": 2.6667, "knock_outs": 0, "halvings": 0},
        # Eve: called 4, Assaf (1 false of 1); halved once (deal 2); out in deal 4.
        "Eve": {"declarations": 1, "false_declaration_rate": 1.0,
                "average_declaring_hand": 4.0, "knock_outs": 1, "halvings": 1},
    },
    "oh-hell": {  # night 13: made / 2 deals, bids and tricks / 2, points / 2
        "Bob": {"made_rate": 1.0, "average_bid": 0.0, "average_tricks": 0.0,
                "points_per_deal": 10.0},  # 20 / 2
        "Cy": {"made_rate": 0.5, "average_bid": 1.0,  # (1 + 1) / 2
               "average_tricks": 0.5, "points_per_deal": 5.5},  # (1 + 0) / 2, 11 / 2
        "Dan": {"made_rate": 0.5, "average_bid": 0.5,  # (0 + 1) / 2
                "average_tricks": 1.0, "points_per_deal": 5.5},  # (1 + 1) / 2, 11 / 2
    },
    "rummy": {  # night 11: lowest is best
        "Cy": {"average_deal": 3.0, "best_deals": 1, "best_deal_rate": 0.5},  # 6 / 2
        "Dan": {"average_deal": 6.0, "best_deals": 1, "best_deal_rate": 0.5},  # 12 / 2
    },
}

# Each player's sessions of each game: (wins, finished, unfinished, the last session).
BY_GAME: dict[str, dict[str, tuple[float, int, int, int]]] = {
    "Ann": {"least-score": (1.5, 2, 0, 2),  # won 1, shared 2 (3 abandoned)
            "one-card": (0, 1, 1, 5),  # third in 4, 5 unfinished
            "points": (0, 1, 0, 6),  # third in 6 (8 abandoned)
            "hearts": (1, 1, 0, 9)},
    "Bob": {"least-score": (0.5, 2, 0, 2),  # second in 1, shared 2
            "one-card": (0, 0, 1, 5),
            "points": (1.5, 2, 0, 7),  # won 6, shared 7
            "hearts": (0, 1, 1, 10),  # fourth in 9, 10 unfinished
            "oh-hell": (1, 1, 0, 13)},
    "Cy": {"least-score": (0, 1, 0, 1),
           "one-card": (1, 1, 0, 4),
           "hearts": (0, 1, 1, 10),
           "rummy": (1, 1, 0, 11),
           "oh-hell": (0, 1, 0, 13)},  # shared second
    "Dan": {"least-score": (0, 1, 0, 2),
            "one-card": (0, 1, 0, 4),
            "hearts": (0, 1, 0, 9),
            "rummy": (0, 1, 0, 11),
            "yaniv": (1, 1, 0, 12),
            "oh-hell": (0, 1, 0, 13)},
    "Eve": {"points": (0.5, 2, 0, 7),  # second in 6, shared 7 (3 abandoned)
            "hearts": (0, 0, 1, 10),
            "yaniv": (0, 1, 0, 12)},  # out in 12
}

# Across games, by hand from BY_GAME: played = finished + unfinished; the win rate is
# over the finished; favourite = most played (a tie: played last); best game = the best
# win rate among 2+ games with a finished session (a tie: more wins, then more played,
# then played last), none without a win; last played = the latest session.
RECORDS: dict[str, dict[str, Any]] = {
    # 2 + 2 + 1 + 1 = 6 played, 1 unfinished; wins 1.5 + 1 = 2.5 of 5: 0.5.
    # Least Score and One Card 2 each: One Card played last (5 > 2).
    # Rates: Least Score 0.75, One Card 0, Points 0, Hearts 1: Hearts.
    "Ann": {"played": 6, "finished": 5, "unfinished": 1, "wins": 2.5, "win_rate": 0.5,
            "favourite_game": "one-card", "best_game": "hearts", "last_played": ("hearts", 9)},
    # 2 + 1 + 2 + 2 + 1 = 8 played, 2 unfinished; wins 0.5 + 1.5 + 1 = 3 of 6: 0.5.
    # Least Score, Points, Hearts 2 each: Hearts played last (10).
    # Rates: Least Score 0.25, Points 0.75, Hearts 0, Oh Hell 1 (1 of 1): Oh Hell.
    "Bob": {"played": 8, "finished": 6, "unfinished": 2, "wins": 3.0, "win_rate": 0.5,
            "favourite_game": "hearts", "best_game": "oh-hell",
            "last_played": ("oh-hell", 13)},
    # 1 + 1 + 2 + 1 + 1 = 6 played, 1 unfinished; wins 2 of 5: 0.4. Hearts 2: favourite.
    # One Card and Rummy both 1.0 with 1 win of 1 (Oh Hell 0): Rummy, played last (11 > 4).
    "Cy": {"played": 6, "finished": 5, "unfinished": 1, "wins": 2.0, "win_rate": 0.4,
           "favourite_game": "hearts", "best_game": "rummy", "last_played": ("oh-hell", 13)},
    # 6 played, all finished, 1 win (Yaniv) of 6: 0.1667; each game once: Oh Hell played
    # last; the only game with a win: Yaniv.
    "Dan": {"played": 6, "finished": 6, "unfinished": 0, "wins": 1.0, "win_rate": 0.1667,
            "favourite_game": "oh-hell", "best_game": "yaniv", "last_played": ("oh-hell", 13)},
    # 2 + 1 + 1 = 4 played, 1 unfinished; 0.5 of 3: 0.1667. Points 2: favourite. Rates:
    # Points 0.25, Yaniv 0: Points.
    "Eve": {"played": 4, "finished": 3, "unfinished": 1, "wins": 0.5, "win_rate": 0.1667,
            "favourite_game": "points", "best_game": "points", "last_played": ("yaniv", 12)},
}
# Most wins first, then the most played: Bob 3; Ann 2.5; Cy 2; Dan 1; Eve 0.5.
ORDER = ["Bob", "Ann", "Cy", "Dan", "Eve"]


@pytest.fixture
def mixed_store(ok: CLI, db_path: Path, group_games_read_afresh: None) -> None:
    games = Path(os.environ["SCOREKEEPER_CONFIG"]).parent / "games"
    games.mkdir(parents=True)
    (games / "rummy.toml").write_text(RUMMY, encoding="utf-8")
    for number, night in enumerate(NIGHTS, start=1):
        ok("new", night.game, *night.start)
        assert ok("show", "--json").json()["id"] == number
        for deal in night.deals:
            ok("add-round", *deal)
        if night.abandoned:
            ok("abandon", str(number))


def test_every_installed_game_is_in_the_hand_count(mixed_store: None, ok: CLI) -> None:
    installed = {game["name"] for game in ok("games", "--json").json()["games"]}
    missing = installed - {night.game for night in NIGHTS}
    assert not missing, f"add nights of {sorted(missing)} to NIGHTS and their hand count"
    assert set(FIGURES) <= installed


def test_each_games_own_figures_by_hand(mixed_store: None, ok: CLI) -> None:
    data = ok("stats", "--json").json()
    assert data["sessions"] == SESSIONS
    assert {game: data["games"][game]["sessions"] for game in data["games"]} == {
        "least-score": 2, "one-card": 1, "points": 2, "hearts": 1, "rummy": 1, "yaniv": 1,
        "oh-hell": 1}
    assert data["games"]["rummy"]["title"] == "Rummy"
    for game, players in FIGURES.items():
        assert data["games"][game]["players"] == players, game


def test_the_record_across_games_by_hand(mixed_store: None, ok: CLI) -> None:
    data = ok("stats", "--json").json()
    records = data["across_games"]["players"]
    assert [record["name"] for record in records] == ORDER
    assert data["across_games"]["bots"] == []
    for record in records:
        name = record["name"]
        expected = RECORDS[name]
        game, session = expected["last_played"]
        assert {key: record[key] for key in expected if key != "last_played"} == \
            {key: value for key, value in expected.items() if key != "last_played"}, name
        assert (record["last_played"]["game"], record["last_played"]["session"]) == \
            (game, session), name
        by_game = {key: (value["wins"], value["finished"], value["unfinished"],
                         value["last_played"]["session"])
                   for key, value in record["by_game"].items()}
        assert by_game == BY_GAME[name], name
        assert all(value["played"] == value["finished"] + value["unfinished"]
                   for value in record["by_game"].values())
    # the finished-only table agrees: Ann's 5 finished sessions, 2.5 wins
    players = {player["name"]: player for player in data["players"]}
    assert (players["Ann"]["games"], players["Ann"]["wins"]) == (5, 2.5)
    assert (players["Eve"]["games"], players["Eve"]["wins"]) == (3, 0.5)


def test_the_filters_on_the_hand_count(mixed_store: None, ok: CLI) -> None:
    hearts = ok("stats", "--game", "hearts", "--json").json()
    # night 9 finished, night 10 unfinished
    assert hearts["sessions"] == {"finished": 1, "abandoned": 0, "unfinished": 1}
    records = {r["name"]: r for r in hearts["across_games"]["players"]}
    # Eve sat only in the unfinished night 10: played 1, never won, no win rate
    assert (records["Eve"]["played"], records["Eve"]["wins"], records["Eve"]["win_rate"],
            records["Eve"]["favourite_game"], records["Eve"]["best_game"]) == \
        (1, 0, None, "hearts", None)
    assert [r["name"] for r in hearts["across_games"]["players"]] == \
        ["Ann", "Bob", "Cy", "Dan", "Eve"]  # Ann 1 win; Bob and Cy 2 played; Dan; Eve
    eve = ok("stats", "--player", "EVE", "--json").json()
    assert [r["name"] for r in eve["across_games"]["players"]] == ["Eve"]
    assert eve["across_games"]["players"][0]["wins"] == 0.5
    rummy = ok("stats", "--game", "rummy", "--json").json()
    assert rummy["sessions"]["finished"] == 1
    assert [r["name"] for r in rummy["across_games"]["players"]] == ["Cy", "Dan"]


def test_the_record_shown_at_every_width(mixed_store: None, ok: CLI,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    for width in (45, 80, 120):
        monkeypatch.setenv("COLUMNS", str(width))
        shown = ok("stats").stdout
        assert all(len(line) <= width for line in shown.splitlines()), width
        assert "…" not in shown and "Across games" in shown
        if width == 45:  # a block per player: each figure with its heading
            assert "Favourite: One Card" in shown and "Best game: Hearts" in shown
            assert "Rummy: 1/1" in shown and "Unfinished: 2" in shown
    markdown = ok("stats", "--format", "md").stdout
    assert "## Across games" in markdown
    assert "| Ann | 6 | 1 | One Card | Hearts |" in markdown
    page = ok("stats", "--format", "html").stdout
    assert "<h2>Across games</h2>" in page and "Rummy" in page


@pytest.mark.parametrize(("language", "words"), [
    ("da", ("På tværs af spil", "Yndlingsspil: One Card", "Bedste spil: Hearts",
            "Ikke færdige: 2", "Rummy: 1/1", "Points: 1,50/2")),
    ("ar", ("عبر الألعاب", "اللعبة المفضلة: One Card", "أفضل لعبة: Hearts",
            "غير منتهية: 2", "Rummy: 1/1"))])
def test_the_record_in_danish_and_arabic(mixed_store: None, ok: CLI, language: str,
                                         words: tuple[str, ...],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "45")
    shown = ok("--lang", language, "stats").stdout
    # (a line's width in a terminal: Arabic's vowel marks take no column of their own)
    assert [line for line in shown.splitlines() if cell_len(line) > 45] == []
    for word in words:
        assert word in shown, word
