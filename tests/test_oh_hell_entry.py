"""Each player's own entry at an Oh Hell table (issue 31.4 for Oh Hell): the form in its
folder (``bid/tricks``, as typed after ``NAME=``), each entry checked by Oh Hell's own
checks as it is sent, the deal's entries making exactly the round typing them makes (or
the same refusal), ``score add-round`` with nothing else recording it, one run of the
real ``score serve --entry`` over HTTP; and Yaniv's page in Yaniv's words."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result, file_bytes, players_args
from entries import ENTRY_LINK, Player
from hypothesis import given
from hypothesis import strategies as st
from serving import start_serve

from scorekeeper import i18n, pending
from scorekeeper.kit.entries import EntryError, RoundEntry
from scorekeeper.kit.entry_form import EntryForm, EntryProblem
from scorekeeper.registry import declaration_of
from scorekeeper.session import Session
from scorekeeper.store import Store

PLAYERS = ("Ann", "Bob", "Cy")


def form(game: str) -> EntryForm:
    found = declaration_of(game).entry_form
    assert found is not None
    return found


def check(session: Session, entry: RoundEntry) -> None:
    """What the entry page does with a player's entry as it is sent."""
    questions = session.declaration.questions
    assert questions is not None
    questions.check_given(session.seated, session.options, session.standings, entry)


def test_oh_hell_declares_its_form_in_its_folder() -> None:
    oh_hell = form("oh-hell")
    assert oh_hell.value.key == "contract" and oh_hell.value.kind == "text"
    assert oh_hell.claims == ()
    assert oh_hell.read("Ann", {"contract": " 2/1 "}) == {"contract": "2/1"}
    assert oh_hell.player_entry("Ann", {"contract": "2/1"}) == RoundEntry((("Ann", "2/1"),))
    with pytest.raises(EntryProblem, match="this is what the deal needs from you"):
        oh_hell.player_entry("Ann", {})


@pytest.mark.parametrize(("typed", "says"), [
    ("4/1", "Ann's bid 4 is impossible: this deal has 3 cards each, so 0 to 3"),
    ("1/4", "Ann's tricks 4 is impossible"),
    ("2-1", "Ann's entry '2-1' is not bid/tricks, such as Ann=2/1"),
    ("2", "is not bid/tricks"),
])
def test_each_entry_is_checked_as_it_is_sent_by_oh_hells_own_checks(
        typed: str, says: str) -> None:
    session = Session.new("oh-hell", PLAYERS, dealer="Cy", options={"most_cards": 3})
    entry = form("oh-hell").player_entry("Ann", {"contract": typed})
    with pytest.raises(EntryError) as refused:
        check(session, entry)
    assert says in str(refused.value)
    with pytest.raises(EntryError) as typed_refusal:  # the same words as add-round's
        session.add_round(RoundEntry((("Ann", typed), ("Bob", "0/1"), ("Cy", "0/1"))))
    assert str(typed_refusal.value) == str(refused.value)
    check(session, form("oh-hell").player_entry("Ann", {"contract": "3/3"}))  # fine alone


def test_the_hand_size_an_entry_is_checked_against_follows_the_schedule() -> None:
    session = Session.new("oh-hell", PLAYERS, dealer="Cy", options={"most_cards": 3})
    session = session.add_round(RoundEntry((("Ann", "1/1"), ("Bob", "1/1"), ("Cy", "0/1"))))
    with pytest.raises(EntryError, match="this deal has 2 cards each"):
        check(session, form("oh-hell").player_entry("Bob", {"contract": "3/0"}))


contracts = st.one_of(st.tuples(st.integers(0, 4), st.integers(0, 4)).map(
    lambda pair: f"{pair[0]}/{pair[1]}"), st.sampled_from(["2-1", "x", " 1 / 1 ", "", "9/9"]))


@given(st.dictionaries(st.sampled_from(PLAYERS), contracts, min_size=1))
def test_entries_make_the_round_typing_them_makes_or_the_same_refusal(
        entered_text: dict[str, str]) -> None:
    """Whatever the players enter, add-round from the entries records the round typing
    those values records, or refuses it with the same message, or waits for whoever has
    not entered."""
    session = Session.new("oh-hell", PLAYERS, dealer="Cy", options={"most_cards": 3})
    oh_hell = form("oh-hell")
    entered: dict[str, dict[str, Any]] = {}
    for name, text in entered_text.items():
        try:
            entered[name] = oh_hell.read(name, {"contract": text})
        except EntryProblem:
            return  # refused by the page before anything is kept
    try:
        entry = oh_hell.round_entry(RoundEntry(()), list(PLAYERS), entered)
    except EntryProblem as problem:
        assert [name for name in PLAYERS if "contract" not in entered.get(name, {})], problem
        return
    typed = RoundEntry(tuple((name, entered_text[name].strip()) for name in PLAYERS))
    assert entry == typed
    outcomes: list[object] = []
    for attempt in (entry, typed):
        try:
            outcomes.append(session.add_round(attempt).rounds[-1].to_json())
        except EntryError as refused:
            outcomes.append(str(refused))
    assert outcomes[0] == outcomes[1]


# ---------------------------------------------------------------------------
# add-round takes them


@pytest.fixture
def table(ok: CLI, db_path: Path) -> Store:
    ok("new", "oh-hell", *players_args(*PLAYERS), "--dealer", "Cy", "--most-cards", "3")
    return Store(db_path)


def enter(db_path: Path, store: Store, player: str, contract: str) -> None:
    session = store.read().get()
    pending.put(db_path, session.id or 0, session.revision, player, {"contract": contract})


