"""Hearts' words: its own gettext domain, ``hearts``, then its base's (Points')."""

from __future__ import annotations

from importlib import resources

from scorekeeper.games.points.words import WORDS as BASE_WORDS
from scorekeeper.i18n import N_, Domain

WORDS = Domain("hearts", resources.files(__package__ or __name__) / "locale", base=BASE_WORDS)
_ = WORDS.gettext
ngettext = WORDS.ngettext
pgettext = WORDS.pgettext

__all__ = ["N_", "WORDS", "_", "ngettext", "pgettext"]
