"""High Card's words: its own gettext domain, ``high_card``, in this folder's ``locale/``."""

from __future__ import annotations

from importlib import resources

from scorekeeper.i18n import N_, Domain

WORDS = Domain("high_card", resources.files(__package__ or __name__) / "locale")
_ = WORDS.gettext
ngettext = WORDS.ngettext
pgettext = WORDS.pgettext

__all__ = ["N_", "WORDS", "_", "ngettext", "pgettext"]
