"""Players who join and leave between deals (issue 30.4): ``score add-player`` and
``score drop-player``.

The game's own rule (its declaration's ``roster``) per game; the session's checks and
its standings with a roster (a hypothesis state machine against a model of its own);
undo and redo; the store and every export; an import re-checked; statistics; the
refusals (one line, exit 1, the store unchanged; a malformed command line exit 2);
and the real ``score`` end to end.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import CLI, Refuse, Result, file_bytes
from examples_budget import examples
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from rules_model import least_score_deal

from scorekeeper import registry
from scorekeeper.csv_import import session_from_csv
from scorekeeper.kit.entries import EntryError, RoundEntry
from scorekeeper.kit.roster import RosterChange, RosterRule
from scorekeeper.kit.standings import Standings
from scorekeeper.registry import declaration_of
from scorekeeper.session import Session
from scorekeeper.summary import session_from_summary, summary_of
from scorekeeper.views import export as export_view
from scorekeeper.views import pages

TIME = "2026-12-02T20:00:00+01:00"


def least_round(session: Session, declarer: str, **totals: int) -> Session:
    entry = RoundEntry(tuple((name, str(total)) for name, total in totals.items()),
                       declarer=declarer)
    return session.add_round(entry, time=TIME)


def points_round(session: Session, **points: int) -> Session:
    return session.add_round(RoundEntry(tuple((name, str(value))
                                              for name, value in points.items())), time=TIME)


# ---------------------------------------------------------------------------
# Each game's rule (the hook its declaration gives)


def test_least_score_starts_a_late_player_at_the_highest_total_still_in() -> None:
    session = Session.new("least-score", ["Ann", "Bob", "Cy"], dealer="Ann",
                          options={"limit": 25}, time=TIME)
    assert session.add_player("Dan", time=TIME).standings.totals["Dan"] == 0  # no deal yet
    session = least_round(session, "Ann", Ann=2, Bob=20, Cy=9)  # Bob 18, Cy 7
    session = least_round(session, "Ann", Ann=2, Bob=10, Cy=9)  # Bob 26: out; Cy 14
    assert session.standings.knocked_out == ["Bob"]
    assert session.standings.totals == {"Ann": 0, "Bob": 26, "Cy": 14}
    joined = session.add_player("Dan", time=TIME)
    assert joined.standings.totals["Dan"] == 14  # Cy's, not knocked-out Bob's 26
    assert joined.roster == (RosterChange(2, "Dan", joined=True, total=14),)
    assert joined.add_player("Eve", 25, time=TIME).standings.totals["Eve"] == 25
    for wrong in (26, -1):
        with pytest.raises(EntryError, match="0 to the limit, 25"):
            joined.add_player("Eve", wrong)


def test_a_variant_inherits_least_score_rule() -> None:
    rule = declaration_of("least-score").roster
    assert rule is not None
    assert type(rule).__name__ == "LeastScoreRoster"
    for declaration in registry.DECLARATIONS.values():
        if declaration.base == "scorekeeper.games.least_score":  # Yaniv, where installed
            assert declaration.roster is rule


def test_points_and_hearts_start_a_late_player_at_zero_under_the_target() -> None:
    for game, players in (("points", ["Ann", "Bob"]), ("hearts", ["Ann", "Bob", "Cy"])):
        assert declaration_of(game).roster is declaration_of("points").roster
        session = Session.new(game, players, time=TIME)
        joined = session.add_player("Dan", time=TIME)
        assert joined.standings.totals["Dan"] == 0
        assert joined.add_player("Eve", -40, time=TIME).standings.totals["Eve"] == -40
        with pytest.raises(EntryError, match="under the target, 100"):
            session.add_player("Dan", 100)
    untargeted = Session.new("points", ["Ann", "Bob"], options={"target": 0, "rounds": 5},
                             time=TIME)
    assert untargeted.add_player("Dan", 5000, time=TIME).standings.totals["Dan"] == 5000


def test_one_card_keeps_two_to_four_players() -> None:
    session = Session.new("one-card", ["Ann", "Bob", "Cy", "Dee"], time=TIME)
    with pytest.raises(EntryError, match="One Card takes 2 to 4 players, and 4 are playing"):
        session.add_player("Eve")
    session = session.drop_player("dee", time=TIME)  # matched ignoring case
    session = session.drop_player("Cy", time=TIME)
    with pytest.raises(EntryError, match="at least 2 players still in"):
        session.drop_player("Bob")
    joined = session.add_player("Eve", time=TIME)
    assert joined.standings.still_in == ["Ann", "Bob", "Eve"]
    with pytest.raises(EntryError, match="under the target 30"):
        session.add_player("Eve", 30)


class RuleWithoutStandings(RosterRule):
    """The generic rule's parts, and the one method a game must give left out."""