def test_add_round_with_nothing_else_records_the_deal(
        table: Store, db_path: Path, ok: CLI, summary: Callable[..., dict[str, Any]]) -> None:
    for name, contract in (("Ann", "1/1"), ("Bob", "2/2"), ("Cy", "1/0")):
        enter(db_path, table, name, contract)
    result = ok("add-round")
    assert "Recorded from the players' own entries (Ann, Bob, Cy)" in result.output
    played = summary()["rounds"][0]
    assert played["bids"] == {"Ann": 1, "Bob": 2, "Cy": 1}
    assert played["tricks"] == {"Ann": 1, "Bob": 2, "Cy": 0}
    assert played["scores"] == {"Ann": 11, "Bob": 12, "Cy": 0}
    assert not pending.entries_path(db_path).exists()


def test_the_hook_refuses_the_entries_as_it_refuses_typing_them(
        table: Store, db_path: Path, refuse: Refuse) -> None:
    for name, contract in (("Ann", "1/1"), ("Bob", "1/1"), ("Cy", "1/1")):
        enter(db_path, table, name, contract)
    store, entries = file_bytes(db_path), file_bytes(pending.entries_path(db_path))
    typed = refuse("add-round", "Ann=1/1", "Bob=1/1", "Cy=1/1", says="the hook: Cy deals")
    taken = refuse("add-round", says="the hook: Cy deals and may not bid 1")
    assert taken.output == typed.output
    assert file_bytes(db_path) == store
    assert file_bytes(pending.entries_path(db_path)) == entries


def test_a_player_who_left_is_not_waited_for_and_one_who_joined_is(
        table: Store, db_path: Path, ok: CLI, refuse: Refuse) -> None:
    ok("add-round", "Ann=1/1", "Bob=2/2", "Cy=1/0")
    ok("add-player", "Dan")
    ok("drop-player", "Ann")  # Bob deals 2 cards: Cy, Dan, Bob bid
    for name, contract in (("Bob", "0/0"), ("Cy", "1/1")):
        enter(db_path, table, name, contract)
    refuse("add-round", says="Dan has not entered yet")
    enter(db_path, table, "Dan", "0/1")
    ok("add-round")
    assert ok("show", "--json").json()["totals"] == {"Ann": 11, "Bob": 22, "Cy": 11, "Dan": 0}


# ---------------------------------------------------------------------------
# Over HTTP, through the real `score serve --entry`


@pytest.mark.e2e
def test_each_player_enters_bid_and_tricks_on_their_own_page(
        score_exe: Path, score_env: dict[str, str], score_run: Callable[..., Result],
        db_path: Path) -> None:
    made = score_run("new", "oh-hell", *players_args(*PLAYERS), "--dealer", "Cy",
                     "--most-cards", "3")
    assert made.exit_code == 0, made.output
    served = start_serve(score_exe, score_env, "--entry")
    try:
        urls: dict[str, str] = {}
        for line in served.lines:
            match = ENTRY_LINK.match(line.rstrip("\n"))
            if match:
                urls[match.group(1)] = match.group(2)
        assert set(urls) == set(PLAYERS)
        ann = Player(urls["Ann"])
        fields = ann.state()["fields"]
        assert [(field["key"], field["example"]) for field in fields] == [("contract", "2/1")]
        status, answer = ann.post({"contract": "4/1"})
        assert status == 422
        assert answer["problem"] == ("Ann's bid 4 is impossible: this deal has 3 cards each, "
                                     "so 0 to 3")
        assert ann.post({"contract": "1/1"})[0] == 200
        assert Player(urls["Bob"]).post({"contract": "2/2"})[0] == 200
        cy = Player(urls["Cy"])
        assert cy.post({"contract": "0/1"})[0] == 200  # fine alone: 0 to 3 tricks
        before = file_bytes(db_path)
        refused = score_run("add-round")  # together the tricks are 4
        assert refused.exit_code == 1
        assert refused.stderr == "error: the tricks add up to 4, not 3: this deal has 3 tricks\n"
        assert file_bytes(db_path) == before
        assert cy.post({"contract": "1/0"})[0] == 200  # changed until the deal is recorded
        recorded = score_run("add-round")
        assert recorded.exit_code == 0, recorded.output
        assert "Recorded from the players' own entries (Ann, Bob, Cy)" in recorded.stdout
        state = Player(urls["Bob"]).state()
        assert state["deal"] == 2 and state["mine"] is None
        assert state["title"] == "Deal 2 — Ann deals"
    finally:
        code, _printed, errors = served.stop()
    assert code == 0, errors


# ---------------------------------------------------------------------------
# Yaniv's page says it in Yaniv's words


def test_yaniv_asks_who_called_yaniv_in_its_own_words() -> None:
    yaniv, least = form("yaniv"), form("least-score")
    assert yaniv.value == least.value
    assert [(claim.key, claim.sets) for claim in yaniv.claims] == \
        [(claim.key, claim.sets) for claim in least.claims]
    assert [claim.label for claim in yaniv.claims] == ["I called Yaniv"]
    assert [claim.label for claim in least.claims] == ["I declared"]
    said = {}
    for language in ("da", "ar"):
        with i18n.speaking(language):
            said[language] = i18n._("I called Yaniv")
    assert "Yaniv" in said["da"] and said["da"] != "I called Yaniv"
    assert said["ar"] != "I called Yaniv" and any("\u0600" <= c <= "\u06ff"
                                                   for c in said["ar"])
