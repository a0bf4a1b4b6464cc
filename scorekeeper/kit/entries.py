"""Entries and refusals: a round as typed (RoundEntry), player names matched one way
everywhere, whole numbers parsed, one value per player; the errors a user can cause."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from scorekeeper.errors import EntryError as EntryError  # re-exported
from scorekeeper.errors import MalformedValue as MalformedValue  # re-exported
from scorekeeper.errors import RosterError as RosterError  # re-exported
from scorekeeper.errors import RoundError as RoundError  # re-exported
from scorekeeper.i18n import _, ngettext

__all__ = [
    "EntryError",
    "EntryValue",
    "MalformedValue",
    "Question",
    "RosterError",
    "RoundEntry",
    "RoundError",
    "check_participants",
    "collect_values",
    "looks_like_whole_number",
    "match_at_prompt",
    "match_player",
    "name_key",
    "parse_whole_number",
    "same_name",
]


EntryValue = str | int | bool | None
"""What one round option of the command line carries: a name or text, a number, a switch."""


class RoundEntry:
    """A round as typed on the command line, before the game checks it.

    ``values`` maps the names as typed to the raw text after ``=``; the keyword fields are
    the round options the game declares (:class:`RoundOption`), given or not.

    >>> entry = RoundEntry((("Ann", "7"),), leader="Ann", pick=None)
    >>> entry.text("leader"), entry.number("pick"), entry.given()
    ('Ann', None, ['leader'])
    """

    __slots__ = ("fields", "values")

    def __init__(self, values: Sequence[tuple[str, str]] = (), **fields: EntryValue) -> None:
        self.values: tuple[tuple[str, str], ...] = tuple(values)
        self.fields: dict[str, EntryValue] = dict(fields)

    def get(self, key: str) -> EntryValue:
        return self.fields.get(key)

    def text(self, key: str) -> str | None:
        """A name or text field (None when not given)."""
        value = self.fields.get(key)
        return None if value is None or isinstance(value, bool) else str(value)

    def number(self, key: str) -> int | None:
        """A whole-number field (None when not given)."""
        value = self.fields.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def switch(self, key: str) -> bool:
        """A switch field: on or off."""
        return self.fields.get(key) is True

    def given(self) -> list[str]:
        """The fields the command line gave (a switch counts when on)."""
        return [key for key, value in self.fields.items()
                if value is not None and value is not False]

    def with_fields(self, **fields: EntryValue) -> RoundEntry:
        return RoundEntry(self.values, **{**self.fields, **fields})

    def with_values(self, values: Sequence[tuple[str, str]]) -> RoundEntry:
        return RoundEntry(values, **self.fields)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoundEntry) and (self.values, self.given_fields()) == \
            (other.values, other.given_fields())

    def __hash__(self) -> int:
        return hash((self.values, tuple(sorted(self.given_fields().items()))))

    def given_fields(self) -> dict[str, EntryValue]:
        return {key: self.fields[key] for key in self.given()}

    def __repr__(self) -> str:
        fields = "".join(f", {key}={value!r}" for key, value in self.given_fields().items())
        return f"RoundEntry({self.values!r}{fields})"


class Question(NamedTuple):
    """One thing to ask at a terminal for a round left incomplete on the command line.

    ``answer`` checks what was typed with the same rules and messages as the command
    line and returns the entry with it filled in, or raises :class:`EntryError` with the
    reason, so the question can be asked again."""

    prompt: str
    answer: Callable[[str], RoundEntry]
    default: str | None = None
    """Offered when Enter is pressed alone (edit-round: what the round holds now)."""


def name_key(name: str) -> str:
    """What two player names must differ in, everywhere (the one place it is defined):
    case and compatibility forms (fullwidth letters, ligatures) ignored, and so any
    Unicode spelling of the same letters, so ``Ann``, ``ANN`` and ``ＡＮＮ`` are one name.

    >>> name_key("ＡＮＮ") == name_key("ann") == name_key("Ann")
    True
    """
    return unicodedata.normalize("NFKC", name.casefold()).casefold()


def same_name(first: str, second: str) -> bool:
    return name_key(first) == name_key(second)


def match_player(players: Sequence[str], typed: str, what: str = "") -> str:
    """The session's spelling of ``typed``: the player whose name is the same
    (:func:`name_key`), so an ``é`` typed as ``e`` + accent, or in another case, matches.

    ``what`` is the role looked for, already translated (``_("leader")``); default: player.
    """
    wanted = name_key(typed.strip())
    for name in players:
        if name_key(name) == wanted:
            return name
    close = _close_name(players, typed)
    names = ", ".join(players)
    if close:
        message = _("there is no {what} called {typed} (did you mean {close}?): "
                    "the players are {players}")
    else:
        message = _("there is no {what} called {typed}: the players are {players}")
    raise EntryError(message.format(what=what or _("player"), typed=repr(typed.strip()),
                                    close=close, players=names))


def match_at_prompt(players: Sequence[str], typed: str, what: str = "") -> str:
    """Like :func:`match_player`, but at a prompt the start of a name is enough when only
    one name starts that way (``d`` for Dan).

    >>> match_at_prompt(["Ann", "Dan", "Dave"], "an"), match_at_prompt(["Ann", "Dan"], "d")
    ('Ann', 'Dan')
    """
    wanted = name_key(typed.strip())
    if not wanted:
        raise EntryError(_("type a name: {players}").format(players=", ".join(players)))
    exact = [name for name in players if name_key(name) == wanted]
    starting = [name for name in players if name_key(name).startswith(wanted)]
    if exact or len(starting) == 1:
        return (exact or starting)[0]
    if starting:
        raise EntryError(_("{typed} could be {names}: type more of the name").format(
            typed=repr(typed.strip()), names=_(" or ").join(starting)))
    return match_player(players, typed, what)


def _close_name(players: Sequence[str], typed: str) -> str:
    """The player a near miss meant (difflib, ignoring case), or the one player whose
    name starts with what was typed (``Al`` for Alexander, too short for difflib), else
    ""."""
    import difflib  # only when a name is mistyped

    keyed = {name_key(name): name for name in players}
    wanted = name_key(typed.strip())
    close = difflib.get_close_matches(wanted, list(keyed), n=1, cutoff=0.6)
    starting = [key for key in keyed if wanted and key.startswith(wanted)]
    if not close and len(starting) == 1:
        close = starting
    return keyed[close[0]] if close else ""


def looks_like_whole_number(text: str) -> bool:
    """An optional sign then ASCII digits only (not ``²``, ``+-5`` or ``1_000``)."""
    return _WHOLE_NUMBER.fullmatch(text.strip()) is not None


def parse_whole_number(text: str, what: str) -> int:
    stripped = text.strip()
    if looks_like_whole_number(stripped):
        try:
            return int(stripped)
        except ValueError:  # more digits than int() converts
            raise EntryError(_("{what} is far too large: {digits}...").format(
                what=what, digits=stripped[:12])) from None
    raise EntryError(_("{what} must be a whole number, not {value}").format(
        what=what, value=repr(text.strip())))


_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


def collect_values(players: Sequence[str], entry: RoundEntry, what: str) -> dict[str, str]:
    """Map each typed ``NAME=VALUE`` to the session's spelling of NAME, refusing repeats."""
    found: dict[str, str] = {}
    for typed, raw in entry.values:
        name = match_player(players, typed)
        if name in found:
            raise EntryError(_("{name} is entered twice: give one {what} per player").format(
                name=name, what=what))
        found[name] = raw
    return found


def check_participants(entered: Iterable[str], expected: Sequence[str], what: str) -> None:
    """Exactly one value per expected player: nobody missing, nobody extra."""
    entered = list(entered)
    extra = [name for name in entered if name not in expected]
    if extra:
        raise EntryError(_("{name} is not in this deal and gets no {what}: enter one for "
                           "{players}").format(name=extra[0], what=what,
                                               players=", ".join(expected)))
    missing = [name for name in expected if name not in entered]
    if missing:
        message = ngettext(
            "{names} is missing: enter a {what} for every player still in: {players}",
            "{names} are missing: enter a {what} for every player still in: {players}",
            len(missing))
        raise EntryError(message.format(names=", ".join(missing), what=what,
                                        players=", ".join(expected)))