def test_the_generic_rule_starts_at_zero_within_bounds() -> None:
    with pytest.raises(TypeError, match=r"abstract method.*recompute"):
        RuleWithoutStandings()  # type: ignore[abstract]  # what mypy flags too

    class Rule(RosterRule):
        def recompute(self, *args: object) -> Standings:
            raise AssertionError("not called here")

    rule = Rule()
    table = declaration_of("points").table
    session = Session.new("points", ["Ann", "Bob"], time=TIME)
    assert rule.starting_total(table, session.options, session.standings) == 0
    rule.check_total(table, session.options, -1_000_000)
    with pytest.raises(EntryError, match="within 1000000"):
        rule.check_total(table, session.options, 1_000_001)


def test_a_game_without_a_rule_keeps_its_players(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed = replace(declaration_of("points"), roster=None)
    monkeypatch.setattr("scorekeeper.session.declaration_of", lambda game: fixed)
    session = Session.new("points", ["Ann", "Bob"], time=TIME)
    with pytest.raises(EntryError, match="keeps the players it started with"):
        session.add_player("Cy")
    with pytest.raises(EntryError, match="keeps the players it started with"):
        session.drop_player("Ann")


def test_a_virtual_game_keeps_its_seats() -> None:
    session = replace(Session.new("least-score", ["Ann", "Bob", "Cy"], time=TIME),
                      mode="virtual")
    for change in (lambda: session.add_player("Dan"), lambda: session.drop_player("Ann")):
        with pytest.raises(EntryError, match="virtual deck, whose seats are fixed"):
            change()


# ---------------------------------------------------------------------------
# The deal rotation, the end of the game and the standings follow the roster


def test_the_deal_passes_over_a_leaver_and_reaches_a_late_player() -> None:
    session = Session.new("points", ["Ann", "Bob", "Cy"], dealer="Ann", time=TIME)
    session = points_round(session, Ann=1, Bob=2, Cy=3)
    assert session.standings.next_dealer == "Bob"
    session = session.drop_player("Bob", time=TIME)
    assert session.standings.next_dealer == "Cy"  # Bob's deal passes to the next still in
    session = session.add_player("Dan", time=TIME)
    session = points_round(session, Ann=1, Cy=3, Dan=4)
    assert session.standings.next_dealer == "Dan"  # the late player sits after Cy
    assert [summary.dealer for summary in session.standings.rounds] == ["Ann", "Cy"]
    with pytest.raises(EntryError, match="Bob left the game after round 1"):
        points_round(session, Ann=1, Bob=2, Cy=3, Dan=4)


def test_a_leaver_never_wins_and_is_placed_last() -> None:
    session = Session.new("points", ["Ann", "Bob", "Cy"], options={"target": 50}, time=TIME)
    session = points_round(session, Ann=10, Bob=45, Cy=0)
    session = session.drop_player("Bob", time=TIME)  # the leader leaves
    session = points_round(session, Ann=40, Cy=0)
    standings = session.standings
    assert standings.finished and standings.winners == ["Ann"]
    assert standings.left == ["Bob"]
    assert session.placings() == {"Ann": 1, "Cy": 2, "Bob": 3}


def test_least_score_last_standing_ends_among_those_still_in() -> None:
    session = Session.new("least-score", ["Ann", "Bob", "Cy"], options={"limit": 25},
                          time=TIME)
    session = session.drop_player("Cy", time=TIME)
    with pytest.raises(EntryError, match="at least 2 players still in"):
        session.drop_player("Bob")
    session = least_round(session, "Ann", Ann=2, Bob=30)  # Bob out: Ann stands alone
    assert session.standings.finished and session.standings.winners == ["Ann"]
    with pytest.raises(EntryError, match="is finished"):
        session.add_player("Dan")


def test_undo_and_redo_take_back_the_last_change_of_either_kind() -> None:
    session = Session.new("points", ["Ann", "Bob"], time=TIME)
    session = points_round(session, Ann=1, Bob=2)
    session = session.add_player("Cy", 5, time=TIME)
    undone = session.undo(time=TIME)
    assert undone.players == ("Ann", "Bob") and not undone.roster
    assert len(undone.rounds) == 1
    again = undone.redo(time=TIME)
    assert again.roster == session.roster and again.players == session.players
    assert [entry["change"] for entry in again.history[-3:]] == ["add-player", "undo", "redo"]
    round_undone = again.undo(time=TIME).undo(time=TIME)
    assert not round_undone.rounds and not round_undone.roster
    back = round_undone.redo(time=TIME).redo(time=TIME)
    assert back.standings.totals == session.standings.totals
    assert back.standings.starting == {"Cy": 5}


def test_a_player_who_left_comes_back_in_their_seat_and_nobody_joins_twice() -> None:
    session = points_round(Session.new("points", ["Ann", "Bob", "Cy"], dealer="Ann",
                                       time=TIME), Ann=3, Bob=4, Cy=5)
    session = session.drop_player("Cy", time=TIME)
    session = points_round(session, Ann=1, Bob=1)
    with pytest.raises(EntryError, match=r"left .* at 5 and comes back at that total"):
        session.add_player("cy", 0)
    back = session.add_player("cy", time=TIME)
    assert back.players == ("Ann", "Bob", "Cy") and back.roster[-1].to_json() == {
        "after": 2, "back": "Cy"}
    assert back.standings.still_in == ["Ann", "Bob", "Cy"] and not back.standings.left
    assert back.standings.totals == {"Ann": 4, "Bob": 5, "Cy": 5}
    assert back.standings.starting == {}  # not a late player
    again = points_round(back, Ann=1, Bob=1, Cy=1)
    assert again.standings.running_totals()[-1] == again.standings.totals
    session = session.add_player("Dan", time=TIME).drop_player("Dan", time=TIME)
    dan = session.add_player("Dan", time=TIME)  # a late player who left comes back too
    assert dan.standings.starting == {"Dan": 0} and "Dan" in dan.standings.still_in
    with pytest.raises(EntryError, match="Ann is already a player"):
        session.add_player("ＡＮＮ")  # the same name in fullwidth letters
    with pytest.raises(EntryError, match="already left"):
        session.drop_player("Cy")
    with pytest.raises(EntryError, match="no player called 'Zed'"):
        session.drop_player("Zed")


def test_an_edit_that_makes_a_later_join_impossible_is_refused() -> None:
    session = Session.new("least-score", ["Ann", "Bob", "Cy"], options={"limit": 25},
                          time=TIME)
    session = least_round(session, "Ann", Ann=2, Bob=20, Cy=9)
    session = session.add_player("Dan", 20, time=TIME)
    edited = session.edit_round(1, RoundEntry((("Ann", "2"), ("Bob", "21"), ("Cy", "9")),
                                              declarer="Ann"), time=TIME)
    assert edited.standings.totals["Dan"] == 20
    standings = session.before_round(1).standings
    assert standings.still_in == ["Ann", "Bob", "Cy"]
    left = session.drop_player("Cy", time=TIME)
    out = RoundEntry((("Ann", "2"), ("Bob", "20"), ("Cy", "40")), declarer="Ann")
    with pytest.raises(EntryError, match=r"^that edit makes a later change of players "
                                         r"impossible \(Cy left after round 1: Cy is not "
                                         r"playing, so can't leave\); if the edit is right"):
        left.edit_round(1, out, time=TIME)


# ---------------------------------------------------------------------------
# A state machine: add and drop players, add rounds, undo, redo, against a model


class RosterMachine(RuleBasedStateMachine):
    """Points sessions changed at random; after each step the standings must be what a
    plain model of the night gives: each player's starting total plus their deals, the
    players still in, who left, who deals next; the store's document and the export
    must read back to the same standings."""

    NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")

    def __init__(self) -> None:
        super().__init__()
        self.session = Session.new("points", ["Ann", "Bob"], dealer="Ann",
                                   options={"target": 0, "rounds": 1000}, time=TIME)
        self.events: list[tuple[str, Any]] = []  # what the model replays
        self.redo_stack: list[tuple[str, Any]] = []

    # -- the model -------------------------------------------------------------

    def model(self) -> tuple[dict[str, int], list[str], list[str], str | None]:
        seating, still_in, left = ["Ann", "Bob"], ["Ann", "Bob"], []
        totals = {"Ann": 0, "Bob": 0}
        dealer: str | None = "Ann"
        for kind, value in self.events:
            if kind == "join":
                name, total = value
                seating.append(name)
                still_in = [n for n in seating if n in still_in or n == name]
                totals[name] = total
            elif kind == "leave":
                still_in.remove(value)
                left.append(value)
            elif kind == "back":  # their seat and the total they left with
                left.remove(value)
                still_in = [n for n in seating if n in still_in or n == value]
            else:
                for name, points in value.items():
                    totals[name] += points
                dealer = self._next(seating, dealer, still_in)
            if dealer not in still_in:
                dealer = self._next(seating, dealer, still_in)
        return totals, still_in, left, dealer

    @staticmethod
    def _next(seating: list[str], dealer: str | None, still_in: list[str]) -> str | None:
        assert dealer is not None
        start = seating.index(dealer)
        for step in range(1, len(seating) + 1):
            if seating[(start + step) % len(seating)] in still_in:
                return seating[(start + step) % len(seating)]
        return None

    def _did(self, session: Session, event: tuple[str, Any]) -> None:
        self.session = session
        self.events.append(event)
        self.redo_stack.clear()

    # -- the steps -------------------------------------------------------------

    @rule(data=st.data())
    def add_round(self, data: st.DataObject) -> None:
        still_in = self.session.standings.still_in
        points = {name: data.draw(st.integers(-50, 50)) for name in still_in}
        self._did(points_round(self.session, **points), ("round", points))

    @rule(name=st.sampled_from(NAMES), total=st.none() | st.integers(-100, 100))
    def add_player(self, name: str, total: int | None) -> None:
        if name in self.session.standings.left and total is None \
                and len(self.session.standings.still_in) < 12:  # a player who left is back
            self._did(self.session.add_player(name, time=TIME), ("back", name))
            return
        if name in self.session.players or len(self.session.standings.still_in) >= 12:
            with pytest.raises(EntryError):
                self.session.add_player(name, total)
            return
        changed = self.session.add_player(name, total, time=TIME)
        self._did(changed, ("join", (name, 0 if total is None else total)))

    @rule(data=st.data())
    def drop_player(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(self.session.players))
        if name in self.session.standings.left or len(self.session.standings.still_in) <= 2:
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

    # -- the checks -------------------------------------------------------------

    @invariant()
    def standings_follow_the_model(self) -> None:
        totals, still_in, left, dealer = self.model()
        standings = self.session.standings
        assert standings.totals == totals
        assert standings.still_in == still_in
        assert standings.left == left
        assert standings.next_dealer == dealer
        assert sorted(self.session.players) == sorted(totals)

    @invariant()
    def the_store_and_the_export_read_back(self) -> None:
        session = self.session
        stored = Session.from_document(json.loads(json.dumps(session.to_document())), 1)
        assert stored.standings == session.standings
        assert stored.undone == session.undone
        imported = session_from_summary(json.loads(json.dumps(summary_of(session))),
                                        time=TIME)
        assert imported.standings.totals == session.standings.totals
        assert imported.roster == session.roster
        if session.rounds:  # the CSV export reads back too (a file holds at least a deal)
            from_csv = session_from_csv(export_view.to_csv(session), "points",
                                        session.stored_options, dealer="Ann")
            assert from_csv.standings == session.standings
            assert from_csv.roster == session.roster
            assert from_csv.players == session.players


TestRosterMachine = RosterMachine.TestCase
TestRosterMachine.settings = settings(max_examples=examples(30), stateful_step_count=20,
                                      deadline=None)


class LeastScoreRosterMachine(RuleBasedStateMachine):
    """Least Score (limit 25, so players go out) changed at random, against a model
    scored by tests/rules_model.py: a late player starts at the highest total still in,
    the knocked-out and those who left play no more deals, the last player standing
    wins, and the deal passes to the left among the players still in."""

    NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")

    def __init__(self) -> None:
        super().__init__()
        self.session = Session.new("least-score", ["Ann", "Bob", "Cy"], dealer="Ann",
                                   options={"limit": 25}, time=TIME)
        self.events: list[tuple[str, Any]] = []
        self.redo_stack: list[tuple[str, Any]] = []

    def model(self) -> tuple[dict[str, int], list[str], list[str], list[str], str | None]:
        seating = ["Ann", "Bob", "Cy"]
        totals = dict.fromkeys(seating, 0)
        still_in, out, left = list(seating), [], []
        dealer: str | None = "Ann"
        rounds = 0
        for kind, value in self.events:
            if kind == "join":
                name, typed = value
                start = max(totals[n] for n in still_in) if rounds else 0
                totals[name] = start if typed is None else typed
                seating.append(name)
                still_in.append(name)
            elif kind == "leave":
                still_in.remove(value)
                left.append(value)
            elif kind == "back":  # their seat and the total they left with
                left.remove(value)
                still_in = [n for n in seating if n in still_in or n == value]
            else:
                declarer, hands = value
                scores, _false = least_score_deal(hands, declarer, "declarer-wins")
                for name, points in scores.items():
                    totals[name] += points
                gone = [n for n in still_in if totals[n] > 25]
                out += gone
                still_in = [n for n in still_in if n not in gone]
                rounds += 1
                dealer = RosterMachine._next(seating, dealer, still_in) if still_in else None
            if dealer is not None and dealer not in still_in and still_in:
                dealer = RosterMachine._next(seating, dealer, still_in)
        if len(still_in) <= 1:
            dealer = None  # the game is over
        return totals, still_in, out, left, dealer

    def _did(self, session: Session, event: tuple[str, Any]) -> None:
        self.session, self.redo_stack = session, []
        self.events.append(event)

    @precondition(lambda self: not self.session.finished)
    @rule(data=st.data())
    def add_round(self, data: st.DataObject) -> None:
        still_in = self.session.standings.still_in
        declarer = data.draw(st.sampled_from(still_in))
        hands = {name: data.draw(st.integers(1, 20)) for name in still_in}
        self._did(least_round(self.session, declarer, **hands), ("round", (declarer, hands)))

    @precondition(lambda self: not self.session.finished)
    @rule(name=st.sampled_from(NAMES), total=st.none() | st.integers(0, 25))
    def add_player(self, name: str, total: int | None) -> None:
        if name in self.session.standings.left and total is None:  # back, never the out
            self._did(self.session.add_player(name, time=TIME), ("back", name))
            return
        if name in self.session.players:
            with pytest.raises(EntryError):
                self.session.add_player(name, total)
            return
        self._did(self.session.add_player(name, total, time=TIME), ("join", (name, total)))

    @precondition(lambda self: not self.session.finished)
    @rule(data=st.data())
    def drop_player(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(self.session.players))
        standings = self.session.standings
        if name not in standings.still_in or len(standings.still_in) <= 2:
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
        totals, still_in, out, left, dealer = self.model()
        standings = self.session.standings
        assert standings.totals == totals
        assert standings.still_in == still_in
        assert standings.knocked_out == out
        assert standings.left == left
        assert standings.next_dealer == dealer
        assert standings.finished == (len(still_in) <= 1)
        assert standings.winners == (still_in if standings.finished else [])
        imported = session_from_summary(json.loads(json.dumps(summary_of(self.session))),
                                        time=TIME)
        assert imported.standings == standings
        if self.session.rounds:
            from_csv = session_from_csv(export_view.to_csv(self.session), "least-score",
                                        self.session.stored_options, dealer="Ann")
            assert from_csv.standings == standings
            assert from_csv.roster == self.session.roster


TestLeastScoreRosterMachine = LeastScoreRosterMachine.TestCase
TestLeastScoreRosterMachine.settings = settings(max_examples=examples(30), stateful_step_count=20,
                                                deadline=None)


# ---------------------------------------------------------------------------
# The store and the exports


def test_a_session_without_changes_is_stored_as_before() -> None:
    session = points_round(Session.new("points", ["Ann", "Bob"], time=TIME), Ann=1, Bob=2)
    assert "roster" not in session.to_document()
    assert "roster" not in summary_of(session)
    changed = session.add_player("Cy", time=TIME).drop_player("Ann", time=TIME)
    assert changed.to_document()["roster"] == [{"after": 1, "join": "Cy", "total": 0},
                                               {"after": 1, "leave": "Ann"}]
    undone = changed.undo(time=TIME).to_document()["undone"]
    assert undone == [{"roster": {"after": 1, "leave": "Ann"}}]


def test_every_export_shows_who_joined_and_left() -> None:
    session = Session.new("least-score", ["Ann", "Bob", "Cy"], time=TIME).with_id(1)
    session = least_round(session, "Ann", Ann=2, Bob=20, Cy=9)
    session = session.add_player("Dan", time=TIME).drop_player("Cy", time=TIME)
    session = least_round(session, "Bob", Ann=9, Bob=3, Dan=4)
    markdown = export_view.to_markdown(session)
    assert "Joined and left: Dan joined at 18 after round 1; Cy left after round 1" in markdown
    assert "| Cy | 7 | — | left |" in markdown
    html = export_view.to_html(session)
    assert "Dan joined at 18 after round 1" in html
    lines = {name: points.split() for points, name in
             re.findall(r'points="([^"]*)"><title>(\w+)</title>', html)}
    assert [len(lines[name]) for name in ("Ann", "Bob", "Cy", "Dan")] == [3, 3, 2, 2]
    assert lines["Dan"][0].split(",")[0] == lines["Cy"][1].split(",")[0]  # from round 1
    rows = export_view.to_csv(session).splitlines()
    assert rows[0].endswith(",joined or left before")
    assert rows[2].endswith(",Dan joined at 18; Cy left")
    data = json.loads(export_view.to_json(session))
    assert data["roster"] == [{"after": 1, "join": "Dan", "total": 18},
                              {"after": 1, "leave": "Cy"}]
    assert data["players"] == ["Ann", "Bob", "Cy", "Dan"]
    page = pages.render_session(session).body
    assert "Dan joined at 18 after round 1" in page and "left" in page


# ---------------------------------------------------------------------------
# Through the command line: refusals, import, stats, completion


def _night(ok: CLI) -> None:
    ok("new", "least-score", "--player", "Ann", "--player", "Bob", "--player", "Cy",
       "--dealer", "Ann", "--limit", "25")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=20", "Cy=9")


REFUSED = [
    (("add-player", "Bob"), "Bob is already a player"),
    (("add-player", "Dan", "--total", "26"), "0 to the limit, 25"),
    (("add-player", "Dan", "--total", "-3"), "0 to the limit, 25"),
    (("add-player", "D=an"), "can't contain '='"),
    (("add-player", "Dan\x1b[31m"), "invisible control character"),
    (("add-player", "x" * 41), "too long"),
    (("add-player", "Dan", "--session", "9"), "9"),
    (("drop-player", "Zed"), "no player called 'Zed'"),
    (("drop-player", "Cy", "--session", "9"), "9"),
]


@pytest.mark.parametrize(("args", "says"), REFUSED)
def test_refusals(ok: CLI, refuse: Refuse, args: tuple[str, ...], says: str) -> None:
    _night(ok)
    refuse(*args, says=says)


def test_refusals_that_follow_a_change(ok: CLI, refuse: Refuse) -> None:
    _night(ok)
    ok("drop-player", "Cy")
    refuse("drop-player", "Bob", says="at least 2 players still in")
    refuse("drop-player", "cy", says="already left")
    refuse("add-player", "Cy", "--total", "3", says="comes back at that total")
    assert "Cy is back in" in ok("add-player", "cy").stdout  # in their seat, at their total
    refuse("add-player", "Cy", says="already a player")
    ok("drop-player", "Cy")
    ok("add-round", "--declarer", "Ann", "Ann=2", "Bob=10")  # Bob 30: out, Ann wins
    refuse("add-player", "Dan", says="is finished")
    refuse("drop-player", "Ann", says="is finished")


@pytest.mark.parametrize("args", [("add-player",), ("drop-player",),
                                  ("add-player", "Dan", "--total", "x"),
                                  ("add-player", "Dan", "--total"),
                                  ("drop-player", "Ann", "--total", "3")])
def test_a_malformed_command_line_is_exit_2(ok: CLI, refuse: Refuse,
                                            args: tuple[str, ...]) -> None:
    _night(ok)
    refuse(*args, code=2)


def _import_refused(cli: CLI, db_path: Path, tmp_path: Path, data: dict[str, Any],
                    says: str) -> None:
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = file_bytes(db_path)
    result = cli("import", path)
    assert result.exit_code == 1, result
    assert len(result.stderr.splitlines()) == 1 and says in result.stderr, result.stderr
    assert file_bytes(db_path) == before


def test_an_import_rechecks_the_roster(ok: CLI, cli: CLI, db_path: Path,
                                       tmp_path: Path) -> None:
    ok("new", "one-card", "--player", "Ann", "--player", "Bob", "--player", "Cy",
       "--dealer", "Ann")
    ok("add-player", "Dee")
    ok("drop-player", "Bob")
    exported = json.loads(ok("export", "--format", "json").stdout)
    path = tmp_path / "good.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    ok("import", path)
    imported = json.loads(ok("export", "--format", "json").stdout)
    assert imported["roster"] == exported["roster"]
    assert imported["players"] == ["Ann", "Bob", "Cy", "Dee"]

    five = {**exported, "players": [*exported["players"], "Eve"],
            "roster": [exported["roster"][0], {"after": 0, "join": "Eve", "total": 0}],
            "totals": {**exported["totals"], "Eve": 0}}
    _import_refused(cli, db_path, tmp_path, five, "2 to 4 players still in, not 5")
    late = {**exported, "roster": [{"after": 3, "join": "Dee", "total": 0}]}
    _import_refused(cli, db_path, tmp_path, late, "each after round 0 to 0")
    stranger = {**exported, "roster": [*exported["roster"], {"after": 0, "leave": "Zed"}]}
    _import_refused(cli, db_path, tmp_path, stranger, "Zed is not among")
    too_high = {**exported, "roster": [{"after": 0, "join": "Dee", "total": 30}]}
    _import_refused(cli, db_path, tmp_path, too_high, "under the target 30")
    shape = {**exported, "roster": [{"after": 0, "join": ["Dee"], "total": 0}]}
    _import_refused(cli, db_path, tmp_path, shape, "a roster change must be")
    wrong_totals = {**exported, "totals": {**exported["totals"], "Dee": 5}}
    _import_refused(cli, db_path, tmp_path, wrong_totals, "totals")


def test_stats_count_a_late_player_and_a_leaver_as_played_not_won(ok: CLI) -> None:
    ok("new", "points", "--player", "Ann", "--player", "Bob", "--player", "Cy",
       "--target", "50")
    ok("add-round", "Ann=10", "Bob=45", "Cy=0")
    ok("drop-player", "Bob")
    ok("add-player", "Dan")
    ok("add-round", "Ann=40", "Cy=0", "Dan=5")
    data = ok("stats", "--json").json()
    players = {player["name"]: player for player in data["players"]}
    assert {name: players[name]["games"] for name in players} == \
        {"Ann": 1, "Bob": 1, "Cy": 1, "Dan": 1}
    assert players["Ann"]["wins"] == 1 and players["Bob"]["wins"] == 0
    assert players["Bob"]["last_results"][0]["place"] == 4


def test_show_json_and_log(ok: CLI) -> None:
    _night(ok)
    ok("add-player", "Dan")
    ok("drop-player", "Cy")
    shown = ok("show", "--json").json()
    statuses = {row["player"]: row["status"] for row in shown["standings"]}
    assert statuses == {"Ann": "in", "Bob": "in", "Dan": "in", "Cy": "left"}
    assert next(row for row in shown["standings"] if row["player"] == "Cy")["left_after"] == 1
    assert shown["next_dealer"] == "Bob"
    log = ok("log", "--json").json()
    changes = [entry["change"] for entry in log["history"]]
    assert changes[-2:] == ["add-player", "drop-player"]
    assert ok("undo").stdout.startswith("Took back: Cy left. (`score redo` brings it back.)")
    ok("undo")
    assert "roster" not in ok("export", "--format", "json").json()
    assert ok("redo").stdout.startswith("Brought back: Dan joined at 18.")
    assert ok("export", "--format", "json").json()["roster"] == \
        [{"after": 1, "join": "Dan", "total": 18}]


@pytest.mark.e2e
def test_completion_offers_players_to_drop_and_to_join(ok: CLI, score_run: Any) -> None:
    ok("new", "points", "--player", "Zoe", "--player", "Yan", "--player", "Xu")
    _night(ok)

    def complete(*words: str) -> list[str]:
        line = " ".join(("score", *words))
        result = score_run(env={"_SCORE_COMPLETE": "complete_bash", "COMP_WORDS": line,
                                "COMP_CWORD": str(len(words))})
        assert result.exit_code == 0 and "Traceback" not in result.output, result
        return list(result.stdout.split())

    assert complete("drop-player", "B") == ["Bob"]
    assert complete("add-player", "") == ["Zoe", "Yan", "Xu"]


# ---------------------------------------------------------------------------
# The real `score`


@pytest.mark.e2e
def test_end_to_end(ok: CLI, score_run: Any) -> None:
    def run(*args: Any) -> Result:
        result: Result = score_run(*args)
        assert result.exit_code == 0, result
        return result

    ok("new", "least-score", "--player", "Ann", "--player", "Bob", "--player", "Cy",
       "--dealer", "Ann")  # in process, on the store the real `score` uses below
    ok("add-round", "--declarer", "Ann", "Ann=3", "Bob=20", "Cy=30")
    joined = run("add-player", "Dan")
    assert "Dan joins Least Score #1 at 27, the highest total still in." in joined.stdout
    left = run("drop-player", "bob")
    assert "Bob leaves Least Score #1; their rounds stay." in left.stdout
    assert "left after round 1" in left.stdout
    refused = score_run("add-round", "--declarer", "Ann", "Ann=1", "Bob=2", "Cy=3", "Dan=4")
    assert refused.exit_code == 1 and refused.stderr == \
        "error: Bob left the game after round 1 and plays no more deals\n"
    shown = run("show", "--json").json()
    assert shown["totals"] == {"Ann": 0, "Bob": 17, "Cy": 27, "Dan": 27}
    assert shown["next_dealer"] == "Cy"  # Bob's deal passed on
    assert shown["roster"] == [{"after": 1, "join": "Dan", "total": 27},
                               {"after": 1, "leave": "Bob"}]
    danish = score_run("drop-player", "Bob", env={"SCOREKEEPER_LANG": "da"})
    assert danish.exit_code == 1
    assert danish.stderr == "error: Bob er allerede gået fra Least Score #1, efter runde 1\n"


def test_a_rematch_seats_the_players_who_stayed(ok: CLI) -> None:
    ok("new", "points", "--player", "Ann", "--player", "Bob", "--player", "Cy",
       "--dealer", "Ann")
    ok("drop-player", "Ann")
    ok("add-player", "Dan")
    ok("rematch")
    data = ok("export", "--format", "json").json()
    assert data["players"] == ["Bob", "Cy", "Dan"]
    assert data["first_dealer"] == "Bob"  # the seat after Ann's among those who stayed
    assert "roster" not in data


def test_the_store_keeps_the_other_sessions_bytes(ok: CLI, db_path: Path) -> None:
    ok("new", "points", "--player", "Ann", "--player", "Bob")
    ok("add-round", "Ann=3", "Bob=4")
    ok("new", "points", "--player", "Cy", "--player", "Dee")

    def line(session_id: int) -> bytes:
        prefix = f'"{session_id}": {{"game"'.encode()
        return next(row for row in db_path.read_bytes().splitlines()
                    if row.startswith(prefix))

    first = line(1)
    assert b'"roster"' not in first
    ok("add-player", "Eve", "--session", "2")
    ok("drop-player", "Cy", "--session", "2")
    assert line(1) == first
    assert b'"roster":[{"after":0,"join":"Eve","total":0},{"after":0,"leave":"Cy"}]' in line(2)
    ok("doctor")


def test_refusals_speak_arabic(ok: CLI, cli: CLI) -> None:
    _night(ok)
    result = cli("--lang", "ar", "add-player", "Bob")
    assert result.exit_code == 1
    assert result.stderr == "error: Bob لاعب في Least Score #1 بالفعل\n"
