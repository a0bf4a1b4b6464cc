"""Cards and user text as the terminal prints them (rich ``Text``, never markup).

Every string that came from a user or a file goes to rich through :func:`plain`, with
control characters shown escaped; cards carry their suit symbol and colour. Below the
games, so each game's keyboard UI prints its cards the way the views do.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from scorekeeper.cards import parse_card
from scorekeeper.text import show_controls


def plain(text: object, style: str = "") -> Text:
    """User text as rich shows it safely: no markup, control characters escaped."""
    return Text(show_controls(str(text)), style=style)


def card_text(card: str) -> Text:
    """A card string with its suit symbol, red for hearts and diamonds."""
    parsed = parse_card(card)
    if parsed.suit is None:
        return Text("JK", style="bold magenta")
    return Text(parsed.pretty(), style="red" if parsed.suit.is_red else "bold")


def cards_text(cards: Sequence[str]) -> Text:
    text = Text()
    for index, card in enumerate(cards):
        if index:
            text.append(" ")
        text.append_text(card_text(card))
    return text
