"""Oh Hell's words: its own gettext domain, ``oh_hell``, in this folder's ``locale/``
(docs/translating.md). Its modules translate with these functions, looked up when
called, so the run's language applies; the declaration (game.py) names the domain so
that the generic layers find the words it gives them.
"""

from __future__ import annotations

from importlib import resources

from scorekeeper.i18n import N_, Domain

WORDS = Domain("oh_hell", resources.files(__package__ or __name__) / "locale")
_ = WORDS.gettext
ngettext = WORDS.ngettext
pgettext = WORDS.pgettext

__all__ = ["N_", "WORDS", "_", "ngettext", "pgettext"]
