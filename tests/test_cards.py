"""Tests for the card notation of RULES.md (scorekeeper.cards)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.cards import (
    ALL_CARDS,
    JOKER,
    RANKS,
    STANDARD_DECK,
    SUITS,
    Card,
    CardError,
    Rank,
    Suit,
    format_cards,
    iter_duplicates,
    parse_card,
    parse_cards,
    parse_suit,
)

TEN_OF_HEARTS = Card(Rank.TEN, Suit.HEARTS)

# ---------------------------------------------------------------------------
# The deck


def test_standard_deck_has_52_distinct_cards() -> None:
    assert len(STANDARD_DECK) == 52
    assert len(set(STANDARD_DECK)) == 52
    assert JOKER not in STANDARD_DECK


def test_all_cards_is_the_deck_plus_the_joker() -> None:
    assert len(ALL_CARDS) == 53
    assert len(set(ALL_CARDS)) == 53
    assert set(ALL_CARDS) == {*STANDARD_DECK, JOKER}


def test_ranks_and_suits() -> None:
    assert [int(r) for r in RANKS] == list(range(1, 14))
    assert Rank.JOKER not in RANKS
    assert [s.value for s in SUITS] == ["S", "H", "D", "C"]


def test_joker_has_no_suit() -> None:
    assert JOKER.is_joker
    assert JOKER.suit is None
    assert not any(card.is_joker for card in STANDARD_DECK)


def test_suit_properties() -> None:
    assert [s.symbol for s in SUITS] == ["♠", "♥", "♦", "♣"]
    assert [s.is_red for s in SUITS] == [False, True, True, False]
    assert [s.english for s in SUITS] == ["spades", "hearts", "diamonds", "clubs"]


# ---------------------------------------------------------------------------
# Every notation form


@pytest.mark.parametrize(
    "text",
    [
        "10h",
        "10H",
        "Th",
        "TH",
        "tH",
        "th",
        "10♥",
        "T♥",
        "t♥",
        "10♡",
        "  10h  ",
        "\t10H\n",
    ],
)
def test_ten_of_hearts_notations(text: str) -> None:
    assert parse_card(text) == TEN_OF_HEARTS


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("QS", Card(Rank.QUEEN, Suit.SPADES)),
        ("qs", Card(Rank.QUEEN, Suit.SPADES)),
        ("Q♠", Card(Rank.QUEEN, Suit.SPADES)),
        ("q♤", Card(Rank.QUEEN, Suit.SPADES)),
        ("AD", Card(Rank.ACE, Suit.DIAMONDS)),
        ("a♦", Card(Rank.ACE, Suit.DIAMONDS)),
        ("a♢", Card(Rank.ACE, Suit.DIAMONDS)),
        ("2c", Card(Rank.TWO, Suit.CLUBS)),
        ("2♣", Card(Rank.TWO, Suit.CLUBS)),
        ("2♧", Card(Rank.TWO, Suit.CLUBS)),
        ("9h", Card(Rank.NINE, Suit.HEARTS)),
        ("jd", Card(Rank.JACK, Suit.DIAMONDS)),
        ("Kc", Card(Rank.KING, Suit.CLUBS)),
        ("jk", JOKER),
        ("JK", JOKER),
        ("Jk", JOKER),
        (" jK ", JOKER),
        ("joker", JOKER),
    ],
)
def test_notations(text: str, card: Card) -> None:
    assert parse_card(text) == card


def test_jack_of_clubs_is_not_confused_with_joker() -> None:
    assert parse_card("JC") == Card(Rank.JACK, Suit.CLUBS)
    assert parse_card("JH") == Card(Rank.JACK, Suit.HEARTS)


def test_parsed_cards_are_interned() -> None:
    card = parse_card("10h")
    assert any(card is interned for interned in ALL_CARDS)
    assert parse_card("10h") is parse_card("T♥")
    assert parse_card("jk") is JOKER


@pytest.mark.parametrize(
    ("rank_text", "rank"),
    [
        ("A", Rank.ACE),
        ("2", Rank.TWO),
        ("3", Rank.THREE),
        ("4", Rank.FOUR),
        ("5", Rank.FIVE),
        ("6", Rank.SIX),
        ("7", Rank.SEVEN),
        ("8", Rank.EIGHT),
        ("9", Rank.NINE),
        ("10", Rank.TEN),
        ("T", Rank.TEN),
        ("J", Rank.JACK),
        ("Q", Rank.QUEEN),
        ("K", Rank.KING),
    ],
)
@pytest.mark.parametrize("suit", list(Suit))
def test_every_rank_with_every_suit(rank_text: str, rank: Rank, suit: Suit) -> None:
    for suit_text in (suit.value, suit.value.lower(), suit.symbol):
        for text in (rank_text + suit_text, rank_text.lower() + suit_text):
            assert parse_card(text) == Card(rank, suit)


# ---------------------------------------------------------------------------
# Printing


@pytest.mark.parametrize(
    ("text", "printed", "pretty"),
    [
        ("10h", "10H", "10♥"),
        ("Th", "10H", "10♥"),
        ("qs", "QS", "Q♠"),
        ("ad", "AD", "A♦"),
        ("2♣", "2C", "2♣"),
        ("kc", "KC", "K♣"),
        ("jk", "JK", "JK"),
    ],
)
def test_printing(text: str, printed: str, pretty: str) -> None:
    card = parse_card(text)
    assert str(card) == printed
    assert card.pretty() == pretty


def test_printing_uses_upper_case_and_10_never_t() -> None:
    for card in ALL_CARDS:
        text = str(card)
        assert text == text.upper()
        assert "T" not in text
        assert text[-1] in "SHDCK"


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_round_trip_all_53_cards(card: Card) -> None:
    assert parse_card(str(card)) is card
    assert parse_card(str(card).lower()) is card
    assert parse_card(card.pretty()) is card


def test_round_trip_whole_deck_through_format_and_parse_cards() -> None:
    text = " ".join(format_cards(ALL_CARDS))
    assert parse_cards(text) == list(ALL_CARDS)
    assert parse_cards(", ".join(c.pretty() for c in ALL_CARDS)) == list(ALL_CARDS)


def test_format_cards() -> None:
    assert format_cards([TEN_OF_HEARTS, JOKER]) == ["10H", "JK"]
    assert format_cards([]) == []


# ---------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    "text",
    ["1H", "11S", "ZZ", "", "   ", "10X", "H", "10", "1", "AHH", "10 H", "QQ", "JKS", "0H", "TT"],
)
def test_not_a_card(text: str) -> None:
    with pytest.raises(CardError):
        parse_card(text)


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)
    with pytest.raises(ValueError):
        parse_card("ZZ")


def test_error_messages_say_what_is_wrong_and_what_is_right() -> None:
    with pytest.raises(CardError, match="rank not recognised") as info:
        parse_card("1H")
    assert "'1H'" in str(info.value)
    assert "10H" in str(info.value)  # an example of the right notation

    with pytest.raises(CardError, match="rank not recognised"):
        parse_card("11S")
    with pytest.raises(CardError, match="suit not recognised") as info:
        parse_card("10X")
    assert "S H D C" in str(info.value)
    with pytest.raises(CardError, match="card not recognised"):
        parse_card("ZZ")
    with pytest.raises(CardError, match="empty"):
        parse_card("")
    with pytest.raises(CardError, match="empty"):
        parse_card("   ")


def test_error_message_shows_the_text_without_surrounding_whitespace() -> None:
    with pytest.raises(CardError) as info:
        parse_card("  10x  ")
    assert "'10x'" in str(info.value)


@pytest.mark.parametrize("text", ["JK", "jk", "joker", " Jk "])
def test_joker_refused_where_the_game_has_none(text: str) -> None:
    with pytest.raises(CardError, match="without the joker"):
        parse_card(text, allow_joker=False)


def test_allow_joker_false_still_accepts_normal_cards() -> None:
    assert parse_card("JH", allow_joker=False) == Card(Rank.JACK, Suit.HEARTS)
    assert parse_cards("AH 10S", allow_joker=False) == [
        Card(Rank.ACE, Suit.HEARTS),
        Card(Rank.TEN, Suit.SPADES),
    ]
    with pytest.raises(CardError, match="without the joker"):
        parse_cards("AH JK", allow_joker=False)


# ---------------------------------------------------------------------------
# parse_cards


@pytest.mark.parametrize(
    "text",
    ["AH, 3S,3d", "AH 3S 3D", "ah,3s,3d", "  AH , 3S   3D  ", "A♥ 3♠ 3♦", "AH,3S\n3D"],
)
def test_parse_cards_separators(text: str) -> None:
    assert [str(c) for c in parse_cards(text)] == ["AH", "3S", "3D"]


def test_parse_cards_empty() -> None:
    assert parse_cards("") == []
    assert parse_cards("  ") == []
    assert parse_cards([]) == []


def test_parse_cards_from_iterable_of_strings() -> None:
    assert parse_cards(["10h", "jk", "qs"]) == [TEN_OF_HEARTS, JOKER, parse_card("QS")]
    assert parse_cards(iter(["Th"])) == [TEN_OF_HEARTS]


def test_parse_cards_keeps_order_and_duplicates() -> None:
    cards = parse_cards("KS AH KS")
    assert [str(c) for c in cards] == ["KS", "AH", "KS"]


def test_parse_cards_bad_card_raises() -> None:
    with pytest.raises(CardError, match="'1H'"):
        parse_cards("AH 1H 3S")
    with pytest.raises(CardError):
        parse_cards(["AH", ""])


# ---------------------------------------------------------------------------
# parse_suit


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("S", Suit.SPADES),
        ("s", Suit.SPADES),
        ("♠", Suit.SPADES),
        ("♤", Suit.SPADES),
        ("H", Suit.HEARTS),
        ("h", Suit.HEARTS),
        ("♥", Suit.HEARTS),
        ("♡", Suit.HEARTS),
        ("D", Suit.DIAMONDS),
        ("d", Suit.DIAMONDS),
        ("♦", Suit.DIAMONDS),
        ("♢", Suit.DIAMONDS),
        ("C", Suit.CLUBS),
        ("c", Suit.CLUBS),
        ("♣", Suit.CLUBS),
        ("♧", Suit.CLUBS),
        ("  h ", Suit.HEARTS),
    ],
)
def test_parse_suit(text: str, suit: Suit) -> None:
    assert parse_suit(text) is suit


@pytest.mark.parametrize("text", ["", " ", "X", "HH", "hearts", "10H", "JK", "1"])
def test_parse_suit_errors(text: str) -> None:
    with pytest.raises(CardError, match="is not a suit"):
        parse_suit(text)


# ---------------------------------------------------------------------------
# iter_duplicates


def test_iter_duplicates() -> None:
    assert list(iter_duplicates(parse_cards("AH KS AH AH 2C KS"))) == parse_cards("AH AH KS")
    assert list(iter_duplicates(parse_cards("AH KS"))) == []
    assert list(iter_duplicates([])) == []


# ---------------------------------------------------------------------------
# Properties


def _spellings(card: Card) -> st.SearchStrategy[str]:
    """Every accepted spelling of ``card``, in any case, padded with whitespace."""
    if card.is_joker:
        bodies = st.sampled_from(["JK", "JOKER"])
    else:
        assert card.suit is not None
        ranks = ["10", "T"] if card.rank is Rank.TEN else [card.rank.symbol]
        suits = [card.suit.value, card.suit.symbol]
        bodies = st.builds(lambda r, s: r + s, st.sampled_from(ranks), st.sampled_from(suits))
    cased = bodies.flatmap(
        lambda body: st.lists(st.booleans(), min_size=len(body), max_size=len(body)).map(
            lambda flags: "".join(
                ch.lower() if lower else ch for ch, lower in zip(body, flags, strict=True)
            )
        )
    )
    pad = st.sampled_from(["", " ", "  ", "\t"])
    return st.builds(lambda a, b, c: a + b + c, pad, cased, pad)


@given(st.sampled_from(ALL_CARDS).flatmap(lambda c: st.tuples(st.just(c), _spellings(c))))
def test_any_spelling_parses_to_the_card(pair: tuple[Card, str]) -> None:
    card, text = pair
    assert parse_card(text) is card


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=12), st.sampled_from([" ", ",", ", ", " ,"]))
def test_parse_cards_round_trip(cards: list[Card], sep: str) -> None:
    assert parse_cards(sep.join(format_cards(cards))) == cards


@given(st.text(max_size=6))
def test_parse_card_returns_a_card_or_raises_card_error(text: str) -> None:
    try:
        card = parse_card(text)
    except CardError:
        return
    assert card in ALL_CARDS


@pytest.mark.parametrize("text", ["AH,,2C", "AH,2C,", ",AH", "AH, ,2C", ",", " , ,",
                                  "  AH ,, 3S   3D , "])
def test_a_comma_with_no_card_beside_it_is_a_card_left_out(text: str) -> None:
    with pytest.raises(CardError, match="comma with no card"):
        parse_cards(text)


@pytest.mark.parametrize("text", ["AH,2C", "AH, 2C", "AH 2C", " AH ,  2C "])
def test_commas_and_spaces_separate_cards(text: str) -> None:
    assert format_cards(parse_cards(text)) == ["AH", "2C"]
