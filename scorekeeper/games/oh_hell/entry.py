"""What each player enters for a round of Oh Hell on their own page at the table
(``score serve --entry``): its declaration names it (``entry_form``), so only the
commands that take entries import it (start-up)."""

from __future__ import annotations

from scorekeeper.games.oh_hell.words import N_
from scorekeeper.kit.entry_form import EntryField, EntryForm

FORM = EntryForm(
    value=EntryField("contract", "text", N_("Your bid and the tricks you took (bid/tricks)"),
                     "2/1"),
)
