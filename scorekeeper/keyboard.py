"""Reading a move at the keyboard: the loop every game's UI shares."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.text import Text

from scorekeeper.cards import Card, CardError, parse_card
from scorekeeper.i18n import _, pgettext

Move = TypeVar("Move")


@dataclass(frozen=True, slots=True)
class Words:
    """The words a player may type for one answer: the active language's (``translated``,
    the catalog's comma-separated list) and the English ones, which every language
    accepts."""

    english: str
    translated: str

    @property
    def all(self) -> tuple[str, ...]:
        """Lower case, each once, the translated first."""
        typed = [word.strip().lower() for text in (self.translated, self.english)
                 for word in text.split(",")]
        return tuple(dict.fromkeys(word for word in typed if word))

    @property
    def shown(self) -> str:
        """The word to show (the language's first)."""
        return self.all[0]

    @property
    def named(self) -> str:
        """``erklær/declare``: the language's word and the English one."""
        english = self.english.split(",")[0].strip()
        return "/".join(dict.fromkeys((self.shown, english)))

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.strip().lower() in self.all


def help_words() -> Words:
    return Words("?, help", pgettext("words typed at a move, comma-separated", "?, help"))


def hint_words() -> Words:
    return Words("hint", pgettext("words typed at a move, comma-separated", "hint"))


def unknown_word(word: str, known: Iterable[Words], card_help: str) -> ValueError:
    """The refusal of a word that is neither a card nor a word the move knows: it names
    the words it does know (each with its English), and how cards are written."""
    listed = ", ".join(each.named for each in known)
    return ValueError(_("{word} is not a card: {help}; nor a word this move knows: {words}, "
                        "? for help").format(word=repr(word.strip()), words=listed,
                                             help=card_help))


_BETWEEN_MOVES = re.compile(r"(?<=: )|(?<=, )|(?<=\| )|(?<=· )")
"""Where a line of legal moves may break: after its heading's colon and between moves
(or between players' totals)."""


class MoveList:
    """A line of legal moves (``Discard one of: 3H 3S | 4S``, ``Legal: JK H, 9S``) wrapped
    only between moves, so a move of several words is never split over two lines; the
    lines after the first are indented. Also a line of totals (``Ann 3 (97 left) ·
    Bob 5 (95 left)``), broken only between players."""

    def __init__(self, line: str, style: str = "") -> None:
        self.line, self.style = line, style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        line = ""
        for piece in (part for part in _BETWEEN_MOVES.split(self.line) if part):
            if line.strip() and cell_len(line.rstrip()) + cell_len(piece.rstrip()) > width:
                yield Text(line.rstrip(), style=self.style)
                line = "  "
            line += piece
        if line.strip():
            yield Text(line.rstrip(), style=self.style)


def looks_like_a_word(word: str) -> bool:
    """Three letters or more and no digit: a word, not a card mistyped (``QS``, ``10X``)."""
    return len(word.strip()) >= 3 and not any(ch.isdigit() for ch in word)


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
        if word in help_words():
            say(Text(help_text, style="dim"))
            for line in legal_moves():
                say(MoveList(line))
            continue
        if hint is not None and word in hint_words():
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
