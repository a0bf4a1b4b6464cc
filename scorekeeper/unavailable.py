"""A stored session whose game is not installed: what can be read of it without its rules.

Its own module (re-exported by :mod:`scorekeeper.session`): only a store holding such a
session, and the commands that list, log, check or delete them, import it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.i18n import _
from scorekeeper.kit.rounds import JSONObject


@dataclass(frozen=True)
class UnavailableSession:
    """A stored session whose game is not installed (a group's file moved, renamed or
    broken; a plug-in uninstalled): what can be read without the game's rules, and the
    stored document itself, kept untouched (nothing ever re-scores or rewrites it).

    The store lists it, ``log`` shows its history, ``delete`` removes it; the commands
    that need its rules refuse it in one line (:attr:`problem`) until the game is back,
    when it is read as a :class:`Session` again."""

    id: int
    game: str
    name: str
    players: tuple[str, ...]
    created: str
    revision: int
    rounds: int
    history: tuple[JSONObject, ...]
    abandoned: str
    mode: str
    problem: str
    """The one line that names the game and what to do (``game 'kings' is not
    installed: put games/kings.toml back``)."""
    document: JSONObject
    """The stored document as read (a copy: the store's own is never touched)."""

    @property
    def label(self) -> str:
        return self.name or f"{self.game} #{self.id}"

    @property
    def refusal(self) -> str:
        """The one line a command that needs the game says: the session, the game, the fix."""
        return _("session {id} ({label}) can't be used: {problem}").format(
            id=self.id, label=self.label, problem=self.problem)

    def to_document(self) -> JSONObject:
        """The stored document, as it was read."""
        return copy.deepcopy(dict(self.document))

    @classmethod
    def from_document(cls, document: Mapping[str, Any], session_id: int,
                      problem: str) -> UnavailableSession:
        """The readable part of a stored session whose game is missing; a ValueError when
        even that part is damaged (then it is damaged, not only unavailable)."""
        game, players = document.get("game"), document.get("players")
        if not isinstance(game, str):
            raise ValueError(_("its game is not a name"))
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError(_("its players are not a list of names"))
        revision = document.get("revision", 0)
        if not isinstance(revision, int) or isinstance(revision, bool) or revision < 0:
            raise ValueError(_("its revision is not a count of writes: {revision}").format(
                revision=repr(revision)))
        rounds, history = document.get("rounds", []), document.get("history", [])
        if not isinstance(rounds, list) or not isinstance(history, list) or \
                not all(isinstance(entry, Mapping) for entry in history):
            raise ValueError(_("its rounds or history are not lists"))
        texts = {key: document.get(key, "") for key in ("name", "created", "abandoned")}
        mode = document.get("mode", "table")
        if not all(isinstance(value, str) for value in (*texts.values(), mode)):
            raise ValueError(_("its name, times or mode are not text"))
        return cls(id=session_id, game=game, name=texts["name"], players=tuple(players),
                   created=texts["created"], revision=revision, rounds=len(rounds),
                   history=tuple(dict(entry) for entry in history),
                   abandoned=texts["abandoned"], mode=mode, problem=problem,
                   document=copy.deepcopy(dict(document)))
