"""Points' words: its own gettext domain, ``points``, in this folder's ``locale/``
(docs/translating.md); the group's own games (group.py) speak them too."""

from __future__ import annotations

from importlib import resources

from scorekeeper.i18n import N_, Domain

WORDS = Domain("points", resources.files(__package__ or __name__) / "locale")
_ = WORDS.gettext
ngettext = WORDS.ngettext
pgettext = WORDS.pgettext

__all__ = ["N_", "WORDS", "_", "ngettext", "pgettext"]
