"""Quick Least Score's words: its own domain, ``quick_least_score``, then its base's (a
message it does not say differently is Least Score's)."""

from __future__ import annotations

from importlib import resources

from scorekeeper.games.least_score.words import WORDS as BASE_WORDS
from scorekeeper.i18n import N_, Domain

WORDS = Domain("quick_least_score", resources.files(__package__ or __name__) / "locale",
               base=BASE_WORDS)
_ = WORDS.gettext

__all__ = ["N_", "WORDS", "_"]
