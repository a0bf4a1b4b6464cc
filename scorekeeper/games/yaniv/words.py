"""Yaniv's words: its own gettext domain, ``yaniv``, then its base's (a message Yaniv does
not say differently is Least Score's)."""

from __future__ import annotations

from importlib import resources

from scorekeeper.games.least_score.words import WORDS as BASE_WORDS
from scorekeeper.i18n import N_, Domain

WORDS = Domain("yaniv", resources.files(__package__ or __name__) / "locale", base=BASE_WORDS)
_ = WORDS.gettext
ngettext = WORDS.ngettext
pgettext = WORDS.pgettext

__all__ = ["N_", "WORDS", "_", "ngettext", "pgettext"]
