"""What each player enters for a round of Points on their own page at the table
(``score serve --entry``): its declaration names it (``entry_form``), so only the
commands that take entries import it (start-up)."""

from __future__ import annotations

from scorekeeper.games.points.words import N_
from scorekeeper.kit.entry_form import EntryField, EntryForm

FORM = EntryForm(value=EntryField("points", "number", N_("Your points in this deal"),
                                      "12"))
