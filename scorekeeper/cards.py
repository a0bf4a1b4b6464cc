"""Cards and the card notation of RULES.md.

Notation: rank then suit. Ranks ``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` is accepted
for ten on input), suits ``S H D C`` (the symbols ``♠ ♥ ♦ ♣`` are accepted on
input). The joker is ``JK``. Input is case-insensitive.

>>> parse_card("10h")
Card(rank=<Rank.TEN: 10>, suit=<Suit.HEARTS: 'H'>)
>>> str(parse_card("T♥")), str(parse_card("jk"))
('10H', 'JK')
>>> [str(c) for c in parse_cards("AH, 3S,3d")]
['AH', '3S', '3D']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from scorekeeper.errors import CardError as CardError  # re-exported
from scorekeeper.i18n import N_, _


class Rank(enum.IntEnum):
    """Card ranks, numbered so that runs are consecutive integers (ace low)."""

    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]


class Suit(enum.StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def english(self) -> str:
        return self.name.lower()

    @property
    def in_words(self) -> str:
        """The suit's name in the active language (``spades``, Danish ``spar``)."""
        return _(_SUIT_NAMES[self])



_RANK_SYMBOLS = {
    Rank.JOKER: "JK",
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    **{Rank(n): str(n) for n in range(2, 11)},
}
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_NAMES = {Suit.SPADES: N_("spades"), Suit.HEARTS: N_("hearts"),
               Suit.DIAMONDS: N_("diamonds"), Suit.CLUBS: N_("clubs")}


class Card(NamedTuple):
    """A playing card. The joker has rank ``Rank.JOKER`` and no suit.

    Cards are tuples, so they hash and compare quickly; every card that
    :func:`parse_card` returns is one of the interned instances in ``ALL_CARDS``.
    """

    rank: Rank
    suit: Suit | None

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return f"{self.rank.symbol}{self.suit.value}"

    def pretty(self) -> str:
        """The card with its suit symbol, as shown on screen (``10♥``, ``JK``)."""
        if self.suit is None:
            return "JK"
        return f"{self.rank.symbol}{self.suit.symbol}"


JOKER = Card(Rank.JOKER, None)
SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)
STANDARD_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in SUITS for r in RANKS)
ALL_CARDS: tuple[Card, ...] = (*STANDARD_DECK, JOKER)

_RANK_INPUT = {
    "A": Rank.ACE,
    "T": Rank.TEN,
    "J": Rank.JACK,
    "Q": Rank.QUEEN,
    "K": Rank.KING,
    **{str(n): Rank(n) for n in range(2, 11)},
}
_SUIT_INPUT = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_INTERNED = {(c.rank, c.suit): c for c in ALL_CARDS}


def parse_suit(text: str) -> Suit:
    """Parse a suit letter or symbol (``h``, ``H``, ``♥``)."""
    key = text.strip().upper()
    if key in _SUIT_INPUT:
        return _SUIT_INPUT[key]
    raise CardError(_("{text} is not a suit: use S, H, D or C (or ♠ ♥ ♦ ♣)")
                    .format(text=repr(text.strip())))


_NOT_A_CARD = {
    ("card", True): N_("{text} is not a card (card not recognised): write rank then suit, "
                       "ranks A 2-10 J Q K (T for 10), suits S H D C, the joker JK; "
                       "e.g. 10H, QS"),
    ("rank", True): N_("{text} is not a card (rank not recognised): write rank then suit, "
                       "ranks A 2-10 J Q K (T for 10), suits S H D C, the joker JK; "
                       "e.g. 10H, QS"),
    ("suit", True): N_("{text} is not a card (suit not recognised): write rank then suit, "
                       "ranks A 2-10 J Q K (T for 10), suits S H D C, the joker JK; "
                       "e.g. 10H, QS"),
    # A game without the joker (Least Score) does not offer it.
    ("card", False): N_("{text} is not a card (card not recognised): write rank then suit, "
                        "ranks A 2-10 J Q K (T for 10), suits S H D C; e.g. 10H, QS"),
    ("rank", False): N_("{text} is not a card (rank not recognised): write rank then suit, "
                        "ranks A 2-10 J Q K (T for 10), suits S H D C; e.g. 10H, QS"),
    ("suit", False): N_("{text} is not a card (suit not recognised): write rank then suit, "
                        "ranks A 2-10 J Q K (T for 10), suits S H D C; e.g. 10H, QS"),
}
"""Why a word is not a card, by what was not recognised and whether the joker exists."""


def parse_card(text: str, *, allow_joker: bool = True) -> Card:
    """Parse one card such as ``10h``, ``Th``, ``10♥``, ``QS`` or ``JK``.

    Raises :class:`CardError` with a message that says what would be right.
    """
    raw = text.strip()
    key = raw.upper()
    if not key:
        raise CardError(_("an empty card: write a card as rank then suit, e.g. 10H, QS, AD"))
    if key in ("JK", "JOKER"):
        if not allow_joker:
            raise CardError(_("JK: this game is played without the joker"))
        return JOKER
    rank_text, suit_text = key[:-1], key[-1]
    rank = _RANK_INPUT.get(rank_text)
    suit = _SUIT_INPUT.get(suit_text)
    if rank is None or suit is None:
        kind = "card" if rank is None and suit is None else "rank" if rank is None else "suit"
        problem = _(_NOT_A_CARD[kind, allow_joker])
        raise CardError(problem.format(text=repr(raw)))
    return _INTERNED[(rank, suit)]


def parse_cards(text: str | Iterable[str], *, allow_joker: bool = True) -> list[Card]:
    """Parse cards separated by commas and/or spaces, or an iterable of card strings.

    A comma with no card after it (``AH,,2C``, ``AH,2C,``) is a card left out, not
    a separator to skip: it is refused.

    >>> [str(card) for card in parse_cards("AH, 2c 10S")]
    ['AH', '2C', '10S']
    """
    if not isinstance(text, str):
        return [parse_card(part, allow_joker=allow_joker) for part in text]
    pieces = text.split(",")
    if len(pieces) > 1 and any(not piece.strip() for piece in pieces):
        raise CardError(_("{text} has a comma with no card beside it: a card left out? "
                          "Separate cards with one comma or a space, e.g. AH,2C,10S")
                        .format(text=repr(text.strip())))
    return [parse_card(part, allow_joker=allow_joker)
            for piece in pieces for part in piece.split()]


def format_cards(cards: Iterable[Card]) -> list[str]:
    """The notation strings of ``cards`` (``['10H', 'JK']``), as stored and exported."""
    return [str(card) for card in cards]


def iter_duplicates(cards: Iterable[Card]) -> Iterator[Card]:
    """Yield each card that appears more than once, once per extra copy."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            yield card
        seen.add(card)
