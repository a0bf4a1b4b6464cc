"""A session's house rules are parsed into the game's typed Options once: entering a
round does not parse them again (it used to, about ten times per add-round)."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.games.least_score import table as least_table
from scorekeeper.kit.entries import EntryError, RoundEntry
from scorekeeper.session import Session
from scorekeeper.summary import summary_of


def test_adding_rounds_does_not_parse_the_options_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []
    parse = least_table._parse

    def counting(options: Any) -> Any:
        calls.append(dict(options))
        return parse(options)

    monkeypatch.setattr(least_table, "_parse_options", least_table.parsed_once(counting))
    session = Session.new("least-score", ["Ann", "Bob"],
                          options={"limit": 77, "tie": "Declarer-Loses"})
    for _ in range(3):
        session = session.add_round(RoundEntry((("Ann", "3"), ("Bob", "9")), declarer="Ann"))
        summary_of(session)
    assert session.standings.totals == {"Ann": 0, "Bob": 18}
    # once as typed, once as stored (checked and filled in); never per round
    assert len(calls) == 2, calls


def test_a_refused_option_is_refused_every_time() -> None:
    for _ in range(2):
        with pytest.raises(EntryError, match="whole number"):
            least_table.LeastScoreTable().parse_options({"limit": True})
    assert least_table.LeastScoreTable().parse_options({"limit": 1 + 49}).limit == 50
