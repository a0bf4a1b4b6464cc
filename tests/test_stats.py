"""Statistics over hand-computed small stores: places, shared wins, knock-outs, streaks,
head to head, each game's own figures and the openskill ratings."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorekeeper.kit.entries import EntryError, RoundEntry
from scorekeeper.session import Session
from scorekeeper.stats import StatsQuery, as_json, compute, player_key


def least_round(declarer: str, **totals: int) -> RoundEntry:
    return RoundEntry(values=tuple((k, str(v)) for k, v in totals.items()), declarer=declarer)


def one_card_round(bidder: str | None, bid: int | None, **points: int) -> RoundEntry:
    return RoundEntry(values=tuple((k, str(v)) for k, v in points.items()), bidder=bidder,
                      bid=bid, no_bid=bidder is None)


def play(session: Session, *entries: RoundEntry) -> Session:
    for entry in entries:
        session = session.add_round(entry)
    return session


def night(number: int, session: Session) -> Session:
    return replace(session, id=number, created=f"2026-11-{number:02d}T20:00:00+01:00")


def store() -> list[Session]:
    """Four finished sessions, one abandoned, one unfinished (hand-computed below)."""
    # 1: last standing, limit 10. Round 1: Bob and Cy go out together; round 2: Dan
    # declares falsely (9 > 5) and goes out. Places: Ann 1, Dan 2, Bob 3, Cy 3.
    s1 = play(Session.new("least-score", ["Ann", "Bob", "Cy", "Dan"], options={"limit": 10}),
              least_round("Ann", Ann=3, Bob=20, Cy=15, Dan=4),
              least_round("Dan", Ann=5, Dan=9))
    # 2: first out, limit 10: Cy's false declaration (3 > 1) puts Cy out at 24; Bob 0,
    # Ann 10. Places: Bob 1, Ann 2, Cy 3.
    s2 = play(Session.new("least-score", ["Ann", "Bob", "Cy"],
                          options={"limit": 10, "end": "first-out"}),
              least_round("Bob", Ann=12, Bob=2, Cy=4),
              least_round("Cy", Ann=1, Bob=5, Cy=3))
    # 3: One Card to 10: Ann bids 7 and makes it (8), then no bid: Ann 11, Bob 10, Cy 9.
    s3 = play(Session.new("one-card", ["Ann", "Bob", "Cy"], options={"target": 10}),
              one_card_round("Ann", 7, Ann=8, Bob=4, Cy=3),
              one_card_round(None, None, Ann=3, Bob=6, Cy=6))
    # 4: first out: Ann and Bob tie at 0 when Cy goes out: a shared win.
    s4 = play(Session.new("least-score", ["ann", "Bob", "Cy"],
                          options={"limit": 10, "end": "first-out"}),
              least_round("ann", ann=2, Bob=2, Cy=15))
    s5 = play(Session.new("least-score", ["Ann", "Bob"], options={"limit": 10}),
              least_round("Ann", Ann=2, Bob=3)).abandon()
    s6 = Session.new("one-card", ["Ann", "Eve"])
    return [night(n, s) for n, s in enumerate((s1, s2, s3, s4, s5, s6), start=1)]


def test_the_sessions_counted_and_left_out() -> None:
    stats = compute(store())
    assert (stats.finished, stats.abandoned, stats.unfinished) == (4, 1, 1)
    assert "Eve" not in [p.name for p in stats.players]  # only an unfinished session
    # ... which she played, and did not win; the abandoned session 5 is nobody's
    eve = next(record for record in stats.records if record.name == "Eve")
    assert (eve.played, eve.finished, eve.unfinished, eve.wins, eve.win_rate) == \
        (1, 0, 1, 0, None)
    ann = next(record for record in stats.records if record.name == "Ann")
    assert (ann.played, ann.finished, ann.unfinished) == (5, 4, 1)  # 1-4 and 6, not 5


def test_games_wins_shared_places_and_streaks() -> None:
    stats = compute(store())
    ann, bob, cy, dan = (stats.player(n) for n in ("Ann", "Bob", "Cy", "Dan"))
    assert ann.name == "Ann"  # the first spelling seen; same person ignoring case
    assert [r.session_id for r in ann.results] == [1, 2, 3, 4]  # "ann" in session 4
    assert [(r.place, r.of, r.win) for r in ann.results] == [(1, 4, 1), (2, 3, 0), (1, 3, 1),
                                                             (1, 3, 0.5)]
    assert (ann.games, ann.wins, ann.win_rate, ann.average_place) == (4, 2.5, 0.625, 1.25)
    assert (ann.current_streak, ann.longest_streak) == (2, 2)
    assert [r.place for r in bob.results] == [3, 1, 2, 1]
    assert (bob.wins, bob.average_place, bob.current_streak, bob.longest_streak) == \
        (1.5, 1.75, 1, 1)
    # knocked out in the same deal as Bob: the same place
    assert [r.place for r in cy.results] == [3, 3, 3, 3] and cy.wins == 0
    assert [r.place for r in dan.results] == [2]
    assert ann.sparkline == "█▅██" and bob.sparkline == "▃█▅█" and cy.sparkline == "▃▁▁▁"
    assert [p.name for p in stats.players] == ["Ann", "Bob", "Dan", "Cy"]
    low, high = ann.ci95
    assert 0.0 < low < 0.625 < high < 1.0


def test_head_to_head() -> None:
    stats = compute(store())
    ann, bob = player_key("Ann"), player_key("Bob")
    assert stats.met[ann][bob] == 4
    assert stats.ahead[ann][bob] == 2  # sessions 1 and 3; Bob won 2; session 4 a tie
    assert stats.ahead[bob][ann] == 1
    assert stats.ahead[player_key("Dan")][bob] == 1 and stats.met[player_key("Dan")][bob] == 1


def test_each_games_own_figures() -> None:
    stats = compute(store())
    least, one = stats.games
    assert (least.game, least.sessions, one.game, one.sessions) == (
        "least-score", 3, "one-card", 1)

    def figures(game: object, name: str) -> dict[str, float | None]:
        return {f.key: game.figure(player_key(name), f)  # type: ignore[attr-defined]
                for f in game.figures}  # type: ignore[attr-defined]

    assert figures(least, "Ann") == {"declarations": 2, "false_declaration_rate": 0.0,
                                     "average_declaring_hand": 2.5, "knock_outs": 0,
                                     "deals_survived": 5}
    assert figures(least, "Bob") == {"declarations": 1, "false_declaration_rate": 0.0,
                                     "average_declaring_hand": 2.0, "knock_outs": 1,
                                     "deals_survived": 3}
    assert figures(least, "Cy") == {"declarations": 1, "false_declaration_rate": 1.0,
                                    "average_declaring_hand": 3.0, "knock_outs": 3,
                                    "deals_survived": 1}
    assert figures(least, "Dan") == {"declarations": 1, "false_declaration_rate": 1.0,
                                     "average_declaring_hand": 9.0, "knock_outs": 1,
                                     "deals_survived": 1}
    assert figures(one, "Ann") == {"bids": 1, "bids_made": 1, "average_bid": 7.0,
                                   "points_per_deal": 5.5}
    assert figures(one, "Bob") == {"bids": 0, "bids_made": 0, "average_bid": None,
                                   "points_per_deal": 5.0}


def test_ratings_are_openskill_plackett_luce_session_by_session() -> None:
    stats = compute(store())
    least = stats.games[0]
    model = PlackettLuce()
    r = {name: model.rating() for name in ("ann", "bob", "cy", "dan")}

    def rate(players: list[str], ranks: list[float]) -> None:
        new = model.rate([[r[p]] for p in players], ranks=ranks)
        for p, (rating,) in zip(players, new, strict=True):
            r[p] = rating

    rate(["ann", "bob", "cy", "dan"], [1, 3, 3, 2])
    rate(["ann", "bob", "cy"], [2, 1, 3])
    rate(["ann", "bob", "cy"], [1, 1, 3])
    for name in ("ann", "bob", "cy", "dan"):
        last = least.ratings[name][-1]
        assert (last.mu, last.sigma) == pytest.approx((r[name].mu, r[name].sigma))
    assert [p.session_id for p in least.ratings["ann"]] == [1, 2, 4]
    assert len(stats.games[1].ratings["ann"]) == 1


def test_filters_game_dates_and_players() -> None:
    sessions = store()
    by_game = compute(sessions, StatsQuery(game="one-card"))
    assert (by_game.finished, by_game.unfinished, by_game.abandoned) == (1, 1, 0)
    dated = compute(sessions, StatsQuery(since=date(2026, 11, 2), until=date(2026, 11, 3)))
    assert dated.finished == 2 and dated.player("Ann").games == 2
    chosen = compute(sessions, StatsQuery(players=("BOB", "dan")))
    assert [p.name for p in chosen.players] == ["Bob", "Dan"]
    assert chosen.player("Bob").games == 4  # all of Bob's games, not only those with Dan
    with pytest.raises(EntryError, match="nobody called 'Zed'"):
        compute(sessions, StatsQuery(players=("Zed",)))


def test_the_json_shape() -> None:
    data = as_json(compute(store(), StatsQuery(players=("Ann", "Bob"))))
    assert data["sessions"] == {"finished": 4, "abandoned": 1, "unfinished": 1}
    assert [p["name"] for p in data["players"]] == ["Ann", "Bob"]
    assert data["players"][0]["wins"] == 2.5 and data["players"][0]["sparkline"] == "█▅██"
    assert data["head_to_head"] == {"Ann": {"Bob": {"ahead": 2, "met": 4}},
                                    "Bob": {"Ann": {"ahead": 1, "met": 4}}}
    assert set(data["games"]["least-score"]["players"]) == {"Ann", "Bob"}
    assert data["games"]["one-card"]["players"]["Ann"]["average_bid"] == 7.0
    history = data["games"]["least-score"]["ratings"]["Ann"]["history"]
    assert [point["session"] for point in history] == [1, 2, 4]


@settings(max_examples=examples(30), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 50), st.integers(1, 50),
                          st.integers(1, 50), st.integers(1, 50)), min_size=1, max_size=40))
def test_places_agree_with_the_winners_and_wins_add_up(deals: list[tuple[int, ...]]) -> None:
    """Whatever the deals, each finished game's winners hold place 1 alone, and the wins
    shared out add up to the number of finished games."""
    players = ["A", "B", "C", "D"]
    sessions = []
    for end in ("last-standing", "first-out"):
        session = Session.new("least-score", players, options={"limit": 10, "end": end})
        for declarer, *totals in deals:
            if session.finished:
                break
            still_in = session.standings.still_in
            who = still_in[declarer % len(still_in)]
            session = session.add_round(least_round(
                who, **{p: t for p, t in zip(players, totals, strict=True) if p in still_in}))
        sessions.append(replace(session, id=len(sessions) + 1))
    stats = compute(sessions)
    assert sum(p.wins for p in stats.players) == pytest.approx(stats.finished)
    for session in sessions:
        if session.finished:
            places = session.rules.placings(session.players, session.options,
                                            session.standings)
            assert {p for p, place in places.items() if place == 1} == \
                set(session.standings.winners)
