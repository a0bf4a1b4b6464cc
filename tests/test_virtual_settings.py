"""A virtual game's seed, seats and restarts are a typed VirtualSettings, parsed once from
the store or a file and written back in the same JSON shape (FORMAT.md's ``virtual``)."""

from __future__ import annotations

import pytest

from scorekeeper import match
from scorekeeper.kit.entries import EntryError
from scorekeeper.session import Session, VirtualSeat, VirtualSettings
from scorekeeper.summary import summary_of


def test_settings_are_typed_and_keep_their_stored_shape() -> None:
    seats = [match.Seat("Ann"), match.Seat("Strong-2", "strong")]
    session = match.start_game("least-score", seats, 11).with_id(1)
    session = match.record_restart(match.record_restart(session, 1), 1)
    assert session.virtual == VirtualSettings(11, (VirtualSeat("Ann"),
                                                   VirtualSeat("Strong-2", "strong")), ((1, 2),),
                                              derivation=2)
    document = session.to_document()
    assert document["extra"] == {"seed": 11, "seats": [{"name": "Ann", "bot": None},
                                                       {"name": "Strong-2", "bot": "strong"}],
                                 "restarts": {"1": 2}, "derivation": 2}
    assert Session.from_document(document, 1).virtual == session.virtual
    # Unfinished, with a human seat: the summary keeps the seed back (issue 40.1).
    assert summary_of(session)["virtual"] == {key: value for key, value
                                              in document["extra"].items() if key != "seed"}
    renamed = session.with_players_renamed({"Ann": "Anna"}, "renamed")
    assert renamed.virtual is not None and renamed.virtual.seats[0] == VirtualSeat("Anna")


@pytest.mark.parametrize("data", [
    {"seed": "7", "seats": []},
    {"seed": 7, "seats": [{"name": 3}]},
    {"seed": 7, "seats": [{"name": "Ann", "bot": 1}]},
    {"seed": 7, "seats": [], "restarts": {"0": 1}},
    {"seed": 7, "seats": [], "derivation": 3},
    {"seed": 7, "seats": [], "derivation": True},
    {"seed": 7, "seats": [], "derivation": "2"},
    [7],
])
def test_malformed_settings_are_one_line_refusals(data: object) -> None:
    with pytest.raises(EntryError, match="virtual"):
        VirtualSettings.from_json(data)


def test_settings_saved_before_derivation_2_keep_the_first_derivation() -> None:
    """Games saved before ``derivation`` existed derive their deals' generators the old
    way, and are written back exactly as they were stored."""
    stored = {"seed": 7, "seats": [{"name": "Ann", "bot": None}]}
    settings = VirtualSettings.from_json(stored)
    assert settings.derivation == 1
    assert settings.as_json() == stored
    assert VirtualSettings.from_json({**stored, "derivation": 2}).derivation == 2
