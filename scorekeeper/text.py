"""User text is data: the one rule for characters that act instead of being seen.

A name, a session name or anything read from a file may hold characters that a
terminal, a spreadsheet or a text view obeys rather than shows: ESC and BEL (escape
sequences that set the window title or clear the screen), line breaks, zero-width
and bidi-override characters (two names that look alike, text shown reordered),
lone surrogates (which can't even be encoded for output). Names refuse them
(:func:`hidden_characters`); everything printed or exported shows them escaped
(:func:`show_controls`), so ESC appears as the four characters ``\\x1b``.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.text import Text

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Unicode categories that act rather than show: control, format (zero-width, bidi),
surrogate, line separator, paragraph separator."""


def is_hidden(character: str) -> bool:
    return unicodedata.category(character) in HIDDEN_CATEGORIES


def hidden_characters(text: str) -> list[str]:
    """The characters of ``text`` that would act instead of being seen."""
    if text.isprintable():  # the fast path: no control, format or separator at all
        return []
    return [character for character in text if is_hidden(character)]


def escaped(character: str) -> str:
    """How a hidden character is shown: its Python escape (``\\x1b``, ``\\n``, ``\\u200b``)."""
    return repr(character)[1:-1]


def show_controls(text: str) -> str:
    """``text`` with every hidden character written as its escape, the rest unchanged."""
    if text.isprintable():
        return text
    return "".join(escaped(ch) if is_hidden(ch) else ch for ch in text)


def count(number: int, noun: str, plural: str = "") -> str:
    """``1 round``, ``2 rounds``, ``0 rounds``: a number with its noun, as people write it
    in English: for text kept as data (a session's log); words shown to people go through
    ``scorekeeper.i18n.ngettext``.

    >>> count(1, "round"), count(14, "round"), count(0, "problem"), count(2, "match", "matches")
    ('1 round', '14 rounds', '0 problems', '2 matches')
    """
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def fill(template: str, style: str = "", **parts: object) -> Text:
    """A translated ``template`` (``"{player} discards {cards}"``) as rich Text, each
    placeholder filled with its part: a rich ``Text`` keeps its styles (cards in colour),
    anything else is added as plain text, never read as markup (names are user text).

    >>> fill("{who} takes {what}", who="[b]Ann", what="7C").plain
    '[b]Ann takes 7C'
    """
    import string

    from rich.text import Text

    text = Text(style=style)
    for literal, field, spec, _conversion in string.Formatter().parse(template):
        text.append(literal)
        if field is None:
            continue
        part = parts[field]
        if isinstance(part, Text):
            text.append_text(part)
        else:
            text.append(format(part, spec or ""))
    return text
