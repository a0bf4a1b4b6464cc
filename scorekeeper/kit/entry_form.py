"""What each player enters on their own page at the table (``score serve --entry``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from scorekeeper.i18n import _, ngettext
from scorekeeper.kit.entries import (
    EntryError,
    EntryValue,
    RoundEntry,
    looks_like_whole_number,
    parse_whole_number,
)
from scorekeeper.kit.options import option_flag

__all__ = [
    "MAX_ENTRY_TEXT",
    "SELF",
    "VALUE",
    "EntryField",
    "EntryForm",
    "EntryProblem",
]


SELF = "self"
"""What an :class:`EntryField` claim sets a round option to: the entering player's name."""


VALUE = "value"
"""...or the value the player gave in that field (a number the player names)."""


@dataclass(frozen=True, slots=True)
class EntryField:
    """One field of a player's own entry page (``score serve --entry``).

    ``kind``: ``text``, ``number`` (a whole number) or ``switch`` (a box to tick).
    A *claim* (``sets`` not empty) is something the player says about the deal itself,
    filling round options the keeper's ``add-round`` left out: ``("leader", SELF)``
    makes the player who ticked "I lead" the ``--leader``; ``("pick", VALUE)`` takes
    the number typed as ``--pick``."""

    key: str
    kind: Literal["text", "number", "switch"]
    label: str
    """What the page asks (N_-marked in the game's folder)."""
    example: str = ""
    """A placeholder showing what to type (``7 or AH,3S``)."""
    sets: tuple[tuple[str, str], ...] = ()
    """(round option key, SELF or VALUE) for each round option a claim fills."""


class EntryProblem(EntryError):
    """A player's own entry refused, or the entries of a deal that can't make a round yet."""


