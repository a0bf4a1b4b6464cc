"""A game on the virtual deck's settings, kept beside its rounds: the seed every shuffle
and bot draws from, the seats, the deals dealt again (FORMAT.md's ``virtual``).

Their own module (re-exported by :mod:`scorekeeper.session`): a command on a game at the
table never imports it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.i18n import N_, _
from scorekeeper.kit.entries import EntryError
from scorekeeper.kit.rounds import JSONObject


@dataclass(frozen=True, slots=True)
class VirtualSeat:
    """One seat of a game on the virtual deck: who sits there, and which bot plays it."""

    name: str
    bot: str | None = None
    """The bot level, or ``None`` for a human at the keyboard."""

    def as_dict(self) -> dict[str, str | None]:
        return {"name": self.name, "bot": self.bot}


DERIVATIONS = (1, 2)
"""The ways of deriving a deal's random generators from the seed (:attr:`VirtualSettings.
derivation`); new games take the last."""

_VIRTUAL_SHAPE = N_("its 'virtual' part must be {\"seed\": N, \"seats\": [{\"name\", "
                    "\"bot\"}, ...]}")
_RESTARTS_SHAPE = N_("its virtual 'restarts' must map deal numbers to how many times each was "
                     "dealt again, e.g. {\"2\": 1}")


@dataclass(frozen=True, slots=True)
class VirtualSettings:
    """What a game on the virtual deck keeps besides its rounds: the seed every shuffle and
    bot draws from, the seats, and the deals abandoned and dealt again (``restarts``).

    Stored and exported as JSON (:meth:`as_json`, FORMAT.md's ``virtual``); read back,
    checked, by :meth:`from_json`.

    >>> settings = VirtualSettings(7, (VirtualSeat("Ann"), VirtualSeat("Strong-2", "strong")))
    >>> settings.restarted(2).as_json()["restarts"]
    {'2': 1}
    """

    seed: int
    seats: tuple[VirtualSeat, ...]
    restarts: tuple[tuple[int, int], ...] = ()
    """``(deal number, times dealt again)``, by deal number."""
    derivation: int = 1
    """How each deal's random generators follow from the seed (``match.deal_generators``):
    1, a generator for the shuffle and one per player; 2 (games started since), one
    generator for the shuffle and then every bot. Stored as ``"derivation": 2``; a
    session without it is 1, so games saved before still replay and resume exactly."""

    def restarts_of(self, number: int) -> int:
        return dict(self.restarts).get(number, 0)

    def restarted(self, number: int) -> VirtualSettings:
        counts = dict(self.restarts)
        counts[number] = counts.get(number, 0) + 1
        return replace(self, restarts=tuple(sorted(counts.items())))

    def renamed(self, names: Mapping[str, str]) -> VirtualSettings:
        return replace(self, seats=tuple(replace(seat, name=names.get(seat.name, seat.name))
                                         for seat in self.seats))

    def as_json(self) -> JSONObject:
        data: JSONObject = {"seed": self.seed, "seats": [seat.as_dict() for seat in self.seats]}
        if self.restarts:
            data["restarts"] = {str(number): count for number, count in self.restarts}
        if self.derivation != 1:
            data["derivation"] = self.derivation
        return data

    @classmethod
    def from_json(cls, data: Any) -> VirtualSettings:
        """Settings from JSON (a file or the store), every part checked for its type."""
        if not isinstance(data, dict):
            raise EntryError(_(_VIRTUAL_SHAPE))
        seed, seats = data.get("seed"), data.get("seats")
        if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(seats, list) \
                or not all(isinstance(seat, dict) and isinstance(seat.get("name"), str)
                           and isinstance(seat.get("bot"), str | None) for seat in seats):
            raise EntryError(_(_VIRTUAL_SHAPE))
        restarts = data.get("restarts")
        derivation = data.get("derivation", 1)
        if derivation not in DERIVATIONS or isinstance(derivation, bool):
            raise EntryError(_("its virtual 'derivation' must be one of {versions}, not "
                               "{value}").format(versions=", ".join(map(str, DERIVATIONS)),
                                                 value=json.dumps(derivation)))
        return cls(seed, tuple(VirtualSeat(seat["name"], seat.get("bot")) for seat in seats),
                   () if restarts is None else _restarts(restarts), derivation)


def _restarts(restarts: Any) -> tuple[tuple[int, int], ...]:
    """``{"2": 1}``: deal 2 was abandoned once and dealt again from a fresh shuffle."""
    if not isinstance(restarts, dict):
        raise EntryError(_(_RESTARTS_SHAPE))
    checked: dict[int, int] = {}
    for number, count in restarts.items():
        if (not isinstance(number, str) or not number.isascii() or not number.isdigit()
                or len(number) > 9 or int(number) < 1
                or not isinstance(count, int) or isinstance(count, bool)
                or not 1 <= count <= 1_000_000):
            raise EntryError(_(_RESTARTS_SHAPE))
        checked[int(number)] = count
    return tuple(sorted(checked.items()))
