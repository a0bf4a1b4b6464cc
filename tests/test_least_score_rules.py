"""Tests for the Least Score rules of RULES.md (scorekeeper.games.least_score.rules)."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from examples_budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.cards import (
    JOKER,
    RANKS,
    STANDARD_DECK,
    SUITS,
    Card,
    CardError,
    Rank,
    Suit,
    parse_cards,
)
from scorekeeper.games.least_score.rules import (
    DEFAULT_LIMIT,
    FALSE_DECLARATION_PENALTY,
    MAX_LIMIT,
    MIN_LIMIT,
    DealScore,
    End,
    Options,
    Tie,
    TwoPairs,
    card_value,
    discard_problem,
    first_player,
    hand_value,
    is_legal_discard,
    knocked_out,
    legal_discards,
    next_dealer,
    score_deal,
    winners,
)

THREE_OF_A_KIND = "three of a kind can't be discarded"
NOT_A_PAIR = "two cards must be a pair of the same rank"
TWO_PAIRS_SAME_RANK = "two pairs must be of the same rank (house rule two_pairs = same-rank)"
FOUR_CARD_RUN = "4-card runs can't be discarded: a run is exactly 3 or 5 cards"
FOUR_OF_A_RANK = "four cards must be all four of one rank"
THREE_NOT_RUN = "three cards must be a run of consecutive ranks"
FIVE_NOT_RUN = "five cards must be a run of consecutive ranks or a flush (one suit)"
DUPLICATE = "the same card can't be discarded twice"
EMPTY = "discard at least one card"
NO_JOKER = "Least Score is played without the joker"
TOO_MANY = "at most 5 cards can be discarded, and only as a run or a flush"


def cards(text: str) -> list[Card]:
    return parse_cards(text, allow_joker=False)


# ---------------------------------------------------------------------------
# An independent reading of "Legal discards" in RULES.md, used as the oracle.


def _runs(length: int) -> list[frozenset[int]]:
    """Every run of ``length`` ranks: ace low (A-2-3) up to ace high (Q-K-A), never K-A-2."""
    # Rank 14 is the high ace; it is folded back to 1.
    return [
        frozenset(1 if r == 14 else r for r in range(start, start + length))
        for start in range(1, 14 - length + 2)
    ]


RUNS = {3: _runs(3), 5: _runs(5)}


def reference_legal(discard: Sequence[Card], two_pairs: TwoPairs = TwoPairs.SAME_RANK) -> bool:
    n = len(discard)
    if n == 0 or n > 5 or len(set(discard)) != n or any(c.is_joker for c in discard):
        return False
    counts = Counter(int(c.rank) for c in discard)
    if 3 in counts.values():
        return False
    if n == 1:
        return True
    if n == 2:
        return len(counts) == 1
    if n == 4:
        if list(counts.values()) == [4]:
            return True
        return two_pairs is TwoPairs.ANY_RANK and sorted(counts.values()) == [2, 2]
    # 3 or 5 cards
    if len(counts) == n and frozenset(counts) in RUNS[n]:
        return True
    return n == 5 and len({c.suit for c in discard}) == 1


def test_reference_runs() -> None:
    assert len(RUNS[3]) == 12  # A-2-3 .. Q-K-A
    assert len(RUNS[5]) == 10  # A-2-3-4-5 .. 10-J-Q-K-A
    assert frozenset({12, 13, 1}) in RUNS[3]
    assert frozenset({13, 1, 2}) not in RUNS[3]
    assert frozenset({10, 11, 12, 13, 1}) in RUNS[5]


# ---------------------------------------------------------------------------
# Card values


@pytest.mark.parametrize("card", STANDARD_DECK, ids=str)
def test_card_value(card: Card) -> None:
    expected = {Rank.ACE: 1, Rank.JACK: 10, Rank.QUEEN: 10, Rank.KING: 10}.get(
        card.rank, int(card.rank)
    )
    assert card_value(card) == expected


def test_card_values_by_rank() -> None:
    values = [card_value(Card(rank, Suit.SPADES)) for rank in RANKS]
    assert values == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def test_a_joker_is_worth_0_where_a_game_has_them_and_least_score_refuses_it() -> None:
    """Yaniv's house rule jokers: a joker is 0; Least Score never lets one in (typed cards
    and discards refuse it)."""
    assert card_value(JOKER) == 0
    assert hand_value([JOKER, *cards("AH")]) == 1
    with pytest.raises(CardError, match="without the joker"):
        cards("JK")
    assert discard_problem([JOKER]) == NO_JOKER


@pytest.mark.parametrize(
    ("hand", "total"),
    [
        ("AH", 1),
        ("AH 9S KD", 20),
        ("10H JS QD KC 9H", 49),
        ("KS KH KD KC QS", 50),
        ("AS AH AD AC 2S", 6),
        ("", 0),
    ],
)
def test_hand_value(hand: str, total: int) -> None:
    assert hand_value(cards(hand)) == total


def test_whole_deck_value() -> None:
    # Per suit: 1 + 2..10 (54) + 3 * 10 = 85
    assert hand_value(STANDARD_DECK) == 4 * 85


# ---------------------------------------------------------------------------
# Scoring: the worked examples of RULES.md


def test_worked_example_good_declaration() -> None:
    result = score_deal({"A": 10, "B": 16, "C": 17}, "A")
    assert result.scores == {"A": 0, "B": 6, "C": 7}
    assert not result.false_declaration
    assert result.declarer_total == 10
    assert result.lowest_other == 16


def test_worked_example_false_declaration() -> None:
    result = score_deal({"A": 10, "B": 8, "C": 15}, "A")
    assert result.scores == {"A": 22, "B": 0, "C": 0}
    assert result.false_declaration
    assert result.declarer_total == 10
    assert result.lowest_other == 8


def test_declarer_need_not_be_first() -> None:
    result = score_deal({"B": 16, "C": 17, "A": 10}, "A")
    assert result.scores == {"B": 6, "C": 7, "A": 0}
    assert list(result.scores) == ["B", "C", "A"]  # the order of the totals is kept


def test_two_players() -> None:
    assert score_deal({"A": 3, "B": 50}, "B").scores == {"A": 0, "B": 67}
    assert score_deal({"A": 3, "B": 50}, "A").scores == {"A": 0, "B": 47}


# ---------------------------------------------------------------------------
# The tie house rule


def test_tie_default_is_declarer_wins() -> None:
    assert Options().tie is Tie.DECLARER_WINS
    result = score_deal({"A": 10, "B": 10, "C": 15}, "A")
    assert result.scores == {"A": 0, "B": 0, "C": 5}
    assert not result.false_declaration


def test_tie_declarer_wins() -> None:
    result = score_deal({"A": 10, "B": 10, "C": 15}, "A", Tie.DECLARER_WINS)
    assert result.scores == {"A": 0, "B": 0, "C": 5}
    assert not result.false_declaration


def test_tie_declarer_loses_gives_20() -> None:
    result = score_deal({"A": 10, "B": 10, "C": 15}, "A", Tie.DECLARER_LOSES)
    assert result.scores == {"A": FALSE_DECLARATION_PENALTY, "B": 0, "C": 0}
    assert result.scores["A"] == 20
    assert result.false_declaration


def test_tie_rule_only_matters_on_a_tie() -> None:
    for tie in Tie:
        assert score_deal({"A": 9, "B": 10}, "A", tie).scores == {"A": 0, "B": 1}
        assert score_deal({"A": 11, "B": 10}, "A", tie).scores == {"A": 21, "B": 0}


def test_score_deal_errors() -> None:
    with pytest.raises(ValueError, match="no total"):
        score_deal({"A": 10, "B": 12}, "Z")
    with pytest.raises(ValueError, match="at least two players"):
        score_deal({"A": 10}, "A")


def test_deal_score_is_frozen() -> None:
    result = score_deal({"A": 10, "B": 16}, "A")
    assert isinstance(result, DealScore)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.false_declaration = True  # type: ignore[misc]


# ---------------------------------------------------------------------------
# Knock-outs


def test_knocked_out_is_strictly_over_the_limit() -> None:
    running = {"A": 99, "B": 100, "C": 101, "D": 150}
    assert knocked_out(running, 100) == ["C", "D"]


def test_knocked_out_equal_to_limit_stays_in() -> None:
    assert knocked_out({"A": 25, "B": 0}, 25) == []
    assert knocked_out({"A": 26, "B": 0}, 25) == ["A"]


def test_knocked_out_keeps_mapping_order() -> None:
    assert knocked_out({"Z": 60, "A": 10, "M": 51}, 50) == ["Z", "M"]
    assert knocked_out({}, 50) == []


# ---------------------------------------------------------------------------
# Winners


def test_winners_last_standing() -> None:
    running = {"A": 10, "B": 120, "C": 130}
    assert winners(running, ["A"], True, End.LAST_STANDING) == ["A"]
    assert winners(running, ["A", "B"], True, End.LAST_STANDING) is None
    assert winners({"A": 0, "B": 0}, ["A", "B"], False, End.LAST_STANDING) is None


def test_winners_last_standing_ignores_lowest_total() -> None:
    # The last player standing wins whatever the totals of those knocked out earlier.
    running = {"A": 90, "B": 101, "C": 5}
    assert winners(running, ["A"], True, End.LAST_STANDING) == ["A"]


def test_winners_first_out_not_over_without_knock_out() -> None:
    assert winners({"A": 10, "B": 20, "C": 30}, ["A", "B", "C"], False, End.FIRST_OUT) is None


def test_winners_first_out_lowest_wins() -> None:
    running = {"A": 30, "B": 101, "C": 12}
    assert winners(running, ["A", "C"], True, End.FIRST_OUT) == ["C"]


def test_winners_first_out_tie_shares_the_win() -> None:
    running = {"A": 12, "B": 101, "C": 12, "D": 40}
    assert winners(running, ["A", "C", "D"], True, End.FIRST_OUT) == ["A", "C"]


# ---------------------------------------------------------------------------
# Dealer


PLAYERS = ["A", "B", "C", "D"]


def test_next_dealer_passes_left() -> None:
    assert next_dealer(PLAYERS, "A", PLAYERS) == "B"
    assert next_dealer(PLAYERS, "B", PLAYERS) == "C"
    assert next_dealer(PLAYERS, "C", PLAYERS) == "D"


def test_next_dealer_wraps() -> None:
    assert next_dealer(PLAYERS, "D", PLAYERS) == "A"


def test_next_dealer_skips_knocked_out() -> None:
    assert next_dealer(PLAYERS, "A", ["A", "C", "D"]) == "C"
    assert next_dealer(PLAYERS, "A", ["A", "D"]) == "D"
    assert next_dealer(PLAYERS, "C", ["B", "C"]) == "B"  # skips D, wraps past A


def test_next_dealer_when_dealer_is_knocked_out() -> None:
    assert next_dealer(PLAYERS, "B", ["A", "D"]) == "D"
    assert next_dealer(PLAYERS, "D", ["C"]) == "C"


def test_next_dealer_only_dealer_left() -> None:
    assert next_dealer(PLAYERS, "C", ["C"]) == "C"


def test_next_dealer_nobody_left() -> None:
    with pytest.raises(ValueError, match="nobody"):
        next_dealer(PLAYERS, "A", [])


def test_first_player_is_left_of_dealer() -> None:
    assert first_player(PLAYERS, "A", PLAYERS) == "B"
    assert first_player(PLAYERS, "D", PLAYERS) == "A"
    assert first_player(PLAYERS, "A", ["A", "C"]) == "C"


# ---------------------------------------------------------------------------
# Options


def test_options_defaults() -> None:
    options = Options()
    assert options.limit == DEFAULT_LIMIT == 100
    assert options.tie is Tie.DECLARER_WINS
    assert options.end is End.LAST_STANDING
    assert options.two_pairs is TwoPairs.SAME_RANK
    assert options.as_dict() == {
        "limit": 100,
        "tie": "declarer-wins",
        "end": "last-standing",
        "two_pairs": "same-rank",
    }


@pytest.mark.parametrize("limit", [10, 11, 25, 50, 100, 499, 500])
def test_options_limit_accepted(limit: int) -> None:
    assert Options(limit=limit).limit == limit


@pytest.mark.parametrize("limit", [9, 501, 0, -1, 1000])
def test_options_limit_refused(limit: int) -> None:
    with pytest.raises(ValueError, match="from 10 to 500"):
        Options(limit=limit)


def test_limit_bounds_constants() -> None:
    assert (MIN_LIMIT, MAX_LIMIT) == (10, 500)


def test_options_as_dict_with_house_rules() -> None:
    options = Options(
        limit=25, tie=Tie.DECLARER_LOSES, end=End.FIRST_OUT, two_pairs=TwoPairs.ANY_RANK
    )
    assert options.as_dict() == {
        "limit": 25,
        "tie": "declarer-loses",
        "end": "first-out",
        "two_pairs": "any-rank",
    }


def test_options_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Options().limit = 50  # type: ignore[misc]


# ---------------------------------------------------------------------------
# Legal discards


@pytest.mark.parametrize(
    "text",
    [
        # single card
        "AH",
        "KS",
        "10D",
        # pair
        "3H 3S",
        "KD KC",
        # all four of a rank
        "7S 7H 7D 7C",
        "AS AH AD AC",
        # 3-card runs (suits do not matter), ace low and high
        "3H 4S 5D",
        "5D 3H 4S",
        "AH 2S 3D",
        "QH KS AD",
        "AD QH KS",
        "9C 10C JC",
        "JH QS KD",
        # 5-card runs
        "AH 2S 3D 4C 5H",
        "10H JS QD KC AH",
        "AH KC QD JS 10H",
        "4S 5S 6H 7D 8C",
        "9D 10S JH QC KD",
        # 5-card flush, any ranks
        "2H 5H 9H JH KH",
        "AS 3S 6S 9S KS",
        "AC 7C 8C QC KC",
        # straight flush is fine too
        "2D 3D 4D 5D 6D",
    ],
)
def test_legal_discard(text: str) -> None:
    discard = cards(text)
    for two_pairs in TwoPairs:
        assert discard_problem(discard, two_pairs) is None
        assert is_legal_discard(discard, two_pairs)
    assert discard_problem(discard) is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # three of a kind is never legal
        ("3H 3S 3D", THREE_OF_A_KIND),
        ("KH KS KD", THREE_OF_A_KIND),
        # nor 3 of a rank inside another set
        ("3H 3S 3D 4C", THREE_OF_A_KIND),
        ("3H 3S 3D 4C 5H", THREE_OF_A_KIND),
        ("3H 3S 3D 5C 5H", THREE_OF_A_KIND),
        ("AH AS AD 2C 3H", THREE_OF_A_KIND),
        ("9H 9S 9D 2C 2H 3S", THREE_OF_A_KIND),
        ("9H 9S 9D 9C 2H 2S", TOO_MANY),
        # two cards
        ("3H 4H", NOT_A_PAIR),
        ("KH QH", NOT_A_PAIR),
        # four cards
        ("3H 4S 5D 6C", FOUR_CARD_RUN),
        ("AH 2S 3D 4C", FOUR_CARD_RUN),
        ("JH QS KD AC", FOUR_CARD_RUN),
        ("KH KS 5D 5C", TWO_PAIRS_SAME_RANK),
        ("3H 3S 3D 3C", None),
        ("3H 3S 4D 5C", FOUR_OF_A_RANK),
        ("2H 5S 8D JC", FOUR_OF_A_RANK),
        ("QH KS AD 2C", FOUR_OF_A_RANK),
        ("2H 5H 8H JH", FOUR_OF_A_RANK),  # a flush is 5 cards
        # three cards
        ("3H 4S 6D", THREE_NOT_RUN),
        ("3H 3S 4D", THREE_NOT_RUN),
        ("2H 3H 9H", THREE_NOT_RUN),
        ("AH 7S KD", THREE_NOT_RUN),  # not consecutive, not a wrap
        ("AH 5S KD", THREE_NOT_RUN),
        # wrapping around the ace
        ("KH AS 2D", "K-A-2 is not a run: a run never wraps around the ace"),
        ("2D AS KH", "K-A-2 is not a run: a run never wraps around the ace"),
        ("JH QS KD AC 2H", "J-Q-K-A-2 is not a run: a run never wraps around the ace"),
        ("QH KS AD 2C 3H", "Q-K-A-2-3 is not a run: a run never wraps around the ace"),
        ("KH AS 2D 3C 4H", "K-A-2-3-4 is not a run: a run never wraps around the ace"),
        # five cards
        ("3H 4S 5D 6C 8H", FIVE_NOT_RUN),
        ("AH 3H 6S 9D KC", FIVE_NOT_RUN),
        ("3H 3S 4D 4C 5H", FIVE_NOT_RUN),
        ("7H 7S 7D 7C 2H", FIVE_NOT_RUN),
        ("2H 5H 8H JH KS", FIVE_NOT_RUN),
        # six cards or more
        ("AH 2H 3H 4H 5H 6H", TOO_MANY),
        ("AH 2S 3D 4C 5H 6S", TOO_MANY),
        # bad input
        ("", EMPTY),
        ("3H 3H", DUPLICATE),
        ("3H 4S 3H", DUPLICATE),
        ("AH AH AH", DUPLICATE),
    ],
)
def test_illegal_discard_reasons(text: str, reason: str | None) -> None:
    discard = cards(text)
    assert discard_problem(discard) == reason
    assert is_legal_discard(discard) is (reason is None)


def test_joker_is_never_a_legal_discard() -> None:
    assert discard_problem([JOKER]) == NO_JOKER
    assert discard_problem([JOKER, *cards("3H")]) == NO_JOKER
    assert discard_problem([JOKER, JOKER]) == DUPLICATE


def test_two_pairs_house_rule() -> None:
    two_pairs = cards("KH KS 5D 5C")
    assert discard_problem(two_pairs) == TWO_PAIRS_SAME_RANK
    assert discard_problem(two_pairs, TwoPairs.SAME_RANK) == TWO_PAIRS_SAME_RANK
    assert discard_problem(two_pairs, TwoPairs.ANY_RANK) is None
    # all four of a rank is two pairs of the same rank: legal under both
    four = cards("9H 9S 9D 9C")
    assert discard_problem(four, TwoPairs.SAME_RANK) is None
    assert discard_problem(four, TwoPairs.ANY_RANK) is None
    # any-rank does not make other 4-card sets legal
    assert discard_problem(cards("KH KS 5D 6C"), TwoPairs.ANY_RANK) == FOUR_OF_A_RANK
    assert discard_problem(cards("3H 4S 5D 6C"), TwoPairs.ANY_RANK) == FOUR_CARD_RUN
    assert discard_problem(cards("KH KS KD 5C"), TwoPairs.ANY_RANK) == THREE_OF_A_KIND


def test_discard_problem_accepts_tuples() -> None:
    assert discard_problem(tuple(cards("QH KS AD"))) is None


def test_every_3_and_5_card_rank_set_against_the_reference() -> None:
    """Exhaustive over rank sets of distinct ranks, with mixed suits and with one suit."""
    for size in (3, 5):
        for ranks in itertools.combinations(RANKS, size):
            mixed = [Card(rank, SUITS[i % 4]) for i, rank in enumerate(ranks)]
            flush = [Card(rank, Suit.HEARTS) for rank in ranks]
            for discard in (mixed, flush):
                for two_pairs in TwoPairs:
                    legal = discard_problem(discard, two_pairs) is None
                    assert legal == reference_legal(discard, two_pairs), discard


def test_every_rank_pattern_of_four_cards_against_the_reference() -> None:
    for ranks in itertools.combinations_with_replacement(RANKS, 4):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        seen: Counter[Rank] = Counter()
        discard = []
        for rank in ranks:
            discard.append(Card(rank, SUITS[seen[rank]]))
            seen[rank] += 1
        for two_pairs in TwoPairs:
            legal = discard_problem(discard, two_pairs) is None
            assert legal == reference_legal(discard, two_pairs), discard


def test_legal_discards_doc_example() -> None:
    found = legal_discards(cards("3H 3S 4D 5C 9H"))
    as_text = {" ".join(str(c) for c in combo) for combo in found}
    assert as_text == {
        "3H",
        "3S",
        "4D",
        "5C",
        "9H",
        "3H 3S",
        "3H 4D 5C",
        "3S 4D 5C",
    }
    assert len(found) == 8


def test_legal_discards_full_run_hand() -> None:
    hand = cards("AH 2S 3D 4C 5H")
    found = set(legal_discards(hand))
    # 5 singles, 3 three-card runs, the 5-card run
    assert len(found) == 9
    assert tuple(hand) in found


def test_legal_discards_two_pairs_option() -> None:
    hand = cards("KH KS 5D 5C 9H")
    same = legal_discards(hand, TwoPairs.SAME_RANK)
    anyr = legal_discards(hand, TwoPairs.ANY_RANK)
    assert tuple(cards("KH KS 5D 5C")) not in same
    assert tuple(cards("KH KS 5D 5C")) in anyr
    assert set(anyr) - set(same) == {tuple(cards("KH KS 5D 5C"))}


def test_legal_discards_small_hands() -> None:
    assert legal_discards([]) == []
    assert legal_discards(cards("7S")) == [tuple(cards("7S"))]


def _brute_force(hand: Sequence[Card], two_pairs: TwoPairs) -> set[tuple[Card, ...]]:
    return {
        combo
        for size in range(1, len(hand) + 1)
        for combo in itertools.combinations(hand, size)
        if reference_legal(combo, two_pairs)
    }


def _all_subsets(hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    return [combo for size in range(len(hand) + 1) for combo in itertools.combinations(hand, size)]


@pytest.mark.parametrize(
    "text",
    [
        "3H 3S 4D 5C 9H",
        "AH 2S 3D 4C 5H",
        "10H JS QD KC AH",
        "2H 5H 9H JH KH",
        "KH KS 5D 5C 9H",
        "7S 7H 7D 7C 2H",
        "7S 7H 7D 8C 9H",
        "KH AS 2D 3C QH",
        "2D 3D 4D 5D 6D",
    ],
)
def test_legal_discards_complete_vs_brute_force(text: str) -> None:
    hand = cards(text)
    for two_pairs in TwoPairs:
        found = legal_discards(hand, two_pairs)
        assert len(found) == len(set(found))
        assert set(found) == _brute_force(hand, two_pairs)


# ---------------------------------------------------------------------------
# Properties

names = st.lists(
    st.text(alphabet="ABCDEFGH", min_size=1, max_size=3), min_size=2, max_size=8, unique=True
)
totals_strategy = names.flatmap(
    lambda ns: st.fixed_dictionaries({n: st.integers(min_value=1, max_value=50) for n in ns})
)
hands = st.lists(st.sampled_from(STANDARD_DECK), min_size=1, max_size=5, unique=True)


@given(totals_strategy, st.data(), st.sampled_from(Tie))
def test_property_scoring(totals: dict[str, int], data: st.DataObject, tie: Tie) -> None:
    declarer = data.draw(st.sampled_from(sorted(totals)))
    result = score_deal(totals, declarer, tie)
    assert set(result.scores) == set(totals)
    declared = totals[declarer]
    lowest = min(t for n, t in totals.items() if n != declarer)
    assert result.declarer_total == declared
    assert result.lowest_other == lowest
    if not result.false_declaration:
        assert declared <= lowest
        assert result.scores[declarer] == 0
        assert all(score >= 0 for score in result.scores.values())
        for name, total in totals.items():
            if name != declarer:
                assert result.scores[name] == total - declared
    else:
        assert declared >= lowest
        assert result.scores[declarer] >= FALSE_DECLARATION_PENALTY
        assert result.scores[declarer] == 20 + declared - lowest
        assert all(score == 0 for name, score in result.scores.items() if name != declarer)
    # the classification is exactly the rule of RULES.md
    expected_false = declared > lowest or (declared == lowest and tie is Tie.DECLARER_LOSES)
    assert result.false_declaration is expected_false


@given(
    st.dictionaries(st.text(min_size=1, max_size=3), st.integers(-10, 700), max_size=8),
    st.integers(MIN_LIMIT, MAX_LIMIT),
)
def test_property_knocked_out_strictly_over(running: dict[str, int], limit: int) -> None:
    out = knocked_out(running, limit)
    assert out == [name for name in running if running[name] > limit]
    for name, total in running.items():
        assert (name in out) is (total > limit)


@settings(max_examples=examples(60))
@given(
    st.integers(2, 8),
    st.integers(MIN_LIMIT, 60),
    st.sampled_from(Tie),
    st.data(),
)
def test_property_someone_always_remains(
    n_players: int, limit: int, tie: Tie, data: st.DataObject
) -> None:
    players = [f"P{i}" for i in range(n_players)]
    running = dict.fromkeys(players, 0)
    still_in = list(players)
    dealer = players[0]
    for _ in range(40):
        if winners(running, still_in, len(still_in) < n_players, End.LAST_STANDING):
            break
        totals = {p: data.draw(st.integers(1, 50)) for p in still_in}
        declarer = data.draw(st.sampled_from(still_in))
        result = score_deal(totals, declarer, tie)
        for name, score in result.scores.items():
            running[name] += score
        out = knocked_out({p: running[p] for p in still_in}, limit)
        if result.false_declaration:
            assert set(out) <= {declarer}
        else:
            assert declarer not in out
        still_in = [p for p in still_in if p not in out]
        assert len(still_in) >= 1
        assert all(running[p] <= limit for p in still_in)
        dealer = next_dealer(players, dealer, still_in)
        assert dealer in still_in
    if len(still_in) == 1:
        assert winners(running, still_in, True, End.LAST_STANDING) == still_in


@given(hands, st.sampled_from(TwoPairs))
def test_property_legal_discards_match_discard_problem(
    hand: list[Card], two_pairs: TwoPairs
) -> None:
    found = legal_discards(hand, two_pairs)
    assert len(found) == len(set(found))
    legal = set(found)
    for combo in found:
        assert discard_problem(combo, two_pairs) is None
        # each discard keeps hand order
        positions = [hand.index(c) for c in combo]
        assert positions == sorted(positions)
    for subset in _all_subsets(hand):
        if subset not in legal:
            reason = discard_problem(subset, two_pairs)
            assert isinstance(reason, str)
            assert reason
    assert legal == _brute_force(hand, two_pairs)


@given(hands, st.sampled_from(TwoPairs), st.randoms(use_true_random=False))
def test_property_order_independence(
    hand: list[Card], two_pairs: TwoPairs, rnd: random.Random
) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert is_legal_discard(hand, two_pairs) == is_legal_discard(shuffled, two_pairs)
    assert discard_problem(hand, two_pairs) == discard_problem(shuffled, two_pairs)


@given(st.lists(st.sampled_from(STANDARD_DECK), min_size=1, max_size=5).flatmap(st.permutations))
def test_property_permutations_same_reason(discard: list[Card]) -> None:
    """Also with duplicated cards: every order of the same cards gets the same answer."""
    reference = discard_problem(sorted(discard))
    assert discard_problem(discard) == reference
    assert (reference is None) == reference_legal(discard)
