"""The standings loop is written once (issue 38.4): every game's standings walk their
rounds through the kit's ``play_rounds``. Checked by what the loop does, not by reading
the source: the roster timeline the kit's loop lays each round's changes over is watched,
and every installed game's standings must be made by it, round by round; a game that ran
a loop of its own again (a copy with its own timeline, or none) fails here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pytest

from scorekeeper.kit import play
from scorekeeper.kit.entries import EntryError, RosterError, RoundEntry, RoundError
from scorekeeper.kit.play import Played, first_players, play_rounds
from scorekeeper.kit.roster import RosterChange, RosterTimeline
from scorekeeper.kit.rounds import JSONDict, Round, RoundCaption, ScoredRound
from scorekeeper.registry import all_declarations
from scorekeeper.session import Session

TIME = "2026-12-03T20:00:00+01:00"
NAMES = ("Ann", "Bob", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture
def watched(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The rounds after which the kit's loop laid the roster changes (every round's)."""
    seen: list[int] = []

    class Watched(RosterTimeline):
        def apply(self, after: int, still_in: list[str], running: dict[str, int],
                  left: list[str], dealer: str | None) -> tuple[list[str], str | None]:
            seen.append(after)
            return super().apply(after, still_in, running, left, dealer)

    monkeypatch.setattr(play, "RosterTimeline", Watched)
    return seen


@pytest.mark.parametrize("game", sorted(all_declarations()))
def test_every_installed_game_starts_its_standings_in_the_kit_loop(
        game: str, watched: list[int]) -> None:
    table = all_declarations()[game].table
    players = list(NAMES[:table.min_players])
    options = table.parse_options(table.default_options())
    standings = table.standings(players, options, players[0], [])
    assert watched == [0]
    assert standings.next_dealer == players[0] and not standings.finished


def entry(*values: str, **fields: object) -> RoundEntry:
    return RoundEntry(tuple(tuple(value.split("=")) for value in values),  # type: ignore[misc]
                      **fields)  # type: ignore[arg-type]


DEALS: dict[str, tuple[tuple[str, ...], list[RoundEntry]]] = {
    "least-score": (("Ann", "Bob", "Cy"), [entry("Ann=2", "Bob=9", "Cy=7", declarer="Ann"),
                                           entry("Ann=5", "Bob=3", "Cy=8", declarer="Bob")]),
    "yaniv": (("Ann", "Bob", "Cy"), [entry("Ann=2", "Bob=9", "Cy=7", declarer="Ann"),
                                     entry("Ann=5", "Bob=3", "Cy=8", declarer="Bob")]),
    "points": (("Ann", "Bob", "Cy"), [entry("Ann=10", "Bob=5", "Cy=0"),
                                      entry("Ann=1", "Bob=2", "Cy=3")]),
    "hearts": (("Ann", "Bob", "Cy", "Dan"), [entry("Ann=13", "Bob=10", "Cy=3", "Dan=0"),
                                             entry("Ann=0", "Bob=1", "Cy=13", "Dan=12")]),
    "one-card": (("Ann", "Bob", "Cy"), [entry("Ann=5", "Bob=5", "Cy=5", no_bid=True),
                                        entry("Ann=9", "Bob=6", "Cy=0", bidder="Ann",
                                              bid=8)]),
    "oh-hell": (("Ann", "Bob", "Cy", "Dan"), [entry("Ann=2/2", "Bob=3/3", "Cy=1/2", "Dan=0/0"),
                                              entry("Ann=1/0", "Bob=2/2", "Cy=2/2",
                                                    "Dan=0/2")]),
}


def test_the_built_in_games_are_the_ones_played_here() -> None:
    """Every game this project ships has deals below (a new one must add its own)."""
    assert set(DEALS) == set(all_declarations())


@pytest.mark.parametrize("game", sorted(DEALS))
def test_every_game_walks_each_round_and_change_through_the_kit_loop(
        game: str, watched: list[int]) -> None:
    players, deals = DEALS[game]
    session = Session.new(game, players, dealer=players[-1], time=TIME)
    for deal in deals:
        session = session.add_round(deal, time=TIME)
    session = session.drop_player(players[0], time=TIME)
    rule = session.declaration.roster
    assert rule is not None
    watched.clear()
    standings = rule.standings(session.rules, session.players, session.options,
                               session.first_dealer, session.rounds, session.roster)
    assert watched == [0, 1, 2]  # before each deal, and the leave after the last
    assert standings.left == [players[0]] and players[0] not in standings.still_in
    assert [scored.dealer for scored in standings.rounds] == [players[-1], players[0]]
    assert standings.next_dealer == players[1]  # the leaver's deal passed on


# ---------------------------------------------------------------------------
# What the loop does for every game: a round's knock-outs, the game's words for a
# round after the end, the game's own checks of the roster changes, the first deal's
# players


@dataclass(frozen=True, slots=True, kw_only=True)
class Scores(Round):
    """A round of a game made for these tests: each player's score, and who is out."""

    points: dict[str, int]
    out: tuple[str, ...] = ()

    def to_json(self) -> JSONDict:
        return {"points": dict(self.points), "out": list(self.out)}

    def renamed(self, names: Mapping[str, str]) -> Scores:
        return self


