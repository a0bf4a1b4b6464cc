"""What a seat's page of ``score play --online`` shows, as data: the seat's state is a
JSON object built only from the engine's observation for that seat (a game's ``online``
module builds it from its ``View``), never from the deal itself, so no answer to a seat
can carry a card that seat may not see.

The page itself (``seat_document``) is a shell with no game in it: the state arrives as
JSON over its live stream and the seat script (``static/seat.js``) draws it, so the one
path cards take to a phone is the JSON this module's callers build.

A seat state (every word in the page's language):

``hand``
    ``{"label", "cards": [...], "note"}`` or None (the public page has none);
``table``
    rows ``{"label", "cards": [...], "text"}``: what the whole table sees;
``status``
    whose turn it is, in words;
``moves``
    None when it is not the seat's turn, else ``{"pick": {"label", "cards", "sets"} or
    None, "buttons": [{"label", "card", "needs_pick"}]}``: the legal moves as buttons
    (with ``pick``, cards of the hand are chosen first, e.g. Least Score's discard);
    a move is posted as ``{"button": i, "picked": [...]}`` and the game's
    ``action_of`` turns it into an engine action, which the engine checks;
``help``
    the rules of the move in words.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any

from rich.console import Group
from rich.text import Text

from scorekeeper.i18n import _
from scorekeeper.kit.rounds import JSONObject as JSONObject  # the pages' state (re-exported)
from scorekeeper.views import app_icon
from scorekeeper.views.export import html_language

STATIC = resources.files("scorekeeper") / "views" / "static"


def static_file(name: str) -> bytes:
    """One of the page's own files (``seat.js``, ``seat.css``), shipped in the package."""
    return (STATIC / name).read_bytes()


def plain_lines(renderable: Any) -> list[str]:
    """A keyboard UI's rich renderable (a Text, a Group of them) as lines of plain text."""
    if isinstance(renderable, Text):
        return [renderable.plain]
    if isinstance(renderable, Group):
        return [line for part in renderable.renderables for line in plain_lines(part)]
    if isinstance(renderable, str):
        return [renderable]
    return []


def row(label: str, cards: Iterable[object] = (), text: str = "") -> JSONObject:
    """One row of the table: a label, cards (their notation, ``10H``), words."""
    return {"label": label, "cards": [str(card) for card in cards], "text": text}


def button(label: str, card: object | None = None, *, needs_pick: bool = False,
           suit: str | None = None) -> JSONObject:
    """A move's button: its words, the card it plays and, for a card that names a suit
    (One Card's joker led), the suit's symbol shown beside the card."""
    return {"label": label, "card": None if card is None else str(card),
            "needs_pick": needs_pick, **({"suit": suit} if suit is not None else {})}


def pick_key(cards: Iterable[object]) -> str:
    """The key of a set of picked cards in a pick's ``problems``: their notation,
    sorted, space-separated (as the seat script builds it)."""
    return " ".join(sorted(str(card) for card in cards))


def pick(label: str, cards: Sequence[object], sets: Iterable[Sequence[object]],
         problems: dict[str, str] | None = None) -> JSONObject:
    """Cards of the hand to choose before a button: the legal ``sets``, and for every
    other choice the reason it is not one (``problems``, by :func:`pick_key`), shown
    under the cards as soon as it is picked."""
    return {"label": label, "cards": [str(card) for card in cards],
            "sets": [sorted(str(card) for card in chosen) for chosen in sets],
            "problems": problems or {}}


def seat_words() -> JSONObject:
    """The page's own words (the script's), in the page's language."""
    return {
        "hint": _("Hint"),
        "help": _("Help"),
        "totals": _("Totals"),
        "since": _("This deal so far"),
        "last_deal": _("Last deal"),
        "sending": _("Sending your move…"),
        "refused": _("Not allowed: {problem}"),
        "lost": _("Connection lost: reconnecting…"),
        "live": _("Live: updates by itself."),
        "awake": _("The screen stays on while this page is open."),
        "no_wake": _("This browser can't keep the screen on: set the phone's screen "
                     "timeout longer while you play."),
    }


def script_page(*, title: str, base: str, script: str, main_id: str,
                attributes: dict[str, str], needs_script: str, footer: str) -> str:
    """A page the phone's script fills in (a seat's, the public table's, a player's entry):
    the head, the script, and ``main`` carrying ``attributes`` for the script to read."""
    shown = " ".join(f'{name}="{html.escape(value, quote=True)}"'
                     for name, value in attributes.items())
    return "\n".join([
        "<!DOCTYPE html>",
        f'<html {html_language()}><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">',
        '<meta name="referrer" content="no-referrer">',
        f'<base href="{html.escape(base)}">',
        f"<title>{html.escape(title)}</title>",
        *app_icon.head_links(),
        '<link rel="stylesheet" href="seat.css">',
        f'<script src="{script}" defer></script>',
        "</head><body>",
        f'<main id="{main_id}" {shown}>',
        f"<h1>{html.escape(title)}</h1>",
        f'<noscript><p class="problem">{html.escape(needs_script)}</p></noscript>',
        "</main>",
        f"<footer>{footer}</footer>",
        "</body></html>",
    ]) + "\n"


def seat_document(*, title: str, base: str, events: str, move: str | None,
                  page_token: str, words: JSONObject) -> str:
    """The seat's (or the public table's) page: a shell the seat script fills in from
    the live stream at ``events``; ``move`` (None on the public page) is where moves are
    posted, with ``page_token``."""
    import json

    return script_page(
        title=title, base=base, script="seat.js", main_id="seat",
        attributes={"data-events": events, "data-move": move or "",
                    "data-page": page_token,
                    "data-words": json.dumps(words, ensure_ascii=False)},
        needs_script=_("This page needs JavaScript to show the game and take your moves."),
        footer='<p id="live" class="meta"></p><p id="awake" class="meta"></p>')
