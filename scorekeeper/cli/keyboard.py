"""Reading a move at the keyboard: the loop every game's UI shares."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from rich.console import RenderableType
from rich.text import Text

from scorekeeper.cards import Card, CardError, parse_card
from scorekeeper.i18n import _

Move = TypeVar("Move")

HELP_WORDS = ("?", "help")
HINT_WORDS = ("hint",)


def read_move(ask: Callable[[str], str], say: Callable[[Any], None], prompt: str,
              help_text: str, legal_moves: Callable[[], Iterable[str]],
              parse: Callable[[str], Move],
              hint: Callable[[], RenderableType] | None = None) -> Move:
    """Ask until ``parse`` accepts the answer.

    ``?`` shows ``help_text`` (the help for this question only) and the legal
    answers; ``hint``, when offered, shows what the strong bot would do.
    ``parse`` raises ValueError (CardError included) with a reason the player sees.
    The engine still checks the move; its refusal comes back through the match layer.
    """
    while True:
        text = ask(prompt)
        word = text.strip().lower()
        if word in HELP_WORDS:
            say(Text(help_text, style="dim"))
            for line in legal_moves():
                say(Text(line))
            continue
        if hint is not None and word in HINT_WORDS:
            say(hint())
            continue
        try:
            return parse(text)
        except ValueError as error:
            say(Text(str(error), style="red"))


def read_card(word: str, card_help: str, *, allow_joker: bool = True) -> Card:
    """One card as typed, or ValueError in the game's own words (``card_help``)."""
    try:
        return parse_card(word, allow_joker=allow_joker)
    except CardError as error:
        if word.strip().upper() in ("JK", "JOKER"):
            raise ValueError(str(error)) from None
        raise ValueError(_("{word} is not a card: {help}").format(
            word=repr(word.strip()), help=card_help)) from None
