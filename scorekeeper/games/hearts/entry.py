"""What each player enters for a round of Hearts on their own page at the table
(``score serve --entry``): its declaration names it (``entry_form``), so only the
commands that take entries import it (start-up)."""

from __future__ import annotations

from scorekeeper.games.hearts.game import MOON_KEY
from scorekeeper.games.hearts.words import N_
from scorekeeper.kit.entry_form import SELF, EntryField, EntryForm

FORM = EntryForm(
    value=EntryField("points", "number", N_("Your penalty points in this deal"), "5"),
    claims=(EntryField("moon", "switch", N_("I shot the moon (took all 26)"),
                       sets=((MOON_KEY, SELF),)),),
    values_unless=(MOON_KEY,),
)
