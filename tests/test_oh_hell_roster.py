"""Players who join and leave an Oh Hell game between deals (issues 30.4 for Oh Hell):
its own rule (a late player at 0, a total within those still in, 3 to 7 players, every
deal still to come dealable from one deck), the dealer and the bidding order following
the players in the game, the hook on the dealer of that deal, a hypothesis state machine
against a model of its own, the refusals with the store unchanged, an import re-checked,
stats, and the real ``score`` end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest
from conftest import CLI, Refuse, Result, file_bytes, players_args
from examples_budget import examples
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from scorekeeper.games.oh_hell import rules
from scorekeeper.games.oh_hell.rules import Schedule
from scorekeeper.games.oh_hell.table import OhHellScored, OhHellStandings
from scorekeeper.kit.entries import EntryError, RoundEntry
from scorekeeper.kit.roster import RosterChange
from scorekeeper.registry import declaration_of
from scorekeeper.session import Session
from scorekeeper.summary import session_from_summary, summary_of

TIME = "2026-12-02T21:00:00+01:00"


def deal(session: Session, **contracts: str) -> Session:
    return session.add_round(RoundEntry(tuple(contracts.items())), time=TIME)


def three(most: int = 3, **options: Any) -> Session:
    return Session.new("oh-hell", ["Ann", "Bob", "Cy"], dealer="Cy",
                       options={"most_cards": most, **options}, time=TIME)


# ---------------------------------------------------------------------------
# The rule


def test_oh_hell_declares_its_own_rule_in_its_folder() -> None:
    rule = declaration_of("oh-hell").roster
    assert rule is not None and type(rule).__module__ == "scorekeeper.games.oh_hell.table"


def test_a_late_player_starts_at_zero_or_within_the_totals_still_in() -> None:
    session = deal(three(), Ann="1/1", Bob="2/2", Cy="1/0")  # Ann 11, Bob 12, Cy 0
    joined = session.add_player("Dan", time=TIME)
    assert joined.roster == (RosterChange(1, "Dan", joined=True, total=0),)
    assert joined.standings.totals == {"Ann": 11, "Bob": 12, "Cy": 0, "Dan": 0}
    assert session.add_player("Dan", 12, time=TIME).standings.totals["Dan"] == 12
    for wrong in (13, -1):
        with pytest.raises(EntryError, match="must be 0 to 12 .* not " + str(wrong)):
            session.add_player("Dan", wrong)
    with pytest.raises(EntryError, match="must be 0 to 0"):
        three().add_player("Dan", 5)  # before the first deal: everyone is at 0


def test_minus_scoring_lets_a_late_player_start_as_low_as_the_lowest_still_in() -> None:
    session = deal(three(bid_scoring="minus"), Ann="3/1", Bob="0/1", Cy="1/1")
    assert session.standings.totals == {"Ann": -2, "Bob": -1, "Cy": 11}
    assert session.add_player("Dan", -2, time=TIME).standings.totals["Dan"] == -2
    with pytest.raises(EntryError, match="must be -2 to 11"):
        session.add_player("Dan", -3)


def test_every_deal_still_to_come_must_be_dealable_to_the_players_then_in() -> None:
    big = Session.new("oh-hell", ["Ann", "Bob", "Cy", "Dee"], dealer="Ann",
                      options={"most_cards": 13}, time=TIME)
    assert big.standings.next_deal is not None and "13 cards" in big.standings.next_deal
    with pytest.raises(EntryError) as refused:
        big.add_player("Eve")
    assert str(refused.value) == ("deal 1 has 13 cards each, and 5 players would need 65: "
                                  "more than the 52 in a deck")
    for _ in range(3):  # 13, 12, 11 cards dealt; 10 next: 5 x 10 = 50 fits
        before = big.standings
        assert isinstance(before, OhHellStandings)
        size, dealer = before.next_size, before.next_dealer
        assert dealer is not None
        others = [name for name in before.still_in if name != dealer]
        contracts = {name: f"0/{size if name == others[0] else 0}" for name in others}
        contracts[dealer] = "1/0"  # bids add to 1: never the hand size
        big = deal(big, **contracts)
    joined = big.add_player("Eve", time=TIME)
    assert joined.standings.next_deal is not None
    assert "10 cards each" in joined.standings.next_deal
    with pytest.raises(EntryError, match="deal 4 has 10 cards each, and 6 players would "
                                         "need 60"):
        joined.add_player("Fay")


def test_the_game_keeps_three_to_seven_players() -> None:
    session = three()
    with pytest.raises(EntryError, match="needs at least 3 players still in"):
        session.drop_player("Ann")
    seven = Session.new("oh-hell", ["A1", "A2", "A3", "A4", "A5", "A6", "A7"], time=TIME)
    with pytest.raises(EntryError, match="3 to 7 players, and 7 are playing"):
        seven.add_player("A8")


def test_the_deal_and_the_bidding_follow_the_players_in_the_game() -> None:
    session = Session.new("oh-hell", ["Ann", "Bob", "Cy", "Dee"], dealer="Ann",
                          options={"most_cards": 4}, time=TIME)
    session = deal(session, Ann="0/1", Bob="1/1", Cy="1/1", Dee="1/1")  # Ann dealt
    assert session.standings.next_dealer == "Bob"
    session = session.drop_player("Bob", time=TIME)  # Bob's deal passes to Cy
    standings = session.standings
    assert standings.next_dealer == "Cy" and standings.still_in == ["Ann", "Cy", "Dee"]
    assert standings.next_deal == ("Next deal: Cy deals 3 cards each, Dee bids first "
                                   "(deal 2 of 4).")
    session = session.add_player("Eve", time=TIME)  # seated after Dee, before Ann
    assert session.standings.next_deal == ("Next deal: Cy deals 3 cards each, Dee bids first "
                                           "(deal 2 of 4).")
    with pytest.raises(EntryError, match="Bob left the game after round 1"):
        deal(session, Ann="0/0", Bob="1/1", Cy="1/1", Dee="1/1")
    with pytest.raises(EntryError, match="Eve is missing"):
        deal(session, Ann="0/1", Cy="1/1", Dee="1/1")
    session = deal(session, Ann="0/0", Cy="1/1", Dee="1/1", Eve="0/1")
    assert session.standings.next_deal == ("Next deal: Dee deals 2 cards each, Eve bids first "
                                           "(deal 3 of 4).")
    scored = session.standings.rounds[-1]
    assert scored.dealer == "Cy" and list(scored.scores) == ["Ann", "Cy", "Dee", "Eve"]


def test_the_hook_is_on_the_dealer_of_that_deal_among_the_players_in_it() -> None:
    session = Session.new("oh-hell", ["Ann", "Bob", "Cy", "Dee"], dealer="Ann",
                          options={"most_cards": 3}, time=TIME)
    session = session.drop_player("Ann", time=TIME)  # Ann's first deal passes to Bob
    with pytest.raises(EntryError, match="the hook: Bob deals and may not bid 1"):
        deal(session, Bob="1/1", Cy="1/1", Dee="1/1")
    session = deal(session, Bob="0/1", Cy="1/1", Dee="1/1")  # Bob bids 0: the bids add to 2
    session = session.add_player("Eve", time=TIME)
    assert session.standings.next_dealer == "Cy"
    with pytest.raises(EntryError, match="the hook: Cy deals and may not bid 0"):
        deal(session, Bob="1/1", Cy="0/0", Dee="1/1", Eve="0/0")


def test_a_finished_game_takes_no_change() -> None:
    session = Session.new("oh-hell", ["Ann", "Bob", "Cy"], dealer="Ann",
                          options={"most_cards": 1}, time=TIME)
    session = deal(session, Ann="1/1", Bob="1/0", Cy="1/0")
    assert session.finished
    with pytest.raises(EntryError, match="is finished"):
        session.add_player("Dan")


def test_a_leaver_never_wins() -> None:
    session = Session.new("oh-hell", ["Ann", "Bob", "Cy", "Dee"], dealer="Ann",
                          options={"most_cards": 2}, time=TIME)
    session = deal(session, Ann="0/0", Bob="2/2", Cy="1/0", Dee="0/0")  # Bob 12
    session = session.drop_player("Bob", time=TIME)
    session = deal(session, Ann="0/0", Cy="0/0", Dee="0/1")  # Ann 20, Cy 10, Dee 10
    assert session.finished and session.standings.winners == ["Ann"]
    assert session.placings() == {"Ann": 1, "Cy": 2, "Dee": 2, "Bob": 3}  # Bob 12 > 10


# ---------------------------------------------------------------------------
# Against a model


class OhHellRosterMachine(RuleBasedStateMachine):
    """Oh Hell sessions with deals, joins, leaves, undo and redo at random; after each
    step the standings must be what a plain model of the night gives: the players in each
    deal, the dealer (a leaver's deal passing on), who bids first, the hand size from the
    schedule the game started with, each total, and the store and export reading back."""

    NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
    START = ("Ann", "Bob", "Cy")
    OPTIONS: ClassVar[dict[str, Any]] = {"most_cards": 9, "hand_sizes": "both",
                                         "bid_scoring": "per-trick"}

    def __init__(self) -> None:
        super().__init__()
        self.session = Session.new("oh-hell", self.START, dealer="Bob", options=self.OPTIONS,
                                   time=TIME)
        self.sizes = rules.schedule(Schedule.DOWN_UP, 9)
        self.events: list[tuple[str, Any]] = []
        self.redo_stack: list[tuple[str, Any]] = []

    def model(self) -> tuple[dict[str, int], list[str], list[str], str, int]:
        seating, still_in, left = list(self.START), list(self.START), []
        totals = dict.fromkeys(self.START, 0)
        dealer, deals = "Bob", 0
        for kind, value in self.events:
            if kind == "join":
                name, total = value
                seating.append(name)
                still_in = [n for n in seating if n in still_in or n == name]
                totals[name] = total
            elif kind == "back":  # their seat and the total they left with
                left.remove(value)
                still_in = [n for n in seating if n in still_in or n == value]
            elif kind == "leave":
                still_in.remove(value)
                left.append(value)
                if dealer == value:
                    dealer = self._next(seating, dealer, still_in)
            else:
                for name, (bid, took) in value.items():
                    totals[name] += took + (10 if bid == took else 0)
                deals += 1
                dealer = self._next(seating, dealer, still_in)
        return totals, still_in, left, dealer, deals

    @staticmethod
    def _next(seating: list[str], dealer: str, still_in: list[str]) -> str:
        start = seating.index(dealer)
        return next(seating[(start + step) % len(seating)]
                    for step in range(1, len(seating) + 1)
                    if seating[(start + step) % len(seating)] in still_in)

    def _did(self, session: Session, event: tuple[str, Any]) -> None:
        self.session = session
        self.events.append(event)
        self.redo_stack.clear()

    @precondition(lambda self: not self.session.finished)
    @rule(data=st.data())
    def add_round(self, data: st.DataObject) -> None:
        standings = self.session.standings
        size, dealer = self.sizes[len(self.session.rounds)], standings.next_dealer
        assert dealer is not None
        order = rules.bidding_order(standings.still_in, dealer)
        tricks = [0] * len(order)
        for _trick in range(size):
            tricks[data.draw(st.integers(0, len(order) - 1))] += 1
        bids = [data.draw(st.integers(0, size)) for _name in order]
        contracts = {name: (bids[i], tricks[i]) for i, name in enumerate(order)}
        typed = {name: f"{bid}/{took}" for name, (bid, took) in contracts.items()}
        hooked = rules.hook_bid(size, bids[:-1]) == bids[-1]
        if hooked:
            with pytest.raises(EntryError, match=f"the hook: {dealer} deals"):
                deal(self.session, **typed)
            return
        self._did(deal(self.session, **typed), ("round", contracts))

    @precondition(lambda self: not self.session.finished)
    @rule(name=st.sampled_from(NAMES), total=st.none() | st.integers(-5, 40))
    def add_player(self, name: str, total: int | None) -> None:
        standings = self.session.standings
        now = [standings.totals[n] for n in standings.still_in]
        players = len(standings.still_in) + 1
        dealable = all(size * players <= rules.DECK
                       for size in self.sizes[len(self.session.rounds):])
        within = total is None or min(0, *now) <= total <= max(0, *now)
        if name in standings.left and total is None and players <= 7 and dealable:
            self._did(self.session.add_player(name, time=TIME), ("back", name))
            return
        if name in self.session.players or players > 7 or not dealable or not within:
            with pytest.raises(EntryError):
                self.session.add_player(name, total)
            return
        self._did(self.session.add_player(name, total, time=TIME),
                  ("join", (name, total or 0)))

    @precondition(lambda self: not self.session.finished)
    @rule(data=st.data())
    def drop_player(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(self.session.players))
        if name in self.session.standings.left or len(self.session.standings.still_in) <= 3:
            with pytest.raises(EntryError):
                self.session.drop_player(name)
            return
        self._did(self.session.drop_player(name, time=TIME), ("leave", name))

    @precondition(lambda self: bool(self.events))
    @rule()
    def undo(self) -> None:
        self.session = self.session.undo(time=TIME)
        self.redo_stack.append(self.events.pop())

    @precondition(lambda self: bool(self.redo_stack))
    @rule()
    def redo(self) -> None:
        self.session = self.session.redo(time=TIME)
        self.events.append(self.redo_stack.pop())

    @invariant()
    def standings_follow_the_model(self) -> None:
        totals, still_in, left, dealer, deals = self.model()
        standings = self.session.standings
        assert standings.totals == totals
        assert standings.still_in == still_in and standings.left == left
        assert [scored.hand_size for scored in standings.rounds
                if isinstance(scored, OhHellScored)] == list(self.sizes[:deals])
        if deals < len(self.sizes):
            starter = rules.bidding_order(still_in, dealer)[0]
            assert standings.next_dealer == dealer
            assert standings.next_deal == (
                f"Next deal: {dealer} deals {self.sizes[deals]} "
                f"card{'s' if self.sizes[deals] > 1 else ''} each, {starter} bids first "
                f"(deal {deals + 1} of {len(self.sizes)}).")
        else:
            assert standings.finished

    @invariant()
    def the_store_and_the_export_read_back(self) -> None:
        session = self.session
        stored = Session.from_document(json.loads(json.dumps(session.to_document())), 1)
        assert stored.standings == session.standings
        imported = session_from_summary(json.loads(json.dumps(summary_of(session))),
                                        time=TIME)
        assert imported.standings.totals == session.standings.totals
        assert imported.roster == session.roster


TestOhHellRosterMachine = OhHellRosterMachine.TestCase
TestOhHellRosterMachine.settings = settings(max_examples=examples(25), stateful_step_count=20,
                                            deadline=None)


# ---------------------------------------------------------------------------
# Through the command line


@pytest.fixture
def night(ok: CLI) -> None:
    ok("new", "oh-hell", *players_args("Ann", "Bob", "Cy"), "--dealer", "Cy",
       "--most-cards", "3")
    ok("add-round", "Ann=1/1", "Bob=2/2", "Cy=1/0")  # Ann 11, Bob 12, Cy 0


@pytest.mark.parametrize(("args", "says"), [
    (("add-player", "Dan", "--total", "13"), "must be 0 to 12 (0, or a total still in), "
                                             "not 13"),
    (("add-player", "Dan", "--total", "-1"), "must be 0 to 12"),
    (("add-player", "Bob"), "Bob is already a player"),
    (("drop-player", "Ann"), "Oh Hell needs at least 3 players still in"),
    (("drop-player", "Zed"), "no player called 'Zed'"),
])
def test_refusals_change_nothing(night: None, refuse: Refuse, db_path: Path,
                                 args: tuple[str, ...], says: str) -> None:
    before = file_bytes(db_path)
    result = refuse(*args, says=says)
    assert len(result.stderr.splitlines()) == 1
    assert file_bytes(db_path) == before


def test_a_change_no_deck_can_deal_is_refused_naming_the_deal(ok: CLI,
                                                               refuse: Refuse) -> None:
    ok("new", "oh-hell", *players_args("Ann", "Bob", "Cy", "Dee"), "--most-cards", "12")
    result = refuse("add-player", "Eve",
                    says="deal 1 has 12 cards each, and 5 players would need 60: more than "
                         "the 52 in a deck")
    assert result.stderr.count("\n") == 1


def test_an_import_rechecks_oh_hells_roster(night: None, ok: CLI, cli: CLI, db_path: Path,
                                            tmp_path: Path) -> None:
    ok("add-player", "Dan", "--total", "5")
    ok("drop-player", "Bob")
    exported = json.loads(ok("export", "--format", "json").stdout)
    path = tmp_path / "good.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    ok("import", "--again", path)
    assert json.loads(ok("export", "--format", "json").stdout)["roster"] == exported["roster"]

    def refused(data: dict[str, Any], says: str) -> None:
        path.write_text(json.dumps(data), encoding="utf-8")
        before = file_bytes(db_path)
        result = cli("import", "--again", path)
        assert result.exit_code == 1 and says in result.stderr, result
        assert len(result.stderr.splitlines()) == 1
        assert file_bytes(db_path) == before

    refused({**exported, "roster": [{"after": 1, "join": "Dan", "total": 40},
                                    exported["roster"][1]],
             "totals": {**exported["totals"], "Dan": 40}}, "must be 0 to 12")
    refused({**exported, "totals": {**exported["totals"], "Dan": 6}}, "totals")


def test_stats_count_the_deals_each_player_was_in(night: None, ok: CLI) -> None:
    ok("add-player", "Dan")
    ok("drop-player", "Cy")
    ok("add-round", "Ann=0/0", "Bob=1/1", "Dan=0/1")  # Ann deals (Cy left), Bob bids first
    ok("add-round", "Ann=1/1", "Bob=1/0", "Dan=1/0")
    data = ok("stats", "--json").json()
    places = {player["name"]: player["last_results"][0]["place"] for player in data["players"]}
    assert places == {"Ann": 1, "Bob": 2, "Dan": 3, "Cy": 4}  # Cy left: last
    figures = data["games"]["oh-hell"]["players"]
    assert figures["Cy"] == {"made_rate": 0.0, "average_bid": 1.0, "average_tricks": 0.0,
                             "points_per_deal": 0.0}  # one deal, before leaving
    assert figures["Dan"] == {"made_rate": 0.0, "average_bid": 0.5, "average_tricks": 0.5,
                              "points_per_deal": 0.0}  # the two deals after joining
    assert figures["Ann"]["points_per_deal"] == pytest.approx(32 / 3, abs=1e-4)


@pytest.mark.e2e
def test_end_to_end(night: None, score_run: Any) -> None:
    def run(*args: Any) -> Result:
        result: Result = score_run(*args)
        assert result.exit_code == 0, result
        return result

    assert "Dan joins Oh Hell #1 at 0, where every player started." in \
        run("add-player", "Dan").stdout
    left = run("drop-player", "ann")
    assert "Ann leaves Oh Hell #1; their rounds stay." in left.stdout
    assert "Next deal: Bob deals 2 cards each, Cy bids first (deal 2 of 3)." in left.stdout
    hooked = score_run("add-round", "Bob=1/1", "Cy=0/0", "Dan=1/1")
    assert hooked.exit_code == 1 and hooked.stderr == \
        "error: the hook: Bob deals and may not bid 1, which makes the bids add up to 2\n"
    run("add-round", "Bob=0/0", "Cy=1/1", "Dan=0/1")
    shown = run("show", "--json").json()
    assert shown["totals"] == {"Ann": 11, "Bob": 22, "Cy": 11, "Dan": 0}
    assert shown["next_dealer"] == "Cy"
    assert shown["roster"] == [{"after": 1, "join": "Dan", "total": 0},
                               {"after": 1, "leave": "Ann"}]
    assert shown["rounds"][1]["hand_size"] == 2 and shown["rounds"][1]["dealer"] == "Bob"
    danish = score_run("add-player", "Eve", "--total", "99", env={"SCOREKEEPER_LANG": "da"})
    assert danish.exit_code == 1 and danish.stderr == (
        "error: en sen spillers total skal være 0 til 22 (0 eller en total, der stadig er "
        "med), ikke 99\n")
