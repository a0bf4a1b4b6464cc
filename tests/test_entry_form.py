"""The players' own entries (``score serve --entry``) below the web: each game's entry
form (its fields, claims and checks), the entries file beside the store (compare-and-set
under the lock, stale entries dropped), and ``score add-round`` taking them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result, file_bytes
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import pending
from scorekeeper.kit.entries import EntryError, EntryValue, RoundEntry
from scorekeeper.kit.entry_form import EntryProblem
from scorekeeper.registry import declaration_of
from scorekeeper.session import Session
from scorekeeper.store import Store


def form(game: str) -> Any:
    found = declaration_of(game).entry_form
    assert found is not None
    return found


# ---------------------------------------------------------------------------
# The form of each game


def test_every_built_in_game_declares_its_form_in_its_folder() -> None:
    for game in ("least-score", "one-card", "points", "hearts"):
        assert form(game).value.key, game
    assert [claim.key for claim in form("least-score").claims] == ["declared"]
    assert form("one-card").claims[0].sets == (("bidder", "self"), ("bid", "value"))


def test_a_posted_entry_is_read_by_the_fields_kinds() -> None:
    least = form("least-score")
    assert least.read("Ann", {"hand": " AH,3S ", "declared": True}) == \
        {"hand": "AH,3S", "declared": True}
    assert least.read("Ann", {"hand": "", "declared": False}) == {}
    with pytest.raises(EntryProblem):
        least.read("Ann", {"declared": "yes"})  # a switch is true or not there
    with pytest.raises(EntryProblem):
        least.read("Ann", {"hand": "7" * 500})
    with pytest.raises(EntryProblem):
        least.read("Ann", {"hand": ["AH"]})
    card = form("one-card")
    assert card.read("Bob", {"points": "8", "bid": "9"}) == {"points": 8, "bid": 9}
    with pytest.raises(EntryProblem, match="whole number"):
        card.read("Bob", {"points": "eight"})


def test_claims_fill_the_round_options_the_command_line_left_out() -> None:
    least = form("least-score")
    entered = {"Ann": {"hand": "3", "declared": True}, "Bob": {"hand": "KD,6C"}}
    entry = least.round_entry(RoundEntry((), declarer=None), ["Ann", "Bob"], entered)
    assert entry == RoundEntry((("Ann", "3"), ("Bob", "KD,6C")), declarer="Ann")
    typed = least.round_entry(RoundEntry((), declarer="Bob"), ["Ann", "Bob"], entered)
    assert typed.text("declarer") == "Bob"  # the keeper's command line wins
    card = form("one-card")
    entry = card.round_entry(RoundEntry(()), ["Ann", "Bob"],
                             {"Ann": {"points": 10, "bid": 9}, "Bob": {"points": 3}})
    assert (entry.text("bidder"), entry.number("bid")) == ("Ann", 9)
    assert entry.values == (("Ann", "10"), ("Bob", "3"))


def test_the_deal_waits_for_every_player_still_in_and_says_who() -> None:
    least = form("least-score")
    with pytest.raises(EntryProblem, match=r"^Bob, Cy have not entered yet"):
        least.round_entry(RoundEntry((), declarer="Ann"), ["Ann", "Bob", "Cy"],
                          {"Ann": {"hand": "3"}, "Dan": {"hand": "4"}})
    with pytest.raises(EntryProblem, match=r"^Cy has not entered yet"):
        least.round_entry(RoundEntry((), declarer="Ann"), ["Ann", "Cy"],
                          {"Ann": {"hand": "3"}, "Cy": {"declared": True}})


def test_two_players_claiming_the_same_role_are_refused_in_the_pages_words() -> None:
    """The refusal says what the players ticked, not a flag they never typed (issue
    40.3), and what the pages say: one of them must untick it."""
    entered: dict[str, dict[str, EntryValue]] = {
        "Ann": {"hand": "3", "declared": True}, "Bob": {"hand": "4", "declared": True},
        "Cy": {"hand": "5"}}
    least = form("least-score")
    with pytest.raises(EntryProblem, match=r"^Ann and Bob both ticked “I declared”: one of "
                                           r"you must untick it, or give --declarer on"):
        least.round_entry(RoundEntry(()), ["Ann", "Bob", "Cy"], entered)
    assert least.claim_conflicts(["Ann", "Bob", "Cy"], entered) == [
        ("declarer", ["Ann", "Bob"], "Ann and Bob both ticked “I declared”: one of you must "
                                     "untick it")]
    entered["Cy"]["declared"] = True
    assert least.claim_conflicts(["Ann", "Bob", "Cy"], entered)[0][2] == \
        "Ann, Bob, Cy all ticked “I declared”: all but one of you must untick it"
    # The keeper's --declarer settles it.
    assert least.round_entry(RoundEntry((), declarer="Cy"), ["Ann", "Bob", "Cy"],
                             entered).text("declarer") == "Cy"
    bids = form("one-card").claim_conflicts(["Ann", "Bob"], {"Ann": {"points": 3, "bid": 8},
                                                            "Bob": {"points": 4, "bid": 9}})
    assert bids[0][2].startswith("Ann and Bob both filled in “If you won the bidding")


def test_a_moon_in_hearts_needs_no_points_from_anyone() -> None:
    hearts = form("hearts")
    entry = hearts.round_entry(RoundEntry(()), ["Ann", "Bob", "Cy"], {"Bob": {"moon": True}})
    assert entry.values == () and entry.text("moon") == "Bob"
    assert hearts.player_entry("Bob", {"moon": True}) == RoundEntry((), moon="Bob")
    with pytest.raises(EntryProblem):
        hearts.player_entry("Bob", {})  # points or the moon


# ---------------------------------------------------------------------------
# The entries file


@pytest.fixture
def table(ok: CLI, db_path: Path) -> Store:
    ok("new", "least-score", "--player", "Ann", "--player", "Bob", "--player", "Cy",
       "--dealer", "Ann")
    return Store(db_path)


def test_an_entry_is_kept_beside_the_store_for_the_session_as_it_is(
        table: Store, db_path: Path) -> None:
    session = table.read().get(1)
    taken = pending.put(db_path, 1, session.revision, "Ann", {"hand": "7"})
    assert taken.entries == {"Ann": {"hand": "7"}}
    assert pending.entries_path(db_path) == db_path.with_name("scorekeeper.json.entries.json")
    stored = json.loads(pending.entries_path(db_path).read_text())
    assert stored["format"] == "scorekeeper-entries"
    assert stored["sessions"]["1"]["revision"] == session.revision
    assert pending.read(db_path, session).entries == {"Ann": {"hand": "7"}}
    pending.put(db_path, 1, session.revision, "Ann", {})  # taken back
    assert pending.read(db_path, session).entries == {}


def test_an_entry_for_a_session_that_moved_on_is_refused_and_writes_nothing(
        table: Store, db_path: Path, ok: CLI) -> None:
    session = table.read().get(1)
    pending.put(db_path, 1, session.revision, "Ann", {"hand": "7"})
    before = file_bytes(pending.entries_path(db_path))
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=4", "Cy=5")
    with pytest.raises(pending.StaleEntry):
        pending.put(db_path, 1, session.revision, "Bob", {"hand": "9"})
    assert file_bytes(pending.entries_path(db_path)) == before
    moved_on = table.read().get(1)
    assert pending.read(db_path, moved_on).entries == {}  # Ann's is for the deal before
    pending.put(db_path, 1, moved_on.revision, "Bob", {"hand": "9"})
    kept = json.loads(pending.entries_path(db_path).read_text())["sessions"]
    assert kept == {"1": {"revision": moved_on.revision,
                          "entries": {"Bob": {"hand": "9", "at": kept["1"]["entries"]["Bob"]
                                              ["at"]}}}}


def test_a_value_no_field_takes_in_a_hand_edited_file_is_left_out(
        table: Store, db_path: Path) -> None:
    session = table.read().get(1)
    pending.put(db_path, 1, session.revision, "Ann", {"hand": "7", "declared": True})
    path = pending.entries_path(db_path)
    data = json.loads(path.read_text())
    data["sessions"]["1"]["entries"]["Ann"] |= {"hand": ["7"], "declared": 1.5}
    data["sessions"]["1"]["entries"]["Bob"] = {"hand": "9", "declared": None}
    path.write_text(json.dumps(data))
    assert pending.read(db_path, session).entries == {"Ann": {}, "Bob": {"hand": "9",
                                                                        "declared": None}}


def test_a_damaged_entries_file_is_said_in_one_line(table: Store, db_path: Path,
                                                    refuse: Refuse) -> None:
    pending.entries_path(db_path).write_text("{not json")
    result = refuse("add-round", "--declarer", "Ann", says="can't be read")
    assert "delete that file" in result.output


# ---------------------------------------------------------------------------
# add-round takes them


def enter(db_path: Path, store: Store, player: str, fields: dict[str, Any]) -> None:
    session = store.read().get()
    pending.put(db_path, session.id or 0, session.revision, player, fields)


def test_add_round_with_no_values_records_the_entries_and_clears_them(
        table: Store, db_path: Path, ok: CLI, summary: Callable[..., dict[str, Any]]) -> None:
    enter(db_path, table, "Ann", {"hand": "AH,2S", "declared": True})
    enter(db_path, table, "Bob", {"hand": "KD,6C"})
    enter(db_path, table, "Cy", {"hand": "7"})
    result = ok("add-round")
    assert "Recorded from the players' own entries (Ann, Bob, Cy)" in result.output
    played = summary()["rounds"][0]
    assert played["declarer"] == "Ann"
    assert played["totals"] == {"Ann": 3, "Bob": 16, "Cy": 7}
    assert played["hands"] == {"Ann": ["AH", "2S"], "Bob": ["KD", "6C"]}
    assert not pending.entries_path(db_path).exists()  # cleared: the next deal opens


def test_a_refused_add_round_changes_nothing_and_names_who_is_missing(
        table: Store, db_path: Path, refuse: Refuse) -> None:
    enter(db_path, table, "Ann", {"hand": "3"})
    entries = file_bytes(pending.entries_path(db_path))
    result = refuse("add-round", "--declarer", "Ann",
                    says="Bob, Cy have not entered yet")
    assert len(result.output.strip().splitlines()) == 1
    assert file_bytes(pending.entries_path(db_path)) == entries


def test_the_entries_are_checked_exactly_as_typed_ones(
        table: Store, db_path: Path, refuse: Refuse) -> None:
    # Each entry alone is a possible hand; together a card is in two hands.
    enter(db_path, table, "Ann", {"hand": "AH,2S"})
    enter(db_path, table, "Bob", {"hand": "AH,6C"})
    enter(db_path, table, "Cy", {"hand": "7"})
    typed = refuse("add-round", "--declarer", "Ann", "Ann=AH,2S", "Bob=AH,6C", "Cy=7",
                   says="AH is in both")
    taken = refuse("add-round", "--declarer", "Ann", says="AH is in both")
    assert taken.output == typed.output
    refuse("add-round", says="declared")  # nobody said they declared, nor the keeper


def test_typed_values_win_and_make_the_entries_stale(
        table: Store, db_path: Path, ok: CLI, summary: Callable[..., dict[str, Any]]) -> None:
    enter(db_path, table, "Ann", {"hand": "9"})
    ok("add-round", "--declarer", "Bob", "Ann=3", "Bob=4", "Cy=5")
    assert summary()["rounds"][0]["totals"]["Ann"] == 3
    assert pending.read(db_path, table.read().get(1)).entries == {}


def test_one_card_takes_the_bidders_claim(ok: CLI, db_path: Path,
                                          summary: Callable[..., dict[str, Any]]) -> None:
    ok("new", "one-card", "--player", "Ann", "--player", "Bob", "--player", "Cy")
    store = Store(db_path)
    enter(db_path, store, "Ann", {"points": 9, "bid": 8})
    enter(db_path, store, "Bob", {"points": 3})
    enter(db_path, store, "Cy", {"points": 3})
    ok("add-round")
    played = summary()["rounds"][0]
    assert (played["bidder"], played["bid"], played["points"]) == \
        ("Ann", 8, {"Ann": 9, "Bob": 3, "Cy": 3})


def test_without_entries_add_round_is_as_before(table: Store, refuse: Refuse,
                                                cli: CLI) -> None:
    result: Result = refuse("add-round", "--declarer", "Ann", says="missing")
    assert "entered" not in result.output


# ---------------------------------------------------------------------------
# Entries and typing are one


PLAYERS = ("Ann", "Bob", "Cy", "Dan")
hand_values = st.one_of(st.integers(-3, 60).map(str),
                        st.sampled_from(["AH,2S", "KD,6C", "AH", "10H,10S,10D", "ZZ", "7 "]))


@given(st.dictionaries(st.sampled_from(PLAYERS), hand_values, min_size=1),
       st.sampled_from([*PLAYERS, None]), st.sets(st.sampled_from(PLAYERS), max_size=2))
def test_entries_make_the_round_typing_them_makes_or_the_same_refusal(
        hands: dict[str, str], declarer: str | None, claimed: set[str]) -> None:
    """Whatever the players enter, add-round from the entries records the round typing
    those values records, or refuses it: with the same message, or because someone has
    not entered or two claim to have declared."""
    session = Session.new("least-score", PLAYERS, dealer="Ann")
    least = form("least-score")
    entered: dict[str, dict[str, Any]] = {name: {"hand": value.strip()}
                                          for name, value in hands.items()}
    for name in claimed:
        entered.setdefault(name, {})["declared"] = True
    given = RoundEntry((), declarer=declarer)
    try:
        entry = least.round_entry(given, list(PLAYERS), entered)
    except EntryProblem as problem:
        missing = [name for name in PLAYERS if "hand" not in entered.get(name, {})]
        assert missing or (declarer is None and len(claimed) == 2), problem
        return
    assert not [name for name in PLAYERS if name not in hands]
    claimer = next(iter(claimed)) if claimed else None
    typed = RoundEntry(tuple((name, hands[name].strip()) for name in PLAYERS),
                       declarer=declarer or claimer)
    assert entry == typed
    outcomes = []
    for attempt in (entry, typed):
        try:
            outcomes.append(session.add_round(attempt).rounds[-1].to_json())
        except EntryError as refused:
            outcomes.append(str(refused))
    assert outcomes[0] == outcomes[1]
