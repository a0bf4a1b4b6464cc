"""Tests for One Card at the table (scorekeeper.games.one_card.table)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from scorekeeper.games.one_card.table import OneCardTable
from scorekeeper.kit.entries import EntryError, RoundEntry, RoundError
from scorekeeper.kit.options import Language
from scorekeeper.kit.rounds import JSONDict, Round, parse_rounds
from scorekeeper.kit.standings import Standings

TABLE = OneCardTable()
PLAYERS = ("Ann", "Bob", "Cy")
OPTIONS = TABLE.parse_options(TABLE.default_options())


def entry(*values: str, bidder: str | None = None, bid: int | None = None,
          no_bid: bool = False, trump: str | None = None,
          declarer: str | None = None) -> RoundEntry:
    pairs = tuple(tuple(value.split("=", 1)) for value in values)
    return RoundEntry(values=pairs, bidder=bidder, bid=bid, no_bid=no_bid,  # type: ignore[arg-type]
                      trump=trump, declarer=declarer)


def rnd(points: dict[str, Any], bidder: str | None = None, bid: int | None = None,
        trump: str | None = None) -> JSONDict:
    return {"bidder": bidder, "bid": bid, "trump": trump, "points": points}


def standings(rounds: Sequence[JSONDict], players: Sequence[str] = PLAYERS,
              dealer: str | None = "Ann", options: dict[str, Any] | None = None) -> Standings:
    return TABLE.standings(players, TABLE.parse_options(options) if options else OPTIONS,
                           dealer, typed(rounds))


def typed(rounds: Sequence[JSONDict]) -> tuple[Round, ...]:
    """The stored rounds (FORMAT.md's JSON) as the table's typed rounds, as the store reads them."""
    return parse_rounds(TABLE, rounds)


def make(e: RoundEntry, rounds: Sequence[JSONDict] = (), players: Sequence[str] = PLAYERS,
         dealer: str | None = "Ann") -> JSONDict:
    return TABLE.make_round(players, OPTIONS, standings(rounds, players, dealer), e).to_json()


def refused(e: RoundEntry, rounds: Sequence[JSONDict] = (),
            players: Sequence[str] = PLAYERS) -> str:
    with pytest.raises(EntryError) as info:
        make(e, rounds, players)
    return str(info.value)


def round_refused(rounds: Sequence[JSONDict], players: Sequence[str] = PLAYERS,
                  dealer: str | None = "Ann") -> RoundError:
    with pytest.raises(RoundError) as info:
        standings(rounds, players, dealer)
    return info.value


# --------------------------------------------------------------------------- the protocol


def test_attributes() -> None:
    assert TABLE.name == "one-card"
    assert TABLE.title == "One Card"
    assert (TABLE.min_players, TABLE.max_players) == (2, 4)
    assert TABLE.target_label == "target"
    assert TABLE.lower_is_better is False


def test_options_defaults_and_values() -> None:
    assert TABLE.default_options() == {"joker": "joker", "target": 30}
    assert TABLE.check_options({}) == {"joker": "joker", "target": 30}
    assert TABLE.check_options({"joker": "Two-Of-Diamonds"}) == {
        "joker": "two-of-diamonds", "target": 30}
    assert TABLE.check_options({"target": "40"})["target"] == 40
    assert TABLE.target(TABLE.parse_options({})) == 30
    assert TABLE.target(TABLE.parse_options({"target": 50})) == 50


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"joker": "x"}, "--joker must be joker or two-of-diamonds, not 'x'"),
        ({"limit": 100}, "One Card has no option 'limit'"),
        ({"target": "lots"}, "the target must be a whole number"),
        ({"target": 0}, "from 10 to 100"),
        ({"target": 9}, "from 10 to 100"),
        ({"target": 101}, "from 10 to 100"),
        ({"target": True}, "whole number"),
    ],
)
def test_options_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(EntryError, match=message):
        TABLE.check_options(options)


def test_players() -> None:
    for n in (2, 3, 4):
        TABLE.check_players(["P"] * n)
    for n in (1, 5):
        with pytest.raises(EntryError, match=f"2 to 4 players, not {n}"):
            TABLE.check_players(["P"] * n)


# --------------------------------------------------------------------------- make_round


def test_make_round_with_bid() -> None:
    made = make(entry("ann=4", "BOB=8", "Cy=3", bidder="bob", bid=9, trump="♠"))
    assert made == {"bidder": "Bob", "bid": 9, "trump": "S",
                    "points": {"Ann": 4, "Bob": 8, "Cy": 3}}


def test_make_round_no_bid() -> None:
    made = make(entry("Ann=5", "Bob=5", "Cy=5", no_bid=True))
    assert made == {"bidder": None, "bid": None, "trump": None,
                    "points": {"Ann": 5, "Bob": 5, "Cy": 5}}


def test_make_round_trump_letter_lower_case() -> None:
    made = make(entry("Ann=5", "Bob=5", "Cy=5", bidder="Ann", bid=7, trump="h"))
    assert made["trump"] == "H"


@pytest.mark.parametrize(
    ("e", "message"),
    [
        (entry("Ann=5", "Bob=5", "Cy=5", declarer="Ann"),
         "--declarer is not for One Card: a One Card round takes --bidder NAME --bid N, "
         "or --no-bid"),
        (entry("Ann=5", "Bob=5", "Cy=5"), "say --bidder NAME --bid N, or --no-bid"),
        (entry("Ann=5", "Bob=5", "Cy=5", bidder="Ann", bid=7, no_bid=True), "not both"),
        (entry("Ann=5", "Bob=5", "Cy=5", bid=7), "--bid 7 needs --bidder NAME"),
        (entry("Ann=5", "Bob=5", "Cy=5", bid=7, no_bid=True), "a --no-bid deal has no bid"),
        (entry("Ann=5", "Bob=5", "Cy=5", bidder="Ann"), "--bidder needs --bid N"),
        (entry("Ann=5", "Bob=5", "Cy=5", no_bid=True, trump="S"),
         "a no-bid deal has no trump"),
        (entry("Ann=5", "Bob=5", "Cy=5", bidder="Ann", bid=7, trump="X"),
         "--trump: 'X' is not a suit"),
        (entry("Ann=5", "Bob=5", "Cy=5", bidder="Dee", bid=7),
         "there is no bidder called 'Dee': the players are Ann, Bob, Cy"),
        (entry("Ann=5", "Bob=5", "Cy=five", no_bid=True),
         "Cy's points must be a whole number, not 'five'"),
        (entry("Ann=5", "Bob=5", "ann=5", no_bid=True), "Ann is entered twice"),
        (entry("Ann=5", "Bob=5", "Dee=5", no_bid=True), "there is no player called 'Dee'"),
        (entry("Ann=10", "Bob=5", no_bid=True), "Cy is missing"),
        (entry("Ann=16", "Bob=0", "Cy=0", no_bid=True), "Ann's points must be from 0 to 15"),
        (entry("Ann=-1", "Bob=8", "Cy=8", no_bid=True), "Ann's points must be from 0 to 15"),
        (entry("Ann=4", "Bob=8", "Cy=2", no_bid=True),
         "the points add up to 14, not 15: every point card is taken "
         "(J, Q, K 1 each, the joker 3, the One Card included)"),
        (entry("Ann=5", "Bob=5", "Cy=5", bidder="Ann", bid=6),
         "the lowest bid for 3 players is 7"),
        (entry("Ann=5", "Bob=5", "Cy=5", bidder="Ann", bid=16), "the highest bid is 15"),
    ],
)
def test_make_round_refusals(e: RoundEntry, message: str) -> None:
    assert message in refused(e)


def test_lowest_bid_depends_on_players() -> None:
    two = ("Ann", "Bob")
    assert "the lowest bid for 2 players is 8" in refused(
        entry("Ann=7", "Bob=8", bidder="Ann", bid=7), players=two)
    four = ("Ann", "Bob", "Cy", "Dee")
    made = make(entry("Ann=6", "Bob=3", "Cy=3", "Dee=3", bidder="Ann", bid=6), players=four)
    assert made["bid"] == 6


def test_make_round_refused_when_game_over() -> None:
    rounds = [rnd({"Ann": 15, "Bob": 0, "Cy": 0})] * 2
    assert standings(rounds).finished
    assert "the game is over (Ann won)" in refused(
        entry("Ann=5", "Bob=5", "Cy=5", no_bid=True), rounds)


# --------------------------------------------------------------------------- scoring


def test_failed_bid_scores_zero_for_the_bidder_only() -> None:
    result = standings([rnd({"Ann": 4, "Bob": 8, "Cy": 3}, "Bob", 9, "S")])
    summary = result.rounds[0].to_json()
    assert summary["scores"] == {"Ann": 4, "Bob": 0, "Cy": 3}
    assert summary["bid_failed"] is True
    assert result.totals == {"Ann": 4, "Bob": 0, "Cy": 3}


def test_made_bid_scores_points_taken_not_the_bid() -> None:
    result = standings([rnd({"Ann": 2, "Bob": 11, "Cy": 2}, "Bob", 9)])
    assert result.rounds[0].to_json()["scores"] == {"Ann": 2, "Bob": 11, "Cy": 2}
    assert result.rounds[0].to_json()["bid_failed"] is False
    exact = standings([rnd({"Ann": 3, "Bob": 9, "Cy": 3}, "Bob", 9)])
    assert exact.rounds[0].to_json()["scores"]["Bob"] == 9


def test_no_bid_everyone_scores_points_taken() -> None:
    result = standings([rnd({"Ann": 6, "Bob": 0, "Cy": 9})])
    assert result.rounds[0].to_json()["scores"] == {"Ann": 6, "Bob": 0, "Cy": 9}
    assert result.rounds[0].to_json()["bid_failed"] is False
    assert result.rounds[0].to_json()["bidder"] is None
    assert result.rounds[0].to_json()["bid"] is None


def test_summary_round_shape() -> None:
    result = standings([rnd({"Cy": 3, "Ann": 4, "Bob": 8}, "Bob", 9, "S")])
    assert [r.to_json() for r in result.rounds] == [{
        "number": 1, "dealer": "Ann", "bidder": "Bob", "bid": 9, "trump": "S",
        "points": {"Ann": 4, "Bob": 8, "Cy": 3},
        "scores": {"Ann": 4, "Bob": 0, "Cy": 3},
        "bid_failed": True,
    }]
    assert list(result.rounds[0].to_json()) == ["number", "dealer", "bidder", "bid", "trump",
                                                "points", "scores", "bid_failed"]
    assert result.knocked_out == [] and result.still_in == list(PLAYERS)


def test_totals_add_up_over_rounds() -> None:
    result = standings([
        rnd({"Ann": 4, "Bob": 8, "Cy": 3}, "Bob", 9),
        rnd({"Ann": 5, "Bob": 5, "Cy": 5}),
        rnd({"Ann": 10, "Bob": 2, "Cy": 3}, "Ann", 7),
    ])
    assert result.totals == {"Ann": 19, "Bob": 7, "Cy": 11}
    assert not result.finished and result.winners == []


# --------------------------------------------------------------------------- end of the game


def test_game_ends_when_someone_reaches_30() -> None:
    rounds = [rnd({"Ann": 10, "Bob": 5, "Cy": 0}, "Ann", 7)] * 2
    result = standings(rounds)
    assert result.totals["Ann"] == 20 and not result.finished
    rounds.append(rnd({"Ann": 10, "Bob": 5, "Cy": 0}, "Ann", 7))
    result = standings(rounds)
    assert result.finished and result.winners == ["Ann"]
    assert result.next_dealer is None
    assert result.all_notes == []


def test_tie_at_the_top_plays_on() -> None:
    rounds = [rnd({"Ann": 7, "Bob": 7, "Cy": 1})] * 4 + [rnd({"Ann": 2, "Bob": 2, "Cy": 11})]
    result = standings(rounds)
    assert result.totals == {"Ann": 30, "Bob": 30, "Cy": 15}
    assert not result.finished and result.winners == []
    assert any("Ann and Bob are tied at 30" in note for note in result.notes)
    rounds.append(rnd({"Ann": 5, "Bob": 4, "Cy": 6}))
    result = standings(rounds)
    assert result.finished and result.winners == ["Ann"]


def test_highest_total_wins_not_the_first_over() -> None:
    rounds = [rnd({"Ann": 14, "Bob": 1, "Cy": 0})] * 2 + [rnd({"Ann": 0, "Bob": 1, "Cy": 14})] * 2
    rounds.append(rnd({"Ann": 1, "Bob": 0, "Cy": 14}))
    result = standings(rounds)
    assert result.totals == {"Ann": 29, "Bob": 4, "Cy": 42}
    assert result.winners == ["Cy"]


def test_round_after_the_end_is_refused() -> None:
    rounds = [rnd({"Ann": 15, "Bob": 0, "Cy": 0})] * 3
    error = round_refused(rounds)
    assert error.number == 3
    assert "the game was already over after round 2 (Ann won)" in str(error)


def test_custom_target() -> None:
    result = standings([rnd({"Ann": 15, "Bob": 0, "Cy": 0})],
                       options={"joker": "joker", "target": 10})
    assert result.finished and result.winners == ["Ann"]


# --------------------------------------------------------------------------- dealer and notes


def test_dealer_passes_left_every_round() -> None:
    result = standings([rnd({"Ann": 5, "Bob": 5, "Cy": 5})] * 4, dealer="Bob")
    assert [r.dealer for r in result.rounds] == ["Bob", "Cy", "Ann", "Bob"]
    assert result.next_dealer == "Cy"
    assert result.all_notes == ["Next deal: Cy deals, Ann bids first."]


def test_notes_before_any_round() -> None:
    result = standings([], dealer="Ann")
    assert result.all_notes == ["Next deal: Ann deals, Bob bids first."]
    assert result.totals == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert result.next_dealer == "Ann"


def test_unknown_dealer() -> None:
    result = standings([rnd({"Ann": 5, "Bob": 5, "Cy": 5})], dealer=None)
    assert result.rounds[0].to_json()["dealer"] is None
    assert result.next_dealer is None
    assert result.all_notes == []


def test_four_players_rotation() -> None:
    players = ("Ann", "Bob", "Cy", "Dee")
    result = standings([rnd({"Ann": 5, "Bob": 5, "Cy": 5, "Dee": 0})] * 3, players, "Cy")
    assert [r.dealer for r in result.rounds] == ["Cy", "Dee", "Ann"]
    assert result.all_notes == ["Next deal: Bob deals, Cy bids first."]


# --------------------------------------------------------------------------- stored round checks


@pytest.mark.parametrize(
    ("round_", "message"),
    [
        (rnd({"Ann": 5, "Bob": 5}), "Cy is missing"),
        (rnd({"Ann": 5, "Bob": 5, "Cy": 5, "Dee": 0}), "Dee is not in this deal"),
        (rnd({"Ann": 5, "Bob": 5, "Cy": 6}), "the points add up to 16, not 15"),
        (rnd({"Ann": 5, "Bob": 5, "Cy": "5"}), "Cy's points must be a whole number"),
        (rnd({"Ann": 5, "Bob": 5, "Cy": 5}, "Dee", 8), "the bidder 'Dee' is not a player"),
        (rnd({"Ann": 5, "Bob": 5, "Cy": 5}, "Ann", 6), "the lowest bid for 3 players is 7"),
        (rnd({"Ann": 5, "Bob": 5, "Cy": 5}, "Ann", None), "Ann's bid must be a whole number"),
        (rnd({"Ann": 5, "Bob": 5, "Cy": 5}, None, 8), "needs a bidder"),
        (rnd({"Ann": 5, "Bob": 5, "Cy": 5}, None, None, "S"), "a no-bid deal has no trump"),
        (rnd({"Ann": 5, "Bob": 5, "Cy": 5}, "Ann", 8, "X"), "the trump 'X' is not a suit"),
        ({"bidder": None, "bid": None}, "the round has no points"),
    ],
)
def test_stored_round_refusals(round_: JSONDict, message: str) -> None:
    good = rnd({"Ann": 5, "Bob": 5, "Cy": 5})
    error = round_refused([good, round_])
    assert error.number == 2
    assert str(error).startswith("round 2: ")
    assert message in error.reason


def test_two_of_diamonds_sum_message() -> None:
    options = {"joker": "two-of-diamonds", "target": 30}
    with pytest.raises(RoundError, match=r"the joker \(2D\) 3"):
        TABLE.standings(PLAYERS, TABLE.parse_options(options), None,
                        typed([rnd({"Ann": 1, "Bob": 1, "Cy": 1})]))


def test_deal_with_the_wrong_dealer_is_refused() -> None:
    round_ = rnd({"Ann": 5, "Bob": 5, "Cy": 5}) | {"deal": {"dealer": "Bob"}, "actions": []}
    error = round_refused([round_], dealer="Ann")
    assert "the deal says Bob dealt, but it was Ann's deal" in error.reason
    # with the right dealer (or none tracked) the deal and actions are kept
    result = standings([round_], dealer="Bob")
    assert result.rounds[0].to_json()["deal"] == {"dealer": "Bob"}
    assert result.rounds[0].to_json()["actions"] == []
    assert standings([round_], dealer=None).rounds[0].to_json()["deal"] == {"dealer": "Bob"}


# --------------------------------------------------------------------------- import and rules


def test_round_from_summary_round_trip() -> None:
    rounds = [
        rnd({"Ann": 4, "Bob": 8, "Cy": 3}, "Bob", 9, "S"),
        rnd({"Ann": 5, "Bob": 5, "Cy": 5}),
        rnd({"Ann": 10, "Bob": 2, "Cy": 3}, "Cy", 7, None)
        | {"deal": {"dealer": "Cy", "hands": {}, "one_card": "QS"},
           "actions": [{"player": "Ann", "bid": 7}]},
    ]
    result = standings(rounds)
    back = [TABLE.round_from_summary(copy.deepcopy(r.to_json())).to_json()
            for r in result.rounds]
    assert back == rounds
    again = standings(back)
    assert again.rounds == result.rounds and again.totals == result.totals


def test_round_from_summary_normalises_trump_and_refuses_missing_parts() -> None:
    back = TABLE.round_from_summary({"bidder": "Ann", "bid": 8, "trump": "h",
                                     "points": {"Ann": 15, "Bob": 0, "Cy": 0}}).to_json()
    assert back["trump"] == "H"
    assert TABLE.round_from_summary({"bidder": None, "bid": None,
                                     "points": {"Ann": 15}}).to_json()["trump"] is None
    with pytest.raises(EntryError, match="needs 'bidder', 'bid' and 'points'"):
        TABLE.round_from_summary({"bidder": "Ann", "points": {}})
    with pytest.raises(EntryError, match="not a suit"):
        TABLE.round_from_summary({"bidder": "Ann", "bid": 8, "trump": "Z", "points": {}})


def test_house_rules_in_words() -> None:
    rules = TABLE.house_rules(OPTIONS, Language.ENGLISH)
    assert [(rule.as_typed, rule.description) for rule in rules] == [
        ("--joker joker", "the joker (JK) is the joker"),
        ("--target 30", "the game ends after the deal in which someone reaches 30"),
    ]
    other = TABLE.house_rules(TABLE.parse_options({"joker": "two-of-diamonds", "target": 40}),
                              Language.DANISH)
    assert [rule.as_typed for rule in other] == ["--joker two-of-diamonds", "--target 40"]
    assert "ruder to (2D)" in other[0].description and "40" in other[1].description
    assert [rule.default for rule in other] == ["joker", 30]


def test_the_declarations_plain_house_rules_are_the_rules_own() -> None:
    """game.py spells the house rules' defaults and choices as plain values (so that
    every command need not import the rules): they are rules.Options' and JokerRule's."""
    from scorekeeper.games.one_card.game import GAME
    from scorekeeper.games.one_card.rules import JokerRule, Options

    rules = {option.key: option for option in GAME.house_rules}
    default = Options()
    assert rules["joker"].default == default.joker.value
    assert rules["joker"].choices == tuple(member.value for member in JokerRule)
    assert [value for value, _meaning in rules["joker"].said] == \
        [member.value for member in JokerRule]
    assert rules["target"].default == default.target
