"""Oh Hell: the rules' own examples (rules/en.md), and property tests of the checks and
the scoring (hypothesis) against the rules written again here, apart from the code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.oh_hell import rules
from scorekeeper.games.oh_hell.rules import Schedule, Scoring
from scorekeeper.games.oh_hell.table import OhHellRound, OhHellScored, OhHellTable
from scorekeeper.kit.entries import EntryError, RoundEntry, RoundError
from scorekeeper.kit.rounds import parse_rounds
from scorekeeper.kit.standings import Standings

TABLE = OhHellTable()
THREE = ("Ann", "Bob", "Cy")
NAMES = ("Ann", "Bob", "Cy", "Dan", "Eve", "Fay", "Gus")


def start(options: Mapping[str, Any], players: Sequence[str] = THREE,
          rounds: Sequence[Mapping[str, Any]] = (), dealer: str | None = "Cy") -> Standings:
    return TABLE.standings(players, TABLE.parse_options(TABLE.check_options(options)), dealer,
                           parse_rounds(TABLE, rounds))


def entry(*values: str, **fields: Any) -> RoundEntry:
    return RoundEntry(tuple(tuple(value.split("=", 1)) for value in values),  # type: ignore[misc]
                      **fields)


def make(options: Mapping[str, Any], *values: str, players: Sequence[str] = THREE,
         rounds: Sequence[Mapping[str, Any]] = (), **fields: Any) -> dict[str, Any]:
    checked = TABLE.check_options(options)
    return TABLE.make_round(players, TABLE.parse_options(checked), start(checked, players, rounds),
                            entry(*values, **fields)).to_json()


def refused(options: Mapping[str, Any], *values: str, players: Sequence[str] = THREE,
            rounds: Sequence[Mapping[str, Any]] = (), **fields: Any) -> str:
    with pytest.raises(EntryError) as info:
        make(options, *values, players=players, rounds=rounds, **fields)
    return str(info.value)


def deal(**contracts: str) -> dict[str, Any]:
    """A stored round from ``Ann="2/1"``."""
    split = {name: tuple(int(part) for part in text.split("/")) for name, text in
             contracts.items()}
    return {"bids": {name: bid for name, (bid, _t) in split.items()},
            "tricks": {name: took for name, (_b, took) in split.items()}}


# ---------------------------------------------------------------------------
# The rules' own examples


def test_the_schedules_and_the_deck_bound() -> None:
    assert rules.schedule(Schedule.DOWN, 7) == (7, 6, 5, 4, 3, 2, 1)
    assert rules.schedule(Schedule.UP, 3) == (1, 2, 3)
    assert rules.schedule(Schedule.DOWN_UP, 3) == (3, 2, 1, 2, 3)
    assert [rules.max_hand_size(n) for n in range(3, 8)] == [17, 13, 10, 8, 7]
    assert rules.hand_sizes(Schedule.DOWN, 10, 7) == (7, 6, 5, 4, 3, 2, 1)
    assert rules.hand_sizes(Schedule.UP, 10, 3) == tuple(range(1, 11))


def test_the_scoring_examples() -> None:
    assert rules.score(Scoring.TEN_PLUS_BID, bid=2, tricks=2) == 12
    assert rules.score(Scoring.TEN_PLUS_BID, bid=1, tricks=0) == 0
    assert rules.score(Scoring.TEN_PLUS_BID, bid=0, tricks=0) == 10
    assert rules.score(Scoring.TRICKS_PLUS_TEN, bid=2, tricks=2) == 12
    assert rules.score(Scoring.TRICKS_PLUS_TEN, bid=1, tricks=3) == 3
    assert rules.score(Scoring.MINUS_DIFFERENCE, bid=3, tricks=1) == -2
    assert rules.score(Scoring.MINUS_DIFFERENCE, bid=3, tricks=3) == 13


def test_the_hook_example_and_the_deal_passing_left() -> None:
    # 5 cards each, Ann bids 2, Bob bids 1, Cy deals: Cy may not bid 2
    assert rules.hook_bid(5, [2, 1]) == 2
    assert rules.hook_bid(5, [4, 3]) is None  # the others already bid over the hand
    assert rules.dealer_of(THREE, "Cy", 1) == "Cy" and rules.dealer_of(THREE, "Cy", 2) == "Ann"
    assert rules.bidding_order(THREE, "Cy") == ["Ann", "Bob", "Cy"]
    assert "the hook: Cy deals and may not bid 2, which makes the bids add up to 5" in \
        refused({"most_cards": 5}, "Ann=2/2", "Bob=1/1", "Cy=2/2")


def test_the_entry_example_is_scored_as_the_rules_say() -> None:
    # rules/en.md: score add-round Ann=2/2 Bob=1/0 Cy=1/3 (a deal of 5: Cy deals)
    stored = make({"most_cards": 5}, "Ann=2/2", "Bob=1/0", "Cy=1/3")
    assert stored == {"bids": {"Ann": 2, "Bob": 1, "Cy": 1},
                      "tricks": {"Ann": 2, "Bob": 0, "Cy": 3}}
    scored = start({"most_cards": 5}, rounds=[stored]).rounds[0]
    assert isinstance(scored, OhHellScored)
    assert scored.scores == {"Ann": 12, "Bob": 0, "Cy": 0} and scored.made == ("Ann",)
    assert scored.hand_size == 5 and scored.dealer == "Cy"
    assert scored.caption().failure_note == "missed: Bob, Cy"


def test_the_game_ends_after_the_schedule_and_ties_share_the_win() -> None:
    one = {"most_cards": 1}  # one deal of 1 card, Cy deals
    over = start(one, rounds=[deal(Ann="0/0", Bob="0/0", Cy="0/1")])
    assert over.finished and over.winners == ["Ann", "Bob"] and over.next_deal is None
    with pytest.raises(RoundError, match="round 2: the game is over: it has 1 deal"):
        start(one, rounds=[deal(Ann="0/0", Bob="0/0", Cy="0/1")] * 2)
    both = start({"most_cards": 2, "hand_sizes": "both"})
    assert both.next_deal == "Next deal: Cy deals 2 cards each, Ann bids first (deal 1 of 3)."
    assert both.next_starter == "2 cards each, Ann bids first (deal 1 of 3)."


def test_the_first_dealer_is_the_sessions_else_the_first_named() -> None:
    assert start({}, dealer="Bob").next_dealer == "Bob"
    assert start({}, dealer=None).next_dealer == "Ann"


def test_a_perfect_game_is_the_target_and_the_widest_round_is_the_biggest_deal() -> None:
    assert TABLE.target(TABLE.parse_options({})) == sum(10 + size for size in range(1, 8))
    widest = TABLE.widest_round(list(NAMES), TABLE.parse_options(
        {"most_cards": 17, "bid_scoring": "minus"}))
    assert widest.hand_size == 7 and widest.dealer == "Ann" and widest.made == ()
    assert set(widest.scores.values()) == {17}  # 10 + 7: wider than -7


@pytest.mark.parametrize(("options", "says"), [
    ({"most_cards": 0}, "the biggest deal must be 1 to 17 cards, not 0"),
    ({"most_cards": 18}, "the biggest deal must be 1 to 17 cards, not 18"),
    ({"most_cards": "many"}, "the biggest deal must be a whole number"),
    ({"hand_sizes": "sideways"}, "--hand-sizes must be descend or ascend or both"),
    ({"bid_scoring": "golf"}, "--bid-scoring must be ten-plus or per-trick or minus"),
    ({"hook": "maybe"}, "--hook must be hook or no-hook"),
    ({"limit": 50}, "Oh Hell has no option 'limit'"),
])
def test_bad_house_rules_are_refused(options: dict[str, Any], says: str) -> None:
    with pytest.raises(EntryError, match=says):
        TABLE.check_options(options)


@pytest.mark.parametrize(("data", "says"), [
    ({"bids": {"Ann": 1}}, "an Oh Hell round needs 'bids' and 'tricks'"),
    ({"bids": [1], "tricks": {}}, "an Oh Hell round needs 'bids' and 'tricks'"),
    ({"bids": {"Ann": "1"}, "tricks": {"Ann": 1}}, "Ann's bid must be a whole number"),
    ({"bids": {"Ann": 1}, "tricks": {"Ann": True}}, "Ann's tricks must be a whole number"),
    ({"points": {"Ann": 1}}, "an Oh Hell round needs 'bids' and 'tricks'"),
])
def test_a_stored_round_of_the_wrong_shape_is_refused_with_its_number(
        data: dict[str, Any], says: str) -> None:
    with pytest.raises(RoundError, match=f"round 2: {says}"):
        parse_rounds(TABLE, [deal(Ann="1/1", Bob="0/0", Cy="1/2"), data])


def test_another_games_round_is_refused_by_the_standings() -> None:
    from scorekeeper.games.points.table import PointsRound  # a round of another game

    with pytest.raises(RoundError, match="round 1: an Oh Hell round needs"):
        TABLE.standings(THREE, TABLE.parse_options({}), "Cy",
                        [PointsRound(points={"Ann": 1, "Bob": 1, "Cy": 1})])


# ---------------------------------------------------------------------------
# Property tests: the checks against the rules written again


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[str], str, int, dict[str, int], dict[str, int]]:
    """Players (3-7), a dealer, a hand size, and bids and tricks near the possible."""
    players = list(NAMES[:draw(st.integers(rules.MIN_PLAYERS, rules.MAX_PLAYERS))])
    dealer = draw(st.sampled_from(players))
    size = draw(st.integers(1, rules.max_hand_size(len(players))))
    values = st.integers(0, size + 1)
    bids = {name: draw(values) for name in players}
    tricks = {name: draw(values) for name in players}
    if draw(st.booleans()):  # often: tricks that add up, so the hook is reached
        left = size
        for name in players[:-1]:
            tricks[name] = draw(st.integers(0, left))
            left -= tricks[name]
        tricks[players[-1]] = left
    return players, dealer, size, bids, tricks


def possible(size: int, dealer: str, bids: Mapping[str, int], tricks: Mapping[str, int],
             hook: bool) -> bool:
    """The rules, written again: every bid and tricks 0 to the hand size, the tricks
    adding up to it, and with the hook the bids not adding up to it."""
    in_range = all(0 <= value <= size for value in (*bids.values(), *tricks.values()))
    return in_range and sum(tricks.values()) == size and not (hook and
                                                              sum(bids.values()) == size)


@given(deals(), st.booleans(), st.sampled_from(list(Scoring)))
def test_a_deal_is_taken_exactly_when_the_rules_allow_it(
        drawn: tuple[list[str], str, int, dict[str, int], dict[str, int]], hook: bool,
        scoring: Scoring) -> None:
    players, dealer, size, bids, tricks = drawn
    options = {"most_cards": size, "hook": "hook" if hook else "no-hook",
               "bid_scoring": scoring.value}
    values = [f"{name}={bids[name]}/{tricks[name]}" for name in players]
    if not possible(size, dealer, bids, tricks, hook):
        message = _refusal(options, values, players, dealer)
        assert "\n" not in message
        if possible(size, dealer, bids, tricks, False):  # only the hook says no
            forbidden = size - sum(bid for name, bid in bids.items() if name != dealer)
            assert message == (f"the hook: {dealer} deals and may not bid {forbidden}, "
                               f"which makes the bids add up to {size}")
        return
    checked = TABLE.check_options(options)
    stored = TABLE.make_round(players, TABLE.parse_options(checked),
                              start(checked, players, dealer=dealer),
                              entry(*values))
    scored = start(options, players, [stored.to_json()], dealer=dealer).rounds[0]
    assert isinstance(scored, OhHellScored)
    assert scored.hand_size == size and scored.dealer == dealer
    for name in players:
        exact = bids[name] == tricks[name]
        expected = {Scoring.TEN_PLUS_BID: 10 + bids[name] if exact else 0,
                    Scoring.TRICKS_PLUS_TEN: tricks[name] + (10 if exact else 0),
                    Scoring.MINUS_DIFFERENCE: 10 + bids[name] if exact
                    else -abs(bids[name] - tricks[name])}[scoring]
        assert scored.scores[name] == expected
        assert (name in scored.made) is exact
    if hook:  # the hook's purpose: somebody always misses
        assert len(scored.made) < len(players)


def _refusal(options: Mapping[str, Any], values: Sequence[str], players: Sequence[str],
             dealer: str) -> str:
    checked = TABLE.check_options(options)
    standing = start(checked, players, dealer=dealer)
    with pytest.raises(EntryError) as info:
        TABLE.make_round(players, TABLE.parse_options(checked), standing, entry(*values))
    # the same deal, stored and read back, is refused by the standings too
    with pytest.raises(RoundError):
        start(checked, players, [_stored(values)], dealer=dealer)
    return str(info.value)


def _stored(values: Sequence[str]) -> dict[str, Any]:
    return deal(**dict(value.split("=", 1) for value in values))


@given(st.sampled_from(list(Schedule)), st.integers(1, 17),
       st.integers(rules.MIN_PLAYERS, rules.MAX_PLAYERS))
def test_every_schedule_fits_the_deck_and_ends_the_game(kind: Schedule, most: int,
                                                        count: int) -> None:
    players = list(NAMES[:count])
    options = {"most_cards": most, "hand_sizes": kind.value}
    sizes = rules.hand_sizes(kind, most, count)
    assert max(sizes) * count <= rules.DECK and min(sizes) == 1
    assert max(sizes) == min(most, rules.DECK // count)
    rounds: list[dict[str, Any]] = []
    for number, size in enumerate(sizes, start=1):
        standing = start(options, players, rounds, dealer=players[0])
        assert not standing.finished
        assert standing.next_dealer == players[(number - 1) % count]
        assert f"deals {size} card" in (standing.next_deal or "")
        # everyone bids 0, the dealer's left takes every trick: the hook never bites
        rounds.append({"bids": dict.fromkeys(players, 0),
                       "tricks": {name: size if name == players[number % count] else 0
                                  for name in players}})
    over = start(options, players, rounds, dealer=players[0])
    assert over.finished and over.next_dealer is None
    assert [r.hand_size for r in over.rounds if isinstance(r, OhHellScored)] == list(sizes)


rounds_json = st.builds(
    lambda bids, tricks, extra: {"bids": bids, "tricks": tricks, **extra},
    st.dictionaries(st.sampled_from(NAMES), st.integers(0, 17), max_size=7),
    st.dictionaries(st.sampled_from(NAMES), st.integers(0, 17), max_size=7),
    st.fixed_dictionaries({}, optional={"note": st.text(max_size=10)}))


@given(rounds_json, st.sets(st.sampled_from(NAMES)))
def test_a_round_round_trips_and_renames(data: dict[str, Any], renaming: set[str]) -> None:
    round_ = OhHellRound.from_json(data)
    assert OhHellRound.from_json(round_.to_json()) == round_
    assert TABLE.round_from_json(data) == round_ == TABLE.round_from_summary(data)
    names = {name: name.upper() for name in renaming}
    renamed = round_.renamed(names)
    assert list(renamed.bids) == [names.get(name, name) for name in round_.bids]
    assert list(renamed.tricks.values()) == list(round_.tricks.values())
    assert renamed.note == round_.note


@given(deals())
def test_a_round_entered_at_a_terminal_is_the_round_typed(
        drawn: tuple[list[str], str, int, dict[str, int], dict[str, int]]) -> None:
    """``entry_of`` gives back what was typed, and the questions take it answer by answer
    exactly when the whole line is taken."""
    players, dealer, size, bids, tricks = drawn
    options = TABLE.parse_options({"most_cards": size})
    standing = start({"most_cards": size}, players, dealer=dealer)
    values = [f"{name}={bids[name]}/{tricks[name]}" for name in players]
    typed = entry(*values)
    try:
        stored = TABLE.make_round(players, options, standing, typed)
    except EntryError:
        stored = None
    asked = entry()
    taken = True
    while (question := TABLE.next_question(players, options, standing, asked)) is not None:
        name = question.prompt.split("'s ")[0]
        try:
            asked = question.answer(f"{bids[name]}/{tricks[name]}")
        except EntryError:
            taken = False
            break
    assert taken is (stored is not None)
    if stored is not None:
        assert TABLE.make_round(players, options, standing, asked) == stored
        assert TABLE.entry_of(stored) == typed
