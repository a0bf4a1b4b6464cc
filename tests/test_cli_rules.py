"""`score rules least-score|one-card`: the rules as applied, with the house rules in force."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CLI, Refuse


def test_least_score_defaults(ok: CLI, db_path: Path) -> None:
    text = ok("rules", "least-score").stdout
    assert text.startswith("# Least Score")
    for line in ("strictly over 100", "20 + (D - L)", "a tie (D = L) is a good declaration",
                 "the last one standing wins", "two pairs must be all four of one rank",
                 "Three of a kind is never legal"):
        assert line in text
    assert not db_path.exists()  # reading never creates the store


def test_least_score_with_the_current_session_house_rules(least, ok: CLI) -> None:
    least("Ann", "Bob", extra=("--limit", "25", "--tie", "declarer-loses", "--end",
                               "first-out", "--two-pairs", "any-rank"))
    text = ok("rules", "least-score").stdout
    assert "strictly over 25" in text
    assert "a tie (D = L) is a false declaration: 20 to the declarer" in text
    assert "the game ends at the first knock-out; the lowest total wins (ties share)" in text
    assert "two pairs of any ranks (K-K-5-5) may go as one discard" in text
    assert "'limit': 25" in text


def test_one_card_defaults_and_joker_rule(one_card, ok: CLI) -> None:
    text = ok("rules", "one-card").stdout
    assert text.startswith("# One Card")
    for line in ("the joker (JK) is the joker", "first to 30 points", "exactly 15",
                 "Lowest bid: 8 (2 players), 7 (3) or 6 (4)", "highest 15"):
        assert line in text
    one_card("Ann", "Bob", extra=("--joker", "two-of-diamonds"))
    text = ok("rules", "one-card").stdout
    assert "the 2♦ (2D) is the joker" in text
    assert "'joker': 'two-of-diamonds'" in text


def test_session_option_and_current_session_of_the_other_game(least, one_card, ok: CLI,
                                                              refuse: Refuse) -> None:
    least("Ann", "Bob", extra=("--limit", "50"))
    one_card("Cy", "Dan")  # current, but not Least Score: the defaults are shown
    assert "strictly over 100" in ok("rules", "least-score").stdout
    assert "strictly over 50" in ok("rules", "least-score", "--session", "1").stdout
    refuse("rules", "least-score", "--session", "2", says="session 2 is One Card")
    refuse("rules", "one-card", "--session", "3", says="no session 3")


@pytest.mark.parametrize("game", ["poker", "least", ""])
def test_unknown_game_is_malformed(refuse: Refuse, game: str) -> None:
    refuse("rules", game, code=2, says="least-score or one-card")


def test_missing_game_is_malformed(refuse: Refuse) -> None:
    refuse("rules", code=2, says="game")


def test_game_names_ignore_case(ok: CLI) -> None:
    assert ok("rules", "ONE-CARD").stdout.startswith("# One Card")
