"""Every error a user can cause, in one hierarchy: each is refused with one line on
stderr (``error: ...``, exit 1), never a traceback.

The modules that raise them re-export them where they always lived
(``scorekeeper.cards.CardError``, ``scorekeeper.kit.entries.EntryError``,
``scorekeeper.store.StoreError``), so either import works.
"""

from __future__ import annotations

from scorekeeper.i18n import _


class ScorekeeperError(Exception):
    """Something a user caused and can act on; the message is one line saying how."""


class EntryError(ScorekeeperError, ValueError):
    """An entry the rules refuse. The message is one line a player can act on."""


class MalformedValue(EntryError):
    """An option's value that is not of its form at all (a suit option given ``X``): a
    malformed command line, refused with exit 2 like a value the command line's parser
    refuses (a number option given ``x``), not a round the rules refuse (exit 1)."""


class RoundError(EntryError):
    """A stored round that no longer fits the rounds before it (after an edit or import)."""

    def __init__(self, number: int, reason: str) -> None:
        super().__init__(_("round {number}: {reason}").format(number=number, reason=reason))
        self.number = number
        self.reason = reason


class RosterError(RoundError):
    """A stored roster change (a player joining or leaving) that does not fit the rounds
    and changes before it. ``number`` is the round it comes before, so an edit that breaks
    it is reported like a later round it breaks."""

    def __init__(self, after: int, change: str, reason: str) -> None:
        EntryError.__init__(self, _("{change} after round {after}: {reason}").format(
            change=change, after=after, reason=reason))
        self.number = after + 1
        self.reason = reason


class CardError(ScorekeeperError, ValueError):
    """A piece of text is not a card in the notation of the rules."""


class IllegalAction(ScorekeeperError, ValueError):
    """An action on the virtual deck the rules refuse; the message says why, in words a
    player can act on."""


class StoreError(ScorekeeperError):
    """The store file can't be used as it is. The message names the file and what to do."""


class NewerStoreError(StoreError):
    """The store was written by a newer scorekeeper: upgrade, don't restore an old backup."""


class ConfigError(ScorekeeperError):
    """The config file can't be used; the message names the file."""
