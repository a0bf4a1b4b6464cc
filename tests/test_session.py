"""The Session model: everything recomputed from the rounds; undo, redo, edit, history, import."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.kit.entries import EntryError, RoundEntry
from scorekeeper.session import Session, UnavailableSession, deleted_document
from scorekeeper.summary import session_from_summary, summary_of

T = "2026-11-27T20:15:00+01:00"


def ls_entry(declarer: str, **totals: object) -> RoundEntry:
    return RoundEntry(values=tuple((name, str(value)) for name, value in totals.items()),
                      declarer=declarer)


def oc_entry(bidder: str | None = None, bid: int | None = None, **points: int) -> RoundEntry:
    return RoundEntry(values=tuple((name, str(value)) for name, value in points.items()),
                      bidder=bidder, bid=bid, no_bid=bidder is None)


def least(*players: str, **options: Any) -> Session:
    return Session.new("least-score", players or ("Ann", "Bob", "Cy"), options=options,
                       time=T)


def play(session: Session, *entries: RoundEntry) -> Session:
    for entry in entries:
        session = session.add_round(entry, time=T)
    return session


# --------------------------------------------------------------------------- new


def test_new_session_defaults() -> None:
    session = least()
    assert session.game == "least-score" and session.mode == "table"
    assert session.players == ("Ann", "Bob", "Cy")
    assert dict(session.stored_options) == {"limit": 100, "tie": "declarer-wins",
                                            "end": "last-standing",
                                            "two_pairs": "same-rank"}
    assert session.created == T and session.rounds == () and session.status == "in-progress"
    assert session.standings.totals == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert session.history == ({"time": T, "change": "new",
                                "detail": "Least Score for Ann, Bob, Cy"},)


@pytest.mark.parametrize(
    ("game", "players", "options", "says"),
    [
        ("least-score", ["Ann", "ann"], {}, "same name"),
        ("least-score", ["Ann"], {}, "2 to 8"),
        ("least-score", ["Ann", "Bob"], {"limit": 9}, "10 to 500"),
        ("least-score", ["Ann", "Bob"], {"joker": "joker"}, "no option"),
        ("one-card", ["Ann", "Bob"], {"limit": 25}, "no option"),
        ("one-card", list("ABCDE"), {}, "4"),
        ("poker", ["Ann", "Bob"], {}, "no game"),
    ],
)
def test_new_session_refusals(game: str, players: list[str], options: dict[str, Any],
                              says: str) -> None:
    with pytest.raises(EntryError, match=says):
        Session.new(game, players, options=options)


# --------------------------------------------------------------------------- recompute


def test_standings_are_recomputed_from_the_rounds() -> None:
    session = play(least(limit=25), ls_entry("Ann", Ann=10, Bob=16, Cy=17),
                   ls_entry("Ann", Ann=10, Bob=8, Cy=15))
    standings = session.standings
    assert standings.totals == {"Ann": 22, "Bob": 6, "Cy": 7}
    assert [r.scores for r in standings.rounds] == [{"Ann": 0, "Bob": 6, "Cy": 7},
                                                       {"Ann": 22, "Bob": 0, "Cy": 0}]
    # the stored rounds hold only what was entered
    assert session.rounds[0].to_json() == {"declarer": "Ann",
                                           "totals": {"Ann": 10, "Bob": 16, "Cy": 17}}
    # a session rebuilt from its stored document recomputes the same
    again = Session.from_document(session.to_document(), 1)
    assert again.standings == standings


def test_a_finished_session_takes_no_round() -> None:
    session = play(least("Ann", "Bob", limit=10), ls_entry("Ann", Ann=1, Bob=20))
    assert session.finished and session.standings.winners == ["Ann"]
    with pytest.raises(EntryError, match="finished"):
        session.add_round(ls_entry("Ann", Ann=1, Bob=2))


# --------------------------------------------------------------------------- undo and redo


def test_undo_and_redo() -> None:
    session = play(least("Ann", "Bob", limit=10), ls_entry("Bob", Ann=3, Bob=1),
                   ls_entry("Ann", Ann=1, Bob=20))
    assert session.finished
    undone = session.undo(time=T)
    assert len(undone.rounds) == 1 and not undone.finished
    assert undone.standings.totals == {"Ann": 2, "Bob": 0}
    assert undone.undone == (session.rounds[1],)
    redone = undone.redo(time=T)
    assert redone.rounds == session.rounds and redone.undone == ()
    assert redone.standings == session.standings
    assert [h["change"] for h in redone.history] == ["new", "add-round", "add-round", "undo",
                                                     "redo"]


def test_redo_is_cleared_by_another_change() -> None:
    session = play(least("Ann", "Bob"), ls_entry("Bob", Ann=3, Bob=1),
                   ls_entry("Ann", Ann=1, Bob=5)).undo()
    changed = session.add_round(ls_entry("Ann", Ann=2, Bob=5))
    assert changed.undone == ()
    with pytest.raises(EntryError, match="nothing to redo"):
        changed.redo()
    edited = session.edit_round(1, ls_entry("Bob", Ann=4, Bob=1))
    with pytest.raises(EntryError, match="nothing to redo"):
        edited.redo()


def test_undo_with_no_rounds() -> None:
    with pytest.raises(EntryError, match="no rounds to undo"):
        least().undo()


# --------------------------------------------------------------------------- edit


def test_edit_rescores_later_rounds() -> None:
    session = play(least(limit=30), ls_entry("Ann", Ann=1, Bob=11, Cy=6),
                   ls_entry("Bob", Ann=9, Bob=2, Cy=4), ls_entry("Cy", Ann=5, Bob=20, Cy=3))
    assert session.standings.knocked_out == []
    edited = session.edit_round(1, ls_entry("Ann", Ann=8, Bob=11, Cy=6), time=T)
    rounds = [r.to_json() for r in edited.standings.rounds]
    assert rounds[0]["scores"] == {"Ann": 22, "Bob": 0, "Cy": 0}
    assert rounds[1]["scores"] == {"Ann": 7, "Bob": 0, "Cy": 2}
    assert rounds[2]["knocked_out"] == ["Ann"]
    assert edited.standings.totals == {"Ann": 31, "Bob": 17, "Cy": 2}
    assert edited.history[-1]["change"] == "edit-round"
    assert edited.history[-1]["round"] == 1
    assert edited.history[-1]["detail"].startswith("round 1 was round 1: Ann declared")


def test_edit_refused_when_a_later_round_becomes_impossible() -> None:
    session = play(least(limit=25), ls_entry("Ann", Ann=1, Bob=30, Cy=2),  # Bob out
                   ls_entry("Ann", Ann=1, Cy=2), ls_entry("Cy", Ann=4, Cy=2))
    with pytest.raises(EntryError) as refused:
        session.edit_round(1, ls_entry("Ann", Ann=1, Bob=3, Cy=2))  # Bob would stay in
    message = str(refused.value)
    assert "round 2" in message and "Bob is missing" in message
    assert "rounds 2 to 3 no longer fit" in message and "`score undo` 2 times" in message


def test_edit_refusals_of_the_round_itself() -> None:
    session = play(least("Ann", "Bob"), ls_entry("Ann", Ann=1, Bob=3))
    with pytest.raises(EntryError, match="impossible"):
        session.edit_round(1, ls_entry("Ann", Ann=0, Bob=3))
    with pytest.raises(EntryError, match="there is no round 2"):
        session.edit_round(2, ls_entry("Ann", Ann=1, Bob=3))
    with pytest.raises(EntryError, match="no rounds yet"):
        least().edit_round(1, ls_entry("Ann", Ann=1, Bob=3))


def test_edit_uses_the_standings_before_that_round() -> None:
    """Bob, out after round 1, has a total in round 1 itself: editing round 1 allows it."""
    session = play(least(limit=10), ls_entry("Ann", Ann=1, Bob=20, Cy=2))
    edited = session.edit_round(1, ls_entry("Ann", Ann=1, Bob=21, Cy=2))
    assert edited.standings.totals["Bob"] == 20


# --------------------------------------------------------------------------- history


def test_history_entries() -> None:
    session = play(least("Ann", "Bob"), ls_entry("Ann", Ann=1, Bob=3))
    session = session.undo(time="t-undo").redo(time="t-redo")
    session = session.edit_round(1, ls_entry("Bob", Ann=5, Bob=3), time="t-edit")
    session = session.logged_import("night.json", time="t-import")
    history = session.history
    assert [h["change"] for h in history] == ["new", "add-round", "undo", "redo", "edit-round",
                                              "import"]
    assert history[1] == {"time": T, "change": "add-round", "round": 1,
                          "detail": "round 1: Ann declared; Ann +0, Bob +2"}
    assert history[2] == {"time": "t-undo", "change": "undo", "round": 1,
                          "detail": "removed round 1: Ann declared; Ann +0, Bob +2"}
    assert history[3]["time"] == "t-redo" and history[3]["detail"].startswith("brought back")
    assert history[4]["detail"].endswith("now round 1: Bob declared; Ann +2, Bob +0")
    assert history[5] == {"time": "t-import", "change": "import",
                          "detail": "imported from night.json with 1 round"}


def test_history_time_defaults_to_now_with_an_offset() -> None:
    from datetime import datetime

    session = Session.new("one-card", ["Ann", "Bob"])
    stamp = datetime.fromisoformat(session.history[0]["time"])
    assert stamp.tzinfo is not None
    assert session.created == session.history[0]["time"]


# --------------------------------------------------------------------------- summaries


def one_card_game() -> Session:
    session = Session.new("one-card", ["Ann", "Bob", "Cy"], dealer="Ann", name="OC", time=T)
    return play(session, oc_entry("Bob", 9, Ann=4, Bob=8, Cy=3), oc_entry(Ann=5, Bob=5, Cy=5))


def test_from_summary_round_trip() -> None:
    session = play(least(limit=25, tie="declarer-loses"),
                   ls_entry("Ann", Ann="AH,9S", Bob="KD,6C", Cy="7H,QS"),
                   ls_entry("Bob", Ann=10, Bob=10, Cy=15)).with_id(4)
    for original in (session, one_card_game().with_id(5)):
        again = session_from_summary(summary_of(original), time=T)
        assert again.rounds == original.rounds
        assert again.options == original.options and again.created == original.created
        rest = summary_of(again)
        assert rest.pop("id") is None
        expected = summary_of(original)
        expected.pop("id")
        assert rest == expected


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d["rounds"][0]["scores"].update(Bob=5), "round 1: the file says scores"),
        (lambda d: d["totals"].update(Cy=1), "the file says totals"),
        (lambda d: d["rounds"][1]["totals"].update(Cy=11), "round 2"),
        (lambda d: d.update(winners=["Ann"]), "winners"),
        (lambda d: d.update(status="finished"), "status"),
        (lambda d: d["rounds"][0]["hands"].update(Bob=["KD", "5C"]), "cards add up to 15"),
        (lambda d: d["rounds"][1].update(declarer="Zed"), "Zed"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.pop("format"), "not a scorekeeper session summary"),
        (lambda d: d.pop("players"), "lacks a required part"),
    ],
)
def test_from_summary_refuses_a_summary_that_does_not_rescore(change: Any, says: str) -> None:
    session = play(least(), ls_entry("Ann", Ann="AH,9S", Bob="KD,6C", Cy="7H,QS"),
                   ls_entry("Bob", Ann=10, Bob=8, Cy=15))
    data = copy.deepcopy(summary_of(session))
    change(data)
    with pytest.raises(EntryError, match=says):
        session_from_summary(data)


def test_from_summary_refuses_a_tampered_one_card_summary() -> None:
    data = summary_of(one_card_game())
    data["rounds"][0]["points"] = {"Ann": 3, "Bob": 9, "Cy": 3}
    with pytest.raises(EntryError, match="round 1"):
        session_from_summary(data)
    with pytest.raises(EntryError, match="not a scorekeeper session summary"):
        session_from_summary([1, 2])


# --------------------------------------------------------------------------- leader


def test_leader() -> None:
    session = least(limit=25)
    assert session.leader() == []
    session = play(session, ls_entry("Cy", Ann=5, Bob=5, Cy=5))
    assert session.leader() == ["Ann", "Bob", "Cy"]  # all at 0
    session = play(session, ls_entry("Ann", Ann=1, Bob=30, Cy=3))  # Bob 29: out
    assert session.leader() == ["Ann"]
    session = play(session, ls_entry("Cy", Ann=30, Cy=1))  # Ann 29: out, Cy wins
    assert session.leader() == ["Cy"] == session.standings.winners


def test_leader_one_card_is_the_highest() -> None:
    session = one_card_game()
    assert session.leader() == ["Ann"]  # 9 against 5 and 8
    session = play(session, oc_entry(Ann=0, Bob=1, Cy=0 + 14))
    assert session.leader() == ["Cy"]


def test_leader_first_out_tie_shares_the_win() -> None:
    session = play(least(limit=10, end="first-out"), ls_entry("Ann", Ann=5, Bob=5, Cy=16))
    assert session.finished and session.leader() == ["Ann", "Bob"]


# --------------------------------------------------------------------------- properties


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_random_least_score_games(data: st.DataObject) -> None:
    players = ["Ann", "Bob", "Cy", "Dan", "Eve"][: data.draw(st.integers(2, 5))]
    limit = data.draw(st.sampled_from([10, 25, 50]))
    tie = data.draw(st.sampled_from(["declarer-wins", "declarer-loses"]))
    session = Session.new("least-score", players, options={"limit": limit, "tie": tie}, time=T)
    for _ in range(data.draw(st.integers(1, 12))):
        if session.finished:
            break
        still_in = session.standings.still_in
        totals = data.draw(st.lists(st.integers(1, 50), min_size=len(still_in),
                                    max_size=len(still_in)))
        declarer = data.draw(st.sampled_from(still_in))
        session = session.add_round(ls_entry(declarer, **dict(zip(still_in, totals,
                                                                  strict=True))), time=T)
    standings = session.standings
    for name in players:
        assert standings.totals[name] == sum(r.scores.get(name, 0) for r in standings.rounds)
    assert sorted(standings.knocked_out) == sorted(
        name for name in players if standings.totals[name] > limit)
    assert set(standings.still_in) | set(standings.knocked_out) == set(players)
    assert standings.still_in  # a good declaration never knocks out the declarer
    assert standings.finished == (len(standings.still_in) == 1)
    # undo everything, then redo everything: the same game
    count = len(session.rounds)
    undone = session
    for _ in range(count):
        undone = undone.undo(time=T)
    assert undone.standings.totals == dict.fromkeys(players, 0)
    redone = undone
    for _ in range(count):
        redone = redone.redo(time=T)
    assert redone.rounds == session.rounds and redone.standings == standings
    # and the summary re-imports to the same standings
    assert session_from_summary(summary_of(session), time=T).standings == standings


@st.composite
def one_card_points(draw: st.DrawFn, count: int) -> list[int]:
    cuts = sorted(draw(st.lists(st.integers(0, 15), min_size=count - 1, max_size=count - 1)))
    edges = [0, *cuts, 15]
    return [edges[i + 1] - edges[i] for i in range(count)]


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_random_one_card_games(data: st.DataObject) -> None:
    players = ["Ann", "Bob", "Cy", "Dan"][: data.draw(st.integers(2, 4))]
    lowest = {2: 8, 3: 7, 4: 6}[len(players)]
    session = Session.new("one-card", players, time=T)
    for _ in range(data.draw(st.integers(1, 10))):
        if session.finished:
            break
        points = data.draw(one_card_points(len(players)))
        bidder = data.draw(st.none() | st.sampled_from(players))
        bid = None if bidder is None else data.draw(st.integers(lowest, 15))
        session = session.add_round(
            oc_entry(bidder, bid, **dict(zip(players, points, strict=True))), time=T)
    standings = session.standings
    for name in players:
        assert standings.totals[name] == sum(r.scores[name] for r in standings.rounds)
    for deal in [r.to_json() for r in standings.rounds]:
        assert sum(deal["points"].values()) == 15
        failed = deal["bidder"] is not None and deal["points"][deal["bidder"]] < deal["bid"]
        assert deal["bid_failed"] == failed
    top = max(standings.totals.values())
    alone = [name for name in players if standings.totals[name] == top]
    assert standings.finished == (top >= 30 and len(alone) == 1)
    if standings.finished:
        assert standings.winners == alone


def test_a_deleted_sessions_document_ends_its_history_with_the_deletion() -> None:
    session = Session.new("yaniv", ["Ann", "Bob"], time="2026-01-02T20:00:00+00:00")
    document = deleted_document(session, "2026-01-03T10:00:00+00:00", "deleted")
    before = session.to_document()
    assert isinstance(before["history"], list) and len(before["history"]) == 1
    assert document == {**before, "history": [*before["history"], {
        "time": "2026-01-03T10:00:00+00:00", "change": "delete", "detail": "deleted"}]}
    stored = {key: value for key, value in session.to_document().items() if key != "history"}
    missing = UnavailableSession.from_document({**stored, "game": "kings"}, 4, "not here")
    assert deleted_document(missing, "2026-01-03T10:00:00+00:00", "gone")["history"] == [
        {"time": "2026-01-03T10:00:00+00:00", "change": "delete", "detail": "gone"}]