@dataclass(frozen=True, slots=True, kw_only=True)
class Scored(ScoredRound):
    @property
    def values(self) -> Mapping[str, object]:
        return self.scores

    def to_json(self) -> JSONDict:
        return {"number": self.number, "dealer": self.dealer, "scores": dict(self.scores)}

    def caption(self) -> RoundCaption:
        return RoundCaption(role="", sentence="")

    def tallies(self) -> dict[str, dict[str, int]]:
        return {}


def score(number: int, round_: Round, played: Played) -> Scored:
    assert isinstance(round_, Scores)
    if set(round_.points) != set(played.still_in):
        raise EntryError(f"not the players in: {', '.join(played.still_in)}")
    return Scored(number=number, dealer=played.dealer, scores=dict(round_.points),
                  knocked_out=round_.out, played=round_)


def last_standing(played: Played, number: int) -> bool:
    return len(played.still_in) <= 1


SEATS = ["Ann", "Bob", "Cy", "Dan"]


def test_a_rounds_knock_outs_leave_the_table_and_the_deal_passes_over_them() -> None:
    rounds = [Scores(points={"Ann": 1, "Bob": 2, "Cy": 3, "Dan": 4}, out=("Bob",)),
              Scores(points={"Ann": 1, "Cy": 3, "Dan": 4}, out=("Dan", "Cy"))]
    played = play_rounds(SEATS, "Ann", rounds, (), 2, 4, score=score, over=last_standing)
    assert played.knocked == ["Bob", "Dan", "Cy"] and played.still_in == ["Ann"]
    assert [scored.dealer for scored in played.scored] == ["Ann", "Cy"]  # Bob passed over
    standings = played.standings(["Ann"])
    assert standings.knocked_out == ["Bob", "Dan", "Cy"] and standings.finished
    assert standings.totals == {"Ann": 2, "Bob": 2, "Cy": 6, "Dan": 8}
    assert standings.next_dealer is None


def test_a_round_after_the_end_is_refused_in_the_games_words() -> None:
    rounds = [Scores(points={"Ann": 1, "Bob": 2}, out=("Bob",)),
              Scores(points={"Ann": 1})]
    with pytest.raises(RoundError, match=r"^round 2: the game was already over after deal 1$"):
        play_rounds(SEATS[:2], None, rounds, (), 2, 2, score=score, over=last_standing)

    def already_over(number: int, played: Played) -> str:
        return f"over after {number - 1}: {played.still_in[0]} won"

    with pytest.raises(RoundError, match=r"^round 2: over after 1: Ann won$"):
        play_rounds(SEATS[:2], None, rounds, (), 2, 2, score=score, over=last_standing,
                    already_over=already_over)


def test_the_games_own_roster_checks_see_the_changes_before_and_after() -> None:
    seen: list[tuple[str, int, list[str], list[str]]] = []

    def before(after: int, changes: Sequence[RosterChange], played: Played) -> None:
        seen.append(("before", after, [c.describe() for c in changes], list(played.still_in)))

    def then(after: int, changes: Sequence[RosterChange], played: Played) -> None:
        seen.append(("after", after, [c.describe() for c in changes], list(played.still_in)))

    roster = [RosterChange(1, "Dan", joined=True, total=5), RosterChange(1, "Ann", joined=False)]
    rounds = [Scores(points={"Ann": 1, "Bob": 2, "Cy": 3}),
              Scores(points={"Bob": 1, "Cy": 1, "Dan": 1})]
    played = play_rounds(SEATS, "Ann", rounds, roster, 2, 4, score=score,
                         over=lambda played, number: False, before_changes=before,
                         after_changes=then)
    assert seen == [("before", 1, ["Dan joined at 5", "Ann left"], ["Ann", "Bob", "Cy"]),
                    ("after", 1, ["Dan joined at 5", "Ann left"], ["Bob", "Cy", "Dan"])]
    assert played.running == {"Ann": 1, "Bob": 3, "Cy": 4, "Dan": 6}
    assert played.dealer == "Cy"  # Bob dealt the second deal (Ann's turn passed on)

    def refuse(after: int, changes: Sequence[RosterChange], played: Played) -> None:
        raise RosterError(after, changes[0].describe(), "not at this table")

    with pytest.raises(RosterError, match=r"^Dan joined at 5 after round 1: not at this table$"):
        play_rounds(SEATS, "Ann", rounds, roster, 2, 4, score=score,
                    over=lambda played, number: False, before_changes=refuse)


def test_the_first_deal_is_played_by_the_seating_without_the_late_players() -> None:
    roster = [RosterChange(2, "Bob", joined=True, total=0), RosterChange(3, "Cy", joined=False)]
    assert first_players(SEATS, roster, 3, 2, 4) == ["Ann", "Cy", "Dan"]
    assert first_players(SEATS, (), 0, 2, 4) == SEATS
    with pytest.raises(RosterError, match="each after round 0 to 2"):
        first_players(SEATS, roster, 2, 2, 4)  # as play_rounds would refuse it
