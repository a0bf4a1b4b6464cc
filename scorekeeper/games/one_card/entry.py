"""What each player enters for a round of One Card on their own page at the table
(``score serve --entry``): its declaration names it (``entry_form``), so only the
commands that take entries import it (start-up)."""

from __future__ import annotations

from scorekeeper.games.one_card.words import N_
from scorekeeper.kit.entry_form import SELF, VALUE, EntryField, EntryForm

FORM = EntryForm(
    value=EntryField("points", "number", N_("Your points, the One Card included"), "4"),
    claims=(EntryField("bid", "number", N_("If you won the bidding: your bid"), "9",
                       sets=(("bidder", SELF), ("bid", VALUE))),),
)
