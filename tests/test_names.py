"""Two player names are the same name by one rule, everywhere (scorekeeper.kit.entries.name_key):
the check that names differ, matching a typed name, the doctor, and a player across
sessions all agree."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import CLI, Result

from scorekeeper.kit.entries import EntryError, match_player, name_key
from scorekeeper.session import check_player_names
from scorekeeper.stats import player_key


@pytest.mark.parametrize("spelling", ["ann", "ANN", "ＡＮＮ", "Ａnn"])
def test_every_spelling_of_one_name_is_one_player(spelling: str) -> None:
    assert match_player(["Ann", "Bob"], spelling) == "Ann"
    assert player_key(spelling) == player_key("Ann") == name_key("Ann")
    with pytest.raises(EntryError, match="same name ignoring case"):
        check_player_names(["Ann", spelling])


def test_a_fullwidth_name_on_the_command_line_finds_the_player(
        least: Callable[..., Result], ok: CLI) -> None:
    least("Ann", "Bob")
    result = ok("add-round", "--declarer", "ａｎｎ", "ＡＮＮ=3", "bob=9")
    assert "Round 1 recorded: Ann +0, Bob +6" in result.stdout
