"""What each player enters for a round of Least Score on their own page at the table
(``score serve --entry``): its declaration names it (``entry_form``), so only the
commands that take entries import it (start-up)."""

from __future__ import annotations

from scorekeeper.games.least_score.words import N_
from scorekeeper.kit.entry_form import SELF, EntryField, EntryForm

FORM = EntryForm(
    value=EntryField("hand", "text", N_("Your hand: its total, or its cards"),
                     N_("7, or AH,3S,3D")),
    claims=(EntryField("declared", "switch", N_("I declared"),
                       sets=(("declarer", SELF),)),),
)