@dataclass(frozen=True, slots=True)
class EntryForm:
    """What each player enters on their own page for a deal at the table (declared in
    the game's folder, ``GameDeclaration.entry_form``): their value (the same text as
    ``NAME=VALUE`` on ``add-round``'s command line) and any claims about the deal.

    A player's entry is checked with the game's own round checks (its questions'
    ``check_given``, as ``add-round`` checks a typed value), and the deal's entries make
    the :class:`RoundEntry` ``add-round`` records (:meth:`round_entry`)."""

    value: EntryField
    claims: tuple[EntryField, ...] = ()
    values_unless: tuple[str, ...] = ()
    """Round options that, once given, leave the values out of the round (the game counts
    the points for the players)."""

    @property
    def fields(self) -> tuple[EntryField, ...]:
        return (self.value, *self.claims)

    def needs_values(self, options: Mapping[str, EntryValue]) -> bool:
        return not any(options.get(key) not in (None, False) for key in self.values_unless)

    def read(self, player: str, posted: Mapping[str, object]) -> dict[str, EntryValue]:
        """A player's posted fields as stored: text stripped, numbers parsed, switches
        True or left out, empty fields left out; a field of the wrong type refused."""
        fields: dict[str, EntryValue] = {}
        for spec in self.fields:
            raw = posted.get(spec.key)
            if raw is None or raw is False or raw == "":
                continue
            if spec.kind == "switch":
                if raw is not True:
                    raise EntryProblem(_("{field} is a box to tick or not").format(
                        field=_(spec.label)))
                fields[spec.key] = True
                continue
            if not isinstance(raw, str) or len(raw) > MAX_ENTRY_TEXT:
                raise EntryProblem(_("{field}: type at most {most} characters").format(
                    field=_(spec.label), most=MAX_ENTRY_TEXT))
            text = raw.strip()
            if not text:
                continue
            if spec.kind == "number" and not looks_like_whole_number(text):
                raise EntryProblem(_("{field}: type a whole number, not {value}").format(
                    field=_(spec.label), value=repr(text)))
            fields[spec.key] = (parse_whole_number(text, _(spec.label))
                                if spec.kind == "number" else text)
        return fields

    def claimed(self, player: str, fields: Mapping[str, EntryValue]) -> dict[str, EntryValue]:
        """The round options one player's claims fill."""
        options: dict[str, EntryValue] = {}
        for spec in self.claims:
            value = fields.get(spec.key)
            if value is None or value is False:
                continue
            for key, what in spec.sets:
                options[key] = player if what == SELF else value
        return options

    def player_entry(self, player: str, fields: Mapping[str, EntryValue]) -> RoundEntry:
        """One player's entry as ``add-round`` would see it typed: their own value and the
        round options their claims fill."""
        options = self.claimed(player, fields)
        value = fields.get(self.value.key)
        if not self.needs_values(options):
            values: tuple[tuple[str, str], ...] = ()
        elif value is None:
            raise EntryProblem(_("{field}: this is what the deal needs from you").format(
                field=_(self.value.label)))
        else:
            values = ((player, str(value)),)
        return RoundEntry(values, **options)

    def claim_conflicts(self, expected: Sequence[str],
                        entered: Mapping[str, Mapping[str, EntryValue]]
                        ) -> list[tuple[str, list[str], str]]:
        """The claims only one player can make that several made ("I declared" ticked
        on two pages): ``(round option, who made it, what they must change)``, in the
        words of the pages, for their pages and ``add-round``'s refusal alike."""
        found: list[tuple[str, list[str], str]] = []
        for spec in self.claims:
            for key, _what in spec.sets[:1]:
                claims = {player: self.claimed(player, entered.get(player, {})).get(key)
                          for player in expected}
                claimers = [player for player, value in claims.items() if value is not None]
                if len({str(claims[player]) for player in claimers}) < 2:
                    continue
                found.append((key, claimers, _claim_conflict(spec, claimers)))
        return found

    def round_entry(self, given: RoundEntry, expected: Sequence[str],
                    entered: Mapping[str, Mapping[str, EntryValue]]) -> RoundEntry:
        """The deal's round from the players' entries (``entered``: each player's fields)
        and the options the keeper's ``add-round`` gave (``given``, which win over a
        claim). Refused, in one line, while a player of ``expected`` has not entered or
        two claims disagree."""
        options: dict[str, EntryValue] = {}
        for key, _players, message in self.claim_conflicts(expected, entered):
            if given.get(key) in (None, False):
                raise EntryProblem(_("{conflict}, or give {flag} on the command line").format(
                    conflict=message, flag=option_flag(key)))
        for player in expected:
            for key, value in self.claimed(player, entered.get(player, {})).items():
                if given.get(key) in (None, False):
                    options[key] = value
        entry = given.with_fields(**options)
        if not self.needs_values(entry.fields):
            return entry
        missing = [player for player in expected
                   if entered.get(player, {}).get(self.value.key) is None]
        if missing:
            raise EntryProblem(ngettext(
                "{names} has not entered yet: wait for their entry, or type every "
                "player's NAME=VALUE",
                "{names} have not entered yet: wait for their entries, or type every "
                "player's NAME=VALUE", len(missing)).format(names=", ".join(missing)))
        return entry.with_values(tuple((player, str(entered[player][self.value.key]))
                                       for player in expected))


def _claim_conflict(spec: EntryField, players: Sequence[str]) -> str:
    """What the players who all made one claim must do: all but one take it back."""
    field = _(spec.label)
    if len(players) == 2:
        first, second = players
        return (_("{first} and {second} both ticked “{field}”: one of you must untick it")
                if spec.kind == "switch" else
                _("{first} and {second} both filled in “{field}”: one of you must empty it")
                ).format(first=first, second=second, field=field)
    shown = ", ".join(players)
    return (_("{players} all ticked “{field}”: all but one of you must untick it")
            if spec.kind == "switch" else
            _("{players} all filled in “{field}”: all but one of you must empty it")
            ).format(players=shown, field=field)


MAX_ENTRY_TEXT = 200
"""The longest text a field of an entry page takes (five cards take 14 characters)."""
