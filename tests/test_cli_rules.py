"""`score rules least-score|one-card`: the rules as applied, with the house rules in force.

The texts in each language and `--json` are tested in test_rules_docs.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CLI, Refuse


def flowing(text: str) -> str:
    """The text with its line breaks as spaces (the rules texts are wrapped)."""
    return " ".join(text.split())


def test_least_score_defaults(ok: CLI, db_path: Path) -> None:
    text = ok("rules", "least-score").stdout
    assert text.startswith("# Least Score")
    for line in ("strictly over", "20 + (D − L)", "Never legal: three of a kind",
                 "**House rule `--tie`** (default `declarer-wins`)",
                 "## House rules (defaults)",
                 "- `--limit 100`: a player whose total goes over 100 is knocked out",
                 "- `--tie declarer-wins`: a tie (D = L) is a good declaration",
                 "- `--end last-standing`: knocked-out players leave; the last player left wins",
                 "- `--two-pairs same-rank`: two pairs must be all four cards of one rank"):
        assert line in flowing(text)
    assert "this session" not in text  # there is none
    assert not db_path.exists()  # reading never creates the store


def test_least_score_with_the_current_session_house_rules(least, ok: CLI) -> None:
    least("Ann", "Bob", extra=("--limit", "25", "--tie", "declarer-loses", "--end",
                               "first-out", "--two-pairs", "any-rank"))
    text = ok("rules", "least-score").stdout
    block = text.split("## House rules of this session\n", 1)[1]
    assert block.splitlines()[1:] == [
        "- `--limit 25`: a player whose total goes over 25 is knocked out",
        "- `--tie declarer-loses`: a tie (D = L) is a false declaration: 20 for the declarer",
        "- `--end first-out`: the game ends at the first knock-out; the lowest total wins",
        "- `--two-pairs any-rank`: two pairs of any ranks (K K 5 5) may go as one discard",
    ]
    assert "'limit'" not in text and "two_pairs" not in text  # words, not a Python dict


def test_one_card_defaults_and_joker_rule(one_card, ok: CLI) -> None:
    text = ok("rules", "one-card").stdout
    assert text.startswith("# One Card")
    for line in ("The first to 30 points wins", "exactly 15 points",
                 "The lowest bid is 8 with 2 players, 7 with 3 and 6 with 4",
                 "the highest is 15", "- `--joker joker`: the joker (JK) is the joker"):
        assert line in flowing(text)
    one_card("Ann", "Bob", extra=("--joker", "two-of-diamonds"))
    text = ok("rules", "one-card").stdout
    assert "- `--joker two-of-diamonds`: the two of diamonds (2D) is the joker" in text


def test_session_option_and_current_session_of_the_other_game(least, one_card, ok: CLI,
                                                              refuse: Refuse) -> None:
    least("Ann", "Bob", extra=("--limit", "50"))
    one_card("Cy", "Dan")  # current, but not Least Score: the defaults are shown
    text = ok("rules", "least-score").stdout
    assert "`--limit 100`" in text and "## House rules (defaults)" in text
    text = ok("rules", "least-score", "--session", "1").stdout
    assert "`--limit 50`" in text and "## House rules of this session" in text
    refuse("rules", "least-score", "--session", "2", says="session 2 is One Card")
    refuse("rules", "one-card", "--session", "3", says="no session 3")


@pytest.mark.parametrize("game", ["poker", "least", ""])
def test_unknown_game_is_malformed(refuse: Refuse, game: str) -> None:
    refuse("rules", game, code=2, says="least-score or oh-hell or one-card")


def test_missing_game_is_malformed(refuse: Refuse) -> None:
    refuse("rules", code=2, says=("score rules needs GAME", "least-score"))


def test_game_names_ignore_case(ok: CLI) -> None:
    assert ok("rules", "ONE-CARD").stdout.startswith("# One Card")
