"""A player's own entry page of ``score serve --entry``, as data and as a page shell.

The state a page draws is built here from the session (what is recorded: public) and
that one player's own pending entry; no other player's entry is ever in it, only the
names of who has entered. The page (:func:`entry_document`) is a shell without values:
the state arrives as JSON over its live stream and ``static/entry.js`` draws it and
posts the player's entry.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping

from scorekeeper.i18n import _
from scorekeeper.kit.entries import EntryError, EntryValue, RoundEntry
from scorekeeper.kit.entry_form import EntryForm
from scorekeeper.session import Session
from scorekeeper.views.pages import plain
from scorekeeper.views.seat import JSONObject, script_page


def entry_conflicts(session: Session, entries: Mapping[str, Mapping[str, EntryValue]]
                    ) -> list[tuple[list[str], str]]:
    """The entries that can't all be right together, as soon as they are in: a claim
    only one can make made by several ("I declared" ticked twice), and two players'
    values the game's round checks refuse together (one card in two hands). Each is
    ``(who is involved, what they must change)``, in the pages' words; the entries
    themselves are checked one by one when they are posted."""
    form = session.declaration.entry_form
    if form is None:
        return []
    standings = session.standings
    expected = [name for name in standings.still_in if name in entries]
    found = [(players, message + ".")
             for _key, players, message in form.claim_conflicts(expected, entries)]
    questions = session.declaration.questions
    if questions is None:
        return found
    values: dict[str, tuple[tuple[str, str], ...]] = {}
    for name in expected:
        try:
            values[name] = form.player_entry(name, entries[name]).values
        except EntryError:
            continue  # nothing of theirs to set against another's
    for first, second in itertools.combinations(values, 2):
        if not values[first] or not values[second]:
            continue
        try:
            questions.check_given(session.seated, session.options, standings,
                                  RoundEntry((*values[first], *values[second])))
        except EntryError as problem:
            found.append(([first, second], _(
                "{problem}. {first} or {second} must change their entry.").format(
                    problem=problem, first=first, second=second)))
    return found


def entry_state(session: Session, player: str, mine: Mapping[str, EntryValue] | None,
                entered: list[str],
                conflicts: list[tuple[list[str], str]] | None = None) -> JSONObject:
    """What ``player``'s page shows now: the deal, the form, their own entry (``mine``),
    who is in (names only), the conflicts ``player`` is in (:func:`entry_conflicts`),
    the totals and the last recorded round."""
    form = session.declaration.entry_form
    standings = session.standings
    deal = len(session.rounds) + 1
    playing = player in standings.still_in
    open_ = form is not None and playing and not standings.finished and not session.abandoned
    expected = standings.still_in
    if standings.finished:
        status = _("The game is over.")
    elif not playing:
        status = _("You are out of the game: there is nothing to enter.")
    elif form is None:
        status = _("This game takes no entries from the players' pages.")
    elif mine is not None:
        status = _("Your entry is in. You can change it until the deal is recorded.")
    else:
        status = _("Enter your result for this deal.")
    dealer = standings.next_dealer
    title = (_("Deal {number} — {dealer} deals").format(number=deal, dealer=plain(dealer))
             if dealer else _("Deal {number}").format(number=deal))
    last: JSONObject | None = None
    if standings.rounds:
        scored = standings.rounds[-1]
        last = {"title": _("Round {number}: {what}").format(
                    number=scored.number, what=plain(scored.caption().sentence)),
                "scores": [{"name": plain(name), "value": plain(scored.values.get(name, "")),
                            "score": score} for name, score in scored.scores.items()]}
    return {
        "v": session.revision,
        "deal": deal,
        "player": plain(player),
        "title": plain(title),
        "status": status,
        "open": open_,
        "fields": [] if form is None or not open_ else _fields(form),
        "mine": None if mine is None else {key: value for key, value in mine.items()},
        "in": [plain(name) for name in expected if name in entered],
        "waiting": [plain(name) for name in expected if name not in entered],
        "conflicts": [plain(message) for players, message in conflicts or ()
                      if open_ and player in players],
        "totals": [{"name": plain(name), "total": standings.totals[name],
                    "out": name in standings.knocked_out} for name in session.players],
        "last": last,
    }


def _fields(form: EntryForm) -> list[JSONObject]:
    return [{"key": spec.key, "kind": spec.kind, "label": _(spec.label),
             "example": _(spec.example) if spec.example else ""} for spec in form.fields]


def entry_words() -> JSONObject:
    """The page's own words (the script's), in the page's language."""
    return {
        "send": _("Send my entry"),
        "change": _("Change my entry"),
        "sending": _("Sending…"),
        "saved": _("Saved."),
        "refused": _("Not taken: {problem}"),
        "lost": _("Connection lost: reconnecting…"),
        "live": _("Live: updates by itself."),
        "yours": _("Your entry"),
        "in": _("In"),
        "waiting": _("Waiting for"),
        "totals": _("Totals"),
        "last": _("Last round"),
    }


def entry_document(*, title: str, base: str, events: str, post: str, page_token: str,
                   words: JSONObject) -> str:
    """The player's entry page: a shell the entry script fills in from the live stream
    at ``events``; the entry is posted to ``post`` with ``page_token``."""
    return script_page(
        title=title, base=base, script="entry.js", main_id="entry",
        attributes={"data-events": events, "data-post": post, "data-page": page_token,
                    "data-words": json.dumps(words, ensure_ascii=False)},
        needs_script=_("This page needs JavaScript to take your entry."),
        footer='<p id="live" class="meta"></p>')
